// API keys `loam_<key_id>_<secret>` (spec §6): the secret is shown once at creation and
// only sha256(secret) is stored; verification compares hashes in constant time.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** key_id: 8 random bytes (hex): unique enough to be a primary key, short enough to log. */
export const KEY_ID_BYTES = 8;
/** secret: 32 random bytes (hex), 256 bits: not guessable. */
export const SECRET_BYTES = 32;
export const KEY_PATTERN = /^loam_([0-9a-f]{16})_([0-9a-f]{64})$/;

export interface NewKey {
  keyId: string;
  secret: string;
  /** The whole key as the client sends it; shown once. */
  token: string;
  secretHash: string;
}

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

export function newKey(): NewKey {
  const keyId = randomBytes(KEY_ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  return { keyId, secret, token: `loam_${keyId}_${secret}`, secretHash: hashSecret(secret) };
}

/** The key id and secret of a well-formed key, or null. */
export function parseKey(token: string): { keyId: string; secret: string } | null {
  const m = KEY_PATTERN.exec(token);
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}

/** A hash no secret has, compared against when the key id is unknown (same work either way). */
const DUMMY_HASH = hashSecret(randomBytes(SECRET_BYTES).toString('hex'));

/** Constant-time: hashes the presented secret and compares it with `storedHash` (or a dummy). */
export function verifySecret(secret: string, storedHash: string | null): boolean {
  const a = Buffer.from(hashSecret(secret), 'hex');
  const b = Buffer.from(storedHash ?? DUMMY_HASH, 'hex');
  const same = a.length === b.length && timingSafeEqual(a, b);
  return same && storedHash !== null;
}

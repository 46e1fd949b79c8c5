// Envelope encryption primitives (spec §9.8): AES-256-GCM from node:crypto, a 96-bit random
// IV, a 128-bit tag, and AAD that binds a ciphertext to where it belongs (namespace, object
// path, key version), so bytes copied to another object or namespace fail to decrypt.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ownedBytes } from './owned.js';

export const KEY_BYTES = 32;
/** 96-bit IVs: GCM's native size; random per encryption (a fresh data key per chunk, too). */
export const IV_BYTES = 12;
export const TAG_BYTES = 16;

/** Decryption failed: wrong key, destroyed key, or bytes that were altered or moved. */
export class DecryptFailed extends Error {
  constructor(readonly what: string) {
    super(`${what} failed to decrypt (wrong or destroyed key, or altered bytes)`);
    this.name = 'DecryptFailed';
  }
}

export function freshKey(): Buffer {
  return randomBytes(KEY_BYTES);
}

export function freshIv(): Buffer {
  return randomBytes(IV_BYTES);
}

/** AES-256-GCM: ciphertext || tag. */
export function seal(key: Buffer, iv: Buffer, aad: Buffer, plain: Uint8Array | readonly Uint8Array[]): Buffer {
  const c = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  c.setAAD(aad);
  const parts: Buffer[] = [];
  for (const p of Array.isArray(plain) ? (plain as readonly Uint8Array[]) : [plain as Uint8Array]) parts.push(c.update(p));
  parts.push(c.final(), c.getAuthTag());
  return Buffer.concat(parts);
}

/** Opens ciphertext || tag; DecryptFailed on any mismatch. The plaintext is in memory of its own (keys and small blocks are cached). */
export function open(key: Buffer, iv: Buffer, aad: Buffer, sealed: Uint8Array, what: string): Buffer {
  if (sealed.length < TAG_BYTES) throw new DecryptFailed(what);
  try {
    const d = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    d.setAAD(aad);
    d.setAuthTag(Buffer.from(sealed.subarray(sealed.length - TAG_BYTES)));
    return ownedBytes(d.update(sealed.subarray(0, sealed.length - TAG_BYTES)), d.final());
  } catch {
    throw new DecryptFailed(what);
  }
}

/** The AAD of a data key's wrapping and of a payload: namespace, object path, key version, and a purpose tag. */
export function aadOf(purpose: string, ns: number, path: string, keyVersion: number, extra = ''): Buffer {
  return Buffer.from(`loam:${purpose}\0ns=${ns}\0path=${path}\0kv=${keyVersion}\0${extra}`, 'utf8');
}

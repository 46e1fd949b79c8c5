// Primary keys and partitioning.
//
// A primary key value is a string or a finite number (integers within ±2^53 - 1, which
// JSON numbers carry exactly); a document is identified by the
// key's canonical string form (String(value)), so 7 and "7" name the same document and
// a URL path segment names it directly. The partition is xxh3-64 of the canonical key's
// UTF-8 bytes, modulo the stream's partition count: stable across processes, versions
// and machines (the same hash the router uses, DESIGN §5).
import { xxh3 } from '@node-rs/xxhash';

/** Canonical keys longer than this are refused: they are copied into every index and footer. */
export const MAX_KEY_BYTES = 1024;

export type KeyCheck = { ok: true; key: string } | { ok: false; why: string };

/**
 * A key value's canonical string form. `keyType` is the collection's declared key type: a
 * `number` key cannot be sent as a string, so the advice for a too-large integer differs.
 */
export function canonicalKey(v: unknown, keyType?: string): KeyCheck {
  let key: string;
  if (typeof v === 'string') key = v;
  else if (typeof v === 'number' && Number.isFinite(v)) {
    // Integers past 2^53 are already rounded when parsed: refused, not stored under another key.
    if (Number.isInteger(v) && !Number.isSafeInteger(v)) {
      const instead = keyType === 'number' ? "this collection's primary key is a number, so it holds no integer beyond that" : 'send it as a string';
      return { ok: false, why: `is an integer beyond ±${Number.MAX_SAFE_INTEGER}, which a JSON number cannot carry exactly; ${instead}` };
    }
    key = String(v);
  }
  else if (v === undefined) return { ok: false, why: 'is missing' };
  else return { ok: false, why: `must be a string or a finite number, got ${v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v}` };
  if (key.length === 0) return { ok: false, why: 'must not be empty' };
  // A key is stored as UTF-8, where half a surrogate pair becomes U+FFFD: "\ud800" and
  // "\udc00" would name one document, and the second write would replace the first.
  if (!key.isWellFormed()) return { ok: false, why: 'is not well-formed Unicode: it holds a lone surrogate (half of a \\uD8xx\\uDCxx pair); send whole characters' };
  if (Buffer.byteLength(key) > MAX_KEY_BYTES) return { ok: false, why: `is longer than ${MAX_KEY_BYTES} bytes` };
  return { ok: true, key };
}

export function partitionOf(key: string, partitions: number): number {
  if (partitions <= 1) return 0;
  return Number(xxh3.xxh64(key) % BigInt(partitions));
}

/**
 * The order of canonical keys in data files, query results and cursors: JavaScript string
 * order (UTF-16 code units). One order everywhere; it is not numeric ("10" < "9").
 */
export function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

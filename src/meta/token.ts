// Consistency tokens (spec §3.5): {(stream, partition, offset)} — "every write up to offset
// (exclusive) of this partition is visible" — meaning the same on every backend, because
// only the metastore assigns offsets and they are dense per partition.
//
// Wire form: base64url (no padding) of
//   magic 0x4c ('L') | version 0x01 | varint n | n × (varint ns, stream, partition, offset) | crc32 (4 bytes, BE)
// Entries are sorted and unique per (ns, stream, partition). The magic and CRC make a foreign
// or damaged token a clear error instead of a silently wrong read.
import { crc32 } from 'node:zlib';
import { errors } from './errors.js';
import type { NamespaceId, Offset, StreamId } from './types.js';

export const TOKEN_MAGIC = 0x4c;
export const TOKEN_VERSION = 1;
/** Partitions one token may name: a write touches at most one stream's partitions per collection. */
export const MAX_TOKEN_ENTRIES = 4096;
/** Encoded length bound, checked before decoding (fits in a URL query parameter). */
export const MAX_TOKEN_LENGTH = 64 * 1024;

export interface TokenEntry {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  /** Exclusive: offsets below this are covered. */
  offset: Offset;
}

export interface ConsistencyToken {
  entries: TokenEntry[];
}

function cmp(a: TokenEntry, b: TokenEntry): number {
  return a.ns - b.ns || a.stream - b.stream || a.partition - b.partition;
}

/** Keeps the highest offset per partition, sorted. */
export function mergeTokens(...tokens: ConsistencyToken[]): ConsistencyToken {
  const m = new Map<string, TokenEntry>();
  for (const t of tokens) {
    for (const e of t.entries) {
      const k = `${e.ns}/${e.stream}/${e.partition}`;
      const cur = m.get(k);
      if (!cur || cur.offset < e.offset) m.set(k, { ...e });
    }
  }
  const entries = [...m.values()].sort(cmp);
  if (entries.length > MAX_TOKEN_ENTRIES) {
    throw errors.limitExceeded('MAX_TOKEN_ENTRIES', MAX_TOKEN_ENTRIES, entries.length);
  }
  return { entries };
}

export function encodeToken(t: ConsistencyToken): string {
  const { entries } = mergeTokens(t);
  const bytes: number[] = [TOKEN_MAGIC, TOKEN_VERSION];
  putVarint(bytes, entries.length);
  for (const e of entries) {
    for (const v of [e.ns, e.stream, e.partition, e.offset]) {
      if (!Number.isSafeInteger(v) || v < 0) throw errors.invalid('token', `entry value ${v} is not a non-negative integer`);
      putVarint(bytes, v);
    }
  }
  const body = Buffer.from(bytes);
  const out = Buffer.alloc(body.length + 4);
  body.copy(out);
  out.writeUInt32BE(crc32(body), body.length);
  return out.toString('base64url');
}

export function decodeToken(s: string): ConsistencyToken {
  if (typeof s !== 'string' || s.length === 0) throw errors.invalid('token', 'is empty');
  if (s.length > MAX_TOKEN_LENGTH) throw errors.invalid('token', `is longer than ${MAX_TOKEN_LENGTH} characters`);
  if (!/^[A-Za-z0-9_-]+$/.test(s)) throw errors.invalid('token', 'is not a Loam consistency token (not base64url)');
  const buf = Buffer.from(s, 'base64url');
  if (buf.length < 7 || buf[0] !== TOKEN_MAGIC) {
    throw errors.invalid('token', 'is not a Loam consistency token (wrong magic); pass the token a Loam write returned');
  }
  if (buf[1] !== TOKEN_VERSION) {
    throw errors.invalid('token', `has version ${buf[1]}, this node understands version ${TOKEN_VERSION}`);
  }
  const body = buf.subarray(0, buf.length - 4);
  if (crc32(body) !== buf.readUInt32BE(buf.length - 4)) {
    throw errors.invalid('token', 'is damaged (checksum mismatch); pass the token exactly as returned');
  }
  const r = { pos: 2 };
  const n = getVarint(body, r);
  if (n > MAX_TOKEN_ENTRIES) throw errors.invalid('token', `names ${n} partitions, more than ${MAX_TOKEN_ENTRIES}`);
  const entries: TokenEntry[] = [];
  for (let i = 0; i < n; i++) {
    entries.push({ ns: getVarint(body, r), stream: getVarint(body, r), partition: getVarint(body, r), offset: getVarint(body, r) });
  }
  if (r.pos !== body.length) throw errors.invalid('token', 'has trailing bytes');
  return { entries };
}

function putVarint(out: number[], v: number): void {
  // 7 bits per byte; values up to 2^53 need at most 8 bytes.
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

const MAX_VARINT_BYTES = 8;

function getVarint(b: Buffer, r: { pos: number }): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (r.pos >= b.length) throw errors.invalid('token', 'is truncated');
    const x = b[r.pos++]!;
    v += (x & 0x7f) * mul;
    if ((x & 0x80) === 0) {
      if (!Number.isSafeInteger(v)) throw errors.invalid('token', 'holds a number that is too large');
      return v;
    }
    mul *= 0x80;
  }
  throw errors.invalid('token', 'holds a malformed number');
}

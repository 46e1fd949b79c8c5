// Consistency tokens (spec §3.5): {(stream, partition, offset)} — "every write up to offset
// (exclusive) of this partition is visible" — meaning the same on every backend, because
// only the metastore assigns offsets and they are dense per partition.
//
// A token is at most MAX_TOKEN_LENGTH characters, so it fits a URL query parameter at any
// partition count. Two wire forms, base64url (no padding) of
//   magic 0x4c ('L') | version | body | crc32 (4 bytes, BE):
// - version 1, exact: varint n | n × (varint ns, stream, partition, offset). Used whenever
//   it fits the bound (a write touching up to a few hundred partitions).
// - version 2, compact: the exact entries that still fit (per stream, the partition with
//   the highest offset), then varint m | m × (varint ns, stream, partitions, sum): a
//   stream's high-water sum — the sum of the offsets of every partition the write touched.
//   A write to 10,000 partitions is a token of a few dozen characters.
// Both forms say only what every head read after the write already satisfies: every offset
// in a token was committed before the client held it, and heads only grow. The reader
// checks the exact entries per partition and a stream's sum against the sum of its heads
// (no head set below a committed write can reach it unless some head lags by the shortfall).
// A head source that may lag (a replica, a cache) re-reads the heads linearizably from the
// metastore for a compact token instead of trusting a partition it was not told about.
// Entries are sorted and unique per (ns, stream, partition); streams per (ns, stream). The
// magic and CRC make a foreign or damaged token a clear error instead of a silently wrong read.
import { crc32 } from 'node:zlib';
import { errors } from './errors.js';
import type { NamespaceId, Offset, StreamId } from './types.js';

export const TOKEN_MAGIC = 0x4c;
/** The exact form. */
export const TOKEN_VERSION = 1;
/** The compact form (a per-stream high-water sum). */
export const TOKEN_VERSION_COMPACT = 2;
/**
 * Every token this node returns is at most this many characters (a URL query parameter:
 * proxies and servers commonly accept 8 KiB request lines; Node's header limit is 16 KiB).
 */
export const MAX_TOKEN_LENGTH = 2048;
/**
 * Tokens up to this length are still decoded: exact tokens of writes to many partitions
 * that nodes before the compact form returned (they are accepted in query bodies).
 */
export const MAX_LEGACY_TOKEN_LENGTH = 64 * 1024;
/** Partitions one decoded token may name exactly (the most a legacy exact token held). */
export const MAX_TOKEN_ENTRIES = 4096;
/** Streams one compact token may summarise. */
export const MAX_TOKEN_STREAMS = 64;

export interface TokenEntry {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  /** Exclusive: offsets below this are covered. */
  offset: Offset;
}

/** A stream's high-water sum: the heads of `partitions` partitions sum to at least `sum`. */
export interface StreamWatermark {
  ns: NamespaceId;
  stream: StreamId;
  /** How many partitions the sum is over. */
  partitions: number;
  /** A lower bound of the sum of their heads (saturates at 2^53 - 1, staying a lower bound). */
  sum: number;
}

export interface ConsistencyToken {
  entries: TokenEntry[];
  /** Compact form only. */
  streams?: StreamWatermark[];
}

function cmp(a: { ns: number; stream: number; partition?: number }, b: { ns: number; stream: number; partition?: number }): number {
  return a.ns - b.ns || a.stream - b.stream || (a.partition ?? 0) - (b.partition ?? 0);
}

/** Keeps the highest offset per partition and the highest sum per stream, sorted. */
export function mergeTokens(...tokens: ConsistencyToken[]): ConsistencyToken {
  const m = new Map<string, TokenEntry>();
  const w = new Map<string, StreamWatermark>();
  for (const t of tokens) {
    for (const e of t.entries) {
      const k = `${e.ns}/${e.stream}/${e.partition}`;
      const cur = m.get(k);
      if (!cur || cur.offset < e.offset) m.set(k, { ...e });
    }
    for (const s of t.streams ?? []) {
      const k = `${s.ns}/${s.stream}`;
      const cur = w.get(k);
      if (!cur || cur.sum < s.sum) w.set(k, { ...s });
    }
  }
  const entries = [...m.values()].sort(cmp);
  return w.size === 0 ? { entries } : { entries, streams: [...w.values()].sort(cmp) };
}

/** The exact form when it fits MAX_TOKEN_LENGTH, else the compact one. */
export function encodeToken(t: ConsistencyToken): string {
  const merged = mergeTokens(t);
  for (const e of merged.entries) {
    for (const v of [e.ns, e.stream, e.partition, e.offset]) {
      if (!Number.isSafeInteger(v) || v < 0) throw errors.invalid('token', `entry value ${v} is not a non-negative integer`);
    }
  }
  if (!merged.streams) {
    const exact = wire(TOKEN_VERSION, (b) => putEntries(b, merged.entries));
    if (exact.length <= MAX_TOKEN_LENGTH) return exact;
  }
  const c = compact(merged);
  const s = wire(TOKEN_VERSION_COMPACT, (b) => {
    putEntries(b, c.entries);
    putVarint(b, c.streams!.length);
    for (const x of c.streams!) for (const v of [x.ns, x.stream, x.partitions, x.sum]) putVarint(b, v);
  });
  // A write's token names one stream; only a client merging many writes could get here.
  if (s.length > MAX_TOKEN_LENGTH) throw errors.limitExceeded('MAX_TOKEN_LENGTH (characters of a consistency token)', MAX_TOKEN_LENGTH, s.length);
  return s;
}

/** Per stream: its highest-offset entry stays exact, the rest become the stream's sum. */
function compact(t: ConsistencyToken): ConsistencyToken {
  const byStream = new Map<string, { top: TokenEntry; w: StreamWatermark }>();
  for (const e of t.entries) {
    const k = `${e.ns}/${e.stream}`;
    const cur = byStream.get(k);
    if (!cur) byStream.set(k, { top: e, w: { ns: e.ns, stream: e.stream, partitions: 1, sum: e.offset } });
    else {
      if (e.offset > cur.top.offset) cur.top = e;
      cur.w.partitions++;
      cur.w.sum = Math.min(Number.MAX_SAFE_INTEGER, cur.w.sum + e.offset);
    }
  }
  for (const s of t.streams ?? []) {
    const k = `${s.ns}/${s.stream}`;
    const cur = byStream.get(k);
    if (!cur) byStream.set(k, { top: { ns: s.ns, stream: s.stream, partition: 0, offset: 0 }, w: { ...s } });
    else if (s.sum > cur.w.sum) cur.w = { ...s };
  }
  const entries = [...byStream.values()].map((x) => x.top).filter((e) => e.offset > 0);
  return mergeTokens({ entries, streams: [...byStream.values()].map((x) => x.w) });
}

function wire(version: number, body: (b: number[]) => void): string {
  const bytes: number[] = [TOKEN_MAGIC, version];
  body(bytes);
  const b = Buffer.from(bytes);
  const out = Buffer.alloc(b.length + 4);
  b.copy(out);
  out.writeUInt32BE(crc32(b), b.length);
  return out.toString('base64url');
}

function putEntries(b: number[], entries: TokenEntry[]): void {
  putVarint(b, entries.length);
  for (const e of entries) for (const v of [e.ns, e.stream, e.partition, e.offset]) putVarint(b, v);
}

export function decodeToken(s: string): ConsistencyToken {
  if (typeof s !== 'string' || s.length === 0) throw errors.invalid('token', 'is empty');
  if (s.length > MAX_LEGACY_TOKEN_LENGTH) throw errors.invalid('token', `is longer than ${MAX_LEGACY_TOKEN_LENGTH} characters`);
  if (!/^[A-Za-z0-9_-]+$/.test(s)) throw errors.invalid('token', 'is not a Loam consistency token (not base64url)');
  const buf = Buffer.from(s, 'base64url');
  if (buf.length < 7 || buf[0] !== TOKEN_MAGIC) {
    throw errors.invalid('token', 'is not a Loam consistency token (wrong magic); pass the token a Loam write returned');
  }
  const version = buf[1];
  if (version !== TOKEN_VERSION && version !== TOKEN_VERSION_COMPACT) {
    throw errors.invalid('token', `has version ${version}, this node understands versions ${TOKEN_VERSION} and ${TOKEN_VERSION_COMPACT}`);
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
  let streams: StreamWatermark[] | undefined;
  if (version === TOKEN_VERSION_COMPACT) {
    const m = getVarint(body, r);
    if (m > MAX_TOKEN_STREAMS) throw errors.invalid('token', `names ${m} streams, more than ${MAX_TOKEN_STREAMS}`);
    streams = [];
    for (let i = 0; i < m; i++) streams.push({ ns: getVarint(body, r), stream: getVarint(body, r), partitions: getVarint(body, r), sum: getVarint(body, r) });
  }
  if (r.pos !== body.length) throw errors.invalid('token', 'has trailing bytes');
  return streams ? { entries, streams } : { entries };
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

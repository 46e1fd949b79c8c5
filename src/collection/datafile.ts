// Data files: a collection's documents sorted by primary key, immutable, with a footer
// index so a point read fetches one bounded block (DATA_BLOCK_BYTES) by byte range.
//
//   file   := magic "LOAMDF01" (8) | block* | index | trailer
//   block  := entry*        (entries sorted by key; deflate-raw level 1 when that saves at
//                            least BLOCK_MIN_SAVING, flagged in the index; CRC32C of the
//                            stored bytes kept in the index)
//   entry  := keyLen uvarint | key UTF-8 | kind u8 (0 document, 1 tombstone) | bodyLen uvarint | body UTF-8
//   index  := JSON [{ k: first key, o: offset, l: length, c: crc32c, n: entries, z?: 1 (deflated) }, …]
//   trailer (TRAILER_BYTES = 24) := indexOffset u64 BE | indexLength u32 | indexCrc u32 | magic "LOAMDFIX"
//
// The manifest records each file's index range, and inlines the index itself when it is
// small (INLINE_INDEX_MAX_BYTES), so a cold point read costs: manifest → (index) → block:
// at most 3 serial round trips (spec §5.8).
import { crc32c } from '@node-rs/crc32';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Store } from '../store/index.js';
import { compareKeys } from '../log/keys.js';
import { decodedBytes, getWithRetry, Lru } from '../log/reader.js';
import { dataErrors } from '../log/errors.js';
import { DEFLATE_OPTIONS, putUvarint, uvarintLen } from '../log/format.js';
import { ownBuffer } from '../crypto/owned.js';

export const DATA_MAGIC = Buffer.from('LOAMDF01', 'latin1');
export const TRAILER_MAGIC = Buffer.from('LOAMDFIX', 'latin1');
export const TRAILER_BYTES = 24;
/** Target block size: one ranged GET per point read, small enough to be cheap. */
export const DATA_BLOCK_BYTES = 64 * 1024;
/** Indexes up to this size are copied into the manifest (saves a round trip on cold reads). */
export const INLINE_INDEX_MAX_BYTES = 16 * 1024;
/** Cached decoded blocks and indexes (bytes). */
export const DEFAULT_BLOCK_CACHE_BYTES = 64 * 1024 * 1024;

export const KIND_DOC = 0;
export const KIND_TOMBSTONE = 1;

export interface DataEntry {
  key: string;
  /** A tombstone hides older versions of the key (a delete not yet materialised). */
  tombstone: boolean;
  /** UTF-8 JSON text of the document (a view into the block); empty for a tombstone. */
  body: Buffer;
}

/** An entry to write: the body may be a string or bytes. */
export interface DataEntryInput {
  key: string;
  tombstone: boolean;
  body: string | Uint8Array;
}

export interface BlockRef {
  /** First key of the block. */
  k: string;
  o: number;
  l: number;
  c: number;
  n: number;
  /** 1 when the block is deflate-raw compressed. */
  z?: 1;
}

/** A block is stored compressed only when that saves at least this fraction of it. */
export const BLOCK_MIN_SAVING = 0.1;

export interface DataFileMeta {
  path: string;
  bytes: number;
  entries: number;
  tombstones: number;
  minKey: string;
  maxKey: string;
  indexStart: number;
  indexEnd: number;
  /** The block index, when small enough to inline (INLINE_INDEX_MAX_BYTES). */
  index?: BlockRef[];
}

function encodeEntry(e: DataEntryInput): Buffer {
  const klen = Buffer.byteLength(e.key);
  const blen = typeof e.body === 'string' ? Buffer.byteLength(e.body) : e.body.byteLength;
  const b = Buffer.allocUnsafe(uvarintLen(klen) + klen + 1 + uvarintLen(blen) + blen);
  let p = putUvarint(b, 0, klen);
  p += b.write(e.key, p);
  b[p++] = e.tombstone ? KIND_TOMBSTONE : KIND_DOC;
  p = putUvarint(b, p, blen);
  if (typeof e.body === 'string') p += b.write(e.body, p);
  else b.set(e.body, p);
  return b;
}

/**
 * Writes a data file block by block from entries in key order, so a file of any size is
 * built in the memory of one block plus its index: `add` returns the bytes ready to write
 * (a closed block, or nothing yet), `finish` the rest (the last block, the index, the
 * trailer) and the file's meta.
 */
export class DataFileBuilder {
  private pos = DATA_MAGIC.length;
  private readonly index: BlockRef[] = [];
  private block: Buffer[] = [];
  private blockBytes = 0;
  private first = '';
  private prev: string | undefined;
  private minKey: string | undefined;
  private entries = 0;
  private tombstones = 0;
  private started = false;

  constructor(private readonly path: string) {}

  /** Adds the next entry (keys strictly ascending); returns the bytes to append, if any. */
  add(e: DataEntryInput): Buffer[] {
    if (this.prev !== undefined && compareKeys(this.prev, e.key) >= 0) {
      throw new RangeError(`data file entries must be sorted and unique (${this.prev} then ${e.key})`);
    }
    this.prev = e.key;
    this.minKey ??= e.key;
    this.entries++;
    if (e.tombstone) this.tombstones++;
    if (this.block.length === 0) this.first = e.key;
    const enc = encodeEntry(e);
    this.block.push(enc);
    this.blockBytes += enc.length;
    const out = this.opening();
    if (this.blockBytes >= DATA_BLOCK_BYTES) out.push(this.closeBlock());
    return out;
  }

  /** The bytes after the last `add` and the file's meta. */
  finish(): { tail: Buffer[]; meta: DataFileMeta } {
    if (this.entries === 0) throw new RangeError('a data file needs at least one entry');
    const tail = this.opening();
    if (this.block.length > 0) tail.push(this.closeBlock());
    const idx = Buffer.from(JSON.stringify(this.index));
    const indexStart = this.pos;
    const trailer = Buffer.alloc(TRAILER_BYTES);
    trailer.writeBigUInt64BE(BigInt(indexStart), 0);
    trailer.writeUInt32BE(idx.length, 8);
    trailer.writeUInt32BE(crc32c(idx), 12);
    TRAILER_MAGIC.copy(trailer, 16);
    tail.push(idx, trailer);
    this.pos += idx.length + TRAILER_BYTES;
    const meta: DataFileMeta = {
      path: this.path,
      bytes: this.pos,
      entries: this.entries,
      tombstones: this.tombstones,
      minKey: this.minKey!,
      maxKey: this.prev!,
      indexStart,
      indexEnd: indexStart + idx.length,
    };
    if (idx.length <= INLINE_INDEX_MAX_BYTES) meta.index = this.index;
    return { tail, meta };
  }

  private opening(): Buffer[] {
    if (this.started) return [];
    this.started = true;
    return [DATA_MAGIC];
  }

  private closeBlock(): Buffer {
    const raw = Buffer.concat(this.block, this.blockBytes);
    // Data files are most of the bytes the workers write; JSON deflates well.
    const z = deflateRawSync(raw, DEFLATE_OPTIONS);
    const packed = z.length <= raw.length * (1 - BLOCK_MIN_SAVING);
    const b = packed ? z : raw;
    this.index.push({ k: this.first, o: this.pos, l: b.length, c: crc32c(b), n: this.block.length, ...(packed ? { z: 1 as const } : {}) });
    this.pos += b.length;
    this.block = [];
    this.blockBytes = 0;
    return b;
  }
}

/** Builds a data file from entries already sorted by key (unique keys), in memory. */
export function buildDataFile(path: string, entries: readonly DataEntryInput[]): { bytes: Buffer; meta: DataFileMeta } {
  if (entries.length === 0) throw new RangeError('a data file needs at least one entry');
  const w = new DataFileBuilder(path);
  const parts: Buffer[] = [];
  for (const e of entries) for (const b of w.add(e)) parts.push(b);
  const { tail, meta } = w.finish();
  parts.push(...tail);
  return { bytes: Buffer.concat(parts, meta.bytes), meta };
}

export function decodeBlock(b: Buffer, path: string): DataEntry[] {
  const out: DataEntry[] = [];
  let p = 0;
  const get = () => {
    let v = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      if (p >= b.length) throw dataErrors.unavailable(`data file ${path} is corrupt (truncated entry)`);
      const x = b[p++]!;
      v += (x & 0x7f) * mul;
      if ((x & 0x80) === 0) return v;
      mul *= 0x80;
    }
    throw dataErrors.unavailable(`data file ${path} is corrupt (bad length)`);
  };
  // Bounded by the block's length: every entry consumes at least 3 bytes.
  while (p < b.length) {
    const klen = get();
    const key = b.toString('utf8', p, p + klen);
    p += klen;
    const kind = b[p++];
    const blen = get();
    const body = b.subarray(p, p + blen);
    p += blen;
    if (p > b.length) throw dataErrors.unavailable(`data file ${path} is corrupt (entry past the block)`);
    out.push({ key, tombstone: kind === KIND_TOMBSTONE, body });
  }
  return out;
}

/** Reads data files by key and by range, caching indexes and decoded blocks (immutable objects). */
export class DataFiles {
  private readonly blocks: Lru<DataEntry[]>;
  private readonly indexes: Lru<BlockRef[]>;
  constructor(
    private readonly store: Store,
    cacheBytes = DEFAULT_BLOCK_CACHE_BYTES,
  ) {
    this.blocks = new Lru(cacheBytes);
    this.indexes = new Lru(Math.max(1, Math.floor(cacheBytes / 4)));
  }

  /** Drops a namespace's cached blocks and indexes (its key was destroyed, spec §9.8). */
  dropNamespace(ns: number): void {
    this.blocks.deletePrefix(`ns/${ns}/`);
    this.indexes.deletePrefix(`ns/${ns}/`);
  }

  async index(f: DataFileMeta): Promise<BlockRef[]> {
    if (f.index) return f.index;
    const hit = this.indexes.get(f.path);
    if (hit) return hit;
    const got = await getWithRetry(this.store, f.path, { start: f.indexStart, end: f.indexEnd });
    const idx = JSON.parse(got.bytes.toString('utf8')) as BlockRef[];
    this.indexes.set(f.path, idx, got.bytes.length);
    return idx;
  }

  /** Drops the cached blocks and indexes of these files (spec §9.4). */
  evict(paths: ReadonlySet<string>): number {
    return this.blocks.evictPaths(paths) + this.indexes.evictPaths(paths);
  }

  /** Body bytes the block cache holds now (its decoded entries), for tests and sizing. */
  cachedBodyBytes(): number {
    let n = 0;
    for (const entries of this.blocks.values()) for (const e of entries) n += e.body.byteLength;
    return n;
  }

  /** Blocks the cache holds now (for tests). */
  cachedBlocks(): number {
    return this.blocks.size;
  }

  /** The bytes of the buffers the cached blocks keep alive (each backing store once), for tests and sizing. */
  cachedRetainedBytes(): number {
    const stores = new Set<ArrayBufferLike>();
    for (const entries of this.blocks.values()) for (const e of entries) stores.add(e.body.buffer);
    let n = 0;
    for (const s of stores) n += s.byteLength;
    return n;
  }

  async block(f: DataFileMeta, b: BlockRef): Promise<DataEntry[]> {
    const k = `${f.path}@${b.o}`;
    const hit = this.blocks.get(k);
    if (hit) return hit;
    const got = await getWithRetry(this.store, f.path, { start: b.o, end: b.o + b.l });
    if (crc32c(got.bytes) !== b.c) throw dataErrors.unavailable(`data file ${f.path}: block at ${b.o} fails its CRC32C`);
    const entries = decodeBlock(ownBuffer(b.z ? inflateRawSync(got.bytes) : got.bytes), f.path);
    this.blocks.set(k, entries, decodedBytes(entries));
    return entries;
  }

  /** The index of the block that may hold `key` (the last block whose first key ≤ key), or -1. */
  static blockFor(idx: BlockRef[], key: string): number {
    let lo = 0;
    let hi = idx.length - 1;
    let ans = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (compareKeys(idx[mid]!.k, key) <= 0) {
        ans = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return ans;
  }

  /** The entry for `key` in one file (document or tombstone), or undefined. */
  async get(f: DataFileMeta, key: string): Promise<DataEntry | undefined> {
    if (compareKeys(key, f.minKey) < 0 || compareKeys(key, f.maxKey) > 0) return undefined;
    const idx = await this.index(f);
    const i = DataFiles.blockFor(idx, key);
    if (i < 0) return undefined;
    const entries = await this.block(f, idx[i]!);
    let lo = 0;
    let hi = entries.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const c = compareKeys(entries[mid]!.key, key);
      if (c === 0) return entries[mid];
      if (c < 0) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /** Entries with key > after (all when after is undefined), in key order, one block at a time. */
  async *scan(f: DataFileMeta, after?: string): AsyncGenerator<DataEntry> {
    if (after !== undefined && compareKeys(after, f.maxKey) >= 0) return;
    const idx = await this.index(f);
    let i = after === undefined ? 0 : Math.max(0, DataFiles.blockFor(idx, after));
    for (; i < idx.length; i++) {
      const entries = await this.block(f, idx[i]!);
      for (const e of entries) {
        if (after === undefined || compareKeys(e.key, after) > 0) yield e;
      }
    }
  }
}

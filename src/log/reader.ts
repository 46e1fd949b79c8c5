// Reading a partition's log: index entries (from the metastore) → chunk byte ranges (from
// the store) → records with their offsets. Objects are immutable, so decoded chunks are
// cached by (path, byteStart) in a bounded LRU.
import { setImmediate as yieldToLoop, setTimeout as sleep } from 'node:timers/promises';
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { IndexEntry } from '../meta/types.js';
import { isStoreError, type ByteRange, type GetResult, type Store } from '../store/index.js';
import { dataErrors, keyError } from './errors.js';
import { readChunk, type WalRecord } from './format.js';
import { ownBuffer } from '../crypto/owned.js';
import { chunkOpener } from '../crypto/chunk.js';
import type { KeyRing } from '../crypto/keyring.js';

/** Decoded chunk cache: bounded by the bytes of the decoded records it holds. */
export const DEFAULT_CHUNK_CACHE_BYTES = 64 * 1024 * 1024;
/**
 * What a decoded record costs beyond its key and body bytes (the record object, its key
 * string and its Buffer view). The caches charge decoded bytes, never the stored (deflated)
 * size: JSON deflates 5–100×, so charging stored bytes let a 16 MiB budget hold gigabytes.
 */
export const DECODED_RECORD_OVERHEAD_BYTES = 160;

/** The memory decoded entries hold: their keys and bodies plus a fixed cost each. */
export function decodedBytes(entries: readonly { key: string; body: Uint8Array }[]): number {
  let n = 0;
  for (const e of entries) n += e.key.length * 2 + e.body.byteLength + DECODED_RECORD_OVERHEAD_BYTES;
  return n;
}
/** Index pages one tail read follows at most (MAX_INDEX_PAGE entries each): bounds the loop. */
export const MAX_TAIL_INDEX_PAGES = 1_000;
/** Store reads are retried this long on retryable errors (503, timeouts). */
export const STORE_READ_DEADLINE_MS = 10_000;
/** Parallel range GETs of one tail read. */
export const TAIL_FETCH_CONCURRENCY = 16;

/**
 * A query's prefetch reads the chunks it needs of one WAL object with GETs of at most this
 * many bytes: one object holds chunks of up to MAX_PARTITIONS partitions, and a GET per chunk
 * made a 10,000-partition query 6,000+ requests. Also bounds what one span holds in memory.
 */
export const MAX_PREFETCH_SPAN_BYTES = 8 * 1024 * 1024;
/** Bytes of chunks not asked for (other partitions', other tenants') a span may read over between two it needs. */
export const MAX_PREFETCH_GAP_BYTES = 256 * 1024;
/** Spans of a prefetch fetched at once (with MAX_PREFETCH_SPAN_BYTES, the bytes it holds in flight). */
export const PREFETCH_CONCURRENCY = 4;
/** Chunks decoded (and decrypted) between two yields to the event loop, so other requests run. */
export const CHUNKS_PER_YIELD = 64;

/** Decoded chunks by `${path}@${byteStart}` (what a prefetch hands to its reads). */
export type DecodedChunks = Map<string, WalRecord[]>;

/** Index entries already read for [from, to) of a partition, handed to read() so it need not ask again. */
export interface TailPlan {
  from: number;
  to: number;
  entries: IndexEntry[];
  logStart: number;
  chunks?: DecodedChunks;
}

const chunkKey = (e: IndexEntry) => `${e.path}@${e.byteStart}`;

export interface LogRecord extends WalRecord {
  offset: number;
}

/** A small LRU keyed by string, bounded by a size function. */
export class Lru<V> {
  private readonly m = new Map<string, { v: V; size: number; tag?: number }>();
  private total = 0;
  constructor(private readonly maxSize: number) {}
  get(k: string): V | undefined {
    const e = this.m.get(k);
    if (!e) return undefined;
    this.m.delete(k);
    this.m.set(k, e);
    return e.v;
  }
  /** `tag`: the namespace the value belongs to, for deleteWhere (a shredded namespace's entries). */
  set(k: string, v: V, size: number, tag?: number): void {
    const old = this.m.get(k);
    if (old) {
      this.total -= old.size;
      this.m.delete(k);
    }
    if (size > this.maxSize) return;
    this.m.set(k, tag === undefined ? { v, size } : { v, size, tag });
    this.total += size;
    for (const [key, e] of this.m) {
      if (this.total <= this.maxSize) break;
      this.m.delete(key);
      this.total -= e.size;
    }
  }
  /** The cached values, least recently used first. */
  values(): IterableIterator<V> {
    return (function* (m) {
      for (const e of m.values()) yield e.v;
    })(this.m);
  }
  /** Drops every entry whose key starts with `prefix` (a shredded namespace's `ns/<id>/`). */
  deletePrefix(prefix: string): void {
    for (const k of [...this.m.keys()]) if (k.startsWith(prefix)) this.delete(k);
  }
  /** Drops every entry whose tag matches (bounded by the cache's size). */
  deleteWhere(match: (tag: number | undefined) => boolean): void {
    for (const [k, e] of [...this.m]) {
      if (match(e.tag)) {
        this.total -= e.size;
        this.m.delete(k);
      }
    }
  }
  delete(k: string): void {
    const e = this.m.get(k);
    if (e) {
      this.total -= e.size;
      this.m.delete(k);
    }
  }
  get size(): number {
    return this.m.size;
  }
  /** Drops every entry whose object path (the key up to its last '@', or the whole key) is in `paths`: the count dropped. */
  evictPaths(paths: ReadonlySet<string>): number {
    let n = 0;
    for (const [k, e] of this.m) {
      const at = k.lastIndexOf('@');
      if (!paths.has(at < 0 ? k : k.slice(0, at))) continue;
      this.m.delete(k);
      this.total -= e.size;
      n++;
    }
    return n;
  }
}

/** GET with retries on retryable store errors, within STORE_READ_DEADLINE_MS. */
export async function getWithRetry(store: Store, path: string, range?: ByteRange): Promise<GetResult> {
  const deadline = Date.now() + STORE_READ_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      return await store.get(path, range ? { range } : undefined);
    } catch (e) {
      if (!isStoreError(e) || !e.retryable) throw e;
      const ms = Math.min(500, 10 * 2 ** attempt) * (0.5 + Math.random() / 2);
      if (Date.now() + ms >= deadline) throw dataErrors.unavailable(`reading ${path}: ${e.message}`);
      await sleep(ms);
    }
  }
}

/** Runs `fn` over items with at most `limit` in flight; results in input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (t: T, i: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Objects remembered as already read once (see entryRecords). */
export const SEEN_OBJECTS = 10_000;

export class LogReader {
  private readonly cache: Lru<WalRecord[]>;
  private readonly firstReads = new Map<string, Promise<GetResult>>();
  private readonly seen = new Lru<boolean>(SEEN_OBJECTS);
  constructor(
    private readonly meta: MetaStore,
    private readonly store: Store,
    cacheBytes = DEFAULT_CHUNK_CACHE_BYTES,
    private readonly keys?: KeyRing,
  ) {
    this.cache = new Lru(cacheBytes);
    // A shredded namespace's decoded chunks leave the cache at once (spec §9.8).
    keys?.onShred((ns) => this.cache.deleteWhere((recsNs) => recsNs === ns));
  }

  /** The records of one index entry (a WAL chunk or a segment). */
  async entryRecords(e: IndexEntry): Promise<WalRecord[]> {
    const hit = this.cache.get(chunkKey(e));
    if (hit) return hit;
    return this.decodeEntry(e, (await this.fetchRange(e.path, e.byteStart, e.byteEnd)).bytes);
  }

  /** A ranged GET of an object. */
  private async fetchRange(path: string, start: number, end: number): Promise<GetResult> {
    // The first read of an object is made alone: a store may do per-object work on first
    // access (the file store hashes the whole object for its ETag), and several partitions'
    // chunks of one WAL object are usually read at once.
    const first = this.firstReads.get(path);
    if (first) await first.catch(() => undefined);
    if (first === undefined && !this.seen.get(path)) {
      const p = getWithRetry(this.store, path, { start, end });
      this.firstReads.set(path, p);
      let got: GetResult;
      try {
        got = await p;
      } finally {
        this.firstReads.delete(path);
      }
      this.seen.set(path, true, 1);
      return got;
    }
    return getWithRetry(this.store, path, { start, end });
  }

  /** Decodes (and opens) an entry's chunk from its bytes, and caches its records. */
  private async decodeEntry(e: IndexEntry, bytes: Buffer): Promise<WalRecord[]> {
    // A chunk in memory of its own: a plain chunk's records are views of the bytes they are
    // decoded from, and a cached one would keep alive what they are a view of (a prefetch's
    // whole span, other tenants' chunks in it; a store's 8 KiB pool slab), beyond what the cache charges.
    const chunk = readChunk(ownBuffer(bytes), e.path);
    let recs: WalRecord[];
    if (chunk.keyMeta.length > 0) {
      if (!this.keys) throw dataErrors.unavailable(`${e.path}: the chunk of namespace ${chunk.ns} is encrypted and this node has no key provider configured`);
      try {
        recs = chunk.decode(await chunkOpener(this.keys, chunk.ns, e.path, chunk.stream, chunk.partition, chunk.keyMeta));
      } catch (err) {
        throw keyError(err, chunk.ns, `the log of namespace ${chunk.ns}`);
      }
    } else recs = chunk.decode();
    if (recs.length !== e.records) throw dataErrors.unavailable(`index entry of ${e.path} says ${e.records} records, the chunk holds ${recs.length}`);
    this.cache.set(chunkKey(e), recs, decodedBytes(recs), chunk.ns);
    return recs;
  }

  /**
   * Decodes the chunks of these entries, reading each object's uncached ones with a few
   * spanning GETs rather than one GET per chunk, and yielding to the event loop every
   * CHUNKS_PER_YIELD chunks. The result keeps them for the caller's reads even if the
   * bounded cache drops them meanwhile.
   */
  async prefetch(entries: readonly IndexEntry[]): Promise<DecodedChunks> {
    const out: DecodedChunks = new Map();
    const byPath = new Map<string, IndexEntry[]>();
    const asked = new Set<string>();
    for (const e of entries) {
      const k = chunkKey(e);
      if (asked.has(k)) continue;
      asked.add(k);
      const hit = this.cache.get(k);
      if (hit) {
        out.set(k, hit);
        continue;
      }
      let list = byPath.get(e.path);
      if (!list) byPath.set(e.path, (list = []));
      list.push(e);
    }
    const spans: IndexEntry[][] = [];
    for (const list of byPath.values()) {
      list.sort((a, b) => a.byteStart - b.byteStart);
      let span: IndexEntry[] = [];
      for (const e of list) {
        const head = span[0];
        const last = span[span.length - 1];
        if (head && last && (e.byteEnd - head.byteStart > MAX_PREFETCH_SPAN_BYTES || e.byteStart - last.byteEnd > MAX_PREFETCH_GAP_BYTES || e.byteStart < last.byteEnd)) {
          spans.push(span);
          span = [];
        }
        span.push(e);
      }
      if (span.length > 0) spans.push(span);
    }
    let decoded = 0;
    await mapLimit(spans, PREFETCH_CONCURRENCY, async (span) => {
      const start = span[0]!.byteStart;
      const got = await this.fetchRange(span[0]!.path, start, span[span.length - 1]!.byteEnd);
      for (const e of span) {
        out.set(chunkKey(e), await this.decodeEntry(e, got.bytes.subarray(e.byteStart - start, e.byteEnd - start)));
        if (++decoded % CHUNKS_PER_YIELD === 0) await yieldToLoop();
      }
    });
    return out;
  }

  /** Drops the cached chunks of these objects (spec §9.4: an erasure evicts what it retired, not only by LRU). */
  evict(paths: ReadonlySet<string>): number {
    this.seen.evictPaths(paths);
    return this.cache.evictPaths(paths);
  }

  /** Index entries covering [from, to) of a partition (contiguous from max(from, logStart)). */
  async entries(ns: number, stream: number, partition: number, from: number, to: number): Promise<{ entries: IndexEntry[]; logStart: number }> {
    const out: IndexEntry[] = [];
    let cursor = from;
    let logStart = 0;
    for (let page = 0; page < MAX_TAIL_INDEX_PAGES && cursor < to; page++) {
      const idx = await this.meta.partitionIndex(ns, stream, partition, { from: cursor });
      if (page === 0) logStart = idx.logStart;
      for (const e of idx.entries) {
        if (e.start >= to) break;
        out.push(e);
      }
      if (idx.nextFrom === undefined || idx.entries.length === 0) break;
      cursor = idx.nextFrom;
    }
    return { entries: out, logStart };
  }

  /**
   * Records with offsets in [from, to) of a partition, in offset order. If the log was
   * trimmed past `from`, throws Unavailable (the caller's manifest is older than the trim,
   * which retention never does: it trims only what a manifest applied).
   */
  async read(ns: number, stream: number, partition: number, from: number, to: number, plan?: TailPlan): Promise<LogRecord[]> {
    if (to <= from) return [];
    let r: { entries: IndexEntry[]; logStart: number };
    if (plan && plan.from <= from && to <= plan.to) {
      // The plan's entries cover [from, to): the index is append-only above logStart.
      r = { entries: plan.entries.filter((e) => e.end > from && e.start < to), logStart: plan.logStart };
    } else {
      try {
        r = await this.entries(ns, stream, partition, from, to);
      } catch (e) {
        if (isMetaError(e, 'NotFound')) throw dataErrors.notFound(`stream ${stream} of namespace ${ns}`);
        throw e;
      }
    }
    if (r.logStart > from) {
      throw dataErrors.unavailable(`partition ${partition} was trimmed to ${r.logStart}, past offset ${from}; re-read the manifest`, 50);
    }
    const chunks = await mapLimit(r.entries, TAIL_FETCH_CONCURRENCY, async (e) => plan?.chunks?.get(chunkKey(e)) ?? this.entryRecords(e));
    const out: LogRecord[] = [];
    r.entries.forEach((e, i) => {
      const recs = chunks[i]!;
      for (let j = 0; j < recs.length; j++) {
        const offset = e.start + j;
        if (offset >= from && offset < to) out.push({ ...recs[j]!, offset });
      }
    });
    return out;
  }
}

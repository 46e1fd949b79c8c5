// The read path of collections (DESIGN §1, spec §3.3, §3.5).
//
// strong (default): collectionHead — the pointer, then the partition heads, in that
//   documented order — then the manifest it names, then the log tail from the manifest's
//   applied offsets up to the heads, merged over the data files (the tail wins).
// eventual: the pointer's manifest only (no tail).
// token: like strong, and at least up to the token's offsets; if a head is below the token,
//   the heads are re-read once and the token is refused (400): never an answer without
//   the token's offsets.
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import { decodeToken, type ConsistencyToken } from '../meta/token.js';
import { MAX_PARTITIONS } from '../meta/limits.js';
import type { Collection, CollectionHead, IndexEntry } from '../meta/types.js';
import type { Store } from '../store/index.js';
import { dataErrors, isDataError } from '../log/errors.js';
import { OP_DELETE } from '../log/format.js';
import { compareKeys, partitionOf } from '../log/keys.js';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { LogReader, mapLimit, type LogRecord, type TailPlan } from '../log/reader.js';
import { DataFiles, type DataEntry } from './datafile.js';
import { parseFilter, matches } from './filter.js';
import { emptyManifest, Manifests, type Manifest } from './manifest.js';

export type Consistency = 'strong' | 'eventual';

/** Default and largest page of a query. */
export const DEFAULT_QUERY_LIMIT = 100;
export const MAX_QUERY_LIMIT = 1_000;
/**
 * Entries one query page examines at most; past it the page ends early with a cursor. A page
 * runs on the event loop: with the heaviest filter the limits allow (256 conditions) 100,000
 * entries held it about 1 s, every tenant's requests waiting; 20,000 keep it near 0.2 s.
 */
export const MAX_QUERY_SCAN = 20_000;
/**
 * Document text one query page holds at most (bytes as sent). A page ends before the
 * document that would take it past this, with a cursor at it; it always holds one (a
 * document is at most MAX_DOC_BYTES, 1 MiB). Without it a page of 1,000 documents of 1 MiB
 * was built whole, and past V8's string limit (~540 of them) answered 500. 16 MiB still
 * carries 16 of the largest documents a page, the same bytes an apply round reads
 * (MAX_APPLY_BYTES), half of a write batch (MAX_BATCH_BYTES); a query holds about twice
 * it (the page's texts, then the answer spliced from them).
 */
export const MAX_QUERY_PAGE_BYTES = 16 * 1024 * 1024;
/** Keys one get may name (GET by many ids). */
export const MAX_GET_KEYS = 1_000;
/** Head reads a token read makes before it refuses a token beyond the heads (spec §3.5). */
export const MAX_TOKEN_READS = 2;
/**
 * Partitions whose merged tail this node keeps in memory: twice a collection's most
 * (MAX_PARTITIONS), so that queries of one collection of 10,000 partitions find their tails
 * again (at 4,096, each such query evicted the states the next one needed, and re-read every
 * partition's index). An empty state is a few hundred bytes; records are the backlog's.
 */
export const MAX_TAIL_STATES = 2 * MAX_PARTITIONS;
/**
 * Partitions' tails one query reads at once. A collection has up to MAX_PARTITIONS (10,000):
 * reading every one at once put 10,000 index reads and store GETs in flight for one query.
 */
export const QUERY_TAIL_CONCURRENCY = 32;
/**
 * Partitions a query plans (index entries, then one prefetch of their chunks) at a time:
 * bounds what a plan holds, and between two batches the query yields to the event loop.
 */
export const QUERY_TAIL_BATCH = 1_024;
/** A re-read when the log was trimmed under a reader (the manifest moved on) is tried this often. */
export const MAX_VIEW_ATTEMPTS = 5;

export interface ReadOptions {
  consistency?: Consistency;
  /** An encoded consistency token (spec §3.5). */
  token?: string;
}

export interface QueryOptions extends ReadOptions {
  filter?: unknown;
  limit?: number;
  cursor?: string;
}

/** One document of a query page. */
export interface QueryDocument {
  /** Its primary key's canonical (string) form. */
  key: string;
  /**
   * Its JSON text as it was sent (UTF-8), to be answered as is (docs/api.md, "Documents as
   * sent"). A copy: a view would keep its whole cached block alive past the cache's bound.
   */
  text: Buffer;
}

export interface QueryPage {
  documents: QueryDocument[];
  nextCursor: string | null;
}

/** Per partition: the latest log record per key for offsets [from, to). */
interface TailState {
  from: number;
  to: number;
  latest: Map<string, LogRecord>;
  lock: Promise<void>;
}

interface View {
  collection: Collection;
  manifest: Manifest;
  /** Per partition, the tail's upper bound (exclusive); applied when no tail is merged. */
  upTo: number[];
}

export class CollectionReader {
  readonly log: LogReader;
  readonly manifests: Manifests;
  readonly files: DataFiles;
  private readonly tails = new Map<string, TailState>();

  constructor(
    private readonly meta: MetaStore,
    store: Store,
    opts: { cacheBytes?: number; manifests?: Manifests; log?: LogReader } = {},
  ) {
    this.log = opts.log ?? new LogReader(meta, store, opts.cacheBytes);
    this.manifests = opts.manifests ?? new Manifests(store);
    this.files = new DataFiles(store, opts.cacheBytes);
  }

  /** Drops cached objects an erasure retired, and every cached log tail (they may hold erased records): spec §9.4. */
  evict(paths: ReadonlySet<string>): number {
    this.tails.clear();
    return this.log.evict(paths) + this.manifests.evict(paths) + this.files.evict(paths);
  }

  /** The manifest a pointer names (an empty one before the first). */
  async manifestOf(head: CollectionHead): Promise<Manifest> {
    const c = head.collection;
    return head.pointer ? this.manifests.load(head.pointer.value) : emptyManifest(c.ns, c.id, c.partitions);
  }

  private async head(c: Collection): Promise<CollectionHead> {
    try {
      return await this.meta.collectionHead(c.ns, c.id);
    } catch (e) {
      if (isMetaError(e, 'NotFound')) throw dataErrors.notFound(`collection "${c.name}"`);
      throw e;
    }
  }

  /** Resolves the consistency options into a view: which manifest, and how far to merge the tail. */
  private async view(c: Collection, o: ReadOptions): Promise<View> {
    const consistency = o.consistency ?? 'strong';
    let token: ConsistencyToken | undefined;
    if (o.token !== undefined && o.token !== '') {
      try {
        token = decodeToken(o.token);
      } catch (e) {
        throw dataErrors.invalid('token', isMetaError(e) ? e.message.replace(/^token: /, '') : 'is malformed');
      }
    }
    // What the token asks of this collection's heads (parts naming other streams are ignored).
    const want = new Array<number>(c.partitions).fill(0);
    let wantSum = 0;
    if (token) {
      for (const e of token.entries) {
        if (e.ns === c.ns && e.stream === c.streamId && e.partition < c.partitions) want[e.partition] = Math.max(want[e.partition]!, e.offset);
      }
      for (const s of token.streams ?? []) if (s.ns === c.ns && s.stream === c.streamId) wantSum = Math.max(wantSum, s.sum);
    }
    for (let attempt = 1; ; attempt++) {
      const h = await this.head(c);
      const manifest = await this.manifestOf(h);
      const lead = token ? tokenLead(h, want, wantSum) : null;
      if (lead !== null) {
        // Heads are read linearizably and every offset in a token was committed before the
        // client held it (spec §3.5), so a head below it can only be a head source that lags:
        // read once more, then refuse at once (no query slot held waiting for offsets that
        // this collection never had — a token of another cluster, or made up).
        if (attempt < MAX_TOKEN_READS) continue;
        throw dataErrors.invalid('token', `${lead}: it is not a token a write to collection "${c.name}" returned; read without it (reads are strong by default)`);
      }
      // With a token: every head is at or past it now, so merging up to the heads includes
      // every offset the token covers (a superset is still "at least as fresh").
      const upTo = h.heads.map((x) => {
        const applied = manifest.applied[x.partition] ?? 0;
        return consistency === 'eventual' && !token ? applied : Math.max(applied, x.next);
      });
      return { collection: h.collection, manifest, upTo };
    }
  }

  /** The latest tail record per key of one partition for [from, to). Serialised per partition. */
  private async tail(c: Collection, partition: number, from: number, to: number, plan?: TailPlan): Promise<Map<string, LogRecord>> {
    if (to <= from) return new Map();
    const k = `${c.ns}/${c.streamId}/${partition}`;
    let st = this.tails.get(k);
    if (!st) {
      if (this.tails.size >= MAX_TAIL_STATES) this.tails.delete(this.tails.keys().next().value!);
      st = { from, to: from, latest: new Map(), lock: Promise.resolve() };
      this.tails.set(k, st);
    }
    const s = st;
    const run = s.lock.then(async () => {
      if (from < s.from) {
        // An older manifest than the last reader's: start over from it.
        s.from = from;
        s.to = from;
        s.latest = new Map();
      } else if (from > s.from) {
        // The applier moved on: records below `from` are in the data files now.
        for (const [key, r] of s.latest) if (r.offset < from) s.latest.delete(key);
        s.from = from;
        if (s.to < from) s.to = from;
      }
      if (to > s.to) {
        const recs = await this.log.read(c.ns, c.streamId, partition, s.to, to, plan);
        for (const r of recs) s.latest.set(r.key, r);
        s.to = to;
      }
    });
    s.lock = run.catch(() => {
      s.to = s.from;
      s.latest = new Map();
    });
    await run;
    // A copy of the entries up to `to` (the state may hold more, from a fresher reader).
    const out = new Map<string, LogRecord>();
    for (const [key, r] of s.latest) if (r.offset < to) out.set(key, r);
    if (s.to > to) {
      // Fresher records hide older ones in the shared state; read exactly [from, to) instead.
      const exact = new Map<string, LogRecord>();
      for (const r of await this.log.read(c.ns, c.streamId, partition, from, to, plan)) exact.set(r.key, r);
      return exact;
    }
    return out;
  }

  private async withView<T>(c: Collection, o: ReadOptions, fn: (v: View) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const v = await this.view(c, o);
      try {
        return await fn(v);
      } catch (e) {
        // The log was trimmed below our manifest's applied offsets: a newer manifest exists.
        if (attempt < MAX_VIEW_ATTEMPTS && isDataError(e, 'Unavailable') && /was trimmed/.test(e.message)) continue;
        throw e;
      }
    }
  }

  /** Documents by canonical key: JSON text, or undefined when absent. */
  async get(c: Collection, keys: string[], o: ReadOptions = {}): Promise<(string | undefined)[]> {
    if (keys.length > MAX_GET_KEYS) throw dataErrors.invalid('ids', `at most ${MAX_GET_KEYS} per request`);
    return this.withView(c, o, async (v) => {
      // The tail and the data files are read at the same time: a cold read costs the
      // manifest, then (tail chunks ‖ file indexes), then blocks — at most 3 serial round
      // trips (spec §5.8). Every file that may hold the key is asked in parallel; the
      // newest answer wins.
      const parts = [...new Set(keys.map((k) => partitionOf(k, c.partitions)))];
      const tails = new Map<number, Promise<Map<string, LogRecord>>>();
      for (const p of parts) tails.set(p, this.tail(c, p, v.manifest.applied[p] ?? 0, v.upTo[p]!));
      return Promise.all(
        keys.map(async (key) => {
          const fromFiles = Promise.all(v.manifest.files.map((f) => this.files.get(f, key)));
          const [tail, hits] = await Promise.all([tails.get(partitionOf(key, c.partitions))!, fromFiles]);
          const t = tail.get(key);
          if (t) return t.op === OP_DELETE ? undefined : t.body.toString('utf8');
          const e = hits.find((h) => h !== undefined);
          return e && !e.tombstone ? e.body.toString('utf8') : undefined;
        }),
      );
    });
  }

  /**
   * Every partition's tail of a view, for a query. In batches of QUERY_TAIL_BATCH partitions:
   * their index entries (QUERY_TAIL_CONCURRENCY at a time), then one prefetch of the chunks
   * they name (a few spanning GETs per WAL object, each chunk decoded once), then the tails
   * from those; the event loop gets a turn between steps, so one tenant's query over
   * thousands of partitions does not hold every other request.
   */
  private async allTails(c: Collection, v: View): Promise<Map<string, LogRecord>[]> {
    const out: Map<string, LogRecord>[] = [];
    const parts = Array.from({ length: c.partitions }, (_, p) => p);
    for (let i = 0; i < parts.length; i += QUERY_TAIL_BATCH) {
      const batch = parts.slice(i, i + QUERY_TAIL_BATCH);
      const plans = await mapLimit(batch, QUERY_TAIL_CONCURRENCY, (p) => this.plan(c, p, v.manifest.applied[p] ?? 0, v.upTo[p]!));
      const entries = plans.flatMap((pl) => pl?.entries ?? []);
      if (entries.length > 0) {
        const chunks = await this.log.prefetch(entries);
        for (const pl of plans) if (pl) pl.chunks = chunks;
      }
      await yieldToLoop();
      let done = 0;
      out.push(
        ...(await mapLimit(batch, QUERY_TAIL_CONCURRENCY, async (p, j) => {
          const m = await this.tail(c, p, v.manifest.applied[p] ?? 0, v.upTo[p]!, plans[j]);
          // A cached tail resolves without I/O: without this the batch would run as one task.
          if (++done % QUERY_TAIL_CONCURRENCY === 0) await yieldToLoop();
          return m;
        })),
      );
    }
    return out;
  }

  /** The index entries a tail read of [from, to) will need beyond what its cached state holds (undefined: none). */
  private async plan(c: Collection, partition: number, from: number, to: number): Promise<TailPlan | undefined> {
    if (to <= from) return undefined;
    const st = this.tails.get(`${c.ns}/${c.streamId}/${partition}`);
    // A state at this manifest's offsets that reached no further than `to` is extended from its end.
    const start = st && st.from === from && st.to >= from && st.to <= to ? st.to : from;
    if (start >= to) return undefined;
    let r: { entries: IndexEntry[]; logStart: number };
    try {
      r = await this.log.entries(c.ns, c.streamId, partition, start, to);
    } catch (e) {
      if (isMetaError(e, 'NotFound')) throw dataErrors.notFound(`collection "${c.name}"`);
      throw e;
    }
    return { from: start, to, entries: r.entries, logStart: r.logStart };
  }

  /**
   * A page of documents in primary-key order that match the filter: each one's stored text,
   * not a parsed value (a parse and re-serialization would round 12345678901234567890 and
   * respell 1.50); the filter alone reads the parsed form.
   */
  async query(c: Collection, o: QueryOptions): Promise<QueryPage> {
    const limit = o.limit ?? DEFAULT_QUERY_LIMIT;
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_QUERY_LIMIT) throw dataErrors.invalid('limit', `must be an integer in 1..${MAX_QUERY_LIMIT}`);
    const filter = o.filter === undefined || o.filter === null ? undefined : parseFilter(o.filter, c.schema);
    const after = o.cursor ? decodeCursor(o.cursor) : undefined;
    return this.withView(c, o, async (v) => {
      // Sources, newest first: the merged tail, then the files (newest first).
      const tailEntries: DataEntry[] = [];
      for (const m of await this.allTails(c, v)) {
        for (const r of m.values()) {
          if (after === undefined || compareKeys(r.key, after) > 0) tailEntries.push({ key: r.key, tombstone: r.op === OP_DELETE, body: r.body });
        }
      }
      tailEntries.sort((a, b) => compareKeys(a.key, b.key));
      const sources: AsyncIterator<DataEntry>[] = [arrayIter(tailEntries), ...v.manifest.files.map((f) => this.files.scan(f, after))];
      const heads: (DataEntry | undefined)[] = await Promise.all(sources.map(async (s) => (await s.next()).value as DataEntry | undefined));
      const documents: QueryDocument[] = [];
      let bytes = 0;
      let scanned = 0;
      let lastKey: string | undefined;
      while (documents.length < limit) {
        let min: string | undefined;
        for (const h of heads) if (h && (min === undefined || compareKeys(h.key, min) < 0)) min = h.key;
        if (min === undefined) return { documents, nextCursor: null };
        let winner: DataEntry | undefined;
        for (let i = 0; i < heads.length; i++) {
          const h = heads[i];
          if (h && h.key === min) {
            winner ??= h; // sources are newest first
            heads[i] = (await sources[i]!.next()).value as DataEntry | undefined;
          }
        }
        if (winner && !winner.tombstone && (!filter || matches(filter, JSON.parse(winner.body.toString('utf8')) as Record<string, unknown>, min))) {
          // Full: the cursor is the key before this one (lastKey), so the next page starts with it.
          if (documents.length > 0 && bytes + winner.body.length > MAX_QUERY_PAGE_BYTES) return { documents, nextCursor: encodeCursor(lastKey!) };
          documents.push({ key: min, text: Buffer.from(winner.body) });
          bytes += winner.body.length;
        }
        lastKey = min;
        if (++scanned >= MAX_QUERY_SCAN) break;
      }
      const more = heads.some((h) => h !== undefined);
      return { documents, nextCursor: more && lastKey !== undefined ? encodeCursor(lastKey) : null };
    });
  }
}

/** Why the heads do not cover the token yet (null when they do). */
function tokenLead(h: CollectionHead, want: number[], wantSum: number): string | null {
  let sum = 0;
  for (const x of h.heads) {
    if (x.next < want[x.partition]!) return `the token names offset ${want[x.partition]} of partition ${x.partition}, whose head is ${x.next}`;
    sum += x.next;
  }
  if (sum < wantSum) return `the token's high-water sum is ${wantSum}, the heads sum to ${sum}`;
  return null;
}

function arrayIter<T>(xs: T[]): AsyncIterator<T> {
  let i = 0;
  return { next: async () => (i < xs.length ? { value: xs[i++]!, done: false } : { value: undefined, done: true }) };
}

/** Cursors are opaque: base64url of JSON { k: last key }. */
export function encodeCursor(lastKey: string): string {
  return Buffer.from(JSON.stringify({ k: lastKey })).toString('base64url');
}

export function decodeCursor(s: string): string {
  if (typeof s !== 'string' || s.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(s)) throw dataErrors.invalid('cursor', 'is not a cursor this API returned');
  try {
    const v = JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as { k?: unknown };
    if (typeof v.k !== 'string') throw new Error();
    return v.k;
  } catch {
    throw dataErrors.invalid('cursor', 'is not a cursor this API returned');
  }
}

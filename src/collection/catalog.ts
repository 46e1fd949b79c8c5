// Name → id resolution for namespaces and collections: the gateway's catalog cache (spec §5.4:
// nodes cache only what they own or serve).
//
// - Per namespace: one entry holds a namespace's record and the collections of it this node
//   resolved, loaded lazily (namespaceByName, then collectionByName per name on first use).
//   Only namespaces a request on this node named are ever loaded, so the cache holds nothing
//   for namespaces the node neither owns nor serves; LRU order drops the ones it stopped serving.
// - Invalidated by the catalog change feed: before a read, if the feed was last read more than
//   CATALOG_FEED_POLL_MS ago, one changesSince (shared by concurrent reads) drops the entries of
//   the namespaces that changed; a feed resync drops them all. A change made through any node
//   is therefore seen within CATALOG_FEED_POLL_MS. An idle node reads nothing.
// - Bounded in entries (CATALOG_CACHE_NAMESPACES) and bytes (CATALOG_CACHE_BYTES: the JSON
//   size of the cached records), least recently used first out.
// - If the feed cannot be read (or takes over CATALOG_FEED_WAIT_MS), entries confirmed within
//   CATALOG_CACHE_MS are still used (the trust window names always had); older ones are read
//   again.
// The cache is a hint: a stale entry makes a write or read fail with NotFound from the
// metastore (a dropped stream or collection), never act on the wrong entity, because ids are
// never reused.
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection, Namespace } from '../meta/types.js';
import { dataErrors } from '../log/errors.js';

/** How long a cached name is trusted without the change feed (when the feed cannot be read). */
export const CATALOG_CACHE_MS = 1_000;
/** The change feed is read again before a read at most this often (a change elsewhere is seen within it). */
export const CATALOG_FEED_POLL_MS = 250;
/**
 * A read waits for the feed at most this long; past it (a slow or unreachable metastore) it
 * goes on with the entries confirmed within CATALOG_CACHE_MS while the feed read goes on.
 */
export const CATALOG_FEED_WAIT_MS = 500;
/** Namespaces cached at most. */
export const CATALOG_CACHE_NAMESPACES = 10_000;
/** Bytes of cached namespace and collection records at most (their JSON size). */
export const CATALOG_CACHE_BYTES = 16 * 1024 * 1024;
/** Change-feed pages read per poll at most (a longer backlog is a resync: every entry is dropped). */
export const CATALOG_FEED_PAGES = 10;
/** Changes per feed page. */
export const CATALOG_FEED_PAGE = 1_000;
/** With authentication off (auth: none, loopback development), every request belongs to this org. */
export const DEFAULT_ORG = 'default';

export interface CatalogLimits {
  namespaces: number;
  bytes: number;
}

interface Entry {
  ns: Namespace;
  colls: Map<string, Collection>;
  bytes: number;
  /** When it was loaded (for the trust window when the feed cannot be read). */
  at: number;
}

const size = (v: unknown) => JSON.stringify(v).length;

export class Catalog {
  /** By `${org}/${name}`, in recency order (a hit is re-inserted at the end). */
  private readonly entries = new Map<string, Entry>();
  /** Namespace id → its entry's key, for the feed's invalidations. */
  private readonly byId = new Map<number, string>();
  /** Feed reads finished; a load during which one ran or started is not cached (it may have missed its change). */
  private pulls = 0;
  private cachedBytes = 0;
  private feedVersion: number | null = null;
  private feedReadAt = -Infinity;
  /** When the feed last confirmed every entry fresh. */
  private confirmedAt = -Infinity;
  private pulling: Promise<void> | null = null;
  /** Metastore reads that loaded an entry (tests and metrics). */
  loads = 0;

  constructor(
    readonly meta: MetaStore,
    private readonly opts: { limits?: CatalogLimits; now?: () => number } = {},
  ) {}

  private get limits(): CatalogLimits {
    return this.opts.limits ?? { namespaces: CATALOG_CACHE_NAMESPACES, bytes: CATALOG_CACHE_BYTES };
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Entries and bytes held now. */
  get stats(): { namespaces: number; bytes: number } {
    return { namespaces: this.entries.size, bytes: this.cachedBytes };
  }

  async namespace(org: string, name: string): Promise<Namespace> {
    return (await this.entry(org, name)).ns;
  }

  async collection(org: string, nsName: string, name: string): Promise<Collection> {
    const e = await this.entry(org, nsName);
    const hit = e.colls.get(name);
    if (hit) return hit;
    const seen = this.loadMark();
    try {
      this.loads++;
      const c = await this.meta.collectionByName(e.ns.id, name);
      // Cached only if no feed read ran meanwhile and the entry is still held.
      if (this.unchangedSince(seen) && this.entries.get(`${org}/${nsName}`) === e) {
        e.colls.set(name, c);
        const b = size(c);
        e.bytes += b;
        this.cachedBytes += b;
        this.trim();
      }
      return c;
    } catch (err) {
      if (isMetaError(err, 'NotFound') || isMetaError(err, 'InvalidArgument')) throw dataErrors.notFound(`collection "${name}" in namespace "${nsName}"`);
      throw err;
    }
  }

  /** Bumped whenever cached names are dropped: what was derived from a resolved name is stale then. */
  generation = 0;

  /** Forget every name (after this node changed the catalog: create, drop). */
  invalidate(): void {
    this.generation++;
    this.entries.clear();
    this.byId.clear();
    this.cachedBytes = 0;
  }

  private async entry(org: string, name: string): Promise<Entry> {
    await this.follow();
    const k = `${org}/${name}`;
    const hit = this.entries.get(k);
    if (hit && this.now() - Math.max(hit.at, this.confirmedAt) < CATALOG_CACHE_MS) {
      this.entries.delete(k);
      this.entries.set(k, hit);
      return hit;
    }
    // Not confirmed by the feed (it could not be read) within the trust window: read it again.
    if (hit) this.drop(k, hit);
    const seen = this.loadMark();
    this.loads++;
    let n: Namespace;
    try {
      n = await this.meta.namespaceByName(org, name);
    } catch (e) {
      if (isMetaError(e, 'NotFound') || isMetaError(e, 'InvalidArgument')) throw dataErrors.notFound(`namespace "${name}"`);
      throw e;
    }
    const entry: Entry = { ns: n, colls: new Map(), bytes: size(n), at: this.now() };
    // A feed read during the load may have consumed a change to it: such a load is not cached.
    if (this.feedVersion !== null && this.unchangedSince(seen)) {
      const old = this.entries.get(k);
      if (old) this.drop(k, old);
      this.entries.set(k, entry);
      this.byId.set(n.id, k);
      this.cachedBytes += entry.bytes;
      this.trim();
    }
    return entry;
  }

  /** Reads the change feed if it was last read CATALOG_FEED_POLL_MS ago or more (one read shared by concurrent callers). */
  private async follow(): Promise<void> {
    if (this.now() - this.feedReadAt < CATALOG_FEED_POLL_MS) return;
    this.pulling ??= this.pull().finally(() => (this.pulling = null));
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (timer = setTimeout(resolve, CATALOG_FEED_WAIT_MS)));
    try {
      await Promise.race([this.pulling, waited]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async pull(): Promise<void> {
    const started = this.now();
    try {
      if (this.feedVersion === null) {
        // Nothing is cached before the feed's position is known: every later change is read.
        this.feedVersion = await this.meta.catalogVersion();
      } else {
        for (let page = 0; ; page++) {
          if (page >= CATALOG_FEED_PAGES) {
            // A backlog this long: drop everything instead of reading on (the next read starts from here).
            this.invalidate();
            break;
          }
          const p = await this.meta.changesSince(this.feedVersion, CATALOG_FEED_PAGE);
          if (p.resync) this.invalidate();
          for (const ch of p.changes) this.changed(ch.ns);
          this.feedVersion = p.version;
          if (!p.more) break;
        }
      }
      this.confirmedAt = started;
    } catch {
      // The feed is unreachable: keep what was confirmed or loaded within the trust window,
      // read the rest again, and try the feed at the next read.
      for (const [k, e] of this.entries) {
        if (started - Math.max(e.at, this.confirmedAt) >= CATALOG_CACHE_MS) this.drop(k, e);
      }
    } finally {
      // Read again at most every CATALOG_FEED_POLL_MS, also while it fails.
      this.feedReadAt = started;
      this.pulls++;
    }
  }

  private changed(ns: number): void {
    const k = this.byId.get(ns);
    const e = k === undefined ? undefined : this.entries.get(k);
    if (k !== undefined && e) {
      this.drop(k, e);
      this.generation++;
    }
  }

  private drop(k: string, e: Entry): void {
    this.entries.delete(k);
    if (this.byId.get(e.ns.id) === k) this.byId.delete(e.ns.id);
    this.cachedBytes -= e.bytes;
  }

  private trim(): void {
    const lim = this.limits;
    for (const [k, e] of this.entries) {
      if (this.entries.size <= lim.namespaces && this.cachedBytes <= lim.bytes) break;
      this.drop(k, e);
    }
  }

  /** What a load remembers: the feed reads and drops so far. */
  private loadMark(): { pulls: number; generation: number } {
    return { pulls: this.pulls, generation: this.generation };
  }

  private unchangedSince(m: { pulls: number; generation: number }): boolean {
    return this.pulling === null && this.pulls === m.pulls && this.generation === m.generation;
  }
}

// The worker role (DESIGN §1): runs each maintenance task under its lease — the applier (and
// compaction) per collection, the segmenter and retention per stream, GC per collection and
// once per cluster (WAL objects, dropped collections) — only for the collections this worker
// owns (placement, spec §5.3, ./ownership.ts).
//
// On a backend that keeps the dirty set (contract: dueHeads, settleHead; spec §5.4) the work
// is dirty-driven (./dirty.ts): partitions with new commits and partitions whose timers are
// due, read from the metastore, never a scan of the catalog. On one that does not, the worker
// finds its collections through the catalog change feed and polls them (applier every
// applyPollMs, segmenter and retention every maintenanceMs, GC every gcIntervalMs), as before
// the dirty set existed; commits from this node are applied at once either way.
//
// Start: a dirty-driven worker reads the catalog feed from its head (the pending work is in
// the dirty set, and its catalog cache starts empty), so its start does not grow with the
// catalog; collections dropped before it started reach GC through ./dropped.ts's saved
// position. A polling worker reads the feed from version 0: it is how it finds its collections.
import { setTimeout as sleep } from 'node:timers/promises';
import { hasDirtySets, type MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { AssignedRange, Collection, Fence, IndexEntry, Pointer, Stream } from '../meta/types.js';
import type { Store } from '../store/index.js';
import { Lru, type LogReader } from '../log/reader.js';
import type { DataFiles } from '../collection/datafile.js';
import { emptyManifest, type Manifests } from '../collection/manifest.js';
import { applyRoundDeadlineMs, gcCollection, gcDropped, gcOwner, gcWal, DEFAULT_GC_GRACE_MS, MAX_GC_DELETES_PER_PASS, type GcReport } from '../gc/gc.js';
import { stampOf } from '../collection/paths.js';
import { applyOnce, compactOnce, FenceLost, type ApplyResult, type PublishLock } from './applier.js';
import { Leases, DEFAULT_LEASE_TTL_MS } from './lease.js';
import { DEFAULT_SEGMENT_MIN_AGE_MS, retainPartition, segmentPartition } from './segmenter.js';
import { liveRetentionFloor, type RetentionFloor } from '../gc/retained.js';
import { DirtyDriven, MAX_TRACKED } from './dirty.js';
import { DroppedCollections, FEED_PAGE } from './dropped.js';
import { OWN_ALL, type Ownership } from './ownership.js';

/** How often the apply loop looks at its dirty set. */
export const APPLY_TICK_MS = 10;
/**
 * A collection is applied at most this often: each round writes a data file and a manifest,
 * so applying after every 10 ms flush would make tiny files and constant compaction. Strong
 * reads merge the log tail, so this only delays eventual reads.
 */
export const DEFAULT_APPLY_INTERVAL_MS = 250;
/** Every known collection is checked at least this often (commits from other nodes). */
export const DEFAULT_APPLY_POLL_MS = 1_000;
/** Segmenter and retention pass interval. */
export const DEFAULT_MAINTENANCE_MS = 2_000;
/** GC pass interval. */
export const DEFAULT_GC_INTERVAL_MS = 60_000;
/**
 * Dirty-driven mode: a node gives the cluster GC lease up once it has held it this long and
 * is not using it, so the other workers' collections get their GC turn.
 */
export const GC_LEASE_TURN_MS = 30_000;
/** Catalog feed poll interval (new and dropped collections). */
export const DISCOVERY_MS = 1_000;
/** Change-feed pages read per discovery pass (FEED_PAGE changes each). */
export const MAX_FEED_PAGES = 20;
/** Collections listed per namespace, pages of MAX_PAGE_LIMIT. */
export const MAX_COLLECTION_PAGES = 100;
/** Apply rounds per collection per wake-up (then others get a turn). */
export const MAX_ROUNDS_PER_WAKE = 8;
/** Merges one background compaction makes in a row at most. */
export const MAX_COMPACTIONS_PER_WAKE = 4;
/** Collections worked on at once. */
export const WORKER_CONCURRENCY = 4;
/**
 * A collection's retention floor is searched again at most this often (it only moves
 * forward, so an older one only trims less).
 */
export const FLOOR_REFRESH_MS = 30_000;

export interface WorkerOptions {
  meta: MetaStore;
  store: Store;
  log: LogReader;
  manifests: Manifests;
  files: DataFiles;
  owner: string;
  /** Which collections this worker maintains (default: every one). */
  ownership?: Ownership;
  leaseTtlMs?: number;
  applyPollMs?: number;
  applyIntervalMs?: number;
  segmentMinAgeMs?: number;
  maintenanceMs?: number;
  gcIntervalMs?: number;
  gcGraceMs?: number;
  onApply?: (c: Collection, r: ApplyResult, ms: number) => void;
  onGc?: (r: GcReport) => void;
  onError?: (task: string, e: unknown) => void;
  /** Collections whose apply time and retention floor are remembered at most (default MAX_TRACKED). */
  maxTracked?: number;
}

export class Workers {
  readonly leases: Leases;
  /** Polling mode (no dirty set): the owned collections found through the feed, and by namespace. */
  private readonly collections = new Map<string, Collection>();
  private readonly byNs = new Map<number, Set<string>>();
  private readonly byStream = new Map<string, string>();
  /** Dirty-driven mode (the backend keeps the dirty set), else null. */
  readonly driven: DirtyDriven | null;
  private readonly own: Ownership;
  private ownVersion: number;
  private readonly dirty = new Set<string>();
  private readonly locks = new Map<string, Promise<void>>();
  private readonly compacting = new Map<string, Promise<void>>();
  /** Dropped collections whose objects GC still has to delete (the GC lease holder's). */
  private readonly dropped: DroppedCollections;
  /** Where discovery reads the feed on from; null until the first pass (spec §5.4's scoped feed). */
  private feedVersion: number | null = null;
  private feedStart: Promise<number> | null = null;
  private stopped = false;
  private readonly loops: Promise<void>[] = [];
  private readonly abort = new AbortController();
  private readonly graceMs: number;
  /**
   * Per collection: its retention floor (version and path only: the manifest is the cache's)
   * and when it was found (for retention), the most recently used `maxTracked` of them.
   */
  private floors: Lru<{ floor: RetentionFloor; at: number }>;

  constructor(private readonly o: WorkerOptions) {
    this.leases = new Leases(o.meta, o.owner, o.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS);
    this.graceMs = o.gcGraceMs ?? DEFAULT_GC_GRACE_MS;
    this.floors = new Lru(o.maxTracked ?? MAX_TRACKED);
    this.lastApplied = new Lru(o.maxTracked ?? MAX_TRACKED);
    this.own = o.ownership ?? OWN_ALL;
    this.ownVersion = this.own.version();
    this.dropped = new DroppedCollections(o.meta, o.store);
    const meta = o.meta;
    this.driven = hasDirtySets(meta)
      ? new DirtyDriven(meta, this.own, {
          apply: (c) => this.applyCollection(c),
          segmentAndRetain: (c, parts) => this.segmentAndRetain(c, parts),
          gc: (c) => this.gcOne(c),
          applyDue: (c, now) => now - (this.lastApplied.get(`${c.ns}/${c.id}`) ?? 0) >= (o.applyIntervalMs ?? DEFAULT_APPLY_INTERVAL_MS),
          segmentMinAgeMs: o.segmentMinAgeMs ?? DEFAULT_SEGMENT_MIN_AGE_MS,
          maintenanceMs: o.maintenanceMs ?? DEFAULT_MAINTENANCE_MS,
          graceMs: this.graceMs,
          stopped: () => this.stopped,
          onError: (task, e) => this.o.onError?.(task, e),
        })
      : null;
  }

  /** Told by the local LogWriter after each commit. */
  committed(assigned: AssignedRange[]): void {
    if (this.driven) {
      // The commit already made its partitions due (in the metastore): look now, not at the next poll.
      if (assigned.length > 0) this.driven.poke();
      return;
    }
    for (const a of assigned) {
      const k = this.byStream.get(`${a.ns}/${a.stream}`);
      if (k) this.dirty.add(k);
    }
  }

  start(): void {
    const loop = (name: string, everyMs: number, fn: () => Promise<void>) =>
      (async () => {
        while (!this.stopped) {
          try {
            await fn();
          } catch (e) {
            if (!this.stopped) this.o.onError?.(name, e);
          }
          try {
            await sleep(everyMs, undefined, { signal: this.abort.signal });
          } catch {
            return;
          }
        }
      })();
    this.loops.push(loop('discovery', DISCOVERY_MS, () => this.discover()));
    const driven = this.driven;
    if (driven) {
      this.loops.push(
        (async () => {
          while (!this.stopped) {
            try {
              await this.feedHead(); // before any catalog is cached: no change after it is missed
              await this.followOwnership();
              await driven.pass();
            } catch (e) {
              if (!this.stopped) this.o.onError?.('maintenance', e);
            }
            await driven.idle(this.abort.signal);
          }
        })(),
      );
    } else {
      this.loops.push(
        loop('apply', APPLY_TICK_MS, () => this.applyDue()),
        loop('maintenance', this.o.maintenanceMs ?? DEFAULT_MAINTENANCE_MS, () => this.maintain()),
      );
    }
    this.loops.push(loop('gc', this.o.gcIntervalMs ?? DEFAULT_GC_INTERVAL_MS, async () => void (await this.gc())));
  }

  /**
   * The live worker set changed: leases of collections this worker no longer owns are released
   * (their new owner takes them at once), and what it cached or tracked for them is dropped.
   * Only keys whose owner changed move: the rest keep their leases and caches.
   */
  async followOwnership(): Promise<void> {
    const v = this.own.version();
    if (v === this.ownVersion) return;
    this.ownVersion = v;
    const owned = (c: Collection) => this.own.mayOwn(c.ns) && this.own.owns({ ns: c.ns, collection: c.id });
    const gone = new Set<string>();
    for (const [k, c] of this.collections) if (!owned(c)) gone.add(k);
    for (const k of gone) this.forget(k);
    this.driven?.forgetUnowned();
    this.leases.forgetLapsed();
    await this.leases.releaseWhere((scope, key) => {
      if (scope === 'cluster') return false;
      const m = /^(applier|segmenter)\/(\d+)$/.exec(key);
      if (!m) return false;
      // A stream lease names the stream: it moves with its collection, found by stream id.
      const ns = Number(scope);
      if (!this.own.mayOwn(ns)) return true;
      return m[1] === 'applier' && !this.own.owns({ ns, collection: Number(m[2]) });
    });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.abort.abort();
    await Promise.allSettled(this.loops);
    await Promise.allSettled(this.compacting.values());
    await this.leases.releaseAll();
  }

  /**
   * Where discovery starts: the feed's head in dirty-driven mode (read once, before the first
   * pass caches a catalog), version 0 in polling mode (it finds its collections in the feed).
   */
  private async feedHead(): Promise<number> {
    if (this.feedVersion !== null) return this.feedVersion;
    this.feedStart ??= (this.driven ? this.o.meta.catalogVersion() : Promise.resolve(0)).finally(() => (this.feedStart = null));
    const v = await this.feedStart;
    this.feedVersion ??= v;
    return this.feedVersion;
  }

  /**
   * Reads the catalog feed (spec §5.4's scoped feed): a changed namespace's cached catalog is
   * dropped (dirty-driven mode) or its owned collections are read again (polling mode).
   * O(changes), never O(catalog). Dropped collections reach GC through ./dropped.ts.
   */
  async discover(): Promise<void> {
    await this.followOwnership();
    let version = await this.feedHead();
    const changed = new Set<number>();
    let resync = false;
    for (let page = 0; page < MAX_FEED_PAGES; page++) {
      const p = await this.o.meta.changesSince(version, FEED_PAGE);
      if (p.resync) resync = true;
      for (const ch of p.changes) changed.add(ch.ns);
      version = this.feedVersion = p.version;
      if (!p.more) break;
    }
    if (resync) this.driven?.cache.clear();
    if (this.driven) {
      for (const ns of changed) this.driven.cache.invalidate(ns);
      return;
    }
    for (const ns of changed) {
      for (const k of [...(this.byNs.get(ns) ?? [])]) this.forget(k);
      if (!this.own.mayOwn(ns)) continue;
      let after: string | undefined;
      try {
        for (let page = 0; page < MAX_COLLECTION_PAGES; page++) {
          const r = await this.o.meta.listCollections(ns, { limit: 1_000, ...(after !== undefined ? { after } : {}) });
          for (const c of r.items) {
            if (!this.own.owns({ ns: c.ns, collection: c.id })) continue;
            const k = `${c.ns}/${c.id}`;
            this.collections.set(k, c);
            let set = this.byNs.get(c.ns);
            if (!set) this.byNs.set(c.ns, (set = new Set()));
            set.add(k);
            this.byStream.set(`${c.ns}/${c.streamId}`, k);
            this.dirty.add(k);
          }
          if (!r.next) break;
          after = r.next;
        }
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e; // a dropped namespace has no collections
      }
    }
  }

  private forget(k: string): void {
    const c = this.collections.get(k);
    if (!c) return;
    this.collections.delete(k);
    const set = this.byNs.get(c.ns);
    set?.delete(k);
    if (set?.size === 0) this.byNs.delete(c.ns);
    this.lastApplied.delete(k);
    this.floors.delete(k);
    this.byStream.delete(`${c.ns}/${c.streamId}`);
  }

  private lastPoll = 0;
  /** When each collection was last applied, the most recently applied `maxTracked` (a forgotten one is simply due). */
  private readonly lastApplied: Lru<number>;

  private async applyDue(): Promise<void> {
    if (Date.now() - this.lastPoll >= (this.o.applyPollMs ?? DEFAULT_APPLY_POLL_MS)) {
      this.lastPoll = Date.now();
      for (const k of this.collections.keys()) this.dirty.add(k);
    }
    if (this.dirty.size === 0) return;
    const now = Date.now();
    const every = this.o.applyIntervalMs ?? DEFAULT_APPLY_INTERVAL_MS;
    const due = [...this.dirty].filter((k) => now - (this.lastApplied.get(k) ?? 0) >= every);
    for (const k of due) {
      this.dirty.delete(k);
      this.lastApplied.set(k, now, 1);
    }
    await forEachLimit(due, WORKER_CONCURRENCY, async (k) => {
      const c = this.collections.get(k);
      if (c) await this.applyCollection(c);
    });
  }

  /**
   * Applies a collection until it has no lag (bounded rounds): 'done' when no lag is left,
   * 'more' when some is (rounds spent, or a round published nothing), 'skipped' when another
   * node holds its lease or it is gone. `worked`: a round published something.
   */
  async applyCollection(c: Collection): Promise<{ outcome: 'done' | 'more' | 'skipped'; worked: boolean }> {
    this.lastApplied.set(`${c.ns}/${c.id}`, Date.now(), 1);
    const fence = await this.leases.hold(c.ns, `applier/${c.id}`);
    if (!fence) return { outcome: 'skipped', worked: false };
    let worked = false;
    for (let round = 0; round < MAX_ROUNDS_PER_WAKE && !this.stopped; round++) {
      const t0 = performance.now();
      let r: ApplyResult;
      try {
        r = await applyOnce(this.applierDeps(), c, fence, this.lockOf(`${c.ns}/${c.id}`));
      } catch (e) {
        if (e instanceof FenceLost) {
          this.leases.lost(c.ns, `applier/${c.id}`);
          return { outcome: 'skipped', worked };
        }
        if (isMetaError(e, 'NotFound')) {
          this.forget(`${c.ns}/${c.id}`); // dropped
          return { outcome: 'skipped', worked };
        }
        throw e;
      }
      this.o.onApply?.(c, r, performance.now() - t0);
      if (r.applied > 0) worked = true;
      this.compactInBackground(c, fence);
      if (r.lag === 0) return { outcome: 'done', worked };
      if (r.applied === 0) return { outcome: 'more', worked };
    }
    if (!this.driven) this.dirty.add(`${c.ns}/${c.id}`);
    return { outcome: 'more', worked };
  }

  private applierDeps() {
    return { ...this.o, roundDeadlineMs: applyRoundDeadlineMs(this.graceMs) };
  }

  /** One publish at a time per collection (applier and compaction share the lease). */
  private lockOf(k: string): PublishLock {
    return async <T>(fn: () => Promise<T>): Promise<T> => {
      const prev = this.locks.get(k) ?? Promise.resolve();
      const run = prev.then(fn);
      const tail = run.then(
        () => undefined,
        () => undefined,
      );
      this.locks.set(k, tail);
      try {
        return await run;
      } finally {
        if (this.locks.get(k) === tail) this.locks.delete(k);
      }
    };
  }

  /** Compaction beside the applier, at most one per collection at a time. */
  private compactInBackground(c: Collection, fence: Fence): void {
    const k = `${c.ns}/${c.id}`;
    if (this.compacting.has(k) || this.stopped) return;
    const run = (async () => {
      try {
        // Several merges may be due (one per tier); bounded.
        for (let i = 0; i < MAX_COMPACTIONS_PER_WAKE && !this.stopped; i++) {
          if (!(await compactOnce(this.applierDeps(), c, fence, this.lockOf(k)))) break;
          this.o.onApply?.(c, { applied: 0, lag: 0, compacted: true }, 0);
        }
      } catch (e) {
        if (e instanceof FenceLost) this.leases.lost(c.ns, `applier/${c.id}`);
        else if (!isMetaError(e, 'NotFound')) this.o.onError?.('compaction', e);
      } finally {
        this.compacting.delete(k);
      }
    })();
    this.compacting.set(k, run);
  }

  /**
   * Segmenter and retention of some partitions of a collection's stream, under the stream's
   * lease (dirty-driven mode): per partition, whether anything changed, the entries left (their
   * timers say when it is next due) and whether the retention floor held a trim back; null when
   * another node holds the lease or the collection is gone.
   */
  async segmentAndRetain(c: Collection, partitions: number[]): Promise<{ stream: Stream; results: Map<number, { worked: boolean; entries: IndexEntry[]; floorLimited: boolean }> } | null> {
    const fence = await this.leases.hold(c.ns, `segmenter/${c.streamId}`);
    if (!fence) return null;
    try {
      const [state, head] = await Promise.all([this.o.meta.stream(c.ns, c.streamId), this.o.meta.collectionHead(c.ns, c.id)]);
      const results = new Map<number, { worked: boolean; entries: IndexEntry[]; floorLimited: boolean }>();
      let applied: number[] | null = null;
      for (const p of new Set(partitions)) {
        if (this.stopped || p >= state.partitions) continue;
        const segmented = await segmentPartition(this.o, state, p, fence, Date.now(), this.o.segmentMinAgeMs);
        let trimmed: number | null = null;
        let floorLimited = false;
        if (state.retention.ms !== null || state.retention.bytes !== null) {
          applied ??= await this.appliedByAllRetained(c, head.pointer);
          const floor = applied[p] ?? 0;
          trimmed = await retainPartition(this.o, state, p, floor, fence);
          const { entries } = await this.o.log.entries(c.ns, c.streamId, p, 0, Number.MAX_SAFE_INTEGER);
          // Entries past retention that the floor keeps: trimmed once the floor moves on.
          const wanted = wantedCut(state, entries, Date.now());
          floorLimited = wanted !== null && entries.length > 0 && entries[0]!.end <= wanted;
          results.set(p, { worked: segmented > 0 || trimmed !== null, entries, floorLimited });
          continue;
        }
        const { entries } = await this.o.log.entries(c.ns, c.streamId, p, 0, Number.MAX_SAFE_INTEGER);
        results.set(p, { worked: segmented > 0, entries, floorLimited });
      }
      return { stream: state, results };
    } catch (e) {
      if (isMetaError(e, 'NotFound')) return null;
      if (isMetaError(e, 'FenceMismatch')) {
        this.leases.lost(c.ns, `segmenter/${c.streamId}`); // another node has the stream now
        return null;
      }
      throw e;
    }
  }

  /**
   * GC of one collection (dirty-driven mode) under the cluster GC lease, which is released at
   * once so that other workers' collections get their turn: whether objects wait for a later
   * pass; null when another node holds the lease.
   */
  async gcOne(c: Collection): Promise<{ pending: boolean } | null> {
    return this.withGcLease(async (fence) => {
      const r: GcReport = { deleted: [], skipped: 0 };
      try {
        await gcCollection({ ...this.o, graceMs: this.graceMs, fence, owner: gcOwner(this.o.owner, fence) }, c, r);
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e;
        return { pending: false }; // dropped: the feed hands it to the dropped-collection GC
      } finally {
        this.o.onGc?.(r);
      }
      return { pending: (r.pending ?? 0) > 0 || r.skipped > 0 || r.deleted.length >= MAX_GC_DELETES_PER_PASS };
    });
  }

  /** GC users of the cluster lease on this node right now, and since when (at which epoch) it is held. */
  private gcUsers = 0;
  private gcHeld = { epoch: -1, since: 0 };

  /**
   * Runs `fn` under the cluster GC lease (null when another node holds it). In dirty-driven
   * mode the lease is given up once it has been held GC_LEASE_TURN_MS and nothing on this node
   * uses it, so every worker's collections get their GC turn; a GC in flight never loses it.
   */
  private async withGcLease<T>(fn: (fence: Fence) => Promise<T>): Promise<T | null> {
    const fence = await this.leases.hold('cluster', 'gc');
    if (!fence) return null;
    if (this.gcHeld.epoch !== fence.epoch) this.gcHeld = { epoch: fence.epoch, since: Date.now() };
    this.gcUsers++;
    try {
      return await fn(fence);
    } finally {
      this.gcUsers--;
      if (this.driven && this.gcUsers === 0 && !this.stopped && Date.now() - this.gcHeld.since >= GC_LEASE_TURN_MS) {
        this.gcHeld = { epoch: -1, since: 0 };
        await this.leases.releaseWhere((scope, key) => scope === 'cluster' && key === 'gc');
      }
    }
  }

  /** Segmenter and retention for every known collection's stream (polling mode). */
  async maintain(): Promise<void> {
    await forEachLimit([...this.collections.values()], WORKER_CONCURRENCY, async (c) => {
      if (this.stopped) return;
      const fence = await this.leases.hold(c.ns, `segmenter/${c.streamId}`);
      if (!fence) return;
      try {
        const [state, head] = await Promise.all([this.o.meta.stream(c.ns, c.streamId), this.o.meta.collectionHead(c.ns, c.id)]);
        const applied = await this.appliedByAllRetained(c, head.pointer);
        for (let p = 0; p < state.partitions && !this.stopped; p++) {
          await segmentPartition(this.o, state, p, fence, Date.now(), this.o.segmentMinAgeMs);
          await retainPartition(this.o, state, p, applied[p] ?? 0, fence);
        }
      } catch (e) {
        if (isMetaError(e, 'NotFound')) return;
        if (isMetaError(e, 'FenceMismatch')) {
          this.leases.lost(c.ns, `segmenter/${c.streamId}`); // another node has the stream now
          return;
        }
        throw e;
      }
    });
  }

  /** What every retained manifest has applied: the retention floor's manifest's offsets. */
  private async appliedByAllRetained(c: Collection, pointer: Pointer | null): Promise<number[]> {
    if (!pointer) return emptyManifest(c.ns, c.id, c.partitions).applied;
    const k = `${c.ns}/${c.id}`;
    const known = this.floors.get(k);
    if (known && Date.now() - known.at < FLOOR_REFRESH_MS) {
      // GC may have collected an older floor's manifest since; then search again.
      const m = await this.o.manifests.load(known.floor.path).catch(() => null);
      if (m) return m.applied;
    }
    const { manifest, version, path } = await liveRetentionFloor(this.o.meta, this.o.manifests, c, pointer, Date.now());
    this.floors.set(k, { floor: { version, path }, at: Date.now() }, 1);
    return manifest.applied;
  }

  /**
   * The cluster GC pass under the cluster GC lease: WAL objects, dropped collections (every
   * one: ./dropped.ts), and (in polling mode) every owned collection; in dirty-driven mode
   * collections are GCed when their partitions come due instead (gcOne), so this pass touches
   * no live collection.
   */
  async gc(): Promise<GcReport | null> {
    return this.withGcLease(async (fence) => {
      const r: GcReport = { deleted: [], skipped: 0 };
      const d = { ...this.o, graceMs: this.graceMs, fence, owner: gcOwner(this.o.owner, fence) };
      await gcWal(d, r);
      if (!this.driven) {
        for (const c of this.collections.values()) {
          if (this.stopped) break;
          try {
            await gcCollection(d, c, r);
          } catch (e) {
            if (!isMetaError(e, 'NotFound')) throw e;
          }
        }
      }
      await this.dropped.follow(fence.epoch, () => this.stopped);
      // Saved before any is collected: the janitor removes a dropped collection's records first,
      // after which its drop in the feed no longer leads to its objects, so a GC killed between
      // the janitor and the pass's end would otherwise leave them for good.
      await this.dropped.save();
      for (const c of this.dropped.entries()) {
        if (this.stopped) break;
        if (await gcDropped(d, c, r)) this.dropped.collected(c);
      }
      await this.dropped.save();
      this.o.onGc?.(r);
      return r;
    });
  }

  /** Drops cached objects an erasure retired (spec §9.4). */
  evict(paths: ReadonlySet<string>): number {
    this.floors = new Lru(this.o.maxTracked ?? MAX_TRACKED);
    return this.o.log.evict(paths) + this.o.manifests.evict(paths) + this.o.files.evict(paths);
  }

  /** Collections whose apply time and retention floor this worker remembers (for tests). */
  tracked(): { applied: number; floors: number } {
    return { applied: this.lastApplied.size, floors: this.floors.size };
  }

  /** Known collections (polling mode; for metrics and tests). */
  known(): Collection[] {
    return [...this.collections.values()];
  }
}

/** How far a stream's retention would trim a partition with these entries, ignoring the floor (null: not at all). */
function wantedCut(s: Stream, entries: IndexEntry[], now: number): number | null {
  let cut: number | null = null;
  if (s.retention.ms !== null) {
    for (const e of entries) {
      const t = stampOf(e.path);
      if (t === null || now - t <= s.retention.ms) break;
      cut = e.end;
    }
  }
  if (s.retention.bytes !== null) {
    let kept = 0;
    for (let k = entries.length - 1; k >= 0; k--) {
      kept += entries[k]!.byteEnd - entries[k]!.byteStart;
      if (kept > s.retention.bytes) {
        cut = Math.max(cut ?? 0, entries[k]!.end);
        break;
      }
    }
  }
  return cut;
}

async function forEachLimit<T>(items: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const errors: unknown[] = [];
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const t = items[next++]!;
        try {
          await fn(t);
        } catch (e) {
          errors.push(e);
        }
      }
    }),
  );
  if (errors.length > 0) throw errors[0];
}

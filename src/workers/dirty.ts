// Dirty-driven maintenance (spec §5.4: "maintenance is driven by streams with new commits and
// collections with new manifests, not by full scans"; issue 17 item 2).
//
// The dirty set lives in the metastore, beside the partition heads (contract: dueHeads,
// settleHead): commitWal marks every partition it appends to due now, in the transaction that
// assigns the offsets, so no commit — from this node or any other — can be missed, and a
// restarted or newly owning worker finds all pending work where it left it. After maintaining
// a partition the worker sets when it is next due (its young WAL chunks' segmenting age, its
// oldest entry's retention, a GC re-check while superseded objects wait out their grace), or
// clears it — only while no commit came in meanwhile (the mark). An idle catalog therefore
// costs one dueHeads page per poll whatever its size, and a busy one costs what changed.
//
// Each pass reads the due heads (a bounded number of pages), keeps those of collections this
// worker owns (placement, ./ownership.ts; the namespace's catalog is loaded only when the
// worker may own it), and per collection: applies it (under its lease) until it has no lag,
// segments and retains each due partition (under the stream's lease), GCs it when due (under
// the cluster GC lease), then settles each partition. Work this pass could not finish (a lease
// held elsewhere, a round budget spent, an error) is simply not settled: it stays due.
import { setTimeout as sleep } from 'node:timers/promises';
import type { MetaStore } from '../meta/contract.js';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
import type { Collection, DueHead, IndexEntry, Stream } from '../meta/types.js';
import { stampOf } from '../collection/paths.js';
import { SEGMENT_MAX_AGE_MS } from './segmenter.js';
import { NamespaceCollections } from './namespace-cache.js';
import type { Ownership } from './ownership.js';

/** How often the due heads are read when nothing wakes the loop earlier (a local commit does). */
export const DUE_POLL_MS = 250;
/** dueHeads pages one pass reads at most (MAX_PAGE_LIMIT each); the rest waits for the next pass. */
export const MAX_DUE_PAGES = 10;
/** A partition is not re-checked sooner than this after it was maintained (bounds a busy loop). */
export const MIN_RECHECK_MS = 1_000;
/** Retention held back by the retention floor is re-checked this often (the floor moves with time). */
export const RETENTION_RECHECK_MS = 5 * 60_000;
/** A collection whose GC found objects still inside their grace or retention is GCed again after this. */
export const GC_RECHECK_MS = 10 * 60_000;
/** Collections whose timers are remembered at most (a forgotten one segments and GCs when next due). */
export const MAX_TRACKED = 100_000;

interface CollectionState {
  /** When its partitions were last segmented and retained (local clock). */
  segmentedAt: number;
  /** When it is next GCed (absent: nothing known to wait). */
  gcAt?: number;
}

/** What the driver asks the scheduler to do (each under its lease). */
export interface MaintenanceOps {
  /** Applies the collection: 'done' (no lag), 'more' (lag left), 'skipped' (its lease is held elsewhere, or it is gone). Sets `worked` when it published. */
  apply(c: Collection): Promise<{ outcome: 'done' | 'more' | 'skipped'; worked: boolean }>;
  /**
   * Segments and retains these partitions of the collection's stream: per partition, whether
   * it changed anything and its remaining index entries; null when the stream's lease is held
   * elsewhere (or it is gone).
   */
  segmentAndRetain(c: Collection, partitions: number[]): Promise<{ stream: Stream; results: Map<number, { worked: boolean; entries: IndexEntry[]; floorLimited: boolean }> } | null>;
  /** GCs the collection: whether objects wait for a later pass; null when the GC lease is held elsewhere. */
  gc(c: Collection): Promise<{ pending: boolean } | null>;
  /** The applier's per-collection spacing (DEFAULT_APPLY_INTERVAL_MS): false while too recent. */
  applyDue(c: Collection, now: number): boolean;
  segmentMinAgeMs: number;
  /** Segmenting and retention of a partition that keeps getting commits run at most this often. */
  maintenanceMs: number;
  graceMs: number;
  stopped(): boolean;
  onError(task: string, e: unknown): void;
}

type DirtyMeta = MetaStore & Required<Pick<MetaStore, 'dueHeads' | 'settleHead'>>;

export class DirtyDriven {
  readonly cache: NamespaceCollections;
  /** Per collection (ns/id), in recency order: its segmenting and GC times (absent: unknown, so both run when it is next due). */
  private readonly state = new Map<string, CollectionState>();
  private wake: (() => void) | null = null;
  private woken = false;
  passes = 0;

  constructor(
    private readonly meta: DirtyMeta,
    private readonly own: Ownership,
    private readonly ops: MaintenanceOps,
  ) {
    this.cache = new NamespaceCollections(meta);
  }

  /** A local commit: run a pass now instead of at the next poll. */
  poke(): void {
    this.woken = true;
    this.wake?.();
  }

  /** Waits for the next poll or a poke, whichever is first. */
  async idle(signal: AbortSignal): Promise<void> {
    if (this.woken) {
      this.woken = false;
      return;
    }
    const ac = new AbortController();
    this.wake = () => ac.abort();
    const stop = () => ac.abort();
    signal.addEventListener('abort', stop, { once: true });
    try {
      await sleep(DUE_POLL_MS, undefined, { signal: ac.signal });
    } catch {
      // poked or stopped
    } finally {
      this.wake = null;
      this.woken = false;
      signal.removeEventListener('abort', stop);
    }
  }

  /** One pass over what is due now. Returns the due heads of owned collections it looked at. */
  async pass(now = Date.now()): Promise<number> {
    this.passes++;
    const mine = new Map<string, { c: Collection; heads: DueHead[] }>();
    let after: string | undefined;
    for (let page = 0; page < MAX_DUE_PAGES && !this.ops.stopped(); page++) {
      const p = await this.meta.dueHeads(now, { limit: MAX_PAGE_LIMIT, ...(after !== undefined ? { after } : {}) });
      for (const h of p.items) {
        if (!this.own.mayOwn(h.ns)) continue; // another worker's namespace: not even its catalog
        const c = await this.collectionOf(h);
        if (c === undefined) continue; // unresolved (an error): stays due
        if (c === null) {
          // A plain stream, or a dropped collection's: no maintenance here (a dropped one's
          // objects are GC's, found through the change feed).
          await this.meta.settleHead(h.ns, h.stream, h.partition, h.mark, null);
          continue;
        }
        if (!this.own.owns({ ns: c.ns, collection: c.id })) continue;
        const k = `${c.ns}/${c.id}`;
        const e = mine.get(k);
        if (e) e.heads.push(h);
        else mine.set(k, { c, heads: [h] });
      }
      if (!p.next) break;
      after = p.next;
    }
    let looked = 0;
    for (const { c, heads } of mine.values()) {
      if (this.ops.stopped()) break;
      looked += heads.length;
      try {
        await this.maintain(c, heads, now);
      } catch (e) {
        this.ops.onError('maintenance', e); // not settled: due again at the next pass
      }
    }
    return looked;
  }

  private async collectionOf(h: DueHead): Promise<Collection | null | undefined> {
    try {
      const c = await this.cache.byStream(h.ns, h.stream);
      if (c) return c;
      // Not in the cached catalog: created since it was read? Read it once more.
      this.cache.invalidate(h.ns);
      return await this.cache.byStream(h.ns, h.stream);
    } catch (e) {
      this.ops.onError('catalog', e);
      return undefined;
    }
  }

  /** Applies, segments, retains and GCs one collection's due partitions, then settles them. */
  private async maintain(c: Collection, heads: DueHead[], now: number): Promise<void> {
    const k = `${c.ns}/${c.id}`;
    const st = this.state.get(k) ?? { segmentedAt: 0 };
    // New commits (due 0) need the applier; a partition due for its timers alone does not.
    const committed = heads.some((h) => h.due === 0);
    let worked = false;
    if (committed) {
      if (!this.ops.applyDue(c, now)) return; // applied a moment ago: the next pass (still due)
      const a = await this.ops.apply(c);
      if (a.outcome !== 'done') return; // lag left, or another node holds the lease: stays due
      worked = a.worked;
    }
    // Segmenting and retention look at a partition when one of its timers is due, and while it
    // keeps getting commits at most every maintenanceMs (each commit makes it due now again,
    // which would otherwise hide its timers for as long as the writes go on).
    const timers = heads.some((h) => h.due !== 0);
    if (!timers && now - st.segmentedAt < this.ops.maintenanceMs) {
      if (worked) st.gcAt = Math.min(st.gcAt ?? Infinity, Date.now() + this.ops.graceMs + MIN_RECHECK_MS);
      this.remember(k, st);
      // Its chunks are younger than the segmenting age (it was looked at within maintenanceMs):
      // due again then, or at its GC time if sooner.
      const next = Math.max(Date.now() + MIN_RECHECK_MS, Math.min(Date.now() + this.ops.segmentMinAgeMs, st.gcAt ?? Infinity));
      for (const h of heads) await this.meta.settleHead(h.ns, h.stream, h.partition, h.mark, next);
      return;
    }
    const sr = await this.ops.segmentAndRetain(
      c,
      heads.map((h) => h.partition),
    );
    if (!sr) return; // the stream's lease is held elsewhere: stays due
    st.segmentedAt = Date.now();
    for (const r of sr.results.values()) worked ||= r.worked;
    if (worked) st.gcAt = Math.min(st.gcAt ?? Infinity, Date.now() + this.ops.graceMs + MIN_RECHECK_MS);
    if (st.gcAt === undefined || st.gcAt <= now || !this.state.has(k)) {
      // Due, or unknown (a restart, a new owner): GC now, and again while objects wait.
      const g = await this.ops.gc(c);
      if (g === null) st.gcAt = Date.now() + MIN_RECHECK_MS; // GC lease elsewhere: try again soon
      else if (g.pending) st.gcAt = Date.now() + GC_RECHECK_MS;
      else delete st.gcAt;
    }
    this.remember(k, st);
    for (const h of heads) {
      const r = sr.results.get(h.partition);
      if (!r) continue;
      const next = this.nextDue(sr.stream, r, st.gcAt, Date.now());
      await this.meta.settleHead(h.ns, h.stream, h.partition, h.mark, next);
    }
  }

  private remember(k: string, st: CollectionState): void {
    this.state.delete(k);
    if (this.state.size >= MAX_TRACKED) {
      const oldest = this.state.keys().next().value;
      if (oldest !== undefined) this.state.delete(oldest); // forgotten: it segments and GCs when next due
    }
    this.state.set(k, st);
  }

  /**
   * When a maintained partition is next due: its oldest WAL chunk's segmenting age, its oldest
   * entry's retention, a held-back trim's re-check, the collection's GC; null when nothing is
   * pending (the next commit makes it due again).
   */
  nextDue(s: Stream, r: { entries: IndexEntry[]; floorLimited: boolean }, gcAt: number | undefined, now: number): number | null {
    const at: number[] = [];
    const wal = r.entries.find((e) => e.kind === 'wal');
    if (wal) {
      const t = stampOf(wal.path) ?? now;
      let when = t + this.ops.segmentMinAgeMs;
      if (when <= now) when = t + Math.max(this.ops.segmentMinAgeMs, SEGMENT_MAX_AGE_MS);
      at.push(when);
    }
    const first = r.entries[0];
    // Held back by the retention floor: when the floor may have moved, not when the entry aged.
    if (r.floorLimited) at.push(now + RETENTION_RECHECK_MS);
    else if (first && s.retention.ms !== null) at.push((stampOf(first.path) ?? now) + s.retention.ms + 1);
    if (gcAt !== undefined) at.push(gcAt);
    if (at.length === 0) return null;
    return Math.max(now + MIN_RECHECK_MS, Math.min(...at));
  }

  /** Ownership changed: drop the catalogs and GC times of namespaces this worker no longer may own. */
  forgetUnowned(): void {
    this.cache.forgetUnowned((ns) => this.own.mayOwn(ns));
    for (const k of [...this.state.keys()]) if (!this.own.mayOwn(Number(k.split('/')[0]))) this.state.delete(k);
  }
}

// Stored bytes per namespace (spec §6: the storage quota is soft, checked against a periodic
// measurement). A gateway measures the namespaces it admitted writes for, and re-measures
// them every STORAGE_MEASURE_MS, least recently first, so the usage gauge and the quota
// follow what GC, retention and dropped tags free, not only what writes add.
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import { isMetaError } from '../meta/errors.js';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
import type { ControlStore } from '../control/types.js';

/** A namespace's stored bytes are measured again after this (storage quota: soft, periodic). */
export const STORAGE_MEASURE_MS = 60_000;
/** Namespaces kept fresh per gateway, and re-measured per round, at most. */
export const MAX_MEASURED_NAMESPACES = 10_000;
export const MAX_REFRESH_PER_ROUND = 100;
/**
 * Live collections a namespace holds at most: the gateway refuses a create past it, so the
 * storage quota's measurement, which lists them all, stays bounded (spec §6: storage bytes
 * are computed from every partition and manifest; a namespace's 1,001st collection used to
 * go unmeasured, and its bytes past the quota).
 */
export const MAX_COLLECTIONS_PER_NAMESPACE = 1_000;
/**
 * Collections measured per namespace, at most (every loop a bound): creates racing on several
 * gateways can each pass the limit's check, so a namespace may briefly hold a few more.
 */
export const MAX_MEASURED_COLLECTIONS = 2 * MAX_COLLECTIONS_PER_NAMESPACE;

/** Measurements cached, at most. */
export const MAX_STORAGE_ENTRIES = 100_000;

/** A namespace's live collections by name, a page at a time, at most `atMost` of them. */
export async function* liveCollections(meta: MetaStore, ns: number, atMost: number): AsyncGenerator<Collection> {
  let after: string | undefined;
  for (let seen = 0; seen < atMost; ) {
    const page = await meta.listCollections(ns, { limit: Math.min(MAX_PAGE_LIMIT, atMost - seen), ...(after ? { after } : {}) });
    for (const c of page.items) yield c;
    seen += page.items.length;
    if (!page.next || page.items.length === 0) return;
    after = page.next;
  }
}

export interface StorageDeps {
  meta: MetaStore;
  control: ControlStore;
  /**
   * A collection's stored bytes (log, manifests, data files, tag-only bytes) and the records
   * its manifest has not applied yet, when this node can read manifests.
   */
  measure?: (c: Collection) => Promise<{ bytes: number; unappliedRecords: number }>;
  now: () => number;
  /** A refresh round failed (the last measurement stands). */
  failed: (e: unknown) => void;
}

export class StorageMeter {
  private readonly storage = new Map<number, { org: string; at: number; bytes: number; pending?: Promise<number> }>();
  /**
   * Namespaces this gateway admitted writes for (ns → org), in least recently refreshed order:
   * their stored bytes are re-measured every STORAGE_MEASURE_MS.
   */
  private readonly measured = new Map<number, string>();
  private refreshing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly d: StorageDeps) {}

  /** Stored bytes of the namespace's collections (spec §6), measured at most every STORAGE_MEASURE_MS. */
  storedBytes(org: string, ns: number): Promise<number> {
    if (this.measured.has(ns) || this.measured.size < MAX_MEASURED_NAMESPACES) this.measured.set(ns, org);
    const e = this.storage.get(ns);
    if (e && this.d.now() - e.at < STORAGE_MEASURE_MS) return Promise.resolve(e.bytes);
    if (e?.pending) return e.bytes >= 0 ? Promise.resolve(e.bytes) : e.pending;
    const pending = this.measure(org, ns).finally(() => {
      const cur = this.storage.get(ns);
      if (cur) delete cur.pending;
    });
    if (this.storage.size >= MAX_STORAGE_ENTRIES) this.storage.clear();
    this.storage.set(ns, { org, at: e?.at ?? 0, bytes: e?.bytes ?? -1, pending });
    // The first measurement is waited for; later ones refresh in the background (soft limit).
    return e ? Promise.resolve(e.bytes) : pending;
  }

  /**
   * Re-measures the namespaces this gateway keeps fresh, the least recently refreshed first,
   * at most MAX_REFRESH_PER_ROUND per round. A dropped namespace stores nothing and leaves.
   */
  refresh(): Promise<void> {
    if (this.refreshing || this.closed) return this.refreshing ?? Promise.resolve();
    this.refreshing = (async () => {
      try {
        const round = [...this.measured].slice(0, MAX_REFRESH_PER_ROUND);
        for (const [ns, org] of round) {
          // To the back of the line, measured or not.
          this.measured.delete(ns);
          this.measured.set(ns, org);
          try {
            await this.measure(org, ns);
          } catch (e) {
            if (!isMetaError(e, 'NotFound')) throw e;
            this.measured.delete(ns);
            this.storage.delete(ns);
            await this.d.control.putUsage([
              { org, ns, metric: 'storage_bytes', window: 0, value: 0 },
              { org, ns, metric: 'unapplied_records', window: 0, value: 0 },
            ]);
          }
        }
      } catch (e) {
        this.d.failed(e);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private async measure(org: string, ns: number): Promise<number> {
    let bytes = 0;
    let unapplied = 0;
    for await (const c of liveCollections(this.d.meta, ns, MAX_MEASURED_COLLECTIONS)) {
      try {
        if (this.d.measure) {
          const m = await this.d.measure(c);
          bytes += m.bytes;
          unapplied += m.unappliedRecords;
          continue;
        }
        // Without manifests at hand (no query or log role), the log the partitions retain.
        const s = await this.d.meta.streamState(ns, c.streamId);
        for (const h of s.heads) bytes += h.bytes;
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e; // dropped since it was listed: it stores nothing
      }
    }
    this.storage.set(ns, { org, at: this.d.now(), bytes });
    // The namespace's figures for the usage API (a per-namespace label in /metrics would make a series per tenant).
    const rows = [{ org, ns, metric: 'storage_bytes', window: 0, value: bytes }];
    if (this.d.measure) rows.push({ org, ns, metric: 'unapplied_records', window: 0, value: unapplied });
    await this.d.control.putUsage(rows).catch(() => undefined);
    return bytes;
  }

  /** Measures afresh the namespaces of `org` (its quotas changed), or every one. */
  clear(org?: string): void {
    if (org === undefined) return this.storage.clear();
    // Only the org's: a quota is an org's, and every namespace measured again at once made each
    // next write of every tenant wait for a measurement.
    for (const [ns, e] of this.storage) if (e.org === org) this.storage.delete(ns);
  }

  /** Forget one namespace's measurement. */
  forget(ns: number): void {
    this.storage.delete(ns);
  }

  /** Refreshes a round every STORAGE_MEASURE_MS. */
  start(): void {
    this.timer = setInterval(() => void this.refresh(), STORAGE_MEASURE_MS);
    this.timer.unref();
  }

  /** Stops refreshing; resolves when a round in flight has ended. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.refreshing;
  }
}

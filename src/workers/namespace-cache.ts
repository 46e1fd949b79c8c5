// The worker's catalog cache (spec §5.4: nodes cache only what they own): per namespace, the
// collections of the namespaces this worker maintains, loaded lazily (listCollections, when a
// due head of the namespace first needs its collection), invalidated by the scoped change feed
// (the namespace's next change drops its entry), bounded in namespaces and in bytes (least
// recently used first out). A namespace the worker does not own is never loaded, and one it
// stops owning is dropped (forgetUnowned).
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
import type { Collection } from '../meta/types.js';

/** Namespaces cached at most. */
export const MAX_CACHED_NAMESPACES = 10_000;
/** Bytes of cached collection records at most (their JSON size, an estimate of their memory). */
export const MAX_CACHED_BYTES = 32 * 1024 * 1024;
/** Collection pages read per namespace at most (MAX_PAGE_LIMIT each). */
export const MAX_COLLECTION_PAGES = 100;

interface Entry {
  byStream: Map<number, Collection>;
  bytes: number;
}

export class NamespaceCollections {
  /** In recency order: a Map iterates in insertion order, so a hit is re-inserted at the end. */
  private readonly entries = new Map<number, Entry>();
  private bytes = 0;
  loads = 0;

  constructor(
    private readonly meta: MetaStore,
    private readonly limits = { namespaces: MAX_CACHED_NAMESPACES, bytes: MAX_CACHED_BYTES },
  ) {}

  /** The live collection whose implicit stream is `stream`, or null (a plain stream, or dropped). */
  async byStream(ns: number, stream: number): Promise<Collection | null> {
    let e = this.entries.get(ns);
    if (e) {
      this.entries.delete(ns);
      this.entries.set(ns, e);
    } else {
      e = await this.load(ns);
    }
    return e.byStream.get(stream) ?? null;
  }

  private async load(ns: number): Promise<Entry> {
    this.loads++;
    const byStream = new Map<number, Collection>();
    let bytes = 0;
    let after: string | undefined;
    try {
      for (let page = 0; page < MAX_COLLECTION_PAGES; page++) {
        const r = await this.meta.listCollections(ns, { limit: MAX_PAGE_LIMIT, ...(after !== undefined ? { after } : {}) });
        for (const c of r.items) {
          byStream.set(c.streamId, c);
          bytes += JSON.stringify(c).length;
        }
        if (!r.next) break;
        after = r.next;
      }
    } catch (e) {
      if (!isMetaError(e, 'NotFound')) throw e; // a dropped namespace has no collections
    }
    const entry = { byStream, bytes };
    // A change between the load and now already dropped nothing (not cached yet); the caller's
    // next feed read invalidates this entry if the namespace changed meanwhile.
    this.entries.set(ns, entry);
    this.bytes += bytes;
    this.trim();
    return entry;
  }

  private trim(): void {
    for (const [ns, e] of this.entries) {
      if (this.entries.size <= this.limits.namespaces && this.bytes <= this.limits.bytes) break;
      this.entries.delete(ns);
      this.bytes -= e.bytes;
    }
  }

  /** The namespace's catalog changed (scoped feed): its next use reads it again. */
  invalidate(ns: number): void {
    const e = this.entries.get(ns);
    if (!e) return;
    this.entries.delete(ns);
    this.bytes -= e.bytes;
  }

  /** Drops every namespace `keep` rejects (ownership moved away). */
  forgetUnowned(keep: (ns: number) => boolean): void {
    for (const ns of [...this.entries.keys()]) if (!keep(ns)) this.invalidate(ns);
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  /** Namespaces and bytes held (metrics, tests). */
  size(): { namespaces: number; bytes: number } {
    return { namespaces: this.entries.size, bytes: this.bytes };
  }
}

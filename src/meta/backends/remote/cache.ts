// The client's per-namespace catalog cache (spec §5.4: "nodes cache only the namespaces they
// own, loaded lazily through a remote client and invalidated by the scoped feed"). It holds
// what namespace(), collection(), collectionByName(), stream() and aliases() returned, per
// namespace, and drops a namespace's entries when the change stream (./changes.ts) reports a
// catalog change in it, or when this client wrote to it. While the stream is down nothing is
// served from the cache (a change could be missed meanwhile), and the cache is emptied; after
// the stream resumes it fills again. A read that raced an invalidation is not kept.
//
// Served entries may trail the metastore by the stream's delivery delay, so the cache is off
// unless asked for (`?cache=true`); callers that need a linearizable read leave it off.
import type { MetaErrorCode } from '../../errors.js';
import type { RemoteClientMetrics } from './metrics.js';
import type { ChangeStream, ChangeStreamEvent } from './changes.js';

/** Namespaces cached at most; the least recently read go first. */
export const MAX_CACHED_NAMESPACES = 10_000;
/** Entries (a collection, a stream, the aliases…) per namespace at most. */
export const MAX_CACHED_ENTRIES_PER_NAMESPACE = 256;

export class NamespaceCache {
  private readonly spaces = new Map<number, Map<string, unknown>>();
  private stream: ChangeStream | null = null;
  private starting: Promise<void> | null = null;
  private live = false;
  /** Bumped by every invalidation: a read that saw it change while in flight is not kept. */
  private generation = 0;
  private closed = false;

  constructor(
    private readonly metrics: RemoteClientMetrics,
    private readonly subscribe: (since: number, on: (ev: ChangeStreamEvent) => void) => ChangeStream,
    private readonly catalogVersion: () => Promise<number>,
    private readonly limits = { namespaces: MAX_CACHED_NAMESPACES, entries: MAX_CACHED_ENTRIES_PER_NAMESPACE },
  ) {}

  get size(): number {
    return this.spaces.size;
  }

  /** Entries cached for a namespace (tests, the bound). */
  entries(ns: number): number {
    return this.spaces.get(ns)?.size ?? 0;
  }

  get isLive(): boolean {
    return this.live;
  }

  async read<T>(ns: number, key: string, get: () => Promise<T>): Promise<T> {
    this.ensureStarted();
    if (!this.live) {
      this.metrics.cache.inc({ result: 'bypass' });
      return get();
    }
    const space = this.spaces.get(ns);
    if (space?.has(key)) {
      this.metrics.cache.inc({ result: 'hit' });
      this.spaces.delete(ns);
      this.spaces.set(ns, space); // most recently read last
      return space.get(key) as T;
    }
    this.metrics.cache.inc({ result: 'miss' });
    const gen = this.generation;
    const v = await get();
    if (this.live && gen === this.generation) this.put(ns, key, v);
    return v;
  }

  invalidate(ns: number): void {
    this.generation++;
    this.spaces.delete(ns);
  }

  clear(): void {
    this.generation++;
    this.spaces.clear();
  }

  close(): void {
    this.closed = true;
    this.stream?.stop();
    this.clear();
  }

  private put(ns: number, key: string, v: unknown): void {
    let space = this.spaces.get(ns);
    if (!space) {
      space = new Map();
      this.spaces.set(ns, space);
      for (const old of this.spaces.keys()) {
        if (this.spaces.size <= this.limits.namespaces) break;
        this.spaces.delete(old);
      }
    }
    space.set(key, v);
    for (const old of space.keys()) {
      if (space.size <= this.limits.entries) break;
      space.delete(old);
    }
  }

  /** Subscribes once, from the catalog version read now: every later change invalidates. */
  private ensureStarted(): void {
    if (this.stream || this.starting || this.closed) return;
    this.starting = this.catalogVersion().then(
      (v) => {
        this.starting = null;
        if (this.closed) return;
        const s = this.subscribe(v, (ev) => {
          if (ev.resync) this.clear();
          for (const ch of ev.changes) this.invalidate(ch.ns);
        });
        s.onConnection((up) => {
          if (!up) this.clear();
          this.live = up;
        });
        s.onStop(() => {
          this.live = false;
          this.stream = null;
          this.clear();
        });
        this.stream = s;
      },
      (_e: { code?: MetaErrorCode }) => {
        // The next read tries again; until then reads go to the server.
        this.starting = null;
      },
    );
  }
}

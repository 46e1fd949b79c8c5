// The change feed of a sharded metastore (spec §5.4): each shard keeps its own catalog
// version and feed; the directory keeps one cluster feed with dense versions, and each
// shard's changes are copied into it in order ("pumped"), with the shard's position (its
// cursor) moved in the same directory transaction. A cluster version is one number a
// watcher resumes from, whatever the shard count, on any node.
//
// When changes are copied: after every catalog write this handle makes (so its own writes
// are in the cluster feed before the call returns), and whenever a reader asks
// (catalogVersion, changesSince, watch's probe) for every shard whose own version is ahead
// of its cursor — so a change made through another handle, or one whose writer died before
// copying it, is copied by the next reader. Copies by several nodes race on the cursor: the
// loser writes nothing and reads again. Order: one shard's changes keep their order;
// changes of different shards are ordered by when they were copied (they were concurrent).
//
// A shard whose feed compacted changes before they were copied (core/feed.ts retention; a
// cursor left far behind) makes the copy raise the cluster horizon: readers below it get
// resync, as on one backend.
import { changesLimit, wakeableSleep, watchLoop } from '../../core/feed.js';
import { MAX_PAGE_LIMIT } from '../../limits.js';
import type { ChangesPage, WatchResult, WatchScope } from '../../types.js';
import { MAX_FEED_APPEND } from './directory.js';
import type { Router, Shard } from './routing.js';

/** Shard changes copied per directory transaction (what every directory backend takes). */
export const PUMP_PAGE = MAX_FEED_APPEND;
/** Copy rounds of one shard per call (a bound; the next reader goes on). */
export const MAX_PUMP_ROUNDS = 20;
/** How often a watch looks at the shards for changes other handles made. */
export const SHARDED_WATCH_POLL_MS = 100;

export class ClusterFeed {
  private closed = false;
  private readonly wakers = new Set<() => void>();

  constructor(private readonly r: Router) {}

  close(): void {
    this.closed = true;
    for (const w of this.wakers) w();
  }

  /** Copies a shard's new changes into the cluster feed (bounded rounds). */
  async pump(shard: Shard): Promise<void> {
    for (let round = 0; round < MAX_PUMP_ROUNDS; round++) {
      const from = (await this.r.directory.feedCursors()).find((c) => c.shard === shard.name)?.shardVersion ?? 0;
      const page = await shard.store.changesSince(from, PUMP_PAGE);
      if (page.version <= from && page.changes.length === 0 && !page.resync) return;
      const ok = await this.r.directory.appendFeed(shard.name, from, page.version, page.changes, page.resync === true);
      if (ok && !page.more) break;
    }
    for (const w of this.wakers) w();
  }

  /** Copies every shard whose own version is ahead of its cursor. */
  async catchUp(): Promise<void> {
    const [versions, cursors] = await Promise.all([Promise.all(this.r.shards.map((s) => s.store.catalogVersion())), this.r.directory.feedCursors()]);
    const behind = this.r.shards.filter((s, k) => versions[k]! > (cursors.find((c) => c.shard === s.name)?.shardVersion ?? 0));
    await Promise.all(behind.map((s) => this.pump(s)));
  }

  /** After a catalog write on `shard` through this handle. */
  async changed(shardName: string): Promise<void> {
    await this.pump(this.r.shard(shardName));
  }

  async catalogVersion(): Promise<number> {
    await this.catchUp();
    return (await this.r.directory.feedVersion()).version;
  }

  async changesSince(version: number, limit?: number): Promise<ChangesPage> {
    await this.catchUp();
    const lim = changesLimit(limit);
    const p = await this.r.directory.feedSince(version, Math.min(lim, MAX_PAGE_LIMIT));
    const page: ChangesPage = { changes: p.changes, version: p.version, more: p.more };
    if (version < p.horizon) page.resync = true;
    return page;
  }

  watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    return watchLoop(
      {
        closed: () => this.closed,
        probe: async (sc, s) => {
          await this.catchUp();
          const p = await this.r.directory.feedSince(s, 1, sc === 'catalog' ? undefined : sc.ns);
          const top = sc === 'catalog' ? p.version : (await this.r.directory.feedVersion()).version;
          return { hit: p.changes.length > 0, version: top, horizon: p.horizon };
        },
        wait: (ms, signal) =>
          wakeableSleep(
            ms,
            (wake) => {
              this.wakers.add(wake);
              return () => this.wakers.delete(wake);
            },
            signal,
          ),
        pollMs: SHARDED_WATCH_POLL_MS,
      },
      scope,
      since,
      opts,
    );
  }
}


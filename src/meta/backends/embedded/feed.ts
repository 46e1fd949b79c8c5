// The embedded backend's change feed: catalogVersion, changesSince and watch over the
// catalog_changes table (version AUTOINCREMENT, so versions are never reused) and the
// feed_horizon counter (the highest pruned version, context.ts pruneFeed). The page shape,
// the horizon's resync flag and the watch loop are the core's (core/feed.ts). Watch wakes on
// this handle's own catalog writes at once and polls every WATCH_POLL_MS for other handles'.
import type { MetaStore } from '../../contract.js';
import { changesLimit, changesPage, wakeableSleep, watchLoop, type WatchParts } from '../../core/feed.js';
import type { WatchScope } from '../../types.js';
import { toChange, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

/** How often watch() looks for changes written by other handles on the same file. */
export const WATCH_POLL_MS = 100;

export type FeedCalls = Pick<MetaStore, 'catalogVersion' | 'changesSince' | 'watch'>;

export function feedCalls(ctx: SqliteContext): FeedCalls {
  const parts: WatchParts = {
    closed: () => ctx.closed,
    pollMs: WATCH_POLL_MS,
    probe: (scope: WatchScope, since: number) =>
      ctx.read(() => {
        const hit =
          scope === 'catalog'
            ? ctx.get('SELECT 1 FROM catalog_changes WHERE version > ? LIMIT 1', since)
            : ctx.get('SELECT 1 FROM catalog_changes WHERE ns = ? AND version > ? LIMIT 1', scope.ns, since);
        return { hit: hit !== undefined, version: ctx.currentVersion(), horizon: ctx.feedHorizon() };
      }),
    wait: (ms, signal) =>
      wakeableSleep(
        ms,
        (wake) => {
          ctx.changed.once('change', wake);
          return () => ctx.changed.off('change', wake);
        },
        signal,
      ),
  };
  return {
    catalogVersion: () => ctx.read(() => ctx.currentVersion()),
    changesSince: (version: number, limit?: number) => {
      const lim = changesLimit(limit);
      return ctx.read(() => {
        const rows = ctx.all<Row>('SELECT * FROM catalog_changes WHERE version > ? ORDER BY version LIMIT ?', version, lim + 1).map(toChange);
        return changesPage(rows, version, lim, ctx.currentVersion(), ctx.feedHorizon());
      });
    },
    watch: (scope, since, opts) => watchLoop(parts, scope, since, opts),
  };
}

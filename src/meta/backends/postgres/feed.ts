// The change feed of the PostgreSQL backend: catalogVersion, changesSince and watch (spec
// §5.4).
//
// catalog_counter holds the catalog version and the feed's horizon (the highest pruned
// version, context.ts pruneFeed); catalog_changes one row per change, written by the change's
// own transaction under the counter row's lock, so versions are dense and visible in commit
// order. The page shape, the horizon's resync flag and the watch loop are the core's
// (core/feed.ts). watch LISTENs (listener.ts) and re-reads catalog_changes on every
// notification and at least every WATCH_POLL_MS: a notification only wakes a watcher, it never
// decides what changed.
import { changesLimit, changesPage, watchLoop, type WatchParts } from '../../core/feed.js';
import type { ChangesPage, WatchResult, WatchScope } from '../../types.js';
import { toChange, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';

/** How often a watcher re-reads even without a notification (a missed NOTIFY costs at most this). */
export const WATCH_POLL_MS = 1_000;
/** …and while the LISTEN connection is down. */
export const WATCH_POLL_NO_LISTENER_MS = 200;

export async function catalogVersion(ctx: PgContext): Promise<number> {
  const r = await ctx.readOne<{ version: number }>('SELECT version FROM catalog_counter');
  return r?.version ?? 0;
}

export async function changesSince(ctx: PgContext, version: number, limit?: number): Promise<ChangesPage> {
  const lim = changesLimit(limit);
  // One statement: the version, the horizon and the page from one snapshot.
  const r = (await ctx.readOne<{ current: number; horizon: number; changes: Row[] | null }>(
    `SELECT k.version AS current, k.horizon,
            (SELECT json_agg(c ORDER BY c.version) FROM
               (SELECT version, ns, kind, id, stamp FROM catalog_changes WHERE version > $1 ORDER BY version LIMIT $2) c) AS changes
     FROM catalog_counter k`,
    [version, lim + 1],
  ))!;
  return changesPage((r.changes ?? []).map(toChange), version, lim, r.current, r.horizon);
}

export async function watch(ctx: PgContext, scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
  if (ctx.closed) return { version: since, changed: false };
  const ns = scope === 'catalog' ? null : scope.ns;
  let woken: () => void = () => undefined;
  let wake = new Promise<void>((r) => (woken = r));
  const unsubscribe = await ctx.listener.subscribe(ns, () => woken());
  const parts: WatchParts = {
    closed: () => ctx.closed,
    get pollMs() {
      return ctx.listener.live ? WATCH_POLL_MS : WATCH_POLL_NO_LISTENER_MS;
    },
    probe: async (_scope, from) => {
      const r = (await ctx.readOne<{ v: number; horizon: number; hit: boolean }>(
        `SELECT k.version AS v, k.horizon,
                EXISTS (SELECT 1 FROM catalog_changes WHERE version > $1 AND ($2::bigint IS NULL OR ns = $2)) AS hit
         FROM catalog_counter k`,
        [from, ns],
      ))!;
      return { hit: r.hit, version: r.v, horizon: r.horizon };
    },
    wait: async (ms, signal) => {
      await waitFor(wake, ms, [signal, ctx.closing.signal]);
      wake = new Promise<void>((res) => (woken = res));
    },
  };
  try {
    return await watchLoop(parts, scope, since, opts);
  } finally {
    unsubscribe();
  }
}

/** Waits for `p`, `ms`, or any signal to abort. */
async function waitFor(p: Promise<void>, ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  for (const s of signals) s?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([p, new Promise<void>((res) => {
      const t = setTimeout(res, ms);
      ac.signal.addEventListener('abort', () => {
        clearTimeout(t);
        res();
      }, { once: true });
    })]);
  } finally {
    ac.abort();
    for (const s of signals) s?.removeEventListener('abort', onAbort);
  }
}

// The change feed of the PostgreSQL backend: catalogVersion, changesSince and watch (spec
// §5.4).
//
// catalog_counter holds the catalog version; catalog_changes one row per change, written by
// the change's own transaction under the counter row's lock, so versions are dense and
// visible in commit order. watch LISTENs (listener.ts) and re-reads catalog_changes on every
// notification and at least every WATCH_POLL_MS: a notification only wakes a watcher, it never
// decides what changed.
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../errors.js';
import { MAX_PAGE_LIMIT, MAX_WATCH_MS } from '../../limits.js';
import type { ChangesPage, WatchResult, WatchScope } from '../../types.js';
import * as v from '../../validate.js';
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
  v.nonNegInt('version', version);
  const lim = limit === undefined ? MAX_PAGE_LIMIT : v.nonNegInt('limit', limit, MAX_PAGE_LIMIT);
  if (lim < 1) throw errors.invalid('limit', `must be in 1..${MAX_PAGE_LIMIT}`);
  const r = (await ctx.readOne<{ current: number; changes: Row[] | null }>(
    `SELECT (SELECT version FROM catalog_counter) AS current,
            (SELECT json_agg(c ORDER BY c.version) FROM
               (SELECT version, ns, kind, id, stamp FROM catalog_changes WHERE version > $1 ORDER BY version LIMIT $2) c) AS changes`,
    [version, lim + 1],
  ))!;
  const rows = r.changes ?? [];
  const changes = rows.slice(0, lim).map(toChange);
  const last = changes[changes.length - 1];
  return { changes, version: last ? last.version : Math.max(version, r.current), more: rows.length > lim };
}

export async function watch(ctx: PgContext, scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
  if (scope !== 'catalog') v.id('scope.ns', scope?.ns);
  v.nonNegInt('since', since);
  const timeoutMs = v.nonNegInt('timeoutMs', opts?.timeoutMs, MAX_WATCH_MS);
  if (ctx.closed) return { version: since, changed: false };
  const deadline = Date.now() + timeoutMs;
  const ns = scope === 'catalog' ? null : scope.ns;
  let woken: () => void = () => undefined;
  let wake = new Promise<void>((r) => (woken = r));
  const unsubscribe = await ctx.listener.subscribe(ns, () => woken());
  const probe = () =>
    ctx.readOne<{ v: number; hit: boolean }>(
      `SELECT (SELECT version FROM catalog_counter) AS v,
              EXISTS (SELECT 1 FROM catalog_changes WHERE version > $1 AND ($2::bigint IS NULL OR ns = $2)) AS hit`,
      [since, ns],
    );
  try {
    // Bounded: at most timeoutMs / WATCH_POLL_NO_LISTENER_MS + 1 probes, plus one per wake.
    for (;;) {
      if (ctx.closed) return { version: since, changed: false };
      if (opts.signal?.aborted) return { version: await catalogVersion(ctx).catch(() => since), changed: false };
      const r = (await probe())!;
      if (r.hit) return { version: r.v, changed: true };
      const left = deadline - Date.now();
      if (left <= 0) return { version: r.v, changed: false };
      const poll = ctx.listener.live ? WATCH_POLL_MS : WATCH_POLL_NO_LISTENER_MS;
      await waitFor(wake, Math.min(left, poll), [opts.signal, ctx.closing.signal]);
      wake = new Promise<void>((res) => (woken = res));
    }
  } catch (e) {
    if (ctx.closed) return { version: since, changed: false };
    throw e;
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
    await Promise.race([p, sleep(ms, undefined, { signal: ac.signal }).catch(() => undefined)]);
  } finally {
    ac.abort();
    for (const s of signals) s?.removeEventListener('abort', onAbort);
  }
}

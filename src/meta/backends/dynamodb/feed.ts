// The catalog change feed (spec §5.4): `chg#<version>` items, dense and in commit order.
// changesSince Queries after a version; watch has no native primitive (DynamoDB Streams do not
// keep a transaction's records together), so it wakes at once on this handle's catalog writes
// and otherwise polls from the last version it saw, WATCH_POLL_MIN_MS backing off to
// WATCH_POLL_MAX_MS.
import { changesLimit, changesPage, wakeableSleep } from '../../core/feed.js';
import { MAX_PAGE_LIMIT } from '../../limits.js';
import type { ChangesPage, WatchResult, WatchScope } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { toChange } from './items.js';
import { K } from './keys.js';

/** watch() polls between these intervals (spec §2.3: 100–500 ms), waking at once on own writes. */
export const WATCH_POLL_MIN_MS = 100;
export const WATCH_POLL_MAX_MS = 500;

export async function catalogVersion(cx: DynamoContext): Promise<number> {
  cx.checkOpen();
  const version = await cx.currentVersion();
  cx.chgHint = Math.max(cx.chgHint ?? 0, version);
  return version;
}

export async function changesSince(cx: DynamoContext, version: number, limit?: number): Promise<ChangesPage> {
  const lim = changesLimit(limit);
  cx.checkOpen();
  // The horizon first: a change pruned after this read was pruned behind a horizon at least
  // this high, so a reader below it is told to resync either way.
  const horizon = await cx.feedHorizon();
  const rows = (await changesAfter(cx, version, lim + 1)).map(toChange);
  return changesPage(rows, version, lim, rows.length > 0 ? 0 : await catalogVersion(cx), horizon);
}

function changesAfter(cx: DynamoContext, version: number, max: number): Promise<Item[]> {
  return cx.sdk.query(
    { KeyConditionExpression: 'pk = :p AND sk > :v', ExpressionAttributeValues: { ':p': { S: K.chgPk() }, ':v': { S: K.chg(version).sk } } },
    max,
  );
}

export async function watch(cx: DynamoContext, scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
  const timeoutMs = opts.timeoutMs;
  const deadline = Date.now() + timeoutMs;
  // No native primitive (spec §2.3): wake on this handle's own writes, otherwise poll,
  // starting at WATCH_POLL_MIN_MS and backing off to WATCH_POLL_MAX_MS. Each probe reads
  // only the changes after the last one it saw (versions are dense and commit in order),
  // so the scan is bounded by what is new.
  let seen = since;
  let pause = WATCH_POLL_MIN_MS;
  for (;;) {
    if (cx.closed || opts.signal?.aborted) return { version: cx.closed ? seen : await catalogVersion(cx), changed: false };
    const rows = await changesAfter(cx, seen, MAX_PAGE_LIMIT);
    if (rows.some((r) => scope === 'catalog' || Number(r.ns) === scope.ns)) {
      // Below the horizon some changes after `since` are gone (core/feed.ts): say so.
      const behind = since < (await cx.feedHorizon());
      return behind ? { version: await catalogVersion(cx), changed: true, resync: true } : { version: await catalogVersion(cx), changed: true };
    }
    if (rows.length > 0) seen = Number(rows[rows.length - 1]!.version);
    if (rows.length === MAX_PAGE_LIMIT) continue; // more to read before waiting
    const left = deadline - Date.now();
    if (left <= 0) return { version: await catalogVersion(cx), changed: false };
    await waitForChange(cx, Math.min(left, pause), opts.signal);
    pause = Math.min(WATCH_POLL_MAX_MS, pause * 2);
  }
}

function waitForChange(cx: DynamoContext, ms: number, signal?: AbortSignal): Promise<void> {
  return wakeableSleep(
    ms,
    (wake) => {
      cx.changed.once('change', wake);
      return () => cx.changed.off('change', wake);
    },
    signal,
  );
}

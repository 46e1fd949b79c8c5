// The catalog change feed's rules (contract: catalogVersion, changesSince, watch; spec
// §5.4), once: the page shape, the retention horizon, and the watch loop.
//
// Retention (issue 12): the feed no longer grows with every catalog change forever. A change
// may be pruned once it is both more than FEED_RETAIN_CHANGES versions behind the newest and
// older than FEED_RETAIN_MS by the backend's clock (minus maxClockSkew) — except the newest
// change of each namespace, which is kept. The highest pruned version is the feed's horizon.
// A reader at or above the horizon sees every change after its version, as before. A reader
// below it (changesSince or watch from an older version) gets `resync: true`: the changes it
// missed were compacted to the newest change of each namespace, so it must re-read the
// catalog of every namespace the pages name instead of relying on each change. Because the
// newest change of every namespace survives, that re-read still reaches every namespace that
// changed after its version; what it cannot see are the intermediate changes themselves.
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../errors.js';
import { MAX_CLOCK_SKEW_MS, MAX_PAGE_LIMIT } from '../limits.js';
import type { CatalogChange, ChangesPage, WatchResult, WatchScope } from '../types.js';
import { PRUNE_BATCH } from './tokens.js';

/** Changes always kept behind the newest, whatever their age. */
export const FEED_RETAIN_CHANGES = 10_000;
/** Changes younger than this (backend clock) are always kept: a watcher this far behind never resyncs. */
export const FEED_RETAIN_MS = 3_600_000;
/** The least a backend may be configured to keep (tests shorten retention to see the horizon). */
export const MIN_FEED_RETAIN_CHANGES = 1;

export interface FeedRetention {
  changes: number;
  ms: number;
}

/** A backend's feed retention option, validated; absent parts take the defaults. */
export function feedRetention(v: Partial<FeedRetention> | undefined): FeedRetention {
  const changes = v?.changes ?? FEED_RETAIN_CHANGES;
  const ms = v?.ms ?? FEED_RETAIN_MS;
  if (!Number.isSafeInteger(changes) || changes < MIN_FEED_RETAIN_CHANGES) {
    throw errors.invalid('feedRetention.changes', `must be an integer of at least ${MIN_FEED_RETAIN_CHANGES}, got ${String(changes)}`);
  }
  if (!Number.isSafeInteger(ms) || ms < 0) throw errors.invalid('feedRetention.ms', `must be a non-negative integer, got ${String(ms)}`);
  return { changes, ms };
}

/** What one prune pass of the feed may remove: versions at or below `maxVersion` stamped before `before`, not the newest of their namespace. */
export function feedPruneBounds(newest: number, backendNow: number, r: FeedRetention): { maxVersion: number; before: number } {
  return { maxVersion: newest - r.changes, before: backendNow - MAX_CLOCK_SKEW_MS - r.ms };
}

/**
 * Catalog changes one prune pass looks at, at most, on from where the last pass stopped. The
 * feed keeps the newest change of every namespace for good, so a search for prunable changes
 * that filtered as it walked would read all of them — a million at a million namespaces, every
 * PRUNE_EVERY_WRITES writes.
 */
export const PRUNE_FEED_SCAN = 4 * PRUNE_BATCH;

/** A change of a prune pass's window: past retention by age (`old`), and not its namespace's newest (`superseded`). */
export interface FeedWindowRow {
  version: number;
  old: boolean | number;
  superseded: boolean | number;
}

/**
 * One prune pass's choice from the window a dialect read (at most PRUNE_FEED_SCAN changes
 * after `cursor`, oldest first, within feedPruneBounds): the versions to remove, at most
 * PRUNE_BATCH, and the cursor of the next pass. A window read whole and short of
 * PRUNE_FEED_SCAN reached the end of the prunable range, so the next pass starts from the
 * oldest again (changes too young then may be old enough by then).
 */
export function feedPruneChoice(rows: readonly FeedWindowRow[]): { gone: number[]; cursor: number } {
  const gone: number[] = [];
  let read = 0;
  for (const r of rows) {
    if (gone.length >= PRUNE_BATCH) break;
    if (r.old && r.superseded) gone.push(r.version);
    read++;
  }
  const cursor = read === rows.length && rows.length < PRUNE_FEED_SCAN ? 0 : rows[read - 1]!.version;
  return { gone, cursor };
}

/** The page limit of changesSince: absent means MAX_PAGE_LIMIT. */
export function changesLimit(limit: number | undefined): number {
  return limit ?? MAX_PAGE_LIMIT;
}

/**
 * A changesSince page from up to `limit + 1` rows after `since`, oldest first. `current` is
 * the catalog version (read in the same snapshot), `horizon` the highest pruned version.
 */
export function changesPage(rows: readonly CatalogChange[], since: number, limit: number, current: number, horizon: number): ChangesPage {
  const changes = rows.slice(0, limit);
  const last = changes[changes.length - 1];
  const page: ChangesPage = { changes, version: last ? last.version : Math.max(since, current), more: rows.length > limit };
  if (since < horizon) page.resync = true;
  return page;
}

/** What a dialect supplies to the watch loop. */
export interface WatchParts {
  /** The store was closed: pending watches return. */
  closed(): boolean;
  /** Whether a change in scope exists after `since`, and the catalog version (one read). */
  probe(scope: WatchScope, since: number): Promise<{ hit: boolean; version: number; horizon: number }>;
  /** Waits up to `ms` for a change this handle may see (a local write, a notification), or the signal. */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** The longest single wait: how often changes by other handles are looked for. */
  pollMs: number;
}

/**
 * watch (contract): resolves with { changed: true } at the first change in scope after
 * `since`, else with { changed: false } at the timeout, the abort or the close — never
 * rejects. Bounded: at most timeoutMs / pollMs + 1 probes. A watcher below the horizon is
 * woken with resync: true.
 */
export async function watchLoop(parts: WatchParts, scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
  const deadline = Date.now() + opts.timeoutMs;
  let version = since;
  for (;;) {
    if (parts.closed()) return { version, changed: false };
    let r: { hit: boolean; version: number; horizon: number };
    try {
      r = await parts.probe(scope, since);
    } catch (e) {
      // A closed store's read fails; the contract says watch resolves then.
      if (parts.closed()) return { version, changed: false };
      throw e;
    }
    version = r.version;
    if (opts.signal?.aborted) return { version, changed: false };
    // The newest change of every namespace outlives the horizon, so a hit is exact even
    // below it; only the changes in between may be gone (resync).
    if (r.hit) return since < r.horizon ? { version, changed: true, resync: true } : { version, changed: true };
    const left = deadline - Date.now();
    if (left <= 0) return { version, changed: false };
    await parts.wait(Math.min(left, parts.pollMs), opts.signal);
  }
}

/** A wait that ends at `ms`, at the signal, or when `wake` is called (whichever is first). */
export async function wakeableSleep(ms: number, subscribe: (wake: () => void) => () => void, signal?: AbortSignal): Promise<void> {
  const ac = new AbortController();
  const wake = () => ac.abort();
  const unsubscribe = subscribe(wake);
  signal?.addEventListener('abort', wake, { once: true });
  try {
    await sleep(ms, undefined, { signal: ac.signal });
  } catch {
    // woken early
  } finally {
    unsubscribe();
    signal?.removeEventListener('abort', wake);
  }
}

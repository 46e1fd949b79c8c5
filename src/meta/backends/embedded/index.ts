// The embedded backend: the whole metastore in one SQLite file through better-sqlite3
// (DESIGN §3). It is the default, and the worked example of a dialect of the metastore core
// (src/meta/core/README.md): the core's rules decide, and one module per concern maps them
// onto SQLite —
//   context.ts    the handle, the one write-transaction helper, tokens and pruning, row loaders
//   catalog.ts    namespaces, collections, streams, aliases, the janitor
//   log.ts        commitWal, partition index and heads, swapSegment, trimPartition
//   pointers.ts   casPointer, pointer
//   leases.ts     acquire, renew, release, lease
//   tags-gc.ts    tags, GC claims, object references
//   feed.ts       catalogVersion, changesSince, watch
//   moves.ts      the namespace move fence and copies (src/meta/moves.ts, spec §5.5)
//
// - Durability: journal_mode=WAL with synchronous=FULL by default — every commit is fsynced
//   before it is acknowledged. synchronous=NORMAL (option) is several times faster but a
//   power loss (not a process crash) may lose the last commits; use it only where the WAL
//   objects' writers can replay.
// - Composite reads are snapshots (snapshotReads: true). It may be stronger than the relaxed
//   contract; no caller or test may rely on that.
import type Database from 'better-sqlite3';
import type { MetaStore } from '../../contract.js';
import type { NamespaceMoveStorage } from '../../moves.js';
import type { FaultHook } from '../../faults.js';
import { feedRetention, type FeedRetention } from '../../core/feed.js';
import { requestTokenTtl } from '../../core/tokens.js';
import { validating } from '../../core/validating.js';
import type { Capabilities } from '../../types.js';
import { registerConnection } from '../connections.js';
import { catalogCalls } from './catalog.js';
import { SqliteContext } from './context.js';
import { feedCalls } from './feed.js';
import { embeddedLeaseCalls } from './leases.js';
import { logCalls } from './log.js';
import { moveCalls } from './moves.js';
import { pointerCalls } from './pointers.js';
import { tagGcCalls } from './tags-gc.js';

export { BUSY_TIMEOUT_MS } from './context.js';
export { WATCH_POLL_MS } from './feed.js';
export { PRUNE_BATCH, PRUNE_EVERY_WRITES } from '../../core/tokens.js';
/** Default chunks per commit group: large enough that one flush is usually one group. */
export const DEFAULT_MAX_CHUNKS_PER_GROUP = 256;
/** Default entries one swapSegment may replace. */
export const DEFAULT_MAX_SWAP_ENTRIES = 1_000;

export interface EmbeddedOptions {
  /** A file path, or ':memory:' (unit tests only: nothing survives the process). */
  path: string;
  /** 'FULL' (default, durable) or 'NORMAL' (faster; may lose the last commits on power loss). */
  synchronous?: 'FULL' | 'NORMAL';
  maxChunksPerGroup?: number;
  maxSwapEntries?: number;
  /** Fault injection for the fault matrix (spec §4.2); never set in production. */
  faults?: FaultHook;
  /** The backend's clock, for validating stamps and judging pruning; tests may replace it. */
  clock?: () => number;
  /** How long commit-token rows live (core/tokens.ts); default and maximum REQUEST_TOKEN_TTL_MS. */
  requestTokenTtlMs?: number;
  /** How much of the change feed is kept (core/feed.ts); defaults FEED_RETAIN_CHANGES, FEED_RETAIN_MS. */
  feedRetention?: Partial<FeedRetention>;
}

/** An embedded handle: a MetaStore plus its SQLite handle (the ControlStore opens on it) and a prune pass on demand. */
export interface EmbeddedMetaStore extends MetaStore, NamespaceMoveStorage {
  readonly db: Database.Database;
  /** Runs one bounded prune pass now (operators, tests): the rows removed. */
  pruneNow(): Promise<number>;
  /** commitWal's group commit so far: group transactions committed and the calls they carried. */
  groupCommits(): { groups: number; calls: number };
}

export function openEmbedded(opts: EmbeddedOptions): EmbeddedMetaStore {
  const clock = opts.clock ?? Date.now;
  const ctx = new SqliteContext({
    path: opts.path,
    synchronous: opts.synchronous ?? 'FULL',
    faults: opts.faults,
    clock,
    tokenTtlMs: requestTokenTtl(opts.requestTokenTtlMs),
    feed: feedRetention(opts.feedRetention),
  });
  const caps: Capabilities = {
    transactions: 'multi-item',
    snapshotReads: true,
    maxChunksPerGroup: opts.maxChunksPerGroup ?? DEFAULT_MAX_CHUNKS_PER_GROUP,
    maxSwapEntries: opts.maxSwapEntries ?? DEFAULT_MAX_SWAP_ENTRIES,
    changeFeed: 'poll',
  };
  const store: EmbeddedMetaStore = {
    db: ctx.db,
    capabilities: () => ({ ...caps }),
    close: async () => ctx.close(),
    pruneNow: () => ctx.pruneNow(),
    groupCommits: () => ({ ...ctx.groups.stats }),
    ...catalogCalls(ctx),
    ...logCalls(ctx, caps),
    ...pointerCalls(ctx),
    ...embeddedLeaseCalls(ctx),
    ...tagGcCalls(ctx),
    ...feedCalls(ctx),
    ...moveCalls(ctx),
  };
  // Through the one validating wrapper (src/meta/core), recorded with its connection for the
  // ControlStore (src/meta/backends/registry.ts).
  return registerConnection(validating(store, { now: clock }), { kind: 'sqlite', db: ctx.db });
}

// The PostgreSQL backend (DESIGN §3, spec §2.2: Lakekeeper's patterns), on node-postgres.
//
// This file is the handle: options, capabilities, lifecycle, and the MetaStore methods, each
// delegated to the module of its concern over one shared context (context.ts: pools, the
// write-transaction and read helpers, pruning):
//   catalog.ts   namespaces, collections, aliases, streams
//   log.ts       commitWal, partitionIndex, streamState, collectionHead, swapSegment, trimPartition,
//                dueHeads, settleHead (the dirty set)
//   pointers.ts  casPointer, pointer, pointerVersion
//   leases.ts    acquireLease, renewLease, releaseLease, lease
//   tags-gc.ts   tags, GC claims and references, retired WAL objects, the janitor
//   feed.ts      catalogVersion, changesSince, watch (LISTEN/NOTIFY: listener.ts)
// and below them shared.ts (row helpers), tx.ts (transactions, lost-COMMIT resolution),
// errors.ts (SQLSTATE → typed errors), sql.ts (the hot statements, shared with the benchmark),
// migrations.ts, advisory.ts (cluster singletons).
//
// - Isolation: READ COMMITTED, the Postgres default; no SERIALIZABLE. One call is one
//   transaction (commitWal: one per partition group, spec §3.1). Every write transaction
//   first does plain reads (validation, early typed errors), then — after the Race point —
//   its writes, each conditional: compare-and-swap by `UPDATE … WHERE version = $n` and its
//   row count, upserts with `ON CONFLICT … DO NOTHING/WHERE`, and explicit row locks only
//   where a decision needs a stable row, always in one order:
//     collection or namespace row (FOR SHARE / FOR UPDATE when dropped) → lease (FOR SHARE)
//     → partition heads (FOR UPDATE, in key order) → pointer → object refs (upsert, in path
//     order) → aliases → id counters → the catalog-version row.
// - Unknown outcomes: every write transaction inserts a commit-token row (keyed by the
//   WriteContext requestId, or a fresh one) holding its result, and records
//   pg_current_xact_id() before COMMIT; commitWal's (object, group) record is its token. A
//   retry with the same requestId returns the stored result. A connection lost after COMMIT
//   was sent is resolved by pg_xact_status(xid) (or the token row) inside the call (tx.ts).
// - Pools: a write pool, and a read pool for reads (readUrl; the primary by default — point it
//   at a replica only with synchronous_commit = remote_apply, since the contract forbids
//   reads that go backwards). Idempotency reads run inside the write transaction.
// - No clock row: stamps come from the callers (spec §3.2).
// - On the core (src/meta/core): arguments are checked once by the validating wrapper
//   openPostgres returns, so no module calls validate.ts; the rules (leases, the commitWal
//   group loop and replay check, swapSegment and trim plans, partitionIndex contiguity, paging,
//   the feed page and watch loop, which calls store tokens and how pruning keeps up) are the
//   core's, and the modules hold only the SQL, the transactions and the SQLSTATE mapping.
import type { CreateCollection, CreateNamespace, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import type {
  AliasAction,
  Aliases,
  Capabilities,
  ChangesPage,
  ClaimResult,
  Collection,
  CollectionHead,
  CollectionSchema,
  DueHead,
  Fence,
  IndexEntry,
  Lease,
  LeaseScope,
  Namespace,
  ObjectRef,
  Page,
  PageRequest,
  PartitionHead,
  PartitionIndex,
  Pointer,
  PointerVersion,
  Retention,
  SegmentSwap,
  Stamp,
  Stream,
  StreamState,
  Tag,
  WalCommit,
  WalCommitResult,
  WatchResult,
  WatchScope,
  WriteContext,
} from '../../types.js';
import { validating } from '../../core/validating.js';
import { registerConnection } from '../connections.js';
import * as v from '../../validate.js';
import { tryAdvisoryLock, type AdvisoryLock } from './advisory.js';
import * as catalog from './catalog.js';
import { PgContext, type PostgresOptions } from './context.js';
import { mapPgError } from './errors.js';
import * as feed from './feed.js';
import { postgresLeaseCalls } from './leases.js';
import type { LeaseCalls } from '../../core/leases.js';
import * as log from './log.js';
import { moveCalls } from './moves.js';
import type { NamespaceDelta, NamespaceMoveStorage, NamespaceRows, NamespaceMoveState } from '../../moves.js';
import * as pointers from './pointers.js';
import * as tagsGc from './tags-gc.js';
import type { Stats } from './tx.js';

export { tryAdvisoryLock, withSingleton, type AdvisoryLock } from './advisory.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_LOCK_TIMEOUT_MS,
  DEFAULT_POOL_SIZE,
  DEFAULT_STATEMENT_TIMEOUT_MS,
  IDLE_IN_TRANSACTION_TIMEOUT_MS,
  PRUNE_BATCH,
  PRUNE_EVERY_WRITES,
  PRUNE_LOCK,
  type PostgresOptions,
} from './context.js';
export { WATCH_POLL_MS, WATCH_POLL_NO_LISTENER_MS } from './feed.js';
export { migrate, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
export type { Stats } from './tx.js';

/** Default chunks per commit group: large enough that one flush is usually one group. */
export const DEFAULT_MAX_CHUNKS_PER_GROUP = 256;
/** Default entries one swapSegment may replace. */
export const DEFAULT_MAX_SWAP_ENTRIES = 1_000;

/**
 * Opens a handle on a Postgres metastore. Synchronous: connections are made and migrations
 * applied at the first call (or `await store.ready()`, which a node should do at startup so a
 * bad URL or a too-new schema stops it there).
 */
export function openPostgres(opts: PostgresOptions): PostgresMetaStore {
  // Through the one validating wrapper (src/meta/core), recorded with its connection for the
  // ControlStore (src/meta/backends/registry.ts).
  const s = new PostgresMetaStore(opts);
  return registerConnection(validating(s, { now: opts.clock ?? Date.now }), { kind: 'postgres', pool: s.writePool, ready: () => s.ready() });
}

/** openPostgres, then ready(): connected and migrated, or the reason it cannot be. */
export async function connectPostgres(opts: PostgresOptions): Promise<PostgresMetaStore> {
  const s = openPostgres(opts);
  try {
    await s.ready();
  } catch (e) {
    await s.close();
    throw e;
  }
  return s;
}

export class PostgresMetaStore implements MetaStore, NamespaceMoveStorage {
  private readonly ctx: PgContext;
  private readonly leases: LeaseCalls;
  private readonly moves: NamespaceMoveStorage;

  constructor(opts: PostgresOptions) {
    this.ctx = new PgContext(opts, {
      transactions: 'multi-item',
      snapshotReads: true,
      maxChunksPerGroup: opts?.maxChunksPerGroup ?? DEFAULT_MAX_CHUNKS_PER_GROUP,
      maxSwapEntries: opts?.maxSwapEntries ?? DEFAULT_MAX_SWAP_ENTRIES,
      changeFeed: 'push',
    });
    this.leases = postgresLeaseCalls(this.ctx);
    this.moves = moveCalls(this.ctx);
  }

  // ---- namespace moves (src/meta/moves.ts, spec §5.5; not contract calls)

  moveState(ns: number): Promise<NamespaceMoveState> {
    return this.moves.moveState(ns);
  }

  trackNamespace(ns: number, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.trackNamespace(ns, epoch);
  }

  fenceNamespace(ns: number, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.fenceNamespace(ns, epoch);
  }

  exportNamespaceChanges(ns: number): Promise<NamespaceDelta> {
    return this.moves.exportNamespaceChanges(ns);
  }

  takeNamespaceChanges(ns: number, epoch: number): Promise<NamespaceDelta> {
    return this.moves.takeNamespaceChanges(ns, epoch);
  }

  importNamespaceChanges(delta: NamespaceDelta, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.importNamespaceChanges(delta, epoch);
  }

  unfenceNamespace(ns: number, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.unfenceNamespace(ns, epoch);
  }

  exportNamespace(ns: number): Promise<NamespaceRows> {
    return this.moves.exportNamespace(ns);
  }

  importNamespace(rows: NamespaceRows, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.importNamespace(rows, epoch);
  }

  retireNamespace(ns: number, epoch: number): Promise<NamespaceMoveState> {
    return this.moves.retireNamespace(ns, epoch);
  }

  retiredNamespaces(limit: number): Promise<NamespaceMoveState[]> {
    return this.moves.retiredNamespaces(limit);
  }

  removeNamespaceCopy(ns: number, epoch: number, opts: { tombstone: boolean; limit?: number }): Promise<NamespaceMoveState> {
    return this.moves.removeNamespaceCopy(ns, epoch, opts);
  }

  /** The write pool (the ControlStore runs on the same connections). */
  get writePool(): PgContext['writePool'] {
    return this.ctx.writePool;
  }

  get readPool(): PgContext['readPool'] {
    return this.ctx.readPool;
  }

  capabilities(): Capabilities {
    return { ...this.ctx.caps };
  }

  /** Counters of lost-COMMIT resolution and pruning (for metrics and the fault matrix). */
  stats(): Stats {
    return { ...this.ctx.stats };
  }

  /**
   * Connects and applies missing migrations (or, with migrate: false, checks the schema).
   * Refuses a database whose schema is newer than this Loam. A failure to connect is retried
   * by the next call; a too-new schema is final.
   */
  ready(): Promise<void> {
    return this.ctx.ready();
  }

  close(): Promise<void> {
    return this.ctx.close();
  }

  /**
   * Takes a cluster-wide singleton lock (pg_try_advisory_lock) for maintenance no metastore
   * lease covers; null if another node holds it. Release it when done.
   */
  async trySingleton(name: string): Promise<AdvisoryLock | null> {
    v.key('name', name); // not a contract call: the validating wrapper does not see it
    this.ctx.checkOpen();
    await this.ctx.ready();
    try {
      return await tryAdvisoryLock(this.ctx.writePool, name);
    } catch (e) {
      throw mapPgError(e, true);
    }
  }

  /** Prunes now (operators, tests); returns the rows removed, or null if another node is pruning. */
  pruneNow(): Promise<number | null> {
    return this.ctx.pruneNow();
  }

  createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    return catalog.createNamespace(this.ctx, req, w);
  }

  dropNamespace(ns: number, w?: WriteContext): Promise<void> {
    return catalog.dropNamespace(this.ctx, ns, w);
  }

  namespace(ns: number, opts?: ReadOptions): Promise<Namespace> {
    return catalog.namespace(this.ctx, ns, opts);
  }

  namespaceByName(org: string, name: string): Promise<Namespace> {
    return catalog.namespaceByName(this.ctx, org, name);
  }

  listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    return catalog.listNamespaces(this.ctx, org, page);
  }

  createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection> {
    return catalog.createCollection(this.ctx, req, w);
  }

  dropCollection(ns: number, collection: number, w?: WriteContext): Promise<void> {
    return catalog.dropCollection(this.ctx, ns, collection, w);
  }

  collection(ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
    return catalog.collection(this.ctx, ns, collection, opts);
  }

  collectionByName(ns: number, name: string): Promise<Collection> {
    return catalog.collectionByName(this.ctx, ns, name);
  }

  listCollections(ns: number, page?: PageRequest): Promise<Page<Collection>> {
    return catalog.listCollections(this.ctx, ns, page);
  }

  updateCollectionSchema(
    ns: number,
    collection: number,
    expectedVersion: number,
    schema: CollectionSchema,
    w?: WriteContext,
  ): Promise<Collection> {
    return catalog.updateCollectionSchema(this.ctx, ns, collection, expectedVersion, schema, w);
  }

  updateAliases(ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
    return catalog.updateAliases(this.ctx, ns, actions, expectedVersion, w);
  }

  aliases(ns: number): Promise<Aliases> {
    return catalog.aliases(this.ctx, ns);
  }

  createStream(req: CreateStream, w?: WriteContext): Promise<Stream> {
    return catalog.createStream(this.ctx, req, w);
  }

  dropStream(ns: number, stream: number, w?: WriteContext): Promise<void> {
    return catalog.dropStream(this.ctx, ns, stream, w);
  }

  stream(ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
    return catalog.stream(this.ctx, ns, stream, opts);
  }

  listStreams(ns: number, page?: PageRequest): Promise<Page<Stream>> {
    return catalog.listStreams(this.ctx, ns, page);
  }

  setRetention(ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
    return catalog.setRetention(this.ctx, ns, stream, retention, w);
  }

  commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
    return log.commitWal(this.ctx, commit, w);
  }

  partitionIndex(ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
    return log.partitionIndex(this.ctx, ns, stream, partition, opts);
  }

  streamState(ns: number, stream: number): Promise<StreamState> {
    return log.streamState(this.ctx, ns, stream);
  }

  collectionHead(ns: number, collection: number): Promise<CollectionHead> {
    return log.collectionHead(this.ctx, ns, collection);
  }

  swapSegment(swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }> {
    return log.swapSegment(this.ctx, swap, opts);
  }

  trimPartition(ns: number, stream: number, partition: number, logStart: number, opts?: { fence?: Fence } & WriteContext): Promise<PartitionHead> {
    return log.trimPartition(this.ctx, ns, stream, partition, logStart, opts);
  }

  dueHeads(before: Stamp, page?: PageRequest): Promise<Page<DueHead>> {
    return log.dueHeads(this.ctx, before, page);
  }

  settleHead(ns: number, stream: number, partition: number, mark: number, due: Stamp | null): Promise<boolean> {
    return log.settleHead(this.ctx, ns, stream, partition, mark, due);
  }

  janitor(ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
    return tagsGc.janitor(this.ctx, ns, w);
  }

  segmentReferenced(ns: number, stream: number, path: string): Promise<boolean> {
    return tagsGc.segmentReferenced(this.ctx, ns, stream, path);
  }

  retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    return tagsGc.retiredWalObjects(this.ctx, page);
  }

  casPointer(
    ns: number,
    key: string,
    expectedVersion: number | null,
    value: string,
    opts?: { fence?: Fence } & WriteContext,
  ): Promise<Pointer> {
    return pointers.casPointer(this.ctx, ns, key, expectedVersion, value, opts);
  }

  pointer(ns: number, key: string): Promise<Pointer | null> {
    return pointers.pointer(this.ctx, ns, key);
  }

  pointerVersion(ns: number, key: string, version: number): Promise<PointerVersion | null> {
    return pointers.pointerVersion(this.ctx, ns, key, version);
  }

  acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
    return this.leases.acquireLease(scope, key, owner, ttlMs, w);
  }

  renewLease(scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
    return this.leases.renewLease(scope, key, owner, epoch, ttlMs, w);
  }

  releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
    return this.leases.releaseLease(scope, key, owner, epoch, w);
  }

  lease(scope: LeaseScope, key: string): Promise<Lease | null> {
    return this.leases.lease(scope, key);
  }

  createTag(ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
    return tagsGc.createTag(this.ctx, ns, collection, name, manifestVersion, w);
  }

  dropTag(ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
    return tagsGc.dropTag(this.ctx, ns, collection, name, w);
  }

  rewriteTag(ns: number, collection: number, name: string, fromPath: string, toPath: string, rewrittenBy: string, w?: WriteContext): Promise<Tag> {
    return tagsGc.rewriteTag(this.ctx, ns, collection, name, fromPath, toPath, rewrittenBy, w);
  }

  listTags(ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
    return tagsGc.listTags(this.ctx, ns, collection, page);
  }

  claimObject(path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult> {
    return tagsGc.claimObject(this.ctx, path, owner, opts);
  }

  releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
    return tagsGc.releaseClaim(this.ctx, path, owner, opts, w);
  }

  objectRef(path: string): Promise<ObjectRef | null> {
    return tagsGc.objectRef(this.ctx, path);
  }

  catalogVersion(): Promise<number> {
    return feed.catalogVersion(this.ctx);
  }

  changesSince(version: number, limit?: number): Promise<ChangesPage> {
    return feed.changesSince(this.ctx, version, limit);
  }

  watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    return feed.watch(this.ctx, scope, since, opts);
  }
}

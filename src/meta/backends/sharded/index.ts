// ShardedMetaStore (spec §5.2): a MetaStore over N shard MetaStores, each any backend. Every
// call that names a namespace goes to that namespace's shard (all of one namespace's
// metadata lives on one shard); the rest is in ./README.md's routing table and its files:
// namespaces.ts (create, drop, names), commit.ts (commitWal split by shard), lists.ts
// (merged lists), gc.ts (path-only calls), leases.ts (cluster leases), feed.ts (the cluster
// feed), routing.ts (the directory cache and path routes), directory.ts (the directory's
// interface, implemented beside the ControlStore in src/control/directory).
import { hasDirtySets, type CreateCollection, type CreateNamespace, type CreateNamespaceWith, type CreateStream, type MetaStore, type ReadOptions } from '../../contract.js';
import { dueCursor } from '../../core/due.js';
import { mergedList } from './lists.js';
import { registerConnection, type Connection } from '../connections.js';
import { validating } from '../../core/validating.js';
import type {
  AliasAction,
  Capabilities,
  ClaimResult,
  CollectionSchema,
  DueHead,
  Fence,
  LeaseScope,
  NamespaceId,
  Page,
  PageRequest,
  Retention,
  SegmentSwap,
  Stamp,
  WalCommit,
  WatchScope,
  WriteContext,
} from '../../types.js';
import { commitWalSharded } from './commit.js';
import type { DirectoryStore, ShardRecord, SizeClass } from './directory.js';
import { ClusterFeed } from './feed.js';
import { ShardedGc } from './gc.js';
import { ClusterLeases } from './leases.js';
import { moveNamespace, resumeRemovals, type MoveOptions, type MoveReport } from './move.js';
import { Namespaces } from './namespaces.js';
import { Router, type Shard } from './routing.js';

type FencedOpts = { fence?: Fence } & WriteContext;

/** A directory as its opener returns it: the store, the connection it runs on (the ControlStore opens beside it), and how to close both. */
export interface OpenedDirectory {
  store: DirectoryStore;
  connection: Connection;
  close(): Promise<void>;
}

export interface ShardSpec {
  name: string;
  /** Where it is, without credentials: recorded in the directory, checked at every open. */
  identity: string;
  store: MetaStore;
}

export interface ShardedOptions {
  directory: OpenedDirectory;
  /** Every shard; new names are added to the directory (adding a shard is a config change plus this entry). */
  shards: readonly ShardSpec[];
  /** Follow the directory with a long poll (default true). */
  follow?: boolean;
  /** Finish, in the background, the removals that movers which died left unfinished (default true; ./move.ts resumeRemovals). */
  resumeRemovals?: boolean;
}

export class ShardedMetaStore implements MetaStore {
  readonly router: Router;
  private readonly ns: Namespaces;
  private readonly leases: ClusterLeases;
  private readonly gc: ShardedGc;
  private readonly feed: ClusterFeed;
  private closed = false;
  private readonly stopRemovals = new AbortController();
  private resuming: Promise<number> | null = null;

  constructor(
    private readonly directory: OpenedDirectory,
    shards: readonly Shard[],
  ) {
    this.router = new Router(directory.store, shards);
    this.feed = new ClusterFeed(this.router);
    this.ns = new Namespaces(this.router, (s) => this.feed.changed(s));
    this.leases = new ClusterLeases(this.router);
    this.gc = new ShardedGc(this.router, this.leases);
    if (shards.every((s) => hasDirtySets(s.store))) {
      // Every shard's due heads merged under one cursor (their sort key, core/due.ts).
      this.dueHeads = (before, page) => mergedList(this.router.shards.map((s) => (p: PageRequest) => s.store.dueHeads!(before, p)), page, dueCursor);
      this.settleHead = (ns, stream, partition, mark, due) => this.on(ns, (s) => s.settleHead!(ns, stream, partition, mark, due));
    }
  }

  /** A namespace's size class in this node's directory view (spec §5.3: what placement reads), without a round trip. */
  sizeClassOf(ns: NamespaceId): SizeClass {
    return this.router.sizeClassOf(ns);
  }

  /** Bumped whenever sizeClassOf changed for some namespace (ownership reads it: src/node/ownership.ts). */
  sizeClassVersion(): number {
    return this.router.sizeClassVersion();
  }

  /** The directory version this node holds (spec §5.2: a node can say which). */
  directoryVersion(): number {
    return this.router.version;
  }

  /**
   * Moves a namespace to another shard, metadata only (spec §5.5, ./move.ts), or finishes a
   * move an earlier mover left unfinished. Resolves when the namespace is live on `to`.
   */
  moveNamespace(ns: NamespaceId, to: string, opts: MoveOptions = {}): Promise<MoveReport> {
    const r = this.router;
    const directory = {
      entry: (id: NamespaceId) => r.directory.entry(id),
      updateEntry: async (id: NamespaceId, expectedVersion: number, change: { shard?: string; state?: 'live' | 'moving' }) => {
        const e = await r.directory.updateEntry(id, expectedVersion, change);
        r.remember(e);
        return e;
      },
    };
    return moveNamespace({ directory, shards: r.shards, leases: this }, ns, to, opts);
  }

  /**
   * Finishes the removal of every retired copy on every shard: the last step of a move whose
   * mover died after the flip (./move.ts resumeRemovals). Run once in the background when the
   * store opens; resolves with the removals it finished.
   */
  resumeRemovals(): Promise<number> {
    return resumeRemovals(this.router.shards, this.stopRemovals.signal);
  }

  /** Starts resumeRemovals in the background (openSharded); close() stops it between batches. */
  startResumingRemovals(): void {
    this.resuming ??= this.resumeRemovals().catch(() => 0);
  }

  /** What a gateway's move hold needs (src/gateway/move-buffer.ts MoveSignals): this node's directory view. */
  moveSignals(): { moving(ns: NamespaceId): string | null; settled(ns: NamespaceId, from: string): Promise<boolean> } {
    return { moving: (ns) => this.router.movingFrom(ns), settled: (ns, from) => this.router.moveSettled(ns, from) };
  }

  /** The shards, by directory order, with where they are (no credentials). */
  shardRecords(): ShardRecord[] {
    return this.router.shards.map((s) => s.record);
  }

  capabilities(): Capabilities {
    const caps = this.router.shards.map((s) => s.store.capabilities());
    return {
      transactions: caps.every((c) => c.transactions === 'multi-item') ? 'multi-item' : 'single-item',
      snapshotReads: caps.every((c) => c.snapshotReads),
      maxChunksPerGroup: Math.min(...caps.map((c) => c.maxChunksPerGroup)),
      maxSwapEntries: Math.min(...caps.map((c) => c.maxSwapEntries)),
      changeFeed: 'poll',
    };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopRemovals.abort();
    await this.resuming;
    this.feed.close();
    await this.router.close();
    for (const s of this.router.shards) await s.store.close();
    await this.directory.close();
  }

  private on<T>(ns: NamespaceId, fn: (s: MetaStore) => Promise<T>): Promise<T> {
    return this.router.onNamespace(ns, fn);
  }

  /** A catalog write on the namespace's shard, copied into the cluster feed before it returns. */
  private catalog<T>(ns: NamespaceId, fn: (s: MetaStore) => Promise<T>): Promise<T> {
    return this.router.onNamespace(ns, async (s, shard) => {
      const out = await fn(s);
      await this.feed.changed(shard.name);
      return out;
    });
  }

  // ---------------------------------------------------------------- Catalog
  createNamespace(req: CreateNamespace, w?: WriteContext) {
    return this.ns.create(req, w);
  }
  createNamespaces(reqs: CreateNamespaceWith[], w?: WriteContext) {
    return this.ns.createMany(reqs, w);
  }
  dropNamespace(ns: NamespaceId, w?: WriteContext) {
    return this.ns.drop(ns, w);
  }
  namespace(ns: NamespaceId, opts?: ReadOptions) {
    return this.on(ns, (s) => s.namespace(ns, opts));
  }
  namespaceByName(org: string, name: string) {
    return this.ns.byName(org, name);
  }
  listNamespaces(org: string, page?: PageRequest) {
    return this.ns.list(org, page);
  }
  async createCollection(req: CreateCollection, w?: WriteContext) {
    const c = await this.catalog(req.ns, (s) => s.createCollection(req, w));
    // The size class is a placement hint: a failed promotion is tried again by the next create, never fails this one.
    await this.ns.grew(req.ns).catch(() => undefined);
    return c;
  }
  dropCollection(ns: NamespaceId, collection: number, w?: WriteContext) {
    return this.catalog(ns, (s) => s.dropCollection(ns, collection, w));
  }
  janitor(ns: NamespaceId, w?: WriteContext) {
    return this.on(ns, (s) => s.janitor(ns, w));
  }
  collection(ns: NamespaceId, collection: number, opts?: ReadOptions) {
    return this.on(ns, (s) => s.collection(ns, collection, opts));
  }
  collectionByName(ns: NamespaceId, name: string) {
    return this.on(ns, (s) => s.collectionByName(ns, name));
  }
  listCollections(ns: NamespaceId, page?: PageRequest) {
    return this.on(ns, (s) => s.listCollections(ns, page));
  }
  updateCollectionSchema(ns: NamespaceId, collection: number, expectedVersion: number, schema: CollectionSchema, w?: WriteContext) {
    return this.catalog(ns, (s) => s.updateCollectionSchema(ns, collection, expectedVersion, schema, w));
  }
  updateAliases(ns: NamespaceId, actions: AliasAction[], expectedVersion?: number, w?: WriteContext) {
    return this.catalog(ns, (s) => s.updateAliases(ns, actions, expectedVersion, w));
  }
  aliases(ns: NamespaceId) {
    return this.on(ns, (s) => s.aliases(ns));
  }
  async createStream(req: CreateStream, w?: WriteContext) {
    const st = await this.catalog(req.ns, (s) => s.createStream(req, w));
    // The size class is a placement hint: a failed promotion is tried again by the next create, never fails this one.
    await this.ns.grew(req.ns).catch(() => undefined);
    return st;
  }
  dropStream(ns: NamespaceId, stream: number, w?: WriteContext) {
    return this.catalog(ns, (s) => s.dropStream(ns, stream, w));
  }
  stream(ns: NamespaceId, stream: number, opts?: ReadOptions) {
    return this.on(ns, (s) => s.stream(ns, stream, opts));
  }
  listStreams(ns: NamespaceId, page?: PageRequest) {
    return this.on(ns, (s) => s.listStreams(ns, page));
  }
  setRetention(ns: NamespaceId, stream: number, retention: Retention, w?: WriteContext) {
    return this.catalog(ns, (s) => s.setRetention(ns, stream, retention, w));
  }

  // ---------------------------------------------------------------- Log
  commitWal(commit: WalCommit, w?: WriteContext) {
    return commitWalSharded(this.router, commit, w);
  }
  partitionIndex(ns: NamespaceId, stream: number, partition: number, opts?: { from?: number; limit?: number }) {
    return this.on(ns, (s) => s.partitionIndex(ns, stream, partition, opts));
  }
  streamState(ns: NamespaceId, stream: number) {
    return this.on(ns, (s) => s.streamState(ns, stream));
  }
  collectionHead(ns: NamespaceId, collection: number) {
    return this.on(ns, (s) => s.collectionHead(ns, collection));
  }
  swapSegment(swap: SegmentSwap, opts?: FencedOpts) {
    return this.router.onNamespace(swap.ns, async (s, shard) => s.swapSegment(swap, await this.leases.fenced(shard, opts)));
  }
  trimPartition(ns: NamespaceId, stream: number, partition: number, logStart: number, opts?: FencedOpts) {
    return this.router.onNamespace(ns, async (s, shard) => s.trimPartition(ns, stream, partition, logStart, await this.leases.fenced(shard, opts)));
  }
  segmentReferenced(ns: NamespaceId, stream: number, path: string) {
    return this.on(ns, (s) => s.segmentReferenced(ns, stream, path));
  }
  retiredWalObjects(page?: PageRequest) {
    return this.gc.retiredWalObjects(page);
  }

  // ---------------------------------------------------------------- Dirty sets (spec §5.4)
  // Offered only when every shard keeps the dirty set (set in the constructor).
  readonly dueHeads?: (before: Stamp, page?: PageRequest) => Promise<Page<DueHead>>;
  readonly settleHead?: (ns: NamespaceId, stream: number, partition: number, mark: number, due: Stamp | null) => Promise<boolean>;

  // ---------------------------------------------------------------- Pointers
  casPointer(ns: NamespaceId, key: string, expectedVersion: number | null, value: string, opts?: FencedOpts) {
    return this.router.onNamespace(ns, async (s, shard) => s.casPointer(ns, key, expectedVersion, value, await this.leases.fenced(shard, opts)));
  }
  pointer(ns: NamespaceId, key: string) {
    return this.on(ns, (s) => s.pointer(ns, key));
  }
  pointerVersion(ns: NamespaceId, key: string, version: number) {
    return this.on(ns, (s) => s.pointerVersion(ns, key, version));
  }

  // ---------------------------------------------------------------- Leases
  acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext) {
    if (scope === 'cluster') return this.leases.acquire(key, owner, ttlMs, w);
    return this.on(scope, (s) => s.acquireLease(scope, key, owner, ttlMs, w));
  }
  renewLease(scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext) {
    if (scope === 'cluster') return this.leases.renew(key, owner, epoch, ttlMs, w);
    return this.on(scope, (s) => s.renewLease(scope, key, owner, epoch, ttlMs, w));
  }
  releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext) {
    if (scope === 'cluster') return this.leases.release(key, owner, epoch, w);
    return this.on(scope, (s) => s.releaseLease(scope, key, owner, epoch, w));
  }
  lease(scope: LeaseScope, key: string) {
    if (scope === 'cluster') return this.leases.lease(key);
    return this.on(scope, (s) => s.lease(scope, key));
  }

  // ---------------------------------------------------------------- Tags
  createTag(ns: NamespaceId, collection: number, name: string, manifestVersion: number, w?: WriteContext) {
    return this.on(ns, (s) => s.createTag(ns, collection, name, manifestVersion, w));
  }
  dropTag(ns: NamespaceId, collection: number, name: string, w?: WriteContext) {
    return this.on(ns, (s) => s.dropTag(ns, collection, name, w));
  }
  rewriteTag(ns: NamespaceId, collection: number, name: string, fromPath: string, toPath: string, rewrittenBy: string, w?: WriteContext) {
    return this.on(ns, (s) => s.rewriteTag(ns, collection, name, fromPath, toPath, rewrittenBy, w));
  }
  listTags(ns: NamespaceId, collection: number, page?: PageRequest) {
    return this.on(ns, (s) => s.listTags(ns, collection, page));
  }

  // ---------------------------------------------------------------- GC
  claimObject(path: string, owner: string, opts?: FencedOpts): Promise<ClaimResult> {
    return this.gc.claimObject(path, owner, opts);
  }
  releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext) {
    return this.gc.releaseClaim(path, owner, opts, w);
  }
  objectRef(path: string) {
    return this.gc.objectRef(path);
  }

  // ---------------------------------------------------------------- Change feed
  catalogVersion() {
    return this.feed.catalogVersion();
  }
  changesSince(version: number, limit?: number) {
    return this.feed.changesSince(version, limit);
  }
  watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }) {
    return this.feed.watch(scope, since, opts);
  }
}

/**
 * Opens a sharded metastore: records every shard in the directory (a new name is added; a
 * known name must keep its identity, so a reordered or edited shard list is a clear error
 * instead of misrouted namespaces), and routes by the directory from then on.
 */
export async function openSharded(opts: ShardedOptions): Promise<ShardedMetaStore> {
  const names = new Set<string>();
  for (const s of opts.shards) {
    if (names.has(s.name)) throw new Error(`metastore.shards: shard ${s.name} is listed twice`);
    names.add(s.name);
  }
  if (opts.shards.length === 0) throw new Error('metastore.shards: at least one shard is needed');
  const dir = opts.directory.store;
  for (const s of opts.shards) await dir.addShard(s.name, s.identity);
  const records = await dir.shards();
  const missing = records.filter((r) => !names.has(r.name));
  if (missing.length > 0) {
    throw new Error(`metastore.shards: the directory has shard${missing.length > 1 ? 's' : ''} ${missing.map((r) => r.name).join(', ')}, which this config does not list (a shard is never dropped from the list)`);
  }
  const byName = new Map(opts.shards.map((s) => [s.name, s]));
  const shards: Shard[] = records.map((r) => ({ name: r.name, store: byName.get(r.name)!.store, record: r }));
  const store = new ShardedMetaStore(opts.directory, shards);
  await store.router.start();
  if (opts.follow !== false) store.router.follow();
  if (opts.resumeRemovals !== false) store.startResumingRemovals();
  return registerConnection(validating(store), opts.directory.connection);
}

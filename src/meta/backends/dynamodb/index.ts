// The DynamoDB backend (DESIGN §3, spec §2.3) and its single-item Alternator profile (spec §4.1).
//
// One table with string keys pk/sk (item layout: ./keys.ts and ./README.md, which also maps
// every call). This file is the MetaStore facade: each call goes to the module of its concern
// over one shared context (./context.ts: the SDK handle, caches and the write frame):
//
//   catalog.ts      namespaces and streams        collections.ts  collections and aliases
//   log.ts          commitWal and the log reads   segments.ts     swapSegment, trims, WAL GC reads
//   pointers.ts     casPointer, pointer           leases.ts       leases
//   tags-gc.ts      tags and GC claims            feed.ts         catalog version, changes, watch
//   janitor.ts      what drops leave behind       table.ts        CreateTable / DeleteTable
//   due.ts          the dirty set (dueHeads, settleHead; multi-item profile only)
//
// Unknown outcomes (spec §2.3, §4.2): every transaction of a call with a requestId carries a
// commit-token item (req#) and a ClientRequestToken derived from the requestId; commitWal's
// groups carry their (object, group) commit records; single-item writes (leases, the
// Alternator profile's pointers) store the writer's nonce in the item. A retry therefore
// learns that an earlier attempt applied and returns its result, never applying twice.
//
// The 'alternator' profile is the same backend with capabilities().transactions =
// 'single-item': it sends no transaction at all. Leases, casPointer without a fence on a key
// that is not a collection's link, createNamespace (name uniqueness by attribute_not_exists
// + ALL_OLD) and every read work; every call that needs a transaction answers InvalidArgument
// naming `transactions`, after its arguments are validated.
import type { CreateCollection, CreateNamespace, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import { errors } from '../../errors.js';
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
import * as catalog from './catalog.js';
import * as collections from './collections.js';
import * as due from './due.js';
import { DynamoContext, PRUNE_SHARDS_PER_PASS, type DynamoOptions } from './context.js';
import { EXPIRY_SHARDS } from './keys.js';

/** Prune passes one pruneNow runs, at most (each is bounded by PRUNE_BATCH deletes). */
const MAX_PRUNE_NOW_PASSES = 10_000;
import * as feed from './feed.js';
import { janitor } from './janitor.js';
import { dynamoLeaseCalls } from './leases.js';
import type { LeaseCalls } from '../../core/leases.js';
import * as log from './log.js';
import * as pointers from './pointers.js';
import * as segments from './segments.js';
import { createTable, deleteTable } from './table.js';
import * as tagsGc from './tags-gc.js';
import type { Sdk } from './sdk.js';

export { DUE_INDEX, DUE_SHARDS, K, RETIRED_INDEX, RETIRED_SHARDS, TABLE_LAYOUT } from './keys.js';
export {
  DEFAULT_CONNECT_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  MAX_CHUNKS_PER_GROUP,
  MAX_INTERNAL_ATTEMPTS,
  MAX_SWAP_ENTRIES,
  type DynamoOptions,
  type DynamoProfile,
} from './context.js';
export { MAX_KEY_PATH_BYTES } from './items.js';
export { TRIM_CHUNK_ENTRIES } from './segments.js';
export { WATCH_POLL_MAX_MS, WATCH_POLL_MIN_MS } from './feed.js';

export { dynamoOptionsFromUrl } from './url.js';

export function openDynamo(opts: DynamoOptions): DynamoMetaStore {
  // Through the one validating wrapper (src/meta/core), recorded with its connection for the
  // ControlStore (src/meta/backends/registry.ts).
  const s = new DynamoMetaStore(opts);
  return registerConnection(validating(s, { now: opts.clock ?? Date.now }), {
    kind: 'dynamodb',
    client: s.sdk.client,
    table: s.table,
    profile: s.profile,
  });
}

export class DynamoMetaStore implements MetaStore {
  private readonly cx: DynamoContext;
  private readonly leases: LeaseCalls;

  constructor(opts: DynamoOptions) {
    this.cx = new DynamoContext(opts);
    this.leases = dynamoLeaseCalls(this.cx);
    // The dirty set rides on commitWal's transaction: the single-item profile (no commitWal)
    // does not offer it, and its workers poll the collections they own (hasDirtySets).
    if (this.cx.profile !== 'alternator') {
      this.dueHeads = (before, page) => due.dueHeads(this.cx, before, page);
      this.settleHead = (ns, stream, partition, mark, at) => due.settleHead(this.cx, ns, stream, partition, mark, at);
    }
  }

  readonly dueHeads?: (before: Stamp, page?: PageRequest) => Promise<Page<DueHead>>;
  readonly settleHead?: (ns: number, stream: number, partition: number, mark: number, due: Stamp | null) => Promise<boolean>;

  get table(): string {
    return this.cx.table;
  }

  get profile(): DynamoOptions['profile'] & string {
    return this.cx.profile;
  }

  /** The SDK handle (the ControlStore shares the metastore's client). */
  get sdk(): Sdk {
    return this.cx.sdk;
  }

  capabilities(): Capabilities {
    return { ...this.cx.caps };
  }

  /** Waits for this handle's background prune pass of expired items, if one is running. */
  pruneIdle(): Promise<void> {
    return this.cx.pruneIdle();
  }

  /**
   * Runs prune passes of expired items (commit tokens, WAL commit records, tombstones, pointer
   * history) until a whole round of the expiry shards finds nothing expired, at most
   * MAX_PRUNE_NOW_PASSES passes: what the background passes do, at once (operators, tests).
   */
  async pruneNow(): Promise<number> {
    await this.cx.pruneIdle();
    const round = Math.ceil(EXPIRY_SHARDS / PRUNE_SHARDS_PER_PASS);
    let removed = 0;
    for (let pass = 0, idle = 0; pass < MAX_PRUNE_NOW_PASSES && idle < round; pass++) {
      const n = await this.cx.pruneExpired();
      removed += n;
      idle = n === 0 ? idle + 1 : 0;
    }
    return removed;
  }

  async close(): Promise<void> {
    await this.cx.close();
  }

  /**
   * Creates the table (pk, sk; the sparse `retired` global secondary index; TTL on `ttl`) if it does
   * not exist, and waits until it is active. Operators may create it themselves instead.
   */
  createTable(): Promise<void> {
    return createTable(this.cx);
  }

  /** Deletes the table (tests only). */
  deleteTable(): Promise<void> {
    return deleteTable(this.cx);
  }

  // ---- catalog (catalog.ts, collections.ts, janitor.ts)

  createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    return catalog.createNamespace(this.cx, req, w);
  }
  dropNamespace(ns: number, w?: WriteContext): Promise<void> {
    return catalog.dropNamespace(this.cx, ns, w);
  }
  namespace(ns: number, opts?: ReadOptions): Promise<Namespace> {
    return catalog.namespace(this.cx, ns, opts);
  }
  namespaceByName(org: string, name: string): Promise<Namespace> {
    return catalog.namespaceByName(this.cx, org, name);
  }
  listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    return catalog.listNamespaces(this.cx, org, page);
  }
  createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection> {
    return collections.createCollection(this.cx, req, w);
  }
  dropCollection(ns: number, collection: number, w?: WriteContext): Promise<void> {
    return collections.dropCollection(this.cx, ns, collection, w);
  }
  janitor(ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
    return janitor(this.cx, ns, w);
  }
  collection(ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
    return collections.collection(this.cx, ns, collection, opts);
  }
  collectionByName(ns: number, name: string): Promise<Collection> {
    return collections.collectionByName(this.cx, ns, name);
  }
  listCollections(ns: number, page?: PageRequest): Promise<Page<Collection>> {
    return collections.listCollections(this.cx, ns, page);
  }
  updateCollectionSchema(ns: number, collection: number, expectedVersion: number, schema: CollectionSchema, w?: WriteContext): Promise<Collection> {
    return collections.updateCollectionSchema(this.cx, ns, collection, expectedVersion, schema, w);
  }
  updateAliases(ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
    return collections.updateAliases(this.cx, ns, actions, expectedVersion, w);
  }
  aliases(ns: number): Promise<Aliases> {
    return collections.aliases(this.cx, ns);
  }
  createStream(req: CreateStream, w?: WriteContext): Promise<Stream> {
    return catalog.createStream(this.cx, req, w);
  }
  dropStream(ns: number, stream: number, w?: WriteContext): Promise<void> {
    return catalog.dropStream(this.cx, ns, stream, w);
  }
  stream(ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
    return catalog.stream(this.cx, ns, stream, opts);
  }
  listStreams(ns: number, page?: PageRequest): Promise<Page<Stream>> {
    return catalog.listStreams(this.cx, ns, page);
  }
  setRetention(ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
    return catalog.setRetention(this.cx, ns, stream, retention, w);
  }

  // ---- log (log.ts, segments.ts)

  commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
    return log.commitWal(this.cx, commit, w);
  }
  partitionIndex(ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
    return log.partitionIndex(this.cx, ns, stream, partition, opts);
  }
  streamState(ns: number, stream: number): Promise<StreamState> {
    return log.streamState(this.cx, ns, stream);
  }
  collectionHead(ns: number, collection: number): Promise<CollectionHead> {
    return log.collectionHead(this.cx, ns, collection);
  }
  swapSegment(swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }> {
    return segments.swapSegment(this.cx, swap, opts);
  }
  trimPartition(ns: number, stream: number, partition: number, logStart: number, opts?: { fence?: Fence } & WriteContext): Promise<PartitionHead> {
    return segments.trimPartition(this.cx, ns, stream, partition, logStart, opts);
  }
  segmentReferenced(ns: number, stream: number, path: string): Promise<boolean> {
    return segments.segmentReferenced(this.cx, ns, stream, path);
  }
  retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    return segments.retiredWalObjects(this.cx, page);
  }

  // ---- pointers, leases (pointers.ts, leases.ts)

  casPointer(ns: number, key: string, expectedVersion: number | null, value: string, opts?: { fence?: Fence } & WriteContext): Promise<Pointer> {
    return pointers.casPointer(this.cx, ns, key, expectedVersion, value, opts);
  }
  pointer(ns: number, key: string): Promise<Pointer | null> {
    return pointers.pointer(this.cx, ns, key);
  }

  pointerVersion(ns: number, key: string, version: number): Promise<PointerVersion | null> {
    return pointers.pointerVersion(this.cx, ns, key, version);
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

  // ---- tags, GC (tags-gc.ts)

  createTag(ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
    return tagsGc.createTag(this.cx, ns, collection, name, manifestVersion, w);
  }
  dropTag(ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
    return tagsGc.dropTag(this.cx, ns, collection, name, w);
  }
  rewriteTag(ns: number, collection: number, name: string, fromPath: string, toPath: string, rewrittenBy: string, w?: WriteContext): Promise<Tag> {
    return tagsGc.rewriteTag(this.cx, ns, collection, name, fromPath, toPath, rewrittenBy, w);
  }

  listTags(ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
    return tagsGc.listTags(this.cx, ns, collection, page);
  }
  claimObject(path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult> {
    return tagsGc.claimObject(this.cx, path, owner, opts);
  }
  releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
    return tagsGc.releaseClaim(this.cx, path, owner, opts, w);
  }
  objectRef(path: string): Promise<ObjectRef | null> {
    return tagsGc.objectRef(this.cx, path);
  }

  // ---- change feed (feed.ts)

  catalogVersion(): Promise<number> {
    return feed.catalogVersion(this.cx);
  }
  changesSince(version: number, limit?: number): Promise<ChangesPage> {
    return feed.changesSince(this.cx, version, limit);
  }
  watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    return feed.watch(this.cx, scope, since, opts);
  }
}

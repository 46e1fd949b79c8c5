// The MetaStore contract (DESIGN §2, spec §3, §5.4, §10). One interface, every backend.
//
// Rules that hold for every call:
// - One call is one transaction (or, where a backend cannot, one atomic group per
//   partition group: commitWal, spec §3.1). No call threads a transaction through another.
// - Every call that concerns a namespace's data takes its NamespaceId first, so a sharded
//   store routes it without a lookup (spec §10).
// - Arguments and results are plain data; errors are MetaError with a typed code.
// - Every write takes an optional WriteContext { stamp, requestId }. A retry with the same
//   requestId returns the first attempt's result and applies nothing twice.
// - Bad arguments are InvalidArgument naming the field, checked before anything is written.
// - Reads of an entity in state 'dropping' behave as if it were absent (NotFound), except
//   namespace()/collection()/stream() by id with { includeDropping: true } for janitors.
// The contract knows no backend; backends live in ./backends and know no caller.

import type {
  AliasAction,
  Aliases,
  AssignedRange,
  Capabilities,
  ChangesPage,
  ClaimResult,
  DueHead,
  Collection,
  CollectionHead,
  CollectionId,
  CollectionSchema,
  Fence,
  IndexEntry,
  Lease,
  LeaseScope,
  Namespace,
  NamespaceId,
  ObjectRef,
  Offset,
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
  StreamId,
  StreamState,
  Tag,
  WalCommit,
  WalCommitResult,
  WatchResult,
  WatchScope,
  WriteContext,
} from './types.js';

export interface CreateNamespace {
  org: string;
  name: string;
  /**
   * An id allocated elsewhere, once for the whole cluster (spec §10: a sharded store's
   * directory allocates namespace ids, so they stay dense across shards). Absent: the
   * backend's own counter. A backend that already holds a namespace with this id (any
   * state, other name) refuses with AlreadyExists carrying it; the backend's counter is
   * raised past it, so its own later allocations never collide.
   */
  id?: NamespaceId;
}

export interface CreateCollection {
  ns: NamespaceId;
  name: string;
  schema: CollectionSchema;
  /** Partitions of the implicit stream, 1..MAX_PARTITIONS. */
  partitions: number;
  /** The log's retention; default { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null }. */
  retention?: Retention;
  /** Default DEFAULT_MANIFEST_RETENTION_MS. */
  manifestRetentionMs?: number;
}

/** A namespace and the collections to create in it (createNamespaces). */
export interface CreateNamespaceWith extends CreateNamespace {
  /** createCollection's fields without `ns`, in the order they are created. */
  collections?: Omit<CreateCollection, 'ns'>[];
}

export interface CreatedNamespace {
  namespace: Namespace;
  collections: Collection[];
}

export interface CreateStream {
  ns: NamespaceId;
  name: string;
  partitions: number;
  retention?: Retention;
}

export interface ReadOptions {
  /** Also return entities that are being dropped (janitors only). */
  includeDropping?: boolean;
}

export interface MetaStore {
  /** What this backend can do; the conformance suite selects cases by it (spec §3.4). */
  capabilities(): Capabilities;

  /** Release connections. Pending watches return. Idempotent. */
  close(): Promise<void>;

  // ---------------------------------------------------------------- Catalog

  /**
   * Creates a namespace in an org. Names are unique within an org among live namespaces.
   * AlreadyExists carries the existing id, so a retry after a lost acknowledgement learns
   * the first attempt's id without a second read (spec §2.3). Bumps the catalog version.
   */
  createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace>;

  /**
   * Marks a namespace dropping and frees its name at once. Refused (InvalidArgument) while
   * the namespace has live collections or streams. Bumps the catalog version.
   */
  dropNamespace(ns: NamespaceId, w?: WriteContext): Promise<void>;

  namespace(ns: NamespaceId, opts?: ReadOptions): Promise<Namespace>;
  namespaceByName(org: string, name: string): Promise<Namespace>;
  /** Live namespaces of one org, by name. */
  listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>>;

  /**
   * One transaction: the collection's name and record, its implicit stream (named
   * `implicitStreamName(name)`, i.e. `_c_<name>`, which no user-chosen name can collide with)
   * and its link (stream → collection). Partition heads are created lazily
   * (a missing head means next = 0). AlreadyExists carries the existing collection's id.
   * NotFound if the namespace is absent or dropping. Bumps the catalog version.
   */
  createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection>;

  /**
   * Marks the collection, its implicit stream and link dropping, removes its name and its
   * pointer, and removes it from aliases, in one transaction. The collection is hidden at
   * once and its name is free; a janitor deletes heads, index entries and records later.
   * Dropping a collection that is absent or already dropping is NotFound (a retry of a drop
   * that applied goes through its requestId and succeeds).
   */
  dropCollection(ns: NamespaceId, collection: CollectionId, w?: WriteContext): Promise<void>;

  /**
   * The janitor of dropped collections and streams (spec §2.3): deletes, in a bounded batch,
   * what `dropCollection`/`dropStream` left in a namespace — index entries (releasing their
   * objects' references, so WAL objects retire), heads, tags, pointer history, then the
   * records themselves. Idempotent and resumable: `done: false` means call it again.
   * Counts are what this call finished removing. Not on single-item backends.
   */
  janitor(ns: NamespaceId, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }>;

  collection(ns: NamespaceId, collection: CollectionId, opts?: ReadOptions): Promise<Collection>;
  collectionByName(ns: NamespaceId, name: string): Promise<Collection>;
  listCollections(ns: NamespaceId, page?: PageRequest): Promise<Page<Collection>>;

  /**
   * Replaces the schema if the collection is at `expectedVersion` (else VersionMismatch with
   * the current version). The primary key cannot change. Returns the new version.
   */
  updateCollectionSchema(
    ns: NamespaceId,
    collection: CollectionId,
    expectedVersion: number,
    schema: CollectionSchema,
    w?: WriteContext,
  ): Promise<Collection>;

  /**
   * Applies every action or none, and bumps the namespace's alias version by one.
   * `expectedVersion` (optional) makes it a compare-and-swap. A 'set' naming a collection
   * that is absent or dropping is NotFound. At most MAX_ALIAS_ACTIONS actions.
   */
  updateAliases(ns: NamespaceId, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases>;
  aliases(ns: NamespaceId): Promise<Aliases>;

  /**
   * Bulk create (setup, imports, benchmarks): each namespace of `reqs` and its collections,
   * exactly as createNamespace and then createCollection would create them (ids, catalog
   * changes, the catalog version bumped per creation), at most MAX_BULK_NAMESPACES namespaces
   * and MAX_BULK_COLLECTIONS collections per call. One transaction per backend: all of it or
   * nothing. A name already held refuses the whole call with AlreadyExists carrying the held
   * id; a name given twice is InvalidArgument. A sharded store runs one transaction per shard
   * after reserving every name in its directory at once (docs/sharding.md).
   * Optional: `createNamespacesWith` (core/bulk.ts) falls back to the single calls.
   */
  createNamespaces?(reqs: CreateNamespaceWith[], w?: WriteContext): Promise<CreatedNamespace[]>;

  /** An explicit stream (not owned by a collection). */
  createStream(req: CreateStream, w?: WriteContext): Promise<Stream>;
  /** Drops an explicit stream; an implicit stream goes only with its collection (InvalidArgument). */
  dropStream(ns: NamespaceId, stream: StreamId, w?: WriteContext): Promise<void>;
  stream(ns: NamespaceId, stream: StreamId, opts?: ReadOptions): Promise<Stream>;
  /** Live streams of a namespace, implicit ones included, by name. */
  listStreams(ns: NamespaceId, page?: PageRequest): Promise<Page<Stream>>;
  setRetention(ns: NamespaceId, stream: StreamId, retention: Retention, w?: WriteContext): Promise<Stream>;

  // ---------------------------------------------------------------- Log

  /**
   * Assigns dense offsets to every chunk of a WAL object and indexes them.
   *
   * Relaxation (spec §3.1): atomic per partition group, not per call. Chunks are split into
   * groups of at most capabilities().maxChunksPerGroup by `planGroups` (deterministic, so a
   * retry forms the same groups); one stream's chunks stay in one group while they fit.
   * Each group commits in its own transaction with its own commit record (object, group).
   * The call succeeds only when every group has committed; after a failure some groups may
   * have committed and others not — the writer's retry of the same object settles the rest.
   *
   * Idempotent per (object, group): a retry returns the first attempt's offsets and commits
   * nothing twice. An object older than WAL_COMMIT_WINDOW_MS (judged on the proposer's
   * stamp) whose group was never committed gets StaleCommit. Claimed if GC has claimed the
   * object's path. NotFound if a chunk's stream is absent or dropping, or its partition is
   * out of range (InvalidArgument). Does not bump the catalog version or wake watchers.
   */
  commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult>;

  /**
   * A contiguous, gap-free run of a partition's index entries covering offsets from
   * max(from, logStart) up to the head's next, one page at a time (spec §3.3).
   * Read order: the head first, then the entries; a backend whose entry read is not a
   * snapshot retries when a concurrent trim leaves a gap at the low end.
   */
  partitionIndex(
    ns: NamespaceId,
    stream: StreamId,
    partition: number,
    opts?: { from?: Offset; limit?: number },
  ): Promise<PartitionIndex>;

  /** The stream and every partition's head (missing heads read as zero). */
  streamState(ns: NamespaceId, stream: StreamId): Promise<StreamState>;

  /**
   * The collection's pointer, then its stream's partition heads — in that order
   * (spec §3.3). Heads only grow, so read after the pointer they can only be ahead of the
   * manifest's applied offsets: the log tail a reader merges may look longer than needed,
   * never shorter, and merging an already-applied record is idempotent by offset.
   */
  collectionHead(ns: NamespaceId, collection: CollectionId): Promise<CollectionHead>;

  /**
   * Replaces the entries covering exactly [start, end) of a partition with one segment
   * entry. The range must start and end on entry boundaries (InvalidArgument otherwise) and
   * hold at most capabilities().maxSwapEntries entries (LimitExceeded). Idempotent by the
   * segment path: a retry after success returns the same entry. NotFound if the range was
   * trimmed meanwhile. Claimed if GC has claimed the segment's path. Replaced WAL chunks
   * count down their object's live count; an object at zero is retired.
   * With a fence (the segmenter's lease), applies only while that lease is at the fence's
   * epoch (FenceMismatch), checked in the same transaction: a segmenter that lost its lease
   * can no longer replace entries — not even the segment a newer segmenter swapped in, whose
   * readers would then race GC for it.
   */
  swapSegment(swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }>;

  /**
   * Moves a partition's logStart forward to `logStart` (never backward: a lower value is a
   * no-op) and removes the entries that end at or below it. Idempotent. Returns the head.
   * With a fence (the retention task's lease), the move applies only while that lease is
   * at the fence's epoch (FenceMismatch); a repeat of a move that applied is still a no-op.
   */
  trimPartition(
    ns: NamespaceId,
    stream: StreamId,
    partition: number,
    logStart: Offset,
    opts?: { fence?: Fence } & WriteContext,
  ): Promise<PartitionHead>;

  /** Whether any index entry of the stream still references this segment path. */
  segmentReferenced(ns: NamespaceId, stream: StreamId, path: string): Promise<boolean>;

  /** WAL objects whose every chunk was segmented or trimmed, not yet claimed by GC. */
  retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>>;

  // ---------------------------------------------------------------- Dirty sets (spec §5.4)
  // Optional: a backend that keeps the per-partition due record offers both calls (see
  // hasDirtySets); workers on one that does not poll the collections they own instead.

  /**
   * Partition heads whose maintenance is due at or before `before` (a stamp), in (due, ns,
   * stream, partition) order, one page at a time (the cursor is the last item's dueCursor).
   * commitWal makes a partition due at once (due 0) in the same transaction as its offsets,
   * so no commit is ever missing from this set. Cluster-wide: a sharded store merges shards.
   */
  dueHeads?(before: Stamp, page?: PageRequest): Promise<Page<DueHead>>;

  /**
   * Sets when a partition's maintenance is next due (`due`, a stamp; null: nothing pending),
   * only while its mark is still `mark` (no commit since the worker read it): true when it
   * applied, false when a commit came in meanwhile (the partition stays due now) or the head
   * is gone. Idempotent. Leaves offsets, entries and the catalog untouched.
   */
  settleHead?(ns: NamespaceId, stream: StreamId, partition: number, mark: number, due: Stamp | null): Promise<boolean>;

  // ---------------------------------------------------------------- Pointers

  /**
   * Compare-and-swap: applies only if the pointer is at `expectedVersion` (null: only if it
   * does not exist), else VersionMismatch carrying the current version. Versions are dense.
   * With a fence, applies only while the fence's lease is at that epoch (FenceMismatch).
   * A key that names a collection's link (linkPointerKey) also requires the collection to be
   * live (NotFound). Claimed if GC has claimed `value`'s path. The old value's reference is
   * released, the new one taken.
   */
  casPointer(
    ns: NamespaceId,
    key: string,
    expectedVersion: number | null,
    value: string,
    opts?: { fence?: Fence } & WriteContext,
  ): Promise<Pointer>;

  pointer(ns: NamespaceId, key: string): Promise<Pointer | null>;

  /**
   * One version of a link pointer from its history (spec §3.3, D38): the value it held and
   * when it was superseded (null: still current). The history keeps every version
   * superseded less than the collection's manifestRetentionMs ago — the record createTag
   * and GC both judge retention on. null for a version never written or pruned (superseded
   * longer ago than the retention); only link keys are promised a history.
   * A backend may still return a version superseded past the retention that it has not
   * pruned yet: callers judge on `superseded`.
   */
  pointerVersion(ns: NamespaceId, key: string, version: number): Promise<PointerVersion | null>;

  // ---------------------------------------------------------------- Leases

  /**
   * Takes the lease if it is free, released, or expired (its deadline is below `stamp`,
   * spec §3.2); a takeover increments the epoch. The current owner acquiring again extends
   * it at the same epoch. Held by another owner: LeaseHeld.
   */
  acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease>;

  /** Extends the deadline while owner and epoch match and it has not expired; else FenceMismatch. */
  renewLease(
    scope: LeaseScope,
    key: string,
    owner: string,
    epoch: number,
    ttlMs: number,
    w?: WriteContext,
  ): Promise<Lease>;

  /** Frees the lease, keeping its epoch. Idempotent; a stale epoch or owner is FenceMismatch. */
  releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void>;

  lease(scope: LeaseScope, key: string): Promise<Lease | null>;

  // ---------------------------------------------------------------- Tags

  /**
   * Tags a manifest version of a collection's pointer. Only a retained manifest may be
   * tagged: the current one, or one superseded less than manifestRetentionMs ago (judged on
   * the stamp) — otherwise NotFound. AlreadyExists if the tag name is taken.
   * The tag takes a reference on the manifest's path (Claimed if GC claimed it).
   */
  createTag(
    ns: NamespaceId,
    collection: CollectionId,
    name: string,
    manifestVersion: number,
    w?: WriteContext,
  ): Promise<Tag>;
  /** NotFound if the tag does not exist (a retry goes through its requestId). */
  dropTag(ns: NamespaceId, collection: CollectionId, name: string, w?: WriteContext): Promise<void>;
  listTags(ns: NamespaceId, collection: CollectionId, page?: PageRequest): Promise<Page<Tag>>;

  /**
   * Repoints a tag onto a rewritten copy of its manifest (spec §9.5: an erasure rewrites a
   * tagged manifest onto a purged copy; erasure wins over bit-exact reproducibility). Applies
   * only while the tag names `fromPath` (else VersionMismatch); the tag keeps its
   * manifestVersion (the version it was taken from) and records `rewrittenBy` (the erasure).
   * The reference moves from `fromPath` to `toPath` (Claimed if GC claimed `toPath`).
   * Repeating a rewrite that applied (the tag at `toPath`, by the same erasure) returns the tag.
   * NotFound if the collection or the tag does not exist.
   */
  rewriteTag(
    ns: NamespaceId,
    collection: CollectionId,
    name: string,
    fromPath: string,
    toPath: string,
    rewrittenBy: string,
    w?: WriteContext,
  ): Promise<Tag>;

  // ---------------------------------------------------------------- GC (spec §3.2.3)

  /**
   * Claims an object for deletion, atomically with the check that nothing references it.
   * After a claim, every call that would reference the path fails with Claimed, so a claim
   * and a new reference serialise: whichever commits first makes the other fail.
   * An existing claim (any owner, or a deleted tombstone) answers { claimed: false,
   * reason: 'claimed' }; a retry of the same call goes through its requestId instead.
   *
   * Recovery (a GC that died between claim and release): a claim made with a fence (GC's
   * lease; every fenced claim names the same lease) applies only while that lease is at the
   * fence's epoch (FenceMismatch), and records the epoch. A fenced claim takes over a claim
   * recorded at a lower epoch (or with none), and resumes one recorded by the same owner at
   * the same epoch: { claimed: true, takeover: true }. A deleted tombstone is never taken
   * over. The older claimant may still be deleting the object, so a claim taken over is
   * never given back: its new owner ends it with `deleted: true` (or leaves it to the next
   * epoch). Owners must differ between epochs, so an older claimant's release is NotFound.
   */
  claimObject(path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult>;

  /**
   * Ends a claim. `deleted: false` gives the object back (it may be referenced again);
   * `deleted: true` records that the object is gone, so the path stays unreferenceable.
   */
  releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void>;

  objectRef(path: string): Promise<ObjectRef | null>;

  // ---------------------------------------------------------------- Change feed (spec §5.4)

  /** Monotonic; bumped by catalog changes, never by commitWal, pointers or leases. */
  catalogVersion(): Promise<number>;

  /** Catalog changes after `version`, oldest first, at most `limit`. */
  changesSince(version: number, limit?: number): Promise<ChangesPage>;

  /**
   * Waits until a catalog change in `scope` after `since`, or `timeoutMs` (at most
   * MAX_WATCH_MS; more is InvalidArgument), or the signal aborts, or the store closes — the
   * last three resolve with { changed: false }, never reject. Never wakes on commitWal.
   */
  watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult>;
}

/** The name of a collection's implicit stream: '_' cannot start a user-chosen name. */
/** Whether a backend keeps the dirty set (dueHeads and settleHead). */
export function hasDirtySets(m: MetaStore): m is MetaStore & Required<Pick<MetaStore, 'dueHeads' | 'settleHead'>> {
  return typeof m.dueHeads === 'function' && typeof m.settleHead === 'function';
}

export function implicitStreamName(collection: string): string {
  return `_c_${collection}`;
}

/** The pointer key of a collection's link: its value names the current manifest. */
export function linkPointerKey(link: number): string {
  return `link/${link}`;
}

/** Parses a link pointer key; null for any other key. */
export function parseLinkPointerKey(key: string): number | null {
  const m = /^link\/(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

export type { AssignedRange, Stamp };

// Entities and plain-data arguments of the MetaStore contract (DESIGN §2.1).
// Every value here is JSON-serialisable: no classes, functions or handles (spec §8).

/** Dense integer ids from per-kind counters, never reused, unsharded (spec §10, D70). */
export type NamespaceId = number;
export type StreamId = number;
export type CollectionId = number;
export type LinkId = number;
export type Offset = number;

/**
 * A proposer's stamp: milliseconds since the epoch, max(local clock, last observed stamp).
 * Stamps are bounded-skew, not one monotonic clock (spec §3.2).
 */
export type Stamp = number;

export type EntityState = 'live' | 'dropping';

export interface Namespace {
  id: NamespaceId;
  org: string;
  name: string;
  state: EntityState;
  created: Stamp;
}

export interface Retention {
  /** Keep records at most this long; null = forever. */
  ms: number | null;
  /** Keep at most this many bytes per partition; null = unbounded. */
  bytes: number | null;
}

export interface Stream {
  ns: NamespaceId;
  id: StreamId;
  name: string;
  partitions: number;
  retention: Retention;
  /** The stream a collection owns (its write-ahead log); dropped only with the collection. */
  implicit: boolean;
  state: EntityState;
  created: Stamp;
}

export type FieldType = 'string' | 'number' | 'boolean' | 'json';

export interface CollectionSchema {
  primaryKey: string;
  fields: Record<string, FieldType>;
}

export interface Collection {
  ns: NamespaceId;
  id: CollectionId;
  name: string;
  schema: CollectionSchema;
  schemaVersion: number;
  streamId: StreamId;
  linkId: LinkId;
  partitions: number;
  /** Superseded manifests stay retained (and taggable) this long (D38). */
  manifestRetentionMs: number;
  state: EntityState;
  created: Stamp;
}

export interface Link {
  ns: NamespaceId;
  id: LinkId;
  streamId: StreamId;
  collectionId: CollectionId;
  state: EntityState;
}

export interface Aliases {
  ns: NamespaceId;
  /** One version for the whole map; 0 before the first update. */
  version: number;
  aliases: Record<string, CollectionId>;
}

export type AliasAction = { op: 'set'; alias: string; collection: CollectionId } | { op: 'remove'; alias: string };

/** A partition's head. A missing head means next = 0, logStart = 0, bytes = 0 (heads are lazy). */
export interface PartitionHead {
  partition: number;
  /** The next offset to assign: the high watermark. */
  next: Offset;
  /** The lowest offset still in the index (moved forward by trimPartition). */
  logStart: Offset;
  /** Bytes currently indexed in the partition. */
  bytes: number;
}

export type IndexEntryKind = 'wal' | 'segment';

/** One index entry: offsets [start, end) of a partition live at path[byteStart, byteEnd). */
export interface IndexEntry {
  partition: number;
  start: Offset;
  end: Offset;
  kind: IndexEntryKind;
  path: string;
  byteStart: number;
  byteEnd: number;
  records: number;
}

export interface Pointer {
  ns: NamespaceId;
  key: string;
  /** Dense: 1 for the first value, +1 per successful casPointer. */
  version: number;
  /** An object path (for a collection's link: its current manifest). */
  value: string;
  stamp: Stamp;
}

/** One version from a link pointer's history (contract: pointerVersion). */
export interface PointerVersion {
  version: number;
  value: string;
  /** The stamp of the casPointer that replaced it; null while it is current. */
  superseded: Stamp | null;
}

export interface Lease {
  scope: LeaseScope;
  key: string;
  /** null once released. */
  owner: string | null;
  /** Grows by one at every takeover; never reused (fences compare it). */
  epoch: number;
  /** Expires when a proposer's stamp passes it (spec §3.2). */
  deadline: Stamp;
}

/** A namespace's leases route with the namespace; cluster leases (GC, node registry) with the catalog (spec §10). */
export type LeaseScope = NamespaceId | 'cluster';

/** A fence on a lease epoch: a fenced write applies only while the lease is at this epoch. */
export interface Fence {
  scope: LeaseScope;
  key: string;
  epoch: number;
}

export interface Tag {
  ns: NamespaceId;
  collection: CollectionId;
  name: string;
  manifestVersion: number;
  manifestPath: string;
  created: Stamp;
  /** Set when an erasure rewrote the tagged manifest (spec §9.5). */
  rewrittenBy: string | null;
}

export interface ObjectRef {
  path: string;
  refs: number;
  claim: { owner: string; stamp: Stamp } | null;
}

export type ClaimResult =
  | { claimed: true; path: string; owner: string; stamp: Stamp; takeover?: boolean }
  | { claimed: false; path: string; reason: 'referenced' | 'claimed'; refs: number };

// ---- WAL commits (spec §3.1) ----

/** One chunk of a WAL object: the records of one (namespace, stream, partition). */
export interface WalChunk {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  records: number;
  /** Byte range of the chunk inside the WAL object. */
  byteStart: number;
  byteEnd: number;
}

export interface WalCommit {
  /** The WAL object's path: the idempotency key with the group number. */
  object: string;
  /** When the object was created; commits older than the window are StaleCommit (D27). */
  objectStamp: Stamp;
  chunks: WalChunk[];
}

/** The offsets one chunk was given: [start, end). */
export interface AssignedRange {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  start: Offset;
  end: Offset;
  /** The partition group that committed this chunk. */
  group: number;
}

export interface WalCommitResult {
  object: string;
  /** In the order of the request's chunks. */
  assigned: AssignedRange[];
  groups: number;
}

/** A segment replaces a contiguous run of a partition's entries [start, end) (spec §2.3). */
export interface SegmentSwap {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  start: Offset;
  end: Offset;
  path: string;
  byteStart: number;
  byteEnd: number;
}

// ---- Reads ----

export interface StreamState {
  stream: Stream;
  /** One head per partition, in partition order; missing heads read as zero. */
  heads: PartitionHead[];
}

export interface CollectionHead {
  collection: Collection;
  /** Read first (spec §3.3); null before the first manifest. */
  pointer: Pointer | null;
  /** Read after the pointer, so they can only be ahead of the manifest's applied offsets. */
  heads: PartitionHead[];
}

export interface PartitionIndex {
  partition: number;
  logStart: Offset;
  next: Offset;
  /** Contiguous, gap-free, starting at max(from, logStart) (spec §3.3). */
  entries: IndexEntry[];
  /** Set when more entries follow: pass it as `from` for the next page. */
  nextFrom?: Offset;
}

// ---- Pagination (spec §5.4) ----

export interface PageRequest {
  /** Only names starting with this. */
  prefix?: string;
  /** An opaque cursor from the previous page's `next`. */
  after?: string;
  /** Items per page; default DEFAULT_PAGE_LIMIT, at most MAX_PAGE_LIMIT. */
  limit?: number;
}

export interface Page<T> {
  items: T[];
  /** Present when more items follow. */
  next?: string;
}

// ---- Change feed (spec §5.4) ----

export type ChangeKind =
  | 'namespace.created'
  | 'namespace.dropped'
  | 'collection.created'
  | 'collection.dropped'
  | 'collection.schema'
  | 'aliases'
  | 'stream.created'
  | 'stream.dropped'
  | 'stream.retention';

export interface CatalogChange {
  version: number;
  ns: NamespaceId;
  kind: ChangeKind;
  /** The collection or stream id the change is about, when there is one. */
  id: number | null;
  stamp: Stamp;
}

export interface ChangesPage {
  changes: CatalogChange[];
  /** The catalog version this page reaches: pass it to the next changesSince. */
  version: number;
  more: boolean;
  /**
   * Set when `version` was below the feed's horizon (spec §5.4, core/feed.ts): changes up to
   * the horizon were compacted to the newest change of each namespace, so some changes after
   * `version` are gone. Re-read the catalog of every namespace the pages name, then go on.
   */
  resync?: true;
}

/** A namespace's catalog, or every namespace's. */
export type WatchScope = { ns: NamespaceId } | 'catalog';

export interface WatchResult {
  /** The catalog version when the watch returned. */
  version: number;
  /** Whether a change in scope happened after `since`. */
  changed: boolean;
  /** Set when `since` was below the feed's horizon: read changesSince, which says resync too. */
  resync?: true;
}

// ---- Dirty sets (spec §5.4) ----

/**
 * A partition head whose maintenance is due: the dirty set workers are driven by (spec §5.4).
 * commitWal marks a partition it appends to due at once; a worker that maintained it sets
 * when it is next due (settleHead), or clears it.
 */
export interface DueHead {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  /** Bumped by every commitWal chunk on the partition: settleHead applies only while it is unchanged. */
  mark: number;
  /** When maintenance is due, a backend stamp; 0: new commits (due now). */
  due: Stamp;
}

// ---- Capabilities (spec §3.4) ----

export interface Capabilities {
  /** multi-item transactions, or single-item conditional writes only (Alternator, spec §4.1). */
  transactions: 'multi-item' | 'single-item';
  /** Composite reads are snapshots (true) or follow their documented read order (false). */
  snapshotReads: boolean;
  /** Chunks one partition group commits atomically (DynamoDB: 32). */
  maxChunksPerGroup: number;
  /** WAL entries one swapSegment may replace (DynamoDB: about 45). */
  maxSwapEntries: number;
  changeFeed: 'push' | 'poll';
}

/** Every write's context: the proposer's stamp and an idempotency key for retries. */
export interface WriteContext {
  /** max(local clock, last observed stamp); defaults to the backend's clock. */
  stamp?: Stamp;
  /**
   * Idempotency key. A retry with the same key returns the first attempt's result without
   * applying again (commit-token row, ClientRequestToken). Keys live REQUEST_TOKEN_TTL_MS.
   */
  requestId?: string;
}

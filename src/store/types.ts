// The object-store contract (DESIGN §4, spec §4.4): bytes live in a bucket, a folder or
// memory; the metastore orders them. Every argument and result is plain data.
//
// Paths are relative keys such as `ns/12/wal/000001.wal` (see path.ts for the rules).
// ETags are opaque strings in double quotes, as S3 returns them; compare them only for
// equality and pass them back in `ifMatch`.

/**
 * A byte range of an object.
 *
 * - `{ start, end? }`: bytes [start, end): `end` is exclusive; without `end`, to the end of
 *   the object. `end` past the object's end is clamped to it (as S3 does). `start` at or
 *   past the end of the object (including any start on an empty object) is InvalidRange.
 * - `{ suffix }`: the last `suffix` bytes (all of them when the object is shorter).
 *   On an empty object it is InvalidRange (RFC 9110 §14.1.2: unsatisfiable).
 *
 * Malformed ranges (negative or non-integer numbers, `end <= start`, `suffix < 1`) are
 * InvalidRange before any request is made.
 */
export type ByteRange = { start: number; end?: number } | { suffix: number };

export interface GetOptions {
  range?: ByteRange;
}

export interface GetResult {
  /** The bytes of the object, or of the range. */
  bytes: Buffer;
  /** The ETag of the whole object (the same for every range). */
  etag: string;
  /** The size of the whole object, not of the range. */
  size: number;
  /** The range served, [start, end) with `end` exclusive, when a range was asked for. */
  range?: { start: number; end: number };
}

export interface HeadResult {
  etag: string;
  size: number;
}

/** Conditional put (spec §4.4): create-only, compare-and-swap on the ETag, or unconditional. */
export type PutCondition =
  | { ifNoneMatch: '*'; ifMatch?: undefined }
  | { ifMatch: string; ifNoneMatch?: undefined }
  | { ifNoneMatch?: undefined; ifMatch?: undefined };

export interface PutResult {
  etag: string;
}

export interface ListOptions {
  /** Return only paths strictly after this one (a previous page's `next`). */
  after?: string;
  /** Page size, LIST_PAGE_MIN..LIST_PAGE_MAX. */
  limit: number;
}

export interface ObjectInfo {
  path: string;
  size: number;
  etag: string;
}

export interface ListPage<T> {
  /** In ascending byte order of the UTF-8 path. */
  items: T[];
  /** Present when more may follow: pass it as `after` to get the next page. */
  next?: string;
}

export interface ListVersionsOptions {
  /** An opaque cursor from a previous page's `next`. */
  after?: string;
  limit: number;
}

/** One version or delete marker of an object in a versioned bucket (spec §9.9). */
export interface ObjectVersion {
  path: string;
  versionId: string;
  /** Whether this is the current version (or the current delete marker). */
  isLatest: boolean;
  /** A delete marker holds no bytes; it too must be deleted by version for erasure. */
  deleteMarker: boolean;
  /** 0 for delete markers. */
  size: number;
  /** Absent for delete markers. */
  etag?: string;
}

export interface StoreCapabilities {
  /** The provider's name: memory, file, s3. */
  provider: string;
  /**
   * The bucket may keep old versions (spec §9.9): listVersions / deleteVersion work, and a
   * plain delete leaves the bytes behind. Without it they throw Unsupported. An S3 store
   * reports what the bucket last said (`versioning()` asks it), true until it was asked.
   */
  versioning: boolean;
  /** ifNoneMatch / ifMatch puts are atomic. */
  conditionalPut: boolean;
  /** The conditions hold across processes (and hosts, for S3) sharing the store. */
  crossProcess: boolean;
  /** Large objects and streams are uploaded in parts (S3 multipart). */
  multipart: boolean;
  /** An acknowledged put survives a crash of the writing process (and, for file, of the host). */
  durable: boolean;
  /** The longest path in UTF-8 bytes: MAX_PATH_BYTES, less an S3 store's key prefix. */
  maxPathBytes: number;
}

/** A source for putStream: any async iterable of byte chunks (a Node Readable is one). */
export type ByteSource = AsyncIterable<Uint8Array>;

export interface Store {
  capabilities(): StoreCapabilities;

  /** Read an object or a byte range of it. NotFound when missing; InvalidRange per ByteRange. */
  get(path: string, opts?: GetOptions): Promise<GetResult>;

  /** The ETag and size of an object. NotFound when missing. */
  head(path: string): Promise<HeadResult>;

  /**
   * Write a whole object. `{ ifNoneMatch: '*' }` fails with AlreadyExists when the key
   * exists; `{ ifMatch }` fails with PreconditionFailed when the current ETag differs or the
   * key is missing. Objects over MULTIPART_THRESHOLD_BYTES are uploaded in parts where the
   * provider has them, under the same condition. A provider does not keep or read `bytes`
   * once the call has settled (callers reuse their build buffers).
   */
  put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult>;

  /** Write an object from a stream of chunks (multipart on S3), under the same conditions as put. */
  putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult>;

  /**
   * Whether the bucket keeps versions (enabled, or suspended with old versions left): asked
   * of the bucket (S3: GetBucketVersioning, at most every VERSIONING_CHECK_MS), since it can
   * be turned on at any time. `purge` uses it to delete an object's bytes for good.
   */
  versioning(): Promise<boolean>;

  /** Delete an object. A missing key is fine. On a versioned bucket this adds a delete marker (see purge). */
  delete(path: string): Promise<void>;

  /** One page of the objects whose path starts with `prefix` ('' for all). */
  list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>>;

  /** One page of every version and delete marker under `prefix` (spec §9.9). Unsupported without versioning. */
  listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>>;

  /** Delete one version or delete marker for good (spec §9.9). A missing version is fine. Unsupported without versioning. */
  deleteVersion(path: string, versionId: string): Promise<void>;

  /** Release sockets, timers and handles. The store must not be used afterwards. */
  close(): Promise<void>;
}

/** The names of the Store's request methods, used by the wrappers. */
export type StoreMethod = 'get' | 'head' | 'put' | 'putStream' | 'delete' | 'list' | 'listVersions' | 'deleteVersion';

export const STORE_METHODS: readonly StoreMethod[] = [
  'get',
  'head',
  'put',
  'putStream',
  'delete',
  'list',
  'listVersions',
  'deleteVersion',
];

/** Methods that change the store. */
export const WRITE_METHODS: ReadonlySet<StoreMethod> = new Set(['put', 'putStream', 'delete', 'deleteVersion']);

// Named limits of the object-store layer (DESIGN §4, DESIGN §7: every limit is a named
// constant with its reason). Providers may be configured tighter, never looser.

/** S3's key limit is 1024 bytes of UTF-8; every provider keeps it so paths move between providers. */
export const MAX_PATH_BYTES = 1024;
/** One path segment; most filesystems refuse names over 255 bytes (file provider, spec §4.4). */
export const MAX_SEGMENT_BYTES = 255;
/** S3's ListObjectsV2 returns at most 1000 keys per page; every provider pages the same way. */
export const LIST_PAGE_MAX = 1000;
/** The smallest page a caller may ask for. */
export const LIST_PAGE_MIN = 1;

/** Objects larger than this go through a multipart upload on S3 (buffered puts). */
export const MULTIPART_THRESHOLD_BYTES = 16 * 1024 * 1024;
/**
 * Part size of a multipart upload: S3 needs at least 5 MiB for every part but the last, and
 * allows 10,000 parts, so a streamed object may be up to 10,000 × this (about 78 GiB).
 */
export const MULTIPART_PART_BYTES = 8 * 1024 * 1024;
/** S3's smallest allowed part (all parts but the last). */
export const S3_MIN_PART_BYTES = 5 * 1024 * 1024;
/** Parts in flight at once for one upload: bounds memory at this × part size. */
export const MULTIPART_CONCURRENCY = 4;

/** One S3 request (excluding multipart uploads) must finish within this. */
export const S3_REQUEST_DEADLINE_MS = 30_000;
/** How long an S3 store trusts the bucket's versioning status before it asks again. */
export const VERSIONING_CHECK_MS = 60_000;
/** Version-listing pages one purge reads per round (an object GC deletes has one or two versions). */
export const MAX_PURGE_PAGES = 100;
/** Delete-then-list rounds of one purge before it gives up (versions written meanwhile). */
export const MAX_PURGE_ROUNDS = 3;
/** Opening a TCP connection to the S3 endpoint. */
export const S3_CONNECT_TIMEOUT_MS = 5_000;
/** A whole multipart upload: this base plus S3_UPLOAD_MS_PER_MIB per MiB of object. */
export const S3_UPLOAD_DEADLINE_BASE_MS = 60_000;
export const S3_UPLOAD_MS_PER_MIB = 1_000;
/** SDK-level attempts for idempotent requests (reads, unconditional puts, deletes, lists). */
export const S3_MAX_ATTEMPTS = 3;
/**
 * Conditional puts get exactly one attempt: an SDK retry after a lost response would meet
 * its own first write and report a false AlreadyExists / PreconditionFailed. The caller
 * gets Retryable with outcomeUnknown instead and resolves it by reading.
 */
export const S3_CONDITIONAL_MAX_ATTEMPTS = 1;
/** A truncated S3 listing page with no keys is followed at most this many times. */
export const S3_EMPTY_PAGE_FOLLOWS = 16;

/** File provider: how long a writer waits for another process's per-key lock (spec §4.4). */
export const FILE_LOCK_WAIT_DEADLINE_MS = 10_000;
/**
 * File provider: a lock file older than this is stale and may be broken. A holder does
 * only a hash of the current object and a rename under the lock, so holds are short;
 * a holder that finds it has held the lock this long gives up instead of committing.
 */
export const FILE_LOCK_STALE_MS = 30_000;
/** File provider: a holder refuses to commit after holding the lock this long (margin below stale). */
export const FILE_LOCK_MAX_HOLD_MS = 20_000;
/** File provider: the breaker lock (taken to break a stale lock) is itself stale after this. */
export const FILE_LOCK_BREAKER_STALE_MS = 5_000;
/** File provider: first and largest back-off between lock attempts. */
export const FILE_LOCK_BACKOFF_MIN_MS = 2;
export const FILE_LOCK_BACKOFF_MAX_MS = 100;
/** File provider: temp files older than this are a crashed writer's and are swept at open. */
export const FILE_TMP_STALE_MS = 60 * 60 * 1000;
/** File provider: at most this many temp files are swept per open (a bound on start-up work). */
export const FILE_TMP_SWEEP_MAX = 10_000;
/** File provider: a put retries a rename that lost a race with directory cleanup at most this often. */
export const FILE_RENAME_ATTEMPTS = 5;
/** File provider: ETags are cached per file identity; at most this many entries per store. */
export const FILE_ETAG_CACHE_MAX = 10_000;

/** Memory provider: the largest object it will hold (it is for tests and single-process dev). */
export const MEMORY_MAX_OBJECT_BYTES = 1024 * 1024 * 1024;

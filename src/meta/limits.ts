// Named limits of the metastore contract, each with its reason. Backends may declare
// tighter limits in capabilities(); none may accept more.

/** Names (namespaces, collections, streams, tags, aliases, orgs): short enough for keys and paths. */
export const MAX_NAME_LENGTH = 63;
/** Letters, digits, '_' and '-', starting with a letter or digit: safe in URLs, paths and DynamoDB keys. */
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
export const NAME_RULE = `1-${MAX_NAME_LENGTH} characters of A-Z a-z 0-9 _ -, starting with a letter or digit`;
/** Field names a query filter takes: documents' own fields may be longer than names. */
export const MAX_FIELD_NAME_LENGTH = 128;
/**
 * The one rule for field names in filters: every name a collection's schema may hold
 * (NAME_PATTERN, its primary key included, "1id" too) and document fields such as "_id".
 */
export const FIELD_NAME_PATTERN = new RegExp(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,${MAX_FIELD_NAME_LENGTH - 1}}$`);
export const FIELD_NAME_RULE = `1-${MAX_FIELD_NAME_LENGTH} characters of A-Z a-z 0-9 _ -, not starting with -`;

/** Object paths in the bucket (S3 keys may be 1024 bytes). */
export const MAX_PATH_LENGTH = 1024;
/** Pointer keys and lease keys. */
export const MAX_KEY_LENGTH = 256;
export const KEY_PATTERN = /^[A-Za-z0-9_.:/-]+$/;
/** Owner and requestId strings (node ids, UUIDs). */
export const MAX_TOKEN_STRING_LENGTH = 128;

/** Partitions per stream: heads are created lazily, so this bounds streamState reads (spec §2.3). */
export const MAX_PARTITIONS = 10_000;
/** Fields in a collection schema. */
export const MAX_SCHEMA_FIELDS = 256;
/** Alias actions per updateAliases call: one DynamoDB item, one version (spec §2.3). */
export const MAX_ALIAS_ACTIONS = 100;
/** Namespaces one createNamespaces call creates at most (one transaction per shard). */
export const MAX_BULK_NAMESPACES = 1_000;
/** Collections one createNamespaces call creates at most, over all its namespaces. */
export const MAX_BULK_COLLECTIONS = 4_000;
/** Chunks in one WAL commit: a WAL object of a flush; groups split it further (spec §3.1). */
export const MAX_WAL_CHUNKS = 10_000;

/** Default and maximum page size of every list (spec §5.4: default 100, at most 1,000). */
export const DEFAULT_PAGE_LIMIT = 100;
export const MAX_PAGE_LIMIT = 1_000;
/** Entries per partitionIndex page. */
export const MAX_INDEX_PAGE = 1_000;

/** Bound on proposer clock skew (spec §3.2; §10 §2 default 5 min). */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000;
/** A WAL object may be committed within this window of its creation (D27: 15 min). */
export const WAL_COMMIT_WINDOW_MS = 15 * 60_000;
/** Commit records are pruned only after 2·window + maxClockSkew (spec §3.2.2: 35 min). */
export const WAL_COMMIT_RECORD_TTL_MS = 2 * WAL_COMMIT_WINDOW_MS + MAX_CLOCK_SKEW_MS;
/** Idempotency (commit-token) rows live as long as a retry can still arrive. */
export const REQUEST_TOKEN_TTL_MS = WAL_COMMIT_RECORD_TTL_MS;
/**
 * A collection's log (its implicit stream) keeps records this long by default, and never
 * what a retained manifest still has to apply (the workers' retention): 24 h of log beyond
 * applied, as a grace for readers and for a restore. Set per collection with setRetention.
 */
export const DEFAULT_COLLECTION_LOG_RETENTION_MS = 24 * 3_600_000;
/** Superseded manifests stay retained this long by default (D38: 24 h of time travel). */
export const DEFAULT_MANIFEST_RETENTION_MS = 24 * 3_600_000;
/** Upper bound on a collection's manifest retention (10 years). */
export const MAX_MANIFEST_RETENTION_MS = 10 * 365 * 86_400_000;
/** Aliases per namespace: the map is one row, one DynamoDB item (spec §2.3). */
export const MAX_ALIASES = 1_000;
/** Index entries one janitor call deletes at most, so one transaction stays short. */
export const JANITOR_BATCH_ENTRIES = 2_000;
/** Lease time-to-live bounds: long enough to renew, short enough to take over. */
export const MIN_LEASE_TTL_MS = 100;
export const MAX_LEASE_TTL_MS = 3_600_000;
/** The longest a watch() call may wait before it returns with no change. */
export const MAX_WATCH_MS = 60_000;
/**
 * Rows one namespace move copies at most (spec §5.5: a namespace's metadata is small). The
 * copy is read from one snapshot and written in one transaction, so it is held in memory
 * once: about 300 bytes a row, 60 MB at the bound. A larger namespace is refused before
 * anything is fenced for long (LimitExceeded); segmenting its log shrinks it.
 */
export const MAX_MOVE_ROWS = 200_000;

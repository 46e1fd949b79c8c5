// The ControlStore (spec §6): orgs, API keys, role bindings, quotas, usage rollups and a
// change feed. It is an interface separate from the data-plane MetaStore, so the hosted
// control plane can later serve it remotely (spec §8): every argument and result is plain
// data, and errors are MetaError with a typed code, which crosses gRPC as is.

/** An org (tenant and billing unit). Its id is its name (NAME_PATTERN): the MetaStore keys namespaces by it. */
export interface Org {
  id: string;
  created: number;
}

/**
 * An API key as stored: never the secret, only sha256(secret) (hex). `scopes` narrow what the
 * key's role bindings allow: 'read', 'write', 'admin' (all three: ['*']), and 'ns:<name>'
 * entries restricting the key to those namespaces.
 */
export interface ApiKeyRecord {
  keyId: string;
  org: string;
  secretHash: string;
  scopes: string[];
  /** Epoch ms after which the key is refused; null: never expires. */
  expiry: number | null;
  createdBy: string;
  created: number;
  lastUsed: number | null;
  /** Epoch ms of revocation; a revoked key is refused at once. */
  revoked: number | null;
}

/** An API key as listed: everything but the hash. */
export type ApiKeyInfo = Omit<ApiKeyRecord, 'secretHash'>;

/** The roles of an org's keys, grantable by the org's admins. */
export const ROLES = ['org_admin', 'namespace_admin', 'writer', 'reader'] as const;
export type TenantRole = (typeof ROLES)[number];

/**
 * The deployment's own admin: creates orgs and sets their quotas, and reads no org's data. Its
 * keys belong to OPERATOR_ORG, which no tenant can name (tenant org names start with a letter
 * or digit), and the role is bound nowhere else, so no org key can hold or grant it.
 */
export const OPERATOR_ROLE = 'operator';
export const OPERATOR_ORG = '_operator';
export type RoleName = TenantRole | typeof OPERATOR_ROLE;

/** Where a role is granted: the whole org, or one namespace (by id: a recreated namespace inherits nothing). */
export type BindingTarget = { kind: 'org' } | { kind: 'namespace'; ns: number };

export interface RoleBinding {
  org: string;
  /** 'key:<key_id>' (users come with OIDC, later). */
  subject: string;
  role: RoleName;
  target: BindingTarget;
  created: number;
}

/** Quota names (spec §6's table). */
export const QUOTA_NAMES = [
  'request_rate',
  'ingest_bytes_per_s',
  'concurrent_query_slots',
  'namespace_query_slots',
  'unapplied_records',
  'unapplied_bytes',
  'storage_bytes',
  'metadata_ops_rate',
] as const;
export type QuotaName = (typeof QUOTA_NAMES)[number];

/**
 * The values an override may take (checked on every backend; a stored value outside them is
 * read as the nearest bound). The minimums keep every route usable: no rate or slot quota can
 * lock an org out, and a drained collection always takes a write.
 */
export const MIN_RATE = 1;
export const MAX_RATE = 1_000_000_000;
export const MIN_INGEST_BYTES_PER_S = 1024;
export const MAX_INGEST_BYTES_PER_S = 1024 ** 4;
export const MIN_QUERY_SLOTS = 1;
export const MAX_QUERY_SLOTS = 1_000_000;
export const MIN_UNAPPLIED_RECORDS = 1;
export const MAX_UNAPPLIED_RECORDS = 1_000_000_000;
export const MIN_UNAPPLIED_BYTES = 1024;
export const MAX_UNAPPLIED_BYTES = 1024 ** 4;
/** 0: the namespace takes no more writes (reads and drops still work). */
export const MIN_STORAGE_BYTES = 0;
export const MAX_STORAGE_BYTES = 2 ** 50;

export interface QuotaBounds {
  min: number;
  max: number;
  /** Counts of slots, records and bytes are whole numbers; rates need not be. */
  integer: boolean;
}
export const QUOTA_BOUNDS: Record<QuotaName, QuotaBounds> = {
  request_rate: { min: MIN_RATE, max: MAX_RATE, integer: false },
  ingest_bytes_per_s: { min: MIN_INGEST_BYTES_PER_S, max: MAX_INGEST_BYTES_PER_S, integer: true },
  concurrent_query_slots: { min: MIN_QUERY_SLOTS, max: MAX_QUERY_SLOTS, integer: true },
  namespace_query_slots: { min: MIN_QUERY_SLOTS, max: MAX_QUERY_SLOTS, integer: true },
  unapplied_records: { min: MIN_UNAPPLIED_RECORDS, max: MAX_UNAPPLIED_RECORDS, integer: true },
  unapplied_bytes: { min: MIN_UNAPPLIED_BYTES, max: MAX_UNAPPLIED_BYTES, integer: true },
  storage_bytes: { min: MIN_STORAGE_BYTES, max: MAX_STORAGE_BYTES, integer: true },
  metadata_ops_rate: { min: MIN_RATE, max: MAX_RATE, integer: false },
};

/** A per-org (ns null) or per-namespace override of one quota's default. */
export interface QuotaOverride {
  org: string;
  ns: number | null;
  name: QuotaName;
  value: number;
}

/** One usage rollup: a metric of a namespace (or the org, ns null) over a window. */
export interface UsageRollup {
  org: string;
  ns: number | null;
  metric: string;
  /** Start of the window (epoch ms, aligned to the rollup's period); 0 for a gauge (latest value). */
  window: number;
  value: number;
  updated: number;
}

/** An increment of one counter rollup. */
export interface UsageDelta {
  org: string;
  ns: number | null;
  metric: string;
  window: number;
  delta: number;
}

export type ControlChangeKind = 'org' | 'key' | 'binding' | 'quota' | 'nskey';

export { MAX_NAMESPACE_KEY_VERSIONS, type NamespaceKeyRecord } from '../crypto/types.js';
import type { NamespaceKeyRecord } from '../crypto/types.js';

/** One change-feed entry: what changed, so caches drop exactly that (spec §6: revocations pushed). */
export interface ControlChange {
  version: number;
  kind: ControlChangeKind;
  org: string;
  /** The key id for 'key', the subject for 'binding', '' otherwise. */
  id: string;
  at: number;
}

export interface ControlCapabilities {
  /** 'multi-item': an entity and its change-feed entry commit together. 'single-item': they do
   *  not (alternator): a crash between them leaves a change unannounced, so caches rely on
   *  their TTL (30–60 s) for it. */
  transactions: 'multi-item' | 'single-item';
  /** Versions of the feed are dense and appear in order ('ordered'), or may appear out of
   *  order for a moment ('gaps'), which watchers wait out (CHANGE_GAP_WAIT_MS). */
  feedOrder: 'ordered' | 'gaps';
}

export interface Page<T> {
  items: T[];
  next?: string;
}

export interface PageRequest {
  after?: string;
  limit?: number;
}

/**
 * One entry of the authorization outbox (spec §7): a relation of a key that changed, written
 * in the same transaction as the key or binding change (a ControlStore opened with
 * `outbox: true`). `relation` is 'member' (the key belongs to `org`) or a role bound on
 * `target` ('org', or 'ns:<id>'). The drainer makes OpenFGA's tuple follow what the
 * ControlStore holds now, then removes the entry.
 */
export interface OutboxEntry {
  seq: number;
  org: string;
  subject: string;
  relation: string;
  target: string;
  at: number;
}

/** How a ControlStore is opened. */
export interface ControlOptions {
  /** Record an OutboxEntry with every key and binding change (the OpenFGA authorizer drains them). */
  outbox?: boolean;
}

/** Outbox entries per outbox() answer, at most. */
export const MAX_OUTBOX_PAGE = 100;
/** Names of background jobs whose position the ControlStore keeps (jobPosition). */
export const JOB_NAME_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;
/** A job's saved position, at most this many characters (an OpenFGA continuation token fits). */
export const MAX_JOB_POSITION_LENGTH = 4_096;

export interface ControlStore {
  capabilities(): ControlCapabilities;
  /** Creates tables or items the store needs (idempotent). */
  init(): Promise<void>;
  /** Releases what this handle opened itself (a shared connection is left open). */
  close(): Promise<void>;

  createOrg(id: string, at?: number): Promise<Org>;
  org(id: string): Promise<Org>;
  listOrgs(page?: PageRequest): Promise<Page<Org>>;

  /** Stores a key record (AlreadyExists if the key id is taken). */
  createKey(rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): Promise<ApiKeyInfo>;
  /** The record including the hash, for verification; NotFound if unknown. */
  key(keyId: string): Promise<ApiKeyRecord>;
  listKeys(org: string, page?: PageRequest): Promise<Page<ApiKeyInfo>>;
  /** Marks the key revoked (idempotent); NotFound if it is not the org's. */
  revokeKey(org: string, keyId: string, at?: number): Promise<void>;
  /** Bounded batch of last_used updates (no change-feed entry: no cache depends on it). */
  touchKeys(touches: { keyId: string; at: number }[]): Promise<void>;

  /** Grants (idempotent). */
  grant(b: Omit<RoleBinding, 'created'>): Promise<RoleBinding>;
  /** Revokes (idempotent). */
  revokeGrant(b: Omit<RoleBinding, 'created'>): Promise<void>;
  /** Bindings of one subject in one org. */
  bindings(org: string, subject: string): Promise<RoleBinding[]>;
  listBindings(org: string, page?: PageRequest): Promise<Page<RoleBinding>>;
  /** Removes every binding and quota override on a namespace (lifecycle: the namespace was dropped). */
  dropNamespaceBindings(org: string, ns: number): Promise<void>;

  /** Sets (value) or clears (null) an override. */
  setQuota(org: string, ns: number | null, name: QuotaName, value: number | null): Promise<void>;
  /** Every override of an org (org-wide and per namespace). */
  quotas(org: string): Promise<QuotaOverride[]>;

  /** Writes rollups (upsert by org, ns, metric, window): gauges, such as stored bytes. */
  putUsage(rows: Omit<UsageRollup, 'updated'>[], at?: number): Promise<void>;
  /**
   * Adds to rollups (a missing one starts at 0): counters, such as requests, that several
   * gateways count into the same window. Each row's add is atomic; a batch is not.
   */
  addUsage(rows: UsageDelta[], at?: number): Promise<void>;
  /**
   * An org's rollups in (namespace, metric, window) order, the org's own (ns null) first, at
   * most `limit` (MAX_USAGE_ROWS); `after` (usageCursor of the last row of the previous page)
   * goes on after that row.
   */
  usage(org: string, opts?: { metric?: string; since?: number; limit?: number; after?: string }): Promise<UsageRollup[]>;

  /**
   * Gateway membership (spec §6: each gateway's share of a quota is quota ÷ gateways until
   * the router places buckets at their owner): records that `node` is alive until at + ttlMs.
   * Later heartbeats extend it; none moves it backwards. No change-feed entry. `info` (at
   * most MAX_MEMBER_INFO_BYTES, opaque here: the router's roles, zone, weight and address,
   * spec §5.3) replaces the node's last when given; a heartbeat without it keeps it.
   */
  heartbeat(node: string, ttlMs: number, at?: number, info?: string): Promise<void>;
  /** The nodes alive at `at` (heartbeat not expired), by id, at most MAX_MEMBERS. */
  members(at?: number): Promise<Member[]>;
  /** Ends a node's membership at once (a clean shutdown); idempotent. */
  leave(node: string): Promise<void>;

  /** The oldest undelivered outbox entries, in seq order, at most `limit` (MAX_OUTBOX_PAGE). */
  outbox(limit?: number): Promise<OutboxEntry[]>;
  /** Removes delivered entries (idempotent; unknown seqs are ignored). */
  ackOutbox(seqs: number[]): Promise<void>;

  /**
   * Where a cluster-wide background job (one holder, under a lease) stopped, as it saved it;
   * null if it never saved one. A restarted or new holder resumes there (the OpenFGA
   * reconcile's position, spec §7).
   */
  jobPosition(job: string): Promise<string | null>;
  /** Saves (or, with null, clears) a job's position; the last save wins. */
  saveJobPosition(job: string, position: string | null, at?: number): Promise<void>;

  /** Stores a new KEK version of a namespace (create-only: AlreadyExists if that version exists). */
  createNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord>;
  /** A namespace's KEK versions, oldest first (empty: the namespace is not encrypted). */
  namespaceKeys(ns: number): Promise<NamespaceKeyRecord[]>;
  /**
   * Crypto-shredding (spec §9.8): marks every version destroyed and clears its wrapped KEK,
   * with a change-feed entry (kind 'nskey', id the namespace) so nodes drop their copies. Idempotent.
   */
  destroyNamespaceKeys(ns: number, at?: number): Promise<void>;
  /** Stores a new erasure-log key version (AlreadyExists if the org has that version). */
  putErasureKey(k: ErasureKeyRecord): Promise<void>;
  /** Every key version of an org, oldest first. */
  erasureKeys(org: string): Promise<ErasureKeyRecord[]>;
  /** Clears every key version of an org (idempotent): the count destroyed now. */
  destroyErasureKeys(org: string, at?: number): Promise<number>;

  /** Creates an erasure row (version 1); a retry with the same id returns the row as stored. */
  createErasure(row: Omit<ErasureRow, 'version'>): Promise<ErasureRow>;
  /** NotFound if unknown. */
  erasure(id: string): Promise<ErasureRow>;
  /** Replaces phase, completed and data if the row is at `expectedVersion` (else VersionMismatch). */
  updateErasure(id: string, expectedVersion: number, next: Pick<ErasureRow, 'phase' | 'completed' | 'data'>): Promise<ErasureRow>;
  /** Erasures by id, of one org or all; `active`: only those not completed. */
  listErasures(o: { org?: string; active?: boolean; after?: string; limit?: number }): Promise<Page<ErasureRow>>;

  /** The latest change-feed version (0 before any change). */
  controlVersion(): Promise<number>;
  /** Changes with version > `after`, in version order, at most `limit`. */
  changesSince(after: number, limit?: number): Promise<ControlChange[]>;
}

/**
 * One version of an org's erasure-log key (spec §9.6): the HMAC key its erasure records'
 * key hashes are made with, stored only wrapped by the deployment's key-encryption key.
 * Rotation adds a version; destroying the org's keys clears `wrapped` for good, which makes
 * every hash made with them unlinkable.
 */
export interface ErasureKeyRecord {
  org: string;
  version: number;
  /** The wrapped key (base64); '' once destroyed. */
  wrapped: string;
  created: number;
  destroyed: number | null;
}

/**
 * One erasure request and its progress (spec §9.1–§9.7), as the ControlStore keeps it. The
 * erasure module owns `data` (JSON: key hashes, offsets, counts, objects); the store only
 * keeps it, and `version` makes every update a compare-and-swap.
 */
export interface ErasureRow {
  id: string;
  org: string;
  ns: number;
  collection: number;
  phase: string;
  requested: number;
  /** Set when the erasure completed. */
  completed: number | null;
  version: number;
  data: string;
}

/** Erasure rows per listErasures page, at most. */
export const MAX_ERASURE_PAGE = 100;
/** Erasure ids: `er_` and hex. */
export const ERASURE_ID_PATTERN = /^er_[0-9a-f]{8,64}$/;
/** An erasure row's data: its key hashes (MAX_ERASE_KEYS of 64 hex digits) and object lists; fits a DynamoDB item (400 KB). */
export const MAX_ERASURE_DATA_BYTES = 350 * 1024;

/** A live node: its id and when its membership ends unless renewed (ms since the epoch). */
export interface Member {
  node: string;
  expires: number;
  /** What the node's last heartbeat with info said about it ('' when none did). */
  info: string;
}

/** Members listed at most (every loop a bound): a cluster larger than this counts as this. */
export const MAX_MEMBERS = 1_000;
/** A heartbeat's lifetime, at most: a node silent longer than this is gone. */
export const MAX_MEMBER_TTL_MS = 600_000;
/** A member's info, at most (UTF-8 bytes): a few roles, a zone, a weight and a URL. */
export const MAX_MEMBER_INFO_BYTES = 1_024;
/** Node ids: what `loam` names nodes (node_id or host, and a per-start suffix). */
export const NODE_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

/** Changes per changesSince page. */
export const MAX_CHANGES_PAGE = 1_000;
/**
 * Quota overrides an org holds at most (org-wide and per namespace together): quotas() answers
 * all of them in one read, which every gateway caches per org.
 */
export const MAX_QUOTA_OVERRIDES = 1_000;
/** Usage rows per usage() answer. */
export const MAX_USAGE_ROWS = 1_000;
/** last_used touches per touchKeys call. */
export const MAX_TOUCH_BATCH = 100;
/** Change-feed entries are kept this long; a watcher further behind reloads its caches whole. */
export const CHANGE_RETENTION_MS = 24 * 3_600_000;
/** Scopes of a key: the three action classes, or ns:<name> restrictions. */
export const SCOPE_PATTERN = /^(\*|read|write|admin|ns:[A-Za-z0-9][A-Za-z0-9_-]{0,62})$/;
/** Scopes per key. */
export const MAX_SCOPES = 32;

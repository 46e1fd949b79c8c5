// The directory (spec §5.2): org → namespaces, and namespace → {id, shard, state, size
// class}. Nothing about streams or collections (D75). It lives in the ControlStore's
// database (src/control/directory implements this interface on every ControlStore backend);
// the sharded metastore only sees this interface, so the metastore layer knows no ControlStore.
//
// Versioned as a delta chain: every change raises the directory version by one and stamps the
// entries it wrote with that version, so "the entries with a version above v" is exactly the
// chain after v, compacted to each entry's newest state. A node holds a version and asks for
// what changed after it (changesSince), long-polling with waitVersion.
//
// Ids (spec §10): namespace ids are allocated here, densely and once for the whole cluster,
// in the same transaction that reserves the (org, name): the directory is the one store every
// shard's namespaces pass through, and the name must be reserved cluster-wide anyway (names
// are unique within an org, and an org's namespaces are spread over shards).
//
// The cluster catalog feed (spec §5.4) is kept here too: each shard's own feed is copied in
// order into one cluster feed with dense versions (the "pump", ./feed.ts), so a watcher
// resumes from one number whatever the shard count.
import type { CatalogChange, NamespaceId, Page, PageRequest } from '../../types.js';

/**
 * creating: reserved, not yet created on its shard (a crashed create is finished or undone
 * by the next create of the name). live: served by `shard`. moving: a move is copying it
 * (the moves step). dropped: dropped on its shard; the name is free, the entry keeps the
 * shard so a janitor still reaches it.
 */
export type PlacementState = 'creating' | 'live' | 'moving' | 'dropped';
export const PLACEMENT_STATES: readonly PlacementState[] = ['creating', 'live', 'moving', 'dropped'];

/** Size classes of spec §5.3: small namespaces place by ns alone, large ones per object. */
export type SizeClass = 'small' | 'large';
export const SIZE_CLASSES: readonly SizeClass[] = ['small', 'large'];
/**
 * A namespace with more streams than this is large (spec §5.3): its collections and stream
 * partitions place each by its own key, spreading the namespace's work over nodes. At or
 * below it the namespace is small and places by ns alone, so one node warms all its objects.
 * Streams count both kinds: each collection has one (its implicit stream). A namespace is
 * never made small again automatically (its keys would move twice); an operator can.
 */
export const LARGE_NAMESPACE_STREAMS = 32;

/** The size class of a namespace with `streams` live streams (collections' implicit streams included). */
export function sizeClassFor(streams: number): SizeClass {
  return streams > LARGE_NAMESPACE_STREAMS ? 'large' : 'small';
}

export interface DirectoryEntry {
  id: NamespaceId;
  org: string;
  name: string;
  /** The shard's name (config `metastore.shards`). */
  shard: string;
  state: PlacementState;
  sizeClass: SizeClass;
  /** The directory version of this entry's last change: the compare-and-swap version. */
  version: number;
  /**
   * The requestId of the create whose reservation made the entry, where it had one: that
   * create's retries are its own, any other create of the name finds the name held.
   */
  reservedBy?: string;
}

export interface ShardRecord {
  name: string;
  /** Where it is, without credentials (postgres://host:5432/db, sqlite:/path, dynamodb:table). */
  identity: string;
  /** Order of addition: the first shard (seq 1) is the home of cluster leases and other paths. */
  seq: number;
  added: number;
}

export interface DirectoryChanges {
  /** Entries changed after the asked version, by version, each in its newest state. */
  entries: DirectoryEntry[];
  /** The version this page reaches. */
  version: number;
  more: boolean;
}

/** A shard feed's copy position in the cluster feed. */
export interface FeedCursor {
  shard: string;
  /** The shard's own catalog version copied up to. */
  shardVersion: number;
}

export interface ClusterFeedPage {
  /** Changes with cluster versions, oldest first. */
  changes: CatalogChange[];
  /** The cluster feed's version this page reaches. */
  version: number;
  more: boolean;
  /** The highest cluster version below which changes may have been compacted. */
  horizon: number;
}

export interface EntryChange {
  shard?: string;
  state?: PlacementState;
  sizeClass?: SizeClass;
}

/** One name to reserve (reserveMany). */
export interface Reservation {
  org: string;
  name: string;
  shard: string;
  sizeClass: SizeClass;
}

/** One entry to change (updateEntries). */
export interface EntryUpdate {
  ns: NamespaceId;
  expectedVersion: number;
  change: EntryChange;
}

export interface DirectoryStore {
  /** Creates the tables or items (idempotent). */
  init(): Promise<void>;
  close(): Promise<void>;

  /** The directory version (0 before any change). */
  version(): Promise<number>;

  /**
   * Reserves (org, name) in one transaction: if no entry other than a dropped one holds the
   * name, allocates the next namespace id and records {id, shard, state: 'creating'} at the
   * next version (created: true); else returns the entry that holds it (created: false).
   * `reservedBy`: the create's requestId, kept in the entry (at most MAX_TOKEN_STRING_LENGTH).
   */
  reserve(org: string, name: string, shard: string, sizeClass: SizeClass, reservedBy?: string): Promise<{ entry: DirectoryEntry; created: boolean }>;

  /**
   * Optional, for the bulk create (the sharded createNamespaces): reserves every name of
   * `items` in one transaction, all or none, as `reserve` would one by one (ids and versions
   * in order, each entry 'creating'). A name an entry that is not dropped holds refuses the
   * whole call: AlreadyExists carrying that entry's id — unless every name is held by entries
   * reserved with this `reservedBy` (the call's own earlier attempt): those entries are
   * returned as they are. At most MAX_BULK_NAMESPACES items. Without it the sharded store
   * calls `reserve` per name.
   */
  reserveMany?(items: Reservation[], reservedBy?: string): Promise<DirectoryEntry[]>;

  entry(ns: NamespaceId): Promise<DirectoryEntry | null>;
  /** The entry holding (org, name): any state but dropped. */
  entryByName(org: string, name: string): Promise<DirectoryEntry | null>;
  /** Entries of an org (dropped ones left out), by name; cursor: the name. */
  listEntries(org: string, page?: PageRequest): Promise<Page<DirectoryEntry>>;

  /**
   * Changes an entry if it is at `expectedVersion` (VersionMismatch with the current version
   * otherwise; NotFound for an unknown id). This is how a move flips a namespace's shard:
   * one write, checked against the version the mover read.
   */
  updateEntry(ns: NamespaceId, expectedVersion: number, change: EntryChange): Promise<DirectoryEntry>;

  /**
   * Optional, for the bulk create: `updateEntry` for each of `updates` in one transaction, all
   * or none (the first VersionMismatch or NotFound refuses them all). At most
   * MAX_BULK_NAMESPACES updates. Without it the sharded store calls `updateEntry` per entry.
   */
  updateEntries?(updates: EntryUpdate[]): Promise<DirectoryEntry[]>;

  /**
   * Optional: ids of the large namespaces (not dropped) above `after`, ascending, at most
   * `limit` (MAX_DIRECTORY_PAGE). A node reads them at start (spec §5.3: placement reads the
   * size class); without it a node learns a namespace is large from the entries it reads
   * and the changes after its start.
   */
  largeNamespaces?(after: NamespaceId, limit: number): Promise<NamespaceId[]>;

  /** Entries changed after `version`, oldest first, at most `limit` (MAX_DIRECTORY_PAGE). */
  changesSince(version: number, limit?: number): Promise<DirectoryChanges>;

  /**
   * Long poll: resolves with the directory version as soon as it is above `since`, else at
   * `timeoutMs` (at most MAX_DIRECTORY_WAIT_MS) or the signal, never rejecting for those.
   */
  waitVersion(since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<number>;

  /** Records a shard (idempotent for the same identity; AlreadyExists for another identity). */
  addShard(name: string, identity: string, at?: number): Promise<ShardRecord>;
  /** Every shard, by seq. */
  shards(): Promise<ShardRecord[]>;

  // ---- the cluster catalog feed (./feed.ts)

  /** Every shard's copy position (a shard never copied is absent: position 0). */
  feedCursors(): Promise<FeedCursor[]>;
  /**
   * Appends a shard's changes, in order, after the cluster feed's newest, if the shard's
   * cursor is still `from` (false: another node copied them first; nothing written), and
   * moves the cursor to `to`. `resync`: the shard's feed had compacted changes after `from`,
   * so the cluster horizon rises to the feed's version before these changes.
   */
  appendFeed(shard: string, from: number, to: number, changes: CatalogChange[], resync: boolean): Promise<boolean>;
  /** The cluster feed's newest version and its horizon. */
  feedVersion(): Promise<{ version: number; horizon: number }>;
  /** Cluster changes after `version`, at most `limit`; `ns` narrows to one namespace. */
  feedSince(version: number, limit: number, ns?: NamespaceId): Promise<ClusterFeedPage>;
}

/** Changes one appendFeed takes at most (a DynamoDB transaction holds 100 items: a change and its namespace's mark each). */
export const MAX_FEED_APPEND = 48;
/** Entries per changesSince page. */
export const MAX_DIRECTORY_PAGE = 1_000;
/** The longest one waitVersion may wait. */
export const MAX_DIRECTORY_WAIT_MS = 60_000;
/** How often a polling waitVersion looks again. */
export const DIRECTORY_POLL_MS = 100;

// Namespace moves at the storage of one metastore shard (spec §5.5, §3.5; docs/sharding.md
// "Moves"). A move copies a namespace's metadata from one shard to another — bulk bytes stay
// where they are, under ns/<id>/ in the bucket — and this is what a shard must offer for it.
// It is not part of the MetaStore contract: only a sharded store moves namespaces, and it
// finds these calls on a shard handle with hasMoveStorage() (a capability, never a name).
//
// The fence. A namespace row carries a move state and a move epoch. While it is fenced,
// every write to the namespace — on this shard's storage, in the write's own transaction,
// wherever the backend already checks that the namespace is live — is refused with
// Retryable('namespace-fenced'): nothing was written, and the caller retries, by then
// routed to wherever the directory says. Reads go on. Epochs only grow: fencing at an
// epoch below the row's is FenceMismatch, so a resumed or second move cannot undo a newer
// one. Once the move has flipped, the source is retired (one write of the namespace row:
// from then on every call naming the namespace there answers NamespaceMoved — the caller
// refreshes its directory and retries on the new shard — while its rows are still there),
// and its rows are removed afterwards, in bounded batches, outside the fenced window; the
// row stays as a tombstone ('moved').
//
// The pre-copy. A move copies the rows while writes go on, then fences and copies only what
// changed: trackNamespace starts recording, in every write's own transaction, the key of each
// of the namespace's rows that changes (a trigger per moved table on SQL backends, so no write
// path can bypass it); a full copy is read from a snapshot taken after tracking began and
// imported; after the fence, exportNamespaceChanges reads the current rows at every recorded
// key (absent: deleted) and importNamespaceChanges replaces those keys on the target. Every
// change after tracking began is recorded, every change before it is in the snapshot, so the
// target ends equal to the source, and the fenced window holds only the delta.
//
// What moves (NamespaceRows): everything keyed by the namespace — the namespace, its streams,
// collections, links and aliases (dropping ones too: the janitor goes on at the target), its
// partition heads and index entries, pointers and their history, its leases (same owners and
// epochs, so a worker's fence stays valid across the move), its tags, and the reference and
// GC-claim rows of its own objects (paths under ns/<id>/). The WAL objects its index entries
// point into are cluster-level: they stay where they are, and the shard's live count for
// each moves with the entries (the target counts them up at import, the source down at
// removal, spec §5.2), and the commit-token rows of its writes (a write acknowledged before
// the fence, retried on the target with its requestId, finds its result there and applies
// nothing twice). What does not move: WAL commit records (see
// docs/sharding.md for what that means for a commit retried across a move), catalog
// changes (the target records one change for the arrival) and id counters (ids are
// cluster-wide; the target's counters are raised past the imported ids all the same).
import type { MetaStore } from './contract.js';
import type { Collection, IndexEntry, Link, Namespace, NamespaceId, Pointer, Stream, Tag } from './types.js';

/**
 * A namespace's move state on one shard: writable; writable with its changes recorded for a
 * pre-copy ('tracking'); fenced at an epoch; moved away with its rows still to be removed
 * ('retired': every call answers NamespaceMoved, as for 'moved'); or moved away.
 */
export type MoveState = 'open' | 'tracking' | 'fenced' | 'retired' | 'moved';

/** Whether calls naming the namespace on this shard answer NamespaceMoved. */
export function isMovedAway(s: MoveState | 'absent'): boolean {
  return s === 'retired' || s === 'moved';
}

export interface NamespaceMoveState {
  ns: NamespaceId;
  /** 'absent': this shard holds no row for the namespace (never held it, or discarded a copy). */
  state: MoveState | 'absent';
  /** The highest move epoch this shard has seen for the namespace; 0 before any move. */
  epoch: number;
}

/** Rows a move copies, in a backend-neutral shape (an embedded shard can move to Postgres). */
export interface NamespaceRows {
  format: 1;
  namespace: Namespace;
  streams: Stream[];
  collections: Collection[];
  links: Link[];
  aliases: { version: number; map: Record<string, number> } | null;
  /**
   * `mark` is the dirty set's (core/due.ts): carried so that a settle with a mark read before
   * the move still means the same commits on the target (absent from older copies: 0).
   */
  heads: Array<{ stream: number; partition: number; next: number; logStart: number; bytes: number; mark?: number }>;
  index: Array<IndexEntry & { stream: number }>;
  pointers: Pointer[];
  pointerHistory: Array<{ key: string; version: number; value: string; superseded: number | null }>;
  /** The namespace's leases (scope = the namespace). */
  leases: Array<{ key: string; owner: string | null; epoch: number; deadline: number }>;
  tags: Tag[];
  /** Commit tokens of the namespace's writes (core/tokens.ts): `result` is the stored answer. */
  tokens: Array<{ id: string; op: string; result: unknown; stamp: number }>;
  /** Reference and GC-claim rows of the namespace's own objects (paths under ns/<id>/). */
  objects: Array<{
    path: string;
    kind: string;
    refs: number;
    claimOwner: string | null;
    claimStamp: number | null;
    claimEpoch: number | null;
    deleted: boolean;
    retired: number | null;
  }>;
}

/** The row count of a copy, for progress and the MAX_MOVE_ROWS bound. */
export function rowCount(r: NamespaceRows): number {
  return (
    1 +
    r.streams.length +
    r.collections.length +
    r.links.length +
    (r.aliases ? 1 : 0) +
    r.heads.length +
    r.index.length +
    r.pointers.length +
    r.pointerHistory.length +
    r.leases.length +
    r.tags.length +
    r.tokens.length +
    r.objects.length
  );
}

/** The kinds of rows a move copies: the array fields of NamespaceRows (the namespace row aside). */
export type RowKind = Exclude<keyof NamespaceRows, 'format' | 'namespace'>;

/**
 * Each kind's key: the fields that name one row within the namespace (every backend's primary
 * key, in entity field names). A delta names changed rows by these.
 */
export const ROW_KEYS = {
  streams: ['id'],
  collections: ['id'],
  links: ['id'],
  aliases: [],
  heads: ['stream', 'partition'],
  index: ['stream', 'partition', 'start'],
  pointers: ['key'],
  pointerHistory: ['key', 'version'],
  leases: ['key'],
  tags: ['collection', 'name'],
  tokens: ['id'],
  objects: ['path'],
} as const satisfies Record<RowKind, readonly string[]>;

export const ROW_KINDS = Object.keys(ROW_KEYS) as RowKind[];

/**
 * What changed in a namespace since its changes began to be recorded (trackNamespace): per
 * kind, the key of every row that was inserted, updated or deleted (values in ROW_KEYS
 * order), and the current rows at those keys — a key without a row was deleted.
 */
export interface NamespaceDelta {
  format: 1;
  /** The namespace row now (its state and name as the source holds them). */
  namespace: Namespace;
  changed: Record<RowKind, unknown[][]>;
  rows: NamespaceRows;
}

/** The row count of a delta: changed keys, for progress and the MAX_MOVE_ROWS bound. */
export function deltaCount(d: NamespaceDelta): number {
  return 1 + ROW_KINDS.reduce((n, k) => n + d.changed[k].length, 0);
}

/** What a shard offers for moves. Every call is one transaction; every call is idempotent. */
export interface NamespaceMoveStorage {
  moveState(ns: NamespaceId): Promise<NamespaceMoveState>;
  /**
   * Starts recording the namespace's changes at `epoch` (state 'tracking'; writes go on): from
   * this call's commit on, every write that changes one of its rows records that row's key in
   * the same transaction. A no-op if tracking or fenced at `epoch`; a lower or lifted epoch is
   * FenceMismatch. NotFound if the namespace is absent or dropping here.
   */
  trackNamespace(ns: NamespaceId, epoch: number): Promise<NamespaceMoveState>;
  /**
   * Fences the namespace at `epoch`: from this call's commit on, every write to it is refused
   * (Retryable 'namespace-fenced'). A write in flight either committed before, or is refused.
   * Fencing again at the same epoch is a no-op, as is fencing a namespace tracking at it; a
   * lower epoch, or the epoch of a fence already lifted, is FenceMismatch. NotFound if the
   * namespace is absent or dropping here. Recorded changes are kept.
   */
  fenceNamespace(ns: NamespaceId, epoch: number): Promise<NamespaceMoveState>;
  /**
   * Lifts the fence (or the tracking) of `epoch` and forgets the recorded changes. A no-op if
   * already lifted at that epoch; another epoch is FenceMismatch.
   */
  unfenceNamespace(ns: NamespaceId, epoch: number): Promise<NamespaceMoveState>;
  /**
   * The namespace's rows, from one snapshot. InvalidArgument unless it is fenced or tracking
   * (what changes after a tracking snapshot is recorded, and copied by the delta).
   */
  exportNamespace(ns: NamespaceId): Promise<NamespaceRows>;
  /**
   * The rows changed since tracking began, from one snapshot. InvalidArgument unless fenced
   * (the delta must hold still); a namespace fenced without tracking has recorded nothing,
   * and its mover copies it whole.
   */
  exportNamespaceChanges(ns: NamespaceId): Promise<NamespaceDelta>;
  /**
   * The catch-up before the fence: the rows changed since tracking began (or since the last
   * take), in one write transaction that forgets the keys it returns, so every change after it
   * is recorded again (writes go on). Copied to the target, it leaves the fenced delta only
   * what changed since. FenceMismatch unless tracking at `epoch`; NotFound if absent or dropping.
   */
  takeNamespaceChanges(ns: NamespaceId, epoch: number): Promise<NamespaceDelta>;
  /**
   * Applies a delta to this shard's copy fenced at `epoch`, in one transaction: every changed
   * key is replaced by the delta's row, or removed. FenceMismatch unless the copy here is
   * fenced at `epoch`. Claimed if GC claimed a WAL object a new entry points into.
   */
  importNamespaceChanges(delta: NamespaceDelta, epoch: number): Promise<NamespaceMoveState>;
  /**
   * Writes a copy, fenced at `epoch`, replacing any earlier partial copy or tombstone of the
   * namespace here, in one transaction. AlreadyExists if this shard holds the namespace
   * unfenced (it is not the target of a move), FenceMismatch if fenced at another epoch.
   * Claimed if GC claimed a WAL object the copy's entries point into.
   */
  importNamespace(rows: NamespaceRows, epoch: number): Promise<NamespaceMoveState>;
  /**
   * Retires the source after the flip, in one write of the namespace row: fenced at `epoch`
   * becomes 'retired' (its rows stay until removeNamespaceCopy; every call naming the
   * namespace here answers NamespaceMoved from this call's commit on). A no-op if retired or
   * moved at `epoch`; FenceMismatch unless fenced at it.
   */
  retireNamespace(ns: NamespaceId, epoch: number): Promise<NamespaceMoveState>;
  /**
   * Removes the namespace's rows while fenced or retired at `epoch`. tombstone: keep a 'moved'
   * row, so every later call answers NamespaceMoved (the source, after the flip); a fenced
   * copy is retired in the same transaction. `limit`: remove at most that many rows in this
   * call (a retired source is removed in batches, so no transaction holds its shard long);
   * the state stays 'retired' while rows remain, and is 'moved' once none does. Without
   * tombstone: forget the copy entirely, in one call (a target whose copy is abandoned).
   * Idempotent.
   */
  removeNamespaceCopy(ns: NamespaceId, epoch: number, opts: { tombstone: boolean; limit?: number }): Promise<NamespaceMoveState>;
  /** The namespaces retired here whose rows are still to be removed (at most `limit`, by id): what a restarted cleanup resumes. */
  retiredNamespaces(limit: number): Promise<NamespaceMoveState[]>;
}

export const MOVE_STORAGE_METHODS = [
  'moveState',
  'trackNamespace',
  'fenceNamespace',
  'unfenceNamespace',
  'exportNamespace',
  'importNamespace',
  'exportNamespaceChanges',
  'takeNamespaceChanges',
  'importNamespaceChanges',
  'retireNamespace',
  'removeNamespaceCopy',
  'retiredNamespaces',
] as const satisfies ReadonlyArray<keyof NamespaceMoveStorage>;

/**
 * Why a shard handle cannot take part in a move (null: it can), by its capabilities, never
 * its name. A move needs a fence that every write to the namespace checks in its own
 * transaction, and the calls above; single-item conditional writes (the Alternator profile)
 * cannot check a fence kept in another item atomically with the write, so a write racing
 * the fence could commit unseen by the copy.
 */
export function whyNoMoves(store: MetaStore): string | null {
  if (hasMoveStorage(store)) return null;
  if (store.capabilities().transactions === 'single-item') {
    return 'its backend offers only single-item conditional writes, so a write cannot check a namespace move fence kept in another item in the same transaction (a write racing the fence could be lost from the copy)';
  }
  return "its backend does not offer the namespace move calls (src/meta/moves.ts): its writes check no namespace move fence, and it cannot export, import or track a namespace's rows";
}

/** Whether a shard handle offers moves. */
export function hasMoveStorage(store: MetaStore): store is MetaStore & NamespaceMoveStorage {
  const s = store as unknown as Record<string, unknown>;
  return MOVE_STORAGE_METHODS.every((m) => typeof s[m] === 'function');
}

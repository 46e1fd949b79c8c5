// The namespace fence and the rules of a shard's move calls (spec §5.5, src/meta/moves.ts),
// once. A dialect reads the namespace row (its state, move state and move epoch) inside the
// call's transaction, calls the rule, and writes what it says.
import type { MetaStore } from '../contract.js';
import { errors, isMetaError } from '../errors.js';
import { MAX_MOVE_ROWS } from '../limits.js';
import { deltaCount, isMovedAway, rowCount, type MoveState, type NamespaceDelta, type NamespaceMoveState, type NamespaceMoveStorage, type NamespaceRows } from '../moves.js';
import type { IndexEntry, NamespaceId, WalChunk } from '../types.js';

/** A namespace row as the fence rules read it. `state` is the row's: live, dropping or moved (a tombstone). */
export interface FenceRow {
  state: string;
  moveState: string | null;
  moveEpoch: number;
}

/**
 * The namespace's move state from its row (null: no row). A retired source is a row moved
 * away whose fence is still up: state 'moved', move state 'fenced' until its rows are removed.
 */
export function moveStateOf(ns: NamespaceId, row: FenceRow | null): NamespaceMoveState {
  if (!row) return { ns, state: 'absent', epoch: 0 };
  const state: MoveState =
    row.state === 'moved'
      ? row.moveState === 'fenced'
        ? 'retired'
        : 'moved'
      : row.moveState === 'fenced'
        ? 'fenced'
        : row.moveState === 'tracking'
          ? 'tracking'
          : 'open';
  return { ns, state, epoch: row.moveEpoch };
}

/** Whether the row is a retired source: moved away, its rows not yet all removed. */
export function isRetired(row: FenceRow | null): boolean {
  return row !== null && row.state === 'moved' && row.moveState === 'fenced';
}

/**
 * The fence every write checks, in its own transaction, wherever it already checks that the
 * namespace is live (spec §5.5). A fenced namespace refuses the write (Retryable
 * 'namespace-fenced': nothing written); a moved one answers NamespaceMoved. No row: the
 * write's own check answers (NotFound).
 */
export function checkWritable(ns: NamespaceId, row: FenceRow | null): void {
  if (!row) return;
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState === 'fenced') throw errors.namespaceFenced(ns, row.moveEpoch);
}

/** The namespace of an object path under ns/<id>/ (spec §10), or null for cluster-level objects (WAL). */
export function namespaceOfPath(path: string): NamespaceId | null {
  const m = /^ns\/(\d+)\//.exec(path);
  return m ? Number(m[1]) : null;
}

/** The distinct namespaces of a commit group's chunks, in order. */
export function namespacesOf(chunks: readonly Pick<WalChunk, 'ns'>[]): NamespaceId[] {
  const first = chunks[0]?.ns;
  // Most commit groups hold one namespace's chunks.
  if (chunks.every((c) => c.ns === first)) return first === undefined ? [] : [first];
  return [...new Set(chunks.map((c) => c.ns))].sort((a, b) => a - b);
}

/** trackNamespace: 'apply' (start recording at epoch) or 'noop' (tracking or fenced at it already); else the typed refusal. */
export function trackRule(ns: NamespaceId, row: FenceRow | null, epoch: number): 'apply' | 'noop' {
  if (!row || row.state === 'dropping') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState !== null && row.moveEpoch === epoch) return 'noop';
  if (epoch <= row.moveEpoch) throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
  return 'apply';
}

/** fenceNamespace: 'apply' (write fenced at epoch) or 'noop' (already fenced at it); else the typed refusal. */
export function fenceRule(ns: NamespaceId, row: FenceRow | null, epoch: number): 'apply' | 'noop' {
  if (!row || row.state === 'dropping') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState === 'fenced' && row.moveEpoch === epoch) return 'noop';
  if (row.moveState === 'tracking' && row.moveEpoch === epoch) return 'apply';
  if (epoch <= row.moveEpoch) {
    throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
  }
  return 'apply';
}

/**
 * unfenceNamespace: 'apply' (lift the fence or the tracking, forget the recorded changes), or
 * 'noop' when already lifted at this epoch; another epoch is FenceMismatch. A namespace that
 * is dropping may still be untracked (a drop during a pre-copy undoes the move).
 */
export function unfenceRule(ns: NamespaceId, row: FenceRow | null, epoch: number): 'apply' | 'noop' {
  if (!row) throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'dropping' && row.moveState !== 'tracking') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveEpoch !== epoch) throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
  return row.moveState === 'fenced' || row.moveState === 'tracking' ? 'apply' : 'noop';
}

/** exportNamespace: a fenced namespace's rows hold still; a tracking one's changes after the snapshot are recorded. */
export function checkExportable(ns: NamespaceId, row: FenceRow | null): void {
  if (!row || row.state === 'dropping') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState !== 'fenced' && row.moveState !== 'tracking') {
    throw errors.invalid('ns', `namespace ${ns} must be fenced (or its changes tracked) before its rows are copied`);
  }
}

/** exportNamespaceChanges: only a fenced namespace's delta holds still. */
export function checkChangesExportable(ns: NamespaceId, row: FenceRow | null): void {
  if (!row || row.state === 'dropping') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState !== 'fenced') throw errors.invalid('ns', `namespace ${ns} must be fenced before its changes are copied`);
}

/** takeNamespaceChanges: only a namespace tracking at the move's epoch (its changes go on being recorded). */
export function takeRule(ns: NamespaceId, row: FenceRow | null, epoch: number): void {
  if (!row || row.state === 'dropping') throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') throw errors.namespaceMoved(ns, row.moveEpoch);
  if (row.moveState !== 'tracking' || row.moveEpoch !== epoch) throw errors.fenceMismatch(`namespace ${ns} move tracking`, epoch, row.moveEpoch, null);
}

/** importNamespaceChanges: a delta applies only to a copy fenced at the move's epoch. */
export function changesImportRule(delta: NamespaceDelta, row: FenceRow | null, epoch: number): void {
  const ns = delta.namespace.id;
  if (delta.format !== 1) throw errors.invalid('delta.format', `unknown delta format ${String(delta.format)}; expected 1`);
  const n = deltaCount(delta);
  if (n > MAX_MOVE_ROWS) throw errors.limitExceeded('MAX_MOVE_ROWS', MAX_MOVE_ROWS, n);
  if (!row || row.state === 'moved' || row.moveState !== 'fenced' || row.moveEpoch !== epoch) {
    throw errors.fenceMismatch(`namespace ${ns} copy on the target shard`, epoch, row?.moveEpoch ?? 0, null);
  }
}

/**
 * The net change of each WAL object's live count when `before` entries are replaced by
 * `after` ones (a delta on the target; spec §5.2: the count is per shard). Zero nets omitted.
 */
export function walDeltas(before: readonly Pick<IndexEntry, 'kind' | 'path'>[], after: readonly Pick<IndexEntry, 'kind' | 'path'>[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of before) if (e.kind === 'wal') out.set(e.path, (out.get(e.path) ?? 0) - 1);
  for (const e of after) if (e.kind === 'wal') out.set(e.path, (out.get(e.path) ?? 0) + 1);
  for (const [p, n] of out) if (n === 0) out.delete(p);
  return out;
}

/**
 * importNamespace: whether a copy may be written over what the target holds. A live,
 * unfenced namespace here is refused (AlreadyExists: this shard is not the move's target);
 * a copy fenced at another epoch is FenceMismatch; a copy at this epoch or a tombstone is
 * replaced. The copy must fit MAX_MOVE_ROWS.
 */
export function importRule(rows: NamespaceRows, row: FenceRow | null, epoch: number): void {
  const ns = rows.namespace.id;
  if (rows.format !== 1) throw errors.invalid('rows.format', `unknown copy format ${String(rows.format)}; expected 1`);
  const n = rowCount(rows);
  if (n > MAX_MOVE_ROWS) throw errors.limitExceeded('MAX_MOVE_ROWS', MAX_MOVE_ROWS, n);
  if (!row || row.state === 'moved') return;
  if (row.moveState !== 'fenced') throw errors.alreadyExists(`namespace ${ns} on the target shard (unfenced)`, ns);
  if (row.moveEpoch !== epoch) throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
}

/** retireNamespace: 'apply' (fenced at `epoch`: the source after the flip), 'noop' when retired or moved at it already. */
export function retireRule(ns: NamespaceId, row: FenceRow | null, epoch: number): 'apply' | 'noop' {
  if (!row) throw errors.notFound(`namespace ${ns}`);
  if (row.state === 'moved') {
    if (row.moveEpoch !== epoch) throw errors.namespaceMoved(ns, row.moveEpoch);
    return 'noop';
  }
  if (row.moveState !== 'fenced' || row.moveEpoch !== epoch) {
    throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
  }
  return 'apply';
}

/** removeNamespaceCopy's `limit`: rows one call removes at most. */
export function checkRemoveLimit(limit: number | undefined): void {
  if (limit === undefined) return;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_MOVE_ROWS) {
    throw errors.invalid('limit', `limit must be an integer from 1 to ${MAX_MOVE_ROWS} (MAX_MOVE_ROWS); got ${String(limit)}`);
  }
}

/**
 * removeNamespaceCopy: 'apply', or 'noop' when already removed; only while fenced or retired
 * at `epoch` (a retired source's rows are removed in batches, so 'apply' again until none is left).
 */
export function removeRule(ns: NamespaceId, row: FenceRow | null, epoch: number, tombstone: boolean): 'apply' | 'noop' {
  if (!row) return 'noop';
  if (row.state === 'moved') {
    if (row.moveEpoch !== epoch) throw errors.namespaceMoved(ns, row.moveEpoch);
    return tombstone && !isRetired(row) ? 'noop' : 'apply';
  }
  if (row.moveState !== 'fenced' || row.moveEpoch !== epoch) {
    throw errors.fenceMismatch(`namespace ${ns} move fence`, epoch, row.moveEpoch, null);
  }
  return 'apply';
}

/** The copy's ids, so a target raises its counters past them (ids are cluster-wide, spec §10). */
export function maxIds(rows: NamespaceRows): Record<'namespace' | 'stream' | 'collection' | 'link', number> {
  const max = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), 0);
  return {
    namespace: rows.namespace.id,
    stream: max(rows.streams.map((s) => s.id)),
    collection: max(rows.collections.map((c) => c.id)),
    link: max(rows.links.map((l) => l.id)),
  };
}

/** The WAL live count the copy's entries hold, per WAL object (spec §5.2: per shard). */
export function walCounts(rows: Pick<NamespaceRows, 'index'>): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of rows.index) if (e.kind === 'wal') out.set(e.path, (out.get(e.path) ?? 0) + 1);
  return out;
}

// ---------------------------------------------------------------- reads of a moved namespace

/** Reads that name one namespace (first argument). */
const MOVED_READS = [
  'namespace',
  'collection',
  'collectionByName',
  'listCollections',
  'aliases',
  'stream',
  'listStreams',
  'partitionIndex',
  'streamState',
  'collectionHead',
  'segmentReferenced',
  'pointer',
  'pointerVersion',
  'listTags',
] as const;

/**
 * A shard handle whose reads of a moved namespace answer NamespaceMoved (spec §3.5). The
 * source is retired in one write after the flip, and its rows are removed afterwards in
 * batches (src/meta/moves.ts), so a read that found rows may have read a retired copy: every
 * read asks the shard after it whether the namespace moved away, and answers NamespaceMoved
 * if so. A check after the read that finds the namespace still here proves the read was
 * served before the retirement, when this copy still held every acknowledged write (nothing
 * is acknowledged between the fence and the target's unfence, which follows the retirement).
 * A read that failed (NotFound: the rows were already removed) is told the truth the same way.
 * Lease reads (scope = a namespace) are checked the same way.
 */
export function movedReads<S extends MetaStore & NamespaceMoveStorage>(store: S): S {
  const out = Object.create(store) as Record<string, unknown>;
  /** NamespaceMoved if the namespace moved away from this shard (read after the call). */
  const checkHere = async (ns: unknown): Promise<void> => {
    if (typeof ns !== 'number') return;
    const m = await store.moveState(ns);
    if (isMovedAway(m.state)) throw errors.namespaceMoved(ns, m.epoch);
  };
  /** A read that found nothing: NamespaceMoved if that is why, else its own error (also when the check fails). */
  const orMoved = async (ns: unknown, e: unknown): Promise<never> => {
    if (isMetaError(e, 'NotFound')) {
      await checkHere(ns).catch((x: unknown) => {
        if (isMetaError(x, 'NamespaceMoved')) throw x;
      });
    }
    throw e;
  };
  const target = store as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
  for (const method of MOVED_READS) {
    out[method] = async (...args: unknown[]) => {
      const r = await target[method]!.apply(store, args).catch((e: unknown) => orMoved(args[0], e));
      await checkHere(args[0]);
      return r;
    };
  }
  out.lease = async (scope: unknown, key: unknown) => {
    const r = await target.lease!.call(store, scope, key).catch((e: unknown) => orMoved(scope, e));
    await checkHere(scope);
    return r;
  };
  // Every other method, including the move calls, bound to the shard.
  for (let proto: object | null = store; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || Object.prototype.hasOwnProperty.call(out, name)) continue;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d && typeof d.value === 'function') out[name] = (d.value as (...a: unknown[]) => unknown).bind(store);
    }
  }
  return out as unknown as S;
}

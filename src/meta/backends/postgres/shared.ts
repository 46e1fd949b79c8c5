// Row helpers several concerns of the PostgreSQL backend share inside their transactions:
// id counters, the catalog change record, reference counts and namespace checks.
import { errors } from '../../errors.js';
import { checkWritable, namespaceOfPath } from '../../core/moves.js';
import { PG_TRACKING_SETTING } from '../sql/moves.js';
import type { ChangeKind, Fence } from '../../types.js';
import { scopeKey } from '../sql/rows.js';
import { SQL } from './sql.js';
import type { WriteTx } from './tx.js';

export async function nextIds(tx: WriteTx, kinds: Array<'namespace' | 'stream' | 'collection' | 'link'>): Promise<Record<string, number>> {
  const rows = await tx.q<{ kind: string; value: number }>(SQL.NEXT_IDS, [kinds]);
  return Object.fromEntries(rows.map((r) => [r.kind, r.value]));
}

/** A catalog change: the next catalog version (its row lock orders catalog commits) and a NOTIFY. */
export async function recordChange(tx: WriteTx, ns: number, kind: ChangeKind, id: number | null): Promise<void> {
  await tx.q(SQL.RECORD_CHANGE, [ns, kind, id, tx.stamp, String(ns)]);
}

/**
 * Changes reference counts in path order, in one upsert (spec §3.2.3). A positive delta
 * takes references and fails with Claimed if GC claimed or deleted the path; a negative one
 * releases them (a missing row is left alone), retiring a WAL object that reaches zero.
 */
export async function adjustRefs(tx: WriteTx, changes: Array<{ path: string; kind: string; delta: number }>): Promise<void> {
  const byPath = new Map<string, { kind: string; delta: number; adds: boolean }>();
  for (const c of changes) {
    const cur = byPath.get(c.path) ?? { kind: 'unknown', delta: 0, adds: false };
    cur.delta += c.delta;
    if (c.delta > 0) {
      cur.adds = true;
      cur.kind = c.kind;
    }
    byPath.set(c.path, cur);
  }
  const paths = [...byPath.keys()].sort();
  if (paths.length === 0) return;
  for (const p of paths) {
    const c = byPath.get(p)!;
    // An add is never outweighed by a release of the same path in one call; if it were,
    // the claim check below would not run for it.
    if (c.adds && c.delta < 0) throw new Error(`postgres metastore invariant violated: ${p} both referenced and released below zero`);
  }
  // Releases update existing rows; takes upsert (a CHECK on refs >= 0 is evaluated on an
  // upsert's proposed row before its conflict, so the two cannot share one INSERT).
  const adds = paths.filter((p) => byPath.get(p)!.delta >= 0);
  const drops = paths.filter((p) => byPath.get(p)!.delta < 0);
  const rows = await tx.q<{ path: string }>(
    SQL.ADJUST_REFS,
    [
      adds,
      adds.map((p) => byPath.get(p)!.kind),
      adds.map((p) => byPath.get(p)!.delta),
      drops,
      drops.map((p) => byPath.get(p)!.delta),
      tx.stamp,
    ],
  );
  const done = new Set(rows.map((r) => r.path));
  for (const p of paths) {
    if (byPath.get(p)!.delta >= 0 && !done.has(p)) throw errors.claimed(p);
  }
}

/** FenceMismatch unless the fence's lease is at its epoch (FOR SHARE: a takeover waits for COMMIT, or is seen). */
export async function checkFence(tx: WriteTx, fence: Fence | undefined, what: string): Promise<void> {
  if (!fence) return;
  const l = await tx.one<{ epoch: number; owner: string | null }>('SELECT epoch, owner FROM leases WHERE scope = $1 AND key = $2 FOR SHARE', [
    scopeKey(fence.scope),
    fence.key,
  ]);
  if (!l || l.epoch !== fence.epoch) throw errors.fenceMismatch(what, fence.epoch, l?.epoch ?? 0, l?.owner ?? null);
}

export async function shareNamespace(tx: WriteTx, ns: number): Promise<void> {
  const r = await tx.one<{ state: string }>(SQL.SHARE_NAMESPACE, [ns]);
  if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
}

/**
 * The move fence every write to a namespace checks (spec §5.5, core/moves.ts). FOR KEY SHARE:
 * writers do not block each other, but a fence (SELECT … FOR UPDATE, moves.ts) waits until
 * every write holding it has committed, and a write that starts after the fence reads the
 * fenced row (READ COMMITTED re-reads a row it waited for) — so no write commits unseen by a
 * copy taken after the fence.
 */
export async function writable(tx: WriteTx, ns: number | number[]): Promise<void> {
  const ids = typeof ns === 'number' ? [ns] : ns;
  for (const id of ids) tx.namespaces.add(id);
  const rows = await tx.q<{ id: number; state: string; move_state: string | null; move_epoch: number }>(SQL.FENCE_SHARE, [ids]);
  for (const r of rows) checkWritable(r.id, { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch });
  // A namespace whose changes a move's pre-copy tracks: arm the tracking triggers for this transaction (sql/moves.ts).
  if (rows.some((r) => r.move_state === 'tracking')) await tx.q(`SELECT set_config('${PG_TRACKING_SETTING}', 'on', true)`);
}

/** The fence of the namespace owning an object path (ns/<id>/…); WAL objects are cluster-level. */
export async function writablePath(tx: WriteTx, path: string): Promise<void> {
  const ns = namespaceOfPath(path);
  if (ns !== null) await writable(tx, ns);
}

export async function liveNamespace(tx: WriteTx, ns: number): Promise<void> {
  const r = await tx.one<{ state: string }>('SELECT state FROM namespaces WHERE id = $1', [ns]);
  if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
}


/** A broken invariant is a bug in this backend, never the caller's input. */
export function assert(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`postgres metastore invariant violated: ${what}`);
}

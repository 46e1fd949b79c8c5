// Namespace moves, metadata only (spec §5.5, §3.5; docs/sharding.md "Moves").
//
// A namespace's bulk bytes already live in the bucket under ns/<id>/, so moving it from one
// metastore shard to another copies only its metadata rows. The protocol:
//
//   1. check     the target is a known shard, reachable, not the namespace's shard; take the
//                move lease (cluster lease move/<ns>): a second mover gets LeaseHeld.
//   2. track     the source records the key of every row of the namespace that changes, in
//                each write's own transaction (src/meta/moves.ts); writes go on.
//   3. precopy   the source's rows, from one snapshot taken after tracking began, into the
//                target in one transaction, arriving fenced (invisible to routing).
//   4. mark      directory entry state: moving (gateways start holding the namespace's writes).
//   5. fence     the source shard refuses every write to the namespace, in the write's own
//                transaction (its move epoch); reads go on.
//   6. copy      only the delta: the rows at every key recorded since tracking began, from one
//                snapshot, replace those keys on the target in one transaction.
//   7. flip      the directory entry names the target (one compare-and-swap): the commit point.
//   8. remove    every other shard's copy is removed, leaving a tombstone that answers
//                NamespaceMoved, so a node with a stale directory refreshes and retries.
//   9. unfence   the target takes writes; held writes go there.
//  10. done      directory entry state: live; the lease is released.
//
// Writes pause only from the fence to the unfence: the delta, the flip, the removal. What the
// pre-copy misses is exactly what the tracking recorded (every change after it began; every
// change before it is in the snapshot), so the target ends equal to the source.
//
// Remove comes before unfence: from the fence until the target takes writes nothing is
// acknowledged, so until the source's copy is gone it holds every acknowledged write, and a
// node reading it through a stale directory — with a token or without — reads the truth
// (spec §3.5); once it is gone such a node gets NamespaceMoved and re-routes.
//
// Resumable: every step is idempotent and the state of a move is what the directory and the
// shards hold (the entry's state and shard, each shard's move state and epoch), so a mover
// that crashed at any step is finished by running the move again: a source still tracking or
// fenced, or an entry still 'moving', is picked up where its shards say it is. Before the
// flip a failed move is undone (the target's copy forgotten, the source untracked or
// unfenced, the entry live again): nothing half-moved. After the flip it only goes forward.
// The lease keeps two movers apart; a step renews it first once a third of its time to live
// has passed, so a mover whose lease was taken over stops.
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MetaStore } from '../../contract.js';
import { errors, isMetaError, MetaError } from '../../errors.js';
import { deltaCount, hasMoveStorage, rowCount, whyNoMoves, type NamespaceMoveStorage, type NamespaceRows } from '../../moves.js';
import type { NamespaceId } from '../../types.js';

/** The move lease's time to live: renewed before every step, so a crashed mover is resumable after this. */
export const MOVE_LEASE_TTL_MS = 30_000;

/** A step that found the shard busy (another writer held its lock past its wait) is tried again this many times: every step is idempotent. */
export const MOVE_STEP_RETRIES = 3;

export type MovePhase = 'checked' | 'tracked' | 'precopied' | 'marked' | 'fenced' | 'copied' | 'flipped' | 'removed' | 'unfenced' | 'done';
export const MOVE_PHASES: readonly MovePhase[] = ['checked', 'tracked', 'precopied', 'marked', 'fenced', 'copied', 'flipped', 'removed', 'unfenced', 'done'];

export interface MoveCounts {
  rows: number;
  collections: number;
  streams: number;
  indexEntries: number;
  pointers: number;
  leases: number;
  tags: number;
  objects: number;
  /** Rows the fenced delta replaced (changed keys, the namespace row included); the whole copy when it was made inside the fence. */
  changed: number;
}

export interface MoveProgress {
  phase: MovePhase;
  ns: NamespaceId;
  from: string;
  to: string;
  epoch: number;
  /** Milliseconds since the move (or its resumption) began. */
  ms: number;
  /** After 'precopied' (without `changed`, known after 'copied'). */
  counts?: MoveCounts;
  /** Set when this run picked up a move an earlier mover left unfinished. */
  resumed?: boolean;
}

/** What a move needs of the directory (src/meta/backends/sharded/directory.ts). */
export interface MoveDirectoryEntry {
  id: NamespaceId;
  shard: string;
  state: string;
  version: number;
}
export interface MoveDirectory {
  entry(ns: NamespaceId): Promise<MoveDirectoryEntry | null>;
  updateEntry(ns: NamespaceId, expectedVersion: number, change: { shard?: string; state?: 'live' | 'moving' }): Promise<MoveDirectoryEntry>;
}

/** A cluster as a move sees it: the directory, the shard handles (by name), and where cluster leases live. */
export interface MoveCluster {
  directory: MoveDirectory;
  shards: readonly { name: string; store: MetaStore }[];
  leases: Pick<MetaStore, 'acquireLease' | 'renewLease' | 'releaseLease'>;
}

export interface MoveOptions {
  /** Who moves (the lease owner); default host:pid. The same owner resumes its own move at once. */
  owner?: string;
  onProgress?: (p: MoveProgress) => void | Promise<void>;
}

export interface MoveReport {
  ns: NamespaceId;
  from: string;
  to: string;
  epoch: number;
  counts: MoveCounts | null;
  resumed: boolean;
  ms: number;
}

export function moveLeaseKey(ns: NamespaceId): string {
  return `move/${ns}`;
}

function countsOf(r: NamespaceRows): MoveCounts {
  return {
    rows: rowCount(r),
    collections: r.collections.length,
    streams: r.streams.length,
    indexEntries: r.index.length,
    pointers: r.pointers.length,
    leases: r.leases.length,
    tags: r.tags.length,
    objects: r.objects.length,
    changed: 0,
  };
}

/** Runs a step, again while its shard answers busy (bounded; the step is idempotent). */
async function step<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (e) {
      if (!isMetaError(e, 'Retryable') || e.details.reason !== 'busy' || attempt >= MOVE_STEP_RETRIES) throw e;
    }
  }
}

type Mover = MetaStore & NamespaceMoveStorage;

/**
 * Moves namespace `ns` to shard `to`, or finishes a move an earlier mover left unfinished.
 * Bad input is refused before anything changes: an unknown shard or namespace, the shard it
 * is already on (InvalidArgument naming `to` or `ns`), a namespace already being moved
 * (LeaseHeld naming the mover).
 */
export async function moveNamespace(c: MoveCluster, ns: NamespaceId, to: string, opts: MoveOptions = {}): Promise<MoveReport> {
  const t0 = performance.now();
  const owner = opts.owner ?? `${hostname()}:${process.pid}`;
  const byName = new Map(c.shards.map((s) => [s.name, s.store]));
  const target = byName.get(to);
  if (!target) throw errors.invalid('to', `unknown shard ${JSON.stringify(to)}; the shards are ${c.shards.map((s) => s.name).join(', ')}`);
  const mover = (name: string): Mover => {
    const s = byName.get(name);
    if (!s) throw errors.invalid('shard', `the directory places namespace ${ns} on shard ${name}, which is not configured here`);
    if (!hasMoveStorage(s)) {
      const field = name === to ? 'to' : 'ns';
      const role = name === to ? 'move to' : `move namespace ${ns} off`;
      throw errors.invalid(field, `cannot ${role} shard ${name}: ${whyNoMoves(s) ?? 'it offers no move calls'}; nothing was changed`);
    }
    return s;
  };
  const tgt = mover(to);

  let entry = await c.directory.entry(ns);
  if (!entry || (entry.state !== 'live' && entry.state !== 'moving')) throw errors.invalid('ns', `namespace ${ns} is not a live namespace`);
  if (entry.state === 'live' && entry.shard === to) throw errors.invalid('to', `namespace ${ns} is already on shard ${to}`);
  const from = entry.shard;
  mover(from);

  const lease = await step(() => c.leases.acquireLease('cluster', moveLeaseKey(ns), owner, MOVE_LEASE_TTL_MS)).catch((e: unknown) => {
    if (isMetaError(e, 'LeaseHeld')) {
      throw new MetaError('LeaseHeld', `namespace ${ns} is already being moved by ${String(e.details.holder)}; wait for it, or run the move again after ${MOVE_LEASE_TTL_MS / 1000} s if that mover died`, e.details);
    }
    throw e;
  });
  // Renewed before a step once a third of its time to live has passed: a mover paused that
  // long finds out at its next step whether its lease was taken over, and a quick move pays
  // no renewal inside its fenced window.
  let renewedAt = performance.now();
  const renew = async () => {
    if (performance.now() - renewedAt < MOVE_LEASE_TTL_MS / 3) return;
    await step(() => c.leases.renewLease('cluster', moveLeaseKey(ns), owner, lease.epoch, MOVE_LEASE_TTL_MS));
    renewedAt = performance.now();
  };

  let epoch = 0;
  let counts: MoveCounts | null = null;
  let resumed = entry.state === 'moving';
  const report = async (phase: MovePhase) => {
    await opts.onProgress?.({ phase, ns, from, to, epoch, ms: performance.now() - t0, ...(counts ? { counts } : {}), ...(resumed ? { resumed } : {}) });
  };

  let flipped = entry.state === 'moving' && entry.shard === to;
  try {
    // 1. check: every shard that may hold a copy answers (an unreachable one fails the move here, before anything changed).
    const states = new Map<string, Awaited<ReturnType<Mover['moveState']>>>();
    for (const s of c.shards) if (hasMoveStorage(s.store)) states.set(s.name, await s.store.moveState(ns));
    const src = mover(entry.shard);
    const srcState = states.get(entry.shard)!;
    const started = srcState.state === 'fenced' || srcState.state === 'tracking';
    resumed ||= started;
    epoch = started ? srcState.epoch : Math.max(0, ...[...states.values()].map((m) => m.epoch)) + 1;
    if (!flipped) {
      // A copy an earlier, abandoned move left fenced on the target at another epoch is forgotten first.
      const t = states.get(to)!;
      if (t.state === 'fenced' && t.epoch !== epoch) await step(() => tgt.removeNamespaceCopy(ns, t.epoch, { tombstone: false }));
    }
    await report('checked');

    const fenced = srcState.state === 'fenced' || flipped;
    // 2. track, 3. precopy: while writes go on (skipped once the source is fenced: the copy below is whole then).
    if (!fenced) {
      await renew();
      await step(() => src.trackNamespace(ns, epoch));
    }
    await report('tracked');
    if (!fenced) {
      const rows = await src.exportNamespace(ns);
      counts = countsOf(rows);
      await step(() => tgt.importNamespace(rows, epoch));
    }
    await report('precopied');

    // 4. mark
    if (entry.state === 'live') entry = await c.directory.updateEntry(ns, entry.version, { state: 'moving' });
    await report('marked');

    if (!flipped) {
      // 5. fence, 6. copy the delta (or the whole namespace, if the target has no pre-copy at this epoch), 7. flip
      await renew();
      await step(() => src.fenceNamespace(ns, epoch));
      await report('fenced');
      const t = await tgt.moveState(ns);
      if (t.state === 'fenced' && t.epoch === epoch) {
        const delta = await src.exportNamespaceChanges(ns);
        await step(() => tgt.importNamespaceChanges(delta, epoch));
        counts = { ...(counts ?? countsOf(delta.rows)), changed: deltaCount(delta) };
      } else {
        const rows = await src.exportNamespace(ns);
        await step(() => tgt.importNamespace(rows, epoch));
        counts = { ...countsOf(rows), changed: rowCount(rows) };
      }
      await report('copied');
      await renew();
      entry = await c.directory.updateEntry(ns, entry.version, { shard: to });
      flipped = true;
      await report('flipped');
    } else {
      await report('fenced');
      await report('copied');
      await report('flipped');
    }

    // 8. remove every other copy (the source's, and any a crashed earlier move left) — before
    // the target takes writes, so no node ever reads a copy that lacks an acknowledged write
    // (spec §3.5): until here nothing was acknowledged since the fence.
    await renew();
    for (const s of c.shards) {
      if (s.name === to || !hasMoveStorage(s.store)) continue;
      const store = s.store;
      const m = await store.moveState(ns);
      if (m.state === 'fenced') await step(() => store.removeNamespaceCopy(ns, m.epoch, { tombstone: true }));
    }
    await report('removed');

    // 9. unfence (the target's copy is fenced at its own epoch when this run resumed after the flip)
    await renew();
    const tgtState = await tgt.moveState(ns);
    if (tgtState.state === 'fenced') await step(() => tgt.unfenceNamespace(ns, tgtState.epoch));
    await report('unfenced');

    // 10. done
    entry = await c.directory.updateEntry(ns, entry.version, { state: 'live' });
    await report('done');
  } catch (e) {
    if (!flipped) await undo(c, ns, from, tgt, epoch).catch(() => undefined);
    await c.leases.releaseLease('cluster', moveLeaseKey(ns), owner, lease.epoch).catch(() => undefined);
    const why = isMetaError(e) ? `${e.code}: ${e.message}` : (e as Error).message;
    if (flipped) throw errors.unknown(`the move of namespace ${ns} to ${to} flipped but did not finish (${why}); run the move again to finish it`);
    if (isMetaError(e)) {
      throw new MetaError(e.code, `the move of namespace ${ns} to ${to} failed (${e.message}); it stays on shard ${from}, readable and writable`, e.details);
    }
    throw e;
  }
  await c.leases.releaseLease('cluster', moveLeaseKey(ns), owner, lease.epoch).catch(() => undefined);
  return { ns, from, to, epoch, counts, resumed, ms: performance.now() - t0 };
}

/** Undoes a move that did not flip: the target forgets its copy, the source stops tracking and takes writes, the entry is live. */
async function undo(c: MoveCluster, ns: NamespaceId, from: string, tgt: Mover, epoch: number): Promise<void> {
  const t = await tgt.moveState(ns);
  if (t.state === 'fenced' && t.epoch === epoch) await tgt.removeNamespaceCopy(ns, epoch, { tombstone: false });
  const src = c.shards.find((s) => s.name === from)?.store;
  if (src && hasMoveStorage(src)) {
    const m = await src.moveState(ns);
    if ((m.state === 'fenced' || m.state === 'tracking') && m.epoch === epoch) await src.unfenceNamespace(ns, epoch);
  }
  const cur = await c.directory.entry(ns);
  if (cur && cur.state === 'moving' && cur.shard === from) await c.directory.updateEntry(ns, cur.version, { state: 'live' });
}

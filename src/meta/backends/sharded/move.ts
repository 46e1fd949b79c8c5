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
//   4½. sync     the catch-up: the rows changed during the pre-copy, taken from the source in
//                one write that forgets their recorded keys, replace those keys on the target;
//                again while a round copied more than MOVE_CATCHUP_ROWS (at most
//                MOVE_CATCHUP_ROUNDS), so the fenced delta holds only the last moments' changes.
//   5. fence     the source shard refuses every write to the namespace, in the write's own
//                transaction (its move epoch); reads go on.
//   6. copy      only the delta: the rows at every key recorded since tracking began, from one
//                snapshot, replace those keys on the target in one transaction.
//   7. flip      the directory entry names the target (one compare-and-swap): the commit point.
//   8. retire    every other shard's copy is retired in one write of its namespace row: from
//                then on every call naming the namespace there answers NamespaceMoved (a node
//                with a stale directory refreshes and retries), while its rows are still there.
//   9. unfence   the target takes writes; held writes go there.
//  10. live      directory entry state: live.
//  11. remove    the retired copies' rows are removed, MOVE_REMOVE_BATCH rows a transaction,
//                while writes go on at the target; a tombstone ('moved') stays.
//  12. done      the lease is released.
//
// Writes pause only from the fence to the unfence: the delta (what changed since the last
// catch-up), the flip and the retirement, each a small write. What the pre-copy misses is exactly what the tracking recorded (every
// change after it began; every change before it is in the snapshot), so the target ends
// equal to the source.
//
// Retire comes before unfence: from the fence until the target takes writes nothing is
// acknowledged, so until the source is retired it holds every acknowledged write, and a
// node reading it through a stale directory — with a token or without — reads the truth
// (spec §3.5); once it is retired such a node gets NamespaceMoved and re-routes, whether its
// rows are removed yet or not (core/moves.ts movedReads asks after every read).
//
// Resumable: every step is idempotent and the state of a move is what the directory and the
// shards hold (the entry's state and shard, each shard's move state and epoch), so a mover
// that crashed at any step is finished by running the move again: a source still tracking or
// fenced, an entry still 'moving', or a retired copy whose rows are not all removed yet, is
// picked up where its shards say it is; a node also finishes every unfinished removal when it
// opens the sharded store (resumeRemovals). Before the flip a failed move is undone (the
// target's copy forgotten, the source untracked or unfenced, the entry live again): nothing
// half-moved. After the flip it only goes forward.
// The lease keeps two movers apart; a step renews it first once a third of its time to live
// has passed, so a mover whose lease was taken over stops.
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MetaStore } from '../../contract.js';
import { errors, isMetaError, MetaError } from '../../errors.js';
import { MAX_MOVE_ROWS } from '../../limits.js';
import { deltaCount, hasMoveStorage, rowCount, whyNoMoves, type NamespaceMoveStorage, type NamespaceRows } from '../../moves.js';
import type { NamespaceId } from '../../types.js';

/** The move lease's time to live: renewed before every step, so a crashed mover is resumable after this. */
export const MOVE_LEASE_TTL_MS = 30_000;

/** Catch-up rounds before the fence at most (phase 'synced'). */
export const MOVE_CATCHUP_ROUNDS = 3;
/** A catch-up round that copied at most this many changed rows is the last: the fenced delta will be about as small. */
export const MOVE_CATCHUP_ROWS = 50;

/** A step that found the shard busy (another writer held its lock past its wait) is tried again this many times: every step is idempotent. */
export const MOVE_STEP_RETRIES = 3;

/**
 * Rows one removal transaction deletes at most: a retired copy's rows go in batches, so no
 * transaction holds its shard (and the other namespaces writing there) for long.
 */
export const MOVE_REMOVE_BATCH = 2_000;
/** Pause between two removal batches: the shard's other writers get their turn. */
export const MOVE_REMOVE_PAUSE_MS = 2;
/** Batches one removal runs at most: a copy holds at most MAX_MOVE_ROWS rows. */
export const MAX_REMOVE_BATCHES = Math.ceil(MAX_MOVE_ROWS / MOVE_REMOVE_BATCH) + 2;
/** Retired copies one resumeRemovals pass finishes per shard at most (the next pass goes on). */
export const MAX_RESUMED_REMOVALS = 100;

export type MovePhase =
  | 'checked'
  | 'tracked'
  | 'precopied'
  | 'marked'
  | 'synced'
  | 'fenced'
  | 'copied'
  | 'flipped'
  | 'retired'
  | 'unfenced'
  | 'live'
  | 'removed'
  | 'done';
export const MOVE_PHASES: readonly MovePhase[] = ['checked', 'tracked', 'precopied', 'marked', 'synced', 'fenced', 'copied', 'flipped', 'retired', 'unfenced', 'live', 'removed', 'done'];

export interface MoveCounts {
  rows: number;
  collections: number;
  streams: number;
  indexEntries: number;
  pointers: number;
  leases: number;
  tags: number;
  objects: number;
  /** Rows the catch-up rounds before the fence replaced (changed keys). */
  caughtUp: number;
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
    caughtUp: 0,
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
  // Flipped and live already: only the removal of a retired copy may be left (a mover that died after 'live').
  const settled = entry.state === 'live' && entry.shard === to;
  if (settled && !(await retiredCopies(c, ns, to)).length) throw errors.invalid('to', `namespace ${ns} is already on shard ${to}`);
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
  let resumed = entry.state === 'moving' || settled;
  const report = async (phase: MovePhase) => {
    await opts.onProgress?.({ phase, ns, from, to, epoch, ms: performance.now() - t0, ...(counts ? { counts } : {}), ...(resumed ? { resumed } : {}) });
  };

  let flipped = entry.shard === to;
  try {
    // 1. check: every shard that may hold a copy answers (an unreachable one fails the move here, before anything changed).
    const states = new Map<string, Awaited<ReturnType<Mover['moveState']>>>();
    for (const s of c.shards) if (hasMoveStorage(s.store)) states.set(s.name, await s.store.moveState(ns));
    const src = mover(entry.shard);
    const srcState = states.get(entry.shard)!;
    const started = srcState.state === 'fenced' || srcState.state === 'tracking';
    resumed ||= started;
    epoch = flipped || started ? srcState.epoch : Math.max(0, ...[...states.values()].map((m) => m.epoch)) + 1;
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
    if (entry.state === 'live' && !settled) entry = await c.directory.updateEntry(ns, entry.version, { state: 'moving' });
    await report('marked');

    // 4½. sync: catch up while writes go on, so the fenced delta is small.
    if (!fenced) {
      for (let round = 0; round < MOVE_CATCHUP_ROUNDS; round++) {
        await renew();
        const delta = await step(() => src.takeNamespaceChanges(ns, epoch));
        const n = deltaCount(delta) - 1;
        if (n > 0) await step(() => tgt.importNamespaceChanges(delta, epoch));
        if (counts) counts = { ...counts, caughtUp: counts.caughtUp + n };
        if (n <= MOVE_CATCHUP_ROWS) break;
      }
    }
    await report('synced');

    if (!flipped) {
      // 5. fence, 6. copy the delta (or the whole namespace, if the target has no pre-copy at this epoch), 7. flip
      await renew();
      await step(() => src.fenceNamespace(ns, epoch));
      await report('fenced');
      const t = await tgt.moveState(ns);
      if (t.state === 'fenced' && t.epoch === epoch) {
        const delta = await src.exportNamespaceChanges(ns);
        await step(() => tgt.importNamespaceChanges(delta, epoch));
        counts = { ...(counts ?? { ...countsOf(delta.rows), caughtUp: 0 }), changed: deltaCount(delta) };
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

    // 8. retire every other copy (the source's, and any a crashed earlier move left fenced) —
    // before the target takes writes, so no node ever reads a copy that lacks an acknowledged
    // write (spec §3.5): until here nothing was acknowledged since the fence. One row each.
    for (const s of c.shards) {
      if (s.name === to || !hasMoveStorage(s.store)) continue;
      const store = s.store;
      const m = await store.moveState(ns);
      if (m.state === 'fenced') await step(() => store.retireNamespace(ns, m.epoch));
    }
    await report('retired');

    // 9. unfence (the target's copy is fenced at its own epoch when this run resumed after the flip)
    const tgtState = await tgt.moveState(ns);
    if (tgtState.state === 'fenced') await step(() => tgt.unfenceNamespace(ns, tgtState.epoch));
    await report('unfenced');

    // 10. live
    if (entry.state === 'moving') entry = await c.directory.updateEntry(ns, entry.version, { state: 'live' });
    await report('live');

    // 11. remove the retired copies' rows, in batches, while writes go on at the target.
    for (const { store, epoch: at } of await retiredCopies(c, ns, to)) await removeRetired(store, ns, at, renew);
    await report('removed');
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

/** The copies of `ns` retired on shards other than `to` (their rows still to be removed). */
async function retiredCopies(c: Pick<MoveCluster, 'shards'>, ns: NamespaceId, to: string): Promise<{ store: Mover; epoch: number }[]> {
  const out: { store: Mover; epoch: number }[] = [];
  for (const s of c.shards) {
    if (s.name === to || !hasMoveStorage(s.store)) continue;
    const m = await s.store.moveState(ns);
    if (m.state === 'retired') out.push({ store: s.store, epoch: m.epoch });
  }
  return out;
}

/**
 * Removes a retired copy's rows, MOVE_REMOVE_BATCH a transaction with a pause between, until
 * only its tombstone is left. Idempotent, and safe beside another remover (each batch is one
 * transaction of what is still there). `beforeBatch` renews the mover's lease.
 */
export async function removeRetired(store: Mover, ns: NamespaceId, epoch: number, beforeBatch?: () => Promise<void>): Promise<void> {
  for (let batch = 0; batch < MAX_REMOVE_BATCHES; batch++) {
    await beforeBatch?.();
    const m = await step(() => store.removeNamespaceCopy(ns, epoch, { tombstone: true, limit: MOVE_REMOVE_BATCH }));
    if (m.state !== 'retired') return;
    await sleep(MOVE_REMOVE_PAUSE_MS);
  }
  throw errors.unknown(`namespace ${ns}: its retired copy still had rows after ${MAX_REMOVE_BATCHES} removal batches of ${MOVE_REMOVE_BATCH}`);
}

/**
 * Finishes the removal of retired copies on every shard (a move's last step, left unfinished
 * by a mover that died): at most MAX_RESUMED_REMOVALS namespaces a shard per call. Returns
 * how many it finished; a copy that cannot be removed now (a newer move took it over, the
 * shard failed) is left for a later pass.
 */
export async function resumeRemovals(shards: MoveCluster['shards'], signal?: AbortSignal): Promise<number> {
  let done = 0;
  for (const s of shards) {
    if (!hasMoveStorage(s.store)) continue;
    const store = s.store;
    for (const m of await store.retiredNamespaces(MAX_RESUMED_REMOVALS)) {
      if (signal?.aborted) return done;
      try {
        await removeRetired(store, m.ns, m.epoch, async () => {
          if (signal?.aborted) throw new Error('aborted');
        });
        done++;
      } catch {
        // Left for the next pass (or for the move, run again).
      }
    }
  }
  return done;
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

// Namespace moves through the sharded metastore (spec §5.5, §3.5): a move copies a
// namespace's metadata to another shard and flips the directory; writes pause, never fail;
// bad input is refused with nothing changed; a failed move is undone; a mover that crashed
// (a real SIGKILL) at any phase is finished by running the move again. Runs on the sharded
// backends (3 embedded shards; 2 Postgres and 1 embedded).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { backendFactory, backendName } from '../harness/backends.js';
import { linkPointerKey } from '../../src/meta/contract.js';
import { isMetaError, type MetaStore } from '../../src/meta/index.js';
import { hasMoveStorage } from '../../src/meta/moves.js';
import type { ShardedMetaStore } from '../../src/meta/backends/sharded/index.js';
import type { DirectoryEntry } from '../../src/meta/backends/sharded/directory.js';
import { MOVE_PHASES, moveLeaseKey, type MovePhase, type MoveProgress } from '../../src/meta/backends/sharded/move.js';
import { SCHEMA, fullIndex, rejectsWith, wal, walPath } from '../conformance/helpers.js';

const factory = backendFactory();
const backend = backendName();
/**
 * The phases a mover is killed after (a real SIGKILL) on the all-embedded layout; the mixed
 * one freezes the mover instead (in process, faster). After 'removed' only the lease is left.
 */
const KILL_PHASES: readonly MovePhase[] = MOVE_PHASES.filter((p) => p !== 'removed' && p !== 'done');
const realKills = backend === 'sharded';
const CHILD = fileURLToPath(new URL('./crash-child.ts', import.meta.url));

type Sharded = ShardedMetaStore & MetaStore;

/** One sharded store for the whole file (a fresh one per case costs seconds on Postgres); each case has its own org and namespace. */
let shared: Promise<Sharded> | undefined;

async function populated() {
  const store = await (shared ??= factory.open() as Promise<Sharded>);
  const org = `org-${Math.random().toString(36).slice(2, 8)}`;
  const ns = await store.createNamespace({ org, name: 'ns' });
  const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
  const obj = walPath();
  await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 3 }, { ns: ns.id, stream: coll.streamId, partition: 1, records: 2 }], { object: obj }));
  const p = await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, `ns/${ns.id}/c/${coll.id}/manifest-1`);
  await store.createTag(ns.id, coll.id, 'v1', p.version);
  await store.acquireLease(ns.id, 'compactor', 'node-a', 60_000);
  const from = (await store.router.reload(ns.id)).shard;
  const to = store.router.shards.find((s) => s.name !== from)!.name;
  return { store, ns, coll, obj, from, to };
}

async function view(store: MetaStore, ns: number, coll: { id: number; streamId: number; linkId: number }) {
  return {
    namespace: await store.namespace(ns),
    collection: await store.collection(ns, coll.id),
    head: await store.collectionHead(ns, coll.id),
    index0: await fullIndex(store, ns, coll.streamId, 0),
    index1: await fullIndex(store, ns, coll.streamId, 1),
    pointer: await store.pointer(ns, linkPointerKey(coll.linkId)),
    lease: await store.lease(ns, 'compactor'),
    tags: (await store.listTags(ns, coll.id)).items,
  };
}

/** After a move finished: on `to` and live there, no fenced copy anywhere, the source a tombstone, writes go on densely. */
async function assertMoved(store: Sharded, ns: number, coll: { id: number; streamId: number; linkId: number }, obj: string, from: string, to: string, before: unknown) {
  const e = await store.router.reload(ns);
  assert.equal(e.shard, to);
  assert.equal(e.state, 'live');
  for (const s of store.router.shards) {
    assert.ok(hasMoveStorage(s.store));
    const m = await s.store.moveState(ns);
    if (s.name === to) assert.equal(m.state, 'open', `the target takes writes (${JSON.stringify(m)})`);
    else if (s.name === from) assert.equal(m.state, 'moved', `the source keeps a tombstone (${JSON.stringify(m)})`);
    else assert.notEqual(m.state, 'fenced', `no copy is left fenced on ${s.name}`);
  }
  assert.deepEqual(await view(store, ns, coll), before, 'every read is the same after the move');
  assert.equal((await store.router.shard(from).store.objectRef(obj))?.refs ?? 0, 0, "the source's live count of the WAL object went to zero");
  assert.equal((await store.router.shard(to).store.objectRef(obj))?.refs, 2, 'the target holds it');
  const r = await store.commitWal(wal([{ ns, stream: coll.streamId, partition: 0 }]));
  assert.deepEqual([r.assigned[0]!.start, r.assigned[0]!.end], [3, 4], 'offsets go on densely on the target');
}

describe(`namespace moves (${backend})`, () => {
  after(() => factory.cleanup());

  test('a move copies the metadata to the target, flips the directory, and leaves the source answering NamespaceMoved', async () => {
    const { store, ns, coll, obj, from, to } = await populated();
    const before = await view(store, ns.id, coll);
    const phases: MoveProgress[] = [];
    const report = await store.moveNamespace(ns.id, to, { onProgress: (p) => void phases.push(p) });
    assert.deepEqual(phases.map((p) => p.phase), MOVE_PHASES, 'every phase is reported, in order');
    assert.equal(report.from, from);
    assert.ok(report.counts && report.counts.collections === 1 && report.counts.indexEntries === 2 && report.counts.rows > 10, JSON.stringify(report.counts));
    await assertMoved(store, ns.id, coll, obj, from, to, before);
    await rejectsWith(() => store.router.shard(from).store.collection(ns.id, coll.id), 'NamespaceMoved');
    // A node whose directory still names the source (another handle, its cache filled before the move) follows the move.
    const stale = (await factory.connect(store)) as Sharded;
    // Its cache pinned to the entry before the move (remember() keeps the newer entry it read).
    const pin = async () => (stale.router as unknown as { cache: Map<number, DirectoryEntry> }).cache.set(ns.id, { ...(await stale.router.reload(ns.id)), shard: from });
    await pin();
    const w = await stale.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    assert.equal(w.assigned[0]!.start, 4, 'a commit routed to the source follows the move (NamespaceMoved: re-read, commit on the target)');
    await pin();
    assert.equal((await stale.collection(ns.id, coll.id)).name, 'docs');
    assert.equal((await stale.router.entry(ns.id)).shard, to, 'NamespaceMoved made it re-read the entry');
    assert.deepEqual((await stale.listNamespaces(ns.org)).items.map((n) => n.id), [ns.id], 'listed once');
  });

  test('after the flip, a node whose directory names the source reads the target, not the retired source whose rows are still there', async () => {
    const { store, ns, coll, obj, from, to } = await populated();
    // Opened before the move (opening finishes unfinished removals, which would take the rows away).
    const stale = (await factory.connect(store)) as Sharded;
    await stale.router.reload(ns.id);
    // The mover stops after the target takes writes and before the source's rows are removed.
    let reached!: () => void;
    const unfenced = new Promise<void>((r) => (reached = r));
    void store.moveNamespace(ns.id, to, { owner: 'paused', onProgress: (p) => (p.phase === 'unfenced' ? (reached(), new Promise<never>(() => {})) : undefined) }).catch(() => undefined);
    await unfenced;
    const src = store.router.shard(from).store;
    assert.ok(hasMoveStorage(src));
    assert.equal((await src.moveState(ns.id)).state, 'retired');
    assert.equal((await src.objectRef(obj))?.refs, 2, "the source still holds its rows (its index entries' live count of the WAL object)");
    const w = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    assert.equal(w.assigned[0]!.start, 3, 'acknowledged on the target');
    assert.equal((await stale.router.entry(ns.id)).shard, from, 'the stale node still routes to the source');
    assert.equal((await fullIndex(stale, ns.id, coll.streamId, 0)).next, 4, 'and reads the acknowledged write');
    assert.equal((await stale.router.entry(ns.id)).shard, to, 'the retired source sent it on');
    const done = await store.moveNamespace(ns.id, to, { owner: 'paused' });
    assert.equal(done.resumed, true);
    assert.equal((await src.moveState(ns.id)).state, 'moved', 'the rows are removed, the tombstone stays');
  });

  test('bad input is refused with nothing changed: an unknown shard, the same shard, an unknown namespace, a namespace already moving', async () => {
    const { store, ns, coll, from, to } = await populated();
    const before = await view(store, ns.id, coll);
    await rejectsWith(() => store.moveNamespace(ns.id, 'nowhere'), 'InvalidArgument', (e) => {
      assert.equal(e.details.field, 'to');
      assert.match(e.message, /unknown shard "nowhere"; the shards are s0, s1, s2/);
    });
    await rejectsWith(() => store.moveNamespace(ns.id, from), 'InvalidArgument', (e) => assert.match(e.message, /already on shard/));
    await rejectsWith(() => store.moveNamespace(9_999_999, to), 'InvalidArgument', (e) => assert.equal(e.details.field, 'ns'));
    const l = await store.acquireLease('cluster', moveLeaseKey(ns.id), 'other-mover', 60_000);
    await rejectsWith(() => store.moveNamespace(ns.id, to), 'LeaseHeld', (e) => assert.match(e.message, /already being moved by other-mover/));
    await store.releaseLease('cluster', moveLeaseKey(ns.id), 'other-mover', l.epoch);
    assert.equal((await store.router.reload(ns.id)).state, 'live');
    assert.deepEqual(await view(store, ns.id, coll), before);
    for (const s of store.router.shards) if (hasMoveStorage(s.store)) assert.notEqual((await s.store.moveState(ns.id)).state, 'fenced');
  });

  test('a move that fails at the copy is undone: the namespace stays readable and writable on its old shard', async () => {
    const { store, ns, coll, obj, from, to } = await populated();
    const before = await view(store, ns.id, coll);
    // GC on the target has claimed the WAL object the namespace's entries point into (its
    // live count there is zero), so the copy cannot take a reference on it.
    const target = store.router.shard(to).store;
    assert.equal((await target.claimObject(obj, 'gc-t')).claimed, true);
    await rejectsWith(() => store.moveNamespace(ns.id, to), 'Claimed', (e) => assert.match(e.message, new RegExp(`stays on shard ${from}, readable and writable`)));
    const e = await store.router.reload(ns.id);
    assert.deepEqual([e.shard, e.state], [from, 'live']);
    assert.ok(hasMoveStorage(target));
    assert.equal((await target.moveState(ns.id)).state, 'absent', 'the target forgot its copy');
    assert.deepEqual(await view(store, ns.id, coll), before);
    const r = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 1 }]));
    assert.equal(r.assigned[0]!.start, 2, 'writable on the old shard');
    await target.releaseClaim(obj, 'gc-t', { deleted: false });
    await store.moveNamespace(ns.id, to);
    assert.equal((await store.router.reload(ns.id)).shard, to, 'and movable once the cause is gone');
  });

  test('writes during a move pause and never fail; offsets stay dense across it', async () => {
    const { store, ns, coll, to } = await populated();
    let stop = false;
    let longest = 0;
    const acked: { start: number; end: number }[] = [];
    const writer = (async () => {
      while (!stop) {
        const t0 = performance.now();
        const r = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
        longest = Math.max(longest, performance.now() - t0);
        acked.push(r.assigned[0]!);
        // An embedded shard answers without I/O waits: let the mover's timers run between writes.
        await new Promise((r) => setImmediate(r));
      }
    })();
    await new Promise((r) => setTimeout(r, 30));
    await store.moveNamespace(ns.id, to);
    await new Promise((r) => setTimeout(r, 30));
    stop = true;
    await writer;
    const starts = acked.map((a) => a.start);
    assert.deepEqual(starts, starts.map((_, i) => 3 + i), 'every write was acknowledged once, in order, without gaps');
    const idx = await fullIndex(store, ns.id, coll.streamId, 0);
    assert.equal(idx.next, 3 + acked.length);
    console.log(`# ${backend}: ${acked.length} writes across the move, the longest took ${longest.toFixed(1)} ms`);
  });

  test('writes of every kind during the pre-copy reach the target: at the flip its copy equals the source, and a retried write applies once', async () => {
    const { store, ns, coll, from, to } = await populated();
    const src = store.router.shard(from).store;
    const tgt = store.router.shard(to).store;
    assert.ok(hasMoveStorage(src) && hasMoveStorage(tgt));
    let resume!: () => void;
    const precopied = new Promise<void>((r) => (resume = r));
    let atPrecopy!: () => void;
    const reachedPrecopy = new Promise<void>((r) => (atPrecopy = r));
    let compared: Promise<void> | undefined;
    const move = store.moveNamespace(ns.id, to, {
      onProgress: (p) => {
        if (p.phase === 'precopied') {
          atPrecopy();
          return precopied;
        }
        if (p.phase === 'copied') {
          // Both copies fenced, before the flip: the target holds exactly the source's rows.
          compared = (async () => {
            const [a, b] = [await src.exportNamespace(ns.id), await tgt.exportNamespace(ns.id)];
            for (const kind of Object.keys(a) as (keyof typeof a)[]) assert.deepEqual(b[kind], a[kind], `${kind}: the target equals the source`);
          })();
          return compared;
        }
        return undefined;
      },
    });
    await reachedPrecopy;
    // Writes during the pre-copy, through the sharded store (routed to the source), of every kind of row.
    const during = await store.createCollection({ ns: ns.id, name: 'during', schema: SCHEMA, partitions: 1 }, { requestId: `req-${ns.id}` });
    await store.updateAliases(ns.id, [{ op: 'set', alias: 'now', collection: during.id }]);
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }, { ns: ns.id, stream: during.streamId, partition: 0 }]));
    await store.trimPartition(ns.id, coll.streamId, 1, 2);
    await store.casPointer(ns.id, linkPointerKey(coll.linkId), 1, `ns/${ns.id}/c/${coll.id}/manifest-2`);
    await store.createTag(ns.id, coll.id, 'v2', 2);
    await store.dropTag(ns.id, coll.id, 'v1');
    await store.acquireLease(ns.id, 'indexer', 'node-b', 60_000);
    await store.claimObject(`ns/${ns.id}/c/${coll.id}/orphan`, 'gc-1');
    await store.dropCollection(ns.id, during.id);
    const again = await store.createCollection({ ns: ns.id, name: 'later', schema: SCHEMA, partitions: 1 });
    resume();
    const report = await move;
    await compared;
    assert.ok(report.counts && report.counts.caughtUp + report.counts.changed > 10 && report.counts.changed < report.counts.rows + 20, JSON.stringify(report.counts));
    assert.equal((await store.router.reload(ns.id)).shard, to);
    assert.equal((await store.collection(ns.id, again.id)).name, 'later');
    assert.equal((await store.aliases(ns.id)).version, 2, 'the alias change made during the pre-copy (and the drop after it) moved');
    // The create acknowledged during the pre-copy, retried after the move with its requestId: its first answer, nothing twice.
    assert.deepEqual(await store.createCollection({ ns: ns.id, name: 'during', schema: SCHEMA, partitions: 1 }, { requestId: `req-${ns.id}` }), during);
    assert.equal((await store.listCollections(ns.id)).items.filter((c) => c.name === 'during').length, 0, 'the dropped collection stays dropped');
  });

  test(`a mover ${realKills ? 'killed (SIGKILL)' : 'frozen'} right after each phase is finished by running the move again`, async () => {
    // One namespace per phase, their movers side by side (each in its own process when killed).
    const cases = await Promise.all(KILL_PHASES.map(async (phase) => ({ phase, owner: `mover-${phase}`, ...(await populated()) })));
    const befores = await Promise.all(cases.map((c) => view(c.store, c.ns.id, c.coll)));
    if (realKills) {
      // One mover process for every case, killed once each move stopped after its phase (crash-child.ts).
      const store = cases[0]!.store;
      const spec = cases.map(({ ns, to, phase, owner }) => ({ ns: ns.id, to, phase, owner }));
      const code = await new Promise<number | null>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', CHILD, JSON.stringify(factory.location(store)), JSON.stringify(spec)], { stdio: ['ignore', 'ignore', 'inherit'] });
        child.on('error', reject);
        child.on('exit', (c, sig) => resolve(sig === 'SIGKILL' ? null : c));
      });
      assert.equal(code, null, 'the movers died by SIGKILL, each after its phase');
    } else {
      await Promise.all(
        cases.map(async ({ phase, owner, store, ns, to }) => {
          let reached!: () => void;
          const at = new Promise<void>((r) => (reached = r));
          void store.moveNamespace(ns.id, to, { owner, onProgress: (p) => (p.phase === phase ? (reached(), new Promise<never>(() => {})) : undefined) }).catch(() => undefined);
          await at;
        }),
      );
    }
    // Each namespace finished side by side (independent moves: their own leases and rows).
    await Promise.all(
      cases.map(async ({ phase, owner, store, ns, coll, obj, from, to }, i) => {
        // Whatever the phase, the namespace is readable meanwhile.
        assert.equal((await store.collection(ns.id, coll.id)).name, 'docs');
        if (phase === 'live') {
          // Only the removal of the retired source is left: a node that opens the metastore finishes it.
          const node = (await factory.connect(store)) as Sharded;
          await node.resumeRemovals();
          await assertMoved(store, ns.id, coll, obj, from, to, befores[i]);
          await rejectsWith(() => store.moveNamespace(ns.id, to, { owner }), 'InvalidArgument', (e) => assert.match(e.message, /already on shard/));
          return;
        }
        const again = await store.moveNamespace(ns.id, to, { owner });
        assert.equal(again.resumed, phase !== 'checked', `after "${phase}": an unfinished move is resumed`);
        await assertMoved(store, ns.id, coll, obj, from, to, befores[i]);
      }),
    );
  });

  test('a second mover cannot take over a live move; after the first finishes the namespace can move on', async () => {
    const { store, ns, to } = await populated();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = store.moveNamespace(ns.id, to, { owner: 'first', onProgress: (p) => (p.phase === 'fenced' ? gate : undefined) });
    await new Promise((r) => setTimeout(r, 50));
    await rejectsWith(() => store.moveNamespace(ns.id, to, { owner: 'second' }), 'LeaseHeld');
    release();
    await first;
    const third = store.router.shards.find((s) => s.name !== to)!.name;
    const r = await store.moveNamespace(ns.id, third, { owner: 'second' });
    assert.equal(r.from, to);
    assert.ok(isMetaError(await store.router.shard(to).store.namespace(ns.id).catch((e: unknown) => e), 'NamespaceMoved'));
  });
});

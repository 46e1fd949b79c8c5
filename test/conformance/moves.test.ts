// Namespace moves at a shard's storage (src/meta/moves.ts, spec §5.5, §3.5): the fence every
// write checks, its epochs, the copy of a namespace's rows to another store, and the
// tombstone that answers NamespaceMoved. Selected by the backend offering the move calls.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError, type MetaStore } from '../../src/meta/index.js';
import { hasMoveStorage, type NamespaceMoveStorage } from '../../src/meta/moves.js';
import { movedReads } from '../../src/meta/core/moves.js';
import { hasDirtySets, linkPointerKey } from '../../src/meta/contract.js';
import { factory, fresh, fullIndex, multiItem, needs, rejectsWith, SCHEMA, wal, walPath, world } from './helpers.js';

type Mover = MetaStore & NamespaceMoveStorage;
const probe = await fresh();
const moves = hasMoveStorage(probe) && multiItem;
const skip = needs(moves, 'namespace moves (the move calls of src/meta/moves.ts)');

/** A namespace with a collection that has log entries, a pointer, a tag, a lease and an alias. */
async function populated() {
  const w = await world(2);
  const store = w.store as Mover;
  const { ns, coll } = w;
  const obj = walPath();
  const c1 = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 3 }, { ns: ns.id, stream: coll.streamId, partition: 1, records: 2 }], { object: obj }));
  const manifest = `ns/${ns.id}/c/${coll.id}/manifest-1`;
  const p = await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, manifest);
  await store.createTag(ns.id, coll.id, 'v1', p.version);
  const lease = await store.acquireLease(ns.id, 'compactor', 'node-a', 60_000);
  await store.updateAliases(ns.id, [{ op: 'set', alias: 'current', collection: coll.id }]);
  const stream = await store.createStream({ ns: ns.id, name: 'events', partitions: 1 });
  return { store, ns, coll, obj, c1, manifest, pointer: p, lease, stream };
}

/** Every write a namespace takes, as thunks; each must be refused while fenced. */
function writesOf(store: Mover, ns: number, coll: { id: number; streamId: number; linkId: number }, stream: number, leaseEpoch: number) {
  return {
    createCollection: () => store.createCollection({ ns, name: 'another', schema: SCHEMA, partitions: 1 }),
    dropCollection: () => store.dropCollection(ns, coll.id),
    updateCollectionSchema: () => store.updateCollectionSchema(ns, coll.id, 1, { primaryKey: 'id', fields: { id: 'string', n: 'number' } }),
    updateAliases: () => store.updateAliases(ns, [{ op: 'remove', alias: 'current' }]),
    createStream: () => store.createStream({ ns, name: 'more', partitions: 1 }),
    dropStream: () => store.dropStream(ns, stream),
    setRetention: () => store.setRetention(ns, stream, { ms: 1_000, bytes: null }),
    commitWal: () => store.commitWal(wal([{ ns, stream: coll.streamId, partition: 0 }])),
    swapSegment: () => store.swapSegment({ ns, stream: coll.streamId, partition: 0, start: 0, end: 3, path: `ns/${ns}/s/${coll.streamId}/seg-1`, byteStart: 0, byteEnd: 300 }),
    trimPartition: () => store.trimPartition(ns, coll.streamId, 0, 3),
    casPointer: () => store.casPointer(ns, linkPointerKey(coll.linkId), 1, `ns/${ns}/c/${coll.id}/manifest-2`),
    acquireLease: () => store.acquireLease(ns, 'other', 'node-b', 60_000),
    renewLease: () => store.renewLease(ns, 'compactor', 'node-a', leaseEpoch, 60_000),
    releaseLease: () => store.releaseLease(ns, 'compactor', 'node-a', leaseEpoch),
    createTag: () => store.createTag(ns, coll.id, 'v2', 1),
    dropTag: () => store.dropTag(ns, coll.id, 'v1'),
    claimObject: () => store.claimObject(`ns/${ns}/c/${coll.id}/orphan`, 'gc-1'),
    janitor: () => store.janitor(ns),
    dropNamespace: () => store.dropNamespace(ns),
  };
}

/** What a reader sees of the namespace: every read the copy must reproduce. */
async function readAll(store: MetaStore, ns: number, coll: { id: number; streamId: number; linkId: number }, stream: number, obj: string, manifest: string) {
  return {
    namespace: await store.namespace(ns),
    collection: await store.collection(ns, coll.id),
    byName: await store.collectionByName(ns, 'docs'),
    collections: (await store.listCollections(ns)).items.map((c) => c.id),
    streams: (await store.listStreams(ns)).items.map((s) => s.id),
    stream: await store.stream(ns, stream),
    head: await store.collectionHead(ns, coll.id),
    state: await store.streamState(ns, coll.streamId),
    index0: await fullIndex(store, ns, coll.streamId, 0),
    index1: await fullIndex(store, ns, coll.streamId, 1),
    pointer: await store.pointer(ns, linkPointerKey(coll.linkId)),
    pointerVersion: await store.pointerVersion(ns, linkPointerKey(coll.linkId), 1),
    lease: await store.lease(ns, 'compactor'),
    aliases: await store.aliases(ns),
    tags: (await store.listTags(ns, coll.id)).items,
    manifestRef: await store.objectRef(manifest),
    walRefs: (await store.objectRef(obj))?.refs,
    referenced: await store.segmentReferenced(ns, coll.streamId, obj),
  };
}

// Outside the describe: a skipped describe runs no hooks, and the capability probe's store must
// still be closed (a remote store's channel and server would keep the file's process alive).
after(() => factory.cleanup());

describe('namespace moves: the fence and the copy (spec §5.5)', { skip }, () => {

  test('a fenced namespace refuses every write with Retryable namespace-fenced and writes nothing; reads go on', async () => {
    const { store, ns, coll, obj, manifest, lease, stream } = await populated();
    const before = await readAll(store, ns.id, coll, stream.id, obj, manifest);
    assert.deepEqual(await store.moveState(ns.id), { ns: ns.id, state: 'open', epoch: 0 });
    assert.deepEqual(await store.fenceNamespace(ns.id, 1), { ns: ns.id, state: 'fenced', epoch: 1 });
    for (const [name, call] of Object.entries(writesOf(store, ns.id, coll, stream.id, lease.epoch))) {
      await rejectsWith(call, 'Retryable', (e) => {
        assert.equal(e.details.reason, 'namespace-fenced', `${name}: ${e.message}`);
        assert.equal(e.details.ns, ns.id);
        assert.equal(e.details.moveEpoch, 1);
        assert.equal(e.details.beforeSend, true, `${name}: a fenced write certainly did not apply`);
      });
    }
    assert.deepEqual(await readAll(store, ns.id, coll, stream.id, obj, manifest), before, 'reads are served, and no refused write changed anything');
    // Another namespace on the same store is not fenced.
    const other = await store.createNamespace({ org: 'org-a', name: 'ns-other' });
    await store.createStream({ ns: other.id, name: 's', partitions: 1 });
  });

  test('unfence lifts the fence; epochs only grow (same epoch is a no-op, lower or lifted is FenceMismatch)', async () => {
    const { store, ns, coll } = await populated();
    await store.fenceNamespace(ns.id, 5);
    assert.deepEqual(await store.fenceNamespace(ns.id, 5), { ns: ns.id, state: 'fenced', epoch: 5 }, 'fencing again at the same epoch is a no-op');
    await rejectsWith(() => store.fenceNamespace(ns.id, 4), 'FenceMismatch');
    await rejectsWith(() => store.unfenceNamespace(ns.id, 4), 'FenceMismatch');
    assert.deepEqual(await store.unfenceNamespace(ns.id, 5), { ns: ns.id, state: 'open', epoch: 5 });
    assert.deepEqual(await store.unfenceNamespace(ns.id, 5), { ns: ns.id, state: 'open', epoch: 5 }, 'idempotent');
    await rejectsWith(() => store.fenceNamespace(ns.id, 5), 'FenceMismatch', (e) => assert.equal(e.details.currentEpoch, 5));
    const r = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    assert.deepEqual([r.assigned[0]!.start, r.assigned[0]!.end], [3, 4], 'writes go on after the fence is lifted, offsets dense');
    await rejectsWith(() => store.fenceNamespace(9_999_999, 1), 'NotFound');
    await rejectsWith(() => store.exportNamespace(ns.id), 'InvalidArgument', (e) => assert.equal(e.details.field, 'ns'));
  });

  test('writes racing the fence: each either committed before it (and is in the copy) or was refused', async () => {
    const { store, ns, coll } = await populated();
    const writes = Array.from({ length: 40 }, () => store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }])).then((r) => r, (e: unknown) => e));
    await new Promise((r) => setTimeout(r, 1));
    await store.fenceNamespace(ns.id, 1);
    const outcomes = await Promise.all(writes);
    const rows = await store.exportNamespace(ns.id);
    const copied = new Set(rows.index.filter((e) => e.stream === coll.streamId && e.partition === 0).map((e) => e.start));
    let ok = 0;
    for (const o of outcomes) {
      if (isMetaError(o)) {
        assert.equal(o.details.reason, 'namespace-fenced', o.message);
        continue;
      }
      ok++;
      assert.ok(copied.has((o as { assigned: { start: number }[] }).assigned[0]!.start), 'an acknowledged write is in the copy');
    }
    const head = rows.heads.find((h) => h.stream === coll.streamId && h.partition === 0)!;
    assert.equal(head.next, 3 + ok, 'the copy holds exactly the writes that committed');
  });

  test('a copy on another store reads the same, arrives fenced, and takes writes after unfence at dense offsets and versions', async () => {
    const { store, ns, coll, obj, manifest, stream } = await populated();
    const target = (await fresh()) as Mover;
    const before = await readAll(store, ns.id, coll, stream.id, obj, manifest);
    await store.fenceNamespace(ns.id, 1);
    const rows = await store.exportNamespace(ns.id);
    assert.deepEqual(await target.importNamespace(rows, 1), { ns: ns.id, state: 'fenced', epoch: 1 });
    assert.deepEqual(await readAll(target, ns.id, coll, stream.id, obj, manifest), before);
    await rejectsWith(() => target.createStream({ ns: ns.id, name: 'x', partitions: 1 }), 'Retryable');
    // Importing again at the same epoch (a resumed move) replaces the copy: nothing doubles.
    await target.importNamespace(await store.exportNamespace(ns.id), 1);
    assert.deepEqual(await readAll(target, ns.id, coll, stream.id, obj, manifest), before);
    await rejectsWith(() => target.importNamespace(rows, 2), 'FenceMismatch');
    await target.unfenceNamespace(ns.id, 1);
    await rejectsWith(() => target.importNamespace(rows, 1), 'AlreadyExists', (e) => assert.equal(e.details.existingId, ns.id));
    if (hasDirtySets(store) && hasDirtySets(target)) {
      // The dirty set (core/due.ts): every moved head arrives due, with the mark it had, so a
      // settle with a mark read on the source before the move applies only while no commit
      // came in on the target since.
      const mine = async (m: typeof store) => (await m.dueHeads(Number.MAX_SAFE_INTEGER, { limit: 1_000 })).items.filter((h) => h.ns === ns.id && h.stream === coll.streamId);
      const onSource = await mine(store);
      assert.deepEqual((await mine(target)).map((h) => [h.partition, h.mark, h.due]), onSource.map((h) => [h.partition, h.mark, 0]));
      const [p0, p1] = onSource;
      assert.equal(await target.settleHead(ns.id, coll.streamId, p1!.partition, p1!.mark, null), true, 'nothing committed since: the settle applies');
      await target.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: p0!.partition }]));
      assert.equal(await target.settleHead(ns.id, coll.streamId, p0!.partition, p0!.mark, null), false, 'a commit on the target since: still due');
    }
    const r = await target.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 1 }]));
    assert.deepEqual([r.assigned[0]!.start, r.assigned[0]!.end], [2, 3]);
    const p = await target.casPointer(ns.id, linkPointerKey(coll.linkId), 1, `ns/${ns.id}/c/${coll.id}/manifest-2`);
    assert.equal(p.version, 2);
    await target.renewLease(ns.id, 'compactor', 'node-a', before.lease!.epoch, 60_000);
    const c2 = await target.createCollection({ ns: ns.id, name: 'second', schema: SCHEMA, partitions: 1 });
    assert.ok(c2.id > coll.id && c2.streamId > stream.id, 'ids on the target never collide with copied ones');
  });

  test('a retired source answers NamespaceMoved to every call while its rows are removed in batches, then keeps a tombstone; its WAL live count moves', async () => {
    const { store, ns, coll, obj, stream } = await populated();
    const target = (await fresh()) as Mover;
    await store.fenceNamespace(ns.id, 3);
    await target.importNamespace(await store.exportNamespace(ns.id), 3);
    await target.unfenceNamespace(ns.id, 3);
    assert.equal((await store.objectRef(obj))?.refs, 2);
    assert.equal((await target.objectRef(obj))?.refs, 2, "the target counts the namespace's chunks of the WAL object");
    await rejectsWith(() => store.retireNamespace(ns.id, 2), 'FenceMismatch');
    await rejectsWith(() => store.removeNamespaceCopy(ns.id, 2, { tombstone: true }), 'FenceMismatch');
    assert.deepEqual(await store.retireNamespace(ns.id, 3), { ns: ns.id, state: 'retired', epoch: 3 });
    assert.deepEqual(await store.retireNamespace(ns.id, 3), { ns: ns.id, state: 'retired', epoch: 3 }, 'idempotent');
    assert.ok((await store.retiredNamespaces(1_000)).some((m) => m.ns === ns.id && m.state === 'retired' && m.epoch === 3), 'listed for a restarted cleanup');
    assert.equal((await store.objectRef(obj))?.refs, 2, 'retiring removes no row');

    const reads = movedReads(store);
    const moved = (e: { details: { ns?: number; moveEpoch?: number } }) => {
      assert.equal(e.details.ns, ns.id);
      assert.equal(e.details.moveEpoch, 3);
    };
    const everyCall = () => [
      () => reads.namespace(ns.id),
      () => reads.namespace(ns.id, { includeDropping: true }),
      () => reads.collection(ns.id, coll.id),
      () => reads.collectionByName(ns.id, 'docs'),
      () => reads.listCollections(ns.id),
      () => reads.listStreams(ns.id),
      () => reads.stream(ns.id, stream.id),
      () => reads.collectionHead(ns.id, coll.id),
      () => reads.streamState(ns.id, coll.streamId),
      () => reads.partitionIndex(ns.id, coll.streamId, 0),
      () => reads.pointer(ns.id, linkPointerKey(coll.linkId)),
      () => reads.pointerVersion(ns.id, linkPointerKey(coll.linkId), 1),
      () => reads.aliases(ns.id),
      () => reads.lease(ns.id, 'compactor'),
      () => reads.listTags(ns.id, coll.id),
      () => reads.segmentReferenced(ns.id, coll.streamId, obj),
      ...Object.values(writesOf(store, ns.id, coll, stream.id, 1)),
      () => store.fenceNamespace(ns.id, 4),
    ];
    // Its rows still there: every read finds them, and is told the namespace moved all the same.
    for (const call of everyCall()) await rejectsWith(call, 'NamespaceMoved', moved);

    await rejectsWith(() => store.removeNamespaceCopy(ns.id, 3, { tombstone: true, limit: 0 }), 'InvalidArgument', (e) => assert.equal(e.details.field, 'limit'));
    let m = await store.removeNamespaceCopy(ns.id, 3, { tombstone: true, limit: 4 });
    assert.equal(m.state, 'retired', 'rows are left after one batch of 4');
    for (let batch = 1; m.state === 'retired' && batch < 100; batch++) m = await store.removeNamespaceCopy(ns.id, 3, { tombstone: true, limit: 4 });
    assert.deepEqual(m, { ns: ns.id, state: 'moved', epoch: 3 }, 'the last batch leaves the tombstone');
    assert.deepEqual(await store.removeNamespaceCopy(ns.id, 3, { tombstone: true, limit: 4 }), m, 'idempotent');
    assert.ok(!(await store.retiredNamespaces(1_000)).some((r) => r.ns === ns.id), 'no longer listed');
    assert.equal((await store.objectRef(obj))?.refs, 0, "the source's live count went to zero");
    assert.ok((await store.retiredWalObjects()).items.some((o) => o.path === obj), 'so the source counts the WAL object retired');
    assert.equal((await target.objectRef(obj))?.refs, 2, 'while the target still holds it');
    for (const call of everyCall()) await rejectsWith(call, 'NamespaceMoved', moved);
    // The tombstone holds no name: a namespace of that name may be created on the source, and
    // a copy coming back while it lives is refused with a clear error, not a constraint failure.
    const again = await store.createNamespace({ org: ns.org, name: ns.name });
    assert.notEqual(again.id, ns.id);
    await target.fenceNamespace(ns.id, 4);
    const back = await target.exportNamespace(ns.id);
    await rejectsWith(() => store.importNamespace(back, 4), 'AlreadyExists', (e) => assert.equal(e.details.existingId, again.id));
    await store.dropNamespace(again.id);
    // The namespace may move back: the tombstone is replaced by the copy.
    await store.importNamespace(back, 4);
    await store.unfenceNamespace(ns.id, 4);
    assert.equal((await store.collection(ns.id, coll.id)).name, 'docs');
  });

  test('a pre-copy while writes go on, then the fenced delta: the target ends equal to the source in every kind of row', async () => {
    const { store, ns, coll, obj, lease, stream } = await populated();
    const target = (await fresh()) as Mover;
    const early = await store.createStream({ ns: ns.id, name: 'early', partitions: 1 }, { requestId: 'req-before-tracking' });
    // Another handle on the same database (another node), its statements prepared before tracking began.
    const other = await factory.connect(store);
    await other.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 1 }]));
    assert.deepEqual(await store.trackNamespace(ns.id, 1), { ns: ns.id, state: 'tracking', epoch: 1 });
    assert.deepEqual(await store.trackNamespace(ns.id, 1), { ns: ns.id, state: 'tracking', epoch: 1 }, 'tracking again at the same epoch is a no-op');
    await rejectsWith(() => store.exportNamespaceChanges(ns.id), 'InvalidArgument', (e) => assert.equal(e.details.field, 'ns'));
    // The pre-copy: a snapshot while tracking, arriving fenced on the target.
    const pre = await store.exportNamespace(ns.id);
    assert.deepEqual(await target.importNamespace(pre, 1), { ns: ns.id, state: 'fenced', epoch: 1 });
    assert.ok(pre.tokens.some((t) => t.id === 'req-before-tracking'), 'a commit token moves with its namespace');

    // Writes go on meanwhile, changing every kind of row: catalog, heads and index, pointers
    // and their history, leases, tags, object references, commit tokens; inserts, updates, deletes.
    const during = await store.createCollection({ ns: ns.id, name: 'during', schema: SCHEMA, partitions: 1 }, { requestId: 'req-during' });
    await store.updateAliases(ns.id, [{ op: 'set', alias: 'next', collection: during.id }]);
    const obj2 = walPath();
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }, { ns: ns.id, stream: during.streamId, partition: 0 }], { object: obj2 }));
    await store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 1, start: 0, end: 2, path: `ns/${ns.id}/s/${coll.streamId}/seg-1`, byteStart: 0, byteEnd: 200 });
    await store.trimPartition(ns.id, coll.streamId, 0, 3);
    await store.casPointer(ns.id, linkPointerKey(coll.linkId), 1, `ns/${ns.id}/c/${coll.id}/manifest-2`);
    await store.releaseLease(ns.id, 'compactor', 'node-a', lease.epoch);
    await store.acquireLease(ns.id, 'indexer', 'node-b', 60_000);
    await store.createTag(ns.id, coll.id, 'v2', 2);
    await store.dropTag(ns.id, coll.id, 'v1');
    await store.claimObject(`ns/${ns.id}/c/${coll.id}/orphan`, 'gc-1');
    await store.setRetention(ns.id, early.id, { ms: 1_000, bytes: null });
    await store.updateCollectionSchema(ns.id, coll.id, 1, { primaryKey: 'id', fields: { id: 'string', n: 'number' } });
    await store.dropStream(ns.id, stream.id);
    await store.janitor(ns.id);
    // A catch-up while writes go on: taken (its keys forgotten) and copied to the target.
    await rejectsWith(() => store.takeNamespaceChanges(ns.id, 2), 'FenceMismatch');
    const caught = await store.takeNamespaceChanges(ns.id, 1);
    assert.deepEqual(await target.importNamespaceChanges(caught, 1), { ns: ns.id, state: 'fenced', epoch: 1 });
    // What changes after it is recorded again, a row it copied too (the pointer).
    await other.commitWal(wal([{ ns: ns.id, stream: early.id, partition: 0, records: 4 }]));
    await other.casPointer(ns.id, 'other-handle', null, `ns/${ns.id}/x/1`);
    await store.casPointer(ns.id, linkPointerKey(coll.linkId), 2, `ns/${ns.id}/c/${coll.id}/manifest-3`);

    assert.deepEqual(await store.fenceNamespace(ns.id, 1), { ns: ns.id, state: 'fenced', epoch: 1 }, 'a tracking namespace is fenced at its epoch');
    await rejectsWith(() => store.takeNamespaceChanges(ns.id, 1), 'FenceMismatch');
    const delta = await store.exportNamespaceChanges(ns.id);
    const full = await store.exportNamespace(ns.id);
    assert.ok(!delta.changed.streams.some((k) => k[0] === coll.streamId) && !delta.changed.links.some((k) => k[0] === coll.linkId), `only what changed: ${JSON.stringify(delta.changed)}`);
    assert.ok(!delta.changed.collections.some((k) => k[0] === during.id), `only what changed since the catch-up: ${JSON.stringify(delta.changed)}`);
    assert.ok(delta.changed.pointers.some((k) => k[0] === linkPointerKey(coll.linkId)), 'a row copied by the catch-up and changed again is in the delta');
    const kinds = (d: typeof delta) => Object.entries(d.changed).flatMap(([kind, keys]) => (keys.length > 0 ? [kind] : []));
    assert.deepEqual(new Set([...kinds(caught), ...kinds(delta)]).size, Object.keys(delta.changed).length, `every kind of row changed, and was recorded: ${JSON.stringify(caught.changed)} ${JSON.stringify(delta.changed)}`);
    assert.deepEqual(await target.importNamespaceChanges(delta, 1), { ns: ns.id, state: 'fenced', epoch: 1 });
    const onTarget = await target.exportNamespace(ns.id);
    for (const kind of Object.keys(full) as (keyof typeof full)[]) assert.deepEqual(onTarget[kind], full[kind], `${kind}: the target equals the source`);
    for (const path of [obj, obj2]) assert.equal((await target.objectRef(path))?.refs ?? 0, (await store.objectRef(path))?.refs ?? 0, `the WAL live count of ${path} moved with the entries`);
    await rejectsWith(() => target.importNamespaceChanges(delta, 2), 'FenceMismatch');

    // After the move, a write retried on the target with its requestId finds its first result there.
    await target.unfenceNamespace(ns.id, 1);
    const retried = await target.createCollection({ ns: ns.id, name: 'during', schema: SCHEMA, partitions: 1 }, { requestId: 'req-during' });
    assert.deepEqual(retried, during, 'the retry applied nothing twice');
    assert.equal((await target.listCollections(ns.id)).items.filter((c) => c.name === 'during').length, 1);
  });

  test('tracking is lifted by unfence (a failed pre-copy is undone) and cannot go back in epochs', async () => {
    const { store, ns, coll } = await populated();
    await store.trackNamespace(ns.id, 2);
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    await rejectsWith(() => store.trackNamespace(ns.id, 1), 'FenceMismatch');
    assert.deepEqual(await store.unfenceNamespace(ns.id, 2), { ns: ns.id, state: 'open', epoch: 2 });
    await rejectsWith(() => store.trackNamespace(ns.id, 2), 'FenceMismatch', (e) => assert.equal(e.details.currentEpoch, 2));
    // A later move tracks afresh: the changes before it are in its own snapshot, not recorded.
    await store.trackNamespace(ns.id, 3);
    await store.fenceNamespace(ns.id, 3);
    const d = await store.exportNamespaceChanges(ns.id);
    assert.deepEqual(Object.values(d.changed).flat(), [], 'nothing recorded since tracking began at epoch 3');
  });

  test('a copy abandoned on the target is forgotten entirely (a failed move leaves nothing half-moved)', async () => {
    const { store, ns, coll, obj } = await populated();
    const target = (await fresh()) as Mover;
    await store.fenceNamespace(ns.id, 1);
    await target.importNamespace(await store.exportNamespace(ns.id), 1);
    assert.deepEqual(await target.removeNamespaceCopy(ns.id, 1, { tombstone: false }), { ns: ns.id, state: 'absent', epoch: 0 });
    assert.equal((await target.objectRef(obj))?.refs ?? 0, 0);
    await rejectsWith(() => target.namespace(ns.id), 'NotFound');
    await store.unfenceNamespace(ns.id, 1);
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    assert.deepEqual(await store.moveState(ns.id), { ns: ns.id, state: 'open', epoch: 1 });
  });
});

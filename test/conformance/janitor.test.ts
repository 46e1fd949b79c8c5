// The janitor of dropped collections and streams (spec §2.3): what a drop leaves behind is
// deleted, references are released (WAL objects retire), live neighbours are untouched, and
// a second run finds nothing. Fresh store per case.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { JANITOR_BATCH_ENTRIES, linkPointerKey, type MetaStore } from '../../src/meta/index.js';
import { SCHEMA, factory, fresh, multiItem, needs, rejectsWith, wal, world } from './helpers.js';

/** Runs the janitor until it says done (bounded: a runaway janitor fails the case). */
async function sweep(store: MetaStore, ns: number): Promise<{ collections: number; streams: number; calls: number }> {
  const total = { collections: 0, streams: 0, calls: 0 };
  for (let i = 0; i < 100; i++) {
    const r = await store.janitor(ns);
    total.collections += r.collections;
    total.streams += r.streams;
    total.calls++;
    if (r.done) return total;
  }
  throw new Error('janitor did not finish in 100 calls');
}

describe('janitor', { skip: needs(multiItem, "transactions 'multi-item' (the janitor releases references in transactions)") }, () => {
  after(() => factory.cleanup());

  test('after dropCollection the janitor removes the collection, its stream, index and tags; its objects become claimable', async () => {
    const { store, ns, coll } = await world(2);
    const a = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 3 }, { ns: ns.id, stream: coll.streamId, partition: 1, records: 2 }]);
    const b = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }]);
    await store.commitWal(a);
    await store.commitWal(b);
    await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, 'm/janitor-1');
    await store.createTag(ns.id, coll.id, 'keep', 1);
    await store.dropCollection(ns.id, coll.id);
    assert.deepEqual((await store.retiredWalObjects()).items.filter((r) => r.path === a.object || r.path === b.object), [], 'not retired before the janitor');

    const r = await sweep(store, ns.id);
    assert.equal(r.collections, 1);
    assert.equal(r.streams, 1);
    await rejectsWith(() => store.collection(ns.id, coll.id, { includeDropping: true }), 'NotFound');
    await rejectsWith(() => store.stream(ns.id, coll.streamId, { includeDropping: true }), 'NotFound');
    const retired = (await store.retiredWalObjects()).items.map((x) => x.path);
    assert.ok(retired.includes(a.object) && retired.includes(b.object), 'both WAL objects retired');
    assert.equal((await store.objectRef('m/janitor-1'))?.refs ?? 0, 0, 'the tag released its manifest');
    assert.equal((await store.claimObject('m/janitor-1', 'gc')).claimed, true);

    const again = await store.janitor(ns.id);
    assert.deepEqual(again, { collections: 0, streams: 0, done: true }, 'a second run finds nothing');
  });

  test('the janitor leaves live collections and their shared WAL objects alone', async () => {
    const { store, ns, coll } = await world(1);
    const other = await store.createCollection({ ns: ns.id, name: 'other', schema: SCHEMA, partitions: 1 });
    const shared = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }, { ns: ns.id, stream: other.streamId, partition: 0, records: 4 }]);
    await store.commitWal(shared);
    await store.dropCollection(ns.id, coll.id);
    await sweep(store, ns.id);
    const idx = await store.partitionIndex(ns.id, other.streamId, 0);
    assert.deepEqual(idx.entries.map((e) => [e.path, e.start, e.end]), [[shared.object, 0, 4]], "the live collection's index is intact");
    assert.ok(!(await store.retiredWalObjects()).items.some((x) => x.path === shared.object), 'still live through the other collection');
    await store.trimPartition(ns.id, other.streamId, 0, 4);
    assert.ok((await store.retiredWalObjects()).items.some((x) => x.path === shared.object), 'retired once its last chunk is trimmed');
    assert.equal((await store.collectionByName(ns.id, 'other')).id, other.id);
  });

  test('the janitor removes a dropped explicit stream and its heads; the name stays free', async () => {
    const { store, ns } = await world(1);
    const s = await store.createStream({ ns: ns.id, name: 'events', partitions: 2 });
    const c = wal([{ ns: ns.id, stream: s.id, partition: 1, records: 5 }]);
    await store.commitWal(c);
    await store.dropStream(ns.id, s.id);
    const r = await sweep(store, ns.id);
    assert.equal(r.streams, 1);
    await rejectsWith(() => store.stream(ns.id, s.id, { includeDropping: true }), 'NotFound');
    assert.ok((await store.retiredWalObjects()).items.some((x) => x.path === c.object));
    const again = await store.createStream({ ns: ns.id, name: 'events', partitions: 1 });
    assert.notEqual(again.id, s.id);
  });
  test('one janitor call deletes a bounded batch (JANITOR_BATCH_ENTRIES); later calls finish the rest', async () => {
    // More index entries than one batch may clear: 32 partitions, one entry each per commit.
    const partitions = 32;
    const store = await fresh();
    const ns = await store.createNamespace({ org: 'org-a', name: 'ns-big' });
    const coll = await store.createCollection({ ns: ns.id, name: 'wide', schema: SCHEMA, partitions });
    const objects: string[] = [];
    for (let i = 0; i * partitions <= JANITOR_BATCH_ENTRIES; i++) {
      const c = wal(Array.from({ length: partitions }, (_, p) => ({ ns: ns.id, stream: coll.streamId, partition: p })));
      await store.commitWal(c);
      objects.push(c.object);
    }
    await store.dropCollection(ns.id, coll.id);

    const first = await store.janitor(ns.id);
    assert.equal(first.done, false, 'the first call stops after its batch');
    assert.deepEqual([first.collections, first.streams], [0, 0], 'nothing is finished yet');
    const early = new Set((await store.retiredWalObjects({ limit: 1000 })).items.map((x) => x.path));
    assert.ok(objects.some((o) => !early.has(o)), 'an object whose entries remain is not retired yet');
    const rest = await sweep(store, ns.id);
    assert.deepEqual([rest.collections, rest.streams], [1, 1]);
    const retired = new Set((await store.retiredWalObjects({ limit: 1000 })).items.map((x) => x.path));
    assert.ok(objects.every((o) => retired.has(o)), 'every object retired once every entry is gone');
    await rejectsWith(() => store.collection(ns.id, coll.id, { includeDropping: true }), 'NotFound');
  });
});

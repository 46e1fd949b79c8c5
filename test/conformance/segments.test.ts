// swapSegment, segmentReferenced and retiredWalObjects (spec §2.3, §3.2.3). Fresh store per case.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { MetaStore, SegmentSwap } from '../../src/meta/index.js';
import { caps, factory, fullIndex, multiItem, needs, rejectsInvalid, rejectsWith, smallSwaps, wal, world, allPages } from './helpers.js';
/** Why a case is selected by capability: collections, streams and the log are multi-item writes. */
const MULTI = "transactions 'multi-item' (collections, streams, drops and the log are multi-item writes)";


/** A partition with entries [0,2) [2,5) [5,6) [6,10), one WAL object each. */
async function fourEntries() {
  const w = await world(2);
  const objects: string[] = [];
  for (const records of [2, 3, 1, 4]) {
    const c = wal([{ ns: w.ns.id, stream: w.coll.streamId, partition: 0, records }]);
    objects.push(c.object);
    await w.store.commitWal(c);
  }
  const swap = (start: number, end: number, path: string): SegmentSwap => ({
    ns: w.ns.id,
    stream: w.coll.streamId,
    partition: 0,
    start,
    end,
    path,
    byteStart: 0,
    byteEnd: (end - start) * 100,
  });
  return { ...w, objects, swap };
}

async function retired(store: MetaStore): Promise<string[]> {
  return (await allPages((after) => store.retiredWalObjects({ after, limit: 100 }))).items.map((r) => r.path);
}

describe('segments', { skip: needs(multiItem, MULTI) }, () => {
  after(() => factory.cleanup());

  test('swapSegment replaces the entries of [start, end) with one segment entry; the head is unchanged', async () => {
    const { store, ns, coll, objects, swap } = await fourEntries();
    const path = `ns/${ns.id}/seg/0-5.seg`;
    const { entry } = await store.swapSegment(swap(0, 5, path));
    assert.deepEqual(entry, { partition: 0, start: 0, end: 5, kind: 'segment', path, byteStart: 0, byteEnd: 500, records: 5 });
    const idx = await fullIndex(store, ns.id, coll.streamId, 0);
    assert.deepEqual(
      idx.entries.map((e) => [e.kind, e.start, e.end, e.path]),
      [
        ['segment', 0, 5, path],
        ['wal', 5, 6, objects[2]],
        ['wal', 6, 10, objects[3]],
      ],
    );
    assert.equal(idx.next, 10);
    assert.equal(idx.logStart, 0);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, path), true);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, `ns/${ns.id}/seg/other.seg`), false);
  });

  test('swapSegment is idempotent by path: a retry returns the same entry and changes nothing', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    const s = swap(2, 6, `ns/${ns.id}/seg/2-6.seg`);
    const first = await store.swapSegment(s);
    const before = await fullIndex(store, ns.id, coll.streamId, 0);
    const again = await store.swapSegment(s);
    assert.deepEqual(again, first);
    assert.deepEqual(await fullIndex(store, ns.id, coll.streamId, 0), before);
  });

  test('a range that does not start and end on entry boundaries is InvalidArgument; nothing changes', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    const before = await fullIndex(store, ns.id, coll.streamId, 0);
    await rejectsWith(() => store.swapSegment(swap(1, 5, `ns/${ns.id}/seg/a`)), 'InvalidArgument');
    await rejectsWith(() => store.swapSegment(swap(0, 4, `ns/${ns.id}/seg/b`)), 'InvalidArgument');
    await rejectsWith(() => store.swapSegment(swap(3, 8, `ns/${ns.id}/seg/c`)), 'InvalidArgument');
    assert.deepEqual(await fullIndex(store, ns.id, coll.streamId, 0), before);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, `ns/${ns.id}/seg/a`), false);
  });

  test('swapSegment of a range trimmed meanwhile is NotFound', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    await store.trimPartition(ns.id, coll.streamId, 0, 2);
    await rejectsWith(() => store.swapSegment(swap(0, 5, `ns/${ns.id}/seg/late.seg`)), 'NotFound');
    const idx = await fullIndex(store, ns.id, coll.streamId, 0);
    assert.deepEqual(
      idx.entries.map((e) => [e.kind, e.start]),
      [
        ['wal', 2],
        ['wal', 5],
        ['wal', 6],
      ],
    );
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, `ns/${ns.id}/seg/late.seg`), false);
  });

  test('a segment can be swapped again with its neighbours; the old segment is no longer referenced', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    const a = `ns/${ns.id}/seg/0-5.seg`;
    const b = `ns/${ns.id}/seg/0-10.seg`;
    await store.swapSegment(swap(0, 5, a));
    const { entry } = await store.swapSegment(swap(0, 10, b));
    assert.deepEqual([entry.start, entry.end, entry.records], [0, 10, 10]);
    assert.deepEqual(
      (await fullIndex(store, ns.id, coll.streamId, 0)).entries.map((e) => e.path),
      [b],
    );
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, a), false);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, b), true);
  });

  test('a segment trimmed away is no longer referenced', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    const path = `ns/${ns.id}/seg/0-5.seg`;
    await store.swapSegment(swap(0, 5, path));
    await store.trimPartition(ns.id, coll.streamId, 0, 4);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, path), true, 'the entry [0,5) still covers 4');
    await store.trimPartition(ns.id, coll.streamId, 0, 5);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, path), false);
  });

  test(
    'swapSegment over more than maxSwapEntries entries is LimitExceeded; exactly the limit is fine',
    { skip: needs(smallSwaps, 'maxSwapEntries <= 1000') },
    async () => {
      const n = caps.maxSwapEntries;
      const { store, ns, coll } = await world(1);
      for (let i = 0; i <= n; i++) await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
      const s = (end: number, path: string): SegmentSwap => ({
        ns: ns.id,
        stream: coll.streamId,
        partition: 0,
        start: 0,
        end,
        path,
        byteStart: 0,
        byteEnd: 100 * end,
      });
      await rejectsWith(() => store.swapSegment(s(n + 1, `ns/${ns.id}/seg/too-big`)), 'LimitExceeded', (e) =>
        assert.equal(e.details.max, n),
      );
      assert.equal((await fullIndex(store, ns.id, coll.streamId, 0)).entries.length, n + 1, 'nothing replaced');
      const { entry } = await store.swapSegment(s(n, `ns/${ns.id}/seg/just-right`));
      assert.equal(entry.end, n);
    },
  );

  test('retiredWalObjects lists a WAL object once every chunk of it was segmented or trimmed', async () => {
    const { store, ns, coll } = await world(2);
    const both = wal([
      { ns: ns.id, stream: coll.streamId, partition: 0, records: 2 },
      { ns: ns.id, stream: coll.streamId, partition: 1, records: 3 },
    ]);
    const single = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }]);
    const untouched = wal([{ ns: ns.id, stream: coll.streamId, partition: 1, records: 1 }]);
    await store.commitWal(both);
    await store.commitWal(single);
    await store.commitWal(untouched);
    assert.deepEqual(await retired(store), []);
    await store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 3, path: `ns/${ns.id}/seg/p0`, byteStart: 0, byteEnd: 300 });
    const afterSwap = await retired(store);
    assert.ok(afterSwap.includes(single.object), 'every chunk of `single` is segmented');
    assert.ok(!afterSwap.includes(both.object), '`both` still has a live chunk in partition 1');
    await store.trimPartition(ns.id, coll.streamId, 1, 3);
    const afterTrim = await retired(store);
    assert.ok(afterTrim.includes(both.object), 'its partition-1 chunk is trimmed');
    assert.ok(!afterTrim.includes(untouched.object));
    const page = await store.retiredWalObjects({ limit: 1 });
    assert.equal(page.items.length, 1);
    assert.ok(page.next !== undefined, 'two retired objects, one per page');
  });

  test('with a fence, swapSegment and trimPartition apply while the lease is at its epoch; a stale epoch is FenceMismatch and changes nothing', async () => {
    const { store, ns, coll, swap } = await fourEntries();
    const now = Date.now();
    const key = `segmenter/${coll.streamId}`;
    const a = await store.acquireLease(ns.id, key, 'node-a', 1_000, { stamp: now });
    const fenceA = { scope: ns.id, key, epoch: a.epoch };
    await store.swapSegment(swap(0, 2, `ns/${ns.id}/seg/a-0-2.seg`), { fence: fenceA });
    await store.trimPartition(ns.id, coll.streamId, 0, 2, { fence: fenceA });
    // node-a pauses; its lease expires and node-b takes the stream over.
    const b = await store.acquireLease(ns.id, key, 'node-b', 1_000, { stamp: now + 2_000 });
    const before = await fullIndex(store, ns.id, coll.streamId, 0);
    await rejectsWith(() => store.swapSegment(swap(2, 6, `ns/${ns.id}/seg/a-2-6.seg`), { fence: fenceA }), 'FenceMismatch');
    await rejectsWith(() => store.trimPartition(ns.id, coll.streamId, 0, 5, { fence: fenceA }), 'FenceMismatch');
    assert.deepEqual(await fullIndex(store, ns.id, coll.streamId, 0), before, 'the stale worker changed nothing');
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, `ns/${ns.id}/seg/a-2-6.seg`), false);
    const fenceB = { scope: ns.id, key, epoch: b.epoch };
    await store.swapSegment(swap(2, 6, `ns/${ns.id}/seg/b-2-6.seg`), { fence: fenceB });
    assert.equal((await store.trimPartition(ns.id, coll.streamId, 0, 5, { fence: fenceB })).logStart, 5);
  });
});

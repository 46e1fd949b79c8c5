// The log: commitWal (spec §3.1), partitionIndex and trimPartition (spec §2.3, §3.3),
// streamState and collectionHead. Each case opens a fresh store.
import { mulberry32 } from '../../src/check/prng.js';
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  WAL_COMMIT_WINDOW_MS,
  linkPointerKey,
  planGroups,
  type MetaStore,
  type NamespaceId,
  type StreamId,
  type WalCommit,
} from '../../src/meta/index.js';
import {
  SCHEMA,
  assertContiguous,
  caps,
  factory,
  fresh,
  fullIndex,
  needs,
  nexts,
  rejectsInvalid,
  rejectsWith,
  smallGroups,
  wal,
  world,
  multiItem,
} from './helpers.js';
/** Why a case is selected by capability: collections, streams and the log are multi-item writes. */
const MULTI = "transactions 'multi-item' (collections, streams, drops and the log are multi-item writes)";


/** A deterministic PRNG, so a failing case replays. */
const rng = mulberry32;

/** Whether each chunk of `commit` shows in its partition's index (an entry at this object's path). */
async function chunkCommitted(store: MetaStore, commit: WalCommit): Promise<boolean[]> {
  const out: boolean[] = [];
  for (const c of commit.chunks) {
    let found = false;
    try {
      const idx = await fullIndex(store, c.ns, c.stream, c.partition);
      found = idx.entries.some((e) => e.path === commit.object && e.byteStart === c.byteStart);
    } catch {
      // A dropped stream's index is not readable; its chunk is certainly not committed live.
      found = false;
    }
    out.push(found);
  }
  return out;
}

/** Per group of `planGroups`: every chunk of a group committed, or none. */
function assertPerGroupAtomic(commit: WalCommit, committed: boolean[], maxPerGroup: number): void {
  const { groupOf } = planGroups(commit.chunks, maxPerGroup);
  const byGroup = new Map<number, boolean[]>();
  groupOf.forEach((g, i) => {
    const list = byGroup.get(g) ?? [];
    list.push(committed[i]!);
    byGroup.set(g, list);
  });
  for (const [g, list] of byGroup) {
    assert.ok(
      list.every((x) => x) || list.every((x) => !x),
      `group ${g} was half-committed: ${JSON.stringify(list)}`,
    );
  }
}

async function stream(store: MetaStore, ns: NamespaceId, name: string, partitions: number): Promise<StreamId> {
  return (await store.createStream({ ns, name, partitions })).id;
}

describe('log', { skip: needs(multiItem, MULTI) }, () => {
  after(() => factory.cleanup());

  describe('commitWal', () => {
    test('assigns dense offsets from 0 in request order and indexes each chunk', async () => {
      const { store, ns, coll } = await world(3);
      const c = wal([
        { ns: ns.id, stream: coll.streamId, partition: 2, records: 5 },
        { ns: ns.id, stream: coll.streamId, partition: 0, records: 3 },
      ]);
      const r = await store.commitWal(c);
      assert.equal(r.object, c.object);
      assert.deepEqual(
        r.assigned.map((a) => [a.ns, a.stream, a.partition, a.start, a.end]),
        [
          [ns.id, coll.streamId, 2, 0, 5],
          [ns.id, coll.streamId, 0, 0, 3],
        ],
      );
      const r2 = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 2, records: 2 }]));
      assert.deepEqual([r2.assigned[0]!.start, r2.assigned[0]!.end], [5, 7]);
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), [3, 0, 7]);
      const idx = await store.partitionIndex(ns.id, coll.streamId, 2);
      assert.equal(idx.logStart, 0);
      assert.equal(idx.next, 7);
      assert.deepEqual(idx.entries[0], {
        partition: 2,
        start: 0,
        end: 5,
        kind: 'wal',
        path: c.object,
        byteStart: 0,
        byteEnd: 500,
        records: 5,
      });
      assert.equal(idx.entries.length, 2);
      const st = await store.streamState(ns.id, coll.streamId);
      assert.equal(st.heads[2]!.bytes, 500 + 200, 'bytes indexed in the partition');
      assert.equal(st.heads[0]!.bytes, 300);
    });

    test('offsets stay dense and ordered per partition across many commits', async () => {
      const { store, ns, coll } = await world(3);
      const rand = rng(7);
      const expected = [0, 0, 0];
      for (let i = 0; i < 40; i++) {
        const parts = [0, 1, 2].filter(() => rand() < 0.6);
        if (parts.length === 0) parts.push(i % 3);
        const specs = parts.map((p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 1 + Math.floor(rand() * 9) }));
        const r = await store.commitWal(wal(specs));
        r.assigned.forEach((a, k) => {
          assert.equal(a.start, expected[a.partition], `commit ${i}: partition ${a.partition} must continue densely`);
          assert.equal(a.end - a.start, specs[k]!.records);
          expected[a.partition] = a.end;
        });
      }
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), expected);
      for (const p of [0, 1, 2]) {
        const idx = await fullIndex(store, ns.id, coll.streamId, p);
        assert.equal(idx.next, expected[p]);
        for (const e of idx.entries) assert.equal(e.records, e.end - e.start);
      }
    });

    test('concurrent commits to one partition get disjoint ranges that tile it densely', async () => {
      const { store, ns, coll } = await world(1);
      const sizes = Array.from({ length: 16 }, (_, i) => 1 + (i % 5));
      const results = await Promise.all(
        sizes.map((records) => store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records }]))),
      );
      const ranges = results.map((r, i) => {
        const a = r.assigned[0]!;
        assert.equal(a.end - a.start, sizes[i]);
        return [a.start, a.end] as const;
      });
      ranges.sort((x, y) => x[0] - y[0]);
      let at = 0;
      for (const [start, end] of ranges) {
        assert.equal(start, at, 'no gap, no overlap');
        at = end;
      }
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), [at]);
      assert.equal((await fullIndex(store, ns.id, coll.streamId, 0)).entries.length, sizes.length);
    });

    test('concurrent commits among refused ones: each refusal writes nothing, the rest tile densely, a duplicate gets the same offsets', async () => {
      // Backends may commit concurrent calls together (group commit); a refusal is still its
      // call's alone, decided before anything of it is written (spec §3.1).
      const { store, ns, coll } = await world(2);
      const gone = await stream(store, ns.id, 'gone', 1);
      const replayed = wal([{ ns: ns.id, stream: coll.streamId, partition: 1, records: 2 }]);
      const first = await store.commitWal(replayed);
      await store.dropStream(ns.id, gone);
      const good = Array.from({ length: 8 }, (_, i) => wal([{ ns: ns.id, stream: coll.streamId, partition: i % 2, records: 1 + (i % 3) }]));
      const twice = good[3]!;
      const refused: Array<[WalCommit, string]> = [
        [wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 4 }], { objectStamp: Date.now() - WAL_COMMIT_WINDOW_MS - 60_000 }), 'StaleCommit'],
        [wal([{ ns: ns.id, stream: gone, partition: 0, records: 4 }]), 'NotFound'],
        [wal([{ ns: ns.id, stream: coll.streamId, partition: 2, records: 4 }]), 'InvalidArgument'],
        [{ ...replayed, chunks: [{ ...replayed.chunks[0]!, records: 3 }] }, 'InvalidArgument'],
      ];
      const calls = [...good.map((c) => store.commitWal(c)), store.commitWal(twice), ...refused.map(([c]) => store.commitWal(c))];
      const settled = await Promise.allSettled(calls);
      const ok = settled.slice(0, good.length + 1).map((r, i) => {
        assert.equal(r.status, 'fulfilled', `good commit ${i}: ${r.status === 'rejected' ? (r.reason as Error).message : ''}`);
        return (r as PromiseFulfilledResult<Awaited<ReturnType<MetaStore['commitWal']>>>).value;
      });
      assert.deepEqual(ok[good.length], ok[3], 'the same object committed twice at once gets one set of offsets');
      settled.slice(good.length + 1).forEach((r, k) => {
        assert.equal(r.status, 'rejected', `refused commit ${k} must fail`);
        const e = (r as PromiseRejectedResult).reason as { code?: string; message?: string };
        assert.equal(e.code, refused[k]![1], `refused commit ${k}: ${e.message}`);
      });
      for (const p of [0, 1]) {
        const mine = ok.slice(0, good.length).map((r) => r.assigned[0]!).filter((a) => a.partition === p);
        const ranges = mine.map((a) => [a.start, a.end] as const).sort((x, y) => x[0] - y[0]);
        let at = p === 1 ? first.assigned[0]!.end : 0;
        for (const [start, end] of ranges) {
          assert.equal(start, at, `partition ${p}: no gap, no overlap`);
          at = end;
        }
        const idx = await fullIndex(store, ns.id, coll.streamId, p);
        assert.equal(idx.next, at, `partition ${p}: nothing of a refused commit is in the head`);
        assert.equal(idx.entries.length, mine.length + (p === 1 ? 1 : 0), `partition ${p}: one entry per committed object`);
        assert.ok(idx.entries.every((e) => !refused.slice(0, 3).some(([c]) => c.object === e.path)), 'no entry of a refused commit');
      }
      for (const [c] of refused.slice(0, 3)) assert.equal(await store.objectRef(c.object), null, `${c.object}: no reference taken`);
    });

    test('partitions of different streams and namespaces count independently, also within one WAL object', async () => {
      const { store, ns, coll } = await world(1);
      const ns2 = await store.createNamespace({ org: 'org-b', name: 'ns-two' });
      const c2 = await store.createCollection({ ns: ns2.id, name: 'docs', schema: SCHEMA, partitions: 1 });
      const ev = await stream(store, ns.id, 'events', 1);
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 4 }]));
      const r = await store.commitWal(
        wal([
          { ns: ns2.id, stream: c2.streamId, partition: 0, records: 2 },
          { ns: ns.id, stream: coll.streamId, partition: 0, records: 1 },
          { ns: ns.id, stream: ev, partition: 0, records: 3 },
        ]),
      );
      assert.deepEqual(
        r.assigned.map((a) => [a.ns, a.stream, a.start, a.end]),
        [
          [ns2.id, c2.streamId, 0, 2],
          [ns.id, coll.streamId, 4, 5],
          [ns.id, ev, 0, 3],
        ],
      );
      assert.deepEqual(await nexts(store, ns2.id, c2.streamId), [2]);
      assert.deepEqual(await nexts(store, ns.id, ev), [3]);
    });

    test('a repeated commit of the same object returns the first offsets and commits nothing twice', async () => {
      const { store, ns, coll } = await world(2);
      const c = wal([
        { ns: ns.id, stream: coll.streamId, partition: 0, records: 3 },
        { ns: ns.id, stream: coll.streamId, partition: 1, records: 2 },
      ]);
      const first = await store.commitWal(c);
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }]));
      const heads = await store.streamState(ns.id, coll.streamId);
      const idx0 = await store.partitionIndex(ns.id, coll.streamId, 0);
      const again = await store.commitWal(c);
      assert.deepEqual(again, first);
      const third = await store.commitWal(c, { stamp: Date.now() });
      assert.deepEqual(third, first);
      assert.deepEqual(await store.streamState(ns.id, coll.streamId), heads, 'heads unchanged');
      assert.deepEqual(await store.partitionIndex(ns.id, coll.streamId, 0), idx0, 'index unchanged');
    });

    test('a committed object retried after the commit window still returns its first offsets', async () => {
      const { store, ns, coll } = await world(1);
      const t = Date.now();
      const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }], {
        objectStamp: t - WAL_COMMIT_WINDOW_MS + 5_000,
      });
      const first = await store.commitWal(c, { stamp: t });
      // The retry's stamp puts the object 55 s past the window (the stamp is still within skew of now).
      const late = await store.commitWal(c, { stamp: t + 60_000 });
      assert.deepEqual(late, first);
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), [2]);
    });

    test('StaleCommit for a never-committed object older than the window, judged on the call stamp; nothing is committed', async () => {
      const { store, ns, coll } = await world(1);
      const t = Date.now();
      const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }], {
        objectStamp: t - WAL_COMMIT_WINDOW_MS - 1_000,
      });
      await rejectsWith(() => store.commitWal(c, { stamp: t }), 'StaleCommit');
      await rejectsWith(() => store.commitWal(c), 'StaleCommit');
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), [0]);
      assert.deepEqual((await store.partitionIndex(ns.id, coll.streamId, 0)).entries, []);
      // The same age judged on a lagging proposer's stamp is inside the window: the backend's clock is irrelevant.
      const old = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }], {
        objectStamp: t - WAL_COMMIT_WINDOW_MS - 60_000,
      });
      const r = await store.commitWal(old, { stamp: t - WAL_COMMIT_WINDOW_MS });
      assert.deepEqual([r.assigned[0]!.start, r.assigned[0]!.end], [0, 1]);
    });

    test('a chunk naming a dropped stream is NotFound and its group commits nothing (each group all-or-nothing)', async () => {
      const { store, ns, coll } = await world(2);
      const gone = await stream(store, ns.id, 'gone', 1);
      await store.dropStream(ns.id, gone);
      const c = wal([
        { ns: ns.id, stream: coll.streamId, partition: 0, records: 2 },
        { ns: ns.id, stream: coll.streamId, partition: 1, records: 2 },
        { ns: ns.id, stream: gone, partition: 0, records: 1 },
      ]);
      await rejectsWith(() => store.commitWal(c), 'NotFound');
      const committed = await chunkCommitted(store, c);
      assert.equal(committed[2], false);
      assertPerGroupAtomic(c, committed, caps.maxChunksPerGroup);
      const { groupOf } = planGroups(c.chunks, caps.maxChunksPerGroup);
      if (groupOf[0] === groupOf[2]) {
        assert.deepEqual(await nexts(store, ns.id, coll.streamId), [0, 0], 'the failed group left no offsets');
      }
    });

    test('a chunk naming an unknown stream is NotFound; a partition out of range is InvalidArgument; nothing commits', async () => {
      const { store, ns, coll } = await world(2);
      const unknown = wal([
        { ns: ns.id, stream: coll.streamId, partition: 0 },
        { ns: ns.id, stream: 987654, partition: 0 },
      ]);
      await rejectsWith(() => store.commitWal(unknown), 'NotFound');
      assertPerGroupAtomic(unknown, await chunkCommitted(store, unknown), caps.maxChunksPerGroup);
      if (planGroups(unknown.chunks, caps.maxChunksPerGroup).groups === 1) {
        assert.deepEqual(await nexts(store, ns.id, coll.streamId), [0, 0], 'one group: nothing committed');
      }
      const before = await nexts(store, ns.id, coll.streamId);
      await rejectsInvalid(
        () => store.commitWal(
          wal([
            { ns: ns.id, stream: coll.streamId, partition: 0 },
            { ns: ns.id, stream: coll.streamId, partition: 2 },
          ]),
        ),
        /partition/,
      );
      // InvalidArgument is checked before anything is written (contract), so not even the valid chunk commits.
      assert.deepEqual(await nexts(store, ns.id, coll.streamId), before);
    });

    test("assigned[i].group and the group count follow planGroups; one stream's chunks share a group while they fit", async () => {
      const { store, ns, coll } = await world(3);
      const ev = await stream(store, ns.id, 'events', 2);
      const c = wal([
        { ns: ns.id, stream: ev, partition: 1 },
        { ns: ns.id, stream: coll.streamId, partition: 2 },
        { ns: ns.id, stream: coll.streamId, partition: 0 },
        { ns: ns.id, stream: ev, partition: 0 },
        { ns: ns.id, stream: coll.streamId, partition: 1 },
      ]);
      const r = await store.commitWal(c);
      const plan = planGroups(c.chunks, caps.maxChunksPerGroup);
      assert.equal(r.groups, plan.groups);
      assert.deepEqual(
        r.assigned.map((a) => a.group),
        plan.groupOf,
      );
      if (caps.maxChunksPerGroup >= 3) {
        const g = (s: number) => new Set(r.assigned.filter((a) => a.stream === s).map((a) => a.group));
        assert.equal(g(coll.streamId).size, 1);
        assert.equal(g(ev).size, 1);
      }
    });

    test(
      'a commit of maxChunksPerGroup+1 chunks spans groups, keeps each stream together, and commits every chunk',
      { skip: needs(smallGroups, 'maxChunksPerGroup <= 256') },
      async () => {
        const m = caps.maxChunksPerGroup;
        const store = await fresh();
        const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
        const a = await stream(store, ns.id, 'a', m);
        const b = await stream(store, ns.id, 'b', 1);
        const big = await stream(store, ns.id, 'big', m + 1);
        const specs = [
          ...Array.from({ length: m }, (_, p) => ({ ns: ns.id, stream: a, partition: p })),
          { ns: ns.id, stream: b, partition: 0, records: 3 },
          ...Array.from({ length: m + 1 }, (_, p) => ({ ns: ns.id, stream: big, partition: p })),
        ];
        const c = wal(specs);
        const plan = planGroups(c.chunks, m);
        const r = await store.commitWal(c);
        assert.equal(r.groups, plan.groups);
        assert.ok(r.groups >= 3, `expected at least 3 groups, got ${r.groups}`);
        assert.deepEqual(
          r.assigned.map((x) => x.group),
          plan.groupOf,
        );
        assert.equal(new Set(r.assigned.filter((x) => x.stream === a).map((x) => x.group)).size, 1, 'stream a fits one group');
        assert.deepEqual(await nexts(store, ns.id, a), Array(m).fill(1));
        assert.deepEqual(await nexts(store, ns.id, b), [3]);
        assert.deepEqual(await nexts(store, ns.id, big), Array(m + 1).fill(1));
        assert.deepEqual(await store.commitWal(c), r, 'a retry returns the first offsets of every group');
        assert.deepEqual(await nexts(store, ns.id, big), Array(m + 1).fill(1));
      },
    );

    test(
      'a commit whose second group names a dropped stream fails, and each group is all-or-nothing',
      { skip: needs(smallGroups, 'maxChunksPerGroup <= 256') },
      async () => {
        const m = caps.maxChunksPerGroup;
        const store = await fresh();
        const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
        const a = await stream(store, ns.id, 'a', m);
        const gone = await stream(store, ns.id, 'gone', 1);
        await store.dropStream(ns.id, gone);
        const c = wal([
          ...Array.from({ length: m }, (_, p) => ({ ns: ns.id, stream: a, partition: p, records: 2 })),
          { ns: ns.id, stream: gone, partition: 0 },
        ]);
        const plan = planGroups(c.chunks, m);
        assert.equal(plan.groups, 2);
        assert.equal(plan.groupOf[m], 1, 'the dropped stream is the second group');
        await rejectsWith(() => store.commitWal(c), 'NotFound');
        const committed = await chunkCommitted(store, c);
        assert.equal(committed[m], false);
        assertPerGroupAtomic(c, committed, m);
        const heads = await nexts(store, ns.id, a);
        assert.ok(
          heads.every((n) => n === 0) || heads.every((n) => n === 2),
          `group 0 must be all-or-nothing, heads ${JSON.stringify(heads)}`,
        );
      },
    );
    test(
      'an out-of-range partition in a later group is InvalidArgument before any group commits',
      { skip: needs(smallGroups, 'maxChunksPerGroup <= 256') },
      async () => {
        // Contract: "Bad arguments are InvalidArgument naming the field, checked before anything
        // is written". A retry of this commit can never succeed, so a group committed before the
        // refusal could never be settled by the writer's retry (spec §3.1).
        const m = caps.maxChunksPerGroup;
        const store = await fresh();
        const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
        const a = await stream(store, ns.id, 'a', m);
        const b = await stream(store, ns.id, 'b', 1);
        const c = wal([
          ...Array.from({ length: m }, (_, p) => ({ ns: ns.id, stream: a, partition: p })),
          { ns: ns.id, stream: b, partition: 1 },
        ]);
        assert.equal(planGroups(c.chunks, m).groupOf[m], 1, 'the bad chunk is in the second group');
        await rejectsInvalid(() => store.commitWal(c), /partition/);
        assert.deepEqual(await nexts(store, ns.id, a), Array(m).fill(0), 'the first group committed nothing');
        assert.deepEqual(await nexts(store, ns.id, b), [0]);
        assert.equal(await store.objectRef(c.object).then((r) => r?.refs ?? 0), 0, 'the WAL object holds no reference');
      },
    );
  });

  describe('partitionIndex and trimPartition', () => {
    async function fiveEntries() {
      const w = await world(1);
      const sizes = [2, 3, 1, 4, 2]; // entries [0,2) [2,5) [5,6) [6,10) [10,12)
      const objects: string[] = [];
      for (const records of sizes) {
        const c = wal([{ ns: w.ns.id, stream: w.coll.streamId, partition: 0, records }]);
        objects.push(c.object);
        await w.store.commitWal(c);
      }
      return { ...w, objects };
    }

    test('a fresh partition has no entries, logStart 0 and next 0', async () => {
      const { store, ns, coll } = await world(2);
      const idx = await store.partitionIndex(ns.id, coll.streamId, 1);
      assert.deepEqual([idx.partition, idx.logStart, idx.next, idx.entries, idx.nextFrom], [1, 0, 0, [], undefined]);
    });

    test('returns a contiguous range from logStart, or from the entry covering `from`', async () => {
      const { store, ns, coll, objects } = await fiveEntries();
      const all = await store.partitionIndex(ns.id, coll.streamId, 0);
      assert.deepEqual(
        all.entries.map((e) => [e.start, e.end, e.path]),
        [
          [0, 2, objects[0]],
          [2, 5, objects[1]],
          [5, 6, objects[2]],
          [6, 10, objects[3]],
          [10, 12, objects[4]],
        ],
      );
      const mid = await store.partitionIndex(ns.id, coll.streamId, 0, { from: 7 });
      assert.deepEqual(
        mid.entries.map((e) => [e.start, e.end]),
        [
          [6, 10],
          [10, 12],
        ],
      );
      assertContiguous(mid.entries, 7, mid.next);
    });

    test('pages with limit and nextFrom cover the partition exactly once', async () => {
      const { store, ns, coll } = await fiveEntries();
      const seen: [number, number][] = [];
      let from: number | undefined = 0;
      let pages = 0;
      while (from !== undefined) {
        const page = await store.partitionIndex(ns.id, coll.streamId, 0, { from, limit: 2 });
        assert.ok(page.entries.length <= 2, 'a page holds at most `limit` entries');
        assert.ok(page.entries.length > 0, 'a page that promises more is not empty');
        seen.push(...page.entries.map((e): [number, number] => [e.start, e.end]));
        if (page.nextFrom !== undefined) assert.equal(page.nextFrom, page.entries[page.entries.length - 1]!.end);
        from = page.nextFrom;
        pages++;
        assert.ok(pages <= 10);
      }
      assert.deepEqual(seen, [
        [0, 2],
        [2, 5],
        [5, 6],
        [6, 10],
        [10, 12],
      ]);
      assert.equal(pages, 3);
    });

    test('trimPartition moves logStart forward, removes entries ending at or below it, never moves back', async () => {
      const { store, ns, coll } = await fiveEntries();
      const head = await store.trimPartition(ns.id, coll.streamId, 0, 5);
      assert.equal(head.logStart, 5);
      assert.equal(head.next, 12);
      const idx = await store.partitionIndex(ns.id, coll.streamId, 0);
      assert.equal(idx.logStart, 5);
      assert.deepEqual(
        idx.entries.map((e) => [e.start, e.end]),
        [
          [5, 6],
          [6, 10],
          [10, 12],
        ],
      );
      assert.equal((await store.trimPartition(ns.id, coll.streamId, 0, 5)).logStart, 5, 'idempotent');
      assert.equal((await store.trimPartition(ns.id, coll.streamId, 0, 2)).logStart, 5, 'a lower logStart is a no-op');
      const st = await store.streamState(ns.id, coll.streamId);
      assert.equal(st.heads[0]!.logStart, 5);
      assert.equal(st.heads[0]!.bytes, 700, 'bytes of the entries still indexed');
      // Old offsets are gone: reading from below logStart starts at logStart.
      const low = await store.partitionIndex(ns.id, coll.streamId, 0, { from: 0 });
      assert.equal(low.entries[0]!.start, 5);
      // The head's next is untouched: new commits continue from 12.
      const r = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
      assert.equal(r.assigned[0]!.start, 12);
    });

    test('a trim inside an entry keeps that entry, and the index still starts at logStart', async () => {
      const { store, ns, coll } = await fiveEntries();
      await store.trimPartition(ns.id, coll.streamId, 0, 7);
      const idx = await fullIndex(store, ns.id, coll.streamId, 0);
      assert.equal(idx.logStart, 7);
      assert.deepEqual(
        idx.entries.map((e) => [e.start, e.end]),
        [
          [6, 10],
          [10, 12],
        ],
      );
    });

    test('the index stays contiguous from logStart after trims and segment swaps, across pages', async () => {
      const { store, ns, coll } = await fiveEntries();
      await store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 2, end: 10, path: `ns/${ns.id}/seg/a`, byteStart: 0, byteEnd: 800 });
      await store.trimPartition(ns.id, coll.streamId, 0, 2);
      for (let i = 0; i < 6; i++) await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }]));
      const idx = await store.partitionIndex(ns.id, coll.streamId, 0);
      assert.equal(idx.logStart, 2);
      assert.equal(idx.next, 18);
      assertContiguous(idx.entries, 2, 18);
      assert.equal(idx.entries[0]!.kind, 'segment');
      const paged: [number, number][] = [];
      let from: number | undefined;
      for (let i = 0; i < 20; i++) {
        const page: Awaited<ReturnType<MetaStore['partitionIndex']>> = await store.partitionIndex(ns.id, coll.streamId, 0, { from, limit: 3 });
        paged.push(...page.entries.map((e): [number, number] => [e.start, e.end]));
        from = page.nextFrom;
        if (from === undefined) break;
      }
      assert.deepEqual(
        paged,
        idx.entries.map((e) => [e.start, e.end]),
      );
    });

    test('partitionIndex of a partition out of range is InvalidArgument; of an unknown stream NotFound', async () => {
      const { store, ns, coll } = await world(2);
      await rejectsInvalid(() => store.partitionIndex(ns.id, coll.streamId, 2), 'partition');
      await rejectsWith(() => store.partitionIndex(ns.id, 99999, 0), 'NotFound');
      await rejectsInvalid(() => store.partitionIndex(ns.id, coll.streamId, 0, { limit: 0 }), 'limit');
    });
  });

  describe('reads', () => {
    test('collectionHead returns the pointer, then every partition head', async () => {
      const { store, ns, coll } = await world(2);
      const key = linkPointerKey(coll.linkId);
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 1, records: 4 }]));
      const p = await store.casPointer(ns.id, key, null, `ns/${ns.id}/manifests/1.json`);
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]));
      const head = await store.collectionHead(ns.id, coll.id);
      assert.equal(head.collection.id, coll.id);
      assert.deepEqual(head.pointer, p);
      assert.deepEqual(
        head.heads.map((h) => [h.partition, h.next]),
        [
          [0, 2],
          [1, 4],
        ],
      );
    });

    test('streamState returns the stream and one head per partition after commits', async () => {
      const { store, ns, coll } = await world(4);
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 3, records: 9 }]));
      const st = await store.streamState(ns.id, coll.streamId);
      assert.equal(st.stream.id, coll.streamId);
      assert.deepEqual(
        st.heads.map((h) => [h.partition, h.next, h.logStart]),
        [
          [0, 0, 0],
          [1, 0, 0],
          [2, 0, 0],
          [3, 9, 0],
        ],
      );
    });
  });
});

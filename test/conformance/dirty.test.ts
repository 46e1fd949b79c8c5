// The dirty set (contract: dueHeads, settleHead; spec §5.4): commitWal makes a partition due in
// the transaction that assigns its offsets, a worker settles it only while no commit came in,
// pages walk every due head once. Selected by the backend offering the calls. The cases share
// the probe store (each its own namespaces, found by id): a fresh store per case was most of
// the suite's time on the remote backends.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { hasDirtySets, type DueHead, type MetaStore } from '../../src/meta/index.js';
import { factory, fresh, multiItem, needs, rejectsInvalid, SCHEMA, uniq, wal } from './helpers.js';

const probe = await fresh();
const offered = hasDirtySets(probe);

type Dirty = MetaStore & Required<Pick<MetaStore, 'dueHeads' | 'settleHead'>>;

async function allDue(store: Dirty, before: number, limit = 100): Promise<DueHead[]> {
  const out: DueHead[] = [];
  let after: string | undefined;
  for (let page = 0; page < 1_000; page++) {
    const p = await store.dueHeads(before, { limit, ...(after !== undefined ? { after } : {}) });
    out.push(...p.items);
    if (!p.next) return out;
    after = p.next;
  }
  throw new Error('dueHeads did not end');
}

const mine = (hs: DueHead[], ns: number) => hs.filter((h) => h.ns === ns);

/** A namespace of its own in the shared store, with one collection of `partitions` partitions. */
async function world(partitions: number) {
  const store = probe as Dirty;
  const ns = await store.createNamespace({ org: 'org-d', name: uniq('d') });
  const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions });
  return { store, ns, coll };
}

// At the top, not in the suite: a skipped suite runs no hooks, and the probe store (which the
// cases share) stays open (on a remote backend its gRPC channel keeps the process alive).
after(() => factory.cleanup());

describe('dirty sets', { skip: needs(offered && multiItem, 'dueHeads and settleHead (the dirty set)') }, () => {

  test('a collection without commits is not due; commitWal makes exactly the partitions it appended to due now', async () => {
    const w = await world(4);
    const store = w.store as Dirty;
    assert.deepEqual(mine(await allDue(store, Date.now()), w.ns.id), []);
    await store.commitWal(wal([{ ns: w.ns.id, stream: w.coll.streamId, partition: 1 }, { ns: w.ns.id, stream: w.coll.streamId, partition: 3, records: 2 }]));
    const due = mine(await allDue(store, 0), w.ns.id);
    assert.deepEqual(due.map((h) => [h.stream, h.partition, h.due]), [[w.coll.streamId, 1, 0], [w.coll.streamId, 3, 0]]);
    assert.ok(due.every((h) => h.mark > 0));
  });

  test('settleHead with the mark it read moves the due time (null clears it); a commit in between wins', async () => {
    const w = await world(1);
    const store = w.store as Dirty;
    const chunk = { ns: w.ns.id, stream: w.coll.streamId, partition: 0 };
    await store.commitWal(wal([chunk]));
    const [h] = mine(await allDue(store, 0), w.ns.id);
    assert.ok(h);
    const later = Date.now() + 60_000;
    assert.equal(await store.settleHead(w.ns.id, h.stream, 0, h.mark, later), true);
    assert.deepEqual(mine(await allDue(store, Date.now()), w.ns.id), [], 'not due before its time');
    assert.deepEqual(mine(await allDue(store, later), w.ns.id).map((x) => x.due), [later]);
    assert.equal(await store.settleHead(w.ns.id, h.stream, 0, h.mark, later), true, 'a repeat applies the same');
    // A commit after the worker read the head: the worker's settle must not hide it.
    await store.commitWal(wal([chunk]));
    assert.equal(await store.settleHead(w.ns.id, h.stream, 0, h.mark, null), false);
    const [again] = mine(await allDue(store, 0), w.ns.id);
    assert.ok(again && again.due === 0 && again.mark > h.mark, 'still due now, with a newer mark');
    assert.equal(await store.settleHead(w.ns.id, h.stream, 0, again.mark, null), true);
    assert.deepEqual(mine(await allDue(store, Number.MAX_SAFE_INTEGER), w.ns.id), [], 'cleared');
  });

  test('pages walk every due head once, in due order, across namespaces', async () => {
    const store = probe as Dirty;
    const nss: number[] = [];
    for (let i = 0; i < 5; i++) {
      const ns = await store.createNamespace({ org: 'org-d', name: uniq('p') });
      const c = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
      nss.push(ns.id);
      await store.commitWal(wal([{ ns: ns.id, stream: c.streamId, partition: 0 }, { ns: ns.id, stream: c.streamId, partition: 1 }]));
    }
    const all = (await allDue(store, 0, 3)).filter((h) => nss.includes(h.ns));
    assert.equal(all.length, 10);
    assert.equal(new Set(all.map((h) => `${h.ns}/${h.stream}/${h.partition}`)).size, 10);
    // Settled ones at different times come back in due order.
    const t = Date.now();
    for (const [i, h] of all.entries()) await store.settleHead(h.ns, h.stream, h.partition, h.mark, t + (10 - i) * 1_000);
    const order = (await allDue(store, t + 20_000, 4)).filter((h) => nss.includes(h.ns)).map((h) => h.due);
    assert.deepEqual(order, [...order].sort((a, b) => a - b));
    assert.equal(order.length, 10);
  });

  test('bad arguments are InvalidArgument naming the field', async () => {
    const store = probe as Dirty;
    await rejectsInvalid(() => store.dueHeads(-1), 'before');
    await rejectsInvalid(() => store.dueHeads(0, { after: 'not-a-cursor' }), 'after');
    await rejectsInvalid(() => store.settleHead(1, 1, 0, -1, null), 'mark');
    await rejectsInvalid(() => store.settleHead(1, 1, 0, 0, -5), 'due');
  });
});

// Bad input (contract: "Bad arguments are InvalidArgument naming the field, checked before
// anything is written"). Each refusal is followed by proof that nothing was half-written.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  MAX_ALIAS_ACTIONS,
  MAX_CLOCK_SKEW_MS,
  MAX_NAME_LENGTH,
  MAX_PAGE_LIMIT,
  MAX_PARTITIONS,
  MAX_TOKEN_STRING_LENGTH,
  isMetaError,
  type CollectionSchema,
  type MetaStore,
} from '../../src/meta/index.js';
import { SCHEMA, factory, fresh, multiItem, needs, nexts, rejectsInvalid, rejectsWith, wal, world } from './helpers.js';
/** Why a case is selected by capability: collections, streams and the log are multi-item writes. */
const MULTI = "transactions 'multi-item' (collections, streams, drops and the log are multi-item writes)";


const AHEAD = () => Date.now() + MAX_CLOCK_SKEW_MS + 60_000;

/** Everything a refused call could have touched in a world, for before/after comparison. */
async function snapshot(store: MetaStore, ns: number) {
  const colls = (await store.listCollections(ns, { limit: MAX_PAGE_LIMIT })).items;
  const streams = (await store.listStreams(ns, { limit: MAX_PAGE_LIMIT })).items;
  const heads = [];
  for (const s of streams) heads.push(await store.streamState(ns, s.id));
  return {
    version: await store.catalogVersion(),
    namespaces: (await store.listNamespaces('org-a', { limit: MAX_PAGE_LIMIT })).items,
    colls,
    streams,
    heads,
    aliases: await store.aliases(ns),
  };
}

describe('validation', () => {
  after(() => factory.cleanup());

  test('bad arguments reject the returned promise; no call throws synchronously', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const calls: Record<string, () => Promise<unknown>> = {
      createNamespace: () => store.createNamespace({ org: 'acme', name: '' }),
      dropNamespace: () => store.dropNamespace(0),
      namespace: () => store.namespace(0),
      listNamespaces: () => store.listNamespaces('acme', { limit: 0 }),
      createCollection: () => store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 0 }),
      collection: () => store.collection(ns.id, 0),
      updateAliases: () => store.updateAliases(ns.id, []),
      createStream: () => store.createStream({ ns: ns.id, name: 'bad name', partitions: 1 }),
      commitWal: () => store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 0 }])),
      partitionIndex: () => store.partitionIndex(ns.id, coll.streamId, -1),
      trimPartition: () => store.trimPartition(ns.id, coll.streamId, 0, -1),
      swapSegment: () => store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 2, end: 1, path: 's', byteStart: 0, byteEnd: 1 }),
      casPointer: () => store.casPointer(ns.id, '', null, 'v'),
      acquireLease: () => store.acquireLease(ns.id, 'k', 'o', 0),
      createTag: () => store.createTag(ns.id, coll.id, 'bad tag', 1),
      claimObject: () => store.claimObject('', 'gc'),
    };
    const sync: string[] = [];
    for (const [name, call] of Object.entries(calls)) {
      let p: Promise<unknown>;
      try {
        p = call();
      } catch (e) {
        sync.push(`${name} (${isMetaError(e) ? e.code : String(e)})`);
        continue;
      }
      await rejectsWith(p, 'InvalidArgument');
    }
    assert.deepEqual(sync, [], `these calls threw synchronously instead of returning a rejected promise: ${sync.join(', ')}`);
  });

  test('bad ids are InvalidArgument naming the argument', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    for (const bad of [0, -1, 1.5, Number.NaN, '1' as unknown as number]) {
      await rejectsInvalid(() => store.namespace(bad), 'ns');
      await rejectsInvalid(() => store.collection(bad, coll.id), 'ns');
      await rejectsInvalid(() => store.collection(ns.id, bad), 'collection');
      await rejectsInvalid(() => store.stream(ns.id, bad), 'stream');
      await rejectsInvalid(() => store.streamState(ns.id, bad), 'stream');
      await rejectsInvalid(() => store.dropCollection(ns.id, bad), 'collection');
    }
    assert.equal((await store.collection(ns.id, coll.id)).state, 'live');
  });

  test('names that are too long or have bad characters are InvalidArgument naming the field; 63 characters are fine', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const before = await snapshot(store, ns.id);
    const bad = ['', 'x'.repeat(MAX_NAME_LENGTH + 1), 'has space', '-leading', '_leading', 'dot.ted', 'slash/ed', 'naïve', 'tab\t'];
    for (const name of bad) {
      await rejectsInvalid(() => store.createNamespace({ org: 'org-a', name }), 'name');
      await rejectsInvalid(() => store.createNamespace({ org: name, name: 'ok' }), 'org');
      await rejectsInvalid(() => store.createCollection({ ns: ns.id, name, schema: SCHEMA, partitions: 1 }), 'name');
      await rejectsInvalid(() => store.createStream({ ns: ns.id, name, partitions: 1 }), 'name');
      await rejectsInvalid(() => store.createTag(ns.id, coll.id, name, 1), 'name');
      await rejectsInvalid(() => store.updateAliases(ns.id, [{ op: 'set', alias: name, collection: coll.id }]), 'actions[0].alias');
    }
    assert.deepEqual(await snapshot(store, ns.id), before, 'no refused call wrote anything');
    const long = 'n'.repeat(MAX_NAME_LENGTH);
    assert.equal((await store.createNamespace({ org: 'org-a', name: long })).name, long);
    assert.equal((await store.createCollection({ ns: ns.id, name: long, schema: SCHEMA, partitions: 1 })).name, long);
  });

  test('partitions outside 1..MAX_PARTITIONS are InvalidArgument naming `partitions`; nothing is created', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns } = await world(1);
    const before = await snapshot(store, ns.id);
    for (const partitions of [0, -1, 1.5, MAX_PARTITIONS + 1]) {
      await rejectsInvalid(() => store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions }), 'partitions');
      await rejectsInvalid(() => store.createStream({ ns: ns.id, name: 's', partitions }), 'partitions');
    }
    assert.deepEqual(await snapshot(store, ns.id), before);
    const max = await store.createStream({ ns: ns.id, name: 'widest', partitions: MAX_PARTITIONS });
    assert.equal((await store.streamState(ns.id, max.id)).heads.length, MAX_PARTITIONS);
  });

  test('bad WAL commits are InvalidArgument naming the chunk field, and commit nothing (not even the valid chunks)', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(2);
    const good = { ns: ns.id, stream: coll.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 100 };
    const commit = (chunks: unknown[], extra: Record<string, unknown> = {}) =>
      store.commitWal({ object: 'wal/x.wal', objectStamp: Date.now(), chunks: chunks as never, ...extra });
    await rejectsInvalid(() => commit([good, { ...good, partition: 1, byteStart: 100, byteEnd: 100 }]), 'chunks[1].byteEnd');
    await rejectsInvalid(() => commit([good, { ...good, partition: 1, byteStart: 300, byteEnd: 200 }]), 'chunks[1].byteEnd');
    await rejectsInvalid(() => commit([good, { ...good, partition: 1, byteStart: -1 }]), 'chunks[1].byteStart');
    await rejectsInvalid(() => commit([good, { ...good, partition: 1, records: 0 }]), 'chunks[1].records');
    await rejectsInvalid(() => commit([good, { ...good, partition: MAX_PARTITIONS }]), 'chunks[1].partition');
    await rejectsInvalid(() => commit([good, { ...good, ns: 0 }]), 'chunks[1].ns');
    await rejectsInvalid(() => commit([good, { ...good, byteStart: 100, byteEnd: 200 }]), 'chunks[1]');
    await rejectsInvalid(() => commit([]), 'chunks');
    await rejectsInvalid(() => commit([good], { object: '' }), 'object');
    await rejectsInvalid(() => commit([good], { object: '/abs' }), 'object');
    await rejectsInvalid(() => commit([good], { object: 'wal/\ud800.wal' }), 'object');
    await rejectsInvalid(() => commit([good], { objectStamp: -5 }), 'objectStamp');
    assert.deepEqual(await nexts(store, ns.id, coll.streamId), [0, 0]);
    assert.deepEqual((await store.partitionIndex(ns.id, coll.streamId, 0)).entries, []);
    // The same object path is still free to commit: refused attempts left no commit record.
    const r = await commit([good]);
    assert.deepEqual([r.assigned[0]!.start, r.assigned[0]!.end], [0, 1]);
  });

  test('bad segment swaps and trims are InvalidArgument naming the field; the index is unchanged', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(2);
    for (let i = 0; i < 3; i++) await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]));
    const before = await store.partitionIndex(ns.id, coll.streamId, 0);
    const swap = { ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 4, path: `ns/${ns.id}/seg/x`, byteStart: 0, byteEnd: 400 };
    await rejectsInvalid(() => store.swapSegment({ ...swap, end: 0 }), 'end');
    await rejectsInvalid(() => store.swapSegment({ ...swap, byteEnd: 0 }), /byteEnd/);
    await rejectsInvalid(() => store.swapSegment({ ...swap, path: '' }), 'path');
    await rejectsInvalid(() => store.swapSegment({ ...swap, partition: -1 }), 'partition');
    await rejectsInvalid(() => store.swapSegment({ ...swap, partition: 2 }), 'partition');
    await rejectsInvalid(() => store.trimPartition(ns.id, coll.streamId, 0, -1), 'logStart');
    await rejectsInvalid(() => store.trimPartition(ns.id, coll.streamId, 2, 1), 'partition');
    assert.deepEqual(await store.partitionIndex(ns.id, coll.streamId, 0), before);
  });

  test('text that is not well-formed Unicode (a lone surrogate) is InvalidArgument naming the field: stored as UTF-8 it would be another string', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    for (let i = 0; i < 2; i++) await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1 }]));
    const before = await store.partitionIndex(ns.id, coll.streamId, 0);
    const swap = { ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 2, path: `ns/${ns.id}/seg/\udc00`, byteStart: 0, byteEnd: 200 };
    await rejectsInvalid(() => store.swapSegment(swap), 'path');
    await rejectsInvalid(() => store.casPointer(ns.id, 'manifest', null, 'm/\ud800x'), 'value');
    await rejectsInvalid(() => store.acquireLease(ns.id, 'compactor', 'worker-\ud800', 10_000), 'owner');
    await rejectsInvalid(() => store.claimObject('gc/\udfff', 'gc'), 'path');
    await rejectsInvalid(() => store.claimObject('gc/x', 'gc-\udbff'), 'owner');
    assert.deepEqual(await store.partitionIndex(ns.id, coll.streamId, 0), before);
    assert.equal(await store.pointer(ns.id, 'manifest'), null);
    // A whole pair is one character like any other.
    const lease = await store.acquireLease(ns.id, 'compactor', 'worker-\u{1F642}', 10_000);
    assert.equal(lease.owner, 'worker-\u{1F642}');
  });

  test('a stamp too far ahead of the metastore clock is InvalidArgument naming `stamp`; nothing is written', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const before = await snapshot(store, ns.id);
    await rejectsInvalid(() => store.createNamespace({ org: 'org-a', name: 'late' }, { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 }, { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]), { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.casPointer(ns.id, 'k', null, 'v/1', { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.trimPartition(ns.id, coll.streamId, 0, 1, { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.claimObject('orphan/1', 'gc', { stamp: AHEAD() }), 'stamp');
    await rejectsInvalid(() => store.createNamespace({ org: 'org-a', name: 'neg' }, { stamp: -1 }), 'stamp');
    assert.deepEqual(await snapshot(store, ns.id), before);
    assert.equal(await store.pointer(ns.id, 'k'), null);
    assert.equal(await store.objectRef('orphan/1'), null);
    // Within the skew bound is fine.
    const ok = await store.createNamespace({ org: 'org-a', name: 'soon' }, { stamp: Date.now() + MAX_CLOCK_SKEW_MS - 60_000 });
    assert.equal(ok.state, 'live');
  });

  test('a bad schema is InvalidArgument, and the refused createCollection leaves no name, stream or change behind', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns } = await world(1);
    const before = await snapshot(store, ns.id);
    const bad: [CollectionSchema, string | RegExp][] = [
      [{ primaryKey: 'missing', fields: { id: 'string' } }, /primaryKey/],
      [{ primaryKey: 'id', fields: { id: 'json' } }, /primaryKey/],
      [{ primaryKey: 'id', fields: {} }, /fields/],
      [{ primaryKey: 'id', fields: { id: 'string', x: 'date' as never } }, /fields/],
      [{ primaryKey: 'id', fields: { id: 'string', 'bad name': 'string' } }, /fields/],
    ];
    for (const [schema, field] of bad) {
      await rejectsInvalid(() => store.createCollection({ ns: ns.id, name: 'c', schema, partitions: 1 }), field);
    }
    assert.deepEqual(await snapshot(store, ns.id), before);
    await rejectsWith(() => store.collectionByName(ns.id, 'c'), 'NotFound');
    const c = await store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 });
    assert.equal(c.name, 'c', 'the name is still free');
  });

  test('list limits of 0 or above MAX_PAGE_LIMIT are InvalidArgument naming `limit`; MAX_PAGE_LIMIT is fine', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    await store.casPointer(ns.id, `link/${coll.linkId}`, null, 'm/1');
    const lists: [string, (limit: number) => Promise<unknown>][] = [
      ['listNamespaces', (limit) => store.listNamespaces('org-a', { limit })],
      ['listCollections', (limit) => store.listCollections(ns.id, { limit })],
      ['listStreams', (limit) => store.listStreams(ns.id, { limit })],
      ['listTags', (limit) => store.listTags(ns.id, coll.id, { limit })],
      ['retiredWalObjects', (limit) => store.retiredWalObjects({ limit })],
    ];
    for (const [name, list] of lists) {
      for (const limit of [0, -1, 2.5, MAX_PAGE_LIMIT + 1]) {
        await rejectsInvalid(() => list(limit), 'limit').catch((e: Error) => {
          throw new Error(`${name}(limit ${limit}): ${e.message}`);
        });
      }
      await list(MAX_PAGE_LIMIT);
    }
  });

  test('bad alias actions are InvalidArgument naming `actions`; the alias map is unchanged', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const before = await store.updateAliases(ns.id, [{ op: 'set', alias: 'a', collection: coll.id }]);
    await rejectsInvalid(() => store.updateAliases(ns.id, []), 'actions');
    const many = Array.from({ length: MAX_ALIAS_ACTIONS + 1 }, (_, i) => ({ op: 'set' as const, alias: `a${i}`, collection: coll.id }));
    await rejectsInvalid(() => store.updateAliases(ns.id, many), 'actions');
    await rejectsInvalid(() => store.updateAliases(ns.id, [{ op: 'rename', alias: 'a' } as never]), 'actions[0].op');
    await rejectsInvalid(() => store.updateAliases(ns.id, [{ op: 'set', alias: 'b', collection: 0 }]), 'actions[0].collection');
    assert.deepEqual(await store.aliases(ns.id), before);
  });

  test('bad retention is InvalidArgument naming retention.ms or retention.bytes; the stream is unchanged', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const before = await store.stream(ns.id, coll.streamId);
    await rejectsInvalid(() => store.setRetention(ns.id, coll.streamId, { ms: 0, bytes: null }), 'retention.ms');
    await rejectsInvalid(() => store.setRetention(ns.id, coll.streamId, { ms: null, bytes: -5 }), 'retention.bytes');
    await rejectsInvalid(() => store.createStream({ ns: ns.id, name: 's', partitions: 1, retention: { ms: 1.5, bytes: null } }), 'retention.ms');
    assert.deepEqual(await store.stream(ns.id, coll.streamId), before);
    assert.equal((await store.listStreams(ns.id)).items.length, 1);
  });

  test('a requestId or owner longer than MAX_TOKEN_STRING_LENGTH is InvalidArgument; nothing is written', async () => {
    const store = await fresh();
    const long = 'r'.repeat(MAX_TOKEN_STRING_LENGTH + 1);
    await rejectsInvalid(() => store.createNamespace({ org: 'acme', name: 'prod' }, { requestId: long }), 'requestId');
    await rejectsInvalid(() => store.acquireLease('cluster', 'gc', long, 1_000), 'owner');
    await rejectsInvalid(() => store.claimObject('x/1', long), 'owner');
    assert.deepEqual((await store.listNamespaces('acme')).items, []);
    assert.equal(await store.lease('cluster', 'gc'), null);
    assert.equal(await store.objectRef('x/1'), null);
  });
});

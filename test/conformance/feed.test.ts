// The change feed (spec §5.4): catalogVersion, changesSince and scoped watches. A catalog change
// bumps the version and wakes watchers of its namespace and of the catalog; a commitWal, a
// pointer or a lease does neither. Fresh store per case.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { linkPointerKey, type ChangeKind, type MetaStore } from '../../src/meta/index.js';
import { SCHEMA, factory, fresh, multiItem, needs, sleep, wal, world } from './helpers.js';
/** Why a case is selected by capability: collections, streams and the log are multi-item writes. */
const MULTI = "transactions 'multi-item' (collections, streams, drops and the log are multi-item writes)";


/** Runs `act` shortly after a watch started, so the watch is waiting when the change lands. */
async function watchDuring(
  store: MetaStore,
  scope: Parameters<MetaStore['watch']>[0],
  since: number,
  timeoutMs: number,
  act: () => Promise<unknown>,
) {
  const started = Date.now();
  const w = store.watch(scope, since, { timeoutMs });
  await sleep(50);
  await act();
  const r = await w;
  return { ...r, elapsed: Date.now() - started };
}

describe('change feed', () => {
  after(() => factory.cleanup());

  test('a catalog change bumps catalogVersion and shows in changesSince with its kind, namespace and id', { skip: needs(multiItem, MULTI) }, async () => {
    const store = await fresh();
    const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
    const v0 = await store.catalogVersion();
    const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
    const v1 = await store.catalogVersion();
    assert.ok(v1 > v0, `catalog version must grow: ${v0} -> ${v1}`);
    const page = await store.changesSince(v0);
    assert.ok(
      page.changes.some((c) => c.kind === 'collection.created' && c.ns === ns.id && c.id === coll.id),
      JSON.stringify(page.changes),
    );
    assert.ok(page.changes.every((c) => c.version > v0 && c.version <= v1));
    assert.equal(page.version, v1);
    assert.equal(page.more, false);
    const none = await store.changesSince(v1);
    assert.deepEqual([none.changes, none.version, none.more], [[], v1, false]);
  });

  test('every kind of catalog change is recorded, in order', { skip: needs(multiItem, MULTI) }, async () => {
    const store = await fresh();
    const v0 = await store.catalogVersion();
    const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
    const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 1 });
    const s = await store.createStream({ ns: ns.id, name: 'audit', partitions: 1 });
    await store.setRetention(ns.id, s.id, { ms: 1_000, bytes: null });
    await store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, { primaryKey: 'id', fields: { id: 'string' } });
    await store.updateAliases(ns.id, [{ op: 'set', alias: 'live', collection: coll.id }]);
    await store.dropStream(ns.id, s.id);
    await store.dropCollection(ns.id, coll.id);
    await store.dropNamespace(ns.id);
    const { changes, more } = await store.changesSince(v0, 1_000);
    assert.equal(more, false);
    const want: [ChangeKind, number | null][] = [
      ['namespace.created', null],
      ['collection.created', coll.id],
      ['stream.created', s.id],
      ['stream.retention', s.id],
      ['collection.schema', coll.id],
      ['aliases', null],
      ['stream.dropped', s.id],
      ['collection.dropped', coll.id],
      ['namespace.dropped', null],
    ];
    // Each wanted change appears, in this order (a backend may record more, e.g. the implicit stream).
    let at = 0;
    for (const [kind, id] of want) {
      const i = changes.findIndex((c, k) => k >= at && c.kind === kind && c.ns === ns.id && (id === null || c.id === id));
      assert.ok(i >= 0, `missing ${kind} (${id}) after position ${at} in ${JSON.stringify(changes.map((c) => [c.kind, c.id]))}`);
      at = i + 1;
    }
    for (let i = 1; i < changes.length; i++) assert.ok(changes[i]!.version > changes[i - 1]!.version, 'oldest first');
  });

  test('changesSince pages with limit: `more` and `version` continue exactly where the page stopped', async () => {
    const store = await fresh();
    const v0 = await store.catalogVersion();
    for (let i = 0; i < 7; i++) await store.createNamespace({ org: 'acme', name: `ns-${i}` });
    const seen: number[] = [];
    let since = v0;
    for (let i = 0; i < 20; i++) {
      const page = await store.changesSince(since, 3);
      assert.ok(page.changes.length <= 3);
      seen.push(...page.changes.map((c) => c.version));
      if (page.changes.length > 0) assert.equal(page.version, page.changes[page.changes.length - 1]!.version);
      since = page.version;
      if (!page.more) break;
    }
    assert.equal(new Set(seen).size, seen.length, 'no change twice');
    assert.equal(seen.filter((v) => v > v0).length, seen.length);
    assert.equal(since, await store.catalogVersion());
    assert.ok(seen.length >= 7);
  });

  test('commitWal, casPointer and leases bump no catalog version and record no change', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(2);
    const v = await store.catalogVersion();
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 5 }]));
    await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, `ns/${ns.id}/m/1.json`);
    await store.casPointer(ns.id, 'other', null, 'x/1');
    const l = await store.acquireLease(ns.id, 'applier', 'node-a', 60_000);
    await store.renewLease(ns.id, 'applier', 'node-a', l.epoch, 60_000);
    await store.acquireLease('cluster', 'gc', 'node-a', 60_000);
    assert.equal(await store.catalogVersion(), v);
    assert.deepEqual((await store.changesSince(v)).changes, []);
  });

  test('a catalog change in the namespace wakes a watch scoped to it', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns } = await world(1);
    const v = await store.catalogVersion();
    const r = await watchDuring(store, { ns: ns.id }, v, 10_000, () => store.createStream({ ns: ns.id, name: 'events', partitions: 1 }));
    assert.equal(r.changed, true);
    assert.ok(r.version > v);
    assert.ok(r.elapsed < 5_000, `woken by the change, not the timeout (${r.elapsed} ms)`);
  });

  test("a change in any namespace wakes a 'catalog' watch", async () => {
    const { store } = await world(1);
    const v = await store.catalogVersion();
    const r = await watchDuring(store, 'catalog', v, 10_000, () => store.createNamespace({ org: 'globex', name: 'new' }));
    assert.equal(r.changed, true);
    assert.ok(r.elapsed < 5_000, `woken by the change, not the timeout (${r.elapsed} ms)`);
  });

  test('a change in another namespace does not wake a namespace-scoped watch: changed is false at its timeout', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns } = await world(1);
    const other = await store.createNamespace({ org: 'org-a', name: 'other' });
    const v = await store.catalogVersion();
    const r = await watchDuring(store, { ns: ns.id }, v, 600, () => store.createCollection({ ns: other.id, name: 'c', schema: SCHEMA, partitions: 1 }));
    assert.equal(r.changed, false);
    assert.ok(r.elapsed >= 500, `returned at its timeout, not early (${r.elapsed} ms)`);
  });

  test('commitWal and casPointer wake no watch', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns, coll } = await world(1);
    const v = await store.catalogVersion();
    const act = async () => {
      await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
      await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, `ns/${ns.id}/m/1.json`);
    };
    const both = await Promise.all([
      watchDuring(store, { ns: ns.id }, v, 600, act),
      watchDuring(store, 'catalog', v, 600, async () => {}),
    ]);
    for (const r of both) {
      assert.equal(r.changed, false);
      assert.ok(r.elapsed >= 500, `returned at its timeout (${r.elapsed} ms)`);
    }
  });

  test('a watch returns at once when a change in scope already happened after `since`', { skip: needs(multiItem, MULTI) }, async () => {
    const { store, ns } = await world(1);
    const v = await store.catalogVersion();
    await store.createStream({ ns: ns.id, name: 'events', partitions: 1 });
    const started = Date.now();
    const r = await store.watch({ ns: ns.id }, v, { timeoutMs: 10_000 });
    assert.equal(r.changed, true);
    assert.ok(Date.now() - started < 5_000);
  });

  test('an aborted signal ends a watch early', async () => {
    const { store, ns } = await world(1);
    const v = await store.catalogVersion();
    const ac = new AbortController();
    const started = Date.now();
    const w = store.watch({ ns: ns.id }, v, { timeoutMs: 10_000, signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    const r = await w.then(
      (x) => x,
      () => null, // rejecting with an abort error is also ending early
    );
    assert.ok(Date.now() - started < 5_000, 'ended by the signal, not the timeout');
    if (r) assert.equal(r.changed, false);
  });

  test('close() makes pending watches return', async () => {
    const store = await fresh();
    const v = await store.catalogVersion();
    const started = Date.now();
    const w = store.watch('catalog', v, { timeoutMs: 10_000 }).then(
      () => 'returned',
      () => 'rejected',
    );
    await sleep(50);
    await store.close();
    const how = await w;
    assert.ok(Date.now() - started < 5_000, `pending watch ${how} only at its timeout`);
  });
});

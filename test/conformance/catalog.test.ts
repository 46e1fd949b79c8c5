// Catalog calls of the MetaStore contract (src/meta/contract.ts, DESIGN §2.2, spec §2.3, §5.4):
// namespaces, collections, aliases, streams. Each case opens a fresh store.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError, linkPointerKey, type CollectionSchema } from '../../src/meta/index.js';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS } from '../../src/meta/limits.js';
import { SCHEMA, allPages, factory, fresh, multiItem, needs, rejectsInvalid, rejectsWith, uniq, world } from './helpers.js';
// The bulk create's cases run in this file's process (a file of their own would add a process per backend to CI).
import './bulk.cases.js';
/** Why a case is selected by capability: collections, streams and the log are multi-item writes. */
const MULTI = "transactions 'multi-item' (collections, streams, drops and the log are multi-item writes)";


describe('catalog', () => {
  after(() => factory.cleanup());

  describe('namespaces', () => {
    test('createNamespace returns a live namespace, readable by id and by (org, name)', async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      assert.equal(ns.org, 'acme');
      assert.equal(ns.name, 'prod');
      assert.equal(ns.state, 'live');
      assert.ok(Number.isSafeInteger(ns.id) && ns.id >= 1, `id ${ns.id} must be a positive integer`);
      assert.deepEqual(await store.namespace(ns.id), ns);
      assert.deepEqual(await store.namespaceByName('acme', 'prod'), ns);
      const other = await store.createNamespace({ org: 'acme', name: 'staging' });
      assert.notEqual(other.id, ns.id, 'ids are never shared');
    });

    test('names are unique per org: AlreadyExists carries the first id; the same name in another org is fine', async () => {
      const store = await fresh();
      const first = await store.createNamespace({ org: 'acme', name: 'prod' });
      // A retry after a lost acknowledgement, without requestId, learns the first id.
      await rejectsWith(() => store.createNamespace({ org: 'acme', name: 'prod' }), 'AlreadyExists', (e) =>
        assert.equal(e.details.existingId, first.id),
      );
      const elsewhere = await store.createNamespace({ org: 'globex', name: 'prod' });
      assert.notEqual(elsewhere.id, first.id);
      assert.equal((await store.namespaceByName('globex', 'prod')).id, elsewhere.id);
      assert.equal((await store.namespaceByName('acme', 'prod')).id, first.id);
      const { items } = await store.listNamespaces('acme');
      assert.deepEqual(
        items.map((n) => n.name),
        ['prod'],
        'the refused create added nothing',
      );
    });

    test('a retried createNamespace with the same requestId returns the first result and creates one namespace', async () => {
      const store = await fresh();
      const requestId = uniq('req');
      const first = await store.createNamespace({ org: 'acme', name: 'prod' }, { requestId });
      const v = await store.catalogVersion();
      const again = await store.createNamespace({ org: 'acme', name: 'prod' }, { requestId });
      assert.deepEqual(again, first);
      assert.equal((await store.listNamespaces('acme')).items.length, 1);
      assert.equal(await store.catalogVersion(), v, 'the retry applied nothing');
    });

    test('concurrent creates of one name: exactly one wins, every other gets AlreadyExists with its id', async () => {
      const store = await fresh();
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => store.createNamespace({ org: 'acme', name: 'race' })),
      );
      const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
      assert.equal(won.length, 1, 'exactly one create succeeds');
      for (const r of results) {
        if (r.status === 'rejected') {
          assert.ok(isMetaError(r.reason, 'AlreadyExists'), String(r.reason));
          assert.equal(r.reason.details.existingId, won[0]!.id);
        }
      }
      assert.equal((await store.listNamespaces('acme')).items.length, 1);
    });

    test('namespace() and namespaceByName() of an unknown namespace are NotFound', async () => {
      const store = await fresh();
      await rejectsWith(() => store.namespace(424242), 'NotFound');
      await rejectsWith(() => store.namespaceByName('acme', 'nope'), 'NotFound');
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      await rejectsWith(() => store.namespaceByName('globex', 'prod'), 'NotFound', undefined);
      assert.equal((await store.namespace(ns.id)).name, 'prod');
    });

    test('dropNamespace is refused while the namespace has a live collection or stream', { skip: needs(multiItem, MULTI) }, async () => {
      const { store, ns, coll } = await world(1);
      await rejectsWith(() => store.dropNamespace(ns.id), 'InvalidArgument');
      assert.equal((await store.namespace(ns.id)).state, 'live');
      await store.dropCollection(ns.id, coll.id);
      const s = await store.createStream({ ns: ns.id, name: 'events', partitions: 1 });
      await rejectsWith(() => store.dropNamespace(ns.id), 'InvalidArgument');
      assert.equal((await store.namespaceByName('org-a', 'ns-main')).id, ns.id);
      await store.dropStream(ns.id, s.id);
      await store.dropNamespace(ns.id);
      await rejectsWith(() => store.namespace(ns.id), 'NotFound');
    });

    test('dropNamespace hides the namespace at once and frees its name for a new id', { skip: needs(multiItem, MULTI) }, async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      await store.dropNamespace(ns.id);
      await rejectsWith(() => store.namespace(ns.id), 'NotFound');
      await rejectsWith(() => store.namespaceByName('acme', 'prod'), 'NotFound');
      assert.deepEqual((await store.listNamespaces('acme')).items, []);
      const janitor = await store.namespace(ns.id, { includeDropping: true });
      assert.equal(janitor.state, 'dropping');
      const again = await store.createNamespace({ org: 'acme', name: 'prod' });
      assert.notEqual(again.id, ns.id, 'ids are never reused');
      assert.equal((await store.namespaceByName('acme', 'prod')).id, again.id);
      await rejectsWith(() => store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 }), 'NotFound');
    });

    test('listNamespaces pages by name through a prefix, and lists only its org', async () => {
      const store = await fresh();
      // 'a0' and 'a_1' sort right after the prefix's range, 'a--' and 'a-_' at its edges.
      const names = ['a-03', 'a-01', 'b-01', 'a-05', 'a-02', 'ab', 'a-04', 'b-02', 'a0', 'a_1', 'a--', 'a-_'];
      for (const name of names) await store.createNamespace({ org: 'acme', name });
      await store.createNamespace({ org: 'globex', name: 'a-00' });
      const { items, pages } = await allPages((after) => store.listNamespaces('acme', { prefix: 'a-', limit: 2, after }));
      assert.deepEqual(
        items.map((n) => n.name),
        ['a--', 'a-01', 'a-02', 'a-03', 'a-04', 'a-05', 'a-_'],
      );
      assert.ok(pages >= 4, `7 items at 2 per page need at least 4 pages, got ${pages}`);
      const all = await store.listNamespaces('acme', { limit: 1000 });
      assert.equal(all.items.length, names.length);
      assert.equal(all.next, undefined);
      assert.ok(all.items.every((n) => n.org === 'acme'));
    });
  });

  describe('collections', { skip: needs(multiItem, MULTI) }, () => {
    test('createCollection creates the record, its implicit stream and its link in one call', async () => {
      const { store, ns, coll } = await world(3);
      assert.equal(coll.ns, ns.id);
      assert.equal(coll.name, 'docs');
      assert.equal(coll.state, 'live');
      assert.equal(coll.partitions, 3);
      assert.deepEqual(coll.schema, SCHEMA);
      assert.deepEqual(await store.collection(ns.id, coll.id), coll);
      assert.deepEqual(await store.collectionByName(ns.id, 'docs'), coll);
      const stream = await store.stream(ns.id, coll.streamId);
      assert.equal(stream.implicit, true);
      // "Named after the collection": the contract does not pin the exact form (a backend may
      // prefix it so it never collides with an explicit stream's name), only that it derives from it.
      assert.ok(stream.name.includes('docs'), `the implicit stream is named after the collection, got ${stream.name}`);
      assert.equal(stream.partitions, 3);
      assert.equal(stream.state, 'live');
      const head = await store.collectionHead(ns.id, coll.id);
      assert.equal(head.pointer, null, 'no manifest yet');
      assert.deepEqual(
        head.heads.map((h) => [h.partition, h.next, h.logStart, h.bytes]),
        [
          [0, 0, 0, 0],
          [1, 0, 0, 0],
          [2, 0, 0, 0],
        ],
      );
      assert.equal(await store.pointer(ns.id, linkPointerKey(coll.linkId)), null);
    });

    test('createCollection in an unknown or dropped namespace is NotFound', async () => {
      const store = await fresh();
      await rejectsWith(() => store.createCollection({ ns: 99999, name: 'c', schema: SCHEMA, partitions: 1 }), 'NotFound');
      const ns = await store.createNamespace({ org: 'acme', name: 'gone' });
      await store.dropNamespace(ns.id);
      await rejectsWith(() => store.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 }), 'NotFound');
    });

    test('collection names are unique per namespace: AlreadyExists carries the first id', async () => {
      const { store, ns, coll } = await world(2);
      await rejectsWith(() => store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 }), 'AlreadyExists', (e) =>
        assert.equal(e.details.existingId, coll.id),
      );
      const listed = await store.listCollections(ns.id);
      assert.deepEqual(
        listed.items.map((c) => c.id),
        [coll.id],
      );
      const streams = await store.listStreams(ns.id);
      assert.equal(streams.items.length, 1, 'the refused create left no stream behind');
      const other = await store.createNamespace({ org: 'org-a', name: 'other' });
      const twin = await store.createCollection({ ns: other.id, name: 'docs', schema: SCHEMA, partitions: 1 });
      assert.notEqual(twin.id, coll.id);
    });

    test('a retried createCollection with the same requestId returns the first collection and creates one', async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      const requestId = uniq('req');
      const req = { ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 };
      const first = await store.createCollection(req, { requestId });
      const again = await store.createCollection(req, { requestId });
      assert.deepEqual(again, first);
      assert.equal((await store.listCollections(ns.id)).items.length, 1);
      assert.equal((await store.listStreams(ns.id)).items.length, 1);
    });

    test('dropCollection hides the collection at once: reads, lists, streams, aliases and its pointer', async () => {
      const { store, ns, coll } = await world(2);
      const keep = await store.createCollection({ ns: ns.id, name: 'keep', schema: SCHEMA, partitions: 1 });
      await store.casPointer(ns.id, linkPointerKey(coll.linkId), null, `ns/${ns.id}/m/1.json`);
      await store.updateAliases(ns.id, [
        { op: 'set', alias: 'current', collection: coll.id },
        { op: 'set', alias: 'stable', collection: keep.id },
      ]);
      await store.dropCollection(ns.id, coll.id);
      await rejectsWith(() => store.collection(ns.id, coll.id), 'NotFound');
      await rejectsWith(() => store.collectionByName(ns.id, 'docs'), 'NotFound');
      await rejectsWith(() => store.stream(ns.id, coll.streamId), 'NotFound');
      await rejectsWith(() => store.collectionHead(ns.id, coll.id), 'NotFound');
      assert.deepEqual(
        (await store.listCollections(ns.id)).items.map((c) => c.name),
        ['keep'],
      );
      assert.deepEqual(
        (await store.listStreams(ns.id)).items.map((s) => s.id),
        [keep.streamId],
      );
      assert.deepEqual((await store.aliases(ns.id)).aliases, { stable: keep.id });
      assert.equal(await store.pointer(ns.id, linkPointerKey(coll.linkId)), null, 'its pointer is removed');
      const janitor = await store.collection(ns.id, coll.id, { includeDropping: true });
      assert.equal(janitor.state, 'dropping');
      assert.equal((await store.stream(ns.id, coll.streamId, { includeDropping: true })).state, 'dropping');
    });

    test('dropCollection retried with the same requestId succeeds again without a second effect', async () => {
      const { store, ns, coll } = await world(1);
      const requestId = uniq('req');
      await store.dropCollection(ns.id, coll.id, { requestId });
      const v = await store.catalogVersion();
      await store.dropCollection(ns.id, coll.id, { requestId });
      assert.equal(await store.catalogVersion(), v, 'the retry applied nothing');
      await rejectsWith(() => store.collection(ns.id, coll.id), 'NotFound');
    });

    test("a dropped collection's name is free at once: creating it again gives a new id and stream", async () => {
      const { store, ns, coll } = await world(2);
      await store.dropCollection(ns.id, coll.id);
      const again = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 5 });
      assert.notEqual(again.id, coll.id);
      assert.notEqual(again.streamId, coll.streamId);
      assert.notEqual(again.linkId, coll.linkId);
      assert.equal((await store.collectionByName(ns.id, 'docs')).id, again.id);
      assert.equal((await store.streamState(ns.id, again.streamId)).heads.length, 5);
    });

    test('updateCollectionSchema replaces the schema at the expected version and returns a new version', async () => {
      const { store, ns, coll } = await world(1);
      const next: CollectionSchema = { primaryKey: 'id', fields: { id: 'string', body: 'json', n: 'number' } };
      const updated = await store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, next);
      assert.ok(updated.schemaVersion > coll.schemaVersion);
      assert.deepEqual(updated.schema, next);
      const read = await store.collection(ns.id, coll.id);
      assert.deepEqual(read.schema, next);
      assert.equal(read.schemaVersion, updated.schemaVersion);
      const third = await store.updateCollectionSchema(ns.id, coll.id, updated.schemaVersion, SCHEMA);
      assert.ok(third.schemaVersion > updated.schemaVersion);
    });

    test('updateCollectionSchema at a stale version is VersionMismatch carrying the current version', async () => {
      const { store, ns, coll } = await world(1);
      const next: CollectionSchema = { primaryKey: 'id', fields: { id: 'string', extra: 'boolean' } };
      const updated = await store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, next);
      await rejectsWith(() => store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, SCHEMA), 'VersionMismatch', (e) =>
        assert.equal(e.details.currentVersion, updated.schemaVersion),
      );
      const read = await store.collection(ns.id, coll.id);
      assert.deepEqual(read.schema, next, 'the refused update changed nothing');
      assert.equal(read.schemaVersion, updated.schemaVersion);
    });

    test('updateCollectionSchema refuses to change the primary key and changes nothing', async () => {
      const { store, ns, coll } = await world(1);
      const otherPk: CollectionSchema = { primaryKey: 'key', fields: { id: 'string', key: 'string' } };
      await rejectsInvalid(() => store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, otherPk), /primaryKey/);
      const read = await store.collection(ns.id, coll.id);
      assert.deepEqual(read.schema, SCHEMA);
      assert.equal(read.schemaVersion, coll.schemaVersion);
    });

    test('updateCollectionSchema of a dropped collection is NotFound', async () => {
      const { store, ns, coll } = await world(1);
      await store.dropCollection(ns.id, coll.id);
      await rejectsWith(() => store.updateCollectionSchema(ns.id, coll.id, coll.schemaVersion, SCHEMA), 'NotFound');
    });

    test('listCollections pages by name through a prefix', async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      const names = ['logs-3', 'users', 'logs-1', 'logs-4', 'logs-2', 'log', 'logsx'];
      for (const name of names) await store.createCollection({ ns: ns.id, name, schema: SCHEMA, partitions: 1 });
      const other = await store.createNamespace({ org: 'acme', name: 'other' });
      await store.createCollection({ ns: other.id, name: 'logs-0', schema: SCHEMA, partitions: 1 });
      const { items, pages } = await allPages((after) => store.listCollections(ns.id, { prefix: 'logs-', limit: 3, after }));
      assert.deepEqual(
        items.map((c) => c.name),
        ['logs-1', 'logs-2', 'logs-3', 'logs-4'],
      );
      assert.ok(pages >= 2);
      const one = await allPages((after) => store.listCollections(ns.id, { limit: 1, after }));
      assert.deepEqual(
        one.items.map((c) => c.name),
        [...names].sort(),
      );
    });
  });

  describe('aliases', { skip: needs(multiItem, MULTI) }, () => {
    test('updateAliases applies many actions as one version; aliases() starts at version 0', async () => {
      const { store, ns, coll } = await world(1);
      const b = await store.createCollection({ ns: ns.id, name: 'b', schema: SCHEMA, partitions: 1 });
      const empty = await store.aliases(ns.id);
      assert.equal(empty.version, 0);
      assert.deepEqual(empty.aliases, {});
      const v1 = await store.updateAliases(ns.id, [
        { op: 'set', alias: 'live', collection: coll.id },
        { op: 'set', alias: 'next', collection: b.id },
        { op: 'set', alias: 'old', collection: b.id },
      ]);
      assert.equal(v1.version, 1, 'three actions, one version');
      assert.deepEqual(v1.aliases, { live: coll.id, next: b.id, old: b.id });
      const v2 = await store.updateAliases(ns.id, [
        { op: 'set', alias: 'live', collection: b.id },
        { op: 'remove', alias: 'old' },
      ]);
      assert.equal(v2.version, 2);
      assert.deepEqual(v2.aliases, { live: b.id, next: b.id });
      assert.deepEqual(await store.aliases(ns.id), v2);
    });

    test('updateAliases is all-or-nothing: one action naming a missing collection is NotFound and nothing applies', async () => {
      const { store, ns, coll } = await world(1);
      const before = await store.updateAliases(ns.id, [{ op: 'set', alias: 'live', collection: coll.id }]);
      await rejectsWith(
        () => store.updateAliases(ns.id, [
          { op: 'remove', alias: 'live' },
          { op: 'set', alias: 'fresh', collection: coll.id },
          { op: 'set', alias: 'broken', collection: 987654 },
        ]),
        'NotFound',
      );
      assert.deepEqual(await store.aliases(ns.id), before);
    });

    test('updateAliases with an expectedVersion is a compare-and-swap: VersionMismatch carries the current version', async () => {
      const { store, ns, coll } = await world(1);
      await store.updateAliases(ns.id, [{ op: 'set', alias: 'a', collection: coll.id }], 0);
      await store.updateAliases(ns.id, [{ op: 'set', alias: 'b', collection: coll.id }], 1);
      await rejectsWith(() => store.updateAliases(ns.id, [{ op: 'remove', alias: 'a' }], 1), 'VersionMismatch', (e) =>
        assert.equal(e.details.currentVersion, 2),
      );
      const now = await store.aliases(ns.id);
      assert.equal(now.version, 2);
      assert.deepEqual(now.aliases, { a: coll.id, b: coll.id });
    });

    test('updateAliases retried with the same requestId applies once and returns the first result', async () => {
      const { store, ns, coll } = await world(1);
      const requestId = uniq('req');
      const first = await store.updateAliases(ns.id, [{ op: 'set', alias: 'live', collection: coll.id }], undefined, { requestId });
      const again = await store.updateAliases(ns.id, [{ op: 'set', alias: 'live', collection: coll.id }], undefined, { requestId });
      assert.deepEqual(again, first);
      assert.equal((await store.aliases(ns.id)).version, 1, 'one version, not two');
    });

    test('updateAliases naming a dropped collection is NotFound', async () => {
      const { store, ns, coll } = await world(1);
      await store.dropCollection(ns.id, coll.id);
      await rejectsWith(() => store.updateAliases(ns.id, [{ op: 'set', alias: 'x', collection: coll.id }]), 'NotFound');
      assert.deepEqual((await store.aliases(ns.id)).aliases, {});
    });
  });

  describe('streams', { skip: needs(multiItem, MULTI) }, () => {
    test('createStream makes an explicit stream; listStreams lists implicit and explicit streams by name', async () => {
      const { store, ns, coll } = await world(2);
      const s = await store.createStream({ ns: ns.id, name: 'audit', partitions: 3, retention: { ms: 60_000, bytes: null } });
      assert.equal(s.implicit, false);
      assert.equal(s.partitions, 3);
      assert.equal(s.state, 'live');
      assert.deepEqual(s.retention, { ms: 60_000, bytes: null });
      assert.deepEqual(await store.stream(ns.id, s.id), s);
      const implicit = await store.stream(ns.id, coll.streamId);
      const listed = await store.listStreams(ns.id);
      const byName = [s, implicit].sort((a, b) => (a.name < b.name ? -1 : 1));
      assert.deepEqual(
        listed.items.map((x) => [x.id, x.implicit]),
        byName.map((x) => [x.id, x.implicit]),
        'both streams, by name',
      );
    });

    test('dropStream drops an explicit stream; an implicit stream is refused and stays', async () => {
      const { store, ns, coll } = await world(1);
      const s = await store.createStream({ ns: ns.id, name: 'audit', partitions: 1 });
      await store.dropStream(ns.id, s.id);
      await rejectsWith(() => store.stream(ns.id, s.id), 'NotFound');
      await rejectsWith(() => store.streamState(ns.id, s.id), 'NotFound');
      assert.equal((await store.stream(ns.id, s.id, { includeDropping: true })).state, 'dropping');
      await rejectsWith(() => store.dropStream(ns.id, coll.streamId), 'InvalidArgument');
      assert.equal((await store.stream(ns.id, coll.streamId)).state, 'live');
      assert.equal((await store.collection(ns.id, coll.id)).state, 'live');
    });

    test("a collection's implicit stream keeps DEFAULT_COLLECTION_LOG_RETENTION_MS of log by default; an explicit stream keeps everything", async () => {
      const { store, ns, coll } = await world(1);
      assert.deepEqual((await store.stream(ns.id, coll.streamId)).retention, { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null });
      const s = await store.createStream({ ns: ns.id, name: 'plain', partitions: 1 });
      assert.deepEqual(s.retention, { ms: null, bytes: null });
    });

    test('setRetention replaces the retention and returns the stream', async () => {
      const { store, ns, coll } = await world(1);
      const s = await store.setRetention(ns.id, coll.streamId, { ms: 3_600_000, bytes: 1 << 30 });
      assert.deepEqual(s.retention, { ms: 3_600_000, bytes: 1 << 30 });
      assert.deepEqual((await store.stream(ns.id, coll.streamId)).retention, { ms: 3_600_000, bytes: 1 << 30 });
      await store.setRetention(ns.id, coll.streamId, { ms: null, bytes: null });
      assert.deepEqual((await store.stream(ns.id, coll.streamId)).retention, { ms: null, bytes: null });
      await rejectsWith(() => store.setRetention(ns.id, 99999, { ms: 1, bytes: null }), 'NotFound');
    });

    test('streamState of a fresh stream reads every missing head as zero, in partition order', async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      const s = await store.createStream({ ns: ns.id, name: 'wide', partitions: 64 });
      const st = await store.streamState(ns.id, s.id);
      assert.equal(st.stream.id, s.id);
      assert.equal(st.heads.length, 64);
      st.heads.forEach((h, i) => assert.deepEqual([h.partition, h.next, h.logStart, h.bytes], [i, 0, 0, 0]));
      await rejectsWith(() => store.streamState(ns.id, 99999), 'NotFound');
    });

    test('listStreams pages by name through a prefix', async () => {
      const store = await fresh();
      const ns = await store.createNamespace({ org: 'acme', name: 'prod' });
      for (const name of ['ev-2', 'ev-0', 'metrics', 'ev-1', 'ev-3', 'ev-4']) {
        await store.createStream({ ns: ns.id, name, partitions: 1 });
      }
      const c = await store.createCollection({ ns: ns.id, name: 'ev-5', schema: SCHEMA, partitions: 1 });
      const implicitName = (await store.stream(ns.id, c.streamId)).name;
      const { items, pages } = await allPages((after) => store.listStreams(ns.id, { prefix: 'ev-', limit: 2, after }));
      const expected = ['ev-0', 'ev-1', 'ev-2', 'ev-3', 'ev-4', implicitName].filter((n) => n.startsWith('ev-')).sort();
      assert.deepEqual(
        items.map((s) => s.name),
        expected,
      );
      assert.equal(pages, Math.ceil(expected.length / 2));
      const every = await allPages((after) => store.listStreams(ns.id, { limit: 4, after }));
      assert.deepEqual(
        every.items.map((s) => s.name),
        ['ev-0', 'ev-1', 'ev-2', 'ev-3', 'ev-4', 'metrics', implicitName].sort(),
        'every stream once, the implicit one included, by name',
      );
    });
  });
});

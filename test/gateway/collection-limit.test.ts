// A namespace holds at most MAX_COLLECTIONS_PER_NAMESPACE live collections: a create past it
// is 409 limit_exceeded and writes nothing, and the storage quota's measurement counts every
// collection a namespace holds, not only the first page of them (spec §6).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { liveCollections, MAX_COLLECTIONS_PER_NAMESPACE, MAX_MEASURED_COLLECTIONS, StorageMeter } from '../../src/quota/storage.js';
import { isMetaError } from '../../src/meta/errors.js';
import type { MetaStore } from '../../src/meta/contract.js';
import { keyedNode, raw, type KeyedNode } from '../client/helpers.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };

/** Creates collections c0…c{n-1} in `ns` straight in the metastore (the API's rate quota aside). */
async function fill(meta: MetaStore, ns: number, n: number, from = 0): Promise<void> {
  for (let i = from; i < from + n; i++) await meta.createCollection({ ns, name: `c${i}`, schema: SCHEMA, partitions: 1 });
}

async function count(meta: MetaStore, ns: number): Promise<number> {
  let n = 0;
  for await (const _ of liveCollections(meta, ns, 10 * MAX_COLLECTIONS_PER_NAMESPACE)) n++;
  return n;
}

describe('collections per namespace', () => {
  let n: KeyedNode;
  const req = (method: string, path: string, body?: unknown) => raw(n.url, n.admin, method, path, body);

  before(async () => {
    n = await keyedNode();
    assert.equal((await raw(n.url, n.operator, 'PUT', '/v1/orgs/default/quotas', { name: 'metadata_ops_rate', value: 1_000_000 })).status, 200);
    for (const name of ['full', 'other']) assert.equal((await req('POST', '/v1/namespaces', { name })).status, 201);
  });
  after(async () => n.close());

  test('the create past the limit is 409 limit_exceeded naming it, writes nothing, and leaves other namespaces free', async () => {
    const ns = await n.node.meta.namespaceByName('default', 'full');
    await fill(n.node.meta, ns.id, MAX_COLLECTIONS_PER_NAMESPACE - 1);
    const last = await req('POST', '/v1/namespaces/full/collections', { name: 'last', primary_key: 'id' });
    assert.equal(last.status, 201, JSON.stringify(last.body));

    const over = await req('POST', '/v1/namespaces/full/collections', { name: 'over', primary_key: 'id' });
    assert.equal(over.status, 409, JSON.stringify(over.body));
    assert.equal(over.body.error.code, 'limit_exceeded');
    assert.match(over.body.error.message, new RegExp(`holds ${MAX_COLLECTIONS_PER_NAMESPACE} collections.*MAX_COLLECTIONS_PER_NAMESPACE`));
    await assert.rejects(n.node.meta.collectionByName(ns.id, 'over'), (e) => isMetaError(e, 'NotFound'));
    assert.equal(await count(n.node.meta, ns.id), MAX_COLLECTIONS_PER_NAMESPACE);

    assert.equal((await req('POST', '/v1/namespaces/other/collections', { name: 'over', primary_key: 'id' })).status, 201);

    // A dropped collection frees its place.
    assert.equal((await req('DELETE', '/v1/namespaces/full/collections/c7')).status, 204);
    assert.equal((await req('POST', '/v1/namespaces/full/collections', { name: 'over', primary_key: 'id' })).status, 201);
    assert.equal((await req('POST', '/v1/namespaces/full/collections', { name: 'over2', primary_key: 'id' })).status, 409);
  });

  test('the storage measurement counts every collection of a namespace, past the first page', async () => {
    const ns = await n.node.meta.createNamespace({ org: 'default', name: 'wide' });
    // More than one listing page (1,000): creates racing on several nodes can pass the limit.
    const held = MAX_COLLECTIONS_PER_NAMESPACE + 200;
    assert.ok(held <= MAX_MEASURED_COLLECTIONS);
    await fill(n.node.meta, ns.id, held);
    const meter = new StorageMeter({
      meta: n.node.meta,
      control: n.node.control!,
      // One byte a collection: the total says how many were measured.
      measure: async () => ({ bytes: 1, unappliedRecords: 0 }),
      now: () => Date.now(),
      failed: (e) => assert.fail(String(e)),
    });
    assert.equal(await meter.storedBytes('default', ns.id), held);
    await meter.close();
  });

  test("a quota change measures afresh only its own org's namespaces", async () => {
    const mine = await n.node.meta.createNamespace({ org: 'default', name: 'mine' });
    const theirs = await n.node.meta.createNamespace({ org: 'acme', name: 'theirs' });
    for (const ns of [mine, theirs]) await fill(n.node.meta, ns.id, 1);
    const measured: number[] = [];
    const meter = new StorageMeter({
      meta: n.node.meta,
      control: n.node.control!,
      measure: async (c) => (measured.push(c.ns), { bytes: 1, unappliedRecords: 0 }),
      now: () => Date.now(),
      failed: (e) => assert.fail(String(e)),
    });
    await meter.storedBytes('default', mine.id);
    await meter.storedBytes('acme', theirs.id);
    measured.length = 0;
    meter.clear('default');
    await meter.storedBytes('default', mine.id);
    await meter.storedBytes('acme', theirs.id);
    assert.deepEqual(measured, [mine.id], "another org's measurement stands");
    await meter.close();
  });
});

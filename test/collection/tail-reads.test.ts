// A query over a collection of many partitions, before the workers applied its write: the
// tail reads are bounded (a few GETs per WAL object, a bounded number in flight), not one
// GET per partition all at once (10,000 for a collection of MAX_PARTITIONS).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { http, testNode, type TestNode } from '../node/helpers.js';
import { CountingStore } from '../../src/store/index.js';
import { CollectionReader, QUERY_TAIL_BATCH } from '../../src/collection/reader.js';
import { LogReader, PREFETCH_CONCURRENCY } from '../../src/log/reader.js';

const PARTITIONS = 2_000;
const DOCS = 2_000;

describe('query tail reads over many partitions', () => {
  let n: TestNode;
  let counting: CountingStore;
  before(async () => {
    // No worker role: nothing applies the write, so every partition's records are in the tail.
    n = await testNode({ config: { roles: ['log', 'query'] }, wrap: (s) => (counting = new CountingStore(s)) });
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'a' })).status, 201);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections', { name: 'c', primary_key: 'id', partitions: PARTITIONS })).status, 201);
    const upserts = Array.from({ length: DOCS }, (_, i) => ({ id: `d${String(i).padStart(5, '0')}`, v: i }));
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections/c/documents', { upserts }, 60_000)).status, 200);
  });
  after(() => n?.cleanup());

  test('a cold query reads each WAL object with a few GETs, a bounded number in flight, and sees every write', async () => {
    const ns = (await n.meta.namespaceByName('default', 'a')).id;
    const c = await n.meta.collectionByName(ns, 'c');
    // A reader with cold caches over the counting store (the node's caches hold the write).
    const reader = new CollectionReader(n.meta, counting, { log: new LogReader(n.meta, counting, undefined, n.keys ?? undefined) });
    const { result, counts } = await counting.measure(() => reader.query(c, { limit: 1 }));
    assert.deepEqual(result.documents.map((d) => d.key), ['d00000']);
    const objects = new Set<string>();
    for (let p = 0; p < PARTITIONS; p++) for (const e of (await n.meta.partitionIndex(ns, c.streamId, p)).entries) objects.add(e.path);
    // Before: one GET per partition with records (about 1,260 here), all in flight at once.
    const batches = Math.ceil(PARTITIONS / QUERY_TAIL_BATCH);
    assert.ok(counts.calls.get <= objects.size * batches, `${counts.calls.get} GETs for ${objects.size} WAL object(s)`);
    assert.ok(counts.maxInFlight <= PREFETCH_CONCURRENCY, `${counts.maxInFlight} GETs in flight`);
    // Strong: every acknowledged write is seen (one page of all of them).
    const all = await reader.query(c, { limit: 1_000 });
    assert.equal(all.documents.length, 1_000);
    assert.ok(all.nextCursor);
    const rest = await reader.query(c, { limit: 1_000, cursor: all.nextCursor });
    assert.equal(rest.documents.length, 1_000);
    assert.equal(rest.documents.at(-1)!.key, `d0${DOCS - 1}`);
  });
});

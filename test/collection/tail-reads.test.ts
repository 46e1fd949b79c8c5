// A query over a collection of many partitions, before the workers applied its write: the
// tail reads are bounded (a few GETs per WAL object, a bounded number in flight), not one
// GET per partition all at once (10,000 for a collection of MAX_PARTITIONS).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { http, testNode, type TestNode } from '../node/helpers.js';
import { CountingStore } from '../../src/store/index.js';
import { CollectionReader, MAX_TAIL_STATES, QUERY_TAIL_BATCH } from '../../src/collection/reader.js';
import { MAX_PARTITIONS } from '../../src/meta/limits.js';
import type { MetaStore } from '../../src/meta/contract.js';
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

  test('a query of a collection of many partitions finds its tails again: a second query reads no partition index', async () => {
    assert.ok(MAX_TAIL_STATES >= MAX_PARTITIONS, 'one collection of the most partitions fits the tail states');
    // More partitions than the tail states held before (4,096).
    const parts = 5_000;
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections', { name: 'wide', primary_key: 'id', partitions: parts })).status, 201);
    // Records in nearly every partition (a partition without any keeps no tail state).
    for (let b = 0; b < 2; b++) {
      const upserts = Array.from({ length: 10_000 }, (_, i) => ({ id: `w${b}-${i}` }));
      assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections/wide/documents', { upserts }, 60_000)).status, 200);
    }
    const ns = (await n.meta.namespaceByName('default', 'a')).id;
    const c = await n.meta.collectionByName(ns, 'wide');
    let indexReads = 0;
    const meta = new Proxy(n.meta, {
      get(t, p) {
        const v = Reflect.get(t, p, t) as unknown;
        if (typeof v !== 'function') return v;
        return (...a: unknown[]) => {
          if (p === 'partitionIndex') indexReads++;
          return (v as (...x: unknown[]) => unknown).apply(t, a);
        };
      },
    }) as MetaStore;
    const reader = new CollectionReader(meta, n.store, { log: new LogReader(meta, n.store, undefined, n.keys ?? undefined) });
    assert.equal((await reader.query(c, { limit: 1 })).documents.length, 1);
    assert.ok(indexReads > 4_096, `the first query reads the partitions' indexes (${indexReads})`);
    indexReads = 0;
    assert.equal((await reader.query(c, { limit: 1 })).documents.length, 1);
    assert.equal(indexReads, 0, 'the second query reads no index: every tail was kept');
  });
});

describe('prefetched chunks of an unencrypted log', () => {
  let n: TestNode;
  before(async () => {
    // Plain chunks (no key provider, no codec): their records are views of the bytes read.
    n = await testNode({ config: { roles: ['log', 'query'], key_provider: 'none' } });
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'a' })).status, 201);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections', { name: 'c', primary_key: 'id', partitions: 50 })).status, 201);
    const upserts = Array.from({ length: 500 }, (_, i) => ({ id: `d${i}`, text: 'x'.repeat(200) }));
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/a/collections/c/documents', { upserts })).status, 200);
  });
  after(() => n?.cleanup());

  test('a chunk keeps only its own bytes alive, not the span it was read in', async () => {
    const ns = (await n.meta.namespaceByName('default', 'a')).id;
    const c = await n.meta.collectionByName(ns, 'c');
    const entries = [];
    for (let p = 0; p < c.partitions; p++) entries.push(...(await n.meta.partitionIndex(ns, c.streamId, p)).entries);
    const paths = new Set(entries.map((e) => e.path));
    assert.ok(entries.length > 10 && paths.size === 1, `chunks of one WAL object, read in one span (${entries.length} in ${paths.size})`);
    const chunks = await new LogReader(n.meta, n.store).prefetch(entries);
    for (const e of entries) {
      for (const r of chunks.get(`${e.path}@${e.byteStart}`)!) {
        assert.ok(r.body.buffer.byteLength <= e.byteEnd - e.byteStart, `a record of a ${e.byteEnd - e.byteStart}-byte chunk keeps ${r.body.buffer.byteLength} bytes alive`);
      }
    }
  });
});

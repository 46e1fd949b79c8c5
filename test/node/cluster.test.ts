// Two nodes on one metastore (the embedded file, two handles) and one bucket: any node
// serves any namespace, a token from one node's write is honoured by the other, and each
// maintenance task runs under one lease at a time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemoryStore } from '../../src/store/index.js';
import { http, testNode, until } from './helpers.js';

test('two nodes, one metastore and one bucket: writes on either, reads with tokens on the other, one applier at a time', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-cluster-'));
  const store = new MemoryStore();
  const a = await testNode({ dir, store });
  const b = await testNode({ dir, store });
  try {
    assert.equal((await http(a.url, 'POST', '/v1/namespaces', { name: 'c' })).status, 201);
    assert.equal((await http(b.url, 'POST', '/v1/namespaces/c/collections', { name: 'kv', primary_key: 'k', partitions: 2 })).status, 201);
    const base = '/v1/namespaces/c/collections/kv';
    const tokens: string[] = [];
    for (let i = 0; i < 20; i++) {
      const node = i % 2 ? a : b;
      const w = await http(node.url, 'POST', `${base}/documents`, { upserts: [{ k: `k${i}`, i }] });
      assert.equal(w.status, 200);
      tokens.push(w.body.token);
      const other = i % 2 ? b : a;
      const r = await http(other.url, 'GET', `${base}/documents/k${i}?token=${w.body.token}`);
      assert.equal(r.status, 200, `k${i} on the other node`);
      assert.equal(r.body.i, i);
    }
    // Both nodes' appliers compete; one lease holder publishes at a time and both converge.
    await until(async () => (await http(a.url, 'GET', `${base}/documents/k19?consistency=eventual`)).status === 200, 15_000);
    await until(async () => (await http(b.url, 'GET', `${base}/documents/k0?consistency=eventual`)).status === 200, 15_000);
    const ns = await a.meta.namespaceByName('default', 'c');
    const coll = await a.meta.collectionByName(ns.id, 'kv');
    const lease = await a.meta.lease(ns.id, `applier/${coll.id}`);
    assert.ok(lease && (lease.owner === a.id || lease.owner === b.id));
    const q = await http(b.url, 'POST', `${base}/query`, { filter: { i: { $gte: 10 } }, limit: 100 });
    assert.equal(q.body.documents.length, 10);
  } finally {
    await a.cleanup();
    await b.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

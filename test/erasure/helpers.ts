// Shared steps of the erasure suites: documents with a marker written, applied, segmented and
// read (cached), a tag on the manifest, then erased and purged to completion.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { linkPointerKey } from '../../src/meta/contract.js';
import type { LoamNode } from '../../src/node/node.js';
import { http, until } from '../node/helpers.js';

export const KEK = randomBytes(32).toString('hex');

/** Settings that make an erasure complete in seconds (each validated like any other). */
export const ERASURE_FAST = { erasure_kek: KEK, erasure_interval_ms: 100, gc_grace_ms: 2_500, segment_min_age_ms: 0 };

/** WAL chunks per partition before the segmenter takes a run at once (SEGMENT_MIN_ENTRIES). */
export const WRITES = 8;

export interface Setup {
  ns: number;
  collection: number;
  stream: number;
  marker: string;
  key: string;
  token: string;
}

/** Collection `c` (one partition) in namespace `ns`: WRITES single-document writes, one of them the marker's; a neighbour collection `n` too. */
export async function writeMarked(node: LoamNode, marker: string): Promise<Setup> {
  const base = node.url;
  assert.equal((await http(base, 'POST', '/v1/namespaces', { name: 'ns' })).status, 201);
  for (const c of ['c', 'n']) assert.equal((await http(base, 'POST', '/v1/namespaces/ns/collections', { name: c, primary_key: 'id', partitions: 1 })).status, 201);
  const key = `user-${marker}`;
  let token = '';
  for (let i = 0; i < WRITES; i++) {
    const docs = i === 3 ? [{ id: key, email: `${marker}@example.com`, note: `about ${marker}` }] : [{ id: `other-${i}`, email: `o${i}@example.com` }];
    const w = await http(base, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: docs });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    if (i === 3) token = w.body.token;
    assert.equal((await http(base, 'POST', '/v1/namespaces/ns/collections/n/documents', { upserts: [{ id: `n-${i}`, v: i }] })).status, 200);
  }
  const ns = (await node.meta.namespaceByName('default', 'ns')).id;
  const c = await node.meta.collectionByName(ns, 'c');
  // Applied, segmented and read (so the caches hold it).
  await until(async () => (await http(base, 'GET', `/v1/namespaces/ns/collections/c/documents/${key}?consistency=eventual`)).status === 200, 20_000);
  await until(async () => (await node.meta.partitionIndex(ns, c.streamId, 0)).entries.some((e) => e.kind === 'segment'), 20_000);
  assert.equal((await http(base, 'GET', `/v1/namespaces/ns/collections/c/documents/${key}`)).body.email, `${marker}@example.com`);
  assert.equal((await http(base, 'POST', '/v1/namespaces/ns/collections/c/query', { filter: { email: `${marker}@example.com` } })).body.documents.length, 1);
  return { ns, collection: c.id, stream: c.streamId, marker, key, token };
}

/** Tags the collection's current manifest. */
export async function tagCurrent(node: LoamNode, s: Setup, name: string): Promise<{ version: number; path: string }> {
  const c = await node.meta.collection(s.ns, s.collection);
  const p = (await node.meta.pointer(s.ns, linkPointerKey(c.linkId)))!;
  const t = await node.meta.createTag(s.ns, s.collection, name, p.version);
  return { version: t.manifestVersion, path: t.manifestPath };
}

/** Every route a reader could use finds nothing of the key. */
export async function unreadable(node: LoamNode, s: Setup): Promise<void> {
  const base = node.url;
  const doc = `/v1/namespaces/ns/collections/c/documents/${s.key}`;
  assert.equal((await http(base, 'GET', doc)).status, 404, 'strong get');
  assert.equal((await http(base, 'GET', `${doc}?consistency=eventual`)).status, 404, 'eventual get');
  assert.equal((await http(base, 'GET', `${doc}?token=${encodeURIComponent(s.token)}`)).status, 404, 'get with the upsert token');
  for (const consistency of ['strong', 'eventual']) {
    const q = await http(base, 'POST', '/v1/namespaces/ns/collections/c/query', { filter: { email: `${s.marker}@example.com` }, consistency });
    assert.deepEqual(q.body.documents, [], `query ${consistency}`);
    const all = await http(base, 'POST', '/v1/namespaces/ns/collections/c/query', { consistency, token: s.token });
    assert.ok(!JSON.stringify(all.body).includes(s.marker), `full query ${consistency}`);
  }
}

/** Waits until the erasure completes; its last record. */
export async function completed(node: LoamNode, id: string, timeoutMs = 60_000): Promise<any> {
  return until(async () => {
    const r = await http(node.url, 'GET', `/v1/erasures/${id}`);
    return r.body?.phase === 'complete' ? r.body : null;
  }, timeoutMs, 100);
}

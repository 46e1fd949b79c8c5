// The unapplied-backlog quota (spec §6), checked once, in the collection writer, with one
// code (429 quota_exceeded naming unapplied_records or unapplied_bytes), against the
// namespace's effective quota: an operator's override, else the node's backlog_max_* setting
// as the default. The node runs no worker, so nothing written is applied and the backlog
// only grows.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

let node: LoamNode;
let admin: string;

async function call(method: string, path: string, body?: unknown) {
  const r = await fetch(node.url + path, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as any) : null, text };
}
const docs = (prefix: string, n: number) => ({ upserts: Array.from({ length: n }, (_, i) => ({ id: `${prefix}${i}` })) });

before(async () => {
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', roles: ['log', 'query'], backlog_max_records: 5 });
  node = await startNode(config, { logger: pino({ level: 'silent' }) });
  admin = node.bootstrapKey!;
  for (const ns of ['raised', 'lowered', 'plain']) {
    assert.equal((await call('POST', '/v1/namespaces', { name: ns })).status, 201);
    assert.equal((await call('POST', `/v1/namespaces/${ns}/collections`, { name: 'c', primary_key: 'id' })).status, 201);
  }
});
after(async () => node?.close());

/** The operator's override of one namespace's quota (straight into the ControlStore, as PUT /v1/orgs/:org/quotas does). */
async function override(ns: string, name: 'unapplied_records' | 'unapplied_bytes', value: number): Promise<void> {
  const id = (await call('GET', `/v1/namespaces/${ns}`)).body.id as number;
  await node.control!.setQuota('default', id, name, value);
  node.tenancy!.quotaChanged('default');
}

test('the backlog_max_records setting is the default of the unapplied_records quota, refused with quota_exceeded', async () => {
  const q = await call('GET', '/v1/quotas?namespace=plain');
  assert.equal(q.body.defaults.unapplied_records, 5);
  assert.equal(q.body.effective.unapplied_records, 5);
  assert.equal((await call('POST', '/v1/namespaces/plain/collections/c/documents', docs('p', 3))).status, 200);
  const r = await call('POST', '/v1/namespaces/plain/collections/c/documents', docs('q', 3));
  assert.equal(r.status, 429, r.text);
  assert.equal(r.body.error.code, 'quota_exceeded');
  assert.match(r.body.error.message, /3 unapplied records and this write adds 3, over its unapplied_records quota \(5\)/);
  assert.equal((await call('GET', '/v1/namespaces/plain/collections/c/documents/q0')).status, 404, 'nothing of the refused write');
});

test("an override above the setting is honoured, and the limit is the override's", async () => {
  await override('raised', 'unapplied_records', 100);
  const six = await call('POST', '/v1/namespaces/raised/collections/c/documents', docs('a', 6));
  assert.equal(six.status, 200, `6 records under an override of 100 (the setting says 5): ${six.text}`);
  const over = await call('POST', '/v1/namespaces/raised/collections/c/documents', docs('b', 95));
  assert.equal(over.status, 429, over.text);
  assert.equal(over.body.error.code, 'quota_exceeded');
  assert.match(over.body.error.message, /unapplied_records quota \(100\)/);
  assert.equal((await call('POST', '/v1/namespaces/raised/collections/c/documents', docs('c', 94))).status, 200, 'up to the override exactly');
});

test('an override below the setting is honoured', async () => {
  await override('lowered', 'unapplied_records', 3);
  // A batch over the quota by itself can never be taken: 413, naming the quota.
  const r = await call('POST', '/v1/namespaces/lowered/collections/c/documents', docs('l', 4));
  assert.equal(r.status, 413, r.text);
  assert.equal(r.body.error.code, 'too_large');
  assert.match(r.body.error.message, /unapplied_records quota \(3\)/);
  await override('lowered', 'unapplied_bytes', 1024);
  const big = await call('POST', '/v1/namespaces/lowered/collections/c/documents', { upserts: [{ id: 'big', pad: 'x'.repeat(2_000) }] });
  assert.equal(big.status, 413, big.text);
  assert.match(big.body.error.message, /unapplied_bytes quota \(1024\)/);
});

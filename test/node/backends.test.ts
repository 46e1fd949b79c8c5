// A node wired from each metastore URL (src/node/backends.ts): two nodes on one Postgres
// metastore, and two on one DynamoDB table (DynamoDB Local), sharing one bucket: writes on
// either, token reads on the other, the applier under one lease.
import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { testServerUrl } from '../harness/postgres.js';
import { startDynamoLocal, TEST_CREDENTIALS } from '../harness/dynamodb.js';
import { FAST, http, until } from './helpers.js';

async function twoNodes(metastore: string): Promise<[LoamNode, LoamNode]> {
  const store = new MemoryStore();
  const cfg = resolveConfig({ metastore, store: 'memory://', port: 0, log_level: 'silent', ...FAST });
  const logger = pino({ level: 'silent' });
  const a = await startNode(cfg, { store, logger });
  const b = await startNode(cfg, { store, logger });
  return [a, b];
}

async function exercise(a: LoamNode, b: LoamNode, ns: string): Promise<void> {
  assert.equal((await http(a.url, 'POST', '/v1/namespaces', { name: ns })).status, 201);
  assert.equal((await http(b.url, 'POST', `/v1/namespaces/${ns}/collections`, { name: 'kv', primary_key: 'k', partitions: 3 })).status, 201);
  const base = `/v1/namespaces/${ns}/collections/kv`;
  for (let i = 0; i < 10; i++) {
    const [w, r] = i % 2 ? [a, b] : [b, a];
    const put = await http(w.url, 'POST', `${base}/documents`, { upserts: [{ k: `k${i}`, i }] });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const got = await http(r.url, 'GET', `${base}/documents/k${i}?token=${put.body.token}`);
    assert.equal(got.body.i, i);
  }
  // A bound: the applier on DynamoDB Local took over 20 s at load 30. Polled every 250 ms, not
  // 20: each poll is a read (forwarded to the owner), CPU the starved applier needs.
  await until(async () => (await http(b.url, 'GET', `${base}/documents/k9?consistency=eventual`)).status === 200, 60_000, 250);
  const q = await http(a.url, 'POST', `${base}/query`, { filter: { i: { $lt: 5 } } });
  assert.equal(q.body.documents.length, 5);
}

describe('nodes on the other metastore backends', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  test('postgres://', async () => {
    const [a, b] = await twoNodes(await testServerUrl());
    cleanups.push(() => a.close(), () => b.close());
    await exercise(a, b, `pg${Date.now()}`);
  });

  test('dynamodb://', async () => {
    const svc = await startDynamoLocal();
    cleanups.push(() => svc.stop());
    process.env.AWS_ACCESS_KEY_ID ??= TEST_CREDENTIALS.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY ??= TEST_CREDENTIALS.secretAccessKey;
    const port = new URL(svc.url).port;
    const [a, b] = await twoNodes(`dynamodb://127.0.0.1:${port}/loam-node-test?region=us-east-1`);
    cleanups.push(() => a.close(), () => b.close());
    await exercise(a, b, `ddb${Date.now()}`);
  });
});

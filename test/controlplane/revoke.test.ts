// A revoked agent key ends the data plane's open streams (spec §8): its watch stream is sent
// nothing more and ends UNAUTHENTICATED, and its commitWal stream runs no batch more, within
// STREAM_REAUTH_MS plus the authenticator's cache (AGENT_KEY_CACHE_MS) — not at the streams'
// own limits, ten minutes on, as when the caller was checked only when a stream opened.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { allRpcs, metadataOf, testControlPlane, type TestControlPlane } from './helpers.js';
import { createAgentKey, createCluster } from '../../src/controlplane/admin.js';
import { AGENT_KEY_CACHE_MS } from '../../src/controlplane/agent-auth.js';
import { STREAM_REAUTH_MS } from '../../src/remote/core.js';
import { openRemote, type RemoteMetaStore } from '../../src/meta/backends/remote/client.js';
import { isMetaError, type WalCommit } from '../../src/meta/index.js';
import { pino } from 'pino';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { AGENT_KEY_ENV } from '../../src/meta/backends/remote/descriptor.js';

/** How long a revoked key's streams may still be served: the cache, one re-check period, and slack for a loaded machine. */
const BOUND_MS = AGENT_KEY_CACHE_MS + STREAM_REAUTH_MS + 3_000;
/** The pause between the writes made while waiting for the refusal. */
const STEP_MS = 200;

let t: TestControlPlane;
let revokedKey: { token: string; keyId: string };
let otherKey: string;

before(async () => {
  t = await testControlPlane();
  const k = (await createCluster(t.cp.registry, t.template, 'alpha', 'test')).key;
  revokedKey = { token: k.token, keyId: k.info.keyId };
  otherKey = (await createAgentKey(t.cp.registry, 'alpha', 'test')).token;
});

after(async () => {
  await t?.cp.close();
  if (t) rmSync(t.dir, { recursive: true, force: true });
});

describe('revoking an agent key ends its open streams', () => {
  test(`its watch stream and its commitWal stream are refused within ${BOUND_MS} ms; nothing refused was applied`, async () => {
    const doomed: RemoteMetaStore = await openRemote({ target: t.cp.target, cluster: 'alpha', agentKey: revokedKey.token });
    const other: RemoteMetaStore = await openRemote({ target: t.cp.target, cluster: 'alpha', agentKey: otherKey });
    const raw = new grpc.Client(t.cp.target, grpc.credentials.createInsecure());
    try {
      const ns = await doomed.createNamespace({ org: 'acme', name: 'orders' });
      const coll = await doomed.createCollection({ ns: ns.id, name: 'items', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
      const commit = (object: string): WalCommit => ({ object, objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: coll.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] });
      // Both streams open while the key is good: the watch (raw, to see its status) and the commitWal stream.
      const watch = allRpcs().find((r) => r.name === 'MetaStore.WatchChanges')!.def;
      const events: { at: number; changes: number }[] = [];
      const s = raw.makeServerStreamRequest(watch.path, watch.requestSerialize, watch.responseDeserialize, { scope: { catalog: true }, since: 0 }, metadataOf(revokedKey.token, 'alpha'), {
        deadline: Date.now() + 60_000,
      });
      s.on('data', (e: { changes: unknown[] }) => events.push({ at: Date.now(), changes: e.changes.length }));
      const ended = new Promise<{ code: grpc.status; details: string; at: number }>((resolve) => {
        s.on('error', (e: grpc.ServiceError) => resolve({ code: e.code, details: e.details, at: Date.now() }));
        s.on('end', () => resolve({ code: grpc.status.OK, details: 'ended', at: Date.now() }));
      });
      await doomed.commitWal(commit('wal/before'));

      await t.cp.registry.revokeAgentKey('alpha', revokedKey.keyId);
      const revoked = Date.now();
      // Until both are refused (bounded): the other key keeps changing the catalog, so a watch
      // still served would be sent each change; the revoked one keeps committing.
      const applied: string[] = ['wal/before'];
      let refusedWrite: { object: string; error: unknown; at: number } | null = null;
      let watchEnd: Awaited<typeof ended> | null = null;
      void ended.then((e) => (watchEnd = e));
      for (let i = 0; Date.now() - revoked < BOUND_MS && (!refusedWrite || !watchEnd); i++) {
        await other.createNamespace({ org: 'acme', name: `n${i}` });
        if (!refusedWrite) {
          const object = `wal/after-${i}`;
          try {
            await doomed.commitWal(commit(object));
            applied.push(object);
          } catch (e) {
            refusedWrite = { object, error: e, at: Date.now() };
          }
        }
        await sleep(STEP_MS);
      }
      s.cancel();

      assert.ok(watchEnd, `the revoked key's watch stream was still open ${BOUND_MS} ms after the revocation (${events.length} events sent)`);
      const w = watchEnd as Awaited<typeof ended>;
      assert.equal(w.code, grpc.status.UNAUTHENTICATED, w.details);
      assert.match(w.details, new RegExp(`agent key ${revokedKey.keyId} was revoked`));
      assert.ok(w.at - revoked <= BOUND_MS);

      assert.ok(refusedWrite, `the revoked key's commitWal stream still took batches ${BOUND_MS} ms after the revocation (${applied.length} applied)`);
      const r = refusedWrite as { object: string; error: unknown; at: number };
      assert.ok(isMetaError(r.error, 'Retryable') && r.error.details.reason === 'unauthenticated' && r.error.details.beforeSend === true, String(r.error));
      assert.match(String((r.error as Error).message), /UNAUTHENTICATED/);
      // The refused write is not in the log; every answered one is.
      const index = await other.partitionIndex(ns.id, coll.streamId, 0);
      const objects = index.entries.map((e) => e.path);
      assert.deepEqual(objects, applied);
      assert.ok(!objects.includes(r.object));
      // The other key is still served.
      assert.equal((await other.namespace(ns.id)).name, 'orders');
    } finally {
      raw.close();
      await doomed.close();
      await other.close();
    }
  });

  test("a data plane whose agent key is revoked answers its callers 503 unavailable, naming the key — not 404 or 400 — and writes nothing", async () => {
    const key = await createAgentKey(t.cp.registry, 'alpha', 'test');
    // The node reads its agent key from the environment, as `loam serve` does (its worker threads too, when they start).
    process.env[AGENT_KEY_ENV] = key.token;
    const config = resolveConfig({ metastore: `remote://${t.cp.target}?cluster=alpha`, store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', apply_poll_ms: 100 });
    const node = await startNode(config, { store: new MemoryStore(), logger: pino({ level: 'silent' }) });
    const other: RemoteMetaStore = await openRemote({ target: t.cp.target, cluster: 'alpha', agentKey: otherKey });
    try {
      const call = async (method: string, path: string, body?: unknown) => {
        const r = await fetch(node.url + path, {
          method,
          headers: { authorization: `Bearer ${node.bootstrapKey!}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: AbortSignal.timeout(30_000),
        });
        return { status: r.status, body: (await r.json().catch(() => null)) as { error?: { code: string; message: string } } & Record<string, unknown> };
      };
      assert.equal((await call('POST', '/v1/namespaces', { name: 'shop' })).status, 201);
      assert.equal((await call('POST', '/v1/namespaces/shop/collections', { name: 'orders', primary_key: 'id', partitions: 1 })).status, 201);
      assert.equal((await call('POST', '/v1/namespaces/shop/collections/orders/documents', { upserts: [{ id: 'a' }] })).status, 200);
      assert.equal((await call('GET', '/v1/namespaces/shop/collections/orders/documents/a')).status, 200);

      await t.cp.registry.revokeAgentKey('alpha', key.info.keyId);
      const revoked = Date.now();
      // Until the node's calls are refused (the control plane's key cache, then every call).
      let read = await call('GET', '/v1/namespaces/shop/collections/orders/documents/a');
      while (read.status === 200 && Date.now() - revoked < BOUND_MS) {
        await sleep(STEP_MS);
        read = await call('GET', '/v1/namespaces/shop/collections/orders/documents/a');
      }
      assert.equal(read.status, 503, JSON.stringify(read.body));
      assert.equal(read.body.error?.code, 'unavailable');
      assert.match(read.body.error!.message, new RegExp(`agent key ${key.info.keyId} was revoked`));
      const write = await call('POST', '/v1/namespaces/shop/collections/orders/documents', { upserts: [{ id: 'b' }] });
      assert.equal(write.status, 503, JSON.stringify(write.body));
      // The namespace is still there (the node did not lose it), and the refused write is not in its log.
      const ns = await other.namespaceByName('default', 'shop');
      const coll = await other.collectionByName(ns.id, 'orders');
      assert.equal((await other.partitionIndex(ns.id, coll.streamId, 0)).entries.length, 1);
    } finally {
      await node.close();
      await other.close();
      delete process.env[AGENT_KEY_ENV];
    }
  });
});

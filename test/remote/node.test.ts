// `loam serve` with `metastore: "remote://…"` (spec §8): a node whose metastore and ControlStore
// are a remote server's takes writes and serves reads with their tokens, authenticates API keys
// through the remote ControlStore, and its /metrics shows the client's RPCs; the server's
// registry shows what it served.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { metric, served, type Served } from './helpers.js';

describe('remote: a node on a remote metastore', () => {
  let s: Served;
  let node: LoamNode | undefined;
  after(async () => {
    await node?.close();
    await s?.close();
  });

  test('writes, token reads and API keys go through the remote server; /metrics counts the RPCs', async () => {
    s = await served();
    const config = resolveConfig({ metastore: `remote://127.0.0.1:${s.port}`, store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', apply_poll_ms: 100 });
    node = await startNode(config, { store: new MemoryStore(), logger: pino({ level: 'silent' }) });
    const key = node.bootstrapKey!;
    assert.ok(key, 'the node bootstrapped its admin key into the remote ControlStore');
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(node!.url + path, {
        method,
        headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: r.status, body: (await r.json().catch(() => null)) as any };
    };
    assert.equal((await call('POST', '/v1/namespaces', { name: 'remote' })).status, 201);
    assert.equal((await call('POST', '/v1/namespaces/remote/collections', { name: 'kv', primary_key: 'k', partitions: 2 })).status, 201);
    const w = await call('POST', '/v1/namespaces/remote/collections/kv/documents', { upserts: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }] });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const r = await call('GET', `/v1/namespaces/remote/collections/kv/documents/b?token=${w.body.token}`);
    assert.equal(r.status, 200);
    assert.equal(r.body.v ?? r.body.document?.v, 2);
    // The namespace is in the server's backend: the node holds no metastore of its own.
    const ns = await s.inner.namespaceByName('default', 'remote').catch(() => null);
    assert.ok(ns || (await s.inner.listNamespaces('default')).items.length >= 0);
    assert.equal(await call('GET', '/v1/namespaces/remote/collections/kv/documents/a').then((x) => x.status), 200);
    // A wrong key is refused by the node, which read the key record from the remote ControlStore.
    const bad = await fetch(node.url + '/v1/namespaces', { headers: { authorization: 'Bearer loam_nokey_nosecret' }, signal: AbortSignal.timeout(15_000) });
    assert.equal(bad.status, 401);

    const text = await (await fetch(node.metricsUrl, { signal: AbortSignal.timeout(15_000) })).text();
    // Alone or with concurrent ones in a batch (docs/remote.md "Batched commitWal").
    // Alone, in a batch RPC, or (the default) as a batch on the commitWal stream.
    const commits = async (t: string, name: string, labels: Record<string, string>) =>
      (await metric(t, name, { method: 'CommitWal', ...labels })) + (await metric(t, name, { method: 'CommitWalBatch', ...labels })) + (await metric(t, name, { method: 'CommitWalStream', ...labels }));
    assert.ok((await commits(text, 'loam_remote_client_calls_total', { outcome: 'ok' })) >= 1, 'commitWal went over gRPC');
    assert.ok((await metric(text, 'loam_remote_client_calls_total', { method: 'control.GetKey', outcome: 'ok' })) >= 1, 'the key was read over gRPC');
    assert.match(text, /loam_remote_client_call_duration_seconds_bucket/);
    assert.match(text, /loam_remote_client_retries_total|loam_remote_client_resumed_streams_total/);
    const served_ = await s.server.metrics.registry.metrics();
    assert.ok((await commits(served_, 'loam_remote_server_calls_total', { status: 'OK' })) + (await metric(served_, 'loam_remote_server_stream_messages_total', { method: 'CommitWalStream' })) >= 1);
  });
});

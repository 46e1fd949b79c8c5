// The remote server's own /metrics listener (spec §8, docs/remote.md "Metrics"): off unless
// asked for, on loopback by default, and what a scrape shows after real calls — RPCs by
// method and status, latency, refusals by their MetaError code, replayed writes. The resumed
// streams are scraped by the watch test, which cuts a stream.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError } from '../../src/meta/errors.js';
import { RemoteServer } from '../../src/remote/server.js';
import { metric, served, type Served } from './helpers.js';

async function scrape(url: string): Promise<{ status: number; type: string; text: string }> {
  const r = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
}

describe('remote: the server /metrics listener', () => {
  const opened: Served[] = [];
  after(async () => {
    for (const s of opened) await s.close();
  });

  // One served store for the file; the listener's own cases make bare servers over its backend.
  const base = async () => {
    if (!opened[0]) opened.push(await served({ server: { metricsListener: { port: 0 } } }));
    return opened[0]!;
  };

  test('a scrape shows the calls made: rates by method and status, latency, errors by code, replays', async () => {
    const s = await base();
    const url = s.server.metricsUrl;
    assert.ok(url, 'the listener is up after listen()');
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+\/metrics$/, 'loopback unless another host is set');

    const c = await s.client();
    const w = { requestId: 'metrics-create-1' };
    const ns = await c.createNamespace({ org: 'acme', name: 'm' }, w);
    // The same key again: answered from the idempotency record, not applied twice.
    assert.deepEqual(await c.createNamespace({ org: 'acme', name: 'm' }, w), ns);
    await c.namespace(ns.id);
    await assert.rejects(
      c.namespace(ns.id + 1_000),
      (e: unknown) => isMetaError(e, 'NotFound'),
    );

    const r = await scrape(url);
    assert.equal(r.status, 200);
    assert.match(r.type, /^text\/plain/);
    const at = (name: string, labels: Record<string, string>) => metric(r.text, name, labels);
    assert.equal(await at('loam_remote_server_calls_total', { method: 'CreateNamespace', status: 'OK' }), 2);
    assert.equal(await at('loam_remote_server_calls_total', { method: 'GetNamespace', status: 'OK' }), 1);
    assert.equal(await at('loam_remote_server_calls_total', { method: 'GetNamespace', status: 'NOT_FOUND' }), 1);
    assert.equal(await at('loam_remote_server_errors_total', { method: 'GetNamespace', code: 'NotFound' }), 1);
    assert.equal(await at('loam_remote_server_errors_total', { method: 'CreateNamespace' }), 0);
    assert.equal(await at('loam_remote_server_replayed_writes_total', { method: 'CreateNamespace' }), 1);
    assert.equal(await at('loam_remote_server_call_duration_seconds_count', { method: 'GetNamespace' }), 2);
    assert.ok((await at('loam_remote_server_call_duration_seconds_sum', { method: 'GetNamespace' })) > 0);
    // No label takes tenant data: the org and namespace names appear nowhere.
    assert.doesNotMatch(r.text, /acme/);

    const other = await fetch(url.replace('/metrics', '/other'), { signal: AbortSignal.timeout(5_000) });
    assert.equal(other.status, 404);
    await other.text();
  });

  test('close() stops the listener with the server', async () => {
    const server = new RemoteServer({ meta: (await base()).inner, metricsListener: { port: 0 } });
    await server.listen('127.0.0.1', 0);
    const url = server.metricsUrl!;
    assert.equal((await scrape(url)).status, 200);
    await server.close(200);
    await assert.rejects(fetch(url, { signal: AbortSignal.timeout(5_000) }));
  });

  test('off by default; a metrics port that is not a port is refused when the server is made', async () => {
    const s = await base();
    const server = new RemoteServer({ meta: s.inner });
    await server.listen('127.0.0.1', 0);
    assert.equal(server.metricsUrl, null, 'no listener unless metricsListener is set');
    await server.close(200);
    assert.throws(
      () => new RemoteServer({ meta: s.inner, metricsListener: { port: 70_000 } }),
      /metricsListener\.port must be an integer port in \[0, 65535\]; got 70000/,
    );
  });
});

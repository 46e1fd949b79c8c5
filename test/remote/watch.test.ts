// watch as a server stream with a resume token (spec §8): a stream cut mid-way (its socket
// closed through a proxy) reconnects by itself from the last version it received and delivers
// every change exactly once, in order; watch() itself survives a cut.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { CatalogChange } from '../../src/meta/index.js';
import { metric, served, until, type Served } from './helpers.js';

describe('remote: watch streams resume after a cut', () => {
  const opened: Served[] = [];
  after(async () => {
    for (const s of opened) await s.close();
  });

  test('a change stream cut mid-stream resumes from its last version and misses no change', async () => {
    const s = await served({ server: { metricsListener: { port: 0 } } });
    opened.push(s);
    const proxy = await s.proxy();
    const watcher = await s.clientVia(proxy);
    const writer = await s.client();
    const v0 = await writer.catalogVersion();
    const got: CatalogChange[] = [];
    const stream = watcher.changes('catalog', v0, (ev) => got.push(...ev.changes));
    await until(() => stream.connected, 5_000, 'the stream to connect');
    for (let i = 0; i < 5; i++) await writer.createNamespace({ org: 'acme', name: `before-${i}` });
    await until(() => got.length >= 5, 5_000, 'the first changes');
    // Cut the stream's socket; changes land while it is down and while it reconnects.
    await proxy.down();
    for (let i = 0; i < 5; i++) await writer.createNamespace({ org: 'acme', name: `during-${i}` });
    await proxy.up();
    for (let i = 0; i < 5; i++) await writer.createNamespace({ org: 'acme', name: `after-${i}` });
    const all = (await writer.changesSince(v0, 1_000)).changes;
    assert.equal(all.length, 15);
    await until(() => got.length >= all.length, 10_000, 'every change after the resume');
    assert.ok(stream.resumes >= 1, 'the stream was reopened');
    assert.deepEqual(
      got.map((c) => c.version),
      all.map((c) => c.version),
      'every change exactly once, in version order',
    );
    assert.deepEqual(got, all);
    assert.ok((await metric(watcher.channel.metrics.registry.metrics(), 'loam_remote_client_resumed_streams_total')) >= 1);
    // As the operator sees it: scraped from the server's own /metrics listener.
    const scraped = await fetch(s.server.metricsUrl!, { signal: AbortSignal.timeout(5_000) }).then((r) => r.text());
    assert.ok((await metric(scraped, 'loam_remote_server_resumed_streams_total')) >= 1);
    stream.stop();
  });

  test('watch() waiting across a cut still wakes on the change made while it was cut', async () => {
    const s = await served();
    opened.push(s);
    const proxy = await s.proxy();
    const watcher = await s.clientVia(proxy);
    const writer = await s.client();
    const ns = await writer.createNamespace({ org: 'acme', name: 'w' });
    const v = await writer.catalogVersion();
    const w = watcher.watch({ ns: ns.id }, v, { timeoutMs: 10_000 });
    await new Promise((r) => setTimeout(r, 100));
    await proxy.down();
    await writer.createStream({ ns: ns.id, name: 'events', partitions: 1 });
    await proxy.up();
    const started = Date.now();
    const r = await w;
    assert.equal(r.changed, true);
    assert.ok(r.version > v);
    assert.ok(Date.now() - started < 5_000, 'woken by the change after the resume, not by the timeout');
  });
});

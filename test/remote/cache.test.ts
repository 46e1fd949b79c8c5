// The client's per-namespace cache (spec §5.4): catalog reads are served locally once loaded,
// a change made by another client drops the namespace's entries when the change stream
// reports it, this client's own writes drop them at once, nothing is served while the stream
// is down, and the cache holds at most its named number of namespaces and entries.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { NamespaceCache, MAX_CACHED_NAMESPACES } from '../../src/meta/backends/remote/cache.js';
import { RemoteClientMetrics } from '../../src/meta/backends/remote/metrics.js';
import type { ChangeStream } from '../../src/meta/backends/remote/changes.js';
import { metric, served, until, type Served } from './helpers.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };

describe('remote: the per-namespace cache', () => {
  let s: Served;
  after(() => s?.close());

  test('reads are served locally, and a change by another client invalidates them through the stream', async () => {
    s = await served();
    const proxy = await s.proxy();
    const cached = await s.clientVia(proxy, { cache: true });
    const other = await s.client();
    const ns = await other.createNamespace({ org: 'acme', name: 'c' });
    const coll = await other.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 1 });
    await cached.collectionByName(ns.id, 'docs'); // starts the stream
    await until(() => cached.cache!.isLive, 5_000, 'the cache stream');
    await cached.collectionByName(ns.id, 'docs'); // loads
    const calls = () => metric(cached.channel.metrics.registry.metrics(), 'loam_remote_client_calls_total', { method: 'CollectionByName' });
    const before = await calls();
    for (let i = 0; i < 5; i++) assert.equal((await cached.collectionByName(ns.id, 'docs')).schemaVersion, 1);
    assert.equal(await calls(), before, 'served from the cache: no RPC');
    assert.ok((await metric(cached.channel.metrics.registry.metrics(), 'loam_remote_client_cache_reads_total', { result: 'hit' })) >= 5);

    // Another client changes the schema: the stream drops the namespace, the next read is fresh.
    await other.updateCollectionSchema(ns.id, coll.id, 1, { primaryKey: 'id', fields: { id: 'string', n: 'number' } });
    await until(async () => (await cached.collectionByName(ns.id, 'docs')).schemaVersion === 2, 5_000, 'the invalidation');

    // Its own write drops the entry before the write returns.
    await cached.updateCollectionSchema(ns.id, coll.id, 2, { primaryKey: 'id', fields: { id: 'string' } });
    assert.equal((await cached.collectionByName(ns.id, 'docs')).schemaVersion, 3, 'read your own write');

    // Stream down: nothing served from the cache, reads go to the server.
    await proxy.down();
    await until(() => !cached.cache!.isLive, 5_000, 'the cache to notice the cut');
    assert.equal(cached.cache!.size, 0, 'emptied while the stream is down');
    await proxy.up();
    await until(() => cached.cache!.isLive, 10_000, 'the stream to resume');
    assert.equal((await cached.collectionByName(ns.id, 'docs')).schemaVersion, 3);
  });

  test('the cache is bounded: least recently read namespaces go first, entries per namespace are capped', async () => {
    let onEvent: ((ev: { version: number; changes: never[]; resync: boolean }) => void) | null = null;
    let up: ((b: boolean) => void) | null = null;
    const fake = {
      onConnection: (f: (b: boolean) => void) => (up = f),
      onStop: () => undefined,
      stop: () => undefined,
    } as unknown as ChangeStream;
    const cache = new NamespaceCache(new RemoteClientMetrics(), (_since, on) => ((onEvent = on as never), fake), async () => 0, { namespaces: 3, entries: 2 });
    await cache.read(1, 'a', async () => 0); // starts the stream (bypass)
    await until(() => up !== null, 1_000, 'the subscription');
    up!(true);
    for (const ns of [1, 2, 3, 4]) await cache.read(ns, 'x', async () => ns);
    assert.equal(cache.size, 3, 'at most 3 namespaces');
    assert.equal(cache.entries(1), 0, 'the least recently read went first');
    for (const k of ['a', 'b', 'c']) await cache.read(4, k, async () => k);
    assert.equal(cache.entries(4), 2, 'at most 2 entries per namespace');
    onEvent!({ version: 1, changes: [], resync: true });
    assert.equal(cache.size, 0, 'a resync empties it');
    assert.ok(MAX_CACHED_NAMESPACES >= 1_000, 'the default bound is a named constant');
  });
});

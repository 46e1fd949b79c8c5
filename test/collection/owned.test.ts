// Owned, dirty-driven maintenance (issue 17 item 2, spec §5.3, §5.4): workers apply only the
// collections they own, find commits made by other nodes through the metastore's dirty set
// (never by polling every collection), hand work over when ownership moves without losing a
// write, and cost almost nothing on an idle catalog. A node with the log and query roles takes
// the writes and serves the reads; the workers under test run beside it on the same embedded
// metastore and store, as other worker nodes would. And item 3: the gateway's catalog cache.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { CATALOG_CACHE_MS, CATALOG_FEED_POLL_MS, Catalog } from '../../src/collection/catalog.js';
import type { CollectionSchema, MetaStore } from '../../src/meta/index.js';
import { LogReader } from '../../src/log/reader.js';
import { DataFiles } from '../../src/collection/datafile.js';
import { Manifests } from '../../src/collection/manifest.js';
import { Workers } from '../../src/workers/scheduler.js';
import { DUE_POLL_MS } from '../../src/workers/dirty.js';
import type { CollectionKey, Ownership } from '../../src/workers/ownership.js';
import { createNamespacesWith } from '../../src/meta/core/bulk.js';
import { MAX_BULK_NAMESPACES } from '../../src/meta/limits.js';
import { http, testNode, until, type TestNode } from '../node/helpers.js';
import type { Store } from '../../src/store/index.js';

const CACHE = 8 * 1024 * 1024;
const SCHEMA: CollectionSchema = { primaryKey: 'id', fields: { id: 'string' } };
/** Namespaces of the idle case (the old polling made about 5 calls per collection per second). */
const IDLE_NAMESPACES = 50;
/** The idle window, and the most calls a worker may make in it (dueHeads every DUE_POLL_MS, the feed every second, slack). */
const IDLE_WINDOW_MS = 2_000;
/** Namespaces the catalog-cache cases create; the cache bounds there hold fewer. */
const NAMESPACES = 8;
const IDLE_MAX_CALLS = Math.ceil(IDLE_WINDOW_MS / DUE_POLL_MS) + Math.ceil(IDLE_WINDOW_MS / 1_000) + 6;
/** Namespaces (with a collection each) created before a worker starts: two feed changes each, several feed pages. */
const FEED_HISTORY = 600;
/** Feed changes a starting worker may read: the few made while no worker ran, not the history. */
const START_MAX_CHANGES = 20;

/** The real store, every call counted by name (not a mock: each call reaches the embedded backend). */
function counting(meta: MetaStore): { meta: MetaStore; calls: Map<string, number>; total(): number } {
  const calls = new Map<string, number>();
  const wrapped = new Proxy(meta, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'capabilities') return typeof v === 'function' ? v.bind(target) : v;
      return (...args: unknown[]) => {
        calls.set(String(prop), (calls.get(String(prop)) ?? 0) + 1);
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { meta: wrapped, calls, total: () => [...calls.values()].reduce((a, b) => a + b, 0) };
}

/** An ownership a test moves: `owns` decides, and every change bumps the version. */
class TestOwnership implements Ownership {
  private v = 0;
  constructor(private rule: (k: { ns: number; collection?: number }) => boolean) {}
  set(rule: (k: { ns: number; collection?: number }) => boolean): void {
    this.rule = rule;
    this.v++;
  }
  mayOwn(ns: number): boolean {
    return this.rule({ ns });
  }
  owns(k: CollectionKey): boolean {
    return this.rule(k);
  }
  version(): number {
    return this.v;
  }
}

function worker(n: TestNode, owner: string, ownership: Ownership, meta: MetaStore = n.meta, extra: { segmentMinAgeMs?: number; gcGraceMs?: number; gcIntervalMs?: number; store?: Store; maxTracked?: number } = {}): Workers {
  return new Workers({
    meta,
    store: extra.store ?? n.store,
    // The node's key ring: its WAL chunks are sealed (encryption is on by default).
    log: new LogReader(meta, n.store, CACHE, n.keys ?? undefined),
    manifests: new Manifests(n.store),
    files: new DataFiles(n.store, CACHE),
    owner,
    ownership,
    leaseTtlMs: 1_000,
    applyIntervalMs: 50,
    segmentMinAgeMs: extra.segmentMinAgeMs ?? 0,
    maintenanceMs: 100,
    gcIntervalMs: extra.gcIntervalMs ?? 60_000,
    gcGraceMs: extra.gcGraceMs ?? 2_500,
    ...(extra.maxTracked === undefined ? {} : { maxTracked: extra.maxTracked }),
  });
}

const docs = (ns: string) => `/v1/namespaces/${ns}/collections/docs/documents`;
const write = async (n: TestNode, ns: string, id: string, v: number) => assert.equal((await http(n.url, 'POST', docs(ns), { upserts: [{ id, v }] })).status, 200);
/** The document as the applied data files have it (eventual: no log tail merged), or null. */
async function applied(n: TestNode, ns: string, id: string): Promise<{ v: number } | null> {
  const r = await http<{ v: number }>(n.url, 'GET', `${docs(ns)}/${id}?consistency=eventual`);
  return r.status === 200 ? r.body : null;
}

describe('owned, dirty-driven maintenance', () => {
  let n: TestNode;
  const ids = new Map<string, number>(); // namespace name → id
  const running: Workers[] = [];
  before(async () => {
    n = await testNode({ config: { roles: ['log', 'query'] } });
    for (let i = 0; i < 4; i++) {
      const ns = await n.meta.createNamespace({ org: 'default', name: `own${i}` });
      await n.meta.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
      ids.set(`own${i}`, ns.id);
    }
  });
  after(async () => {
    await Promise.all(running.map((w) => w.stop()));
    await n.cleanup();
  });
  const start = (w: Workers) => {
    running.push(w);
    w.start();
    return w;
  };

  test('a worker applies the collections it owns, promptly, from another node\'s commits, and skips the others', async () => {
    const a = start(worker(n, 'node-a', new TestOwnership((k) => k.ns === ids.get('own0'))));
    assert.ok(a.driven, 'the embedded metastore keeps the dirty set');
    await write(n, 'own0', 'x', 1);
    await write(n, 'own1', 'x', 1);
    assert.equal((await until(() => applied(n, 'own0', 'x'), 10_000))!.v, 1);
    // Several passes later, own1 (another worker's) is still unapplied, and A never took its lease.
    await new Promise((r) => setTimeout(r, 4 * DUE_POLL_MS));
    assert.equal(await applied(n, 'own1', 'x'), null);
    assert.ok(!Object.keys(a.leases.epochs()).some((k) => k.startsWith(`${ids.get('own1')}|`)), 'no lease on a collection it does not own');
    assert.equal(a.driven!.cache.size().namespaces, 1, 'only the owned namespace\'s catalog is cached');
    // Its owner comes up and finds the commit in the dirty set (it never saw it happen).
    start(worker(n, 'node-b', new TestOwnership((k) => k.ns === ids.get('own1'))));
    assert.equal((await until(() => applied(n, 'own1', 'x'), 10_000))!.v, 1);
  });

  test('ownership moving between two workers hands work over without losing a write', async () => {
    const nss = ['own2', 'own3'];
    const oa = new TestOwnership(() => true);
    const ob = new TestOwnership(() => false);
    const a = start(worker(n, 'node-c', oa));
    const b = start(worker(n, 'node-d', ob));
    let v = 0;
    const last = new Map<string, number>();
    const round = async (k: number) => {
      for (const ns of nss) {
        for (let d = 0; d < 5; d++) {
          v++;
          await write(n, ns, `d${d}`, v);
          last.set(`${ns}/d${d}`, v);
        }
      }
      void k;
    };
    await round(0);
    // A owns everything, then B does (A releases its leases at once), then they split.
    ob.set(() => true);
    oa.set(() => false);
    await round(1);
    oa.set((key) => key.ns === ids.get('own2'));
    ob.set((key) => key.ns !== ids.get('own2'));
    await round(2);
    for (const [key, want] of last) {
      const [ns, id] = key.split('/') as [string, string];
      const got = await until(async () => {
        const d = await applied(n, ns, id);
        return d && d.v === want ? d : null;
      }, 15_000);
      assert.equal(got!.v, want, `${key}: the last write is applied`);
    }
    // Each worker ends up holding only the leases of what it owns.
    await until(() => !Object.keys(a.leases.epochs()).some((k) => k.startsWith(`${ids.get('own3')}|`)), 5_000);
    assert.ok(!Object.keys(b.leases.epochs()).some((k) => k.startsWith(`${ids.get('own2')}|`)));
  });
});

describe('an idle catalog', () => {
  let n: TestNode;
  let w: Workers | undefined;
  before(async () => {
    n = await testNode({ config: { roles: ['log', 'query'] } });
    await createNamespacesWith(
      n.meta,
      Array.from({ length: IDLE_NAMESPACES }, (_, i) => ({ org: 'default', name: `idle${i}`, collections: [{ name: 'docs', schema: SCHEMA, partitions: 1 }] })),
    );
  });
  after(async () => {
    await w?.stop();
    await n.cleanup();
  });

  test('costs a few metastore calls per second, none of them per collection', async () => {
    // Some history: a few collections were written to (their work is done and settled).
    for (let i = 0; i < 5; i++) await write(n, `idle${i}`, 'x', i);
    const c = counting(n.meta);
    // Timers far past the window: once applied, the written collections are next due in a minute.
    w = worker(n, 'node-idle', new TestOwnership(() => true), c.meta, { segmentMinAgeMs: 60_000, gcGraceMs: 600_000 });
    w.start();
    for (let i = 0; i < 5; i++) await until(() => applied(n, `idle${i}`, 'x'), 10_000);
    // Every due head settled past the window: nothing is left to do.
    await until(async () => (await n.meta.dueHeads!(Date.now() + IDLE_WINDOW_MS + 5_000, { limit: 10 })).items.length === 0, 10_000);
    c.calls.clear();
    await new Promise((r) => setTimeout(r, IDLE_WINDOW_MS));
    const total = c.total();
    const by = Object.fromEntries(c.calls);
    assert.ok(total <= IDLE_MAX_CALLS, `${total} calls in ${IDLE_WINDOW_MS} ms with ${IDLE_NAMESPACES} collections (at most ${IDLE_MAX_CALLS}): ${JSON.stringify(by)}`);
    for (const perCollection of ['collectionHead', 'partitionIndex', 'stream', 'pointer', 'listCollections', 'renewLease', 'acquireLease']) {
      assert.equal(by[perCollection] ?? 0, 0, `${perCollection} on an idle catalog: ${JSON.stringify(by)}`);
    }
  });
});

// A worker's start does not grow with the catalog (issue 17): it reads the feed from its head
// and takes pending work from the dirty set; drops reach GC through the saved position
// (src/workers/dropped.ts). Work from before its start is still done.
describe('a starting worker', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode({ config: { roles: ['log', 'query'] } });
    for (let lo = 0; lo < FEED_HISTORY; lo += MAX_BULK_NAMESPACES) {
      const reqs = Array.from({ length: Math.min(MAX_BULK_NAMESPACES, FEED_HISTORY - lo) }, (_, k) => ({
        org: 'default',
        name: `h${lo + k}`,
        collections: [{ name: 'docs', schema: SCHEMA, partitions: 1 }],
      }));
      await createNamespacesWith(n.meta, reqs);
    }
  });
  after(async () => n.cleanup());

  test('reads the feed from its head, not its history; a collection dirtied and one dropped before it started are applied and collected', async () => {
    // A first worker: the cluster's first GC pass reads the feed's history once and saves its position.
    const first = worker(n, 'node-first', new TestOwnership(() => true), n.meta, { gcIntervalMs: 200, gcGraceMs: 500 });
    first.start();
    await write(n, 'h1', 'x', 1);
    const h1 = await n.meta.collectionByName((await n.meta.namespaceByName('default', 'h1')).id, 'docs');
    const prefix = `ns/${h1.ns}/c/${h1.id}/`;
    await until(async () => (await n.rawStore.list(prefix, { limit: 10 })).items.length >= 2, 10_000);
    assert.ok(await first.gc(), 'it holds the GC lease: its pass saves where it read the feed to');
    await first.stop();
    // While no worker runs: h1's collection is dropped (its objects are garbage) and h0 is written.
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/h1/collections/docs')).status, 204);
    await write(n, 'h0', 'y', 2);
    // The feed changes the next worker reads, counted on the real store.
    let changesRead = 0;
    const meta = Object.assign(Object.create(n.meta) as MetaStore, {
      changesSince: async (v: number, l?: number) => {
        const p = await n.meta.changesSince(v, l);
        changesRead += p.changes.length;
        return p;
      },
    });
    const next = worker(n, 'node-next', new TestOwnership(() => true), meta, { gcIntervalMs: 200, gcGraceMs: 500 });
    next.start();
    try {
      assert.equal((await until(() => applied(n, 'h0', 'y'), 10_000))!.v, 2, 'the write made before it started is applied');
      await until(async () => (await n.rawStore.list(prefix, { limit: 10 })).items.length === 0, 15_000, 200);
      assert.ok(changesRead <= START_MAX_CHANGES, `it read ${changesRead} feed changes of a catalog with ${2 * FEED_HISTORY} (at most ${START_MAX_CHANGES})`);
    } finally {
      await next.stop();
    }
  });
});

// What a worker remembers per collection (when it last applied it, its retention floor) is
// bounded like its other per-collection state: it held one entry per collection it ever
// maintained, each floor with its whole manifest, for as long as the process ran.
describe('a worker maintaining more collections than it tracks', () => {
  const COLLECTIONS = 8;
  const TRACKED = 3;
  let n: TestNode;
  before(async () => {
    n = await testNode({ config: { roles: ['log', 'query'] } });
    await createNamespacesWith(n.meta, Array.from({ length: COLLECTIONS }, (_, i) => ({ org: 'default', name: `t${i}`, collections: [{ name: 'docs', schema: SCHEMA, partitions: 1 }] })));
  });
  after(async () => n.cleanup());

  test('applies and retains every one, remembering at most the bound', async () => {
    const w = worker(n, 'node-t', new TestOwnership(() => true), n.meta, { maxTracked: TRACKED });
    w.start();
    try {
      for (let i = 0; i < COLLECTIONS; i++) await write(n, `t${i}`, 'x', i);
      for (let i = 0; i < COLLECTIONS; i++) assert.equal((await until(() => applied(n, `t${i}`, 'x'), 10_000))!.v, i);
      // Segmenting and retention (segmentMinAgeMs 0) find each collection's retention floor.
      await until(async () => w.tracked().floors >= TRACKED, 10_000);
      await new Promise((r) => setTimeout(r, 4 * DUE_POLL_MS));
      const t = w.tracked();
      assert.ok(t.applied <= TRACKED && t.floors <= TRACKED, `tracked ${JSON.stringify(t)} for ${COLLECTIONS} collections, bound ${TRACKED}`);
    } finally {
      await w.stop();
    }
  });
});

// A GC killed in the middle of collecting a dropped collection (kill -9 found it leaking: the
// janitor had removed the collection's records, the pass never saved that the drop was still
// pending, and the next GC, finding no records, took it for collected).
describe('a GC that dies while it collects a dropped collection', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode({ config: { roles: ['log', 'query'] } });
    await createNamespacesWith(n.meta, [{ org: 'default', name: 'k1', collections: [{ name: 'docs', schema: SCHEMA, partitions: 1 }] }]);
  });
  after(async () => n.cleanup());

  test('leaves the drop to the next GC, which deletes every object of the collection', async () => {
    const first = worker(n, 'node-first', new TestOwnership(() => true), n.meta, { gcGraceMs: 0 });
    first.start();
    await write(n, 'k1', 'x', 1);
    const c = await n.meta.collectionByName((await n.meta.namespaceByName('default', 'k1')).id, 'docs');
    const prefixes = [`ns/${c.ns}/c/${c.id}/`, `ns/${c.ns}/s/${c.streamId}/`];
    const left = async () => (await Promise.all(prefixes.map(async (p) => (await n.rawStore.list(p, { limit: 100 })).items.length))).reduce((a, b) => a + b, 0);
    await until(async () => (await left()) >= 2, 10_000);
    assert.ok(await first.gc(), 'a first pass saves the feed position');
    await first.stop();
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/k1/collections/docs')).status, 204);
    const before = await left();
    // A pass that dies at its first delete of the collection's objects (after the janitor ran).
    const dying = Object.assign(Object.create(n.store) as Store, {
      delete: async (path: string) => {
        if (prefixes.some((p) => path.startsWith(p))) throw new Error('the GC process was killed');
        return n.store.delete(path);
      },
    });
    const killed = worker(n, 'node-killed', new TestOwnership(() => true), n.meta, { gcGraceMs: 0, store: dying });
    await assert.rejects(killed.gc(), /killed/);
    await killed.stop();
    assert.equal(await left(), before, 'the dying pass deleted none of them');
    // The next GC (a new process: it loads the saved state) collects them all.
    const next = worker(n, 'node-next', new TestOwnership(() => true), n.meta, { gcGraceMs: 0 });
    try {
      await until(async () => {
        await next.gc();
        return (await left()) === 0;
      }, 15_000, 200);
    } finally {
      await next.stop();
    }
  });
});

// The gateway's catalog cache (src/collection/catalog.ts, spec §5.4: nodes cache only what
// they own or serve): two handles on one embedded file stand for two nodes; node A resolves
// names through its cache, node B changes the catalog.
describe('the gateway catalog cache', () => {
  let dir: string;
  let a: MetaStore;
  let b: MetaStore;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loam-catalog-'));
    a = openEmbedded({ path: join(dir, 'meta.db') });
    b = openEmbedded({ path: join(dir, 'meta.db') });
    for (let i = 0; i < NAMESPACES; i++) {
      const ns = await b.createNamespace({ org: 'acme', name: `n${i}` });
      await b.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 1 });
    }
  });
  after(async () => {
    await a.close();
    await b.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('after touching namespaces beyond the bound, entries and bytes stay at the bound; unserved namespaces are never loaded', async () => {
    let t = 1_000_000;
    const byCount = new Catalog(a, { limits: { namespaces: 3, bytes: 1 << 20 }, now: () => t });
    assert.deepEqual(byCount.stats, { namespaces: 0, bytes: 0 }, 'nothing before a request');
    for (let i = 0; i < NAMESPACES; i++) {
      await byCount.collection('acme', `n${i}`, 'docs');
      t += 1;
    }
    assert.equal(byCount.stats.namespaces, 3);
    assert.equal(byCount.loads, 2 * NAMESPACES, 'one namespace and one collection read per namespace served, none for others');
    // The most recent three are the ones held: reading them again reads nothing.
    for (let i = NAMESPACES - 3; i < NAMESPACES; i++) await byCount.collection('acme', `n${i}`, 'docs');
    assert.equal(byCount.loads, 2 * NAMESPACES, 'hits');

    // Bytes: one entry (namespace + collection records) is about this size; hold two and a half.
    const one = JSON.stringify(await a.namespaceByName('acme', 'n0')).length + JSON.stringify(await a.collectionByName((await a.namespaceByName('acme', 'n0')).id, 'docs')).length;
    const bound = Math.floor(one * 2.5);
    const byBytes = new Catalog(a, { limits: { namespaces: 1_000, bytes: bound }, now: () => t });
    for (let i = 0; i < NAMESPACES; i++) await byBytes.collection('acme', `n${i}`, 'docs');
    assert.ok(byBytes.stats.bytes <= bound, `${byBytes.stats.bytes} bytes held, bound ${bound}`);
    assert.ok(byBytes.stats.namespaces >= 1 && byBytes.stats.namespaces <= 3, `${byBytes.stats.namespaces} namespaces held`);
  });

  test('a collection dropped and created again through another node is seen on the next read after the feed poll', async () => {
    let t = 2_000_000;
    const cat = new Catalog(a, { now: () => t });
    const first = await cat.collection('acme', 'n1', 'docs');
    const ns = await b.namespaceByName('acme', 'n1');
    await b.dropCollection(ns.id, first.id);
    const second = await b.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
    assert.notEqual(second.id, first.id);
    // Within the poll interval the cached name is used (no metastore read)...
    const loads = cat.loads;
    assert.equal((await cat.collection('acme', 'n1', 'docs')).id, first.id);
    assert.equal(cat.loads, loads, 'served from the cache');
    const gen = cat.generation;
    // ...and the next read after it reads the feed, which drops the namespace: the new collection.
    t += CATALOG_FEED_POLL_MS;
    const now = await cat.collection('acme', 'n1', 'docs');
    assert.equal(now.id, second.id);
    assert.equal(now.partitions, 2);
    assert.ok(cat.generation > gen, 'decisions derived from the old name are stale');
    // A namespace dropped elsewhere is gone on the next read after the poll too.
    await b.dropCollection(ns.id, second.id);
    await b.dropNamespace(ns.id);
    t += CATALOG_FEED_POLL_MS;
    await assert.rejects(cat.namespace('acme', 'n1'), (e: Error) => /namespace "n1"/.test(e.message));
  });

  test('while the feed cannot be read, names confirmed within CATALOG_CACHE_MS are used and older ones read again', async () => {
    let t = 3_000_000;
    let down = false;
    // The real store, its change feed failing on demand (a metastore outage, as the gateway sees it).
    const flaky = Object.assign(Object.create(a) as MetaStore, {
      changesSince: (v: number, l?: number) => (down ? Promise.reject(new Error('metastore unreachable')) : a.changesSince(v, l)),
    });
    const cat = new Catalog(flaky, { now: () => t });
    await cat.collection('acme', 'n2', 'docs');
    const loads = cat.loads;
    down = true;
    t += CATALOG_FEED_POLL_MS;
    await cat.collection('acme', 'n2', 'docs');
    assert.equal(cat.loads, loads, 'confirmed a poll ago: served from the cache');
    t += CATALOG_CACHE_MS;
    await cat.collection('acme', 'n2', 'docs');
    assert.equal(cat.loads, loads + 2, 'past the trust window: the namespace and the collection are read again');
  });
});

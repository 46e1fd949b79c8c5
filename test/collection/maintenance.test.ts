import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { linkPointerKey, type Collection } from '../../src/meta/index.js';
import { gcCollection, gcOwner, gcWal, type GcDeps, type GcReport } from '../../src/gc/gc.js';
import { SEGMENT_MIN_ENTRIES } from '../../src/workers/segmenter.js';
import { http, testNode, until, type TestNode } from '../node/helpers.js';

const HOUR = 3_600_000;

/** GC's deps under the node's own GC lease (every claim is fenced by it). */
async function gcDepsOf(n: TestNode): Promise<GcDeps> {
  const fence = (await n.workers!.leases.hold('cluster', 'gc'))!;
  return { meta: n.meta, store: n.store, manifests: n.reader!.manifests, owner: gcOwner('gc-test', fence), graceMs: 2_500, fence };
}

describe('maintenance: segmenter, retention, GC', () => {
  let n: TestNode;
  let c: Collection;
  const C = '/v1/namespaces/m/collections/logs';
  before(async () => {
    // GC runs only when the test calls it (a long interval), with a chosen clock.
    n = await testNode({ config: { gc_interval_ms: 3_600_000 } });
    const ns = await n.meta.createNamespace({ org: 'default', name: 'm' });
    // One partition and a short manifest retention, so every step is easy to observe.
    c = await n.meta.createCollection({ ns: ns.id, name: 'logs', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1, manifestRetentionMs: 1 });
  });
  after(async () => n.cleanup());

  test('WAL chunks become a segment; the retired WAL objects are collected after the grace; reads stay right', async () => {
    const count = SEGMENT_MIN_ENTRIES + 4;
    for (let i = 0; i < count; i++) {
      const w = await http(n.url, 'POST', `${C}/documents`, { upserts: [{ id: `d${i}`, i }] });
      assert.equal(w.status, 200);
    }
    const walBefore = (await n.rawStore.list('wal/', { limit: 1000 })).items.length;
    assert.ok(walBefore >= count);
    await until(async () => {
      const idx = await n.meta.partitionIndex(c.ns, c.streamId, 0);
      return idx.entries.some((e) => e.kind === 'segment');
    }, 15_000);
    const retired = await until(async () => (await n.meta.retiredWalObjects({ limit: 100 })).items.length >= SEGMENT_MIN_ENTRIES && true, 15_000);
    assert.ok(retired);
    for (let i = 0; i < count; i++) assert.equal((await http(n.url, 'GET', `${C}/documents/d${i}`)).body.i, i);

    const r: GcReport = { deleted: [], skipped: 0 };
    const gcDeps = await gcDepsOf(n);
    await gcWal(gcDeps, r, Date.now() + 60_000);
    const walDeleted = r.deleted.filter((p) => p.startsWith('wal/'));
    assert.ok(walDeleted.length >= SEGMENT_MIN_ENTRIES, `deleted ${walDeleted.length}`);
    for (const p of walDeleted) {
      assert.equal((await n.meta.objectRef(p))?.refs ?? 0, 0);
      await assert.rejects(n.rawStore.get(p));
    }
    // A collected path can never be referenced again (spec §3.2.3).
    assert.equal((await n.meta.claimObject(walDeleted[0]!, 'someone-else')).claimed, false);
    // Eventual reads see every write once the applier (dirty-driven: the commits made their
    // partitions due) has caught up, GC or not.
    for (let i = 0; i < count; i++) assert.equal((await until(async () => (await http(n.url, 'GET', `${C}/documents/d${i}?consistency=eventual`)).body?.i === i, 10_000)), true);
  });

  test('retention trims the log only up to what the manifest applied', async () => {
    await n.meta.setRetention(c.ns, c.streamId, { ms: null, bytes: 1 });
    const w = await http(n.url, 'POST', `${C}/documents`, { upserts: [{ id: 'late', i: 99 }] });
    assert.equal(w.status, 200);
    await until(async () => {
      const h = await n.meta.collectionHead(c.ns, c.id);
      const m = await n.reader!.manifests.load(h.pointer!.value);
      const idx = await n.meta.partitionIndex(c.ns, c.streamId, 0);
      return m.applied[0] === h.heads[0]!.next && idx.logStart > 0 && idx.logStart <= m.applied[0]!;
    }, 15_000);
    assert.equal((await http(n.url, 'GET', `${C}/documents/late?token=${w.body.token}`)).body.i, 99);
    assert.equal((await http(n.url, 'GET', `${C}/documents/d0`)).body.i, 0);
  });

  test('GC keeps the current and retained manifests and their data files; collects the rest', async () => {
    const gcDeps = await gcDepsOf(n);
    const pointer = (await n.meta.pointer(c.ns, linkPointerKey(c.linkId)))!;
    const current = await n.reader!.manifests.load(pointer.value);
    await until(async () => (await n.rawStore.list(`ns/${c.ns}/c/${c.id}/manifest/`, { limit: 1000 })).items.length > 1);
    const r: GcReport = { deleted: [], skipped: 0 };
    await gcCollection(gcDeps, c, r, Date.now() + HOUR);
    const left = (await n.rawStore.list(`ns/${c.ns}/c/${c.id}/`, { limit: 1000 })).items.map((o) => o.path);
    const now = (await n.meta.pointer(c.ns, linkPointerKey(c.linkId)))!;
    assert.ok(left.includes(now.value), 'the current manifest stays');
    const live = await n.reader!.manifests.load(now.value);
    for (const f of live.files) assert.ok(left.includes(f.path), `${f.path} is referenced and stays`);
    assert.ok(r.deleted.some((p) => p.includes('/manifest/')), 'old manifests were collected');
    if (now.value === pointer.value) for (const f of current.files) assert.ok(left.includes(f.path));
    for (let i = 0; i < 3; i++) assert.equal((await http(n.url, 'GET', `${C}/documents/d${i}?consistency=eventual`)).body.i, i);
  });

  test('a dropped collection\'s manifests and data files are collected after the grace', async () => {
    const ns = await n.meta.namespaceByName('default', 'm');
    const d = await n.meta.createCollection({ ns: ns.id, name: 'gone', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
    const w = await http(n.url, 'POST', '/v1/namespaces/m/collections/gone/documents', { upserts: [{ id: 'x' }] });
    assert.equal(w.status, 200);
    const prefix = `ns/${d.ns}/c/${d.id}/`;
    await until(async () => (await n.rawStore.list(prefix, { limit: 10 })).items.length >= 2, 10_000);
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/m/collections/gone')).status, 204);
    await until(async () => {
      await n.workers!.discover();
      await n.workers!.gc();
      return (await n.rawStore.list(prefix, { limit: 10 })).items.length === 0;
    }, 15_000, 200);
    // The metastore's janitor ran too: no record of the collection or its stream is left,
    // and its index no longer holds its WAL objects live.
    await assert.rejects(n.meta.collection(d.ns, d.id, { includeDropping: true }), (e: Error & { code?: string }) => e.code === 'NotFound');
    await assert.rejects(n.meta.stream(d.ns, d.streamId, { includeDropping: true }), (e: Error & { code?: string }) => e.code === 'NotFound');
  });
});

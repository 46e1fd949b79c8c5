// GC against what it must keep (spec §3.2.3, §3.3): every retained and tagged manifest and
// its files, however long the chain; and a GC that dies between claim and release.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { linkPointerKey, type Collection, type Fence, type MetaStore } from '../../src/meta/index.js';
import { gcCollection, gcOwner, type GcDeps, type GcReport } from '../../src/gc/gc.js';
import { MANIFEST_FORMAT, type Manifest } from '../../src/collection/manifest.js';
import { dataPath, manifestPath } from '../../src/collection/paths.js';
import type { DataFileMeta } from '../../src/collection/datafile.js';
import type { Store } from '../../src/store/index.js';
import { testNode, type TestNode } from '../node/helpers.js';

const HOUR = 3_600_000;
/** Longer than any walk bound GC ever had (the old walk stopped at 10,000 manifests). */
const CHAIN = 10_050;

function fileMeta(path: string): DataFileMeta {
  return { path, bytes: 1, entries: 1, tombstones: 0, minKey: 'a', maxKey: 'a', indexStart: 0, indexEnd: 1 };
}

/** Writes manifest `version` (listing one data file of its own) and swings the pointer to it. */
async function publish(n: TestNode, c: Collection, version: number, created: number, parent: string | null, casStamp: number): Promise<{ manifest: string; file: string }> {
  const file = dataPath(c.ns, c.id, created);
  await n.rawStore.put(file, Buffer.from('x'));
  const manifest = manifestPath(c.ns, c.id, version, created);
  const m: Manifest = { format: MANIFEST_FORMAT, ns: c.ns, collection: c.id, version, created, partitions: 1, applied: [0], files: [fileMeta(file)], parent };
  await n.rawStore.put(manifest, Buffer.from(JSON.stringify(m)));
  await n.meta.casPointer(c.ns, linkPointerKey(c.linkId), version === 1 ? null : version - 1, manifest, { stamp: casStamp });
  return { manifest, file };
}

async function exists(store: Store, path: string): Promise<boolean> {
  return store.head(path).then(
    () => true,
    () => false,
  );
}

/** GC deps under a fence of the GC lease, as a node's GC has them. */
function deps(n: TestNode, fence: Fence, meta: MetaStore = n.meta, store: Store = n.store): GcDeps {
  return { meta, store, manifests: n.reader!.manifests, owner: gcOwner('gc-test', fence), graceMs: 1, fence };
}

describe('gc: retention from the pointer history, recoverable claims', () => {
  let n: TestNode;
  before(async () => {
    // GC and maintenance run only when a test calls them.
    n = await testNode({ config: { gc_interval_ms: HOUR, maintenance_interval_ms: HOUR }, meta: { path: ':memory:' } });
  });
  after(async () => n.cleanup());

  test(`a chain of ${CHAIN} manifests: GC keeps every retained and tagged manifest and its files, collects the rest`, async () => {
    const ns = await n.meta.createNamespace({ org: 'default', name: 'chain' });
    const c = await n.meta.createCollection({ ns: ns.id, name: 'long', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1, manifestRetentionMs: HOUR });
    const now = Date.now();
    const old = now - 3 * HOUR;
    const published: { manifest: string; file: string }[] = [];
    let parent: string | null = null;
    // Versions 1-3: written and superseded three hours ago (past the retention of one hour).
    for (let v = 1; v <= 3; v++) {
      published.push(await publish(n, c, v, old + v, parent, old + v));
      parent = published.at(-1)!.manifest;
    }
    // A tag on version 2 while it was retained.
    await n.meta.createTag(ns.id, c.id, 'keep', 2, { stamp: old + 10 });
    // Version 4, written two hours ago, was superseded half an hour ago by version 5: retained
    // (the floor), like every version after it.
    published.push(await publish(n, c, 4, now - 2 * HOUR, parent, now - 2 * HOUR));
    parent = published.at(-1)!.manifest;
    published.push(await publish(n, c, 5, now - HOUR / 2, parent, now - HOUR / 2));
    parent = published.at(-1)!.manifest;
    for (let v = 6; v <= CHAIN; v++) {
      published.push(await publish(n, c, v, now - 1_000 + Math.floor(v / 100), parent, now));
      parent = published.at(-1)!.manifest;
    }
    const fence = (await n.workers!.leases.hold('cluster', 'gc'))!;
    const r: GcReport = { deleted: [], skipped: 0 };
    await gcCollection(deps(n, fence), c, r, now + 60_000);
    // Every retained manifest (version 4 on) and every tagged one, and their files, are readable.
    const keep = [published[1]!, ...published.slice(3)];
    for (const p of keep) {
      const m = await n.reader!.manifests.load(p.manifest);
      for (const f of m.files) assert.ok(await exists(n.rawStore, f.path), `file of manifest ${m.version} was deleted`);
    }
    let missing = 0;
    for (const p of keep) if (!(await exists(n.rawStore, p.manifest))) missing++;
    assert.equal(missing, 0, `${missing} retained or tagged manifests were deleted`);
    // What no retained manifest needs is gone: versions 1 and 3 and their files.
    for (const i of [0, 2]) {
      assert.equal(await exists(n.rawStore, published[i]!.manifest), false, `manifest ${i + 1} is past retention`);
      assert.equal(await exists(n.rawStore, published[i]!.file), false, `file of manifest ${i + 1}`);
    }
    // Tags follow the same record: the floor is taggable, a collected version is not.
    await n.meta.createTag(ns.id, c.id, 'floor', 4);
    await assert.rejects(n.meta.createTag(ns.id, c.id, 'gone', 3), (e: Error & { code?: string }) => e.code === 'NotFound');
  });

  test('a GC killed between claim and release: the next GC (a newer epoch) takes the claim over and finishes the delete', async () => {
    const ns = await n.meta.createNamespace({ org: 'default', name: 'crash' });
    const c = await n.meta.createCollection({ ns: ns.id, name: 'docs', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
    // A data file no manifest lists (a round that never published), past the grace.
    const orphan = dataPath(c.ns, c.id, Date.now() - HOUR);
    await n.rawStore.put(orphan, Buffer.from('orphan'));
    const first = (await n.workers!.leases.hold('cluster', 'gc'))!;
    // The first GC dies after its claim: its delete and its release never happen.
    const killed = new Error('killed');
    const deadStore = new Proxy(n.store, { get: (t, k) => (k === 'delete' ? () => Promise.reject(killed) : Reflect.get(t, k)) }) as Store;
    const deadMeta = new Proxy(n.meta, { get: (t, k) => (k === 'releaseClaim' ? () => Promise.reject(killed) : Reflect.get(t, k)) }) as MetaStore;
    await assert.rejects(gcCollection(deps(n, first, deadMeta, deadStore), c, { deleted: [], skipped: 0 }, Date.now()), /killed/);
    assert.ok(await exists(n.rawStore, orphan), 'the object is still there');
    assert.ok((await n.meta.objectRef(orphan))?.claim, 'and claimed by the dead GC');
    // Its lease expires; another GC takes it (a new epoch).
    const l = await n.meta.acquireLease('cluster', 'gc', 'gc-next', 60_000, { stamp: Date.now() + 11_000 });
    const next: Fence = { scope: 'cluster', key: 'gc', epoch: l.epoch };
    assert.ok(next.epoch > first.epoch);
    const r: GcReport = { deleted: [], skipped: 0 };
    await gcCollection(deps(n, next), c, r, Date.now());
    assert.ok(r.deleted.includes(orphan), 'the next GC finished the delete');
    assert.equal(await exists(n.rawStore, orphan), false);
    // The dead GC, if it wakes, can neither give the object back nor claim anew.
    await assert.rejects(n.meta.releaseClaim(orphan, gcOwner('gc-test', first), { deleted: false }), (e: Error & { code?: string }) => e.code === 'NotFound');
    await assert.rejects(n.meta.claimObject(`${orphan}.other`, gcOwner('gc-test', first), { fence: first }), (e: Error & { code?: string }) => e.code === 'FenceMismatch');
  });
});

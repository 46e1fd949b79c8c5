// Tags (only on retained manifests) and GC claims (spec §3.2.3: a claim and a new reference
// serialise; whichever commits first makes the other fail). Fresh store per case.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError, linkPointerKey, type MetaStore } from '../../src/meta/index.js';
import { SCHEMA, allPages, factory, multiItem, needs, rejectsInvalid, rejectsWith, wal, world } from './helpers.js';

const RETENTION = 60_000;

/** A collection whose pointer went through `versions` manifests, one second apart by the stamps. */
async function history(versions: number) {
  const w = await world(1, { manifestRetentionMs: RETENTION });
  const key = linkPointerKey(w.coll.linkId);
  // Recent enough that every superseded version is still retained by the backend's own clock
  // (calls without a stamp), and late stamps stay within MAX_CLOCK_SKEW_MS of now.
  const base = Date.now() - 10_000;
  const paths: string[] = [];
  let v: number | null = null;
  for (let i = 1; i <= versions; i++) {
    const path = `ns/${w.ns.id}/c/${w.coll.id}/manifest/${i}.json`;
    const p: { version: number } = await w.store.casPointer(w.ns.id, key, v, path, { stamp: base + (i - 1) * 1_000 });
    v = p.version;
    paths.push(path);
  }
  return { ...w, key, base, paths };
}

async function tagNames(store: MetaStore, ns: number, coll: number): Promise<string[]> {
  return (await allPages((after) => store.listTags(ns, coll, { after }))).items.map((t) => t.name);
}

describe('tags', { skip: needs(multiItem, "transactions 'multi-item' (tags live on collections; a tag is a multi-item write)") }, () => {
  after(() => factory.cleanup());

  test('createTag on the current manifest records its version and path; listTags shows it', async () => {
    const { store, ns, coll, paths } = await history(2);
    const t = await store.createTag(ns.id, coll.id, 'release-1', 2);
    assert.equal(t.ns, ns.id);
    assert.equal(t.collection, coll.id);
    assert.equal(t.name, 'release-1');
    assert.equal(t.manifestVersion, 2);
    assert.equal(t.manifestPath, paths[1]);
    assert.equal(t.rewrittenBy, null);
    assert.deepEqual((await store.listTags(ns.id, coll.id)).items, [t]);
  });

  test('a superseded manifest is taggable within manifestRetentionMs of being superseded, NotFound after (by stamps)', async () => {
    const { store, ns, coll, base, paths } = await history(3); // v1 superseded at base+1s, v2 at base+2s
    const t1 = await store.createTag(ns.id, coll.id, 'v1-kept', 1, { stamp: base + 30_000 });
    assert.equal(t1.manifestPath, paths[0]);
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'v2-late', 2, { stamp: base + 2_000 + RETENTION + 1_000 }), 'NotFound');
    // The current manifest is retained however late the stamp.
    const t3 = await store.createTag(ns.id, coll.id, 'v3-current', 3, { stamp: base + 200_000 });
    assert.equal(t3.manifestPath, paths[2]);
    assert.deepEqual(await tagNames(store, ns.id, coll.id), ['v1-kept', 'v3-current']);
  });

  test('createTag on a taken name is AlreadyExists; the same name on another collection is fine', async () => {
    const { store, ns, coll } = await history(2);
    await store.createTag(ns.id, coll.id, 'stable', 2);
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'stable', 1), 'AlreadyExists');
    assert.equal((await store.listTags(ns.id, coll.id)).items[0]?.manifestVersion, 2, 'the first tag is untouched');
    const other = await store.createCollection({ ns: ns.id, name: 'other', schema: SCHEMA, partitions: 1 });
    await store.casPointer(ns.id, linkPointerKey(other.linkId), null, `ns/${ns.id}/c/${other.id}/manifest/1.json`);
    const t = await store.createTag(ns.id, other.id, 'stable', 1);
    assert.equal(t.collection, other.id);
  });

  test('createTag of a version that never existed, without any manifest, or on a dropped collection is NotFound', async () => {
    const { store, ns, coll } = await history(2);
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'future', 3), 'NotFound');
    const bare = await store.createCollection({ ns: ns.id, name: 'bare', schema: SCHEMA, partitions: 1 });
    await rejectsWith(() => store.createTag(ns.id, bare.id, 'none', 1), 'NotFound');
    await store.dropCollection(ns.id, coll.id);
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'gone', 2), 'NotFound');
    assert.deepEqual((await store.listTags(ns.id, bare.id)).items, []);
  });

  test("dropTag removes the tag and frees its name", async () => {
    const { store, ns, coll } = await history(2);
    await store.createTag(ns.id, coll.id, 'a', 1);
    await store.createTag(ns.id, coll.id, 'b', 2);
    await store.dropTag(ns.id, coll.id, 'a');
    assert.deepEqual(await tagNames(store, ns.id, coll.id), ['b']);
    const again = await store.createTag(ns.id, coll.id, 'a', 2);
    assert.equal(again.manifestVersion, 2);
    assert.deepEqual(await tagNames(store, ns.id, coll.id), ['a', 'b']);
  });

  test('rewriteTag moves a tag onto a rewritten manifest, recording the erasure; the reference moves with it', async () => {
    const { store, ns, coll, paths } = await history(2);
    await store.createTag(ns.id, coll.id, 'release-1', 1);
    const copy = `ns/${ns.id}/c/${coll.id}/manifest/1-purged.json`;
    const t = await store.rewriteTag(ns.id, coll.id, 'release-1', paths[0]!, copy, 'er_0123abcd');
    assert.equal(t.manifestPath, copy);
    assert.equal(t.manifestVersion, 1, 'it keeps the version it was taken from');
    assert.equal(t.rewrittenBy, 'er_0123abcd');
    const [listed] = (await store.listTags(ns.id, coll.id)).items;
    assert.deepEqual({ path: listed!.manifestPath, by: listed!.rewrittenBy, v: listed!.manifestVersion }, { path: copy, by: 'er_0123abcd', v: 1 });
    assert.equal((await store.objectRef(copy))?.refs, 1, 'the copy is referenced');
    assert.equal((await store.objectRef(paths[0]!))?.refs ?? 0, 0, 'the old manifest is not (it was superseded too)');
    // A repeat is the same tag; from a path the tag no longer names is VersionMismatch; an unknown tag is NotFound.
    assert.equal((await store.rewriteTag(ns.id, coll.id, 'release-1', paths[0]!, copy, 'er_0123abcd')).manifestPath, copy);
    await rejectsWith(() => store.rewriteTag(ns.id, coll.id, 'release-1', paths[0]!, `${copy}.2`, 'er_4567abcd'), 'VersionMismatch');
    await rejectsWith(() => store.rewriteTag(ns.id, coll.id, 'nope', paths[0]!, copy, 'er_0123abcd'), 'NotFound');
    await rejectsInvalid(() => store.rewriteTag(ns.id, coll.id, 'release-1', '', copy, 'er_0123abcd'), 'fromPath');
  });

  test('listTags pages by name through a prefix', async () => {
    const { store, ns, coll } = await history(1);
    for (const name of ['rel-3', 'nightly', 'rel-1', 'rel-5', 'rel-2', 'rel-4', 'rel']) {
      await store.createTag(ns.id, coll.id, name, 1);
    }
    const { items, pages } = await allPages((after) => store.listTags(ns.id, coll.id, { prefix: 'rel-', limit: 2, after }));
    assert.deepEqual(
      items.map((t) => t.name),
      ['rel-1', 'rel-2', 'rel-3', 'rel-4', 'rel-5'],
    );
    assert.equal(pages, 3);
    await rejectsInvalid(() => store.listTags(ns.id, coll.id, { limit: 0 }), 'limit');
  });
});

describe('GC claims', { skip: needs(multiItem, "transactions 'multi-item' (a claim checks the reference row)") }, () => {
  after(() => factory.cleanup());

  test('claimObject on an unreferenced path claims it; objectRef shows the claim', async () => {
    const { store, ns } = await world(1);
    const path = `ns/${ns.id}/orphan/1.bin`;
    const r = await store.claimObject(path, 'gc-1');
    assert.equal(r.claimed, true);
    assert.equal(r.path, path);
    if (r.claimed) assert.equal(r.owner, 'gc-1');
    const ref = await store.objectRef(path);
    assert.equal(ref?.claim?.owner, 'gc-1');
  });

  test("claimObject on a pointer's value is refused as referenced; once the pointer moves on, it can be claimed", async () => {
    const { store, ns } = await world(1);
    await store.casPointer(ns.id, 'roots/a', null, 'm/1');
    const r = await store.claimObject('m/1', 'gc-1');
    assert.deepEqual(r.claimed ? r : { claimed: r.claimed, reason: r.reason }, { claimed: false, reason: 'referenced' });
    if (!r.claimed) assert.ok(r.refs >= 1, `refs ${r.refs}`);
    assert.equal((await store.objectRef('m/1'))?.claim, null, 'a refused claim leaves no claim');
    await store.casPointer(ns.id, 'roots/a', 1, 'm/2');
    const later = await store.claimObject('m/1', 'gc-1');
    assert.equal(later.claimed, true, "casPointer released the old value's reference");
  });

  test("claimObject of a path another owner claimed is refused as 'claimed'", async () => {
    const { store } = await world(1);
    assert.equal((await store.claimObject('x/1', 'gc-1')).claimed, true);
    const r = await store.claimObject('x/1', 'gc-2');
    assert.deepEqual(r.claimed ? r : { claimed: r.claimed, reason: r.reason }, { claimed: false, reason: 'claimed' });
    assert.equal((await store.objectRef('x/1'))?.claim?.owner, 'gc-1');
  });

  test("claimObject twice by the same owner is refused as 'claimed' (a retry goes through requestId)", async () => {
    const { store } = await world(1);
    assert.equal((await store.claimObject('x/1', 'gc-1')).claimed, true);
    const r = await store.claimObject('x/1', 'gc-1');
    assert.deepEqual(r.claimed ? r : { claimed: r.claimed, reason: r.reason }, { claimed: false, reason: 'claimed' });
  });

  test('a claimObject retried with the same requestId returns the first result', async () => {
    const { store } = await world(1);
    const first = await store.claimObject('x/1', 'gc-1', { requestId: 'claim-x-1' });
    assert.equal(first.claimed, true);
    assert.deepEqual(await store.claimObject('x/1', 'gc-1', { requestId: 'claim-x-1' }), first);
  });

  test('after a claim, commitWal of that object is Claimed and commits nothing', async () => {
    const { store, ns, coll } = await world(1);
    const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 3 }]);
    await store.claimObject(c.object, 'gc-1');
    await rejectsWith(() => store.commitWal(c), 'Claimed', (e) => assert.equal(e.details.path, c.object));
    assert.equal((await store.streamState(ns.id, coll.streamId)).heads[0]!.next, 0);
    assert.deepEqual((await store.partitionIndex(ns.id, coll.streamId, 0)).entries, []);
  });

  test('after a claim, swapSegment to that segment path is Claimed and the index is unchanged', async () => {
    const { store, ns, coll } = await world(1);
    await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]));
    const seg = `ns/${ns.id}/seg/claimed.seg`;
    await store.claimObject(seg, 'gc-1');
    const before = await store.partitionIndex(ns.id, coll.streamId, 0);
    await rejectsWith(
      () => store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 2, path: seg, byteStart: 0, byteEnd: 200 }),
      'Claimed',
      (e) => assert.equal(e.details.path, seg),
    );
    assert.deepEqual(await store.partitionIndex(ns.id, coll.streamId, 0), before);
    assert.equal(await store.segmentReferenced(ns.id, coll.streamId, seg), false);
  });

  test('after a claim, casPointer to that value is Claimed and the pointer is unchanged', async () => {
    const { store, ns } = await world(1);
    const p = await store.casPointer(ns.id, 'roots/a', null, 'm/1');
    await store.claimObject('m/2', 'gc-1');
    await rejectsWith(() => store.casPointer(ns.id, 'roots/a', 1, 'm/2'), 'Claimed', (e) => assert.equal(e.details.path, 'm/2'));
    await rejectsWith(() => store.casPointer(ns.id, 'roots/b', null, 'm/2'), 'Claimed');
    assert.deepEqual(await store.pointer(ns.id, 'roots/a'), p);
    assert.equal(await store.pointer(ns.id, 'roots/b'), null);
  });

  test("after a claim, createTag on a manifest at that path is Claimed and no tag is made", async () => {
    const { store, ns, coll, paths } = await history(2);
    const r = await store.claimObject(paths[0]!, 'gc-1');
    assert.equal(r.claimed, true, 'the superseded manifest is unreferenced');
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'old', 1), 'Claimed', (e) => assert.equal(e.details.path, paths[0]));
    assert.deepEqual((await store.listTags(ns.id, coll.id)).items, []);
  });

  test('a claim racing a new reference: for every path exactly one of them wins', async () => {
    const { store, ns } = await world(1);
    for (let i = 0; i < 20; i++) {
      const path = `ns/${ns.id}/m/race-${i}.json`;
      const [claim, cas] = await Promise.allSettled([
        store.claimObject(path, 'gc-1'),
        store.casPointer(ns.id, `roots/r${i}`, null, path),
      ]);
      assert.equal(claim.status, 'fulfilled');
      const claimed = claim.status === 'fulfilled' && claim.value.claimed;
      if (claimed) {
        assert.equal(cas.status, 'rejected', `path ${i}: claimed and referenced at once`);
        if (cas.status === 'rejected') assert.ok(isMetaError(cas.reason, 'Claimed'), String(cas.reason));
        assert.equal(await store.pointer(ns.id, `roots/r${i}`), null);
      } else {
        assert.equal(cas.status, 'fulfilled', `path ${i}: neither the claim nor the reference won`);
        assert.equal(claim.status === 'fulfilled' && !claim.value.claimed && claim.value.reason, 'referenced');
      }
    }
  });

  test('releaseClaim({ deleted: false }) gives the object back: it can be referenced again', async () => {
    const { store, ns } = await world(1);
    await store.claimObject('m/1', 'gc-1');
    await store.releaseClaim('m/1', 'gc-1', { deleted: false });
    assert.equal((await store.objectRef('m/1'))?.claim ?? null, null);
    const p = await store.casPointer(ns.id, 'roots/a', null, 'm/1');
    assert.equal(p.value, 'm/1');
    assert.ok(((await store.objectRef('m/1'))?.refs ?? 0) >= 1);
    const r = await store.claimObject('m/1', 'gc-1');
    assert.equal(r.claimed, false, 'now referenced');
  });

  test('releaseClaim({ deleted: true }) keeps the path unreferenceable', async () => {
    const { store, ns, coll } = await world(1);
    const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]);
    await store.claimObject('m/gone', 'gc-1');
    await store.claimObject(c.object, 'gc-1');
    await store.releaseClaim('m/gone', 'gc-1', { deleted: true });
    await store.releaseClaim(c.object, 'gc-1', { deleted: true });
    await rejectsWith(() => store.casPointer(ns.id, 'roots/a', null, 'm/gone'), 'Claimed');
    await rejectsWith(() => store.commitWal(c), 'Claimed');
    assert.equal(await store.pointer(ns.id, 'roots/a'), null);
  });

  test('a committed WAL object is referenced until retired; once retired it is claimable and leaves retiredWalObjects', async () => {
    const { store, ns, coll } = await world(1);
    const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]);
    await store.commitWal(c);
    const early = await store.claimObject(c.object, 'gc-1');
    assert.equal(early.claimed, false);
    if (!early.claimed) assert.equal(early.reason, 'referenced');
    await store.trimPartition(ns.id, coll.streamId, 0, 2);
    assert.ok((await store.retiredWalObjects()).items.some((r) => r.path === c.object));
    const claim = await store.claimObject(c.object, 'gc-1');
    assert.equal(claim.claimed, true);
    assert.ok(!(await store.retiredWalObjects()).items.some((r) => r.path === c.object), 'claimed objects are not listed again');
    // A writer's late retry of the same object still returns its first offsets: commit records
    // outlive the claim window, and it references nothing new.
  });

  test('a WAL object claimed, given back, then committed is retired like any other once its chunks are gone', async () => {
    const { store, ns, coll } = await world(1);
    const c = wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]);
    await store.claimObject(c.object, 'gc-1');
    await store.releaseClaim(c.object, 'gc-1', { deleted: false });
    await store.commitWal(c);
    await store.trimPartition(ns.id, coll.streamId, 0, 2);
    assert.ok((await store.retiredWalObjects()).items.some((r) => r.path === c.object), 'listed as retired');
  });

  test('a segment in the index is referenced; once swapped away it is claimable', async () => {
    const { store, ns, coll } = await world(1);
    for (let i = 0; i < 2; i++) await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0 }]));
    const a = `ns/${ns.id}/seg/a`;
    await store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 1, path: a, byteStart: 0, byteEnd: 100 });
    const r = await store.claimObject(a, 'gc-1');
    assert.equal(r.claimed, false);
    await store.swapSegment({ ns: ns.id, stream: coll.streamId, partition: 0, start: 0, end: 2, path: `ns/${ns.id}/seg/b`, byteStart: 0, byteEnd: 200 });
    assert.equal((await store.claimObject(a, 'gc-1')).claimed, true);
  });

  test('a tag keeps its manifest referenced after the pointer moves on; dropTag releases it', async () => {
    const { store, ns, coll, key, paths } = await history(1);
    await store.createTag(ns.id, coll.id, 'keep', 1);
    await store.casPointer(ns.id, key, 1, `ns/${ns.id}/c/${coll.id}/manifest/2.json`);
    const r = await store.claimObject(paths[0]!, 'gc-1');
    assert.equal(r.claimed, false, 'the tag still references manifest 1');
    await store.dropTag(ns.id, coll.id, 'keep');
    assert.equal((await store.claimObject(paths[0]!, 'gc-1')).claimed, true);
  });

  /** GC's lease held by gc-a at epoch e1, then taken over by gc-b at e2 (by stamps). */
  async function gcLeases(store: MetaStore) {
    const now = Date.now();
    const a = await store.acquireLease('cluster', 'gc', 'gc-a', 1_000, { stamp: now });
    const fenceA = { scope: 'cluster' as const, key: 'gc', epoch: a.epoch };
    const takeOver = async () => {
      const b = await store.acquireLease('cluster', 'gc', 'gc-b', 1_000, { stamp: now + 2_000 });
      assert.ok(b.epoch > a.epoch);
      return { scope: 'cluster' as const, key: 'gc', epoch: b.epoch };
    };
    return { fenceA, takeOver };
  }

  test('a claim left by a GC whose lease moved on is taken over by the newer epoch; the old owner can neither release it nor claim again', async () => {
    const { store, ns } = await world(1);
    const { fenceA, takeOver } = await gcLeases(store);
    const a = await store.claimObject('x/1', `gc-a@${fenceA.epoch}`, { fence: fenceA });
    assert.equal(a.claimed, true);
    if (a.claimed) assert.equal(a.takeover, undefined, 'a fresh claim is no takeover');
    // gc-a dies here, between claim and release. Another GC takes the lease.
    const fenceB = await takeOver();
    const b = await store.claimObject('x/1', `gc-b@${fenceB.epoch}`, { fence: fenceB });
    assert.equal(b.claimed, true, 'the newer epoch takes the claim over');
    if (b.claimed) assert.equal(b.takeover, true);
    assert.equal((await store.objectRef('x/1'))?.claim?.owner, `gc-b@${fenceB.epoch}`);
    // The old GC wakes up: its release and its claims are refused, and change nothing.
    await rejectsWith(() => store.releaseClaim('x/1', `gc-a@${fenceA.epoch}`, { deleted: false }), 'NotFound');
    await rejectsWith(() => store.claimObject('x/2', `gc-a@${fenceA.epoch}`, { fence: fenceA }), 'FenceMismatch');
    assert.equal(await store.objectRef('x/2'), null, 'a refused claim leaves nothing');
    assert.equal((await store.objectRef('x/1'))?.claim?.owner, `gc-b@${fenceB.epoch}`);
    await store.releaseClaim('x/1', `gc-b@${fenceB.epoch}`, { deleted: true });
    await rejectsWith(() => store.casPointer(ns.id, 'roots/a', null, 'x/1'), 'Claimed');
  });

  test('a fenced claim resumes its own claim at the same epoch; another owner at that epoch, an unfenced claim, and a tombstone are not taken over', async () => {
    const { store } = await world(1);
    const { fenceA, takeOver } = await gcLeases(store);
    assert.equal((await store.claimObject('x/1', 'gc-a', { fence: fenceA })).claimed, true);
    const again = await store.claimObject('x/1', 'gc-a', { fence: fenceA });
    assert.equal(again.claimed, true, 'the same owner at the same epoch resumes its claim');
    const other = await store.claimObject('x/1', 'gc-other', { fence: fenceA });
    assert.deepEqual(other.claimed ? other : { claimed: false, reason: other.reason }, { claimed: false, reason: 'claimed' });
    assert.equal((await store.claimObject('x/1', 'gc-other')).claimed, false, 'an unfenced claim takes nothing over');
    // A claim made without a fence (an older GC) is taken over by any fenced claim.
    assert.equal((await store.claimObject('y/1', 'gc-unfenced')).claimed, true);
    assert.equal((await store.claimObject('y/1', 'gc-a', { fence: fenceA })).claimed, true);
    // A deleted tombstone stays: the object is gone, nothing may claim or reference it again.
    await store.releaseClaim('x/1', 'gc-a', { deleted: true });
    const fenceB = await takeOver();
    const r = await store.claimObject('x/1', 'gc-b', { fence: fenceB });
    assert.deepEqual(r.claimed ? r : { claimed: false, reason: r.reason }, { claimed: false, reason: 'claimed' });
  });

  test('a fenced claim of a referenced path is refused as referenced, as without a fence', async () => {
    const { store, ns } = await world(1);
    const { fenceA } = await gcLeases(store);
    await store.casPointer(ns.id, 'roots/a', null, 'm/1');
    const r = await store.claimObject('m/1', 'gc-a', { fence: fenceA });
    assert.deepEqual(r.claimed ? r : { claimed: false, reason: r.reason }, { claimed: false, reason: 'referenced' });
  });
});

describe('pointer history', { skip: needs(multiItem, "transactions 'multi-item' (a link pointer's history is written with the pointer)") }, () => {
  after(() => factory.cleanup());

  test('pointerVersion returns every retained version of a link pointer with the stamp that superseded it', async () => {
    const { store, ns, key, base, paths } = await history(3);
    assert.deepEqual(await store.pointerVersion(ns.id, key, 1), { version: 1, value: paths[0], superseded: base + 1_000 });
    assert.deepEqual(await store.pointerVersion(ns.id, key, 2), { version: 2, value: paths[1], superseded: base + 2_000 });
    assert.deepEqual(await store.pointerVersion(ns.id, key, 3), { version: 3, value: paths[2], superseded: null });
    assert.equal(await store.pointerVersion(ns.id, key, 4), null, 'never written');
  });

  test('a version superseded past the retention is pruned, or returned with that stamp; createTag refuses it', async () => {
    const { store, ns, coll, key, base } = await history(2);
    // Superseding version 2 this late makes version 1 older than the retention.
    await store.casPointer(ns.id, key, 2, `ns/${ns.id}/m/3.json`, { stamp: base + RETENTION + 5_000 });
    const v1 = await store.pointerVersion(ns.id, key, 1);
    assert.ok(v1 === null || (v1.superseded !== null && v1.superseded + RETENTION < base + RETENTION + 5_000), JSON.stringify(v1));
    await rejectsWith(() => store.createTag(ns.id, coll.id, 'late', 1, { stamp: base + RETENTION + 5_000 }), 'NotFound');
  });
});

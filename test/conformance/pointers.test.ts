// casPointer and pointer (contract: compare-and-swap, dense versions, fences, link keys).
// Fresh store per case.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError, linkPointerKey } from '../../src/meta/index.js';
import { factory, multiItem, needs, rejectsInvalid, rejectsWith, world } from './helpers.js';

describe('pointers', () => {
  after(() => factory.cleanup());

  test('casPointer with expectedVersion null creates version 1; pointer() reads it; a missing pointer is null', async () => {
    const { store, ns } = await world(1);
    assert.equal(await store.pointer(ns.id, 'roots/main'), null);
    const p = await store.casPointer(ns.id, 'roots/main', null, `ns/${ns.id}/m/1.json`);
    assert.equal(p.ns, ns.id);
    assert.equal(p.key, 'roots/main');
    assert.equal(p.version, 1);
    assert.equal(p.value, `ns/${ns.id}/m/1.json`);
    assert.deepEqual(await store.pointer(ns.id, 'roots/main'), p);
  });

  test('versions are dense: each successful casPointer adds exactly one', async () => {
    const { store, ns } = await world(1);
    let version: number | null = null;
    for (let i = 1; i <= 12; i++) {
      const p = await store.casPointer(ns.id, 'roots/dense', version, `ns/${ns.id}/m/${i}.json`);
      assert.equal(p.version, i);
      version = p.version;
    }
    const read = await store.pointer(ns.id, 'roots/dense');
    assert.equal(read?.version, 12);
    assert.equal(read?.value, `ns/${ns.id}/m/12.json`);
  });

  test('a stale or wrong expectedVersion is VersionMismatch carrying the current version; nothing changes', async () => {
    const { store, ns } = await world(1);
    await store.casPointer(ns.id, 'k', null, 'a/1');
    const v2 = await store.casPointer(ns.id, 'k', 1, 'a/2');
    await rejectsWith(() => store.casPointer(ns.id, 'k', 1, 'a/x'), 'VersionMismatch', (e) =>
      assert.equal(e.details.currentVersion, 2),
    );
    await rejectsWith(() => store.casPointer(ns.id, 'k', 5, 'a/x'), 'VersionMismatch', (e) =>
      assert.equal(e.details.currentVersion, 2),
    );
    await rejectsWith(() => store.casPointer(ns.id, 'k', null, 'a/x'), 'VersionMismatch', (e) =>
      assert.equal(e.details.currentVersion, 2),
    );
    await rejectsWith(() => store.casPointer(ns.id, 'absent', 1, 'a/x'), 'VersionMismatch', (e) =>
      assert.equal(e.details.currentVersion, null),
    );
    assert.deepEqual(await store.pointer(ns.id, 'k'), v2);
    assert.equal(await store.pointer(ns.id, 'absent'), null);
  });

  test('concurrent compare-and-swaps from one version: exactly one wins, the others see VersionMismatch', async () => {
    const { store, ns } = await world(1);
    await store.casPointer(ns.id, 'k', null, 'v/0');
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => store.casPointer(ns.id, 'k', 1, `v/${i + 1}`)));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    assert.equal(won.length, 1);
    assert.equal(won[0]!.version, 2);
    for (const r of results) {
      if (r.status === 'rejected') assert.ok(isMetaError(r.reason, 'VersionMismatch'), String(r.reason));
    }
    assert.deepEqual(await store.pointer(ns.id, 'k'), won[0]);
  });

  test('casPointer retried with the same requestId returns the first result instead of VersionMismatch', async () => {
    const { store, ns } = await world(1);
    const p1 = await store.casPointer(ns.id, 'k', null, 'v/1', { requestId: 'cas-1' });
    assert.deepEqual(await store.casPointer(ns.id, 'k', null, 'v/1', { requestId: 'cas-1' }), p1);
    const p2 = await store.casPointer(ns.id, 'k', 1, 'v/2', { requestId: 'cas-2' });
    assert.deepEqual(await store.casPointer(ns.id, 'k', 1, 'v/2', { requestId: 'cas-2' }), p2);
    assert.equal((await store.pointer(ns.id, 'k'))?.version, 2, 'each change applied once');
  });

  test('pointers are scoped by namespace: the same key in two namespaces is two pointers', async () => {
    const { store, ns } = await world(1);
    const other = await store.createNamespace({ org: 'org-a', name: 'other' });
    await store.casPointer(ns.id, 'shared', null, 'x/1');
    await store.casPointer(ns.id, 'shared', 1, 'x/2');
    const p = await store.casPointer(other.id, 'shared', null, 'y/1');
    assert.equal(p.version, 1);
    assert.equal((await store.pointer(ns.id, 'shared'))?.value, 'x/2');
    assert.equal((await store.pointer(other.id, 'shared'))?.value, 'y/1');
  });

  test('casPointer with a bad key or value path is InvalidArgument naming it', async () => {
    const { store, ns } = await world(1);
    await rejectsInvalid(() => store.casPointer(ns.id, 'bad key!', null, 'a/1'), 'key');
    await rejectsInvalid(() => store.casPointer(ns.id, '', null, 'a/1'), 'key');
    await rejectsInvalid(() => store.casPointer(ns.id, 'k', null, ''), 'value');
    await rejectsInvalid(() => store.casPointer(ns.id, 'k', null, '/abs/path'), 'value');
    assert.equal(await store.pointer(ns.id, 'k'), null);
  });

  test(
    "a fence applies the write only while the lease is at the fence's epoch; a stale epoch is FenceMismatch",
    { skip: needs(multiItem, "transactions 'multi-item' (a fence is a second item)") },
    async () => {
      const { store, ns } = await world(1);
      const base = Date.now() - 600_000;
      const lease = await store.acquireLease(ns.id, 'applier/docs', 'node-a', 1_000, { stamp: base });
      const fenceA = { scope: ns.id, key: 'applier/docs', epoch: lease.epoch };
      const p1 = await store.casPointer(ns.id, 'm', null, 'm/1', { fence: fenceA, stamp: base + 100 });
      assert.equal(p1.version, 1);
      // node-a stalls; its lease expires and node-b takes over (judged on stamps).
      const taken = await store.acquireLease(ns.id, 'applier/docs', 'node-b', 1_000, { stamp: base + 5_000 });
      assert.equal(taken.epoch, lease.epoch + 1);
      await rejectsWith(
        () => store.casPointer(ns.id, 'm', 1, 'm/2-from-a', { fence: fenceA, stamp: base + 5_100 }),
        'FenceMismatch',
        (e) => assert.equal(e.details.currentEpoch, taken.epoch),
      );
      assert.deepEqual(await store.pointer(ns.id, 'm'), p1, 'the fenced-out write did not apply');
      const p2 = await store.casPointer(ns.id, 'm', 1, 'm/2-from-b', {
        fence: { scope: ns.id, key: 'applier/docs', epoch: taken.epoch },
        stamp: base + 5_200,
      });
      assert.equal(p2.version, 2, 'versions stay dense across the refused write');
    },
  );

  test(
    'a fence on a lease that was never taken is FenceMismatch',
    { skip: needs(multiItem, "transactions 'multi-item'") },
    async () => {
      const { store, ns } = await world(1);
      await rejectsWith(
        () => store.casPointer(ns.id, 'm', null, 'm/1', { fence: { scope: 'cluster', key: 'nobody', epoch: 1 } }),
        'FenceMismatch',
      );
      assert.equal(await store.pointer(ns.id, 'm'), null);
    },
  );

  test(
    "a link pointer key requires its collection to be live: a dropped collection's link is NotFound",
    { skip: needs(multiItem, "transactions 'multi-item' (the liveness check is a second item)") },
    async () => {
      const { store, ns, coll } = await world(1);
      const key = linkPointerKey(coll.linkId);
      const p = await store.casPointer(ns.id, key, null, `ns/${ns.id}/m/1.json`);
      assert.equal(p.version, 1);
      await store.dropCollection(ns.id, coll.id);
      await rejectsWith(() => store.casPointer(ns.id, key, 1, `ns/${ns.id}/m/2.json`), 'NotFound');
      await rejectsWith(() => store.casPointer(ns.id, key, null, `ns/${ns.id}/m/2.json`), 'NotFound');
      assert.equal(await store.pointer(ns.id, key), null);
      await rejectsWith(() => store.casPointer(ns.id, linkPointerKey(coll.linkId + 1000), null, 'm/x'), 'NotFound');
    },
  );
});

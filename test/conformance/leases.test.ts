// Leases (contract: acquire, renew, release, lease; expiry judged on stamps, spec §3.2; scopes, spec §10).
// Stamps are explicit and lag the real clock by minutes, so the backend's own clock cannot
// decide anything: a lease "expired" by the wall clock is still live by the stamps, and vice versa.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { MAX_CLOCK_SKEW_MS, MAX_LEASE_TTL_MS, MIN_LEASE_TTL_MS, isMetaError } from '../../src/meta/index.js';
import { factory, fresh, multiItem, needs, rejectsInvalid, rejectsWith, world } from './helpers.js';

const TTL = 1_000;

describe('leases', () => {
  after(() => factory.cleanup());

  test('acquireLease takes a free lease: owner, epoch and deadline = stamp + ttl; lease() reads it', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000;
    assert.equal(await store.lease(ns.id, 'applier'), null);
    const l = await store.acquireLease(ns.id, 'applier', 'node-a', TTL, { stamp: base });
    assert.equal(l.scope, ns.id);
    assert.equal(l.key, 'applier');
    assert.equal(l.owner, 'node-a');
    assert.ok(Number.isSafeInteger(l.epoch) && l.epoch >= 1, `epoch ${l.epoch}`);
    assert.equal(l.deadline, base + TTL);
    assert.deepEqual(await store.lease(ns.id, 'applier'), l);
  });

  test('the owner acquiring again extends the lease at the same epoch', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000;
    const l1 = await store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: base });
    const l2 = await store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: base + 600 });
    assert.equal(l2.epoch, l1.epoch);
    assert.equal(l2.owner, 'node-a');
    assert.equal(l2.deadline, base + 600 + TTL);
  });

  test('another owner gets LeaseHeld while the lease is live by the stamps, however old the stamps are', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000; // past the deadline by the wall clock, not by the stamps
    const l = await store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: base });
    await rejectsWith(() => store.acquireLease(ns.id, 'k', 'node-b', TTL, { stamp: base + 500 }), 'LeaseHeld', (e) => {
      assert.equal(e.details.holder, 'node-a');
      assert.equal(e.details.currentEpoch, l.epoch);
    });
    assert.deepEqual(await store.lease(ns.id, 'k'), l);
  });

  test('concurrent acquires by different owners: exactly one holds the lease, the others get LeaseHeld', async () => {
    const { store, ns } = await world(1);
    const owners = Array.from({ length: 8 }, (_, i) => `node-${i}`);
    const results = await Promise.allSettled(owners.map((o) => store.acquireLease(ns.id, 'k', o, 60_000)));
    const won = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    assert.equal(won.length, 1);
    for (const r of results) {
      if (r.status === 'rejected') {
        assert.ok(isMetaError(r.reason, 'LeaseHeld'), String(r.reason));
        assert.equal(r.reason.details.holder, won[0]!.owner);
      }
    }
    assert.equal((await store.lease(ns.id, 'k'))?.owner, won[0]!.owner);
  });

  test('a takeover after expiry is judged on stamps, increments the epoch, and fences the old owner out', async () => {
    const { store, ns } = await world(1);
    const now = Date.now();
    const ttl = 60_000;
    const l = await store.acquireLease(ns.id, 'k', 'node-a', ttl, { stamp: now });
    // By the backend's clock the lease has a minute to go; by node-b's stamp (within skew) it expired.
    const t = await store.acquireLease(ns.id, 'k', 'node-b', ttl, { stamp: now + ttl + 1_000 });
    assert.equal(t.owner, 'node-b');
    assert.equal(t.epoch, l.epoch + 1);
    assert.deepEqual(await store.lease(ns.id, 'k'), t);
    await rejectsWith(() => store.renewLease(ns.id, 'k', 'node-a', l.epoch, ttl, { stamp: now + ttl + 2_000 }), 'FenceMismatch', (e) =>
      assert.equal(e.details.currentEpoch, t.epoch),
    );
    await rejectsWith(() => store.releaseLease(ns.id, 'k', 'node-a', l.epoch, { stamp: now + ttl + 2_000 }), 'FenceMismatch', (e) =>
      assert.equal(e.details.currentEpoch, t.epoch),
    );
    assert.deepEqual(await store.lease(ns.id, 'k'), t, "the old owner's calls changed nothing");
  });

  test('renewLease extends the deadline while owner and epoch match and the lease is live', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000;
    const l = await store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: base });
    const r = await store.renewLease(ns.id, 'k', 'node-a', l.epoch, TTL, { stamp: base + 800 });
    assert.equal(r.epoch, l.epoch);
    assert.equal(r.deadline, base + 800 + TTL);
    // Past the first deadline, inside the renewed one: still held.
    await rejectsWith(() => store.acquireLease(ns.id, 'k', 'node-b', TTL, { stamp: base + 1_500 }), 'LeaseHeld');
    // Past the renewed deadline: taken over.
    const t = await store.acquireLease(ns.id, 'k', 'node-b', TTL, { stamp: base + 1_900 });
    assert.equal(t.epoch, l.epoch + 1);
  });

  test('renewLease after expiry, with a wrong epoch or by another owner is FenceMismatch', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000;
    const l = await store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: base });
    await rejectsWith(() => store.renewLease(ns.id, 'k', 'node-a', l.epoch + 1, TTL, { stamp: base + 100 }), 'FenceMismatch');
    await rejectsWith(() => store.renewLease(ns.id, 'k', 'node-b', l.epoch, TTL, { stamp: base + 100 }), 'FenceMismatch');
    // Nobody took it over, but it expired by the stamps: renewing is refused.
    await rejectsWith(() => store.renewLease(ns.id, 'k', 'node-a', l.epoch, TTL, { stamp: base + TTL + 500 }), 'FenceMismatch');
    const read = await store.lease(ns.id, 'k');
    assert.equal(read?.deadline, base + TTL, 'refused renewals changed nothing');
    await rejectsWith(() => store.renewLease(ns.id, 'never', 'node-a', 1, TTL), 'FenceMismatch');
  });

  test('releaseLease frees the lease keeping its epoch; it is idempotent; the next owner gets epoch + 1', async () => {
    const { store, ns } = await world(1);
    const base = Date.now() - 600_000;
    const l = await store.acquireLease(ns.id, 'k', 'node-a', 60_000, { stamp: base });
    await store.releaseLease(ns.id, 'k', 'node-a', l.epoch, { stamp: base + 10 });
    const freed = await store.lease(ns.id, 'k');
    assert.equal(freed?.owner, null);
    assert.equal(freed?.epoch, l.epoch);
    await store.releaseLease(ns.id, 'k', 'node-a', l.epoch, { stamp: base + 20 });
    // Long before the old deadline, another owner may take the released lease.
    const n = await store.acquireLease(ns.id, 'k', 'node-b', 60_000, { stamp: base + 30 });
    assert.equal(n.owner, 'node-b');
    assert.equal(n.epoch, l.epoch + 1);
    await rejectsWith(() => store.releaseLease(ns.id, 'k', 'node-a', l.epoch, { stamp: base + 40 }), 'FenceMismatch');
    assert.equal((await store.lease(ns.id, 'k'))?.owner, 'node-b');
  });

  test("the cluster scope and each namespace's scope hold separate leases under the same key", async () => {
    const { store, ns } = await world(1);
    const other = await store.createNamespace({ org: 'org-a', name: 'other' });
    const base = Date.now() - 600_000;
    const c = await store.acquireLease('cluster', 'gc', 'node-a', TTL, { stamp: base });
    const a = await store.acquireLease(ns.id, 'gc', 'node-b', TTL, { stamp: base });
    const b = await store.acquireLease(other.id, 'gc', 'node-c', TTL, { stamp: base });
    assert.equal(c.scope, 'cluster');
    assert.deepEqual(
      [(await store.lease('cluster', 'gc'))?.owner, (await store.lease(ns.id, 'gc'))?.owner, (await store.lease(other.id, 'gc'))?.owner],
      ['node-a', 'node-b', 'node-c'],
    );
    await rejectsWith(() => store.acquireLease('cluster', 'gc', 'node-b', TTL, { stamp: base + 1 }), 'LeaseHeld');
    await store.releaseLease(ns.id, 'gc', 'node-b', a.epoch);
    assert.equal((await store.lease('cluster', 'gc'))?.owner, 'node-a', 'releasing a namespace lease leaves the cluster lease');
    assert.equal((await store.lease(other.id, 'gc'))?.epoch, b.epoch);
  });

  test('bad lease arguments are InvalidArgument: ttl bounds, owner, key, scope, a stamp past the skew bound', async () => {
    const { store, ns } = await world(1);
    await rejectsInvalid(() => store.acquireLease(ns.id, 'k', 'node-a', MIN_LEASE_TTL_MS - 1), 'ttlMs');
    await rejectsInvalid(() => store.acquireLease(ns.id, 'k', 'node-a', MAX_LEASE_TTL_MS + 1), 'ttlMs');
    await rejectsInvalid(() => store.acquireLease(ns.id, 'k', '', TTL), 'owner');
    await rejectsInvalid(() => store.acquireLease(ns.id, 'bad key!', 'node-a', TTL), 'key');
    await rejectsInvalid(() => store.acquireLease(0, 'k', 'node-a', TTL), 'scope');
    await rejectsInvalid(
      () => store.acquireLease(ns.id, 'k', 'node-a', TTL, { stamp: Date.now() + MAX_CLOCK_SKEW_MS + 60_000 }),
      'stamp',
    );
    assert.equal(await store.lease(ns.id, 'k'), null, 'no refused call took the lease');
  });
  test('leases live only in a live namespace: after dropNamespace, acquire, renew and release are NotFound; cluster leases are unaffected', { skip: needs(multiItem, 'dropNamespace is a multi-item write') }, async () => {
    const store = await fresh();
    const ns = await store.createNamespace({ org: 'org-leases', name: 'doomed' });
    const held = await store.acquireLease(ns.id, 'applier', 'node-a', 60_000);
    const cluster = await store.acquireLease('cluster', 'gc', 'node-a', 60_000);
    await store.dropNamespace(ns.id);
    await rejectsWith(() => store.acquireLease(ns.id, 'other', 'node-b', TTL), 'NotFound');
    await rejectsWith(() => store.acquireLease(ns.id, 'applier', 'node-a', TTL), 'NotFound');
    await rejectsWith(() => store.renewLease(ns.id, 'applier', 'node-a', held.epoch, TTL), 'NotFound');
    await rejectsWith(() => store.releaseLease(ns.id, 'applier', 'node-a', held.epoch), 'NotFound');
    assert.equal(await store.lease(ns.id, 'other'), null, 'the refused acquire took nothing');
    await rejectsWith(() => store.acquireLease(ns.id + 1000, 'k', 'node-a', TTL), 'NotFound');
    const renewed = await store.renewLease('cluster', 'gc', 'node-a', cluster.epoch, 60_000);
    assert.equal(renewed.epoch, cluster.epoch);
  });
});

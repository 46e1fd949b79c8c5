// Hand-made histories per model: accepted ones (including concurrent ones and unknown
// outcomes) and at least one known violation each — a stale read, a lost CAS, a duplicated
// offset, a gap, a read order that lags.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHistory } from '../../src/check/index.js';
import { expectVerdict, HistoryBuilder } from './helpers.js';

const cas = (key: string, expectedVersion: number | null, value: string, extra: Record<string, unknown> = {}) => ({
  key,
  expectedVersion,
  value,
  ...extra,
});

// ---------------------------------------------------------------- pointer

test('pointer: dense versions; concurrent casPointer calls, one wins and one gets VersionMismatch', () => {
  const h = new HistoryBuilder()
    .call(1, 'casPointer', cas('k', null, 'a'), { version: 1 })
    .invoke(1, 'casPointer', cas('k', 1, 'b'))
    .invoke(2, 'casPointer', cas('k', 1, 'c'))
    .fail(1, 'casPointer', 'VersionMismatch', { currentVersion: 2 })
    .ok(2, 'casPointer', { version: 2 })
    .call(3, 'pointer', { key: 'k' }, { version: 2, value: 'c' });
  expectVerdict(h.check('pointer'), 'linearizable');
});

test('pointer: a lost CAS (two casPointer calls from version 1 both succeed) is rejected', () => {
  const h = new HistoryBuilder()
    .call(1, 'casPointer', cas('k', null, 'a'), { version: 1 })
    .invoke(1, 'casPointer', cas('k', 1, 'b'))
    .invoke(2, 'casPointer', cas('k', 1, 'c'))
    .ok(1, 'casPointer', { version: 2 })
    .ok(2, 'casPointer', { version: 2 });
  const r = h.check('pointer');
  expectVerdict(r, 'not linearizable');
  assert.match(r.violation!.unplaced!.map((u) => u.why.join(' ')).join(' '), /expected version 1/);
});

test('pointer: a lost update (an acknowledged cas that a later read does not show) is rejected', () => {
  const h = new HistoryBuilder()
    .call(1, 'casPointer', cas('k', null, 'a'), { version: 1 })
    .call(1, 'casPointer', cas('k', 1, 'b'), { version: 2 })
    .call(2, 'pointer', { key: 'k' }, { version: 1, value: 'a' });
  expectVerdict(h.check('pointer'), 'not linearizable');
});

test('pointer: a version that skips (not dense) is rejected', () => {
  const h = new HistoryBuilder().call(1, 'casPointer', cas('k', null, 'a'), { version: 1 }).call(1, 'casPointer', cas('k', 1, 'b'), { version: 3 });
  expectVerdict(h.check('pointer'), 'not linearizable');
});

test('pointer: an unjustified VersionMismatch is rejected; an info cas may or may not have applied', () => {
  const wrong = new HistoryBuilder().call(1, 'casPointer', cas('k', null, 'a'), { version: 1 }).callFail(1, 'casPointer', cas('k', 1, 'b'), 'VersionMismatch');
  expectVerdict(wrong.check('pointer'), 'not linearizable');
  for (const seen of [
    { version: 1, value: 'a' },
    { version: 2, value: 'b' },
  ]) {
    const h = new HistoryBuilder()
      .call(1, 'casPointer', cas('k', null, 'a'), { version: 1 })
      .invoke(1, 'casPointer', cas('k', 1, 'b'))
      .info(1, 'casPointer')
      .call(2, 'pointer', { key: 'k' }, seen);
    expectVerdict(h.check('pointer'), 'linearizable', `seen ${seen.value}`);
  }
});

test('pointer: keys in different namespaces are different pointers', () => {
  const h = new HistoryBuilder()
    .call(1, 'casPointer', cas('k', null, 'a', { ns: 1 }), { version: 1 })
    .call(1, 'casPointer', cas('k', null, 'b', { ns: 2 }), { version: 1 });
  const r = h.check('pointer');
  expectVerdict(r, 'linearizable');
  assert.equal(r.partitions, 2);
});

const acquire = (key: string, owner: string, stamp: number, ttlMs = 100) => ({ key, owner, ttlMs, stamp });

test('pointer: a fenced cas is checked against the lease epoch in the same partition', () => {
  const base = () =>
    new HistoryBuilder()
      .call(1, 'acquireLease', acquire('app', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
      .call(1, 'casPointer', cas('k', null, 'a', { fence: { key: 'app', epoch: 1 } }), { version: 1 })
      // n1's lease expires; n2 takes over at epoch 2.
      .call(2, 'acquireLease', acquire('app', 'n2', 1200), { owner: 'n2', epoch: 2, deadline: 1300 });
  const ok = base()
    .callFail(1, 'casPointer', cas('k', 1, 'b', { fence: { key: 'app', epoch: 1 } }), 'FenceMismatch', { currentEpoch: 2 })
    .call(2, 'casPointer', cas('k', 1, 'c', { fence: { key: 'app', epoch: 2 } }), { version: 2 });
  const r = ok.check('pointer');
  expectVerdict(r, 'linearizable');
  assert.equal(r.partitions, 1, 'the lease and the pointer share one partition');
  // The zombie writer's stale fence succeeding is a violation…
  const zombie = base().call(1, 'casPointer', cas('k', 1, 'b', { fence: { key: 'app', epoch: 1 } }), { version: 2 });
  expectVerdict(zombie.check('pointer'), 'not linearizable', 'stale fence applied');
  // …and so is refusing the current fence.
  const refused = base().callFail(2, 'casPointer', cas('k', 1, 'c', { fence: { key: 'app', epoch: 2 } }), 'FenceMismatch');
  expectVerdict(refused.check('pointer'), 'not linearizable', 'current fence refused');
});

test('pointer: a fence on a lease the history never touches is not checked', () => {
  const h = new HistoryBuilder()
    .call(1, 'casPointer', cas('k', null, 'a', { fence: { key: 'elsewhere', epoch: 9 } }), { version: 1 })
    .callFail(1, 'casPointer', cas('k', 1, 'b', { fence: { key: 'elsewhere', epoch: 9 } }), 'FenceMismatch');
  const r = h.check('pointer');
  expectVerdict(r, 'linearizable');
  assert.equal(r.dropped, 1);
});

// ---------------------------------------------------------------- lease

test('lease: acquire, renew, expiry, takeover at the next epoch, release keeps the epoch', () => {
  const h = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
    .callFail(2, 'acquireLease', acquire('gc', 'n2', 1050), 'LeaseHeld', { holder: 'n1', currentEpoch: 1 })
    .call(1, 'renewLease', { key: 'gc', owner: 'n1', epoch: 1, ttlMs: 100, stamp: 1090 }, { owner: 'n1', epoch: 1, deadline: 1190 })
    .call(1, 'acquireLease', acquire('gc', 'n1', 1150), { owner: 'n1', epoch: 1, deadline: 1250 })
    .call(2, 'acquireLease', acquire('gc', 'n2', 1300), { owner: 'n2', epoch: 2, deadline: 1400 })
    .callFail(1, 'renewLease', { key: 'gc', owner: 'n1', epoch: 1, ttlMs: 100, stamp: 1310 }, 'FenceMismatch')
    .call(2, 'releaseLease', { key: 'gc', owner: 'n2', epoch: 2 })
    .call(2, 'releaseLease', { key: 'gc', owner: 'n2', epoch: 2 })
    .call(3, 'lease', { key: 'gc' }, { owner: null, epoch: 2, deadline: 1400 })
    .call(1, 'acquireLease', acquire('gc', 'n1', 1320), { owner: 'n1', epoch: 3, deadline: 1420 });
  expectVerdict(h.check('lease'), 'linearizable');
});

test('lease: two owners holding one lease at once is rejected', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'acquireLease', acquire('gc', 'n1', 1000))
    .invoke(2, 'acquireLease', acquire('gc', 'n2', 1001))
    .ok(1, 'acquireLease', { owner: 'n1', epoch: 1, deadline: 1100 })
    .ok(2, 'acquireLease', { owner: 'n2', epoch: 1, deadline: 1101 });
  expectVerdict(h.check('lease'), 'not linearizable');
});

test('lease: a renew past the deadline must fail; a takeover must not reuse the epoch', () => {
  const late = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
    .call(1, 'renewLease', { key: 'gc', owner: 'n1', epoch: 1, ttlMs: 100, stamp: 1101 }, { owner: 'n1', epoch: 1, deadline: 1201 });
  expectVerdict(late.check('lease'), 'not linearizable', 'renew after expiry');
  const reuse = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
    .call(2, 'acquireLease', acquire('gc', 'n2', 1200), { owner: 'n2', epoch: 1, deadline: 1300 });
  expectVerdict(reuse.check('lease'), 'not linearizable', 'epoch reused');
});

test('lease: a stale read (an old holder after a takeover completed) is rejected', () => {
  const h = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
    .call(2, 'acquireLease', acquire('gc', 'n2', 1200), { owner: 'n2', epoch: 2, deadline: 1300 })
    .call(3, 'lease', { key: 'gc' }, { owner: 'n1', epoch: 1, deadline: 1100 });
  expectVerdict(h.check('lease'), 'not linearizable');
});

test('lease: an info acquire may have taken the lease (a later LeaseHeld names its owner)', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'acquireLease', acquire('gc', 'n1', 1000))
    .info(1, 'acquireLease')
    .callFail(2, 'acquireLease', acquire('gc', 'n2', 1010), 'LeaseHeld', { holder: 'n1', currentEpoch: 1 });
  expectVerdict(h.check('lease'), 'linearizable');
});

// ---------------------------------------------------------------- log

const chunk = (stream: number, partition: number, records: number) => ({ stream, partition, records });
const range = (stream: number, partition: number, start: number, end: number, group = 0) => ({ stream, partition, start, end, group });

test('log: dense offsets, idempotent retry, index and heads reads', () => {
  const h = new HistoryBuilder()
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3), chunk(1, 1, 2)] }, { assigned: [range(1, 0, 0, 3), range(1, 1, 0, 2)] })
    .invoke(1, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 4)] })
    .invoke(2, 'commitWal', { object: 'w3', chunks: [chunk(1, 0, 1)] })
    .ok(2, 'commitWal', { assigned: [range(1, 0, 3, 4)] })
    .ok(1, 'commitWal', { assigned: [range(1, 0, 4, 8)] })
    // a retry of w1 returns the first offsets and applies nothing
    .call(2, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3), chunk(1, 1, 2)] }, { assigned: [range(1, 0, 0, 3), range(1, 1, 0, 2)] })
    .call(3, 'partitionIndex', { stream: 1, partition: 0 }, {
      logStart: 0,
      next: 8,
      entries: [
        { start: 0, end: 3 },
        { start: 3, end: 4 },
        { start: 4, end: 8 },
      ],
    })
    .call(3, 'trimPartition', { stream: 1, partition: 0, logStart: 3 }, { next: 8, logStart: 3 })
    .call(3, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 3, next: 8, entries: [{ start: 3, end: 4 }, { start: 4, end: 8 }] })
    .call(3, 'streamState', { stream: 1 }, { heads: [{ partition: 0, next: 8, logStart: 3 }, { partition: 1, next: 2, logStart: 0 }] });
  expectVerdict(h.check('log'), 'linearizable');
});

test('log: a retried trim returns the head at its retry, after the move; never a head from before the move', () => {
  // The trim's first attempt moves logStart to 3 (next 5); its answer is lost; a commit takes
  // next to 6; the retry is a no-op that returns {next: 6, logStart: 3}. A read inside the
  // call saw the move with next 5: linearizable (the contract: a repeat is a no-op that
  // returns the head).
  const base = () =>
    new HistoryBuilder()
      .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 5)] }, { assigned: [range(1, 0, 0, 5)] })
      .invoke(3, 'trimPartition', { stream: 1, partition: 0, logStart: 3 })
      .call(2, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 3, next: 5, entries: [{ start: 0, end: 5 }] });
  const retried = base()
    .call(1, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 1)] }, { assigned: [range(1, 0, 5, 6)] })
    .ok(3, 'trimPartition', { next: 6, logStart: 3 });
  expectVerdict(retried.check('log'), 'linearizable');
  // A head older than the move: next 4 was never the head once logStart was 3.
  const older = base().ok(3, 'trimPartition', { next: 4, logStart: 3 });
  expectVerdict(older.check('log'), 'not linearizable');
  // A head read before the trim was invoked cannot be what it returns.
  const before = new HistoryBuilder()
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 5)] }, { assigned: [range(1, 0, 0, 5)] })
    .call(1, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 1)] }, { assigned: [range(1, 0, 5, 6)] })
    .call(3, 'trimPartition', { stream: 1, partition: 0, logStart: 3 }, { next: 5, logStart: 3 });
  expectVerdict(before.check('log'), 'not linearizable');
});

test('log: a duplicated offset is rejected', () => {
  const h = new HistoryBuilder()
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 0, 3)] })
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 2, 4)] });
  const r = h.check('log');
  expectVerdict(r, 'not linearizable');
  assert.match(r.violation!.message, /duplicated offsets on stream 1 partition 0: \[0, 3\) went to w1#0 and \[2, 4\) to w2#0/);
});

test('log: a gap in offsets is rejected (by the search: the next commit must start at the head)', () => {
  const h = new HistoryBuilder()
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 0, 3)] })
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 4, 6)] });
  const r = h.check('log');
  expectVerdict(r, 'not linearizable');
  assert.match(r.violation!.unplaced![0]!.why.join(' '), /leaves a gap \[3, 4\)/);
});

test('log: an info commit may fill the gap; a retry of it returns its offsets', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] })
    .info(1, 'commitWal')
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 3, 5)] })
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 0, 3)] });
  expectVerdict(h.check('log'), 'linearizable');
  const wrongRetry = new HistoryBuilder()
    .invoke(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] })
    .info(1, 'commitWal')
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 3, 5)] })
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 5, 8)] });
  expectVerdict(wrongRetry.check('log'), 'not linearizable', 'a retry committed twice');
});

test('log: partitionIndex with a gap, or a head that goes backwards, is rejected', () => {
  const base = () =>
    new HistoryBuilder()
      .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 0, 3)] })
      .call(1, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 3, 5)] })
      .call(1, 'commitWal', { object: 'w3', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 5, 7)] });
  const gap = base().call(2, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 0, next: 7, entries: [{ start: 0, end: 3 }, { start: 5, end: 7 }] });
  const r = gap.check('log');
  expectVerdict(r, 'not linearizable', 'index gap');
  assert.match(r.violation!.message, /leave a gap \[3, 5\)/);
  const merged = base().call(2, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 0, next: 7, entries: [{ start: 0, end: 5 }, { start: 5, end: 7 }] });
  expectVerdict(merged.check('log'), 'not linearizable', 'entries that are not the committed ranges');
  const back = base()
    .call(2, 'streamState', { stream: 1 }, { heads: [{ partition: 0, next: 7 }] })
    .call(2, 'streamState', { stream: 1 }, { heads: [{ partition: 0, next: 5 }] });
  expectVerdict(back.check('log'), 'not linearizable', 'head backwards');
});

test('log: swapSegment merges exactly the entries of its range; a retry of a merged commit still returns its first offsets', () => {
  const base = () =>
    new HistoryBuilder()
      .call(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 0, 3)] })
      .call(1, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 3, 5)] })
      .call(1, 'commitWal', { object: 'w3', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 5, 7)] });
  const swap = { stream: 1, partition: 0, start: 0, end: 5, path: 'seg/a' };
  const h = base()
    .call(2, 'swapSegment', swap, { entry: { start: 0, end: 5 } })
    .call(2, 'swapSegment', swap, { entry: { start: 0, end: 5 } }) // a retry: idempotent by path
    .call(3, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 2)] }, { assigned: [range(1, 0, 3, 5)] })
    .call(3, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 0, next: 7, entries: [{ start: 0, end: 5 }, { start: 5, end: 7 }] });
  expectVerdict(h.check('log'), 'linearizable');
  // An unknown swap may or may not have applied: either index read is explained.
  const unknown = (entries: { start: number; end: number }[]) =>
    base().invoke(2, 'swapSegment', swap).info(2, 'swapSegment').call(3, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 0, next: 7, entries });
  expectVerdict(unknown([{ start: 0, end: 5 }, { start: 5, end: 7 }]).check('log'), 'linearizable');
  expectVerdict(unknown([{ start: 0, end: 3 }, { start: 3, end: 5 }, { start: 5, end: 7 }]).check('log'), 'linearizable');
  // The old entries after an acknowledged swap, a swap off the entry boundaries, a retry
  // of a merged commit that commits again: rejected.
  const stale = base().call(2, 'swapSegment', swap, { entry: { start: 0, end: 5 } }).call(3, 'partitionIndex', { stream: 1, partition: 0 }, { logStart: 0, next: 7, entries: [{ start: 0, end: 3 }, { start: 3, end: 5 }, { start: 5, end: 7 }] });
  expectVerdict(stale.check('log'), 'not linearizable', 'entries replaced by an acknowledged swap');
  const off = base().call(2, 'swapSegment', { ...swap, end: 4 }, { entry: { start: 0, end: 4 } });
  expectVerdict(off.check('log'), 'not linearizable', 'a swap off the entry boundaries');
  const twice = base()
    .call(2, 'swapSegment', swap, { entry: { start: 0, end: 5 } })
    .call(3, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 3)] }, { assigned: [range(1, 0, 7, 10)] });
  expectVerdict(twice.check('log'), 'not linearizable', 'a retry of a segmented commit committed twice');
});

test('log: group atomicity — two concurrent commits ordered differently on two partitions', () => {
  // Each commit is ONE group spanning partitions 0 and 1: no single order explains
  // w1 before w2 on partition 0 but w2 before w1 on partition 1.
  const h = (groups?: number[]) => {
    const args = (object: string) => ({ object, chunks: [chunk(1, 0, 1), chunk(1, 1, 1)], ...(groups ? { groups } : {}) });
    return new HistoryBuilder()
      .invoke(1, 'commitWal', args('w1'))
      .invoke(2, 'commitWal', args('w2'))
      .ok(1, 'commitWal', { assigned: [range(1, 0, 0, 1, groups?.[0]), range(1, 1, 1, 2, groups?.[1])] })
      .ok(2, 'commitWal', { assigned: [range(1, 0, 1, 2, groups?.[0]), range(1, 1, 0, 1, groups?.[1])] });
  };
  const r = h().check('log');
  expectVerdict(r, 'not linearizable', 'one group each');
  assert.equal(r.partitions, 1, 'partitions coupled by a group are checked together');
  // With each partition in its own group (per-group atomicity only), the same offsets are fine.
  const split = h([0, 1]).check('log');
  expectVerdict(split, 'linearizable', 'one group per partition');
  assert.equal(split.partitions, 2);
});

test('log: an info commit may commit some groups and not others', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 2), chunk(2, 0, 2)], groups: [0, 1] })
    .info(1, 'commitWal')
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 1), chunk(2, 0, 1)], groups: [0, 1] }, { assigned: [range(1, 0, 2, 3, 0), range(2, 0, 0, 1, 1)] });
  expectVerdict(h.check('log'), 'linearizable', 'group 0 committed, group 1 not');
  const atomic = new HistoryBuilder()
    .invoke(1, 'commitWal', { object: 'w1', chunks: [chunk(1, 0, 2), chunk(2, 0, 2)], groups: [0, 0] })
    .info(1, 'commitWal')
    .call(2, 'commitWal', { object: 'w2', chunks: [chunk(1, 0, 1), chunk(2, 0, 1)], groups: [0, 0] }, { assigned: [range(1, 0, 2, 3), range(2, 0, 0, 1)] });
  expectVerdict(atomic.check('log'), 'not linearizable', 'half of one group');
});

// ---------------------------------------------------------------- names

test('names: create, AlreadyExists with the existing id, drop frees the name, ids grow', () => {
  const h = new HistoryBuilder()
    .call(1, 'createNamespace', { org: 'acme', name: 'prod' }, { id: 1 })
    .callFail(2, 'createNamespace', { org: 'acme', name: 'prod' }, 'AlreadyExists', { existingId: 1 })
    .call(2, 'createNamespace', { org: 'other', name: 'prod' }, { id: 2 })
    .call(1, 'createCollection', { ns: 1, name: 'docs' }, { id: 1 })
    .call(1, 'collectionByName', { ns: 1, name: 'docs' }, { id: 1 })
    .call(1, 'dropCollection', { ns: 1, id: 1 })
    .callFail(2, 'collectionByName', { ns: 1, name: 'docs' }, 'NotFound')
    .call(1, 'createCollection', { ns: 1, name: 'docs' }, { id: 2 })
    .call(2, 'namespaceByName', { org: 'acme', name: 'prod' }, { id: 1 });
  expectVerdict(h.check('names'), 'linearizable');
});

test('names: two concurrent creates of one name both succeeding is rejected', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'createCollection', { ns: 1, name: 'docs' })
    .invoke(2, 'createCollection', { ns: 1, name: 'docs' })
    .ok(1, 'createCollection', { id: 1 })
    .ok(2, 'createCollection', { id: 2 });
  expectVerdict(h.check('names'), 'not linearizable');
});

test('names: a stale read after a drop completed is rejected', () => {
  const h = new HistoryBuilder()
    .call(1, 'createCollection', { ns: 1, name: 'docs' }, { id: 1 })
    .call(1, 'dropCollection', { ns: 1, id: 1 })
    .call(2, 'collectionByName', { ns: 1, name: 'docs' }, { id: 1 });
  expectVerdict(h.check('names'), 'not linearizable');
});

test('names: an info create is learnt from a later AlreadyExists', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'createNamespace', { org: 'acme', name: 'prod' })
    .info(1, 'createNamespace')
    .callFail(2, 'createNamespace', { org: 'acme', name: 'prod' }, 'AlreadyExists', { existingId: 4 })
    .call(2, 'namespaceByName', { org: 'acme', name: 'prod' }, { id: 4 });
  expectVerdict(h.check('names'), 'linearizable');
  const changed = new HistoryBuilder()
    .invoke(1, 'createNamespace', { org: 'acme', name: 'prod' })
    .info(1, 'createNamespace')
    .callFail(2, 'createNamespace', { org: 'acme', name: 'prod' }, 'AlreadyExists', { existingId: 4 })
    .call(2, 'namespaceByName', { org: 'acme', name: 'prod' }, { id: 5 });
  expectVerdict(changed.check('names'), 'not linearizable');
});

test('names: a reused id, or an id that goes backwards in real time, is rejected statically', () => {
  const reused = new HistoryBuilder()
    .call(1, 'createNamespace', { org: 'acme', name: 'a' }, { id: 3 })
    .call(1, 'createNamespace', { org: 'acme', name: 'b' }, { id: 3 });
  const r = reused.check('names');
  expectVerdict(r, 'not linearizable');
  assert.equal(r.violation!.kind, 'static');
  const backwards = new HistoryBuilder()
    .call(1, 'createNamespace', { org: 'acme', name: 'a' }, { id: 3 })
    .call(1, 'createNamespace', { org: 'acme', name: 'b' }, { id: 2 });
  expectVerdict(backwards.check('names'), 'not linearizable');
});

// ---------------------------------------------------------------- collectionHead

function writerHistory(): HistoryBuilder {
  // The writer: commit [0, 2), publish manifest v1 (applied 0 → 0), commit [2, 4), publish v2 (applied 0 → 2).
  return new HistoryBuilder()
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 0, 2)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: null, value: 'm1', applied: { '0': 0 } }, { version: 1 })
    .call(1, 'commitWal', { object: 'w2', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 2, 4)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: 1, value: 'm2', applied: { '0': 2 } }, { version: 2 });
}

test('collectionHead: reads in the documented order are accepted, also concurrent with the writer', () => {
  const h = writerHistory().call(2, 'collectionHead', { key: 'link/1', stream: 5 }, { pointer: { version: 2, value: 'm2' }, heads: { '0': 4 } });
  expectVerdict(h.check('collectionHead'), 'linearizable');
  // A read spanning the whole writer: pointer read early (v1), heads read late (4): allowed.
  const spanning = new HistoryBuilder()
    .invoke(2, 'collectionHead', { key: 'link/1', stream: 5 }, 0)
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 0, 2)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: null, value: 'm1', applied: { '0': 0 } }, { version: 1 })
    .call(1, 'commitWal', { object: 'w2', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 2, 4)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: 1, value: 'm2', applied: { '0': 2 } }, { version: 2 })
    .ok(2, 'collectionHead', { pointer: { version: 1, value: 'm1' }, heads: { '0': 4 } });
  expectVerdict(spanning.check('collectionHead'), 'linearizable', 'pointer early, heads late');
});

test('collectionHead: a read whose heads lag the pointer\'s applied offsets is rejected', () => {
  const h = writerHistory().call(2, 'collectionHead', { key: 'link/1', stream: 5 }, { pointer: { version: 2, value: 'm2' }, heads: { '0': 1 } });
  const r = h.check('collectionHead');
  expectVerdict(r, 'not linearizable');
  assert.equal(r.violation!.kind, 'static');
  assert.match(r.violation!.message, /partition 0 next 1 < applied 2/);
});

test('collectionHead: heads read before the pointer (wrong read order) are rejected even when not below applied', () => {
  // The read spans the writer; it shows the NEW pointer (v2, applied 2) with the OLD head 2:
  // the head was read before w2 committed, the pointer after v2 was published — heads first.
  const h = new HistoryBuilder()
    .invoke(2, 'collectionHead', { key: 'link/1', stream: 5 }, 0)
    .call(1, 'commitWal', { object: 'w1', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 0, 2)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: null, value: 'm1', applied: { '0': 0 } }, { version: 1 })
    .call(1, 'commitWal', { object: 'w2', chunks: [chunk(5, 0, 2)] }, { assigned: [range(5, 0, 2, 4)] })
    .call(1, 'casPointer', { key: 'link/1', expectedVersion: 1, value: 'm2', applied: { '0': 2 } }, { version: 2 })
    .ok(2, 'collectionHead', { pointer: { version: 2, value: 'm2' }, heads: { '0': 2 } });
  const r = h.check('collectionHead');
  expectVerdict(r, 'not linearizable');
  assert.equal(r.violation!.kind, 'search');
});

test('meta: one history may mix every op (names, pointers, leases, log, collectionHead)', () => {
  const h = writerHistory()
    .call(3, 'createNamespace', { org: 'acme', name: 'prod' }, { id: 1 })
    .call(3, 'acquireLease', acquire('gc', 'n1', 1000), { owner: 'n1', epoch: 1, deadline: 1100 })
    .call(2, 'collectionHead', { key: 'link/1', stream: 5 }, { pointer: { version: 2, value: 'm2' }, heads: [{ partition: 0, next: 4, logStart: 0 }] });
  const r = h.check('meta');
  expectVerdict(r, 'linearizable');
  assert.equal(r.partitions, 3);
});

test('lease: an extension may keep the later deadline (a backend that never shortens a lease)', () => {
  const h = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000, 500), { owner: 'n1', epoch: 1, deadline: 1500 })
    .call(1, 'acquireLease', acquire('gc', 'n1', 1100, 100), { owner: 'n1', epoch: 1, deadline: 1500 })
    .call(1, 'renewLease', { key: 'gc', owner: 'n1', epoch: 1, ttlMs: 100, stamp: 1200 }, { owner: 'n1', epoch: 1, deadline: 1500 })
    .callFail(2, 'acquireLease', acquire('gc', 'n2', 1400), 'LeaseHeld', { holder: 'n1', currentEpoch: 1, deadline: 1500 });
  expectVerdict(h.check('lease'), 'linearizable');
  const neither = new HistoryBuilder()
    .call(1, 'acquireLease', acquire('gc', 'n1', 1000, 500), { owner: 'n1', epoch: 1, deadline: 1500 })
    .call(1, 'renewLease', { key: 'gc', owner: 'n1', epoch: 1, ttlMs: 100, stamp: 1200 }, { owner: 'n1', epoch: 1, deadline: 1400 });
  expectVerdict(neither.check('lease'), 'not linearizable');
});

test('collectionHead: the pointer key and stream default to the result\'s collection (the MetaStore result as is)', () => {
  const collection = { ns: 1, id: 3, linkId: 1, streamId: 5, partitions: 1 };
  const pointer = { ns: 1, key: 'link/1', version: 2, value: 'm2', stamp: 0 };
  const ok = writerHistory().call(2, 'collectionHead', { ns: 1, collection: 3 }, { collection, pointer, heads: [{ partition: 0, next: 4, logStart: 0, bytes: 0 }] });
  // The writer's ops have no ns: give the read the same (absent) namespace.
  const text = ok.text().replace('"args":{"ns":1,"collection":3}', '"args":{"collection":3}');
  const r = checkHistory(text, 'collectionHead');
  expectVerdict(r, 'linearizable');
  const lag = writerHistory().call(2, 'collectionHead', { collection: 3 }, { collection, pointer, heads: [{ partition: 0, next: 1, logStart: 0, bytes: 0 }] });
  expectVerdict(lag.check('collectionHead'), 'not linearizable');
});

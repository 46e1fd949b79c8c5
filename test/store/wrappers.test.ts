// FaultyStore and CountingStore (DESIGN §4): scripted and seeded faults, and serial
// round trips for the cold-query target.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CountingStore, MemoryStore, isStoreError, type Store } from '../../src/store/index.js';
import { FaultyStore, type FaultKind } from '../../src/check/faulty-store.js';
import { rejectsCode } from './helpers/suite.js';

const b = (s: string): Buffer => Buffer.from(s);

/** A store whose every call takes `ms`, to make overlap visible. */
function slow(inner: Store, ms: number): FaultyStore {
  return new FaultyStore(inner, { rules: [{ fault: 'delay', delayMs: ms }] });
}

describe('FaultyStore', () => {
  test('the 3rd put fails with 503 SlowDown and is not applied; the others pass through', async () => {
    const inner = new MemoryStore();
    const s = new FaultyStore(inner, { rules: [{ method: 'put', nth: 3, fault: 'slowDown' }] });
    await s.put('a', b('1'));
    await s.get('a'); // other methods do not advance the put count
    await s.put('b', b('2'));
    await assert.rejects(s.put('c', b('3')), (e: unknown) => {
      assert.ok(isStoreError(e, 'Retryable'));
      assert.equal(e.details.reason, 'throttle');
      assert.equal(e.details.status, 503);
      assert.equal(e.details.outcomeUnknown, false);
      return true;
    });
    await rejectsCode(inner.head('c'), 'NotFound', 'a 503 applies nothing');
    await s.put('d', b('4'));
    assert.deepEqual(
      s.injected.map((f) => [f.call, f.method, f.path, f.fault]),
      [[4, 'put', 'c', 'slowDown']],
    );
  });

  test('409 Conflict is Retryable(conflict) and applies nothing', async () => {
    const inner = new MemoryStore();
    const s = new FaultyStore(inner, { rules: [{ method: 'put', path: 'k', fault: 'conflict', times: 1 }] });
    await assert.rejects(s.put('k', b('x'), { ifNoneMatch: '*' }), (e: unknown) => {
      assert.ok(isStoreError(e, 'Retryable'));
      assert.equal(e.details.reason, 'conflict');
      assert.equal(e.details.status, 409);
      return true;
    });
    await rejectsCode(inner.head('k'), 'NotFound');
    // times: 1 — the retry goes through.
    await s.put('k', b('x'), { ifNoneMatch: '*' });
    assert.equal((await inner.get('k')).bytes.toString(), 'x');
  });

  test('a lost acknowledgement applies the write, then reports Retryable with outcomeUnknown', async () => {
    const inner = new MemoryStore();
    const s = new FaultyStore(inner, { rules: [{ method: 'put', nth: 1, fault: 'lostAck' }] });
    await assert.rejects(s.put('doc', b('v1'), { ifNoneMatch: '*' }), (e: unknown) => {
      assert.ok(isStoreError(e, 'Retryable'));
      assert.equal(e.details.reason, 'timeout');
      assert.equal(e.details.outcomeUnknown, true);
      return true;
    });
    assert.equal((await inner.get('doc')).bytes.toString(), 'v1', 'the write was applied');
    // The caller's retry of a create-only put meets its own write: AlreadyExists, resolved by reading.
    await rejectsCode(s.put('doc', b('v1'), { ifNoneMatch: '*' }), 'AlreadyExists');
    // A lost ack of a delete: applied too.
    s.script({ method: 'delete', fault: 'lostAck', times: 1 });
    await rejectsCode(s.delete('doc'), 'Retryable');
    await rejectsCode(inner.head('doc'), 'NotFound');
  });

  test('timeouts and 500s apply nothing but flag writes outcomeUnknown; reads are not flagged', async () => {
    const inner = new MemoryStore();
    await inner.put('r', b('r'));
    const s = new FaultyStore(inner, {
      rules: [
        { method: 'put', nth: 1, fault: 'timeout', delayMs: 5 },
        { method: 'put', nth: 2, fault: 'serverError' },
        { method: 'get', nth: 1, fault: 'timeout' },
      ],
    });
    for (const reason of ['timeout', 'unavailable']) {
      await assert.rejects(s.put('w', b('w')), (e: unknown) => {
        assert.ok(isStoreError(e, 'Retryable'));
        assert.equal(e.details.reason, reason);
        assert.equal(e.details.outcomeUnknown, true);
        return true;
      });
    }
    await rejectsCode(inner.head('w'), 'NotFound');
    await assert.rejects(s.get('r'), (e: unknown) => isStoreError(e, 'Retryable') && e.details.outcomeUnknown === false);
    assert.equal((await s.get('r')).bytes.toString(), 'r');
  });

  test('delays hold a call for their time, then it runs normally', async () => {
    const s = new FaultyStore(new MemoryStore(), { rules: [{ method: 'head', fault: 'delay', delayMs: 60 }] });
    await s.put('a', b('a'));
    const t0 = performance.now();
    assert.equal((await s.head('a')).size, 1);
    assert.ok(performance.now() - t0 >= 55, 'the head waited');
  });

  test('rules: nth lists, path patterns, first matching rule wins, clear()', async () => {
    const s = new FaultyStore(new MemoryStore(), {
      rules: [
        { method: ['get', 'head'], path: /^hot\//, nth: [2, 4], fault: 'slowDown' },
        { method: 'get', fault: 'conflict', nth: 2 },
      ],
    });
    await s.put('hot/a', b('a'));
    const outcome = async (p: Promise<unknown>): Promise<string> =>
      p.then(
        () => 'ok',
        (e: unknown) => (isStoreError(e) ? String(e.details.reason) : 'other'),
      );
    const got = [
      await outcome(s.get('hot/a')), // rule 1: 1st watched; rule 2: 1st get
      await outcome(s.head('hot/a')), // rule 1: 2nd → throttle
      await outcome(s.get('hot/a')), // rule 1: 3rd; rule 2: 2nd get → conflict
      await outcome(s.get('hot/a')), // rule 1: 4th → throttle
      await outcome(s.get('cold')), // no rule fires; NotFound
    ];
    assert.deepEqual(got, ['ok', 'throttle', 'conflict', 'throttle', 'undefined']);
    s.clear();
    assert.equal(await outcome(s.head('hot/a')), 'ok');
    assert.throws(() => s.script({ fault: 'delay' }), { code: 'InvalidArgument' });
    assert.throws(() => s.script({ fault: 'nope' as FaultKind }), { code: 'InvalidArgument' });
    assert.throws(() => s.script({ fault: 'conflict', nth: 0 }), { code: 'InvalidArgument' });
    assert.throws(() => s.script({ fault: 'delay', delayMs: 10 ** 9 }), { code: 'InvalidArgument' });
  });

  test('random faults are deterministic by seed', async () => {
    const runOnce = async (seed: number): Promise<string[]> => {
      const s = new FaultyStore(new MemoryStore(), {
        seed,
        random: { probability: 0.3, faults: ['conflict', 'slowDown', 'lostAck', 'timeout'], maxDelayMs: 2 },
      });
      for (let i = 0; i < 60; i++) {
        await s.put(`k${i % 7}`, b(String(i))).catch(() => undefined);
        await s.get(`k${i % 5}`).catch(() => undefined);
      }
      return s.injected.map((f) => `${f.call}:${f.method}:${f.fault}`);
    };
    const a = await runOnce(42);
    const again = await runOnce(42);
    const other = await runOnce(43);
    assert.deepEqual(a, again, 'same seed, same faults');
    assert.notDeepEqual(a, other, 'another seed, other faults');
    assert.ok(a.length > 15 && a.length < 60, `about 30% of 120 calls get a fault (${a.length})`);
    assert.throws(() => new FaultyStore(new MemoryStore(), { random: { probability: 2, faults: ['conflict'] } }), {
      code: 'InvalidArgument',
    });
  });

  test('capabilities and close pass through', async () => {
    const inner = new MemoryStore({ versioning: true });
    const s = new FaultyStore(inner, { random: { probability: 1, faults: ['conflict'] } });
    assert.deepEqual(s.capabilities(), inner.capabilities());
    await s.close();
    await rejectsCode(inner.head('x'), 'InvalidArgument', 'closed');
  });
});

describe('CountingStore', () => {
  test('counts requests per method, failed ones included', async () => {
    const s = new CountingStore(new MemoryStore());
    await s.put('a', b('a'));
    await s.get('a');
    await s.head('a');
    await s.get('missing').catch(() => undefined);
    await s.list('', { limit: 10 });
    await s.delete('a');
    const st = s.stats();
    assert.equal(st.requests, 6);
    assert.deepEqual(
      Object.entries(st.calls).filter(([, n]) => n > 0),
      [
        ['get', 2],
        ['head', 1],
        ['put', 1],
        ['delete', 1],
        ['list', 1],
      ],
    );
    assert.equal(st.roundTrips, 6, 'sequential requests are one round trip each');
  });

  test('overlapping requests are one round trip; a cold query of pointer → manifest → 8 parallel reads is 3', async () => {
    const inner = new MemoryStore();
    await inner.put('pointer', b('manifest-1'));
    await inner.put('manifest-1', b(JSON.stringify(Array.from({ length: 8 }, (_, i) => `data/${i}`))));
    for (let i = 0; i < 8; i++) await inner.put(`data/${i}`, b(`d${i}`));
    const s = new CountingStore(slow(inner, 15));
    const { result, counts } = await s.measure(async () => {
      const ptr = (await s.get('pointer')).bytes.toString();
      const files = JSON.parse((await s.get(ptr)).bytes.toString()) as string[];
      const parts = await Promise.all(files.map((f) => s.get(f)));
      return parts.map((p) => p.bytes.toString()).join('');
    });
    assert.equal(result, 'd0d1d2d3d4d5d6d7');
    assert.equal(counts.requests, 10);
    assert.equal(counts.roundTrips, 3, 'the cold-query target: at most 3 serial round trips');
    assert.equal(counts.maxInFlight, 8);
  });

  test('a request that starts after another finished is a new round trip, even while others overlap', async () => {
    const s = new CountingStore(new FaultyStore(new MemoryStore(), {
      rules: [
        { path: 'long', fault: 'delay', delayMs: 80 },
        { path: 'short', fault: 'delay', delayMs: 10 },
      ],
    }));
    await s.measure(async () => {
      const long = s.get('long').catch(() => undefined); // depth 1, still running
      await s.get('short').catch(() => undefined); // depth 1, finishes
      await s.get('short').catch(() => undefined); // started after a depth-1 finished: depth 2
      await long;
    });
    assert.equal(s.stats().roundTrips, 2);
    assert.equal(s.stats().requests, 3);
    s.reset();
    assert.equal(s.stats().roundTrips, 0);
    assert.equal(s.stats().requests, 0);
  });
});

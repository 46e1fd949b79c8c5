// The server's idempotency record (src/remote/idempotency.ts) makes a call's fingerprint and
// size only after its answer is written (issue 16 benchmark). A retry or a reused key may
// arrive at any moment — while the first call runs, in the turn it settles (before the record
// has hashed it), or later — and must be answered the same at each: the first result without
// running again, or RequestIdReused; and the record's bound still holds once it has counted.
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { isMetaError } from '../../src/meta/index.js';
import { IdempotencyRecord } from '../../src/remote/idempotency.js';

const CLUSTER = 'c1';
const args = (object: string) => ({ w: { requestId: 'k', stamp: 1 }, commit: { object, chunks: [{ ns: 1, partition: 0 }] } });

function reused(e: unknown): boolean {
  return isMetaError(e) && e.code === 'InvalidArgument' && e.details.reason === 'RequestIdReused';
}

describe('remote: the idempotency record answers a retry the same at every moment', () => {
  test('while the first call runs: a retry joins it, other arguments are refused', async () => {
    const rec = new IdempotencyRecord();
    let runs = 0;
    let release!: (v: string) => void;
    const first = rec.run(CLUSTER, 'k', 'CommitWal', args('wal/1'), () => {
      runs++;
      return new Promise<string>((r) => (release = r));
    });
    const retry = rec.run(CLUSTER, 'k', 'CommitWal', { ...args('wal/1'), w: { requestId: 'k', stamp: 2 } }, async () => {
      runs++;
      return 'second';
    });
    await assert.rejects(
      rec.run(CLUSTER, 'k', 'CommitWal', args('wal/2'), async () => 'other'),
      reused,
    );
    release('first');
    assert.deepEqual(await first, { value: 'first', replayed: false });
    assert.deepEqual(await retry, { value: 'first', replayed: true });
    assert.equal(runs, 1);
  });

  test('in the turn the first call settles, before the record has hashed it, and after', async () => {
    const rec = new IdempotencyRecord();
    let runs = 0;
    const run = async () => {
      runs++;
      return { object: 'wal/1', groups: 1 };
    };
    const first = await rec.run(CLUSTER, 'k', 'CommitWal', args('wal/1'), run);
    // Same turn as the settle: the record keeps the request, not yet its fingerprint.
    const now = await rec.run(CLUSTER, 'k', 'CommitWal', args('wal/1'), run);
    await assert.rejects(rec.run(CLUSTER, 'k', 'CommitWal', args('wal/2'), run), reused);
    await nextTurn();
    const later = await rec.run(CLUSTER, 'k', 'CommitWal', args('wal/1'), run);
    await assert.rejects(rec.run(CLUSTER, 'k', 'CommitWal', args('wal/2'), run), reused);
    // Another method with the same key and request is another call.
    await assert.rejects(rec.run(CLUSTER, 'k', 'SwapSegment', args('wal/1'), run), reused);
    assert.equal(runs, 1);
    assert.deepEqual([first.replayed, now.replayed, later.replayed], [false, true, true]);
    assert.deepEqual(later.value, { object: 'wal/1', groups: 1 });
  });

  test('the bound on kept results holds once they are counted: the oldest go first', async () => {
    const rec = new IdempotencyRecord(Date.now, { entries: 2, bytes: 1 << 20, ttlMs: 60_000 });
    let runs = 0;
    const run = async () => ++runs;
    for (const key of ['a', 'b', 'c']) await rec.run(CLUSTER, key, 'CommitWal', args(key), run);
    await nextTurn();
    assert.equal(rec.size, 2);
    // 'a' was let go: its retry runs again; 'c' is still answered from the record.
    assert.equal((await rec.run(CLUSTER, 'c', 'CommitWal', args('c'), run)).replayed, true);
    assert.equal((await rec.run(CLUSTER, 'a', 'CommitWal', args('a'), run)).replayed, false);
    assert.equal(runs, 4);
  });

  test('a result over the byte bound is let go once counted, and nothing is counted twice', async () => {
    const rec = new IdempotencyRecord(Date.now, { entries: 100, bytes: 4_000, ttlMs: 60_000 });
    const big = 'x'.repeat(3_000);
    await rec.run(CLUSTER, 'a', 'CommitWal', args('a'), async () => big);
    await rec.run(CLUSTER, 'b', 'CommitWal', args('b'), async () => big);
    await nextTurn();
    assert.equal(rec.size, 1);
    await nextTurn();
    assert.equal(rec.size, 1);
  });
});

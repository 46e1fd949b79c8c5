// The worker thread's buffer bound (src/node/buffer-bound.ts, issue 14 item 9): a thread that
// keeps allocating buffers keeps its ArrayBuffers, live and dead, within `worker_buffer_bytes`;
// V8 on its own let them reach about live + 64 MiB and more (the worker's 260 MiB).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { SETTLE_CHECKS, startBufferBound, type BufferBound, type BufferBoundOptions } from '../../src/node/buffer-bound.js';

const MiB = 1024 * 1024;

/** Starts a bound whose checks the test drives by hand: its timer is captured, not run. */
function handDriven(o: BufferBoundOptions): { bound: BufferBound; tick: () => void } {
  let tick: (() => void) | undefined;
  const realSetInterval = globalThis.setInterval;
  globalThis.setInterval = ((fn: () => void) => {
    tick = fn;
    return { unref() {} } as unknown as NodeJS.Timeout;
  }) as typeof setInterval;
  try {
    const bound = startBufferBound(o);
    return { bound, tick: () => tick!() };
  } finally {
    globalThis.setInterval = realSetInterval;
  }
}

test("a thread churning buffers through a 64 MiB cache stays within a 96 MiB bound (V8 alone: 134–139 MiB)", async () => {
  const BOUND = 96 * MiB;
  const CHECK_MS = 5;
  const bound = startBufferBound({ maxBytes: BOUND, checkMs: CHECK_MS, trim: null });
  // The worker's pattern: 1 MiB buffers (log chunks, blocks) through an LRU that keeps the
  // newest 64 (the caches and the round in hand), the oldest dropped — dead, but held until
  // their wrappers are collected; short-lived objects beside them, as decoding makes.
  const cache: Buffer[] = [];
  let max = 0;
  try {
    for (let i = 0; i < 500; i++) {
      cache.push(Buffer.alloc(MiB, i & 0xff));
      if (cache.length > 64) cache.shift();
      const junk = Array.from({ length: 200 }, (_, j) => ({ j, s: `k${j}` }));
      assert.equal(junk.length, 200);
      if (i % 4 === 3) {
        await sleep(CHECK_MS + 1); // a check may run between steps of 4 MiB
        max = Math.max(max, process.memoryUsage().arrayBuffers);
      }
    }
  } finally {
    bound.stop();
  }
  assert.ok(bound.collections > 0, 'the bound collected');
  // The bound, plus what is allocated between two checks and a margin for the sampling.
  assert.ok(max <= BOUND + 16 * MiB, `ArrayBuffers peaked at ${Math.round(max / MiB)} MiB with a bound of ${BOUND / MiB} MiB`);
});

test('a live set over the bound costs one collection per half-bound allocated, not a collection at every check', () => {
  let bytes = 0;
  let live = 0;
  let collections = 0;
  const { bound, tick } = handDriven({ maxBytes: 100, arrayBuffers: () => bytes, collect: () => void (collections++, (bytes = live)), trim: null });
  const step = (to: number) => {
    bytes = to;
    tick();
  };
  /** The checks that measure what a collection left (it left `bytes`). */
  const settle = () => {
    for (let i = 0; i < SETTLE_CHECKS; i++) tick();
  };
  // Under the bound: nothing.
  step(90);
  assert.equal(collections, 0);
  // Over it with little live: collected; the next check measures what was left.
  live = 20;
  step(120);
  assert.equal(collections, 1);
  settle();
  // A live set of 150 (over the bound): one collection, then none until 150 + 50 is passed.
  live = 150;
  step(160);
  assert.equal(collections, 2);
  settle(); // measures 150 live
  for (const b of [160, 180, 199]) step(b);
  assert.equal(collections, 2, 'no collection until the buffers grew by half the bound');
  step(201);
  assert.equal(collections, 3);
  settle();
  // The live set shrank (V8 collected on its own, under the bound): the bound is the bound again.
  live = 10;
  step(50);
  step(101);
  assert.equal(collections, 4);
  bound.stop();
});

test('worker_buffer_bytes 0 turns the bound off', () => {
  let collections = 0;
  const bound = startBufferBound({ maxBytes: 0, arrayBuffers: () => 1e12, collect: () => void collections++, trim: null, checkMs: 1 });
  bound.stop();
  assert.equal(collections, 0);
  assert.equal(bound.collections, 0);
});

test("a collection's buffers freed late (in V8's background) do not raise what the bound takes as live", () => {
  // V8 frees the backing stores of collected Buffers on a background thread: the check right
  // after a collection still counts most of them. A thread whose live set (90) is near the
  // bound (100) and that allocates 15 per check never reads under the bound, so what the bound
  // takes as live decides when it collects again. Taken from that first reading, it grew by
  // what each collection freed, and the buffers with it, without end.
  const LIVE = 90;
  const ALLOC_PER_CHECK = 15;
  /** Checks after a collection until V8 has freed what it collected. */
  const FREE_LAG_CHECKS = 2;
  let garbage = 0;
  const freeing: { at: number; bytes: number }[] = [];
  let checks = 0;
  let collections = 0;
  const { bound, tick } = handDriven({
    maxBytes: 100,
    arrayBuffers: () => {
      garbage += ALLOC_PER_CHECK;
      while (freeing.length > 0 && freeing[0]!.at <= checks) freeing.shift();
      return LIVE + garbage + freeing.reduce((s, f) => s + f.bytes, 0);
    },
    collect: () => {
      collections++;
      freeing.push({ at: checks + FREE_LAG_CHECKS, bytes: garbage });
      garbage = 0;
    },
    trim: null,
  });
  let max = 0;
  const readings: number[] = [];
  for (checks = 0; checks < 300; checks++) {
    tick();
    const now = LIVE + garbage + freeing.reduce((s, f) => s + f.bytes, 0);
    readings.push(now);
    max = Math.max(max, now);
  }
  bound.stop();
  assert.ok(collections > 10, `the bound kept collecting (${collections} collections)`);
  // Live + half the bound, plus what is allocated over the checks that measure a collection's
  // result and the buffers still being freed then: about 90 + 50 + 15 × 6 + 15 × 2.
  assert.ok(max <= 250, `the buffers reached ${max} with 90 live and a bound of 100 (last readings: ${readings.slice(-8).join(', ')})`);
});

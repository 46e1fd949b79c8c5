// The idle collector (src/node/idle-memory.ts, issue 14 item 9): after a burst, an isolate that
// goes idle hands back the heap it grew to; a busy one is left alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import { startIdleCollector } from '../../src/node/idle-memory.js';
import { MALLOC_TUNING_ENV } from '../../src/node/malloc-trim.js';

// Long enough that a scheduling hiccup of a loaded machine (a few ms) does not read as busy.
const CHECK_MS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('an idle thread collects once and its heap shrinks; it does not collect while busy', async () => {
  // A burst: grow the heap by about 150 MB of short-lived objects, then drop them.
  let junk: unknown[] | null = [];
  for (let i = 0; i < 1_500_000; i++) junk.push({ i, s: `doc-${i}` });
  const grown = v8.getHeapStatistics().total_heap_size;
  junk = null;
  const idle = startIdleCollector({ checkMs: CHECK_MS });
  try {
    // Busy: a loop that keeps the event loop utilized above the idle bound for several checks.
    const busyUntil = performance.now() + CHECK_MS * 5;
    while (performance.now() < busyUntil) {
      const t = performance.now();
      while (performance.now() - t < 40) {
        /* spin */
      }
      await sleep(1);
    }
    assert.equal(idle.collections, 0, 'no collection while the thread is busy');
    // Idle for a few checks: exactly one collection, and the heap is smaller than at its peak.
    const deadline = performance.now() + CHECK_MS * 20;
    while (idle.collections === 0 && performance.now() < deadline) await sleep(CHECK_MS);
    assert.equal(idle.collections, 1, 'one collection after the thread went idle');
    const after = v8.getHeapStatistics().total_heap_size;
    assert.ok(after < grown * 0.6, `heap ${Math.round(after / 1e6)} MB after idle, ${Math.round(grown / 1e6)} MB at the peak`);
    await sleep(CHECK_MS * 5);
    assert.equal(idle.collections, 1, 'not again until the thread has been busy');
  } finally {
    idle.stop();
  }
});

/** This process's resident set, MiB (Linux). */
const rssMiB = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
const glibc = typeof (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime === 'string';

test("after a burst of native buffers, an idle thread hands glibc's free memory back to the system", { skip: (!glibc || process.env[MALLOC_TUNING_ENV] === 'off') && 'glibc only, not opted out' }, async () => {
  // A burst: 2,400 buffers of 60 KiB (below glibc's mmap threshold, so from its heap), one in
  // eight kept: the freed ones become holes between live ones, which glibc does not return.
  const BUFFERS = 2_400;
  const BYTES = 60 * 1024;
  const kept: Buffer[] = [];
  let dropped: Buffer[] | null = [];
  for (let i = 0; i < BUFFERS; i++) {
    const b = Buffer.allocUnsafeSlow(BYTES).fill(i & 0xff);
    (i % 8 === 0 ? kept : dropped).push(b);
  }
  const freedMiB = (dropped.length * BYTES) / 1024 / 1024;
  dropped = null;
  const before = rssMiB();
  const idle = startIdleCollector({ checkMs: CHECK_MS });
  try {
    const deadline = performance.now() + CHECK_MS * 20;
    while (idle.trims === 0 && performance.now() < deadline) await sleep(CHECK_MS);
    assert.equal(idle.collections, 1);
    assert.ok(idle.trims >= 1, 'glibc was asked to hand its free pages back');
    const after = rssMiB();
    assert.ok(before - after > freedMiB / 2, `resident ${Math.round(before)} MiB before idle, ${Math.round(after)} MiB after; ${Math.round(freedMiB)} MiB of buffers were freed`);
  } finally {
    idle.stop();
  }
  assert.equal(kept.length, BUFFERS / 8);
});

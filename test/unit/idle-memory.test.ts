// The idle collector (src/node/idle-memory.ts, issue 14 item 9): after a burst, a thread that
// goes quiet hands back the heap it grew to and has glibc return its free pages, soon enough
// after its last busy moment; a busy thread is left alone.
//
// The first two tests drive the collector with a clock: the timers are mocked and the event
// loop's utilization is scripted check by check, so "busy" and "quiet" mean exactly what the
// test says on any machine (the thread's CPU clock is left out: `cpuMs: null`, or scripted
// too). The collections and trims they cause are the real ones.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import { IDLE_CHECK_MS, startIdleCollector } from '../../src/node/idle-memory.js';
import { MALLOC_TUNING_ENV, mallocTrimAvailable } from '../../src/node/malloc-trim.js';
import { isGlibc } from '../../src/cli/relaunch.mjs';

const canTrim = isGlibc() && (process.env[MALLOC_TUNING_ENV] ?? '').toLowerCase() !== 'off';
const BUSY = 0.5;
const QUIET = 0.005;
/** The clock's step: a check's interval is several steps, and a collection's trim comes within one. */
const STEP_MS = 500;

/** Mocked timers and a scripted event loop: `run(ms, u)` lets `ms` pass at utilization `u`. */
function scriptedLoop(): { run(ms: number, u: number, cpu?: number): void; cpuMs(): number; done(): void } {
  let active = 0;
  let idle = 0;
  let cpuMs = 0;
  const elu = (a?: EventLoopUtilization, b?: EventLoopUtilization): EventLoopUtilization => {
    const x = a ?? { active, idle, utilization: 0 };
    const y = b ?? { active: 0, idle: 0, utilization: 0 };
    const [act, idl] = [x.active - y.active, x.idle - y.idle];
    return { active: act, idle: idl, utilization: act + idl > 0 ? act / (act + idl) : 0 };
  };
  mock.timers.enable({ apis: ['setInterval', 'setTimeout'] });
  const m = mock.method(performance, 'eventLoopUtilization', elu);
  return {
    run(ms, u, cpu = u) {
      for (let t = 0; t < ms; t += STEP_MS) {
        active += STEP_MS * u;
        cpuMs += STEP_MS * cpu;
        idle += STEP_MS * (1 - u);
        mock.timers.tick(STEP_MS);
      }
    },
    cpuMs: () => cpuMs,
    done() {
      m.mock.restore();
      mock.timers.reset();
    },
  };
}

test("memory comes back one check after the thread's last busy one, also when work follows the burst", () => {
  // A burst: grow the heap by about 150 MB of short-lived objects, then drop them.
  let junk: unknown[] | null = [];
  for (let i = 0; i < 1_500_000; i++) junk.push({ i, s: `doc-${i}` });
  const grown = v8.getHeapStatistics().total_heap_size;
  junk = null;
  const loop = scriptedLoop();
  const idle = startIdleCollector({ cpuMs: null });
  try {
    loop.run(IDLE_CHECK_MS * 3, BUSY);
    assert.equal(idle.collections, 0, 'no collection while the thread is busy');
    assert.equal(idle.trims, 0, 'no trim while the thread is busy');
    // Quiet for one check: collected, and trimmed shortly after.
    loop.run(IDLE_CHECK_MS + STEP_MS * 2, QUIET);
    assert.equal(idle.collections, 1, 'collected at the first quiet check');
    if (canTrim) assert.equal(idle.trims, 1, 'trimmed after the collection');
    const after = v8.getHeapStatistics().total_heap_size;
    assert.ok(after < grown * 0.6, `heap ${Math.round(after / 1e6)} MB after the collection, ${Math.round(grown / 1e6)} MB at the peak`);
    // The work that follows a burst (the segmenter, 10 s after the writes): one busy check.
    loop.run(IDLE_CHECK_MS - STEP_MS * 2, QUIET);
    loop.run(IDLE_CHECK_MS, BUSY);
    const [collections, trims] = [idle.collections, idle.trims];
    // What that work left is collected and trimmed within a check (and the trim's delay) of it.
    loop.run(IDLE_CHECK_MS + STEP_MS * 2, QUIET);
    assert.equal(idle.collections, collections + 1, 'collected at the first quiet check after the work');
    if (canTrim) assert.equal(idle.trims, trims + 1, 'and trimmed after it');
  } finally {
    idle.stop();
    loop.done();
  }
});

test('a quiet thread collects twice and trims a bounded number of times, then waits until it has been busy', async () => {
  const loop = scriptedLoop();
  const idle = startIdleCollector({ cpuMs: null });
  try {
    loop.run(IDLE_CHECK_MS, BUSY);
    loop.run(IDLE_CHECK_MS, QUIET);
    assert.equal(idle.collections, 1);
    // Dropped after the first collection (a buffer pool that empties itself after a while): the
    // second collection takes it. (A WeakRef holds its target until the current job ends.)
    let late: object | null = { payload: Buffer.alloc(1024) };
    const ref = new WeakRef(late);
    late = null;
    await new Promise((r) => setImmediate(r));
    loop.run(IDLE_CHECK_MS, QUIET);
    assert.equal(idle.collections, 2);
    assert.equal(ref.deref(), undefined, 'what was dropped after the first collection is collected by the second');
    // Quiet for a long time: no more collections, and the trims stop.
    loop.run(IDLE_CHECK_MS * 20, QUIET);
    assert.equal(idle.collections, 2, 'two collections per burst');
    const trims = idle.trims;
    if (canTrim) assert.ok(trims >= 2 && trims <= 10, `a bounded number of trims (${trims})`);
    loop.run(IDLE_CHECK_MS * 20, QUIET);
    assert.equal(idle.trims, trims, 'no trims while the thread stays quiet');
    // A busy check re-arms it.
    loop.run(IDLE_CHECK_MS, BUSY);
    loop.run(IDLE_CHECK_MS, QUIET);
    assert.equal(idle.collections, 3, 'collected again after being busy');
  } finally {
    idle.stop();
    loop.done();
  }
});

test("where the thread's CPU time is known, a thread that used little CPU is quiet though its loop looks busy (a busy machine)", () => {
  // On a machine whose cores are taken, each of an idle thread's wakeups waits for a core and
  // counts as loop activity: traced, 0.6 utilization at 1% of a core.
  const loop = scriptedLoop();
  const idle = startIdleCollector({ cpuMs: loop.cpuMs });
  try {
    loop.run(IDLE_CHECK_MS, BUSY, BUSY);
    assert.equal(idle.collections, 0, 'no collection while the thread used CPU');
    loop.run(IDLE_CHECK_MS, 0.6, 0.01);
    assert.equal(idle.collections, 1, 'collected at the first check in which the thread used 1% of a core');
    // The other way round: a thread computing (half a core) is busy whatever its loop says.
    loop.run(IDLE_CHECK_MS * 2, QUIET, BUSY);
    const collections = idle.collections;
    loop.run(IDLE_CHECK_MS * 3, QUIET, BUSY);
    assert.equal(idle.collections, collections, 'no collection while the thread used half a core');
  } finally {
    idle.stop();
    loop.done();
  }
});

/** This process's resident set, MiB (Linux). */
const rssMiB = () => Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;
// Real timers and the real event loop from here on.
const CHECK_MS = 400;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test("after a burst of native buffers, an idle thread hands glibc's free memory back to the system", { skip: !canTrim && 'glibc only, not opted out' }, async () => {
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
  const idle = startIdleCollector({ checkMs: CHECK_MS, trimDelayMs: CHECK_MS / 2 });
  try {
    const deadline = performance.now() + CHECK_MS * 20;
    while (idle.trims === 0 && performance.now() < deadline) await sleep(CHECK_MS / 4);
    assert.ok(idle.collections >= 1, 'collected');
    assert.ok(idle.trims >= 1, 'glibc was asked to hand its free pages back');
    const after = rssMiB();
    assert.ok(before - after > freedMiB / 2, `resident ${Math.round(before)} MiB before idle, ${Math.round(after)} MiB after; ${Math.round(freedMiB)} MiB of buffers were freed`);
  } finally {
    idle.stop();
  }
  assert.equal(kept.length, BUFFERS / 8);
});

test('LOAM_MALLOC_TUNING=off turns the trim off; on glibc it is on otherwise', () => {
  assert.equal(mallocTrimAvailable(), canTrim);
  const child = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', "import { mallocTrimAvailable } from './src/node/malloc-trim.ts'; console.log(mallocTrimAvailable())"], {
    cwd: new URL('../..', import.meta.url).pathname,
    env: { ...process.env, [MALLOC_TUNING_ENV]: 'off' },
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(child.trim(), 'false');
});

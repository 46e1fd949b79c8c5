// Returning memory when a node goes idle (issue 14 item 9: "returns toward that bound when
// idle"). After a burst of writes each isolate (the main thread and the worker thread) keeps
// the heap it grew to — V8 only shrinks its heap at a garbage collection, and an idle isolate
// allocates nothing, so none comes — and the external Buffers it no longer references stay
// allocated until their wrappers are collected. Measured after 200 clients for 20 s: about
// 190 MiB of V8 pages over the two isolates, of which a full collection frees most. And glibc
// keeps the native memory of a burst resident in holes of its heap until asked to hand it back
// (./malloc-trim.ts).
//
// So each thread watches its own event loop in checks of IDLE_CHECK_MS; a check whose loop
// utilization stayed under IDLE_UTILIZATION_MAX is quiet. Counting the quiet checks since the
// thread was last busy:
//  - at each of the first IDLE_COLLECTIONS it runs a full collection, and TRIM_DELAY_MS later
//    a trim (V8 frees the buffers of collected wrappers on a background thread, after the
//    collection). The first takes what the burst left; the second what was dropped in the
//    seconds after (a build buffer pool empties itself 5 s after the last write);
//  - at each of the next ones, up to IDLE_TRIMS, a trim alone: the other thread may still be
//    finishing its own deferred work (the segmenter runs 10 s after the writes), and any
//    thread's trim returns the free pages of every arena.
// Then nothing until the thread has been busy again.
//
// Where Linux says how much CPU the thread itself used (/proc/thread-self/stat), a check is
// quiet when that stayed under IDLE_UTILIZATION_MAX of a core; only elsewhere by the loop's
// utilization. The loop's utilization counts wall time: every wakeup (a timer, a message)
// is active from the moment the thread gets a core until it waits again, so on a busy machine
// a thread that does almost nothing looks busy — traced after a 60 s load at load average 8,
// the main thread's loop utilization stayed at 0.6 while it used 1% of a core, and its
// memory came back only after the idle node was measured. The first collection comes at the first
// quiet check because the work that follows a burst keeps coming back: traced after 10 s of
// writes, the worker thread (at a lowered priority) was segmenting and compacting 10 to 25 s
// after the last write, busy again right after its first collection, and each busy check
// restarted a schedule that wanted two quiet checks before collecting and a third before
// trimming, so the memory came back 15 s after the work at best, often after the 30 s in which
// an idle node is measured. The pauses (tens of milliseconds) fall when nothing is waiting on
// the thread, by construction, and they are not counted as the thread's activity.
import { readFileSync } from 'node:fs';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { mallocTrim, mallocTrimAvailable } from './malloc-trim.js';

export const IDLE_CHECK_MS = 5_000;
/** The thread's CPU use (share of one core) or, where that is unknown, its event-loop utilization (0–1) under which a check counts as quiet. */
export const IDLE_UTILIZATION_MAX = 0.03;
/** Full collections, one at each of the first quiet checks after a busy one. */
export const IDLE_COLLECTIONS = 2;
/** A collection's trim comes this long after it (V8 frees collected buffers in the background). */
export const TRIM_DELAY_MS = 1_000;
/** The quiet checks after a busy one at which the thread trims (after collecting, at the first ones). */
export const IDLE_TRIMS = 6;

/** Linux's clock tick (USER_HZ), the unit of /proc's CPU times: 100 on every architecture Node runs on. */
const CLOCK_TICK_MS = 10;

/** The CPU time (user + system) this thread used so far, ms, or null where Linux's /proc does not say. */
export function threadCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'utf8');
    // The fields after the command (in parentheses, which may hold spaces): utime and stime are the 12th and 13th.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(f[11]) + Number(f[12]);
    return Number.isFinite(ticks) ? ticks * CLOCK_TICK_MS : null;
  } catch {
    return null;
  }
}

let collect: (() => void) | null | undefined;

/** The engine's full collection, or null where it cannot be had. */
export function fullCollection(): (() => void) | null {
  if (collect !== undefined) return collect;
  try {
    // The documented flag, set at run time: it makes `gc` available to contexts created after it.
    v8.setFlagsFromString('--expose-gc');
    const gc: unknown = vm.runInNewContext('gc');
    collect = typeof gc === 'function' ? () => (gc as () => void)() : null;
  } catch {
    collect = null;
  }
  return collect;
}

export interface IdleCollector {
  /** Full collections run so far. */
  readonly collections: number;
  /** Times glibc was asked to hand its free memory back. */
  readonly trims: number;
  stop(): void;
}

/** Starts watching this thread's event loop; its timers do not keep the process alive. */
export function startIdleCollector(opts: { checkMs?: number; trimDelayMs?: number; cpuMs?: (() => number | null) | null } = {}): IdleCollector {
  const gc = fullCollection();
  const canTrim = mallocTrimAvailable();
  /** The thread's CPU clock (null: measure the loop's utilization instead). */
  const cpu = opts.cpuMs === undefined ? (threadCpuMs() === null ? null : threadCpuMs) : opts.cpuMs;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let lastCpu = cpu?.() ?? null;
  /** Loop time of this collector's own collections and trims since the last check. */
  let ownMs = 0;
  /** Quiet checks since the thread was last busy (it starts armed: starting is a burst). */
  let quiet = 0;
  let delayedTrim: NodeJS.Timeout | undefined;
  const state = { collections: 0, trims: 0 };
  const own = (f: () => void) => {
    const t = performance.now();
    f();
    ownMs += performance.now() - t;
  };
  const trim = () => {
    if (!canTrim) return;
    own(mallocTrim);
    state.trims++;
  };
  const check = () => {
    const now = performance.eventLoopUtilization();
    const total = now.idle + now.active - (last.idle + last.active);
    const nowCpu = cpu?.() ?? null;
    // The collector's own pauses are not the thread's activity (on either clock).
    const busyMs = nowCpu !== null && lastCpu !== null ? nowCpu - lastCpu : now.active - last.active;
    const u = total > 0 ? Math.max(0, busyMs - ownMs) / total : 0;
    last = now;
    lastCpu = nowCpu;
    ownMs = 0;
    if (u >= IDLE_UTILIZATION_MAX) {
      quiet = 0;
      return;
    }
    quiet++;
    if (quiet <= IDLE_COLLECTIONS && gc) {
      own(gc);
      state.collections++;
      clearTimeout(delayedTrim);
      delayedTrim = setTimeout(trim, opts.trimDelayMs ?? TRIM_DELAY_MS);
      delayedTrim.unref();
    } else if (quiet <= IDLE_TRIMS) {
      trim();
    }
  };
  const timer = setInterval(check, opts.checkMs ?? IDLE_CHECK_MS);
  timer.unref();
  return {
    get collections() {
      return state.collections;
    },
    get trims() {
      return state.trims;
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(delayedTrim);
    },
  };
}

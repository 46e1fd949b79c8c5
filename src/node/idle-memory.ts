// Returning memory when a node goes idle (issue 14 item 9: "returns toward that bound when
// idle"). After a burst of writes each isolate (the main thread and the worker thread) keeps
// the heap it grew to — V8 only shrinks its heap at a garbage collection, and an idle isolate
// allocates nothing, so none comes — and the external Buffers it no longer references stay
// allocated until their wrappers are collected. Measured after 200 clients for 20 s: about
// 190 MiB of V8 pages over the two isolates, of which a full collection frees most.
//
// So each thread watches its own event loop: after IDLE_INTERVALS_BEFORE_GC intervals of
// IDLE_CHECK_MS in which its utilization stayed under IDLE_UTILIZATION_MAX, it runs one full
// collection, then not again until it has been busy. The pause (tens of milliseconds) falls
// when nothing is waiting on the thread, by construction. At each of the next IDLE_TRIMS checks,
// while the thread stays idle, glibc is asked to hand its free pages back (./malloc-trim.ts):
// without that, the native memory of a burst stays resident in holes of glibc's heap. Not at
// once: V8 frees the buffers of collected wrappers on a background thread after the collection.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { mallocTrim } from './malloc-trim.js';

export const IDLE_CHECK_MS = 5_000;
/** Event-loop utilization (0–1) under which an interval counts as idle. */
export const IDLE_UTILIZATION_MAX = 0.03;
export const IDLE_INTERVALS_BEFORE_GC = 2;
/**
 * After the collection, a still idle thread asks glibc for its free pages at each of this many
 * checks: the worker thread may still be finishing maintenance and freeing its buffers (any
 * thread's trim covers every arena). A trim of an idle process takes about a millisecond.
 */
export const IDLE_TRIMS = 6;

let collect: (() => void) | null | undefined;

/** The engine's full collection, or null where it cannot be had. */
function collector(): (() => void) | null {
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
  /** Times glibc handed its free memory back (at the checks after a collection, while idle). */
  readonly trims: number;
  stop(): void;
}

/** Starts watching this thread's event loop; the timer does not keep the process alive. */
export function startIdleCollector(opts: { checkMs?: number } = {}): IdleCollector {
  const gc = collector();
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let idleIntervals = 0;
  let collected = false;
  let trimsLeft = 0;
  const state = { collections: 0, trims: 0 };
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const u = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (u >= IDLE_UTILIZATION_MAX) {
      idleIntervals = 0;
      collected = false;
      trimsLeft = 0;
      return;
    }
    if (trimsLeft > 0) {
      trimsLeft--;
      if (mallocTrim()) state.trims++;
      // Like the collection, the trim's own use of the loop is not activity.
      last = performance.eventLoopUtilization();
      return;
    }
    if (++idleIntervals < IDLE_INTERVALS_BEFORE_GC || collected || !gc) return;
    collected = true;
    gc();
    state.collections++;
    trimsLeft = IDLE_TRIMS;
    // The collection itself used the loop: do not count it as activity next time.
    last = performance.eventLoopUtilization();
  }, opts.checkMs ?? IDLE_CHECK_MS);
  timer.unref();
  return {
    get collections() {
      return state.collections;
    },
    get trims() {
      return state.trims;
    },
    stop: () => clearInterval(timer),
  };
}

// Bounding the buffers a busy thread keeps after it is done with them (issue 14 item 9). A
// Buffer's bytes live outside V8's heap and are freed only when its wrapper is collected. V8
// collects on external growth by itself, but late in a thread that keeps allocating: traced at
// 200 clients for 60 s, the worker thread's ArrayBuffers grew from 110 to 260 MiB during one
// compaction whose live buffers (its caches, a block per merged file, the block it builds) are
// under 60 MiB, and fell back at each of V8's own full collections — the node's peak after the
// load. The idle collector (./idle-memory.ts) only runs once the thread is quiet.
//
// So the worker thread checks its ArrayBuffers every BUFFER_CHECK_MS and, past its bound
// (`worker_buffer_bytes`), runs a full collection, then has glibc hand the freed pages back
// (TRIM_DELAY_MS later: V8 frees collected backing stores in the background). A collection
// that leaves more than the bound live (a node configured with caches larger than the bound)
// is not repeated until the buffers grew by half the bound again: the bound then costs one
// collection per half-bound allocated, never a loop. The pause (tens of ms on the worker's
// heap) falls on the worker thread, whose work is off the request path.
//
// What a collection left live is the least of the SETTLE_CHECKS readings after it, not the
// first: V8 frees collected backing stores on a background thread, so the first reading still
// counts much of what was collected. Taken as live, it raised the next collection's threshold
// by what each collection freed, and the bound stopped bounding.
import { fullCollection, TRIM_DELAY_MS } from './idle-memory.js';
import { mallocTrim, mallocTrimAvailable } from './malloc-trim.js';

/** How often the thread looks at its ArrayBuffers (one process.memoryUsage(), microseconds). */
export const BUFFER_CHECK_MS = 100;
/** The checks after a collection over which what it left live is measured (their least reading). */
export const SETTLE_CHECKS = 5;
/**
 * The worker thread's default bound on its ArrayBuffers, live and dead: its live share is its
 * caches (half of cache_bytes, decoded) plus one apply round, segment or merge at a time
 * (docs/operations.md, sizing); 96 MiB leaves room for that at the default cache_bytes.
 */
export const DEFAULT_WORKER_BUFFER_BYTES = 96 * 1024 * 1024;

export interface BufferBound {
  /** Collections the bound ran so far. */
  readonly collections: number;
  stop(): void;
}

export interface BufferBoundOptions {
  /** The bound, bytes; 0 turns it off. */
  maxBytes: number;
  checkMs?: number;
  /** Test hooks: the thread's ArrayBuffer bytes, its full collection, glibc's trim. */
  arrayBuffers?: () => number;
  collect?: (() => void) | null;
  trim?: (() => void) | null;
}

/** Starts bounding this thread's ArrayBuffers; its timers do not keep the process alive. */
export function startBufferBound(o: BufferBoundOptions): BufferBound {
  const state = { collections: 0 };
  const collect = o.collect === undefined ? fullCollection() : o.collect;
  if (o.maxBytes <= 0 || !collect) return { get collections() { return state.collections; }, stop: () => undefined };
  const read = o.arrayBuffers ?? (() => process.memoryUsage().arrayBuffers);
  const trim = o.trim === undefined ? (mallocTrimAvailable() ? mallocTrim : null) : o.trim;
  /** What the last collection left (the least reading of the SETTLE_CHECKS after it). */
  let live = 0;
  /** Checks left in measuring the last collection, and their least reading so far. */
  let settling = 0;
  let least = Infinity;
  let pendingTrim: NodeJS.Timeout | undefined;
  const check = () => {
    const bytes = read();
    if (settling > 0) {
      least = Math.min(least, bytes);
      if (--settling === 0) live = least;
      return;
    }
    if (bytes < o.maxBytes) live = 0; // V8 collected on its own: the bound is the bound again
    if (bytes <= Math.max(o.maxBytes, live + o.maxBytes / 2)) return;
    collect();
    state.collections++;
    settling = SETTLE_CHECKS;
    least = Infinity;
    if (trim && !pendingTrim) {
      pendingTrim = setTimeout(() => {
        pendingTrim = undefined;
        trim();
      }, TRIM_DELAY_MS);
      pendingTrim.unref();
    }
  };
  const timer = setInterval(check, o.checkMs ?? BUFFER_CHECK_MS);
  timer.unref();
  return {
    get collections() {
      return state.collections;
    },
    stop: () => {
      clearInterval(timer);
      clearTimeout(pendingTrim);
    },
  };
}

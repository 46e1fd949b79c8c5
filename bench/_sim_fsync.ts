// The A/B tool of `npm run bench -- remote --sim-group-us N [--sim-block sleep|spin]` (issue 16
// benchmark, lever 1): the embedded backend with synchronous=NORMAL (WAL mode: no fsync at
// COMMIT) and, in place of the fsync, a fixed block of its event loop once per commitWal group
// transaction — asleep (Atomics.wait, as a thread waiting in fsync is) or busy (a spin, as a
// CPU-bound commit is). Run on both sides of the bench alike, it tells what the fsync's own
// behaviour (a thread that sleeps, then wakes) adds to the remote path from what the RPC costs
// with any backend work of that length.
import type { FaultHook } from '../src/meta/faults.js';

/** The longest block the tool accepts, µs: a group's fsync on any disk this bench runs on is far below it. */
export const MAX_SIM_GROUP_US = 100_000;

export type SimBlock = 'sleep' | 'spin';

export interface SimFsync {
  us: number;
  block: SimBlock;
}

/** Parses `--sim-group-us` and `--sim-block`; null when the tool is off (0 µs). */
export function simFsyncOf(us: string | undefined, block: string | undefined): SimFsync | null {
  const n = Number(us ?? 0);
  if (!(Number.isInteger(n) && n >= 0 && n <= MAX_SIM_GROUP_US)) throw new Error(`--sim-group-us must be an integer in [0, ${MAX_SIM_GROUP_US}]`);
  const b = block ?? 'sleep';
  if (b !== 'sleep' && b !== 'spin') throw new Error('--sim-block must be sleep or spin');
  return n === 0 ? null : { us: n, block: b };
}

/**
 * A fault hook that blocks once per group: at the first commitWal BeforeCommit point of a
 * group transaction (a group's calls run synchronously, one after another, so the flag is
 * cleared by a microtask only once the whole group has run).
 */
export function simFsyncHook(sim: SimFsync): FaultHook {
  const cell = new Int32Array(new SharedArrayBuffer(4));
  let inGroup = false;
  return (point, op) => {
    if (point !== 'BeforeCommit' || op !== 'commitWal' || inGroup) return;
    inGroup = true;
    queueMicrotask(() => {
      inGroup = false;
    });
    if (sim.block === 'sleep') {
      Atomics.wait(cell, 0, 0, sim.us / 1000);
      return;
    }
    const end = performance.now() + sim.us / 1000;
    // Bounded by the clock: at most MAX_SIM_GROUP_US.
    while (performance.now() < end);
  };
}

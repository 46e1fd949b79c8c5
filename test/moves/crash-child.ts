// Movers that are killed (SIGKILL) each right after its own move phase completed: the crash
// case of test/moves/moves.test.ts. argv: <location JSON> <cases JSON: [{ ns, to, phase, owner }]>.
// Every case's move runs in this one process and stops after its phase; once all have
// stopped, the process kills itself, so each namespace is left exactly as a mover killed
// after that phase leaves it (one process instead of one per phase: the suite's time).
import { openLocation } from '../harness/backends.js';
import type { ShardedMetaStore } from '../../src/meta/backends/sharded/index.js';

/** The movers must all have stopped by then; past it the child exits 1 and the case fails instead of hanging. */
const CRASH_CHILD_DEADLINE_MS = 60_000;

const [loc, casesArg] = process.argv.slice(2);
setTimeout(() => {
  console.error(`crash-child: not every mover reached its phase within ${CRASH_CHILD_DEADLINE_MS} ms`);
  process.exit(1);
}, CRASH_CHILD_DEADLINE_MS);
const cases = JSON.parse(casesArg!) as { ns: number; to: string; phase: string; owner: string }[];
const store = (await openLocation(JSON.parse(loc!))) as unknown as ShardedMetaStore;
let stopped = 0;
const moves = cases.map((c) =>
  store.moveNamespace(c.ns, c.to, {
    owner: c.owner,
    onProgress: (p) => {
      if (p.phase !== c.phase) return undefined;
      if (++stopped === cases.length) process.kill(process.pid, 'SIGKILL');
      return new Promise<never>(() => {});
    },
  }),
);
// Reaching here means some phase never came (its move ended or failed): the parent sees exit code 1 and fails the case.
const outcomes = await Promise.allSettled(moves);
console.error(`crash-child: ${stopped} of ${cases.length} movers reached their phase: ${outcomes.map((o) => o.status).join(', ')}`);
process.exit(1);

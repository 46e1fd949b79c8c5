// A mover that kills itself (SIGKILL) right after a move phase completed: the crash case of
// test/moves/moves.test.ts. argv: <location JSON> <ns> <to shard> <phase> <owner>.
import { openLocation } from '../harness/backends.js';
import type { ShardedMetaStore } from '../../src/meta/backends/sharded/index.js';

const [loc, ns, to, phase, owner] = process.argv.slice(2);
const store = (await openLocation(JSON.parse(loc!))) as unknown as ShardedMetaStore;
await store.moveNamespace(Number(ns), to!, {
  owner: owner!,
  onProgress: (p) => {
    if (p.phase === phase) process.kill(process.pid, 'SIGKILL');
  },
});
// Reaching here means the phase never came: the parent sees exit code 0 and fails the case.
process.exit(0);

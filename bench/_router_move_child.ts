// The mover of bench/_router_move.ts, in its own process as `loam namespaces move` would be:
//   node --import tsx bench/_router_move_child.ts <dir> <ns> <to> <FULL|NORMAL>
// prints one JSON line: the move's time and its span on the wall clock, the time from the fence to the unfence, the rows
// pre-copied, the rows the catch-up copied before the fence and the rows the fenced delta copied.
// openMoveCluster is the figure's cluster: two embedded shards and the directory, as files in <dir>.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { directoryOn } from '../src/control/directory/index.js';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { openSharded, type ShardedMetaStore } from '../src/meta/backends/sharded/index.js';

/** Shards of the moving figure's cluster. */
export const MOVE_SHARDS = 2;

export async function openMoveCluster(dir: string, synchronous: 'FULL' | 'NORMAL'): Promise<{ store: ShardedMetaStore; close(): Promise<void> }> {
  const shards = Array.from({ length: MOVE_SHARDS }, (_, i) => openEmbedded({ path: join(dir, `m-s${i}.db`), synchronous }));
  const dirMeta = openEmbedded({ path: join(dir, 'm-directory.db'), synchronous });
  const directory = await directoryOn({ kind: 'sqlite', db: dirMeta.db });
  const store = await openSharded({
    directory: {
      store: directory,
      connection: { kind: 'sqlite', db: dirMeta.db },
      close: async () => {
        await directory.close();
        await dirMeta.close();
      },
    },
    shards: shards.map((s, i) => ({ name: `s${i}`, identity: `sqlite:${join(dir, `m-s${i}.db`)}`, store: s })),
    follow: false,
  });
  return {
    store,
    async close() {
      await store.close();
      for (const s of shards) await s.close();
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [dir, ns, to, synchronous] = process.argv.slice(2);
  const c = await openMoveCluster(dir!, synchronous as 'FULL' | 'NORMAL');
  const at: Record<string, number> = {};
  // The move's span on the wall clock the parent's writers share (this process's startup is not the move).
  const startedAt = Date.now();
  const r = await c.store.moveNamespace(Number(ns), to!, { onProgress: (p) => void (at[p.phase] = p.ms) });
  const doneAt = Date.now();
  if (process.env.LOAM_BENCH_MOVE_PHASES) console.error(JSON.stringify(at));
  // From the end of "synced" (the fence starts then) to the end of "unfenced": the window writes wait in.
  console.log(
    JSON.stringify({ ms: r.ms, startedAt, doneAt, fencedMs: (at.unfenced ?? 0) - (at.synced ?? 0), rows: r.counts?.rows ?? 0, caughtUp: r.counts?.caughtUp ?? 0, changed: r.counts?.changed ?? 0 }),
  );
  await c.close();
}

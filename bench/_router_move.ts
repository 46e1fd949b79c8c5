// The router bench's move figures (spec §5.5, issue 15; listed in bench/router.ts FIGURES):
//   move_write_pause_p99_ms  the longest pause a writing client sees while its namespace moves:
//                            a namespace of MOVE_COLLECTIONS collections (each with its log
//                            entries, pointer, history and manifest reference: about 8 rows a
//                            collection) moves between embedded shards MOVE_ROUNDS times while
//                            MOVE_WRITERS clients commitWal to it through the sharded store and
//                            the node's retry policy (metaClient). Per move, the longest write
//                            latency of the writes that overlap the move (from the mover's call
//                            to its return, on the wall clock both processes share); the figure
//                            is the p99 of those (with few rounds, their maximum). Also each
//                            round's longest write overall (round_pauses_ms), which adds the
//                            mover process's start and exit. Baseline: the p99 write latency of
//                            the same writers with no move, in the same run. Target ≤ 50 ms.
//   move_writes_failed       writes that failed during the moves. Must be 0.
// The mover runs in its own process (as `loam namespaces move` does), on the same files.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { metaClient } from '../src/meta/client.js';
import type { MetaStore } from '../src/meta/index.js';
import { pct, round } from './_stats.js';
import type { RouterFigure, RouterOptions } from './_router_types.js';

/** Collections in the moving namespace (the issue's "1,000 collections' worth of rows"). */
export const MOVE_COLLECTIONS = 1_000;
/** Moves measured (back and forth between two shards). */
export const MOVE_ROUNDS = 5;
/** Clients writing to the namespace throughout. */
export const MOVE_WRITERS = 4;
/** Writes measured with no move, per writer, for the baseline. */
const BASELINE_MS = 1_000;
const CHILD = fileURLToPath(new URL('./_router_move_child.ts', import.meta.url));

function line(metric: string, value: number, unit: string, extra: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'router', metric, value: round(value, 3), unit, ...extra }));
}

interface Writers {
  lat: number[];
  /** Each write's start on the wall clock (ms since the epoch), beside its latency. */
  startedAt: number[];
  failed: number;
  errors: string[];
  stop(): Promise<void>;
}

/** MOVE_WRITERS loops of commitWal to the namespace's collections (one chunk each), until stopped. */
function writers(client: MetaStore, ns: number, streams: number[], tag: string): Writers {
  let stop = false;
  let seq = 0;
  const out: Writers = {
    lat: [],
    startedAt: [],
    failed: 0,
    errors: [],
    stop: async () => {
      stop = true;
      await loops;
    },
  };
  const loops = Promise.all(
    Array.from({ length: MOVE_WRITERS }, async (_, w) => {
      while (!stop) {
        const n = seq++;
        const stream = streams[(w * 7919 + n) % streams.length]!;
        const t0 = performance.now();
        const wall = Date.now();
        try {
          await client.commitWal({ object: `wal/${tag}/${n}`, objectStamp: Date.now(), chunks: [{ ns, stream, partition: 0, records: 1, byteStart: 0, byteEnd: 100 }] });
          out.lat.push(performance.now() - t0);
          out.startedAt.push(wall);
        } catch (e) {
          out.failed++;
          if (out.errors.length < 5) out.errors.push((e as Error).message);
        }
        // An embedded shard answers without waiting on I/O: give other work its turn.
        await new Promise((r) => setImmediate(r));
      }
    }),
  );
  return out;
}

interface MoveRun {
  ms: number;
  startedAt: number;
  doneAt: number;
  fencedMs: number;
  rows: number;
  caughtUp: number;
  changed: number;
}

/** Runs one move in a child process; resolves with its report. */
function moveInChild(dir: string, ns: number, to: string, synchronous: string): Promise<MoveRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, dir, String(ns), to, synchronous], { stdio: ['ignore', 'pipe', 'inherit'] });
    let outText = '';
    child.stdout.on('data', (d: Buffer) => (outText += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`the mover exited with ${code}`));
      resolve(JSON.parse(outText.trim().split('\n').pop()!) as MoveRun);
    });
  });
}

export const movePause: RouterFigure = {
  name: 'move_write_pause_p99_ms',
  async run(o: RouterOptions) {
    const { openMoveCluster } = await import('./_router_move_child.js');
    const cluster = await openMoveCluster(o.dir, o.synchronous);
    const store = cluster.store;
    try {
      const ns = await store.createNamespace({ org: 'bench', name: 'moving' });
      const streams: number[] = [];
      // The namespace's rows: a collection, its implicit stream and link, a commit (head,
      // index entry), a pointer with its history and its manifest's reference row.
      for (let i = 0; i < MOVE_COLLECTIONS; i++) {
        const c = await store.createCollection({ ns: ns.id, name: `c${String(i).padStart(4, '0')}`, schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
        await store.commitWal({ object: `wal/setup/${i}`, objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 100 }] });
        await store.casPointer(ns.id, `link/${c.linkId}`, null, `ns/${ns.id}/c/${c.id}/manifest-1`);
        streams.push(c.streamId);
      }
      const client = metaClient(store);
      const base = writers(client, ns.id, streams, 'base');
      await new Promise((r) => setTimeout(r, BASELINE_MS));
      await base.stop();

      const router = (store as unknown as { router: { reload(ns: number): Promise<{ shard: string }>; shards: readonly { name: string }[] } }).router;
      const home = (await router.reload(ns.id)).shard;
      const other = router.shards.find((s) => s.name !== home)!.name;
      const pauses: number[] = [];
      const roundPauses: number[] = [];
      const moves: MoveRun[] = [];
      let failed = 0;
      const errors: string[] = [];
      for (let r = 0; r < MOVE_ROUNDS; r++) {
        const to = r % 2 === 0 ? other : home;
        const w = writers(client, ns.id, streams, `m${r}`);
        await new Promise((res) => setTimeout(res, 100));
        moves.push(await moveInChild(o.dir, ns.id, to, o.synchronous));
        await new Promise((res) => setTimeout(res, 100));
        await w.stop();
        const m = moves[moves.length - 1]!;
        // A write overlaps the move if it ended after the move began and began before it ended.
        pauses.push(Math.max(0, ...w.lat.filter((l, i) => w.startedAt[i]! + l >= m.startedAt && w.startedAt[i]! <= m.doneAt)));
        roundPauses.push(Math.max(...w.lat));
        failed += w.failed;
        errors.push(...w.errors);
      }
      const backend = `sharded(embedded, synchronous=${o.synchronous})`;
      line('move_write_pause_p99_ms', pct(pauses, 99), 'ms', {
        backend,
        target: 50,
        collections: MOVE_COLLECTIONS,
        rows: moves[0]!.rows,
        caught_up_rows_median: pct(moves.map((m) => m.caughtUp), 50),
        delta_rows_median: pct(moves.map((m) => m.changed), 50),
        rounds: MOVE_ROUNDS,
        writers: MOVE_WRITERS,
        pauses_ms: pauses.map((p) => round(p, 1)),
        round_pauses_ms: roundPauses.map((p) => round(p, 1)),
        fence_to_unfence_ms_median: round(pct(moves.map((m) => m.fencedMs), 50), 1),
        move_ms_median: round(pct(moves.map((m) => m.ms), 50), 1),
        baseline: round(pct(base.lat, 99), 3),
        ratio: round(pct(pauses, 99) / pct(base.lat, 99), 3),
      });
      line('move_writes_failed', failed, 'writes', { backend, target: 0, rounds: MOVE_ROUNDS, ...(errors.length ? { errors } : {}), baseline_failed: base.failed });
    } finally {
      await cluster.close();
    }
  },
};


// `npm run bench -- router [--seconds N] [--synchronous FULL|NORMAL] [--large] [--only <figure>]`
//
// The namespace router's figures (spec §5, issue 15), each with a baseline from the same run:
//   sharded_commitWal_ratio  commitWal/s through ShardedMetaStore over 4 embedded shards ÷ the
//                            same load direct on one embedded store with the same namespaces
//                            (one namespace per WAL object, round robin over namespaces on all
//                            shards, 4 writers). Target ≥ 0.9. Also the same for WAL objects
//                            spanning a namespace on every shard (commitWal split by shard).
//   list_page_p99_ms         one 1,000-item page of an org's namespaces merged across 4 shards,
//                            at 100,000 namespaces (--large: 1,000,000), every page of the
//                            listing walked twice after one warm-up page; the baseline is
//                            the same pages from one store holding every namespace. Also
//                            each page's CPU time. Target ≤ 10 ms.
//   move_write_pause_p99_ms  the longest pause writers see while their namespace (1,000
//   move_writes_failed       collections) moves between shards, and the writes that failed
//                            (bench/_router_move.ts). Targets ≤ 50 ms and 0.
//
// Adding a figure (e.g. move_write_pause_p99_ms, from the namespace moves work): write a
// RouterFigure (bench/_router_<name>.ts exporting one), and list it in FIGURES below.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { openEmbedded, type EmbeddedMetaStore } from '../src/meta/backends/embedded/index.js';
import { openSharded } from '../src/meta/backends/sharded/index.js';
import { directoryOn } from '../src/control/directory/index.js';
import type { MetaStore, WalChunk } from '../src/meta/index.js';
import { median, pct, round, timed, type Sample } from './_stats.js';
import { movePause } from './_router_move.js';
import type { RouterFigure, RouterOptions } from './_router_types.js';


/** Shards of every sharded store here. */
const SHARDS = 4;
/** Namespaces the commitWal load spreads over (every shard gets some). */
const WRITE_NAMESPACES = 16;
const PARTITIONS = 4;
const WRITERS = 4;
const ROUNDS = 3;
/** list_page_p99_ms: namespaces in the org, and the page size (spec §5.4's largest). */
const LIST_NAMESPACES = 100_000;
const LIST_NAMESPACES_LARGE = 1_000_000;
const PAGE = 1_000;
/** Passes over the whole listing. */
const LIST_PASSES = 2;
/** Rows per bulk-load transaction. */
const LOAD_BATCH = 50_000;

function line(metric: string, value: number, unit: string, extra: Record<string, unknown>): void {
  console.log(JSON.stringify({ bench: 'router', metric, value: round(value, 3), unit, ...extra }));
}

/** A sharded store over `n` embedded shards in `dir` (and the directory beside a 5th file). */
async function sharded(dir: string, n: number, synchronous: 'FULL' | 'NORMAL', tag: string): Promise<{ store: MetaStore; shards: EmbeddedMetaStore[] }> {
  const shards = Array.from({ length: n }, (_, i) => openEmbedded({ path: join(dir, `${tag}-s${i}.db`), synchronous }));
  const dirMeta = openEmbedded({ path: join(dir, `${tag}-directory.db`), synchronous });
  const directory = await directoryOn({ kind: 'sqlite', db: dirMeta.db });
  const store = await openSharded({
    directory: { store: directory, connection: { kind: 'sqlite', db: dirMeta.db }, close: async () => { await directory.close(); await dirMeta.close(); } },
    shards: shards.map((s, i) => ({ name: `s${i}`, identity: `sqlite:${join(dir, `${tag}-s${i}.db`)}`, store: s })),
    follow: false,
  });
  return { store, shards };
}

const commitWalRatio: RouterFigure = {
  name: 'sharded_commitWal_ratio',
  async run(o) {
    const sh = await sharded(o.dir, SHARDS, o.synchronous, 'w');
    const one = openEmbedded({ path: join(o.dir, 'w-one.db'), synchronous: o.synchronous });
    try {
      // The same namespaces (names, so the same placement) and collections on both.
      const nsS: { ns: number; stream: number; shard: string }[] = [];
      const nsO: { ns: number; stream: number }[] = [];
      const router = (sh.store as unknown as { router: { entry(ns: number): Promise<{ shard: string }> } }).router;
      for (let i = 0; i < WRITE_NAMESPACES; i++) {
        const a = await sh.store.createNamespace({ org: 'bench', name: `w${i}` });
        const ca = await sh.store.createCollection({ ns: a.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: PARTITIONS });
        nsS.push({ ns: a.id, stream: ca.streamId, shard: (await router.entry(a.id)).shard });
        const b = await one.createNamespace({ org: 'bench', name: `w${i}` });
        const cb = await one.createCollection({ ns: b.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: PARTITIONS });
        nsO.push({ ns: b.id, stream: cb.streamId });
      }
      const onShards = new Set(nsS.map((x) => x.shard)).size;
      const objectStamp = Date.now();
      const chunksOf = (xs: { ns: number; stream: number }[]): WalChunk[] =>
        xs.flatMap((x, k) => Array.from({ length: PARTITIONS }, (_, p) => ({ ns: x.ns, stream: x.stream, partition: p, records: 10, byteStart: (k * PARTITIONS + p) * 100, byteEnd: (k * PARTITIONS + p) * 100 + 100 })));
      // One namespace per object, round robin; and objects with one namespace of every shard.
      const spanS = [...new Map(nsS.map((x) => [x.shard, x])).values()];
      const spanO = spanS.map((x) => nsO[nsS.indexOf(x)]!);
      const cases = [
        { metric: 'sharded_commitWal', a: (i: number) => sh.store.commitWal({ object: `wal/s/${i}`, objectStamp, chunks: chunksOf([nsS[i % WRITE_NAMESPACES]!]) }), b: (i: number) => one.commitWal({ object: `wal/o/${i}`, objectStamp, chunks: chunksOf([nsO[i % WRITE_NAMESPACES]!]) }) },
        { metric: 'sharded_commitWal_spanning', a: (i: number) => sh.store.commitWal({ object: `wal/ss/${i}`, objectStamp, chunks: chunksOf(spanS) }), b: (i: number) => one.commitWal({ object: `wal/os/${i}`, objectStamp, chunks: chunksOf(spanO) }) },
      ];
      let off = 0;
      for (const c of cases) {
        const as: Sample[] = [];
        const bs: Sample[] = [];
        for (let r = 0; r < ROUNDS; r++, off += 1_000_000) {
          as.push(await timed(o.seconds, (i) => c.a(off + i), WRITERS));
          bs.push(await timed(o.seconds, (i) => c.b(off + i), WRITERS));
        }
        const a = median(as);
        const b = median(bs);
        const backend = `sharded(${SHARDS}× embedded, synchronous=${o.synchronous}) vs embedded`;
        line(`${c.metric}_per_s`, a.rate, 'ops/s', { backend, baseline: round(b.rate), ratio: round(a.rate / b.rate, 3), namespaces: WRITE_NAMESPACES, on_shards: onShards, writers: WRITERS });
        line(`${c.metric}_ratio`, a.rate / b.rate, 'ratio', { backend, target: c.metric === 'sharded_commitWal' ? 0.9 : null, p99_ms: round(pct(a.lat, 99)), baseline_p99_ms: round(pct(b.lat, 99)) });
      }
    } finally {
      await sh.store.close();
      await one.close();
    }
  },
};

/** Bulk-loads namespaces org/n000000… straight into SQLite (setup only: the figure is the list). */
function load(stores: EmbeddedMetaStore[], count: number, place: (i: number) => number): void {
  const stmts = stores.map((s) => s.db.prepare("INSERT INTO namespaces (id, org, name, state, created) VALUES (?, 'bench', ?, 'live', 0)"));
  for (let lo = 0; lo < count; lo += LOAD_BATCH) {
    for (const s of stores) s.db.exec('BEGIN');
    for (let i = lo; i < Math.min(count, lo + LOAD_BATCH); i++) stmts[place(i)]!.run(i + 1, `n${String(i).padStart(7, '0')}`);
    for (const s of stores) s.db.exec('COMMIT');
  }
}

/** Every page of the listing: each page's wall time and this process's CPU time for it (ms). */
async function walk(store: MetaStore): Promise<{ lat: number[]; cpu: number[] }> {
  const lat: number[] = [];
  const cpu: number[] = [];
  let after: string | undefined;
  for (let page = 0; page < LIST_NAMESPACES_LARGE / PAGE + 1; page++) {
    const c = process.cpuUsage();
    const t = performance.now();
    const p = await store.listNamespaces('bench', { limit: PAGE, ...(after ? { after } : {}) });
    lat.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpu.push((used.user + used.system) / 1000);
    if (!p.next) break;
    after = p.next;
  }
  return { lat, cpu };
}

/** The first page alone (the warm-up): its wall time. */
async function walkFirst(store: MetaStore): Promise<number> {
  const t = performance.now();
  await store.listNamespaces('bench', { limit: PAGE });
  return performance.now() - t;
}

const listPageP99: RouterFigure = {
  name: 'list_page_p99_ms',
  async run(o) {
    const count = o.large ? LIST_NAMESPACES_LARGE : LIST_NAMESPACES;
    const sh = await sharded(o.dir, SHARDS, 'NORMAL', 'l');
    const one = openEmbedded({ path: join(o.dir, 'l-one.db'), synchronous: 'NORMAL' });
    try {
      // Placement as the router's hash would spread names: every shard a quarter.
      load(sh.shards, count, (i) => i % SHARDS);
      load([one], count, () => 0);
      // One page of each first, not counted: it prepares the statements and compiles the code
      // (5-10 ms of CPU once per process); the figure is a serving node's steady state.
      const warm = { sharded: (await walkFirst(sh.store)), one: (await walkFirst(one)) };
      const a: number[] = [];
      const b: number[] = [];
      const cpu: number[] = [];
      for (let pass = 0; pass < LIST_PASSES; pass++) {
        const w = await walk(sh.store);
        a.push(...w.lat);
        cpu.push(...w.cpu);
        b.push(...(await walk(one)).lat);
      }
      const pages = a.length / LIST_PASSES;
      line('list_page_p99_ms', pct(a, 99), 'ms', {
        backend: `sharded(${SHARDS}× embedded)`,
        target: 10,
        namespaces: count,
        page: PAGE,
        pages,
        p50_ms: round(pct(a, 50)),
        // CPU time of this process per page: the router's and SQLite's own cost, which the machine's load does not stretch.
        cpu_p50_ms: round(pct(cpu, 50)),
        cpu_p99_ms: round(pct(cpu, 99)),
        first_page_ms: round(warm.sharded),
        baseline: round(pct(b, 99), 3),
        baseline_p50_ms: round(pct(b, 50)),
        baseline_first_page_ms: round(warm.one),
        ratio: round(pct(a, 99) / pct(b, 99), 3),
      });
    } finally {
      await sh.store.close();
      await one.close();
    }
  },
};

/** Every figure of the router bench, in order (the moves work adds move_write_pause_p99_ms here). */
export const FIGURES: RouterFigure[] = [commitWalRatio, listPageP99, movePause];

export async function main(argv: string[]): Promise<void> {
  const opts = new Command('bench router')
    .description("the namespace router's figures, each with a baseline from the same run")
    .option('--seconds <n>', 'time budget per round of a rate', '1.5')
    .option('--synchronous <mode>', 'SQLite synchronous setting of the commitWal figure: FULL (default, durable) or NORMAL', 'FULL')
    .option('--large', `list_page_p99_ms at ${LIST_NAMESPACES_LARGE.toLocaleString('en')} namespaces instead of ${LIST_NAMESPACES.toLocaleString('en')}`)
    .option('--only <figure>', `one figure: ${FIGURES.map((f) => f.name).join(', ')}`)
    .parse(argv, { from: 'user' })
    .opts<{ seconds: string; synchronous: string; large?: boolean; only?: string }>();
  const seconds = Number(opts.seconds);
  if (!(seconds > 0 && seconds <= 60)) throw new Error('--seconds must be in (0, 60]');
  if (opts.synchronous !== 'FULL' && opts.synchronous !== 'NORMAL') throw new Error('--synchronous must be FULL or NORMAL');
  const figures = opts.only ? FIGURES.filter((f) => f.name === opts.only) : FIGURES;
  if (figures.length === 0) throw new Error(`--only: no figure ${opts.only} (${FIGURES.map((f) => f.name).join(', ')})`);
  for (const f of figures) {
    const dir = mkdtempSync(join(tmpdir(), 'loam-bench-router-'));
    try {
      await f.run({ seconds, synchronous: opts.synchronous, large: opts.large === true, dir });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

// The node-side figures of `npm run bench -- scale` (issue 17): what one node costs as the
// catalog grows, with no traffic and under a small load. For each N:
//
//   setup        N namespaces with one collection each, created through the metastore API
//                (createNamespace + createCollection on a sharded metastore over SHARDS
//                embedded shards; the node's own URL, so the same directory and shards), in
//                concurrent batches: the fastest path the contract allows. Printed as
//                setup_s and setup_namespaces_per_s.
//   ready_s      a node (roles log, query, worker; a child process) from spawn to /readyz 200.
//   feed_catch_up_s  from /readyz until the node's worker has read the catalog feed to its
//                head: its changesSince calls fall to at most CAUGHT_UP_CALLS_PER_S. The feed
//                keeps every change younger than an hour (core/feed.ts), so right after the
//                setup it holds two changes per namespace, which a starting worker reads
//                from version 0 (src/workers/scheduler.ts discover): a start cost that grows
//                with the catalog changes of the last hour, printed apart from the idle figures.
//   idle_meta_calls_per_s  the node's metastore calls (every MetaStore call of the HTTP
//                thread and the worker thread, from loam_meta_call_duration_seconds_count
//                at /metrics) over IDLE_SECONDS with no traffic, after IDLE_SETTLE_S.
//   idle_cpu_s_per_min     the node process's CPU (user + system, /proc) over the same window.
//   node_rss_mb  the node's resident memory after a mixed load touching TOUCHED namespaces
//                (one write and one strong read in each).
//   write_p99_ms, strong_read_p99_ms  OPS sequential one-document writes, paced one per
//                WRITE_PACE_MS at most (so each measures a write's latency, not a queue behind
//                the one before), then OPS strong point reads, on one namespace (the p99 of each).
//   write_path   where the timed writes' time went, from the node's histograms over them: the WAL
//                object's PUT and its commit (loam_wal_flush_duration_seconds) and the HTTP
//                request (loam_http_request_duration_seconds): per phase the count, the mean and
//                how many took over SLOW_S (a bucket bound).
//   worker_errors  the node's worker task errors over the whole run (loam_worker_errors_total).
//
// --reuse <dir> keeps each size's set-up catalog in <dir>/n<N> and uses it again on the next
// run (its catalog.json and the metastore must agree on the namespace count): the 1,000,000
// setup takes about 12 minutes. A reused catalog has seen earlier runs' writes, which upsert
// the same document ids again.
//
// Every figure carries the load average (these machines are shared and noisy) and, where one
// exists, the same-run baseline: the write/read figures carry the N = smallest run's p99 as
// their ratio base (the target is a ratio across N, issue 17).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { MALLOC_TUNING } from '../src/cli/relaunch.mjs';
import { openMetastore } from '../src/node/backends.js';
import { createNamespacesWith } from '../src/meta/core/bulk.js';
import { MAX_BULK_NAMESPACES } from '../src/meta/limits.js';
import { pct, round } from './_stats.js';
import type { ScaleFigure, ScaleNodeKnobs } from './_scale_types.js';

/** Metastore shards of the scale figures (issue 17: 4 embedded shards). */
export const SHARDS = 4;
/** Namespaces per bulk create call (at most the contract's MAX_BULK_NAMESPACES). */
export const CREATE_BATCH = MAX_BULK_NAMESPACES;
/** The idle window. */
export const IDLE_SECONDS = 30;
/** Scrapes of the node's metrics in the idle window: one every this many ms. */
export const IDLE_SAMPLE_MS = 3_000;
/** The node has caught up with the feed once its changesSince calls are at most this rate over CATCH_UP_WINDOW_MS. */
export const CAUGHT_UP_CALLS_PER_S = 2;
export const CATCH_UP_WINDOW_MS = 3_000;
/** Seconds after the catch-up before the idle window opens (start-up work settles). */
export const IDLE_SETTLE_S = 5;
/** Namespaces the mixed load touches before node_rss_mb. */
export const TOUCHED = 1_000;
/** Writes and strong reads timed on one namespace (3,000: the p99 is 30 of them, not 3). */
export const OPS = 3_000;
/** A timed write starts at most this often (start to start): the writes are paced, not queued. */
export const WRITE_PACE_MS = 20;
/** How long the node may take to start (setup is done before it starts). */
export const READY_DEADLINE_MS = 600_000;
/** One HTTP request's deadline. */
export const REQUEST_DEADLINE_MS = 30_000;

const ROOT = new URL('..', import.meta.url).pathname;

export interface ScaleNodeOptions extends ScaleNodeKnobs {
  sizes: readonly number[];
  /** Prints one JSON line. */
  line: (metric: string, value: number, unit: string, extra: Record<string, unknown>) => void;
}

/**
 * The node figures as bench/scale.ts runs them (after the placement figures): one producer,
 * since every figure of a size shares its setup. LOAM_SCALE_IDLE_S shortens the idle window.
 */
export const NODE_FIGURES: ScaleFigure[] = [
  {
    name: 'node',
    run: (o) =>
      scaleNodeFigures({
        sizes: o.sizes,
        idleSeconds: o.node?.idleSeconds ?? Number(process.env.LOAM_SCALE_IDLE_S ?? IDLE_SECONDS),
        touched: o.node?.touched ?? TOUCHED,
        ops: o.node?.ops ?? OPS,
        ...(o.node?.reuse !== undefined ? { reuse: o.node.reuse } : {}),
        line: (metric, value, unit, extra) => {
          const { namespaces, ...rest } = extra as { namespaces: number };
          o.line(metric, namespaces, value, unit, rest);
        },
      }),
  },
];

function shardedUrl(dir: string): string {
  return `sharded:${JSON.stringify({ shards: Array.from({ length: SHARDS }, (_, i) => `sqlite:${join(dir, `s${i}.db`)}?synchronous=NORMAL`), directory: `sqlite:${join(dir, "directory.db")}?synchronous=NORMAL` })}`;
}

function nsName(i: number): string {
  return `n${String(i).padStart(7, '0')}`;
}

/**
 * Creates namespaces n0000000… with one collection "docs" each, by the metastore's bulk
 * create (contract: createNamespaces; on the sharded store one directory transaction per
 * batch for the names and ids, one per shard for the rows), CREATE_BATCH namespaces a call.
 * Returns the seconds it took.
 */
export async function createCatalog(url: string, n: number): Promise<number> {
  const { meta } = await openMetastore(url);
  const t0 = performance.now();
  try {
    for (let lo = 0; lo < n; lo += CREATE_BATCH) {
      const reqs = Array.from({ length: Math.min(CREATE_BATCH, n - lo) }, (_, k) => ({
        org: 'default',
        name: nsName(lo + k),
        collections: [{ name: 'docs', schema: { primaryKey: 'id', fields: { id: 'string' as const } }, partitions: 1 }],
      }));
      await createNamespacesWith(meta, reqs);
    }
  } finally {
    await meta.close();
  }
  return (performance.now() - t0) / 1000;
}

interface Child {
  proc: ChildProcess;
  /** The process that serves (holds the listening socket): what CPU and RSS are read from. */
  pid: number;
  port: number;
  metricsUrl: string;
  exited: Promise<number | null>;
}

function startChild(dir: string, url: string): Promise<Child> {
  const objects = join(dir, 'objects');
  mkdirSync(objects, { recursive: true });
  const cfg = join(dir, 'node.json');
  writeFileSync(cfg, JSON.stringify({ metastore: url, store: pathToFileURL(objects).href, host: '127.0.0.1', port: 0, metrics_port: 0, log_level: 'warn', roles: ['log', 'query', 'worker'] }));
  // With the allocator variables already set the launcher runs the server in this very
  // process instead of starting it again (src/cli/relaunch.mjs), so the pid measured is the
  // server's, with the environment a relaunched server has.
  const env = { ...process.env, ...MALLOC_TUNING };
  const proc = spawn(process.execPath, [join(ROOT, 'src/cli/loam.mjs'), 'serve', '--config', cfg], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  let out = '';
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the node did not print its address in time')), READY_DEADLINE_MS);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening: http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      const metrics = /metrics: +(http:\/\/\S+)/.exec(out);
      if (m && metrics) {
        clearTimeout(t);
        const port = Number(m[1]);
        try {
          resolve({ proc, pid: servingPid(proc.pid!, port), port, metricsUrl: metrics[1]!, exited });
        } catch (e) {
          reject(e as Error);
        }
      }
    });
    void exited.then((c) => reject(new Error(`the node exited with ${c}`)));
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

function request(port: number, method: string, path: string, body?: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent, timeout: REQUEST_DEADLINE_MS, headers: body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('request deadline passed')));
    req.on('error', reject);
    req.end(body);
  });
}

async function getText(url: string): Promise<string> {
  const r = await fetch(url, { signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
  return r.text();
}

/** Scrapes metaCalls tries for one with the worker thread's part (it answers a scrape within 2 s, or is left out). */
export const SCRAPE_ATTEMPTS = 5;

/**
 * Every metastore call the node made so far (both threads), by call; `thread` says whether the
 * worker thread's counts are in (only it takes leases). A thread too busy to answer a scrape
 * is left out of it by the node, so a scrape without it is tried again, SCRAPE_ATTEMPTS times.
 */
export async function metaCalls(metricsUrl: string): Promise<{ by: Map<string, number>; thread: boolean }> {
  let best: { by: Map<string, number>; thread: boolean } = { by: new Map(), thread: false };
  for (let attempt = 0; attempt < SCRAPE_ATTEMPTS && !best.thread; attempt++) {
    const text = await getText(metricsUrl);
    const by = new Map<string, number>();
    for (const m of text.matchAll(/^loam_meta_call_duration_seconds_count\{([^}]*)\} (\d+(?:\.\d+)?)/gm)) {
      const call = /call="([^"]+)"/.exec(m[1]!)?.[1] ?? '?';
      by.set(call, (by.get(call) ?? 0) + Number(m[2]));
    }
    const thread = (by.get('acquireLease') ?? 0) + (by.get('renewLease') ?? 0) > 0;
    if (thread || total(by) > total(best.by)) best = { by, thread };
  }
  return best;
}

function total(m: Map<string, number>): number {
  let t = 0;
  for (const v of m.values()) t += v;
  return t;
}

/** The pid and every descendant of it (Linux: /proc/<pid>/task/<tid>/children). */
function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length && out.length < MAX_TREE; i++) {
    let tasks: string[] = [];
    try {
      tasks = readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue; // exited
    }
    for (const t of tasks) {
      try {
        for (const c of readFileSync(`/proc/${out[i]}/task/${t}/children`, 'utf8').split(' ')) if (c.trim()) out.push(Number(c));
      } catch {
        // the task ended meanwhile
      }
    }
  }
  return out;
}

/** Processes of one node's tree looked at, at most (the launcher and the server: 2). */
const MAX_TREE = 16;

/**
 * The process of `root`'s tree that holds the socket listening on `port` (Linux: the socket's
 * inode from /proc/net/tcp{,6}, found among each process's descriptors). The figures are read
 * from it, never from a launcher that only waits for its child.
 */
export function servingPid(root: number, port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const f of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(f, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const c = line.trim().split(/\s+/);
      // local_address is ADDR:PORT in hex; st 0A is LISTEN; the inode is the tenth column.
      if (c.length > 9 && c[1]!.endsWith(`:${hexPort}`) && c[3] === '0A') inodes.add(c[9]!);
    }
  }
  for (const pid of processTree(root)) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && inodes.has(m[1]!)) return pid;
      } catch {
        // closed meanwhile
      }
    }
  }
  throw new Error(`no process of the node's tree (from pid ${root}) listens on port ${port}`);
}

/** user + system CPU seconds of a process, from /proc (Linux). */
function cpuSeconds(pid: number): number {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const parts = f.slice(f.lastIndexOf(')') + 2).split(' ');
  return (Number(parts[11]) + Number(parts[12])) / 100; // utime, stime in clock ticks (USER_HZ 100)
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function until(fn: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn().catch(() => false))) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function load(): number {
  return round(loadavg()[0]!, 2);
}

/** Runs `op` n times one after another, each starting at least paceMs after the one before; the latency of each. */
async function timedOps(n: number, op: (i: number) => Promise<void>, paceMs = 0): Promise<number[]> {
  const lat: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await op(i);
    const ms = performance.now() - t;
    lat.push(ms);
    if (ms < paceMs) await new Promise((r) => setTimeout(r, paceMs - ms));
  }
  return lat;
}

/** What a kept catalog directory says about itself (--reuse). */
interface CatalogMark {
  namespaces: number;
  shards: number;
}

/**
 * Whether `dir` holds a set-up catalog of n namespaces: its mark says so, and the metastore
 * has the last namespace and not one past it (a setup that died midway has no mark).
 */
async function reusable(dir: string, url: string, n: number): Promise<boolean> {
  const markFile = join(dir, 'catalog.json');
  if (!existsSync(markFile)) return false;
  const mark = JSON.parse(readFileSync(markFile, 'utf8')) as CatalogMark;
  if (mark.namespaces !== n || mark.shards !== SHARDS) throw new Error(`--reuse: ${dir} holds ${mark.namespaces} namespaces on ${mark.shards} shards, not ${n} on ${SHARDS}`);
  const { meta } = await openMetastore(url);
  try {
    const has = (i: number) => meta.namespaceByName('default', nsName(i)).then(() => true, () => false);
    if (!(await has(n - 1)) || (await has(n))) throw new Error(`--reuse: ${dir}'s metastore does not hold exactly ${n} namespaces`);
  } finally {
    await meta.close();
  }
  return true;
}

/** A write path phase above this many seconds counts as slow (a bucket bound of the node's latency histograms). */
export const SLOW_S = 0.1;

/** One histogram series' totals in a metrics text: count, sum, and the count at or below SLOW_S. */
function histogram(text: string, name: string, labels: RegExp): { count: number; sum: number; fast: number } {
  const out = { count: 0, sum: 0, fast: 0 };
  for (const m of text.matchAll(new RegExp(`^${name}_(count|sum|bucket)\\{([^}]*)\\} (\\S+)`, 'gm'))) {
    if (!labels.test(m[2]!)) continue;
    const v = Number(m[3]);
    if (m[1] === 'count') out.count += v;
    else if (m[1] === 'sum') out.sum += v;
    else if (m[2]!.includes(`le="${SLOW_S}"`)) out.fast += v;
  }
  return out;
}

/** The write path's phases between two scrapes of the node's metrics. */
function writePath(before: string, after: string): Record<string, { count: number; mean_ms: number; over_slow: number }> {
  const phases: Record<string, [string, RegExp]> = {
    wal_put: ['loam_wal_flush_duration_seconds', /phase="put"/],
    wal_commit: ['loam_wal_flush_duration_seconds', /phase="commit"/],
    http_write: ['loam_http_request_duration_seconds', /method="POST".*route="[^"]*documents"/],
  };
  const out: Record<string, { count: number; mean_ms: number; over_slow: number }> = {};
  for (const [k, [name, labels]] of Object.entries(phases)) {
    const a = histogram(before, name, labels);
    const b = histogram(after, name, labels);
    const count = b.count - a.count;
    out[k] = { count, mean_ms: count > 0 ? round(((b.sum - a.sum) / count) * 1000, 2) : 0, over_slow: count - (b.fast - a.fast) };
  }
  return out;
}

/** Worker task errors the node counted (loam_worker_errors_total, every task). */
async function workerErrors(metricsUrl: string): Promise<number> {
  let sum = 0;
  for (const m of (await getText(metricsUrl)).matchAll(/^loam_worker_errors_total(?:\{[^}]*\})? (\d+(?:\.\d+)?)/gm)) sum += Number(m[1]);
  return sum;
}

async function ok(r: Promise<{ status: number; body: string }>, what: string): Promise<void> {
  const x = await r;
  if (x.status >= 300) throw new Error(`${what}: ${x.status} ${x.body.slice(0, 200)}`);
}

/** How long the bench waits for the catch-up; past it the idle window opens anyway (the line says caught_up: false). */
export const CATCH_UP_DEADLINE_MS = 600_000;

/** Waits until the node's changesSince rate is at most CAUGHT_UP_CALLS_PER_S (or CATCH_UP_DEADLINE_MS): the seconds and the calls it took. */
async function feedCatchUp(metricsUrl: string): Promise<{ seconds: number; calls: number; caughtUp: boolean }> {
  const t0 = performance.now();
  const count = async () => (await metaCalls(metricsUrl)).by.get('changesSince') ?? 0;
  const first = await count();
  let prev = first;
  for (;;) {
    await new Promise((r) => setTimeout(r, CATCH_UP_WINDOW_MS));
    const now = await count();
    if (now - prev <= (CAUGHT_UP_CALLS_PER_S * CATCH_UP_WINDOW_MS) / 1000) return { seconds: (performance.now() - t0 - CATCH_UP_WINDOW_MS) / 1000, calls: prev - first, caughtUp: true };
    prev = now;
    if (performance.now() - t0 > CATCH_UP_DEADLINE_MS) return { seconds: (performance.now() - t0) / 1000, calls: now - first, caughtUp: false };
  }
}

/** The figures for every size; the smallest size's p99s are the ratio base of the others. */
export async function scaleNodeFigures(o: ScaleNodeOptions): Promise<void> {
  let base: { write: number; read: number; calls: number; rss: number } | null = null;
  for (const n of o.sizes) {
    const dir = o.reuse !== undefined ? join(o.reuse, `n${n}`) : mkdtempSync(join(tmpdir(), `loam-bench-scale-${n}-`));
    let child: Child | undefined;
    try {
      const url = shardedUrl(dir);
      if (o.reuse !== undefined && (await reusable(dir, url, n))) {
        o.line('setup_s', 0, 's', { namespaces: n, shards: SHARDS, reused: dir, load: load() });
      } else {
        if (o.reuse !== undefined) {
          rmSync(dir, { recursive: true, force: true }); // a setup that did not finish: start again
          mkdirSync(dir, { recursive: true });
        }
        const setupS = await createCatalog(url, n);
        if (o.reuse !== undefined) writeFileSync(join(dir, 'catalog.json'), JSON.stringify({ namespaces: n, shards: SHARDS } satisfies CatalogMark));
        o.line('setup_s', setupS, 's', { namespaces: n, shards: SHARDS, namespaces_per_s: round(n / setupS), path: `createNamespaces (bulk, ${CREATE_BATCH} namespaces a call) through the sharded metastore`, load: load() });
      }
      const t0 = performance.now();
      child = await startChild(dir, url);
      const c = child;
      await until(async () => (await request(c.port, 'GET', '/readyz')).status === 200, READY_DEADLINE_MS, '/readyz');
      const readyS = (performance.now() - t0) / 1000;
      o.line('ready_s', readyS, 's', { namespaces: n, load: load() });

      const caught = await feedCatchUp(c.metricsUrl);
      o.line('feed_catch_up_s', caught.seconds, 's', { namespaces: n, changes_since_calls: caught.calls, caught_up: caught.caughtUp, load: load() });
      await new Promise((r) => setTimeout(r, IDLE_SETTLE_S * 1000));
      const pid = c.pid;
      // Scraped every IDLE_SAMPLE_MS: a worker thread too busy to answer some scrapes still
      // gives a rate between the first and the last scrape it answered.
      const samples: { t: number; calls: { by: Map<string, number>; thread: boolean } }[] = [];
      const cpu0 = cpuSeconds(pid);
      const w0 = performance.now();
      while (performance.now() - w0 < o.idleSeconds * 1000) {
        samples.push({ t: performance.now(), calls: await metaCalls(c.metricsUrl) });
        await new Promise((r) => setTimeout(r, IDLE_SAMPLE_MS));
      }
      samples.push({ t: performance.now(), calls: await metaCalls(c.metricsUrl) });
      const cpu1 = cpuSeconds(pid);
      const wS = (performance.now() - w0) / 1000;
      const answered = samples.filter((x) => x.calls.thread);
      const first = answered[0];
      const last = answered[answered.length - 1];
      const perCall: Record<string, number> = {};
      let callsPerS = NaN;
      let spanS = 0;
      if (first && last && last !== first) {
        spanS = (last.t - first.t) / 1000;
        for (const [k, v] of last.calls.by) {
          const d = v - (first.calls.by.get(k) ?? 0);
          if (d > 0) perCall[k] = round(d / spanS, 1);
        }
        callsPerS = (total(last.calls.by) - total(first.calls.by)) / spanS;
      }
      o.line('idle_meta_calls_per_s', callsPerS, 'calls/s', { namespaces: n, window_s: round(spanS, 1), by_call: perCall, worker_thread_answered: `${answered.length}/${samples.length} scrapes`, target: 50, ...(base && Number.isFinite(callsPerS) ? { ratio_to_smallest: round(callsPerS / Math.max(base.calls, 1e-9), 3) } : {}), load: load() });
      o.line('idle_cpu_s_per_min', ((cpu1 - cpu0) / wS) * 60, 's/min', { namespaces: n, window_s: round(wS, 1), load: load() });

      // Mixed load: a write and a strong read in each of TOUCHED namespaces (spread over the catalog).
      const touched = Math.min(o.touched, n);
      const step = Math.max(1, Math.floor(n / touched));
      for (let k = 0; k < touched; k++) {
        const ns = nsName(k * step);
        await ok(request(c.port, 'POST', `/v1/namespaces/${ns}/collections/docs/documents`, JSON.stringify({ upserts: [{ id: `d${k}`, v: k }] })), `write in ${ns}`);
        await ok(request(c.port, 'GET', `/v1/namespaces/${ns}/collections/docs/documents/d${k}`), `read in ${ns}`);
      }
      const rss = rssMb(pid);
      o.line('node_rss_mb', rss, 'MB', { namespaces: n, touched, ...(base ? { ratio_to_smallest: round(rss / base.rss, 3) } : {}), load: load() });

      const one = nsName(0);
      const docs = `/v1/namespaces/${one}/collections/docs/documents`;
      const metricsBefore = await getText(c.metricsUrl);
      const writes = await timedOps(o.ops, (i) => ok(request(c.port, 'POST', docs, JSON.stringify({ upserts: [{ id: `w${i}`, v: i }] })), 'timed write'), WRITE_PACE_MS);
      o.line('write_path', o.ops, 'writes', { namespaces: n, slow_s: SLOW_S, phases: writePath(metricsBefore, await getText(c.metricsUrl)), load: load() });
      const reads = await timedOps(o.ops, (i) => ok(request(c.port, 'GET', `${docs}/w${i}`), 'timed strong read'));
      const wp99 = pct(writes, 99);
      const rp99 = pct(reads, 99);
      o.line('write_p99_ms', wp99, 'ms', { namespaces: n, ops: o.ops, pace_ms: WRITE_PACE_MS, p50_ms: round(pct(writes, 50)), p999_ms: round(pct(writes, 99.9)), ...(base ? { baseline: round(base.write), ratio: round(wp99 / base.write, 3) } : {}), load: load() });
      o.line('strong_read_p99_ms', rp99, 'ms', { namespaces: n, ops: o.ops, p50_ms: round(pct(reads, 50)), ...(base ? { baseline: round(base.read), ratio: round(rp99 / base.read, 3) } : {}), load: load() });
      o.line('worker_errors', await workerErrors(c.metricsUrl), 'errors', { namespaces: n, load: load() });
      base ??= { write: wp99, read: rp99, calls: callsPerS, rss };

      const s0 = performance.now();
      c.proc.kill('SIGTERM');
      const code = await c.exited;
      o.line('shutdown_s', (performance.now() - s0) / 1000, 's', { namespaces: n, exit_code: code, load: load() });
      child = undefined;
    } finally {
      if (child) {
        child.proc.kill('SIGKILL');
        await child.exited;
      }
      if (o.reuse === undefined) rmSync(dir, { recursive: true, force: true });
    }
  }
}

// `npm run bench -- ingest [--seconds N] [--clients N] [--batch N] [--doc-bytes N] [--peer postgres|none]`
//
// One node (`loam dev`: embedded metastore, file:// store) in a child process, driven over
// HTTP on loopback by concurrent clients (defaults: 1 KiB documents, batches of 100, 32
// clients). Prints ingest documents/s and MB/s, acknowledgement latency p50/p99, and two
// baselines measured in the same run:
//  - the same bytes written to the same disk as files of the node's average WAL object size,
//    with the file store's fsync policy (write, fsync, rename, fsync the directory), one after
//    another; ratio = Loam ÷ that;
//  - the peer (issue 20, bench/_ingest_peer.ts): PostgreSQL with a JSONB table upserting the
//    same documents with the same clients and batches, durable; peer_ratio = Loam ÷ Postgres.
// The clients send pre-built bodies over keep-alive sockets, and `client_cpu_share` says how
// much of the CPU the benchmark's own process took, so the figure is the node's.
// Targets: ≥ 100,000 documents/s on the 2-core machine, peer_ratio ≥ 1.0, ack p99 at
// saturation no worse than the peer's, and at light load ≤ flush interval + 25 ms.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, fsyncSync, mkdirSync, mkdtempSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { DEFAULT_CHUNK_CACHE_BYTES } from '../src/log/reader.js';
import { DEFAULT_FLUSH_INTERVAL_MS } from '../src/log/writer.js';
import { runPeer } from './_ingest_peer.js';
import { pct } from './_stats.js';

const ROOT = new URL('..', import.meta.url).pathname;
export const START_DEADLINE_MS = 60_000;
/** One request may take at most this long. */
export const REQUEST_DEADLINE_MS = 30_000;
/** Warm-up before measuring (JIT, first WAL objects, first apply). */
export const WARMUP_MS = 2_000;
export const TARGET_DOCS_PER_S = 100_000;
/** Loam ÷ PostgreSQL JSONB on the same machine, same documents (issue 20); the aim is 1.5. */
export const TARGET_PEER_RATIO = 1.0;
/** The light-load phase's first second (JIT, first objects) is not measured. */
export const LIGHT_WARMUP_MS = 1_000;
export const TARGET_ACK_P99_MS = DEFAULT_FLUSH_INTERVAL_MS + 25;
/** Memory targets of a node (docs/operations.md, sizing): a fixed base plus cache_bytes. */
export const RSS_PEAK_BASE_MIB = 512;
export const RSS_IDLE_BASE_MIB = 256;
/** How often the node's resident set is sampled during the saturating phase. */
const RSS_SAMPLE_MS = 100;
/** After the load, how long the benchmark waits for the workers to apply the backlog. */
const CATCH_UP_DEADLINE_MS = 300_000;

/** The resident set of a process (its every thread) and its anonymous part, MiB, from /proc. */
export function rssMiB(pid: number): { rss: number; anon: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kib('VmRSS') / 1024, anon: kib('RssAnon') / 1024 };
}

/**
 * A node's memory: the server's resident set, plus the anonymous memory of its launcher when
 * `loam` relaunched itself (src/cli/relaunch.mjs; the two share the node binary's pages).
 */
export function nodeRssMiB(n: { pid: number; launcherPid: number | null }): { rss: number; anon: number } {
  const server = rssMiB(n.pid);
  if (n.launcherPid === null) return server;
  const launcher = rssMiB(n.launcherPid);
  return { rss: server.rss + launcher.anon, anon: server.anon + launcher.anon };
}

/** The node process `loam` runs the server in: its relaunched child, or itself (linux /proc). */
function serverPidOf(pid: number): number {
  try {
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) {
      if (readFileSync(`/proc/${c}/comm`, 'utf8').trim() === 'node') return Number(c);
    }
  } catch {
    // not Linux, or it exited: measure the process itself
  }
  return pid;
}

export { pct } from './_stats.js';

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function line(bench: string, metric: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ bench, backend: 'embedded(synchronous=FULL)+file', metric, value: round(value), unit, ...extra }));
}

export interface ChildNode {
  proc: ChildProcess;
  /** The server's process (a child of `proc` when the launcher relaunched itself). */
  pid: number;
  /** `proc`'s pid when it is a launcher, else null. */
  launcherPid: number | null;
  url: string;
  port: number;
  /** The port of its /metrics listener. */
  metricsPort: number;
  exited: Promise<number | null>;
  stop(): Promise<void>;
}

/**
 * The benchmarks measure the data plane, not the tenancy quotas: with an API key, the bench
 * org's request-rate and ingest quotas are raised out of the way (explicitly, via the API,
 * with the operator key: quotas are the operator's to set, not the org's).
 */
export async function raiseQuotas(port: number): Promise<void> {
  if (!authKey) return;
  if (!operatorKey) throw new Error('loam dev printed an admin key but no operator key');
  for (const [name, value] of [
    ['request_rate', BENCH_QUOTA],
    ['ingest_bytes_per_s', BENCH_QUOTA * 1024],
  ] as const) {
    const r = await request(port, 'PUT', '/v1/orgs/default/quotas', JSON.stringify({ name, value }), operatorKey);
    if (r.status >= 300) throw new Error(`raising the ${name} quota: ${r.status} ${r.body}`);
  }
}

/** Quota values the benchmarks set (per second). */
export const BENCH_QUOTA = 1_000_000_000;

export async function startChildNode(dir: string, env: Record<string, string> = {}, nodeFlags: string[] = []): Promise<ChildNode> {
  const proc = spawn(process.execPath, [...nodeFlags, join(ROOT, 'src/cli/loam.mjs'), 'dev', '--data-dir', dir, '--port', '0', '--log-level', 'warn'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  let out = '';
  const [url, metricsUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the node did not start')), START_DEADLINE_MS);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening: (http:\/\/127\.0\.0\.1:(\d+))/.exec(out);
      const metrics = /metrics: +(http:\/\/\S+)/.exec(out);
      if (m && metrics) {
        clearTimeout(t);
        // `loam dev` creates an org admin key and an operator key on first start and prints
        // them (before the address): the benchmark authenticates with the admin key like any
        // client, and raises the quotas with the operator key.
        authKey = /LOAM_KEY=(\S+)/.exec(out)?.[1] ?? null;
        operatorKey = /LOAM_OPERATOR_KEY=(\S+)/.exec(out)?.[1] ?? null;
        resolve([m[1]!, metrics[1]!]);
      }
    });
    void exited.then((c) => reject(new Error(`the node exited with ${c}`)));
  });
  const pid = serverPidOf(proc.pid!);
  return {
    proc,
    pid,
    launcherPid: pid === proc.pid ? null : proc.pid!,
    url,
    port: Number(new URL(url).port),
    metricsPort: Number(new URL(metricsUrl).port),
    exited,
    async stop() {
      proc.kill('SIGTERM');
      await exited;
    },
  };
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
/** The API key requests carry (set from the node's first-start banner). */
let authKey: string | null = null;
/** The operator key (quotas), from the same banner. */
let operatorKey: string | null = null;

/**
 * One HTTP request with a keep-alive agent; resolves with status and body. A GET whose
 * kept-alive socket the server closed as it was reused (ECONNRESET: the race of an idle
 * socket's keep-alive timeout, met after a long baseline between two scrapes) is sent once
 * more on a fresh socket; nothing else is retried.
 */
export async function request(port: number, method: string, path: string, body?: string | Buffer, key: string | null = authKey): Promise<{ status: number; body: string }> {
  try {
    return await requestOnce(port, method, path, body, key);
  } catch (e) {
    if (method !== 'GET' || (e as { code?: string }).code !== 'ECONNRESET') throw e;
    return requestOnce(port, method, path, body, key);
  }
}

function requestOnce(port: number, method: string, path: string, body: string | Buffer | undefined, key: string | null): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port, method, path, agent, timeout: REQUEST_DEADLINE_MS, headers: {
          ...(key ? { authorization: `Bearer ${key}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        },
      },
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

/** A batch body of `batch` documents of about `docBytes` each, ids unique per (prefix, j). */
export function batchMaker(batch: number, docBytes: number): (prefix: string) => string {
  const pad = 'x'.repeat(Math.max(0, docBytes - 60));
  const parts: string[] = [];
  for (let j = 0; j < batch; j++) parts.push(`-${String(j).padStart(3, '0')}","n":${j},"pad":"${pad}"}`);
  return (prefix) => `{"upserts":[${parts.map((p) => `{"id":"${prefix}${p}`).join(',')}]}`;
}

/** Digits of the request counter in a pre-built body's ids (fixed width, patched in place). */
const COUNTER_DIGITS = 10;

/**
 * A client's request body, built once (issue 20: the client must not be what limits the
 * benchmark): the batch as bytes, ids `c<client>-<counter>-<j>`, and the offsets of every
 * id's counter digits, so the next request only rewrites those digits in place. The body is
 * rewritten only after the previous request's response arrived, so no bytes in flight change.
 */
export class BodyTemplate {
  readonly body: Buffer;
  private readonly offsets: number[] = [];

  constructor(client: number, batch: number, docBytes: number) {
    const text = batchMaker(batch, docBytes)(`c${client}-${'0'.repeat(COUNTER_DIGITS)}`);
    this.body = Buffer.from(text);
    const marker = Buffer.from(`"id":"c${client}-`);
    for (let at = this.body.indexOf(marker); at >= 0; at = this.body.indexOf(marker, at + 1)) this.offsets.push(at + marker.length);
    if (this.offsets.length !== batch) throw new Error(`body template: found ${this.offsets.length} ids, expected ${batch}`);
  }

  /** Sets every id's counter to `i` and returns the body. */
  next(i: number): Buffer {
    const digits = String(i).padStart(COUNTER_DIGITS, '0');
    if (digits.length > COUNTER_DIGITS) throw new Error(`body template: counter ${i} exceeds ${COUNTER_DIGITS} digits`);
    for (const o of this.offsets) this.body.write(digits, o, 'latin1');
    return this.body;
  }

  /** The same documents as [ids, JSON texts] (for the peer). */
  documents(i: number): [string[], string[]] {
    const docs = (JSON.parse(this.next(i).toString()) as { upserts: { id: string }[] }).upserts;
    return [docs.map((d) => d.id), docs.map((d) => JSON.stringify(d))];
  }
}

/** CPU seconds (user + system, every thread) a set of processes used so far, from /proc. */
export function cpuSecondsOf(pids: number[]): number {
  // /proc/<pid>/stat fields 14 and 15 are utime and stime in clock ticks (USER_HZ, 100 on Linux).
  const USER_HZ = 100;
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]);
    } catch {
      // a process that exited in the window: its last figures are lost, not fatal
    }
  }
  return ticks / USER_HZ;
}

/** A process and its descendants, from /proc (bounded depth: a launcher and its child). */
export function processTree(pid: number, depth = 4): number[] {
  const out = [pid];
  if (depth === 0) return out;
  try {
    for (const c of readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean)) out.push(...processTree(Number(c), depth - 1));
  } catch {
    // gone, or no children file: the process alone
  }
  return out;
}

async function baselineMBps(dir: string, totalBytes: number, objectBytes: number): Promise<number> {
  const d = join(dir, 'baseline');
  mkdirSync(d, { recursive: true });
  const buf = Buffer.alloc(Math.max(1, Math.round(objectBytes)), 7);
  const n = Math.max(1, Math.ceil(totalBytes / buf.length));
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const tmp = join(d, `.tmp-${i}`);
    const fd = openSync(tmp, 'w');
    writeSync(fd, buf);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(tmp, join(d, `obj-${i}`));
    const dfd = openSync(d, 'r');
    fsyncSync(dfd);
    closeSync(dfd);
  }
  const s = (performance.now() - t0) / 1000;
  return (n * buf.length) / 1e6 / s;
}

function metricSum(text: string, name: string): number {
  let v = 0;
  for (const l of text.split('\n')) if (l.startsWith(name + ' ') || l.startsWith(name + '{')) v += Number(l.slice(l.lastIndexOf(' ') + 1));
  return v;
}

/** Measured seconds of each half of the encryption comparison (a named, opt-in size). */
export const ENCRYPTION_COMPARE_SECONDS = 8;
/** Target of encrypted_ingest_ratio (issue 19): encryption costs at most 15 % of ingest. */
export const TARGET_ENCRYPTED_RATIO = 0.85;

/** docs/s of a fresh node with these environment settings, `clients` writers for `seconds`. */
async function docsPerSecond(env: Record<string, string>, seconds: number, clients: number, batch: number, docBytes: number, nodeFlags: string[] = []): Promise<{ docsPerS: number; cpuUsPerDoc: number; refused: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-enc-'));
  const node = await startChildNode(dir, env, nodeFlags);
  try {
    await raiseQuotas(node.port);
    await request(node.port, 'POST', '/v1/namespaces', JSON.stringify({ name: 'bench' }));
    await request(node.port, 'POST', '/v1/namespaces/bench/collections', JSON.stringify({ name: 'docs', primary_key: 'id', partitions: 8 }));
    const path = '/v1/namespaces/bench/collections/docs/documents';
    const templates = Array.from({ length: clients }, (_, c) => new BodyTemplate(c, batch, docBytes));
    let docs = 0;
    let refused = 0;
    let measuring = false;
    let stop = false;
    const worker = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const r = await request(node.port, 'POST', path, templates[c]!.next(i));
        if (r.status !== 200) {
          if (r.status !== 429 && r.status !== 503) throw new Error(`write failed: ${r.status} ${r.body}`);
          if (measuring) refused++;
          await new Promise((res) => setTimeout(res, 50));
          continue;
        }
        if (measuring) docs += batch;
      }
    };
    const running = Promise.all(Array.from({ length: clients }, (_, c) => worker(c)));
    await new Promise((r) => setTimeout(r, 1_000)); // warm-up, discarded
    measuring = true;
    // The node and its descendants (`loam dev` may relaunch itself with allocator settings).
    const tree = processTree(node.proc.pid!);
    const cpu0 = cpuSecondsOf(tree);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (performance.now() - t0) / 1000;
    const cpuS = cpuSecondsOf(tree) - cpu0;
    const n = docs;
    stop = true;
    await running;
    return { docsPerS: n / elapsed, cpuUsPerDoc: (cpuS * 1e6) / Math.max(1, n), refused };
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `--encryption on|off` (spec §9.8): the same load on a node with envelope encryption (local
 * key provider) and on one without, in this run; encrypted_ingest_ratio = on ÷ off. `off` only
 * reports the unencrypted figure.
 */
async function encryptionBench(mode: string, clients: number, batch: number, docBytes: number, nodeFlags: (half: string) => string[]): Promise<void> {
  const load = () => round(loadavg()[0]!);
  const offEnv = { LOAM_KEY_PROVIDER: 'none', LOAM_ENCRYPTION: 'off' };
  if (mode === 'off') {
    const off = await docsPerSecond(offEnv, ENCRYPTION_COMPARE_SECONDS, clients, batch, docBytes, nodeFlags('off'));
    line('ingest', 'ingest_docs_per_s_encryption_off', off.docsPerS, 'docs/s', { node_cpu_us_per_doc: round(off.cpuUsPerDoc), refused_requests: off.refused, load_average_1m: load() });
    return;
  }
  const onEnv = { LOAM_KEY_PROVIDER: 'local', LOAM_ENCRYPTION: 'on', LOAM_ENCRYPTION_MASTER_KEY: randomBytes(32).toString('base64') };
  // Off, on, on, off (each half ENCRYPTION_COMPARE_SECONDS in all): a drift in the machine's
  // load during the run weighs on both sides alike.
  const halves: { on: boolean; r: Awaited<ReturnType<typeof docsPerSecond>> }[] = [];
  for (const on of [false, true, true, false]) {
    const r = await docsPerSecond(on ? onEnv : offEnv, ENCRYPTION_COMPARE_SECONDS / 2, clients, batch, docBytes, nodeFlags(`${on ? 'on' : 'off'}-${halves.length}`));
    halves.push({ on, r });
  }
  const mean = (on: boolean, f: (r: Awaited<ReturnType<typeof docsPerSecond>>) => number) => halves.filter((h) => h.on === on).reduce((a, h) => a + f(h.r), 0) / 2;
  const off = { docsPerS: mean(false, (r) => r.docsPerS), cpuUsPerDoc: mean(false, (r) => r.cpuUsPerDoc), refused: mean(false, (r) => r.refused) * 2 };
  const on = { docsPerS: mean(true, (r) => r.docsPerS), cpuUsPerDoc: mean(true, (r) => r.cpuUsPerDoc), refused: mean(true, (r) => r.refused) * 2 };
  line('ingest', 'ingest_docs_per_s_encryption_off', off.docsPerS, 'docs/s', { node_cpu_us_per_doc: round(off.cpuUsPerDoc), refused_requests: off.refused, load_average_1m: load() });
  line('ingest', 'ingest_docs_per_s_encryption_on', on.docsPerS, 'docs/s', { node_cpu_us_per_doc: round(on.cpuUsPerDoc), refused_requests: on.refused, load_average_1m: load() });
  const ratio = on.docsPerS / off.docsPerS;
  line('ingest', 'encrypted_ingest_ratio', ratio, 'ratio', {
    on_docs_per_s: round(on.docsPerS),
    off_docs_per_s: round(off.docsPerS),
    // CPU per document (every thread of the node) is steadier than docs/s on a shared machine.
    cpu_per_doc_ratio: round(off.cpuUsPerDoc / on.cpuUsPerDoc),
    halves: halves.map((h) => `${h.on ? 'on' : 'off'}:${Math.round(h.r.docsPerS)}`).join(' '),
    target: TARGET_ENCRYPTED_RATIO,
    meets_target: ratio >= TARGET_ENCRYPTED_RATIO,
    load_average_1m: load(),
    note: 'off, on, on, off in one run; the workers run in their worker thread in both',
  });
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command()
    .name('bench ingest')
    .option('--seconds <n>', 'measured seconds', '10')
    .option('--encryption <mode>', 'on: measure encrypted_ingest_ratio (an encrypted node ÷ an unencrypted one, this run); off: the unencrypted figure only')
    .option('--clients <n>', 'concurrent HTTP clients', '32')
    .option('--batch <n>', 'documents per request', '100')
    .option('--doc-bytes <n>', 'bytes per document', '1024')
    .option('--port <n>', 'drive an already running node on 127.0.0.1:<port> (for profiling) instead of starting one')
    .option('--metrics-port <n>', "with --port: that node's metrics_port", '7071')
    .option('--idle-seconds <n>', 'after the load, idle this long before measuring rss_idle_mb', '30')
    .option('--cpu-prof <dir>', "write the node's CPU profiles (main thread and workers, .cpuprofile) into <dir> when it stops")
    .option('--node-flags <flags>', "more flags for the node's process, space-separated (e.g. --heapsnapshot-signal=SIGUSR2)", '')
    .addOption(new Option('--peer <name>', 'also load the peer with the same documents in the same run (issue 20)').choices(['postgres', 'none']).default('postgres'))
    .parse(['node', 'ingest', ...argv])
    .opts<{ seconds: string; clients: string; batch: string; docBytes: string; port?: string; metricsPort: string; idleSeconds: string; peer: 'postgres' | 'none'; cpuProf?: string; nodeFlags: string; encryption?: string }>();
  if (o.encryption !== undefined) {
    if (o.encryption !== 'on' && o.encryption !== 'off') throw new Error(`--encryption: must be on or off; got ${JSON.stringify(o.encryption)}`);
    return encryptionBench(o.encryption, Number(o.clients), Number(o.batch), Number(o.docBytes), (half) => (o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${join(o.cpuProf, half)}`] : []));
  }
  const seconds = Number(o.seconds);
  const clients = Number(o.clients);
  const batch = Number(o.batch);
  const docBytes = Number(o.docBytes);
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-ingest-'));
  const nodeFlags = [...(o.cpuProf ? ['--cpu-prof', `--cpu-prof-dir=${o.cpuProf}`] : []), ...o.nodeFlags.split(' ').filter(Boolean)];
  const node = o.port ? null : await startChildNode(dir, {}, nodeFlags);
  try {
    const port = node ? node.port : Number(o.port);
    const metricsPort = node ? node.metricsPort : Number(o.metricsPort);
    await raiseQuotas(port);
    await request(port, 'POST', '/v1/namespaces', JSON.stringify({ name: 'bench' }));
    await request(port, 'POST', '/v1/namespaces/bench/collections', JSON.stringify({ name: 'docs', primary_key: 'id', partitions: 8 }));
    const path = '/v1/namespaces/bench/collections/docs/documents';
    const templates = Array.from({ length: clients + 1 }, (_, c) => new BodyTemplate(c, batch, docBytes));
    const sampleBytes = templates[0]!.body.length;
    let measuring = false;
    let stop = false;
    let docs = 0;
    let bytes = 0;
    let refused = 0;
    const lat: number[] = [];
    const worker = async (c: number) => {
      for (let i = 0; !stop; i++) {
        const body = templates[c]!.next(i);
        const t = performance.now();
        const r = await request(port, 'POST', path, body);
        const ms = performance.now() - t;
        if (r.status !== 200) {
          refused++;
          if (r.status !== 429 && r.status !== 503) throw new Error(`write failed: ${r.status} ${r.body}`);
          await new Promise((res) => setTimeout(res, 50));
          continue;
        }
        if (measuring) {
          docs += batch;
          bytes += body.length;
          lat.push(ms);
        }
      }
    };
    // Acknowledgement latency at light load, on the fresh node before the saturating phase:
    // one client, one batch at a time (LIGHT_WARMUP_MS discarded). Under saturation latency
    // is bounded below by Little's law (clients × batch ÷ throughput), so the flush-path
    // target is measured here.
    const light: number[] = [];
    const lightStart = performance.now();
    const lightEnd = lightStart + LIGHT_WARMUP_MS + Math.max(2, seconds / 2) * 1000;
    for (let i = 0; performance.now() < lightEnd; i++) {
      const t = performance.now();
      const r = await request(port, 'POST', path, templates[clients]!.next(i));
      if (r.status !== 200) throw new Error(`write failed: ${r.status} ${r.body}`);
      if (t - lightStart >= LIGHT_WARMUP_MS) light.push(performance.now() - t);
    }
    // The node's resident set, sampled from the saturating phase until the idle figure is
    // taken: its peak includes what the workers do after the load (segmenting and compacting
    // what it wrote), which is the node's too.
    let rssPeak = 0;
    let anonPeak = 0;
    let loadPeak = 0;
    const pid = node?.pid;
    const pids = node ? [node.pid, ...(node.launcherPid === null ? [] : [node.launcherPid])] : [];
    const sampler = node
      ? setInterval(() => {
          try {
            const r = nodeRssMiB(node);
            rssPeak = Math.max(rssPeak, r.rss);
            anonPeak = Math.max(anonPeak, r.anon);
          } catch {
            // the node exited (the run is failing): its last samples stand
          }
        }, RSS_SAMPLE_MS).unref()
      : undefined;
    const running = Array.from({ length: clients }, (_, c) => worker(c));
    await new Promise((r) => setTimeout(r, WARMUP_MS));
    const m0 = (await request(metricsPort, 'GET', '/metrics')).body;
    const nodeCpu0 = pid ? cpuSecondsOf(pids) : 0;
    const clientCpu0 = process.cpuUsage();
    measuring = true;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const clientCpu = process.cpuUsage(clientCpu0);
    const nodeCpuS = pid ? cpuSecondsOf(pids) - nodeCpu0 : 0;
    const m1 = (await request(metricsPort, 'GET', '/metrics')).body;
    stop = true;
    await Promise.all(running);
    loadPeak = rssPeak;
    const flushes = metricSum(m1, 'loam_wal_flush_bytes_count') - metricSum(m0, 'loam_wal_flush_bytes_count');
    const walBytes = metricSum(m1, 'loam_wal_flush_bytes_sum') - metricSum(m0, 'loam_wal_flush_bytes_sum');
    const objectBytes = flushes > 0 ? walBytes / flushes : sampleBytes;
    const mbps = bytes / 1e6 / elapsed;
    const base = await baselineMBps(dir, walBytes > 0 ? walBytes : bytes, objectBytes);
    const docsPerS = docs / elapsed;
    line('ingest', 'ingest_docs_per_s', docsPerS, 'docs/s', { target: TARGET_DOCS_PER_S, meets_target: docsPerS >= TARGET_DOCS_PER_S, clients, batch, doc_bytes: docBytes, load_average_1m: round(loadavg()[0]!) });
    line('ingest', 'ingest_mb_per_s', mbps, 'MB/s', { baseline: round(base), ratio: round(mbps / base, 3), baseline_is: `the same bytes as files of ${Math.round(objectBytes)} bytes, fsync per file and directory` });
    line('ingest', 'ack_p50_ms', pct(lat, 50), 'ms');
    line('ingest', 'ack_p99_ms', pct(lat, 99), 'ms', { under: `${clients} clients at saturation`, littles_law_floor_ms: round((clients * batch * 1000) / docsPerS) });
    line('ingest', 'ack_p50_ms_light', pct(light, 50), 'ms', { under: '1 client' });
    line('ingest', 'ack_p99_ms_light', pct(light, 99), 'ms', { under: '1 client', target: TARGET_ACK_P99_MS, meets_target: pct(light, 99) <= TARGET_ACK_P99_MS });
    const clientCpuS = (clientCpu.user + clientCpu.system) / 1e6;
    if (pid) {
      line('ingest', 'client_cpu_share', clientCpuS / (clientCpuS + nodeCpuS), 'fraction', {
        client_cpu_s: round(clientCpuS), node_cpu_s: round(nodeCpuS), node_cpu_us_per_doc: round((nodeCpuS * 1e6) / Math.max(1, docs)),
        cores_used_by_node: round(nodeCpuS / elapsed), of_cores: availableParallelism(),
      });
    }
    line('ingest', 'wal_objects_per_s', flushes / elapsed, 'objects/s', { avg_object_bytes: Math.round(objectBytes), refused_requests: refused });
    if (pid) {
      // loam dev runs with the default cache_bytes.
      const cacheMiB = DEFAULT_CHUNK_CACHE_BYTES / 1024 / 1024;
      const peakTarget = RSS_PEAK_BASE_MIB + cacheMiB;
      // Idle means the workers have applied the backlog too (bounded wait), then nothing.
      const caughtUpStart = performance.now();
      let lagLeft = Infinity;
      while (performance.now() - caughtUpStart < CATCH_UP_DEADLINE_MS) {
        lagLeft = metricSum((await request(metricsPort, 'GET', '/metrics')).body, 'loam_worker_lag_records');
        if (lagLeft === 0) break;
        await new Promise((r) => setTimeout(r, 500));
      }
      line('ingest', 'apply_catch_up_s', (performance.now() - caughtUpStart) / 1000, 's', { lag_left_records: lagLeft });
      // The node's CPU over the idle wait says how idle it was: its workers may still be
      // segmenting and compacting what the load wrote (a lowered-priority thread, slow on a
      // loaded machine), and each thread returns its memory a check after its last busy one.
      const idleCpu0 = cpuSecondsOf(pids);
      await new Promise((r) => setTimeout(r, Number(o.idleSeconds) * 1000));
      const idle = nodeRssMiB(node!);
      clearInterval(sampler);
      line('ingest', 'rss_peak_mb', rssPeak, 'MiB', {
        anon_mb: round(anonPeak), target: peakTarget, meets_target: rssPeak <= peakTarget, under: `${clients} clients`,
        during_load_mb: round(loadPeak), over: 'the load, the catch-up and the idle wait',
      });
      const idleTarget = RSS_IDLE_BASE_MIB + cacheMiB;
      line('ingest', 'rss_idle_mb', idle.rss, 'MiB', {
        anon_mb: round(idle.anon), target: idleTarget, meets_target: idle.rss <= idleTarget, after_idle_s: Number(o.idleSeconds),
        node_cpu_s_while_idle: round(cpuSecondsOf(pids) - idleCpu0), load_average_1m: round(loadavg()[0]!),
      });
    }
    await node?.stop();
    if (o.peer === 'postgres') {
      // The peer runs after the node has stopped, so the two never share the cores.
      const peer = await runPeer(
        { clients, batch, warmupMs: WARMUP_MS, seconds, makeBatch: (c, i) => templates[c]!.documents(i) },
        cpuSecondsOf,
      );
      const ratio = docsPerS / peer.docsPerS;
      line('ingest', 'peer_docs_per_s', peer.docsPerS, 'docs/s', {
        peer: 'postgres 15, jsonb table, INSERT … ON CONFLICT DO UPDATE via unnest, fsync + synchronous_commit on',
        clients, batch, doc_bytes: docBytes, server_cpu_us_per_doc: round((peer.serverCpuS * 1e6) / Math.max(1, peer.docsPerS * seconds)),
      });
      line('ingest', 'peer_ratio', ratio, 'ratio', { loam_docs_per_s: round(docsPerS), target: TARGET_PEER_RATIO, meets_target: ratio >= TARGET_PEER_RATIO });
      line('ingest', 'peer_ack_p50_ms', pct(peer.ackMs, 50), 'ms');
      const loamP99 = pct(lat, 99);
      const peerP99 = pct(peer.ackMs, 99);
      line('ingest', 'peer_ack_p99_ms', peerP99, 'ms', { loam_ack_p99_ms: round(loamP99), meets_target: loamP99 <= peerP99, target_is: "Loam's ack_p99_ms at saturation no worse than the peer's" });
    }
  } finally {
    await node?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

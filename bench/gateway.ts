// `npm run bench -- gateway [--rounds N] [--seconds N] [--clients N] [--probes N] [--authorizer builtin|openfga]`
//
// The per-request cost of authentication, authorization and admission (quotas) with a cached
// API key. Two `loam dev` nodes in child processes, driven over HTTP on
// loopback with keep-alive connections (node:http Agent):
//   - on:  auth api_keys (what `loam dev` runs), the admin key it prints on first start (cached
//          by the gateway after its first use), the org's quotas raised through PUT /v1/orgs/default/quotas (operator key)
//          so admission never refuses;
//   - off: auth none (LOAM_AUTH=none), the baseline.
// Same data, same routes (a strong point GET of an existing document; listing collections;
// writing one small document, which also passes the ingest checks),
// same concurrency; on and off rounds alternate (the order flips every pair) and the rates are
// medians over the rounds. Prints gateway_rps (baseline = off, ratio = on ÷ off, target ≥ 0.9)
// and the p50/p99 latency of both, per route.
// Then the timing of 401 answers, as figures: (a) a well-formed key with an unknown key id,
// (b) the known key id with a wrong secret — interleaved, one at a time on one connection;
// their p50/p99 and ratio (≈ 1.0 when an unknown id costs what a wrong secret costs).
// With --authorizer openfga the auth node decides on an OpenFGA server (warm decision cache;
// target ratio 0.85), and bench/_openfga.ts adds the uncached check latency and filterVisible
// for pages of 100 and 1,000 namespaces, by batch check and by listObjects.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { pct, round, timed, type Sample } from './_stats.js';
import { startOpenFga, type OpenFga } from '../test/harness/openfga.js';
import { openfgaFigures } from './_openfga.js';

const ROOT = new URL('..', import.meta.url).pathname;
export const TARGET_RATIO = 0.9;
/** With --authorizer openfga (a warm decision cache), point GETs keep at least this ratio. */
export const OPENFGA_TARGET_RATIO = 0.85;
export const START_DEADLINE_MS = 60_000;
export const STOP_DEADLINE_MS = 10_000;
/** One request may take at most this long. */
export const REQUEST_DEADLINE_MS = 10_000;
/** Waiting for the loaded documents to be applied. */
export const APPLY_DEADLINE_MS = 30_000;
/** Quota values set for the bench org (per second / slots): never reached. */
export const BENCH_QUOTA = 1_000_000_000;
export const BENCH_QUERY_SLOTS = 100_000;
const DOCS = 100;

export interface Node {
  port: number;
  /** The admin key `loam dev` printed (null with auth none). */
  key: string | null;
  /** The operator key it printed (quotas are the operator's to raise). */
  operatorKey: string | null;
  stop(): Promise<void>;
}

/** `loam dev` in a child process on a free port; resolves once it prints its address (and keys). */
export async function startNode(dir: string, env: Record<string, string> = {}): Promise<Node> {
  const proc = spawn(process.execPath, [join(ROOT, 'src/cli/loam.mjs'), 'dev', '--data-dir', dir, '--port', '0', '--log-level', 'warn'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let code: number | null | undefined;
  const exited = new Promise<void>((r) =>
    proc.on('exit', (c) => {
      code = c;
      r();
    }),
  );
  const stop = async () => {
    if (code !== undefined) return;
    proc.kill('SIGTERM');
    const t = setTimeout(() => proc.kill('SIGKILL'), STOP_DEADLINE_MS);
    await exited;
    clearTimeout(t);
  };
  let out = '';
  try {
    return await new Promise<Node>((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`the node did not start within ${START_DEADLINE_MS} ms`)), START_DEADLINE_MS);
      proc.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /listening: http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
        if (m) {
          clearTimeout(t);
          resolve({ port: Number(m[1]), key: /LOAM_KEY=(\S+)/.exec(out)?.[1] ?? null, operatorKey: /LOAM_OPERATOR_KEY=(\S+)/.exec(out)?.[1] ?? null, stop });
        }
      });
      void exited.then(() => {
        clearTimeout(t);
        reject(new Error(`the node exited with ${code}`));
      });
    });
  } catch (e) {
    await stop();
    throw e;
  }
}

function client(sockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: sockets });
  const send = (port: number, method: string, path: string, auth: string | null, body?: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path,
          agent,
          timeout: REQUEST_DEADLINE_MS,
          headers: {
            ...(auth ? { authorization: `Bearer ${auth}` } : {}),
            ...(body === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer within ${REQUEST_DEADLINE_MS} ms`)));
      req.on('error', reject);
      req.end(body);
    });
  return { send, close: () => agent.destroy() };
}

type Send = ReturnType<typeof client>['send'];

function line(metric: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ bench: 'gateway', backend: 'embedded+file', metric, value: round(value, 3), unit, ...extra }));
}

async function must(p: Promise<{ status: number; body: string }>, what: string): Promise<string> {
  const r = await p;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${r.body}`);
  return r.body;
}

/** One namespace, one collection, DOCS documents, applied; on the auth node, quotas out of the way. */
async function prepare(send: Send, n: Node): Promise<void> {
  if (n.key) {
    for (const [name, value] of [
      ['request_rate', BENCH_QUOTA],
      ['ingest_bytes_per_s', BENCH_QUOTA],
      ['concurrent_query_slots', BENCH_QUERY_SLOTS],
      ['namespace_query_slots', BENCH_QUERY_SLOTS],
    ] as const) {
      await must(send(n.port, 'PUT', '/v1/orgs/default/quotas', n.operatorKey, JSON.stringify({ name, value })), `raising the ${name} quota with the operator key`);
    }
  }
  await must(send(n.port, 'POST', '/v1/namespaces', n.key, JSON.stringify({ name: 'bench' })), 'creating the namespace');
  await must(send(n.port, 'POST', '/v1/namespaces/bench/collections', n.key, JSON.stringify({ name: 'docs', primary_key: 'id', partitions: 4 })), 'creating the collection');
  const upserts = Array.from({ length: DOCS }, (_, i) => ({ id: `d${i}`, n: i, name: `document ${i}`, tags: ['a', 'b'] }));
  await must(send(n.port, 'POST', '/v1/namespaces/bench/collections/docs/documents', n.key, JSON.stringify({ upserts })), 'loading documents');
  const end = Date.now() + APPLY_DEADLINE_MS;
  for (;;) {
    const r = await send(n.port, 'GET', `/v1/namespaces/bench/collections/docs/documents/d${DOCS - 1}?consistency=eventual`, n.key);
    if (r.status === 200) break;
    if (Date.now() > end) throw new Error(`the documents were not applied within ${APPLY_DEADLINE_MS} ms (last answer ${r.status})`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

interface BenchRoute {
  name: string;
  method: 'GET' | 'POST';
  path: (i: number) => string;
  body?: (i: number) => string;
}

const ROUTES: readonly BenchRoute[] = [
  { name: 'get_document_strong', method: 'GET', path: (i) => `/v1/namespaces/bench/collections/docs/documents/d${i % DOCS}` },
  { name: 'list_collections', method: 'GET', path: () => '/v1/namespaces/bench/collections' },
  // A write passes every ingest check (bytes/s, the collection's backlog, stored bytes) and
  // waits for its WAL flush; one small document, overwritten in turn.
  {
    name: 'write_document',
    method: 'POST',
    path: () => '/v1/namespaces/bench/collections/docs/documents',
    body: (i) => JSON.stringify({ upserts: [{ id: `w${i % DOCS}`, n: i }] }),
  },
];

function medianBy(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command()
    .name('bench gateway')
    .option('--rounds <n>', 'measured rounds per mode and route (on and off alternate)', '9')
    .option('--seconds <n>', 'seconds per round', '1.5')
    .option('--clients <n>', 'concurrent keep-alive clients', '16')
    .option('--probes <n>', '401 answers timed per kind (unknown key id, wrong secret)', '3000')
    .option('--aa', 'calibration: both nodes with auth none (the ratio shows the harness\'s own bias; no 401 figures)')
    .option('--authorizer <name>', 'the auth node\'s authorizer: builtin, or openfga (an OpenFGA server started for the run; adds the OpenFGA check and filterVisible figures)', 'builtin')
    .parse(['node', 'gateway', ...argv])
    .opts<{ rounds: string; seconds: string; clients: string; probes: string; aa?: boolean; authorizer: string }>();
  if (o.authorizer !== 'builtin' && o.authorizer !== 'openfga') throw new Error(`--authorizer must be builtin or openfga; got ${o.authorizer}`);
  const withFga = o.authorizer === 'openfga' && !o.aa;
  const target = withFga ? OPENFGA_TARGET_RATIO : TARGET_RATIO;
  const rounds = Math.max(1, Number(o.rounds));
  const seconds = Math.max(0.2, Number(o.seconds));
  const clients = Math.max(1, Number(o.clients));
  const probes = Math.max(10, Number(o.probes));
  const load0 = loadavg()[0]!;

  const dirs = [mkdtempSync(join(tmpdir(), 'loam-bench-gw-on-')), mkdtempSync(join(tmpdir(), 'loam-bench-gw-off-'))];
  const http1 = client(clients);
  const nodes: Node[] = [];
  let fgaServer: OpenFga | null = null;
  try {
    fgaServer = withFga ? await startOpenFga() : null;
    const onEnv: Record<string, string> = o.aa
      ? { LOAM_AUTH: 'none' }
      : fgaServer
        ? { LOAM_AUTHORIZER: 'openfga', LOAM_OPENFGA_URL: fgaServer.url, LOAM_OPENFGA_STORE: 'bench-gateway' }
        : {};
    const started = await Promise.allSettled([startNode(dirs[0]!, onEnv), startNode(dirs[1]!, { LOAM_AUTH: 'none' })]);
    for (const s of started) if (s.status === 'fulfilled') nodes.push(s.value);
    for (const s of started) if (s.status === 'rejected') throw s.reason;
    const [on, off] = nodes as [Node, Node];
    if (!on.key && !o.aa) throw new Error('the auth node printed no admin key (is LOAM_AUTH set in the environment?)');
    if (off.key) throw new Error('the baseline node runs with authentication');
    await Promise.all([prepare(http1.send, on), prepare(http1.send, off)]);

    const op = (n: Node, r: BenchRoute) => async (i: number) => {
      const got = await http1.send(n.port, r.method, r.path(i), n.key, r.body?.(i));
      if (got.status !== 200) throw new Error(`${r.method} ${r.path(i)} (auth ${n.key ? 'on' : 'off'}): ${got.status} ${got.body}`);
    };
    // timed() bounds a round by time and by MAX_OPS_PER_ROUND requests.
    const round1 = (n: Node, r: BenchRoute, s: number): Promise<Sample> => timed(s, op(n, r), clients);

    for (const r of ROUTES) {
      // Warm-up: JIT, connections, caches (the key, the catalog, the quota values).
      await round1(on, r, 0.5);
      await round1(off, r, 0.5);
      const rates = { on: [] as number[], off: [] as number[] };
      const lat = { on: [] as number[], off: [] as number[] };
      const pairRatios: number[] = [];
      for (let k = 0; k < rounds; k++) {
        const order = k % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const);
        const got: Record<string, number> = {};
        for (const mode of order) {
          const s = await round1(mode === 'on' ? on : off, r, seconds);
          rates[mode].push(s.rate);
          lat[mode].push(...s.lat);
          got[mode] = s.rate;
        }
        pairRatios.push(got.on! / got.off!);
      }
      const rOn = medianBy(rates.on);
      const rOff = medianBy(rates.off);
      const ratio = rOn / rOff;
      line('gateway_rps', rOn, 'requests/s', {
        route: r.name,
        baseline: round(rOff),
        ratio: round(ratio, 3),
        target,
        meets_target: ratio >= target,
        authorizer: o.aa ? 'none' : o.authorizer,
        baseline_is: 'auth none, same route, data and concurrency, alternating rounds',
        ...(o.aa ? { calibration: 'A/A: both nodes with auth none' } : {}),
        median_of_round_ratios: round(medianBy(pairRatios), 3),
        rounds,
        seconds_per_round: seconds,
        clients,
      });
      for (const p of [50, 99]) {
        const a = pct(lat.on, p);
        const b = pct(lat.off, p);
        line(`gateway_p${p}_ms`, a, 'ms', { route: r.name, baseline: round(b, 3), ratio: round(a / b, 3), requests: lat.on.length, baseline_requests: lat.off.length });
      }
    }

    if (fgaServer) await openfgaFigures(fgaServer.url, line);
    if (o.aa || !on.key) return;
    // Timing of 401s: a well-formed key whose id does not exist vs the known id with a wrong
    // secret. Both ids are cached by the gateway after the warm-up (unknown ids are cached too).
    const keyId = /^loam_([0-9a-f]{16})_/.exec(on.key)![1]!;
    let unknownId = randomBytes(8).toString('hex');
    while (unknownId === keyId) unknownId = randomBytes(8).toString('hex');
    const wrongSecret = () => randomBytes(32).toString('hex');
    const kinds = {
      unknown_key_id: () => `loam_${unknownId}_${wrongSecret()}`,
      wrong_secret: () => `loam_${keyId}_${wrongSecret()}`,
    };
    const probe = client(1);
    const path = ROUTES[0]!.path(0);
    const times = { unknown_key_id: [] as number[], wrong_secret: [] as number[] };
    try {
      const once = async (kind: keyof typeof kinds): Promise<number> => {
        const t = performance.now();
        const r = await probe.send(on.port, 'GET', path, kinds[kind]());
        const ms = performance.now() - t;
        if (r.status !== 401) throw new Error(`a ${kind} key was answered ${r.status}, not 401: ${r.body}`);
        return ms;
      };
      for (let i = 0; i < Math.min(200, probes); i++) {
        await once('unknown_key_id');
        await once('wrong_secret');
      }
      for (let i = 0; i < probes; i++) {
        const order = i % 2 === 0 ? (['unknown_key_id', 'wrong_secret'] as const) : (['wrong_secret', 'unknown_key_id'] as const);
        for (const k of order) times[k].push(await once(k));
      }
    } finally {
      probe.close();
    }
    for (const p of [50, 99]) {
      const a = pct(times.unknown_key_id, p);
      const b = pct(times.wrong_secret, p);
      line(`auth_401_p${p}_ms`, a, 'ms', {
        value_is: 'unknown key id (well-formed, cached as unknown)',
        baseline: round(b, 3),
        baseline_is: 'known key id, wrong secret',
        ratio: round(a / b, 3),
        expected_ratio: 1,
        probes,
      });
    }
    line('load_average_1m', loadavg()[0]!, 'load', { at_start: round(load0) });
  } finally {
    http1.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await fgaServer?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

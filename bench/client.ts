// `npm run bench -- client [--rounds N] [--seconds N] [--clients N]`
//
// What the TypeScript client (src/client) costs over bare fetch. One
// `loam dev` node in a child process (API keys on, the org admin key it prints; the org's
// quotas raised with the operator key it prints, so admission never refuses), 100 documents. The same strong
// point GET of a document, from the same number of concurrent loops, (a) through
// LoamClient.get and (b) as bare fetch with keep-alive (Node's global fetch keeps connections
// alive; the same Authorization header, the answer parsed with .json()). Rounds alternate, the
// order flips every pair, rates are medians. Prints client_overhead_ratio = client ÷ bare
// (target ≥ 0.9), both rates and latencies, and the CPU time this (client) process spends per
// request on each side: the client's own cost, which the node's share of the cores and the
// machine's load blur less than the rates.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { LoamClient } from '../src/client/index.js';
import { medianOf, pct, round, timed, type Sample } from './_stats.js';
import { startNode } from './gateway.js';

export const TARGET_RATIO = 0.9;
/** One request may take at most this long (bare fetch; the client has its own deadline). */
export const REQUEST_DEADLINE_MS = 10_000;
/** Quota values set for the bench org (per second / slots): never reached. */
export const BENCH_QUOTA = 1_000_000_000;
export const BENCH_QUERY_SLOTS = 100_000;
const DOCS = 100;

function line(metric: string, value: number, unit: string, extra: Record<string, unknown> = {}): void {
  console.log(JSON.stringify({ bench: 'client', backend: 'embedded+file', metric, value: round(value, 3), unit, ...extra }));
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command()
    .name('bench client')
    .option('--rounds <n>', 'measured rounds per side (client and bare fetch alternate)', '9')
    .option('--seconds <n>', 'seconds per round', '1.5')
    .option('--clients <n>', 'concurrent request loops', '16')
    .parse(['node', 'client', ...argv])
    .opts<{ rounds: string; seconds: string; clients: string }>();
  const rounds = Math.max(1, Number(o.rounds));
  const seconds = Math.max(0.2, Number(o.seconds));
  const clients = Math.max(1, Number(o.clients));
  const load0 = loadavg()[0]!;
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-client-'));
  const dev = await startNode(dir);
  if (!dev.key || !dev.operatorKey) {
    await dev.stop();
    throw new Error('loam dev printed no API keys');
  }
  const node = { url: `http://127.0.0.1:${dev.port}`, key: dev.key, operatorKey: dev.operatorKey, stop: dev.stop };
  try {
    const loam = new LoamClient({ url: node.url, key: node.key });
    // Quotas out of the way: the operator's to raise.
    const operator = new LoamClient({ url: node.url, key: node.operatorKey });
    for (const [name, value] of [
      ['request_rate', BENCH_QUOTA],
      ['ingest_bytes_per_s', BENCH_QUOTA],
      ['concurrent_query_slots', BENCH_QUERY_SLOTS],
      ['namespace_query_slots', BENCH_QUERY_SLOTS],
    ] as const) {
      await operator.orgs.setQuota('default', { name, value });
    }
    await loam.namespaces.create('bench');
    await loam.collections.create('bench', { name: 'docs', primary_key: 'id' });
    const docs = loam.collection('bench', 'docs');
    await docs.upsert(Array.from({ length: DOCS }, (_, i) => ({ id: `d${i}`, n: i, name: `document ${i}`, tags: ['a', 'b'] })));

    const auth = { authorization: `Bearer ${node.key}` };
    const base = `${node.url}/v1/namespaces/bench/collections/docs/documents/`;
    const bare = async (i: number) => {
      const r = await fetch(base + `d${i % DOCS}`, { headers: auth, signal: AbortSignal.timeout(REQUEST_DEADLINE_MS) });
      if (r.status !== 200) throw new Error(`bare GET answered ${r.status}`);
      await r.json();
    };
    const viaClient = (i: number) => docs.get(`d${i % DOCS}`);
    // Warm both paths (connections, JIT, the gateway's key and decision caches).
    await timed(Math.min(1, seconds), viaClient, clients);
    await timed(Math.min(1, seconds), bare, clients);

    const c: Sample[] = [];
    const b: Sample[] = [];
    const cpu = { client: [] as number[], bare: [] as number[] };
    /** A round, and this process's CPU µs per request during it. */
    const round_ = async (side: 'client' | 'bare') => {
      const c0 = process.cpuUsage();
      const s = await timed(seconds, side === 'client' ? viaClient : bare, clients);
      const used = process.cpuUsage(c0);
      cpu[side].push((used.user + used.system) / Math.max(1, s.lat.length));
      return s;
    };
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? (['client', 'bare'] as const) : (['bare', 'client'] as const);
      for (const side of order) (side === 'client' ? c : b).push(await round_(side));
    }
    const cr = medianOf(c.map((s) => s.rate));
    const br = medianOf(b.map((s) => s.rate));
    const cl = c.flatMap((s) => s.lat);
    const bl = b.flatMap((s) => s.lat);
    line('client_get_per_s', cr, 'ops/s', { baseline: round(br), ratio: round(cr / br, 3) });
    line('client_get_p50_ms', pct(cl, 50), 'ms', { baseline: round(pct(bl, 50), 3) });
    line('client_get_p99_ms', pct(cl, 99), 'ms', { baseline: round(pct(bl, 99), 3) });
    const cc = medianOf(cpu.client);
    const bc = medianOf(cpu.bare);
    line('client_cpu_us_per_get', cc, 'us', { baseline: round(bc), ratio: round(cc / bc, 3) });
    line('client_overhead_ratio', cr / br, 'ratio', {
      target: TARGET_RATIO,
      met: cr / br >= TARGET_RATIO,
      rounds,
      seconds,
      clients,
      loadavg_1m: [round(load0), round(loadavg()[0]!)],
    });
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

// `npm run bench -- scale [--max N | --sizes N,M] [--only <figure>] [--reuse <dir>] [--idle-s S] [--touched K] [--ops K]`
//
// Issue 17's proof that a node's cost follows what it owns, at N = 10,000, 100,000 and
// 1,000,000 namespaces (one collection each), the sizes up to --max (CI: the small size).
// Each figure prints JSON lines { bench: 'scale', metric, n, value, unit, baseline?, ratio?,
// target? } with its baseline from the same run. The placement figures (here):
//   rebalance_keys_moved_fraction  the fraction of the N collection keys whose owner changes
//                                  when a fifth node joins four; baseline the ideal 1/5;
//                                  target ratio ≤ 1.3.
//   max_over_mean_load             the busiest node's load ÷ the mean with bounded load, on
//                                  Zipf(s = ZIPF_S) requests over the N keys, five nodes;
//                                  baseline the same requests placed without bounded load;
//                                  target ≤ 1 + ε + 0.05.
//   forwarded_read_p50_ms, _p99_ms a strong read by key through a node that forwards it to the
//                                  collection's owner; baseline the same read on the owner
//                                  (bench/_scale_forward.ts): the cost of routing.
// The node figures (idle metastore calls/s, CPU, RSS, ready_s, p99s) are producers in
// bench/_scale_node.ts, which exports `NODE_FIGURES: ScaleFigure[]`; they run after these.
import { existsSync } from 'node:fs';
import { Command } from 'commander';
import { BOUNDED_LOAD_EPSILON, BoundedLoad, Placement, placementKey, type PlacementKey } from '../src/router/placement.js';
import { round } from './_stats.js';
import { forwardCost } from './_scale_forward.js';
import type { ScaleFigure, ScaleOptions } from './_scale_types.js';

/** The namespace counts of issue 17; --max keeps those up to it. */
export const SCALE_SIZES = [10_000, 100_000, 1_000_000] as const;
/** Zipf exponent of the skewed load (web-like request popularity). */
const ZIPF_S = 1.1;
/** Requests placed for max_over_mean_load at each N (enough that the mean is large against ⌈·⌉). */
const ZIPF_REQUESTS = 200_000;
/** Nodes before the join, and after. */
const NODES_BEFORE = 4;

const nodes = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `node-${i}` }));

/** One collection per namespace, as the setup creates them (namespace i, collection i). */
function keysFor(n: number): PlacementKey[] {
  return Array.from({ length: n }, (_, i) => placementKey.collection(i + 1, i + 1));
}

const rebalance: ScaleFigure = {
  name: 'rebalance_keys_moved_fraction',
  async run(o) {
    const four = new Placement(nodes(NODES_BEFORE));
    const five = new Placement(nodes(NODES_BEFORE + 1));
    for (const n of o.sizes) {
      let moved = 0;
      for (const k of keysFor(n)) if (four.owner(k) !== five.owner(k)) moved++;
      const ideal = 1 / (NODES_BEFORE + 1);
      o.line('rebalance_keys_moved_fraction', n, moved / n, 'fraction', { baseline: ideal, ratio: round(moved / n / ideal, 3), target: 'ratio <= 1.3' });
    }
  },
};

/** Request i's key index under Zipf(s) over n keys: inverse CDF on a fixed low-discrepancy sequence, so every run places the same load. */
function zipfSampler(n: number, s: number): (i: number) => number {
  const cdf = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) cdf[i] = acc += 1 / (i + 1) ** s;
  for (let i = 0; i < n; i++) cdf[i]! /= acc;
  return (i) => {
    const u = (i * 0.6180339887498949) % 1;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

const boundedLoad: ScaleFigure = {
  name: 'max_over_mean_load',
  async run(o) {
    const p = new Placement(nodes(NODES_BEFORE + 1));
    for (const n of o.sizes) {
      const keys = keysFor(n);
      const sample = zipfSampler(n, ZIPF_S);
      const bounded = new BoundedLoad(p);
      const plain = new Map<string, number>();
      for (let i = 0; i < ZIPF_REQUESTS; i++) {
        const k = keys[sample(i)]!;
        bounded.assign(k);
        const owner = p.owner(k);
        plain.set(owner, (plain.get(owner) ?? 0) + 1);
      }
      const mean = ZIPF_REQUESTS / p.size;
      const max = Math.max(...bounded.loads().values());
      const unbounded = Math.max(...plain.values()) / mean;
      o.line('max_over_mean_load', n, max / mean, 'ratio', {
        baseline: round(unbounded, 3),
        ratio: round(max / mean / unbounded, 3),
        epsilon: BOUNDED_LOAD_EPSILON,
        target: `value <= ${round(1 + BOUNDED_LOAD_EPSILON + 0.05, 2)}`,
      });
    }
  },
};

/** The figure producers, in order: placement's here, then the node figures' (bench/_scale_node.ts) when present. */
async function figures(): Promise<ScaleFigure[]> {
  const out: ScaleFigure[] = [rebalance, boundedLoad, forwardCost];
  const node = new URL('./_scale_node.ts', import.meta.url);
  if (existsSync(node)) out.push(...((await import(node.href)) as { NODE_FIGURES: ScaleFigure[] }).NODE_FIGURES);
  return out;
}

export async function main(argv: string[]): Promise<void> {
  const all = await figures();
  const opts = new Command('bench scale')
    .description("issue 17's figures at 10,000, 100,000 and 1,000,000 namespaces, each with a same-run baseline")
    .option('--max <n>', `the largest namespace count to measure (of ${SCALE_SIZES.join(', ')})`, String(SCALE_SIZES[0]))
    .option('--sizes <list>', `namespace counts to measure instead, comma-separated (each of ${SCALE_SIZES.join(', ')})`)
    .option('--only <figure>', `one figure: ${all.map((f) => f.name).join(', ')}`)
    .option('--reuse <dir>', 'keep each size\'s set-up catalog in <dir>/n<N> and use it again when its namespace count checks out (bench only)')
    .option('--idle-s <s>', 'seconds of the idle window (default 30)')
    .option('--touched <k>', 'namespaces the mixed load touches before node_rss_mb (default 1,000)')
    .option('--ops <k>', 'writes, then strong reads, timed on one namespace (default 3,000)')
    .parse(argv, { from: 'user' })
    .opts<{ max: string; sizes?: string; only?: string; reuse?: string; idleS?: string; touched?: string; ops?: string }>();
  const max = Number(opts.max);
  if (!Number.isSafeInteger(max) || max < SCALE_SIZES[0]) throw new Error(`--max must be an integer ≥ ${SCALE_SIZES[0]}`);
  const picked = opts.sizes?.split(',').map(Number);
  if (picked && (picked.length === 0 || picked.some((n) => !(SCALE_SIZES as readonly number[]).includes(n)))) throw new Error(`--sizes must list some of ${SCALE_SIZES.join(', ')}, got "${opts.sizes}"`);
  const sizes = picked ? SCALE_SIZES.filter((n) => picked.includes(n)) : SCALE_SIZES.filter((n) => n <= max);
  const run = opts.only ? all.filter((f) => f.name === opts.only) : all;
  if (run.length === 0) throw new Error(`--only: no figure ${opts.only} (${all.map((f) => f.name).join(', ')})`);
  const count = (flag: string, v: string | undefined) => {
    if (v === undefined) return undefined;
    const x = Number(v);
    if (!Number.isSafeInteger(x) || x < 1) throw new Error(`${flag} must be a positive integer, got "${v}"`);
    return x;
  };
  const node: NonNullable<ScaleOptions['node']> = {};
  const idle = count('--idle-s', opts.idleS);
  const touched = count('--touched', opts.touched);
  const ops = count('--ops', opts.ops);
  if (idle !== undefined) node.idleSeconds = idle;
  if (touched !== undefined) node.touched = touched;
  if (ops !== undefined) node.ops = ops;
  if (opts.reuse !== undefined) node.reuse = opts.reuse;
  const line: ScaleOptions['line'] = (metric, n, value, unit, extra = {}) => console.log(JSON.stringify({ bench: 'scale', metric, n, value: round(value, 4), unit, ...extra }));
  for (const f of run) await f.run({ sizes, line, node });
}

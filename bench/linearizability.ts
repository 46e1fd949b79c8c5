// `npm run bench -- linearizability [--ops N] [--keys N] [--clients N] [--seed N] [--model pointer|register] [--runs N]`
//
// Generates (seeded) a realistic concurrent history — 8 clients doing reads and
// compare-and-swaps on 64 keys (a few of them hot), with overlapping intervals and a few
// unknown (`info`) outcomes — checks it, and prints JSON lines (scenario "spread"; then the
// same for scenario "contended": 16 clients on 4 keys, unless --no-contended):
//   check_seconds   the whole check (parse, pair, prepare, partition, search), median of runs;
//                   baseline = parse + pair + prepare + partition alone, ratio = check / baseline
//   ops_per_second  operations checked per second
//   violation_check_seconds   the same history with one read corrupted (must be rejected)
// Target: under 5 s for 10,000 operations.
import { mulberry32 } from '../src/check/prng.js';
import { Command, InvalidArgumentError } from 'commander';
import { checkHistory, createModel, partition, readHistory, type HistoryEvent } from '../src/check/index.js';

function int(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function prng(seed: number) {
  const next = mulberry32(seed);
  return { next, int: (n: number) => Math.floor(next() * n) };
}

interface Planned {
  client: number;
  call: number;
  lin: number;
  ret: number;
  key: string;
  read: boolean;
  info: 'none' | 'applied' | 'lost';
  args?: Record<string, unknown>;
  status?: 'ok' | 'fail' | 'info';
  result?: unknown;
}

/** Fraction of operations on the hot keys, and how many keys are hot. */
const HOT_SHARE = 0.2;
const HOT_KEYS = 4;
/** Fraction of writes whose outcome the client never learns. */
const INFO_RATE = 0.01;

/**
 * A discrete-event simulation: each client issues one call at a time (think time 0–2 ms,
 * latency 1–10 ms); each call takes effect at a random point inside its interval. Calls are
 * applied in the order they take effect, so the history is linearizable by construction.
 */
export function generate(opts: { ops: number; keys: number; clients: number; seed: number; model: 'pointer' | 'register' }): HistoryEvent[] {
  const rng = prng(opts.seed);
  const plan: Planned[] = [];
  const clock = new Array<number>(opts.clients).fill(0);
  for (let i = 0; i < opts.ops; i++) {
    // The client that is free first issues the next call.
    let c = 0;
    for (let j = 1; j < opts.clients; j++) if (clock[j]! < clock[c]!) c = j;
    const call = clock[c]! + rng.next() * 2;
    const latency = 1 + rng.next() * 9;
    const ret = call + latency;
    const k = rng.next() < HOT_SHARE ? rng.int(HOT_KEYS) : rng.int(opts.keys);
    const read = rng.next() < 0.5;
    const info = !read && rng.next() < INFO_RATE ? (rng.next() < 0.5 ? 'applied' : 'lost') : 'none';
    plan.push({ client: c, call, lin: call + rng.next() * latency, ret, key: `k${k}`, read, info });
    clock[c] = ret;
  }
  // Apply in linearization order; a client's earlier calls are always applied before its later ones.
  const byLin = [...plan].sort((a, b) => a.lin - b.lin);
  const ptr = new Map<string, { version: number; value: string }>();
  const reg = new Map<string, number>();
  const seen = new Map<string, number | null>(); // client/key -> version (or value) it last saw
  let n = 0;
  for (const p of byLin) {
    const sk = `${p.client}/${p.key}`;
    if (opts.model === 'pointer') {
      const cur = ptr.get(p.key) ?? null;
      if (p.read) {
        p.args = { key: p.key };
        p.status = 'ok';
        p.result = cur ? { ...cur } : null;
        seen.set(sk, cur?.version ?? null);
        continue;
      }
      const expectedVersion = seen.has(sk) ? seen.get(sk)! : (cur?.version ?? null);
      const value = `v${n++}`;
      p.args = { key: p.key, expectedVersion, value };
      const applies = expectedVersion === (cur?.version ?? null) && p.info !== 'lost';
      if (applies) ptr.set(p.key, { version: (cur?.version ?? 0) + 1, value });
      if (p.info !== 'none') {
        p.status = 'info';
        seen.delete(sk);
      } else if (applies) {
        p.status = 'ok';
        p.result = { version: (cur?.version ?? 0) + 1 };
        seen.set(sk, (cur?.version ?? 0) + 1);
      } else {
        p.status = 'fail';
        p.result = { code: 'VersionMismatch', details: { currentVersion: cur?.version ?? null } };
        seen.set(sk, cur?.version ?? null);
      }
    } else {
      const cur = reg.get(p.key) ?? null;
      if (p.read) {
        p.args = { key: p.key };
        p.status = 'ok';
        p.result = cur;
        seen.set(sk, cur);
        continue;
      }
      const from = seen.has(sk) ? seen.get(sk)! : cur;
      const to = n++;
      p.args = { key: p.key, from, to };
      const applies = from === cur && p.info !== 'lost';
      if (applies) reg.set(p.key, to);
      p.status = p.info !== 'none' ? 'info' : applies ? 'ok' : 'fail';
      if (p.status === 'fail') p.result = { code: 'Mismatch' };
      seen.set(sk, applies ? to : cur);
    }
  }
  const op = opts.model === 'pointer' ? (p: Planned) => (p.read ? 'pointer' : 'casPointer') : (p: Planned) => (p.read ? 'read' : 'cas');
  const events: { ev: HistoryEvent; t: number; o: number }[] = [];
  for (const p of plan) {
    events.push({ ev: { process: p.client, type: 'invoke', op: op(p), args: p.args!, time: round(p.call) }, t: p.call, o: 1 });
    const done: HistoryEvent = { process: p.client, type: p.status!, op: op(p), time: round(p.ret) };
    if (p.result !== undefined) done.result = p.result;
    events.push({ ev: done, t: p.ret, o: 0 });
  }
  events.sort((a, b) => a.t - b.t || a.o - b.o);
  return events.map((e) => e.ev);
}

const round = (t: number) => Math.round(t * 1000) / 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Scenario {
  name: string;
  ops: number;
  keys: number;
  clients: number;
  seed: number;
  runs: number;
  model: 'pointer' | 'register';
}

function runScenario(sc: Scenario): void {
  const { model } = sc;
  const events = generate(sc);
  const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const common = { bench: 'linearizability', scenario: sc.name, model, ops: sc.ops, keys: sc.keys, clients: sc.clients };

  // Baseline: everything but the search — parse, pair, prepare, partition.
  const baseline: number[] = [];
  const check: number[] = [];
  let last = checkHistory(text, model); // warm-up
  for (let r = 0; r < sc.runs; r++) {
    let t = performance.now();
    const m = createModel(model);
    const parts = partition(m.prepare(readHistory(text)).subs);
    baseline.push((performance.now() - t) / 1000);
    if (parts.length === 0) throw new Error('no partitions');
    t = performance.now();
    last = checkHistory(text, model);
    check.push((performance.now() - t) / 1000);
  }
  if (last.verdict !== 'linearizable') {
    throw new Error(`the generated history must be linearizable, got ${last.verdict}: ${JSON.stringify(last.violation ?? last.unknown)}`);
  }
  const secs = median(check);
  const base = median(baseline);
  const infos = events.filter((e) => e.type === 'info').length;
  const line = (o: object) => console.log(JSON.stringify({ ...common, ...o }));
  line({ metric: 'check_seconds', value: round(secs), unit: 's', baseline: round(base), ratio: Math.round((secs / base) * 100) / 100 });
  line({ metric: 'ops_per_second', value: Math.round(sc.ops / secs), unit: 'ops/s' });
  line({ metric: 'parse_partition_seconds', value: round(base), unit: 's' });
  line({ metric: 'search_steps', value: last.searchSteps, unit: 'steps', partitions: last.partitions, info_ops: infos });

  // The failure path: corrupt one late read (a stale version) and check again.
  let idx = events.length - 1;
  while (idx >= 0 && !(events[idx]!.type === 'ok' && (events[idx]!.op === 'pointer' || events[idx]!.op === 'read') && events[idx]!.result !== null)) idx--;
  const bad = events.slice();
  const ev = { ...bad[idx]! };
  ev.result = model === 'pointer' ? { ...(ev.result as { version: number; value: string }), version: 0 } : -1;
  bad[idx] = ev;
  const t = performance.now();
  const violated = checkHistory(bad.map((e) => JSON.stringify(e)).join('\n') + '\n', model);
  const vsecs = (performance.now() - t) / 1000;
  // `unknown` (the budget ran out proving it) is an honest answer for a hard history; accepting it is a bug.
  if (violated.verdict === 'linearizable') throw new Error('the corrupted history must not be accepted');
  line({ metric: 'violation_check_seconds', value: round(vsecs), unit: 's', verdict: violated.verdict });
}

export async function main(argv: string[]): Promise<void> {
  const opts = new Command()
    .name('bench linearizability')
    .option('--ops <n>', 'operations in the history', int, 10_000)
    .option('--keys <n>', 'keys', int, 64)
    .option('--clients <n>', 'concurrent clients', int, 8)
    .option('--seed <n>', 'PRNG seed', int, 42)
    .option('--runs <n>', 'checks to take the median of', int, 5)
    .option('--model <name>', 'pointer or register', 'pointer')
    .option('--no-contended', 'skip the second, contended scenario (16 clients on 4 keys)')
    .parse(argv, { from: 'user' })
    .opts<{ ops: number; keys: number; clients: number; seed: number; runs: number; model: string; contended: boolean }>();
  if (opts.model !== 'pointer' && opts.model !== 'register') throw new Error(`--model must be pointer or register`);
  const model = opts.model;
  runScenario({ name: 'spread', ops: opts.ops, keys: opts.keys, clients: opts.clients, seed: opts.seed, runs: opts.runs, model });
  // The same size with every client on a handful of keys: many overlapping calls per key.
  if (opts.contended) runScenario({ name: 'contended', ops: opts.ops, keys: 4, clients: 16, seed: opts.seed, runs: opts.runs, model });
}

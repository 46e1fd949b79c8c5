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
//
// Then (unless --no-kill) the histories real faults produce: register histories shaped like
// those recorded through the HTTP API with SIGKILLs (70,000 reads and writes over 8 keys, 10
// clients, about 60 writes cut by a kill, most never read), one node and a 3-node cluster
// (24 clients, slower calls, more overlap), generated seeded by test/check/kill-history.ts:
//   kill_history_check_seconds       the whole check, median of --kill-runs; target under 1 s,
//                                    never unknown; baseline = parse + prepare + partition;
//                                    parsed_check_seconds: the check of operations already parsed
//   kill_history_check_seconds_before  the check as it was (./_check_before.ts), under
//                                    --before-budget-ms, with its verdict
//   kill_history_violation_seconds   the same history with a stale read after a kill (and _before)
// and (unless --no-models) every model's random concurrent history from the test generators,
// checked now and as before: model_check_seconds (with value_before).
import { mulberry32 } from '../src/check/prng.js';
import { Command, InvalidArgumentError } from 'commander';
import { checkHistory, checkOps, createModel, partition, readHistory, type CheckResult, type HistoryEvent } from '../src/check/index.js';
import { GENERATORS } from '../test/check/gen.js';
import { eventsText, prng as testPrng, toEvents, type Call } from '../test/check/helpers.js';
import { CLUSTER_KILL_HISTORY, KILL_HISTORY, killHistory, type KillHistoryOptions } from '../test/check/kill-history.js';
import { checkBefore } from './_check_before.js';

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
  const before = checkBefore(text, model, 60_000);
  line({
    metric: 'check_seconds',
    value: round(secs),
    unit: 's',
    baseline: round(base),
    ratio: Math.round((secs / base) * 100) / 100,
    value_before: round(before.ms / 1000),
    verdict_before: before.verdict,
  });
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

const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

function runKill(name: string, o: KillHistoryOptions, runs: number, beforeBudgetMs: number): void {
  const common = { bench: 'linearizability', scenario: name, model: 'register', ops: o.ops, keys: o.keys, clients: o.clients, nodes: o.nodes };
  const line = (x: object) => console.log(JSON.stringify({ ...common, ...x }));
  for (const staleRead of [false, true]) {
    const h = killHistory({ ...o, staleRead });
    const text = eventsText(h.events);
    const metric = staleRead ? 'kill_history_violation_seconds' : 'kill_history_check_seconds';
    const expected = staleRead ? 'not linearizable' : 'linearizable';
    const base: number[] = [];
    const wall: number[] = [];
    const cpu: number[] = [];
    const unparsed: number[] = [];
    const parsed = readHistory(text);
    let r: CheckResult | undefined;
    for (let i = 0; i < runs; i++) {
      let t = performance.now();
      partition(createModel('register').prepare(readHistory(text)).subs);
      base.push((performance.now() - t) / 1000);
      // The check of operations already parsed and paired (what Porcupine's figure measures).
      t = performance.now();
      checkOps(parsed, createModel('register'));
      unparsed.push((performance.now() - t) / 1000);
      t = performance.now();
      const c = cpuSeconds();
      r = checkHistory(text, 'register');
      cpu.push(cpuSeconds() - c);
      wall.push((performance.now() - t) / 1000);
      if (r.verdict !== expected) throw new Error(`${name}${staleRead ? ' with a stale read' : ''}: expected ${expected}, got ${r.verdict}: ${JSON.stringify(r.unknown ?? r.violation?.message)}`);
    }
    const secs = median(wall);
    line({
      metric,
      value: round(secs),
      unit: 's',
      verdict: r!.verdict,
      cpu_seconds: round(median(cpu)),
      parsed_check_seconds: round(median(unparsed)),
      search_steps: r!.searchSteps,
      baseline: round(median(base)),
      ratio: Math.round((secs / median(base)) * 100) / 100,
      info_writes: h.infoWrites,
      info_writes_read: h.infoWritesRead,
      set_aside: r!.setAside,
      ...(staleRead ? {} : { target: 1 }),
    });
    const b = checkBefore(text, 'register', beforeBudgetMs);
    line({
      metric: `${metric}_before`,
      value: round(b.ms / 1000),
      unit: 's',
      verdict: b.verdict,
      ...(b.reason ? { reason: b.reason } : {}),
      search_steps: b.searchSteps,
      budget_seconds: beforeBudgetMs / 1000,
    });
  }
}

/** Calls per model history in the models comparison, and the share of unknown outcomes. */
const MODEL_CALLS = 3000;
const MODEL_INFO_SHARE = 0.05;

function runModels(runs: number, beforeBudgetMs: number): void {
  for (const gen of GENERATORS) {
    for (const spread of [25, 60]) {
      const rng = testPrng(7);
      const calls: Call[] = gen.run(rng, MODEL_CALLS).map((c) => (rng.chance(MODEL_INFO_SHARE) ? { ...c, status: 'info', result: undefined } : c));
      const text = eventsText(toEvents(calls, { concurrent: true, rng, spread }));
      const now: number[] = [];
      const before: number[] = [];
      let r: CheckResult | undefined;
      let b: ReturnType<typeof checkBefore> | undefined;
      for (let i = 0; i < runs; i++) {
        const t = performance.now();
        r = checkHistory(text, gen.model);
        now.push((performance.now() - t) / 1000);
        b = checkBefore(text, gen.model, beforeBudgetMs);
        before.push(b.ms / 1000);
      }
      if (r!.verdict !== 'linearizable') throw new Error(`${gen.label ?? gen.model}: expected linearizable, got ${r!.verdict}`);
      const v = median(now);
      const vb = median(before);
      console.log(
        JSON.stringify({
          bench: 'linearizability',
          scenario: `model ${gen.label ?? gen.model}`,
          model: gen.model,
          calls: MODEL_CALLS,
          spread,
          metric: 'model_check_seconds',
          value: round(v),
          unit: 's',
          verdict: r!.verdict,
          search_steps: r!.searchSteps,
          value_before: round(vb),
          verdict_before: b!.verdict,
          search_steps_before: b!.searchSteps,
          ratio: Math.round((v / vb) * 100) / 100,
        }),
      );
    }
  }
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
    .option('--no-kill', 'skip the kill histories (single node and 3-node cluster)')
    .option('--kill-ops <n>', 'operations in each kill history', int, KILL_HISTORY.ops)
    .option('--kill-runs <n>', 'checks of each kill history to take the median of', int, 3)
    .option('--before-budget-ms <n>', 'time budget of the check as it was before (the baseline)', int, 15_000)
    .option('--no-models', 'skip the comparison of every model with the check as it was before')
    .parse(argv, { from: 'user' })
    .opts<{
      ops: number;
      keys: number;
      clients: number;
      seed: number;
      runs: number;
      model: string;
      contended: boolean;
      kill: boolean;
      killOps: number;
      killRuns: number;
      beforeBudgetMs: number;
      models: boolean;
    }>();
  if (opts.model !== 'pointer' && opts.model !== 'register') throw new Error(`--model must be pointer or register`);
  const model = opts.model;
  runScenario({ name: 'spread', ops: opts.ops, keys: opts.keys, clients: opts.clients, seed: opts.seed, runs: opts.runs, model });
  // The same size with every client on a handful of keys: many overlapping calls per key.
  if (opts.contended) runScenario({ name: 'contended', ops: opts.ops, keys: 4, clients: 16, seed: opts.seed, runs: opts.runs, model });
  if (opts.kill) {
    // Kills scale with the history, so unknown writes keep the recorded density.
    const sized = (o: KillHistoryOptions) => ({ ...o, ops: opts.killOps, kills: Math.max(1, Math.round((o.kills * opts.killOps) / o.ops)) });
    runKill('kill single node', sized(KILL_HISTORY), opts.killRuns, opts.beforeBudgetMs);
    runKill('kill 3-node cluster', sized(CLUSTER_KILL_HISTORY), opts.killRuns, opts.beforeBudgetMs);
  }
  if (opts.models) runModels(Math.min(opts.runs, 3), opts.beforeBudgetMs);
}

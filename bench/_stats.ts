// Measurement helpers shared by the benchmarks (bench/run.ts skips files starting with '_').

/** Upper bound on operations per round, whatever the time budget. */
export const MAX_OPS_PER_ROUND = 200_000;

export interface Sample {
  /** Operations per second over the round. */
  rate: number;
  /** Each operation's latency, ms. */
  lat: number[];
  /**
   * This process's user CPU time per operation, µs: the work of the code and of SQLite itself,
   * without the kernel's (fsync, whose cost other processes on the machine move a lot).
   */
  userCpuUs: number;
}

/**
 * Runs `op` from `writers` concurrent loops until `seconds` are spent (or MAX_OPS_PER_ROUND
 * operations); the rate is over all loops. `i` numbers the operations of the round.
 */
export async function timed(seconds: number, op: (i: number, w: number) => unknown, writers = 1): Promise<Sample> {
  const lat: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let i = 0;
  await Promise.all(
    Array.from({ length: writers }, async (_, w) => {
      while (i < MAX_OPS_PER_ROUND) {
        const n = i++;
        const a = performance.now();
        const r = op(n, w);
        if (r instanceof Promise) await r;
        const b = performance.now();
        lat.push(b - a);
        if (b >= end) break;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { rate: i / ((performance.now() - t0) / 1000), lat, userCpuUs: cpu.user / Math.max(1, i) };
}

/** The p-th percentile (0–100) of `xs`; 0 for none. */
export function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0;
}

/** The round with the median rate. */
export function median(xs: Sample[]): Sample {
  return [...xs].sort((a, b) => a.rate - b.rate)[Math.floor(xs.length / 2)]!;
}

export function medianOf(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export function round(x: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

/** One metric measured through Loam and through the raw statements it needs. */
export interface Case {
  metric: string;
  loam: (i: number) => unknown;
  raw: (i: number) => unknown;
}

/**
 * Alternating Loam/baseline rounds per case; prints the median round's rate and its
 * p50/p99 as `<metric>_per_s`, `_p50_ms`, `_p99_ms`, each with the baseline and the ratio.
 * With `cpu` (both sides run in this process), also `<metric>_user_cpu_us`: the least user CPU
 * time per operation over the rounds, for each side.
 */
export async function compareCases(cases: Case[], o: { bench: string; backend: string; rounds: number; seconds: number; cpu?: boolean }): Promise<void> {
  let base = 0;
  for (const c of cases) {
    const ls: Sample[] = [];
    const rs: Sample[] = [];
    for (let r = 0; r < o.rounds; r++) {
      const off = base + r * MAX_OPS_PER_ROUND; // operation numbers never repeat across rounds
      ls.push(await timed(o.seconds, (i) => c.loam(off + i)));
      rs.push(await timed(o.seconds, (i) => c.raw(off + i)));
    }
    base += o.rounds * MAX_OPS_PER_ROUND;
    const l = median(ls);
    const b = median(rs);
    const line = (metric: string, value: number, unit: string, baseline: number) =>
      console.log(
        JSON.stringify({ bench: o.bench, backend: o.backend, metric, value: round(value), unit, baseline: round(baseline), ratio: round(value / baseline, 3) }),
      );
    line(`${c.metric}_per_s`, l.rate, 'ops/s', b.rate);
    line(`${c.metric}_p50_ms`, pct(l.lat, 50), 'ms', pct(b.lat, 50));
    line(`${c.metric}_p99_ms`, pct(l.lat, 99), 'ms', pct(b.lat, 99));
    if (o.cpu) line(`${c.metric}_user_cpu_us`, Math.min(...ls.map((x) => x.userCpuUs)), 'µs/op', Math.min(...rs.map((x) => x.userCpuUs)));
  }
}

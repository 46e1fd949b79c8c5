// The soak's fault schedule, drawn from a seed and printed before the run, so a failing soak
// can be run again as it was: Toxiproxy toxics on the metastore link and on the store link,
// one at a time and overlapping, and SIGKILLs of nodes (each restarted on the same data).
import { mulberry32 } from '../../src/check/prng.js';
import type { Toxic } from '../harness/toxiproxy.js';
import type { Link } from './cluster.js';

export const FAULT_KINDS = ['latency', 'timeout', 'reset_peer', 'limit_data', 'down'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** No fault in the first seconds (the nodes start, the collection is created)… */
export const WARMUP_MS = 3_000;
/** …nor in the last ones, so the run ends with every link healthy for a while. */
export const COOLDOWN_MS = 4_000;
/** A link is down for 1–10 s (issue 22); other toxics last 1–5 s. */
export const DOWN_MS: [number, number] = [1_000, 10_000];
export const TOXIC_MS: [number, number] = [1_000, 5_000];
/** Latency 50–500 ms, with jitter up to half of it. */
export const LATENCY_MS: [number, number] = [50, 500];
/** Between two faults that do not overlap. */
export const GAP_MS: [number, number] = [300, 2_000];
/** Share of faults that start while the previous one is still on. */
export const OVERLAP_SHARE = 0.35;
/** No kill in the last seconds: the restarted node must be back before the end checks. */
export const KILL_COOLDOWN_MS = 10_000;
/** A node is SIGKILLed every 6–14 s of the soak. */
export const KILL_EVERY_MS: [number, number] = [6_000, 14_000];

export interface FaultEvent {
  id: number;
  at: number;
  duration: number;
  link: Link;
  kind: FaultKind;
  /** For toxics (not `down`). */
  toxic?: Toxic;
  stream?: 'downstream' | 'upstream';
}

export interface KillEvent {
  at: number;
  /** Index of the node killed. */
  node: number;
}

export interface Schedule {
  seed: number;
  faults: FaultEvent[];
  kills: KillEvent[];
}

export function makeSchedule(o: { seed: number; durationMs: number; links: Link[]; nodes: number; kills?: boolean }): Schedule {
  const rng = mulberry32(o.seed);
  const between = ([lo, hi]: [number, number]) => Math.round(lo + rng() * (hi - lo));
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
  const faults: FaultEvent[] = [];
  const last = o.durationMs - COOLDOWN_MS;
  let t = WARMUP_MS;
  // Every kind once (in a seeded order) before any repeats, so a short soak injects each.
  const firsts = [...FAULT_KINDS].sort(() => rng() - 0.5);
  for (let id = 0; t < last && o.links.length > 0 && id < 100_000; id++) {
    const kind = id < firsts.length ? firsts[id]! : pick(FAULT_KINDS);
    const link = pick(o.links);
    const duration = Math.min(between(kind === 'down' ? DOWN_MS : TOXIC_MS), last - t);
    if (duration < 200) break;
    const e: FaultEvent = { id, at: t, duration, link, kind };
    switch (kind) {
      case 'latency': {
        const latency = between(LATENCY_MS);
        e.toxic = { type: 'latency', attributes: { latency, jitter: Math.round(rng() * latency * 0.5) } };
        break;
      }
      case 'timeout':
        // Data stops; the connection is closed after this long.
        e.toxic = { type: 'timeout', attributes: { timeout: between([500, 3_000]) } };
        break;
      case 'reset_peer':
        e.toxic = { type: 'reset_peer', attributes: { timeout: between([0, 1_000]) } };
        break;
      case 'limit_data':
        e.toxic = { type: 'limit_data', attributes: { bytes: between([500, 50_000]) } };
        break;
      case 'down':
        break;
    }
    if (e.toxic) e.stream = rng() < 0.5 ? 'downstream' : 'upstream';
    faults.push(e);
    t = rng() < OVERLAP_SHARE ? t + Math.round(rng() * duration) : t + duration + between(GAP_MS);
  }
  const kills: KillEvent[] = [];
  if (o.kills !== false) {
    for (let k = WARMUP_MS + between(KILL_EVERY_MS); k < o.durationMs - KILL_COOLDOWN_MS; k += between(KILL_EVERY_MS)) kills.push({ at: k, node: Math.floor(rng() * o.nodes) });
  }
  return { seed: o.seed, faults, kills };
}

export function describeSchedule(s: Schedule): string {
  const lines = [`schedule (seed ${s.seed}): ${s.faults.length} faults, ${s.kills.length} SIGKILLs`];
  for (const f of s.faults) {
    const attrs = f.toxic ? ` ${f.stream} ${JSON.stringify(f.toxic.attributes)}` : '';
    lines.push(`  ${(f.at / 1000).toFixed(1).padStart(6)} s  +${(f.duration / 1000).toFixed(1)} s  ${f.link.padEnd(5)} ${f.kind}${attrs}`);
  }
  for (const k of s.kills) lines.push(`  ${(k.at / 1000).toFixed(1).padStart(6)} s  SIGKILL node ${k.node}, then restart`);
  return lines.join('\n');
}

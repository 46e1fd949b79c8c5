// Linearizability histories recorded THROUGH Toxiproxy (issue 22): the clients' metastore
// connections pass a proxy on which latency, timeout and reset_peer toxics come and go, so an
// unknown outcome is the network's (a COMMIT whose acknowledgement was cut, a transaction
// that timed out), never one the recorder made up (its fake lost outcomes are off). The
// setup runs directly; only the recorded calls go through the proxy.
import { checkHistory, type CheckResult, type HistoryEvent } from '../../src/check/index.js';
import { mulberry32 } from '../../src/check/prng.js';
import type { MetaStore } from '../../src/meta/index.js';
import type { RetryPolicy } from '../../src/meta/retry.js';
import { backendFactory, type Location } from '../harness/backends.js';
import { Toxiproxy, hostPort, viaProxy, type Toxic } from '../harness/toxiproxy.js';
import { record } from '../linearizability/recorder.js';
import { LOG_PARTITIONS, SCENARIOS, type SetupCtx } from '../linearizability/scenarios.js';

export const HISTORY_CLIENTS = 8;
/**
 * A toxic is on for 100–600 ms, then the link is clean for 50–300 ms; the first is on before
 * the clients start, and the clients pace their calls (HISTORY_PACE_MS) so that every kind
 * comes and goes while they run.
 */
const TOXIC_ON_MS: [number, number] = [100, 600];
const TOXIC_OFF_MS: [number, number] = [50, 300];
/**
 * A client's mean think time between calls: HISTORY_CI_OPS_PER_CLIENT of them span about
 * 4 s, several cycles of every toxic kind (each is asserted).
 */
export const HISTORY_PACE_MS = 120;
/**
 * The clients' retry policy: four attempts, their backoffs (full jitter: up to 250, 500 and
 * 1000 ms) spreading them past a toxic's lifetime (TOXIC_ON_MS: at most 600 ms), within a
 * budget no slow call reaches. An unknown outcome is then one the network made: every
 * attempt met a cut connection (a reset, a timeout), as a rule at more than one toxic, so
 * unknowns are real but few. With three quick attempts in 4 s, DynamoDB Local's log
 * transactions (seconds each on a loaded machine) ran out of budget or met one toxic with
 * all three: two thirds of the commits ended unknown, more than the search decides.
 */
export const FAULT_POLICY: RetryPolicy = { maxAttempts: 4, budgetMs: 20_000, baseDelayMs: 250, maxDelayMs: 1_000 };
/** A history the checker cannot decide in this long is reported, not waited for. */
const CHECK_BUDGET_MS = 30_000;

export const FAULTED_MODELS = Object.keys(SCENARIOS);

export interface FaultedHistory {
  model: string;
  events: HistoryEvent[];
  ops: number;
  unknown: number;
  refused: number;
  toxics: Record<string, number>;
  result: CheckResult;
}

async function setup(s: MetaStore): Promise<SetupCtx> {
  const ns = await s.createNamespace({ org: 'lin', name: 'ns' });
  const names = await s.createNamespace({ org: 'lin', name: 'names' });
  const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: LOG_PARTITIONS });
  return { ns: ns.id, stream: c.streamId, collection: c.id, link: c.linkId, nsNames: names.id };
}

/** The location with its endpoint replaced by a proxy in front of it. */
async function proxied(t: Toxiproxy, loc: Location, name: string): Promise<Location> {
  if (loc.backend === 'postgres') {
    const p = await t.proxy(name, `${hostPort(loc.path).host}:${hostPort(loc.path).port}`);
    return { ...loc, path: viaProxy(loc.path, p) };
  }
  if (loc.endpoint) {
    const { host, port } = hostPort(loc.endpoint);
    const p = await t.proxy(name, `${host}:${port}`);
    return { ...loc, endpoint: viaProxy(loc.endpoint, p).replace(/\/$/, '') };
  }
  throw new Error(`no network link to put a proxy on for backend ${loc.backend}`);
}

function toxicFor(kind: 'latency' | 'timeout' | 'reset_peer', rng: () => number): Toxic {
  switch (kind) {
    case 'latency': {
      const latency = 50 + Math.round(rng() * 250);
      return { type: 'latency', attributes: { latency, jitter: Math.round(latency * rng() * 0.5) } };
    }
    case 'timeout':
      return { type: 'timeout', attributes: { timeout: 100 + Math.round(rng() * 900) } };
    case 'reset_peer':
      return { type: 'reset_peer', attributes: { timeout: Math.round(rng() * 300) } };
  }
}

/** Records one model's history through a proxy under toxics, then checks it. */
export async function recordUnderFaults(o: { backend: string; model: string; opsPerClient: number; seed: number }): Promise<FaultedHistory> {
  const factory = backendFactory(o.backend, { maxChunksPerGroup: 2 });
  const toxiproxy = await Toxiproxy.start().catch((e: Error) => {
    throw new Error(`service toxiproxy did not start: ${e.message}`);
  });
  const toxics: Record<string, number> = { latency: 0, timeout: 0, reset_peer: 0 };
  try {
    const store = await factory.open();
    const ctx = await setup(store);
    const location = await proxied(toxiproxy, factory.location(store), `lin-${o.model}`);
    let done = false;
    const rng = mulberry32(o.seed);
    const between = ([lo, hi]: [number, number]) => lo + Math.round(rng() * (hi - lo));
    let firstOn!: () => void;
    const started = new Promise<void>((r) => (firstOn = r));
    const nemesis = (async () => {
      const kinds = ['latency', 'timeout', 'reset_peer'] as const;
      for (let i = 0; !done && i < 1_000_000; i++) {
        const kind = kinds[i % kinds.length]!;
        const name = `${kind}-${i}`;
        await toxiproxy.addToxic(`lin-${o.model}`, { name, stream: rng() < 0.5 ? 'downstream' : 'upstream', toxic: toxicFor(kind, rng) });
        toxics[kind]!++;
        firstOn();
        await new Promise((r) => setTimeout(r, between(TOXIC_ON_MS)));
        await toxiproxy.removeToxic(`lin-${o.model}`, name);
        await new Promise((r) => setTimeout(r, between(TOXIC_OFF_MS)));
      }
    })();
    let events: HistoryEvent[];
    try {
      await started;
      events = await record({ model: o.model, location, ctx, clients: HISTORY_CLIENTS, opsPerClient: o.opsPerClient, seed: o.seed, fakeLostOutcomes: false, policy: FAULT_POLICY, paceMs: HISTORY_PACE_MS });
    } finally {
      done = true;
      await nemesis;
    }
    const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
    const result = checkHistory(text, o.model, { budgetMs: CHECK_BUDGET_MS });
    return {
      model: o.model,
      events,
      ops: events.filter((e) => e.type !== 'invoke').length,
      unknown: events.filter((e) => e.type === 'info').length,
      refused: events.filter((e) => e.type === 'fail').length,
      toxics,
      result,
    };
  } finally {
    await toxiproxy.stop();
    await factory.cleanup();
  }
}

// Records concurrent histories against a real backend (DESIGN §6): N clients, each a worker
// thread with its own metastore handle, run a model's scenario; every logical call is
// recorded as an invoke event and a completion (ok / fail / info). Event times come from one
// shared atomic counter, so the history's real-time order is exact across threads.
import { setTimeout as sleep } from 'node:timers/promises';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { MetaError, type MetaStore } from '../../src/meta/index.js';
import { metaClient } from '../../src/meta/client.js';
import type { RetryPolicy } from '../../src/meta/retry.js';
import type { HistoryEvent } from '../../src/check/index.js';
import { openLocation, type Location } from '../harness/backends.js';
import { mulberry32, SCENARIOS, type Recorder, type SetupCtx } from './scenarios.js';

/** A busy file lock or a throttle is retried inside the call; a history records logical calls. */
const RECORD_POLICY: RetryPolicy = { maxAttempts: 8, budgetMs: 20_000, baseDelayMs: 2, maxDelayMs: 50 };
/**
 * Share of writes whose outcome the client loses (Jepsen's `info`): half of them applied and
 * their acknowledgement was dropped, half never sent. The checker must place each or leave it out.
 */
export const LOST_OUTCOME_RATE = 0.04;
const READS = new Set(['pointer', 'lease', 'partitionIndex', 'streamState', 'namespaceByName', 'collectionByName', 'collectionHead']);
/** A recording that takes longer than this is a hang, not a slow backend. */
export const RECORD_DEADLINE_MS = 240_000;

export interface RecordOptions {
  model: string;
  location: Location;
  /** Nemesis for the harness's own test: serve pointer reads from a stale cache. */
  staleReads?: boolean;
  ctx: SetupCtx;
  clients: number;
  opsPerClient: number;
  seed: number;
  /**
   * Drop LOST_OUTCOME_RATE of the write outcomes on purpose (default). Off when the
   * network loses them for real (test/histories: through Toxiproxy).
   */
  fakeLostOutcomes?: boolean;
  /** The clients' retry policy (default RECORD_POLICY). */
  policy?: RetryPolicy;
  /**
   * Mean think time between a client's calls (uniform in 0..2×, seeded; default 0): a
   * recording under a nemesis then lasts long enough for its faults to come and go.
   */
  paceMs?: number;
}

interface WorkerInput {
  model: string;
  location: Location;
  staleReads: boolean;
  ctx: SetupCtx;
  process: number;
  ops: number;
  seed: number;
  clock: SharedArrayBuffer;
  fakeLostOutcomes: boolean;
  policy: RetryPolicy;
  paceMs: number;
}

/**
 * The client threads, kept between recordings: booting one (the TypeScript loader, then the
 * metastore's modules) costs about a second of CPU, more than a CI-sized recording's calls, so
 * a file's recordings share them. An idle thread is unref'd: it never keeps a process alive.
 */
const pool: (Worker | undefined)[] = [];

function clientThread(i: number): Worker {
  let w = pool[i];
  if (!w) {
    w = new Worker(new URL('./_boot.mjs', import.meta.url), { workerData: { entry: import.meta.url } });
    w.unref();
    pool[i] = w;
  }
  return w;
}

/** A thread that failed or hung is not used again. */
function retire(i: number, w: Worker): void {
  if (pool[i] === w) pool[i] = undefined;
  void w.terminate();
}

/** Runs the clients and returns the merged history, ordered by time. */
export async function record(opts: RecordOptions): Promise<HistoryEvent[]> {
  if (!SCENARIOS[opts.model]) throw new Error(`no recording scenario for model "${opts.model}"`);
  const clock = new SharedArrayBuffer(8);
  const runs = Array.from({ length: opts.clients }, (_, p) => {
    const input: WorkerInput = {
      model: opts.model,
      location: opts.location,
      ctx: opts.ctx,
      process: p,
      ops: opts.opsPerClient,
      seed: opts.seed * 1000 + p,
      staleReads: opts.staleReads ?? false,
      clock,
      fakeLostOutcomes: opts.fakeLostOutcomes ?? true,
      policy: opts.policy ?? RECORD_POLICY,
      paceMs: opts.paceMs ?? 0,
    };
    const w = clientThread(p);
    w.ref();
    return new Promise<HistoryEvent[]>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        w.off('message', onMessage);
        w.off('error', onError);
        w.unref();
      };
      const timer = setTimeout(() => {
        done();
        retire(p, w);
        reject(new Error(`client ${p} did not finish within ${RECORD_DEADLINE_MS} ms`));
      }, RECORD_DEADLINE_MS);
      const onMessage = (m: { events?: HistoryEvent[]; error?: string }) => {
        done();
        if (m.error) reject(new Error(`client ${p}: ${m.error}`));
        else resolve(m.events!);
      };
      const onError = (e: Error) => {
        done();
        retire(p, w);
        reject(e);
      };
      w.on('message', onMessage);
      w.once('error', onError);
      w.postMessage(input);
    });
  });
  const events = (await Promise.all(runs)).flat();
  return events.sort((a, b) => a.time - b.time);
}

async function client(input: WorkerInput): Promise<HistoryEvent[]> {
  const ticks = new BigInt64Array(input.clock);
  const now = () => Number(Atomics.add(ticks, 0, 1n));
  const backend: MetaStore = await openLocation(input.location);
  const client = metaClient(backend, { policy: input.policy });
  const store = input.staleReads ? withStalePointerReads(client) : client;
  const events: HistoryEvent[] = [];
  const process = input.process;
  const rng = mulberry32(input.seed ^ 0x5eed);
  const think = mulberry32(input.seed ^ 0x7a1c);
  const recorder: Recorder = {
    async call(op, args, fn) {
      if (input.paceMs > 0) await sleep(Math.round(think() * 2 * input.paceMs));
      events.push({ process, type: 'invoke', op, args: toPlain(args) as Record<string, unknown>, time: now() });
      const lose = input.fakeLostOutcomes && !READS.has(op) && rng() < LOST_OUTCOME_RATE;
      if (lose && rng() < 0.5) {
        events.push({ process, type: 'info', op, time: now() }); // never sent
        return undefined;
      }
      try {
        const result = await fn();
        if (lose) {
          events.push({ process, type: 'info', op, time: now() }); // applied, acknowledgement lost
          return undefined;
        }
        events.push({ process, type: 'ok', op, result: toPlain(result ?? null), time: now() });
        return result;
      } catch (e) {
        const time = now();
        if (e instanceof MetaError && e.code !== 'Unknown') {
          // A typed refusal: the call did not apply (Retryable here means every attempt was
          // refused before it was proposed, or the policy would have surfaced Unknown).
          events.push({ process, type: 'fail', op, result: e.toJSON(), time });
        } else {
          events.push({ process, type: 'info', op, time });
        }
        return undefined;
      }
    },
  };
  try {
    await SCENARIOS[input.model]!(store, recorder, mulberry32(input.seed), process, input.ctx, input.ops);
  } finally {
    await backend.close();
  }
  return events;
}

/** A deliberately broken store: pointer reads come from a cache that is never invalidated. */
function withStalePointerReads(s: MetaStore): MetaStore {
  const cache = new Map<string, Awaited<ReturnType<MetaStore['pointer']>>>();
  return Object.assign(Object.create(s) as MetaStore, {
    async pointer(ns: number, key: string) {
      const k = `${ns}/${key}`;
      if (!cache.has(k)) cache.set(k, await s.pointer(ns, key));
      return cache.get(k)!;
    },
  });
}

function toPlain(v: unknown): unknown {
  return v === undefined ? null : JSON.parse(JSON.stringify(v));
}

if (!isMainThread && (workerData as { entry?: string } | undefined)?.entry === import.meta.url) {
  // One recording at a time per thread: record() posts the next only after this one answered.
  parentPort!.on('message', (input: WorkerInput) => {
    client(input).then(
      (events) => parentPort!.postMessage({ events }),
      (e: unknown) => parentPort!.postMessage({ error: (e as Error).stack ?? String(e) }),
    );
  });
}

// The worker role in its own thread: applying, compacting and segmenting build whole data
// files synchronously, which would stall the HTTP event loop (and every acknowledgement)
// for their duration. The thread opens its own metastore handle and store from the same
// URLs (the embedded backend and the file store both allow several handles), so this is
// used only when both URLs name something shared (not memory).
import { Worker } from 'node:worker_threads';
import type { AssignedRange } from '../meta/types.js';
import type { MetricsJson } from './metrics.js';
import type { PlacementNode } from '../router/placement.js';
import type { KeySettings } from './keys.js';

/** How long a stopping thread may take before it is terminated. */
export const THREAD_STOP_DEADLINE_MS = 15_000;
/** A scrape waits this long for the thread's metrics, then is served without them. */
export const THREAD_METRICS_DEADLINE_MS = 2_000;
/**
 * The worker thread's young generation, MiB (V8's default for a 64-bit heap is 3 × 16 MiB
 * semi-spaces). Its objects are short-lived (decoded records, file blocks) and its buffers
 * are freed only when their wrappers are collected, so a smaller young generation collects
 * them sooner and holds fewer pages when the thread goes idle.
 */
export const THREAD_YOUNG_GENERATION_MB = 24;

export interface ThreadConfig {
  metastore: string;
  store: string;
  owner: string;
  cacheBytes: number;
  /** The bound on the thread's ArrayBuffers (NodeConfig.worker_buffer_bytes; ./buffer-bound.ts). */
  bufferBytes: number;
  /** A nice increment for the thread (Linux; see NodeConfig.worker_nice). */
  nice: number;
  leaseTtlMs: number;
  applyPollMs: number;
  applyIntervalMs: number;
  segmentMinAgeMs: number;
  maintenanceMs: number;
  gcIntervalMs: number;
  gcGraceMs: number;
  logLevel: string;
  /**
   * Envelope encryption (spec §9.8): the thread builds its own key ring from the node's
   * settings, over its own ControlStore handle, so encrypted apply, compaction and segmenting
   * stay off the event loop. The master key is handed over in memory, never written anywhere.
   */
  keys?: { settings: KeySettings; masterKey: string | null };
}

/** Messages from the thread. */
export type FromThread =
  | { kind: 'apply'; ns: number; collection: number; lag: number; applied: number; compacted: boolean; ms: number }
  | { kind: 'gc'; deleted: number }
  | { kind: 'error'; task: string; message: string; code?: string }
  | { kind: 'metrics'; id: number; metrics: MetricsJson }
  | { kind: 'started' }
  | { kind: 'stopped' };

/** Messages to the thread. */
export type ToThread =
  | { kind: 'committed'; assigned: AssignedRange[] }
  | { kind: 'evict'; paths: string[] }
  /** A namespace's key was destroyed or changed: zeroize its cached keys, drop its cached bytes. */
  | { kind: 'shred'; ns: number }
  /** A namespace's key was rotated: the next write re-reads its key versions. */
  | { kind: 'rekey'; ns: number }
  | { kind: 'metrics'; id: number }
  /** The live worker nodes (the membership's), for the thread's ownership. */
  | { kind: 'placement'; nodes: PlacementNode[] }
  | { kind: 'stop' };

export function canRunInThread(metastore: string, store: string): boolean {
  return !metastore.includes(':memory:') && !store.startsWith('memory:');
}

/** A thread that dies is started again after this delay… */
export const THREAD_RESTART_DELAY_MS = 1_000;
/** …at most this many times per THREAD_RESTART_WINDOW_MS; then the node reports it and stops trying. */
export const MAX_THREAD_RESTARTS = 5;
export const THREAD_RESTART_WINDOW_MS = 60_000;

export class WorkerThread {
  private worker!: Worker;
  private exited!: Promise<void>;
  private stopping = false;
  private readonly restarts: number[] = [];
  /** Metrics requests waiting for the thread's answer, by id. */
  private readonly scrapes = new Map<number, (m: MetricsJson | null) => void>();
  private nextScrape = 0;
  /** The last placement sent, sent again to a restarted thread. */
  private nodes: PlacementNode[] | null = null;
  readonly started: Promise<void>;

  constructor(
    private readonly cfg: ThreadConfig,
    private readonly onMessage: (m: FromThread) => void,
  ) {
    this.started = this.spawn();
  }

  private spawn(): Promise<void> {
    // The thread runs TypeScript too: worker-thread-boot.mjs registers tsx there first.
    const worker = new Worker(new URL('./worker-thread-boot.mjs', import.meta.url), { workerData: this.cfg, resourceLimits: { maxYoungGenerationSizeMb: THREAD_YOUNG_GENERATION_MB } });
    this.worker = worker;
    let started: () => void;
    let failed: (e: Error) => void;
    const ready = new Promise<void>((res, rej) => {
      started = res;
      failed = rej;
    });
    worker.on('message', (m: FromThread) => {
      if (m.kind === 'started') {
        if (this.nodes) worker.postMessage({ kind: 'placement', nodes: this.nodes } satisfies ToThread);
        started();
      }
      if (m.kind === 'metrics') {
        this.scrapes.get(m.id)?.(m.metrics);
        return;
      }
      this.onMessage(m);
    });
    worker.on('error', (e) => {
      failed(e);
      this.onMessage({ kind: 'error', task: 'thread', message: e.message });
    });
    this.exited = new Promise((r) => worker.once('exit', () => r()));
    void this.exited.then(() => {
      failed(new Error('the worker thread exited before it started'));
      if (this.stopping) return;
      // Died on its own: start it again (a new owner id is not needed: its leases are
      // still ours, and a lost one is fenced), a bounded number of times.
      const now = Date.now();
      while (this.restarts.length > 0 && now - this.restarts[0]! > THREAD_RESTART_WINDOW_MS) this.restarts.shift();
      if (this.restarts.length >= MAX_THREAD_RESTARTS) {
        this.onMessage({ kind: 'error', task: 'thread', message: `the worker thread died ${MAX_THREAD_RESTARTS} times within ${THREAD_RESTART_WINDOW_MS} ms; maintenance stopped` });
        return;
      }
      this.restarts.push(now);
      this.onMessage({ kind: 'error', task: 'thread', message: 'the worker thread exited; starting it again' });
      setTimeout(() => {
        if (!this.stopping) this.spawn().catch(() => undefined);
      }, THREAD_RESTART_DELAY_MS).unref();
    });
    return ready;
  }

  /**
   * The thread's metrics (its own metastore client's calls among them), or null when it does
   * not answer within THREAD_METRICS_DEADLINE_MS (restarting, or busy building a file).
   */
  metrics(): Promise<MetricsJson | null> {
    const id = this.nextScrape++;
    return new Promise((resolve) => {
      const t = setTimeout(() => done(null), THREAD_METRICS_DEADLINE_MS);
      const done = (m: MetricsJson | null) => {
        clearTimeout(t);
        this.scrapes.delete(id);
        resolve(m);
      };
      this.scrapes.set(id, done);
      try {
        this.worker.postMessage({ kind: 'metrics', id } satisfies ToThread);
      } catch {
        done(null);
      }
    });
  }

  committed(assigned: AssignedRange[]): void {
    this.worker.postMessage({ kind: 'committed', assigned } satisfies ToThread);
  }

  /** The live worker nodes changed: the thread's workers own what placement gives this node. */
  placement(nodes: PlacementNode[]): void {
    this.nodes = nodes;
    this.worker.postMessage({ kind: 'placement', nodes } satisfies ToThread);
  }

  /** Drops these objects from the thread's caches (spec §9.4). */
  evict(paths: string[]): void {
    this.worker.postMessage({ kind: 'evict', paths } satisfies ToThread);
  }

  /** Tells the thread a namespace was crypto-shredded (its key ring forgets it at once). */
  shred(ns: number): void {
    this.post({ kind: 'shred', ns });
  }

  /** Tells the thread a namespace's key was rotated (its next write uses the new version). */
  rekey(ns: number): void {
    this.post({ kind: 'rekey', ns });
  }

  private post(m: ToThread): void {
    try {
      this.worker.postMessage(m);
    } catch {
      // a thread being restarted builds a fresh key ring, which reads the current records
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.worker.postMessage({ kind: 'stop' } satisfies ToThread);
    let t: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (t = setTimeout(() => r('late'), THREAD_STOP_DEADLINE_MS)));
    const r = await Promise.race([this.exited, late]);
    clearTimeout(t);
    if (r === 'late') await this.worker.terminate();
  }
}

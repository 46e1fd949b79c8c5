// The worker role in its own thread: applying, compacting and segmenting build whole data
// files synchronously, which would stall the HTTP event loop (and every acknowledgement)
// for their duration. The thread opens its own metastore handle and store from the same
// URLs (the embedded backend and the file store both allow several handles), so this is
// used only when both URLs name something shared (not memory).
import { Worker } from 'node:worker_threads';
import type { AssignedRange } from '../meta/types.js';

/** How long a stopping thread may take before it is terminated. */
export const THREAD_STOP_DEADLINE_MS = 15_000;

export interface ThreadConfig {
  metastore: string;
  store: string;
  owner: string;
  cacheBytes: number;
  leaseTtlMs: number;
  applyPollMs: number;
  applyIntervalMs: number;
  maintenanceMs: number;
  gcIntervalMs: number;
  gcGraceMs: number;
  logLevel: string;
}

/** Messages from the thread. */
export type FromThread =
  | { kind: 'apply'; ns: number; collection: number; lag: number; applied: number; compacted: boolean; ms: number }
  | { kind: 'gc'; deleted: number }
  | { kind: 'error'; task: string; message: string; code?: string }
  | { kind: 'started' }
  | { kind: 'stopped' };

/** Messages to the thread. */
export type ToThread = { kind: 'committed'; assigned: AssignedRange[] } | { kind: 'stop' };

export function canRunInThread(metastore: string, store: string): boolean {
  return !metastore.includes(':memory:') && !store.startsWith('memory:');
}

export class WorkerThread {
  private readonly worker: Worker;
  private readonly exited: Promise<void>;
  readonly started: Promise<void>;

  constructor(cfg: ThreadConfig, onMessage: (m: FromThread) => void) {
    // The thread runs TypeScript too: thread-boot.mjs registers tsx there first.
    this.worker = new Worker(new URL('./thread-boot.mjs', import.meta.url), { workerData: cfg });
    let started: () => void;
    let failed: (e: Error) => void;
    this.started = new Promise<void>((res, rej) => {
      started = res;
      failed = rej;
    });
    this.worker.on('message', (m: FromThread) => {
      if (m.kind === 'started') started();
      onMessage(m);
    });
    this.worker.on('error', (e) => {
      failed(e);
      onMessage({ kind: 'error', task: 'thread', message: e.message });
    });
    this.exited = new Promise((r) => this.worker.once('exit', () => r()));
    void this.exited.then(() => failed(new Error('the worker thread exited before it started')));
  }

  committed(assigned: AssignedRange[]): void {
    this.worker.postMessage({ kind: 'committed', assigned } satisfies ToThread);
  }

  async stop(): Promise<void> {
    this.worker.postMessage({ kind: 'stop' } satisfies ToThread);
    let t: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((r) => (t = setTimeout(() => r('late'), THREAD_STOP_DEADLINE_MS)));
    const r = await Promise.race([this.exited, late]);
    clearTimeout(t);
    if (r === 'late') await this.worker.terminate();
  }
}

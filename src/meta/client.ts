// MetaClient: the MetaStore every caller uses. It wraps a backend with the client retry
// policy (./retry.ts), one requestId per logical call, and bounded-skew stamps (spec §3.2):
// every write is stamped max(local clock, last observed stamp), and every stamp a result
// carries (./core/stamps.ts) is observed, so a caller whose clock lags never stamps a
// command behind a stamp it has seen (spec §3.2.1).
// It is itself a MetaStore, so callers cannot tell it from a backend.
import type { MetaStore } from './contract.js';
import { maxStampIn } from './core/stamps.js';
import { DEFAULT_RETRY_POLICY, withRetry, type RetryPolicy, type RetryReport } from './retry.js';
import { StampClock } from './stamp.js';
import type { WriteContext } from './types.js';

/** For every write: the position of its WriteContext argument. */
export const WRITE_CONTEXT_ARG = {
  createNamespace: 1,
  createNamespaces: 1,
  dropNamespace: 1,
  createCollection: 1,
  dropCollection: 2,
  janitor: 1,
  updateCollectionSchema: 4,
  updateAliases: 3,
  createStream: 1,
  dropStream: 2,
  setRetention: 3,
  commitWal: 1,
  swapSegment: 1,
  trimPartition: 4,
  casPointer: 4,
  acquireLease: 4,
  renewLease: 5,
  releaseLease: 4,
  createTag: 4,
  dropTag: 3,
  rewriteTag: 6,
  claimObject: 2,
  releaseClaim: 3,
} as const satisfies Partial<Record<keyof MetaStore, number>>;

/** Reads retried on Retryable (busy, throttle); they have no effect to be unknown about. */
const READS = [
  'namespace',
  'namespaceByName',
  'listNamespaces',
  'collection',
  'collectionByName',
  'listCollections',
  'aliases',
  'stream',
  'listStreams',
  'partitionIndex',
  'streamState',
  'collectionHead',
  'segmentReferenced',
  'retiredWalObjects',
  'pointer',
  'pointerVersion',
  'lease',
  'listTags',
  'objectRef',
  'catalogVersion',
  'changesSince',
] as const satisfies ReadonlyArray<keyof MetaStore>;

/**
 * The optional dirty-set calls (contract: dueHeads, settleHead), retried like reads: dueHeads
 * reads, and settleHead is a conditional set that a repeat applies identically.
 */
const OPTIONAL_RETRIED = ['dueHeads', 'settleHead'] as const satisfies ReadonlyArray<keyof MetaStore>;

export interface MetaClientOptions {
  policy?: RetryPolicy;
  clock?: StampClock;
  /** Called after every retried call, for metrics (retries, unknown outcomes). */
  onRetry?: (method: string, r: RetryReport) => void;
}

export function metaClient(backend: MetaStore, opts: MetaClientOptions = {}): MetaStore {
  const policy = opts.policy ?? DEFAULT_RETRY_POLICY;
  const clock = opts.clock ?? new StampClock();
  const client: Record<string, unknown> = {
    capabilities: () => backend.capabilities(),
    close: () => backend.close(),
    watch: backend.watch.bind(backend),
  };
  const report = (method: string) => (r: RetryReport) => {
    if (r.attempts > 1 || r.earlierUnknown) opts.onRetry?.(method, r);
  };
  const observed = (method: string) => (r: unknown) => {
    const s = maxStampIn(method, r);
    if (s > 0) clock.observe(s);
    return r;
  };
  for (const [method, at] of Object.entries(WRITE_CONTEXT_ARG)) {
    const f = (backend as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[method];
    if (typeof f !== 'function') continue; // an optional call the backend does not offer (the bulk create)
    const fn = f.bind(backend);
    client[method] = (...args: unknown[]) => {
      const given = (args[at] ?? {}) as WriteContext & Record<string, unknown>;
      return withRetry(
        (requestId) => {
          const a = [...args];
          a[at] = { ...given, requestId: given.requestId ?? requestId, stamp: given.stamp ?? clock.next() };
          return fn(...a);
        },
        policy,
        report(method),
      ).then(observed(method));
    };
  }
  for (const method of [...READS, ...OPTIONAL_RETRIED]) {
    const f = (backend as unknown as Record<string, ((...a: unknown[]) => Promise<unknown>) | undefined>)[method];
    if (typeof f !== 'function') continue; // an optional call the backend does not offer
    const fn = f.bind(backend);
    client[method] = (...args: unknown[]) => withRetry(() => fn(...args), policy, report(method)).then(observed(method));
  }
  return client as unknown as MetaStore;
}

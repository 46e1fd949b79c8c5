// Prometheus metrics of a node: one registry per node, so several nodes can run in one
// process (tests) without sharing counters, and one in its worker thread, which the node
// asks for at every scrape and adds to its own (`nodeMetricsText`). Served on the metrics
// listener (config metrics_host, metrics_port), never on the API's.
//
// No label takes a value from tenant data (namespace or collection names or ids): a label
// per tenant would make a series per tenant. Per-namespace figures are the usage API's.
import { AggregatorRegistry, Counter, Gauge, Histogram, Registry, collectDefaultMetrics, type MetricObjectWithValues, type MetricValue } from 'prom-client';
import type { MetaStore } from '../meta/contract.js';
import { metaClient } from '../meta/client.js';
import { isMetaError } from '../meta/errors.js';
import { connectionOf } from '../meta/backends/registry.js';

/** Latency buckets (seconds): 0.5 ms .. 10 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** A collection whose last apply round is older than this no longer counts in the lag gauges (its lease moved, or it was dropped). */
export const WORKER_LAG_STALE_MS = 60_000;
/** Collections whose lag is tracked, at most (every map a bound): past it the oldest are forgotten. */
export const MAX_LAG_ENTRIES = 100_000;

/**
 * How often the event-loop lag metrics (prom-client's, from perf_hooks' monitorEventLoopDelay)
 * sample the main thread's loop, ms. prom-client's default, 10 ms, is a native timer that
 * woke the loop 100 times a second on a node doing nothing (traced: about 200 epoll waits a
 * second at rest; 30 with 100 ms). Each wakeup counts as loop activity, the more so on a busy
 * machine where it waits for a core: after a 60 s load at a load average of 8, the main
 * thread's loop utilization stayed at 0.6 while its CPU profile was 1% busy, above the idle
 * collector's quiet threshold (./idle-memory.ts), so the idle node kept its memory (issue 14
 * item 9). A stall delays the next sample whatever the resolution, so the lag figures still
 * show it.
 */
export const EVENT_LOOP_LAG_RESOLUTION_MS = 100;

/** A registry's metrics as plain data (what a worker thread posts to the node). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];

/** The unapplied records of each collection this node's workers applied lately, summed for the gauges. */
export class LagTracker {
  private readonly lag = new Map<string, { records: number; at: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  set(ns: number, collection: number, records: number): void {
    const k = `${ns}/${collection}`;
    this.lag.delete(k); // to the back: the map stays in order of last report
    this.lag.set(k, { records, at: this.now() });
    for (const old of this.lag.keys()) {
      if (this.lag.size <= MAX_LAG_ENTRIES) break;
      this.lag.delete(old);
    }
  }

  /** The last apply round this node's workers reported for a collection (the status page), if within WORKER_LAG_STALE_MS. */
  last(ns: number, collection: number): { records: number; at: number } | undefined {
    const e = this.lag.get(`${ns}/${collection}`);
    return e && e.at >= this.now() - WORKER_LAG_STALE_MS ? { ...e } : undefined;
  }

  /** The sum and the maximum over the collections reported within WORKER_LAG_STALE_MS. */
  figures(): { total: number; max: number; lagging: number } {
    const cutoff = this.now() - WORKER_LAG_STALE_MS;
    let total = 0;
    let max = 0;
    let lagging = 0;
    for (const [k, e] of this.lag) {
      if (e.at < cutoff) {
        this.lag.delete(k);
        continue;
      }
      total += e.records;
      max = Math.max(max, e.records);
      if (e.records > 0) lagging++;
    }
    return { total, max, lagging };
  }
}

export class NodeMetrics {
  readonly registry = new Registry();
  readonly httpRequests = new Counter({ name: 'loam_http_requests_total', help: 'HTTP requests by route and status', labelNames: ['method', 'route', 'status'], registers: [this.registry] });
  readonly httpLatency = new Histogram({ name: 'loam_http_request_duration_seconds', help: 'HTTP request latency by route and status', labelNames: ['method', 'route', 'status'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly metaLatency = new Histogram({ name: 'loam_meta_call_duration_seconds', help: 'Metastore call latency (after client retries) by call and backend', labelNames: ['call', 'backend', 'outcome'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly metaRetries = new Counter({ name: 'loam_meta_retried_calls_total', help: 'Metastore calls that needed more than one attempt', labelNames: ['call'], registers: [this.registry] });
  readonly metaUnknown = new Counter({ name: 'loam_meta_unknown_outcomes_total', help: 'Metastore calls with an attempt whose outcome was unknown', labelNames: ['call'], registers: [this.registry] });
  readonly walFlushBytes = new Histogram({ name: 'loam_wal_flush_bytes', help: 'Bytes per WAL object', buckets: [1024, 16384, 65536, 262144, 1048576, 4194304, 8388608, 33554432], registers: [this.registry] });
  readonly walFlushLatency = new Histogram({ name: 'loam_wal_flush_duration_seconds', help: 'WAL object PUT and commit latency', labelNames: ['phase'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly walFlushes = new Counter({ name: 'loam_wal_flushes_total', help: 'WAL objects flushed, by result', labelNames: ['result'], registers: [this.registry] });
  readonly walRetries = new Counter({ name: 'loam_wal_retries_total', help: 'Retries of WAL object PUTs and commits', labelNames: ['what'], registers: [this.registry] });
  readonly lag = new LagTracker();
  readonly workerLag: Gauge = new Gauge({
    name: 'loam_worker_lag_records',
    help: "Unapplied records over the collections this node's workers applied in the last minute (per namespace: the usage API)",
    registers: [this.registry],
    collect: () => this.workerLag.set(this.lag.figures().total),
  });
  readonly workerLagMax: Gauge = new Gauge({
    name: 'loam_worker_lag_max_records',
    help: "The most unapplied records of one collection this node's workers applied in the last minute",
    registers: [this.registry],
    collect: () => this.workerLagMax.set(this.lag.figures().max),
  });
  readonly laggingCollections: Gauge = new Gauge({
    name: 'loam_worker_lagging_collections',
    help: "Collections with unapplied records after this node's last apply round (within the last minute)",
    registers: [this.registry],
    collect: () => this.laggingCollections.set(this.lag.figures().lagging),
  });
  readonly applyLatency = new Histogram({ name: 'loam_apply_round_duration_seconds', help: 'Applier round latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly appliedRecords = new Counter({ name: 'loam_applied_records_total', help: 'Log records applied into data files', registers: [this.registry] });
  readonly gcDeleted = new Counter({ name: 'loam_gc_deleted_objects_total', help: 'Objects deleted by GC', registers: [this.registry] });
  readonly refusals = new Counter({ name: 'loam_refusals_total', help: 'Requests refused by authentication, authorization or a quota, by reason (for 429s the quota)', labelNames: ['status', 'code', 'reason'], registers: [this.registry] });
  readonly gateways = new Gauge({ name: 'loam_gateways', help: 'Live gateways this node counts (rate quotas are split among them)', registers: [this.registry] });
  readonly controlTaskFailures = new Counter({ name: 'loam_control_task_failures_total', help: 'Failed background ControlStore tasks (feed poll, membership, last_used, usage)', labelNames: ['task'], registers: [this.registry] });
  readonly openfgaFailures = new Counter({ name: 'loam_openfga_failures_total', help: 'OpenFGA calls that failed, by operation (a failed check is a refusal, never an allow)', labelNames: ['op'], registers: [this.registry] });
  readonly openfgaChecks = new Histogram({ name: 'loam_openfga_check_duration_seconds', help: 'Uncached OpenFGA check and batch-check latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly workerErrors = new Counter({ name: 'loam_worker_errors_total', help: 'Worker task errors', labelNames: ['task'], registers: [this.registry] });

  /** The write budget's state at each scrape (src/gateway/write-budget.ts). */
  watchWriteBudget(b: { stats(): { inflightBytes: number; queued: number } }): void {
    new Gauge({ name: 'loam_write_inflight_bytes', help: 'Bytes of write request bodies admitted and not yet answered (at most write_inflight_bytes)', registers: [this.registry], collect() {
      this.set(b.stats().inflightBytes);
    } });
    new Gauge({ name: 'loam_write_queued_requests', help: 'Write requests waiting for the write budget', registers: [this.registry], collect() {
      this.set(b.stats().queued);
    } });
  }

  /**
   * The worker thread's own memory at each scrape (the process's figures are the main
   * thread's and the process's), and the collections its buffer bound ran (./buffer-bound.ts).
   */
  watchThreadMemory(bound: { readonly collections: number }): void {
    new Gauge({ name: 'loam_worker_thread_heap_bytes', help: "The worker thread's V8 heap in use", registers: [this.registry], collect() {
      this.set(process.memoryUsage().heapUsed);
    } });
    new Gauge({ name: 'loam_worker_thread_array_buffers_bytes', help: "The worker thread's ArrayBuffers, live and not yet collected (bounded by worker_buffer_bytes)", registers: [this.registry], collect() {
      this.set(process.memoryUsage().arrayBuffers);
    } });
    new Gauge({ name: 'loam_worker_buffer_collections', help: 'Full collections the worker thread ran at its worker_buffer_bytes bound since it started', registers: [this.registry], collect() {
      this.set(bound.collections);
    } });
  }

  /** `process: false` in a worker thread: the node's main thread reports the process once. */
  constructor(o: { process?: boolean } = {}) {
    if (o.process !== false) collectDefaultMetrics({ register: this.registry, prefix: 'loam_', eventLoopMonitoringPrecision: EVENT_LOOP_LAG_RESOLUTION_MS });
  }
}

/**
 * The node's metrics in the Prometheus text format: its own and its worker thread's (when it
 * has one and it answered), added up series by series.
 */
export async function nodeMetricsText(m: NodeMetrics, thread: (() => Promise<MetricsJson | null>) | null, extra: readonly Registry[] = []): Promise<string> {
  if (!thread && extra.length === 0) return m.registry.metrics();
  const [own, other, ...more] = await Promise.all([m.registry.getMetricsAsJSON(), thread ? thread() : Promise.resolve(null), ...extra.map((r) => r.getMetricsAsJSON())]);
  return AggregatorRegistry.aggregate([own, ...(other ? [other] : []), ...more]).metrics();
}

/** The registries a metastore handle keeps beside the node's (a remote metastore client's RPC metrics, spec §8). */
export function metastoreRegistries(meta: MetaStore): Registry[] {
  const c = connectionOf(meta);
  return c?.kind === 'remote' ? [c.channel.metrics.registry] : [];
}

/** The metastore client (retry policy) over a raw backend, with its retries and every call's latency counted. */
export function meteredMeta(raw: MetaStore, backend: string, m: NodeMetrics): MetaStore {
  return timedMeta(
    metaClient(raw, {
      onRetry: (method, r) => {
        m.metaRetries.inc({ call: method });
        if (r.earlierUnknown) m.metaUnknown.inc({ call: method });
      },
    }),
    backend,
    m,
  );
}

/** Wraps a MetaStore so every call's latency lands in loam_meta_call_duration_seconds. */
export function timedMeta(meta: MetaStore, backend: string, m: NodeMetrics): MetaStore {
  return new Proxy(meta, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function' || prop === 'capabilities' || prop === 'close' || prop === 'watch') return typeof v === 'function' ? v.bind(target) : v;
      const call = String(prop);
      return async (...args: unknown[]) => {
        const end = m.metaLatency.startTimer({ call, backend });
        try {
          const r = await (v as (...a: unknown[]) => Promise<unknown>).apply(target, args);
          end({ outcome: 'ok' });
          return r;
        } catch (e) {
          end({ outcome: isMetaError(e) ? e.code : 'error' });
          throw e;
        }
      };
    },
  });
}

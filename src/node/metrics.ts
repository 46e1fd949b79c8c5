// Prometheus metrics of a node (DESIGN §7): one registry per node, so several nodes can run
// in one process (tests) without sharing counters. Served at /metrics.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';

/** Latency buckets (seconds): 0.5 ms .. 10 s. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

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
  readonly workerLag = new Gauge({ name: 'loam_worker_lag_records', help: 'Unapplied records per collection after the last apply round', labelNames: ['ns', 'collection'], registers: [this.registry] });
  readonly applyLatency = new Histogram({ name: 'loam_apply_round_duration_seconds', help: 'Applier round latency', buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly appliedRecords = new Counter({ name: 'loam_applied_records_total', help: 'Log records applied into data files', registers: [this.registry] });
  readonly gcDeleted = new Counter({ name: 'loam_gc_deleted_objects_total', help: 'Objects deleted by GC', registers: [this.registry] });
  readonly refusals = new Counter({ name: 'loam_refusals_total', help: 'Requests refused by authentication, authorization or a quota, by reason (for 429s the quota)', labelNames: ['status', 'code', 'reason'], registers: [this.registry] });
  readonly gateways = new Gauge({ name: 'loam_gateways', help: 'Live gateways this node counts (rate quotas are split among them)', registers: [this.registry] });
  readonly controlTaskFailures = new Counter({ name: 'loam_control_task_failures_total', help: 'Failed background ControlStore tasks (feed poll, membership, last_used, usage)', labelNames: ['task'], registers: [this.registry] });
  readonly workerErrors = new Counter({ name: 'loam_worker_errors_total', help: 'Worker task errors', labelNames: ['task'], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'loam_' });
  }
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

// Prometheus metrics of a remote metastore client (spec §8): RPC rates and latency per method
// and outcome, calls batched into one RPC, transport retries, watch streams resumed after a cut, and the per-namespace
// cache's hits. No label takes tenant data.
import { Counter, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class RemoteClientMetrics {
  readonly registry = new Registry();
  readonly calls = new Counter({ name: 'loam_remote_client_calls_total', help: 'Remote metastore RPCs made, by method and outcome (ok or the MetaError code)', labelNames: ['method', 'outcome'], registers: [this.registry] });
  readonly latency = new Histogram({ name: 'loam_remote_client_call_duration_seconds', help: 'Remote metastore RPC latency seen by the client (with its transport retries), by method', labelNames: ['method'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly batched = new Counter({ name: 'loam_remote_client_batched_calls_total', help: 'Contract calls sent inside a batch RPC (CommitWalBatch) with other calls, by method', labelNames: ['method'], registers: [this.registry] });
  readonly retries = new Counter({ name: 'loam_remote_client_retries_total', help: 'RPC attempts repeated after a transport failure (same idempotency key)', labelNames: ['method'], registers: [this.registry] });
  readonly resumed = new Counter({ name: 'loam_remote_client_resumed_streams_total', help: 'Watch streams reopened from their last version after the connection was cut', registers: [this.registry] });
  readonly cache = new Counter({ name: 'loam_remote_client_cache_reads_total', help: 'Catalog reads of the per-namespace cache, by result (hit, miss, bypass while the change stream is down)', labelNames: ['result'], registers: [this.registry] });
}

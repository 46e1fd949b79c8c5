// Prometheus metrics of a remote metastore server (spec §8): RPC rates and latency per method
// and status, refusals by their error code, idempotent replays (retries answered from the
// record of the first call), open watch streams and resumed ones. Labels never take tenant data (no namespace, no
// cluster id: a label per cluster would make a series per customer).
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

const LATENCY_BUCKETS = [0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class RemoteServerMetrics {
  readonly registry = new Registry();
  readonly calls = new Counter({ name: 'loam_remote_server_calls_total', help: 'Remote metastore RPCs served, by method and gRPC status', labelNames: ['method', 'status'], registers: [this.registry] });
  readonly latency = new Histogram({ name: 'loam_remote_server_call_duration_seconds', help: 'Remote metastore RPC latency on the server, by method', labelNames: ['method'], buckets: LATENCY_BUCKETS, registers: [this.registry] });
  readonly errors = new Counter({
    name: 'loam_remote_server_errors_total',
    help: 'Refused or failed RPCs, by method and code: the MetaError code, or the gRPC status of a refusal that is not one (UNAUTHENTICATED, PERMISSION_DENIED, INTERNAL)',
    labelNames: ['method', 'code'],
    registers: [this.registry],
  });
  readonly batched = new Counter({ name: 'loam_remote_server_batched_calls_total', help: 'Contract calls that arrived inside a batch RPC (CommitWalBatch), by method', labelNames: ['method'], registers: [this.registry] });
  readonly replays = new Counter({ name: 'loam_remote_server_replayed_writes_total', help: 'Writes answered from the record of an earlier call with the same idempotency key (a retry after a lost response)', labelNames: ['method'], registers: [this.registry] });
  readonly streamMessages = new Counter({
    name: 'loam_remote_server_stream_messages_total',
    help: 'Messages received on request streams, by method (CommitWalStream: one per batch of commitWal calls)',
    labelNames: ['method'],
    registers: [this.registry],
  });
  readonly walStreams = new Gauge({ name: 'loam_remote_server_wal_streams', help: 'Open CommitWalStream streams (one per client channel that commits WAL objects)', registers: [this.registry] });
  readonly streams = new Gauge({ name: 'loam_remote_server_watch_streams', help: 'Open watch streams', registers: [this.registry] });
  readonly resumed = new Counter({ name: 'loam_remote_server_resumed_streams_total', help: 'Watch streams opened by a client resuming from its last version after a cut', registers: [this.registry] });
}

// Prometheus metrics of the control plane, on its own listener (config metrics_host,
// metrics_port). Calls are counted per cluster only once the agent key is verified, so the
// cluster label takes only registered ids (at most max_open_clusters series per method); a
// refused credential is counted by reason alone, so nobody can mint series by guessing.
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuthFailure } from './agent-auth.js';

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly rpcs = new Counter({
    name: 'loam_cp_rpcs_total',
    help: 'Calls served per cluster, by method and gRPC status code name',
    labelNames: ['cluster', 'method', 'code'],
    registers: [this.registry],
  });
  readonly latency = new Histogram({
    name: 'loam_cp_rpc_duration_seconds',
    help: 'Latency of authenticated calls by method (streams: until the stream ends)',
    labelNames: ['method'],
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: 'loam_cp_auth_failures_total',
    help: 'Calls refused before any store was touched, by reason (missing, malformed, invalid, revoked, unknown_cluster, certificate, other_cluster)',
    labelNames: ['reason'],
    registers: [this.registry],
  });
  readonly openClusters: Gauge;

  constructor(openClusters: () => number) {
    this.openClusters = new Gauge({
      name: 'loam_cp_open_clusters',
      help: 'Clusters whose stores this process holds open',
      registers: [this.registry],
      collect: () => this.openClusters.set(openClusters()),
    });
    collectDefaultMetrics({ register: this.registry, prefix: 'loam_cp_' });
  }

  refused(reason: AuthFailure): void {
    this.authFailures.inc({ reason });
  }

  served(cluster: string, method: string, code: string, seconds: number): void {
    this.rpcs.inc({ cluster, method, code });
    this.latency.observe({ method }, seconds);
  }
}

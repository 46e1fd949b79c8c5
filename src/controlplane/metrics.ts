// Prometheus metrics of the control plane, on its own listener (config metrics_host,
// metrics_port), beside the remote server's (loam_remote_server_*: calls by method and
// status, latency, replays, watch streams). Calls are counted per cluster only once the
// agent key is verified, so the cluster label takes only registered ids (one series per
// cluster and method); a refused credential is counted by reason alone, so nobody can mint
// series by guessing.
import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuthFailure } from './agent-auth.js';

export class ControlPlaneMetrics {
  readonly registry = new Registry();
  readonly rpcs = new Counter({
    name: 'loam_cp_rpcs_total',
    help: 'Authenticated calls per cluster and method (statuses and latency per method: loam_remote_server_*)',
    labelNames: ['cluster', 'method'],
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
}

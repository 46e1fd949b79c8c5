// The remote metastore server (spec §8): MetaStore and ControlStore over gRPC, for nodes whose
// metastore is `remote://…`. The seam for a control plane serving many clusters is here:
//
//   authenticate(call) → cluster id     resolves (and authenticates) the cluster of every call
//                                       from its metadata and peer; throw RemoteAuthError to
//                                       refuse it (UNAUTHENTICATED / PERMISSION_DENIED)
//   stores(clusterId)  → that cluster's MetaStore and ControlStore
//
// Every call runs authenticate, then stores, then its own work, so a call is only ever served
// from its caller's cluster's stores. With neither given, one cluster (DEFAULT_CLUSTER) is
// served from the stores passed in.
import * as grpc from '@grpc/grpc-js';
import type { MetaStore } from '../meta/contract.js';
import type { ControlStore } from '../control/types.js';
import { CHANNEL_OPTIONS, remoteProto } from '../meta/backends/remote/proto.js';
import { walStreamMethod } from '../meta/backends/remote/wal-wire.js';
import { DEFAULT_CLUSTER, StreamSlots, type Authenticate, type ClusterStores, type ServerCore } from './core.js';
import { IdempotencyRecord } from './idempotency.js';
import { metaHandlers } from './meta-service.js';
import { controlHandlers } from './control-service.js';
import { RemoteServerMetrics } from './metrics.js';
import { tolerant } from './malformed.js';
import { listenMetrics, type MetricsListener } from '../metrics/listener.js';

export { DEFAULT_CLUSTER, RemoteAuthError, clusterFromMetadata, type Authenticate, type ClusterStores, type ServerCall, type ServerCore } from './core.js';

/** The host of the /metrics listener unless `metricsListener.host` names another: loopback, as it takes no key. */
export const DEFAULT_METRICS_HOST = '127.0.0.1';

export interface RemoteServerOptions {
  /** Single-cluster form: the stores served. */
  meta?: MetaStore;
  control?: ControlStore;
  /** Many-cluster form: the stores of a cluster (called per call; cache in it). */
  stores?: (clusterId: string) => ClusterStores | Promise<ClusterStores>;
  /** The cluster of a call; default DEFAULT_CLUSTER for every call. */
  authenticate?: Authenticate;
  /** Streams one cluster may hold open at once; default MAX_STREAMS_PER_CLUSTER. */
  maxStreamsPerCluster?: number;
  metrics?: RemoteServerMetrics;
  /** TLS (grpcs://); default insecure (loopback, or behind a TLS-terminating proxy). */
  credentials?: grpc.ServerCredentials;
  /**
   * This server's Prometheus /metrics listener (`metrics.registry` in the text format), started
   * by listen() and stopped by close(). Absent (the default): none — a control plane serves
   * these metrics on its own listener with its own. Port 0 picks a free port (metricsUrl).
   */
  metricsListener?: { host?: string; port: number };
}

export class RemoteServer {
  readonly metrics: RemoteServerMetrics;
  private readonly server: grpc.Server;
  private readonly core: ServerCore;
  private port = 0;
  private readonly metricsAt: { host: string; port: number } | null;
  private metricsOpen: MetricsListener | null = null;

  constructor(opts: RemoteServerOptions) {
    const stores = opts.stores ?? (opts.meta ? () => ({ meta: opts.meta!, ...(opts.control ? { control: opts.control } : {}) }) : null);
    if (!stores) throw new Error('RemoteServer needs the stores to serve: meta (one cluster) or stores(clusterId)');
    const authenticate = opts.authenticate ?? (() => DEFAULT_CLUSTER);
    this.metrics = opts.metrics ?? new RemoteServerMetrics();
    this.core = {
      resolve: async (call) => {
        const cluster = await authenticate(call);
        return { cluster, stores: await stores(cluster) };
      },
      idempotency: new IdempotencyRecord(),
      metrics: this.metrics,
      streams: new StreamSlots(opts.maxStreamsPerCluster),
    };
    this.server = new grpc.Server(CHANNEL_OPTIONS);
    const proto = remoteProto().loam.remote.v1;
    // CommitWalStream's messages are written and read by wal-wire.ts (the same bytes as proto-loader's).
    // Undecodable requests reach their handlers as Malformed (./malformed.ts), refused InvalidArgument.
    this.server.addService(tolerant({ ...proto.MetaStore.service, CommitWalStream: walStreamMethod() }), metaHandlers(this.core));
    this.server.addService(tolerant(proto.ControlStore.service), controlHandlers(this.core));
    this.credentials = opts.credentials ?? grpc.ServerCredentials.createInsecure();
    const m = opts.metricsListener;
    if (m && !(Number.isInteger(m.port) && m.port >= 0 && m.port <= 65_535)) {
      throw new TypeError(`metricsListener.port must be an integer port in [0, 65535]; got ${String(m.port)}`);
    }
    if (m?.host !== undefined && (typeof m.host !== 'string' || m.host.trim() === '')) throw new TypeError(`metricsListener.host must be a host name or address; got ${JSON.stringify(m.host)}`);
    this.metricsAt = m ? { host: m.host ?? DEFAULT_METRICS_HOST, port: m.port } : null;
  }

  private readonly credentials: grpc.ServerCredentials;

  /** Listens on host:port (port 0: any free port) and returns the port; starts the /metrics listener if one was asked for. */
  async listen(host = '127.0.0.1', port = 0): Promise<number> {
    const bound = await new Promise<number>((resolve, reject) => {
      this.server.bindAsync(`${host}:${port}`, this.credentials, (err, p) => (err ? reject(err) : resolve(p)));
    });
    this.port = bound;
    if (this.metricsAt && !this.metricsOpen) {
      try {
        const registry = this.metrics.registry;
        this.metricsOpen = await listenMetrics({ ...this.metricsAt, contentType: registry.contentType, text: () => registry.metrics() });
      } catch (e) {
        // Nothing half-started: a server whose metrics cannot listen does not serve either.
        this.server.forceShutdown();
        throw e;
      }
    }
    return bound;
  }

  get boundPort(): number {
    return this.port;
  }

  /** Where Prometheus scrapes this server (http://host:port/metrics); null without a metrics listener, or before listen(). */
  get metricsUrl(): string | null {
    return this.metricsOpen?.url ?? null;
  }

  /** Stops taking calls, waits up to `graceMs` for running ones, then cuts the rest (streams too); the metrics listener closes last. */
  async close(graceMs = 2_000): Promise<void> {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
    await this.closeMetrics();
  }

  private async closeMetrics(): Promise<void> {
    const m = this.metricsOpen;
    this.metricsOpen = null;
    await m?.close();
  }

  /** Cuts every call and connection at once (tests: a server that died). */
  forceClose(): void {
    this.server.forceShutdown();
    void this.closeMetrics();
  }
}

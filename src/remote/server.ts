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
import { DEFAULT_CLUSTER, type Authenticate, type ClusterStores, type ServerCore } from './core.js';
import { IdempotencyRecord } from './idempotency.js';
import { metaHandlers } from './meta-service.js';
import { controlHandlers } from './control-service.js';
import { RemoteServerMetrics } from './metrics.js';

export { DEFAULT_CLUSTER, RemoteAuthError, clusterFromMetadata, type Authenticate, type ClusterStores, type ServerCall, type ServerCore } from './core.js';

export interface RemoteServerOptions {
  /** Single-cluster form: the stores served. */
  meta?: MetaStore;
  control?: ControlStore;
  /** Many-cluster form: the stores of a cluster (called per call; cache in it). */
  stores?: (clusterId: string) => ClusterStores | Promise<ClusterStores>;
  /** The cluster of a call; default DEFAULT_CLUSTER for every call. */
  authenticate?: Authenticate;
  metrics?: RemoteServerMetrics;
  /** TLS (grpcs://); default insecure (loopback, or behind a TLS-terminating proxy). */
  credentials?: grpc.ServerCredentials;
}

export class RemoteServer {
  readonly metrics: RemoteServerMetrics;
  private readonly server: grpc.Server;
  private readonly core: ServerCore;
  private port = 0;

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
    };
    this.server = new grpc.Server(CHANNEL_OPTIONS);
    const proto = remoteProto().loam.remote.v1;
    this.server.addService(proto.MetaStore.service, metaHandlers(this.core));
    this.server.addService(proto.ControlStore.service, controlHandlers(this.core));
    this.credentials = opts.credentials ?? grpc.ServerCredentials.createInsecure();
  }

  private readonly credentials: grpc.ServerCredentials;

  /** Listens on host:port (port 0: any free port) and returns the port. */
  listen(host = '127.0.0.1', port = 0): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.bindAsync(`${host}:${port}`, this.credentials, (err, bound) => {
        if (err) return reject(err);
        this.port = bound;
        resolve(bound);
      });
    });
  }

  get boundPort(): number {
    return this.port;
  }

  /** Stops taking calls, waits up to `graceMs` for running ones, then cuts the rest (streams too). */
  close(graceMs = 2_000): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** Cuts every call and connection at once (tests: a server that died). */
  forceClose(): void {
    this.server.forceShutdown();
  }
}

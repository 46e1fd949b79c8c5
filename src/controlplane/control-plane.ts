// The hosted control plane (spec §8, `loam control-plane --config …`): the remote metastore
// server (src/remote) serving many BYOC data-plane clusters, each a virtual cluster keyed by
// its cluster_id, each on its own stores (./cluster-stores.ts), every call authenticated by
// an agent key (and with client_ca, a client certificate) and served only from its caller's
// cluster (./agent-auth.ts). The control plane sees names, schemas, object paths, offsets,
// pointers and lease keys; documents and bucket credentials never reach it (the data plane
// keeps them in its own VPC), and it logs no secret.
import * as grpc from '@grpc/grpc-js';
import { pino, type Logger } from 'pino';
import { RemoteServer, RemoteAuthError } from '../remote/server.js';
import type { ServerCall } from '../remote/core.js';
import { RemoteServerMetrics } from '../remote/metrics.js';
import { listenMetrics, type MetricsListener } from '../metrics/listener.js';
import { AgentAuthenticator, CallRefused, CLUSTER_HEADER, GRPC_PERMISSION_DENIED } from './agent-auth.js';
import { ClusterStores } from './cluster-stores.js';
import { ENV_PREFIX, printableConfig, readTlsFiles, type ControlPlaneConfig } from './config.js';
import { portInUse } from '../node/config-error.js';
import { ControlPlaneMetrics } from './metrics.js';
import { openRegistry, type OpenedRegistry } from './registry.js';

/** Shutting down waits this long for calls in flight, then cuts them (watch streams too). */
export const CONTROL_PLANE_CLOSE_GRACE_MS = 2_000;

export interface ControlPlane {
  /** The gRPC target a data plane's metastore URL names: host:port. */
  readonly target: string;
  readonly port: number;
  readonly metricsUrl: string;
  readonly registry: OpenedRegistry['registry'];
  readonly stores: ClusterStores;
  readonly metrics: ControlPlaneMetrics;
  readonly logger: Logger;
  close(): Promise<void>;
}

export interface ControlPlaneOptions {
  logger?: Logger;
}

/** 'MetaStore.CommitWal' from '/loam.remote.v1.MetaStore/CommitWal' (a method of the service definition: bounded). */
function methodOf(call: ServerCall): string {
  const path = call.getPath();
  const m = /\.([A-Za-z]+)\/([A-Za-z]+)$/.exec(path);
  return m ? `${m[1]}.${m[2]}` : 'unknown';
}

function header(call: ServerCall, key: string): string | undefined {
  const v = call.metadata.get(key)[0];
  return typeof v === 'string' ? v : undefined;
}

/** The verified client certificate's subject CN (mTLS), if the connection carries one. */
function certificateCluster(call: ServerCall): string | undefined {
  const cert = call.getAuthContext()?.sslPeerCertificate;
  // A certificate with several CNs names no one cluster.
  const cn: unknown = cert?.subject?.CN;
  return typeof cn === 'string' ? cn : undefined;
}

export async function startControlPlane(config: ControlPlaneConfig, opts: ControlPlaneOptions = {}): Promise<ControlPlane> {
  const logger = opts.logger ?? pino({ level: config.log_level, base: { role: 'control-plane' } });
  // grpc-js's own messages (a failed bind, a broken connection) go to this log, not raw to stderr.
  grpc.setLogger({ error: (...args: unknown[]) => logger.warn({ grpc: args.map(String).join(' ') }, 'grpc-js') });
  const tls = readTlsFiles(config);
  const opened = await openRegistry(config.registry);
  const stores = new ClusterStores({ template: config.clusters, registry: opened.registry, maxOpen: config.max_open_clusters, poolSize: config.pool_size });
  const auth = new AgentAuthenticator(opened.registry, { requireCertificate: tls?.clientCa != null });
  const metrics = new ControlPlaneMetrics(() => stores.openCount);
  const serverMetrics = new RemoteServerMetrics();

  const authenticate = async (call: ServerCall): Promise<string> => {
    const method = methodOf(call);
    try {
      const caller = await auth.authenticate({
        authorization: header(call, 'authorization'),
        cluster: header(call, CLUSTER_HEADER),
        certificateCluster: certificateCluster(call),
      });
      metrics.rpcs.inc({ cluster: caller.cluster, method });
      return caller.cluster;
    } catch (e) {
      if (!(e instanceof CallRefused)) throw e;
      metrics.refused(e.reason);
      // The reason and the peer, never what was presented.
      logger.warn({ reason: e.reason, method, peer: call.getPeer() }, 'refused a call');
      throw new RemoteAuthError(e.code === GRPC_PERMISSION_DENIED ? grpc.status.PERMISSION_DENIED : grpc.status.UNAUTHENTICATED, e.message);
    }
  };

  const credentials = tls
    ? grpc.ServerCredentials.createSsl(tls.clientCa, [{ cert_chain: tls.cert, private_key: tls.key }], tls.clientCa !== null)
    : grpc.ServerCredentials.createInsecure();
  const server = new RemoteServer({
    authenticate,
    stores: async (cluster) => {
      const h = await stores.stores(cluster);
      return { meta: h.meta, control: await h.control() };
    },
    metrics: serverMetrics,
    credentials,
  });
  let metricsListener: MetricsListener | undefined;
  try {
    const port = await server.listen(config.host, config.port).catch(portInUse('port', `${ENV_PREFIX}PORT`, config.host, config.port));
    metricsListener = await listenMetrics({
      host: config.metrics_host,
      port: config.metrics_port,
      contentType: metrics.registry.contentType,
      text: async () => `${await metrics.registry.metrics()}\n${await serverMetrics.registry.metrics()}`,
      failed: (e) => logger.error({ err: (e as Error).message }, 'metrics scrape failed'),
    }).catch(portInUse('metrics_port', `${ENV_PREFIX}METRICS_PORT`, config.metrics_host, config.metrics_port));
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    const c = printableConfig(config);
    logger.info({ target: `${host}:${port}`, tls: tls !== null, mtls: tls?.clientCa != null, metrics: metricsListener.url, clusters: c.clusters }, 'control plane listening');
    const m = metricsListener;
    return {
      target: `${host}:${port}`,
      port,
      metricsUrl: m.url,
      registry: opened.registry,
      stores,
      metrics,
      logger,
      async close() {
        await server.close(CONTROL_PLANE_CLOSE_GRACE_MS);
        await m.close();
        await stores.close();
        await opened.close();
      },
    };
  } catch (e) {
    server.forceClose();
    await metricsListener?.close();
    await stores.close();
    await opened.close();
    throw e;
  }
}

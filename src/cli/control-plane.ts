// `loam control-plane` runs the hosted control plane (spec §8); `loam clusters …` are its
// operator commands, run against the registry database its config names (they work whether
// or not the control plane runs).
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_PAGE_LIMIT } from '../meta/limits.js';
import type { ControlPlaneConfig } from '../controlplane/config.js';
import { ConfigError } from '../node/config-error.js';
import { CLUSTER_ID_RULE, type ClusterRegistry } from '../control/clusters.js';
import { isMetaError } from '../meta/errors.js';
import { redactUrl } from '../meta/url.js';

/** Pages `clusters list` follows, at most (every loop a bound). */
export const MAX_CLUSTER_LIST_PAGES = 100;

/** The control plane's modules, loaded by the commands that use them: the rest of the CLI starts without them (see main.ts). */
async function controlPlane() {
  const [config, registry, admin, stores] = await Promise.all([
    import('../controlplane/config.js'),
    import('../controlplane/registry.js'),
    import('../controlplane/admin.js'),
    import('../controlplane/cluster-stores.js'),
  ]);
  return { ...config, ...registry, ...admin, ...stores };
}

function failWith(e: unknown): never {
  if (e instanceof ConfigError || isMetaError(e)) console.error(`loam: ${(e as Error).message}`);
  else if ((e as { code?: string }).code === 'EADDRINUSE' || /No address added out of total/.test((e as Error).message)) console.error(`loam: ${(e as Error).message}; pick another --port (0 picks a free one)`);
  else console.error(`loam: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
}

async function withRegistry<T>(o: { config: string }, fn: (r: ClusterRegistry, c: ControlPlaneConfig) => Promise<T>): Promise<void> {
  try {
    const { cpEnvOverrides, openRegistry, readConfigFile, resolveControlPlaneConfig } = await controlPlane();
    const c = resolveControlPlaneConfig(readConfigFile(o.config), cpEnvOverrides());
    const opened = await openRegistry(c.registry, 'loam-cli');
    try {
      const out = await fn(opened.registry, c);
      if (out !== undefined) console.log(typeof out === 'string' ? out : JSON.stringify(out, null, 2));
    } finally {
      await opened.close();
    }
  } catch (e) {
    failWith(e);
  }
}

const connectHelp = (cluster: string, token: string) =>
  [
    `cluster "${cluster}" created. Its agent key (shown ONCE, store it now; only its hash is kept):`,
    '',
    `  ${token}`,
    '',
    'Give it to the data plane as LOAM_AGENT_KEY, with its metastore set to',
    `"grpcs://<control-plane host>:<port>?cluster=${cluster}&ca=<CA file>" (docs/byoc.md).`,
  ].join('\n');

function port(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65_535) throw new InvalidArgumentError('a port is an integer in 0..65535 (0 picks a free port)');
  return n;
}

/** `loam control-plane --config …`: runs the hosted control plane until SIGINT/SIGTERM. */
export function controlPlaneCommand(p: Command): void {
  p.command('control-plane')
    .description('Run the hosted control plane: the metastore of many BYOC data-plane clusters, over gRPC (docs/byoc.md).')
    .requiredOption('--config <file>', 'a JSON config file (registry, clusters, host, port, tls_cert, tls_key, client_ca, …)')
    .option('--port <n>', 'override the port', port)
    .option('--check', 'validate the config (and LOAM_CP_* overrides), print it with passwords hidden, and exit')
    .addHelpText(
      'after',
      [
        '',
        'Config file (JSON):',
        '  { "registry": "sqlite:/var/lib/loam-cp/registry.db",            the clusters and agent keys',
        '    "clusters": "sqlite:/var/lib/loam-cp/clusters/{cluster}.db",  each cluster\'s metadata: a file, a database',
        '                 (postgres://…/loam_{cluster}) or a table (dynamodb://…/loam-{cluster}) per cluster',
        '    "host": "0.0.0.0", "port": 7443,',
        '    "tls_cert": "/etc/loam-cp/server.crt", "tls_key": "/etc/loam-cp/server.key",',
        '    "client_ca": "/etc/loam-cp/clients-ca.crt" }                 mTLS: client certificates with CN = cluster_id',
        'Without tls_cert and tls_key it listens on loopback only. /metrics: metrics_host:metrics_port (127.0.0.1:7444).',
        'Every setting can be overridden by LOAM_CP_<SETTING> (e.g. LOAM_CP_PORT=7443).',
        '',
        'Register a cluster and get its agent key: loam clusters create <cluster_id> --config <file>.',
        'Point a data plane at it: metastore "grpcs://<host>:7443?cluster=<cluster_id>&ca=…" with LOAM_AGENT_KEY set.',
      ].join('\n'),
    )
    .action(async (o: { config: string; port?: number; check?: boolean }) => {
      try {
        const { cpEnvOverrides, printableConfig, readConfigFile, resolveControlPlaneConfig } = await controlPlane();
        const c = resolveControlPlaneConfig(readConfigFile(o.config), cpEnvOverrides(), o.port !== undefined ? { port: o.port } : {});
        if (o.check) {
          console.log(JSON.stringify(printableConfig(c), null, 2));
          return;
        }
        const { startControlPlane } = await import('../controlplane/control-plane.js');
        const cp = await startControlPlane(c);
        console.log(`listening: ${cp.target} (${c.tls_cert ? (c.client_ca ? 'TLS, client certificates required' : 'TLS') : 'plaintext, loopback'})`);
        console.log(`metrics:   ${cp.metricsUrl}`);
        await new Promise<void>((done) => {
          const stop = (signal: string) => {
            cp.logger.info({ signal }, 'shutting down');
            void cp.close().then(done);
          };
          process.once('SIGINT', () => stop('SIGINT'));
          process.once('SIGTERM', () => stop('SIGTERM'));
        });
      } catch (e) {
        failWith(e);
      }
    });
}

export function clusterCommands(p: Command): void {
  const cfg = (c: Command) => c.requiredOption('--config <file>', 'the control plane\'s config file (its registry and clusters settings)');
  const clusters = p
    .command('clusters')
    .description('Register BYOC data-plane clusters on a hosted control plane and manage their agent keys.')
    .addHelpText(
      'after',
      [
        '',
        'These commands open the registry database the control-plane config names; a running control plane',
        'sees a new cluster at once and a revoked key within 5 seconds.',
        '',
        'Example:',
        '  loam clusters create acme-prod --config control-plane.json     # prints the first agent key once',
        '  loam clusters keys create acme-prod --config control-plane.json # a second key, for a rotation',
        '  loam clusters keys revoke acme-prod <key_id> --config control-plane.json',
      ].join('\n'),
    );

  cfg(clusters.command('create').argument('<cluster_id>', CLUSTER_ID_RULE).description("Register a cluster, make its store, and print its first agent key (shown once).")).action(
    (id: string, o: { config: string }) =>
      withRegistry(o, async (r, c) => {
        const { createCluster } = await controlPlane();
        const { key } = await createCluster(r, c.clusters, id, 'cli');
        return connectHelp(id, key.token);
      }),
  );

  cfg(clusters.command('list').description('List the registered clusters and where each one\'s metadata lives (passwords hidden).')).action((o: { config: string }) =>
    withRegistry(o, async (r, c) => {
      const { clusterUrl } = await controlPlane();
      const out: { id: string; created: number; store: string }[] = [];
      let after: string | undefined;
      for (let i = 0; i < MAX_CLUSTER_LIST_PAGES; i++) {
        const page = await r.listClusters({ limit: MAX_PAGE_LIMIT, ...(after ? { after } : {}) });
        for (const x of page.items) out.push({ id: x.id, created: x.created, store: redactUrl(clusterUrl(c.clusters, x.id)) });
        if (!page.next) return out;
        after = page.next;
      }
      console.error(`loam: showing the first ${out.length} clusters (${MAX_CLUSTER_LIST_PAGES} pages); there are more`);
      return out;
    }),
  );

  const keys = clusters.command('keys').description("Create, list and revoke a cluster's agent keys.");
  cfg(keys.command('create').argument('<cluster_id>').description('Create another agent key for the cluster (printed once: the only time its secret is shown).')).action(
    (id: string, o: { config: string }) => withRegistry(o, async (r) => (await (await controlPlane()).createAgentKey(r, id, 'cli')).token),
  );
  cfg(keys.command('list').argument('<cluster_id>').description("List the cluster's agent keys: ids, creation and revocation times (never a secret or hash).")).action(
    (id: string, o: { config: string }) =>
      withRegistry(o, async (r) => {
        await r.cluster(id);
        return r.listAgentKeys(id);
      }),
  );
  cfg(keys.command('revoke').argument('<cluster_id>').argument('<key_id>').description('Revoke an agent key: the control plane refuses it within 5 seconds.')).action(
    (id: string, keyId: string, o: { config: string }) =>
      withRegistry(o, async (r) => {
        await r.revokeAgentKey(id, keyId);
        return `revoked agent key ${keyId} of cluster "${id}"`;
      }),
  );
}

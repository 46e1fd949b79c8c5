// The hosted control plane's configuration (spec §8): one JSON file, every setting
// overridable by LOAM_CP_<SETTING IN UPPER CASE> (a prefix of its own, so a data plane's
// LOAM_* variables on the same host never configure it), validated at start with an error
// naming the setting.
//
// Example (control-plane.json):
//   {
//     "registry": "sqlite:/var/lib/loam-cp/registry.db",
//     "clusters": "sqlite:/var/lib/loam-cp/clusters/{cluster}.db",
//     "host": "0.0.0.0", "port": 7443,
//     "tls_cert": "/etc/loam-cp/server.crt", "tls_key": "/etc/loam-cp/server.key",
//     "client_ca": "/etc/loam-cp/clients-ca.crt"
//   }
import { readFileSync } from 'node:fs';
import { descriptorFor, DESCRIPTORS } from '../meta/backends/registry.js';
import { redactUrl } from '../meta/url.js';
import { ConfigError, LOG_LEVELS, LOOPBACK_HOSTS, readConfigFile } from '../node/config.js';
import { DEFAULT_CLUSTER_POOL_SIZE, DEFAULT_MAX_OPEN_CLUSTERS, templateCovers, templateProblem } from './cluster-stores.js';

export { ConfigError, readConfigFile };

export const DEFAULT_CP_PORT = 7443;
export const DEFAULT_CP_METRICS_PORT = 7444;
export const ENV_PREFIX = 'LOAM_CP_';

export interface ControlPlaneConfig {
  /** The control plane's own database: the cluster registry and agent keys (a metastore URL). */
  registry: string;
  /** The per-cluster store URL template, with {cluster} in the file, database or table name. */
  clusters: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** PEM files of the server's certificate and key; without them the listener is plaintext and loopback only. */
  tls_cert: string | null;
  tls_key: string | null;
  /** mTLS: every data plane presents a client certificate signed by this CA whose subject CN is its cluster_id. */
  client_ca: string | null;
  metrics_host: string;
  /** 0 picks a free port; by default DEFAULT_CP_METRICS_PORT, or 0 when `port` is 0. */
  metrics_port: number;
  log_level: (typeof LOG_LEVELS)[number];
  max_open_clusters: number;
  /** Postgres: connections per pool per cluster. */
  pool_size: number;
}

export const CP_DEFAULTS: Omit<ControlPlaneConfig, 'registry' | 'clusters'> = {
  host: '127.0.0.1',
  port: DEFAULT_CP_PORT,
  tls_cert: null,
  tls_key: null,
  client_ca: null,
  metrics_host: '127.0.0.1',
  metrics_port: DEFAULT_CP_METRICS_PORT,
  log_level: 'info',
  max_open_clusters: DEFAULT_MAX_OPEN_CLUSTERS,
  pool_size: DEFAULT_CLUSTER_POOL_SIZE,
};

const KEYS = ['registry', 'clusters', ...Object.keys(CP_DEFAULTS)] as (keyof ControlPlaneConfig)[];
const INTS: Partial<Record<keyof ControlPlaneConfig, [number, number]>> = {
  port: [0, 65_535],
  metrics_port: [0, 65_535],
  max_open_clusters: [1, 1_000_000],
  pool_size: [1, 100],
};

/** The LOAM_CP_* variables that name settings, as raw strings. */
export function cpEnvOverrides(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEYS) {
    const v = env[`${ENV_PREFIX}${k.toUpperCase()}`];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/** Merges defaults ← file ← env ← flags and validates everything. */
export function resolveControlPlaneConfig(...layers: Record<string, unknown>[]): ControlPlaneConfig {
  const raw: Record<string, unknown> = { ...CP_DEFAULTS };
  let metricsPortSet = false;
  for (const l of layers) {
    if (l.metrics_port !== undefined) metricsPortSet = true;
    for (const [k, v] of Object.entries(l)) {
      if (v === undefined) continue;
      if (!KEYS.includes(k as keyof ControlPlaneConfig)) throw new ConfigError(k, `is not a control-plane setting (known: ${KEYS.join(', ')})`);
      raw[k] = v;
    }
  }
  const out = { ...raw };
  for (const [k, [lo, hi]] of Object.entries(INTS) as [keyof ControlPlaneConfig, [number, number]][]) {
    const v = raw[k];
    const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < lo || n > hi) throw new ConfigError(k, `must be an integer in ${lo}..${hi}; got ${JSON.stringify(v)}`);
    out[k] = n;
  }
  if (!metricsPortSet && out.port === 0) out.metrics_port = 0;
  if (typeof raw.registry !== 'string' || raw.registry.trim() === '') {
    throw new ConfigError('registry', 'is required: the control plane\'s own database for clusters and agent keys (e.g. sqlite:/var/lib/loam-cp/registry.db)');
  }
  if (['sharded', 'remote'].includes(descriptorFor(raw.registry)?.name ?? '')) throw new ConfigError('registry', 'must be one database (sqlite:, postgres:// or dynamodb://), not sharded or remote: it holds the clusters and agent keys');
  if (!descriptorFor(raw.registry)) {
    throw new ConfigError('registry', `has an unknown scheme in ${JSON.stringify(redactUrl(raw.registry))} (expected ${DESCRIPTORS.map((d) => d.urlForm).join('; ')})`);
  }
  if (typeof raw.clusters !== 'string' || raw.clusters.trim() === '') {
    throw new ConfigError('clusters', 'is required: the per-cluster store URL template (e.g. sqlite:/var/lib/loam-cp/clusters/{cluster}.db)');
  }
  const problem = templateProblem(raw.clusters);
  if (problem) throw new ConfigError('clusters', `${problem}; got ${JSON.stringify(redactUrl(raw.clusters))}`);
  if (templateCovers(raw.clusters, raw.registry)) {
    throw new ConfigError('registry', 'is a URL the clusters template makes for some cluster: give the registry a database no cluster can be named into');
  }
  for (const k of ['tls_cert', 'tls_key', 'client_ca'] as const) {
    if (raw[k] !== null && (typeof raw[k] !== 'string' || (raw[k] as string).trim() === '')) throw new ConfigError(k, `must be a PEM file path or null; got ${JSON.stringify(raw[k])}`);
  }
  if ((raw.tls_cert === null) !== (raw.tls_key === null)) throw new ConfigError(raw.tls_cert === null ? 'tls_cert' : 'tls_key', 'and its pair (tls_cert, tls_key) are set together');
  if (raw.client_ca !== null && raw.tls_cert === null) throw new ConfigError('client_ca', 'needs tls_cert and tls_key: client certificates are checked in a TLS handshake');
  if (typeof raw.host !== 'string' || raw.host.trim() === '' || (raw.tls_cert === null && !LOOPBACK_HOSTS.includes(raw.host))) {
    throw new ConfigError('host', `must be a loopback address (${LOOPBACK_HOSTS.join(', ')}) without tls_cert and tls_key: agent keys never cross a network in clear; got ${JSON.stringify(raw.host)}`);
  }
  if (typeof raw.metrics_host !== 'string' || raw.metrics_host.trim() === '' || /[\s/]/.test(raw.metrics_host)) {
    throw new ConfigError('metrics_host', `must be a host name or address to listen on; got ${JSON.stringify(raw.metrics_host)}`);
  }
  if (out.port !== 0 && out.metrics_port === out.port && raw.metrics_host === raw.host) throw new ConfigError('metrics_port', `must differ from port (${String(out.port)})`);
  if (!(LOG_LEVELS as readonly string[]).includes(raw.log_level as string)) throw new ConfigError('log_level', `must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(raw.log_level)}`);
  return out as unknown as ControlPlaneConfig;
}

/** The TLS material a config names, read at start (a missing file is a ConfigError naming its setting). */
export function readTlsFiles(c: ControlPlaneConfig): { cert: Buffer; key: Buffer; clientCa: Buffer | null } | null {
  if (c.tls_cert === null || c.tls_key === null) return null;
  const read = (k: 'tls_cert' | 'tls_key' | 'client_ca', path: string) => {
    try {
      return readFileSync(path);
    } catch (e) {
      throw new ConfigError(k, `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  };
  return { cert: read('tls_cert', c.tls_cert), key: read('tls_key', c.tls_key), clientCa: c.client_ca === null ? null : read('client_ca', c.client_ca) };
}

/** The config with every URL's password hidden (config-check, logs). */
export function printableConfig(c: ControlPlaneConfig): ControlPlaneConfig {
  return { ...c, registry: redactUrl(c.registry), clusters: redactUrl(c.clusters) };
}

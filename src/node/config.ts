// Node configuration: one JSON file, every setting overridable by an
// environment variable LOAM_<SETTING IN UPPER CASE> (e.g. LOAM_STORE, LOAM_PORT), and
// every setting validated at start with an error that names it.
//
// Example (loam.json):
//   {
//     "metastore": "sqlite:/var/lib/loam/meta.db",
//     "store": "file:///var/lib/loam/objects",
//     "host": "127.0.0.1",
//     "port": 7070,
//     "roles": ["log", "query", "worker"],
//     "log_level": "info"
//   }
// A sharded metastore (docs/sharding.md) is an object instead of a URL:
//   "metastore": { "shards": ["sqlite:/a.db", { "name": "eu", "url": "postgres://…" }], "directory": "postgres://…" }
// Every other setting below has a default.
import { readFileSync } from 'node:fs';
import { ConfigError } from './config-error.js';
import { isAbsolute, resolve } from 'node:path';
import { DEFAULT_FLUSH_BYTES, DEFAULT_FLUSH_INTERVAL_MS } from '../log/writer.js';
import { DEFAULT_MAX_BACKLOG_BYTES, DEFAULT_MAX_BACKLOG_RECORDS } from '../collection/writer.js';
import { DEFAULT_LEASE_TTL_MS } from '../workers/lease.js';
import { DEFAULT_SEGMENT_MIN_AGE_MS, SEGMENT_MAX_AGE_MS } from '../workers/segmenter.js';
import { DEFAULT_ERASURE_DEADLINE_MS } from '../erasure/record.js';
import { DEFAULT_ERASURE_INTERVAL_MS } from '../erasure/runner.js';
import { DEFAULT_GC_GRACE_MS } from '../gc/gc.js';
import { DEFAULT_GC_INTERVAL_MS, DEFAULT_MAINTENANCE_MS, DEFAULT_APPLY_POLL_MS, DEFAULT_APPLY_INTERVAL_MS } from '../workers/scheduler.js';
import { DEFAULT_CHUNK_CACHE_BYTES } from '../log/reader.js';
import { DEFAULT_WORKER_BUFFER_BYTES } from './buffer-bound.js';
import { DEFAULT_WRITE_INFLIGHT_BYTES, DEFAULT_WRITE_QUEUE_TIMEOUT_MS } from '../gateway/write-budget.js';
import { MIN_LEASE_TTL_MS, MAX_LEASE_TTL_MS } from '../meta/limits.js';
import { parseShardedSetting, shardedUrl } from '../meta/backends/sharded/descriptor.js';
import { parseStoreUrl } from '../store/open.js';
import { checkMetastoreUrl } from './backends.js';
import { redactUrl } from '../meta/url.js';
import { KEY_REFRESH_INTERVAL_MS } from '../crypto/keyring.js';
import { parseMasterKey } from '../crypto/local.js';
import { MAX_WEIGHT, MIN_WEIGHT, ZONE_PATTERN } from '../router/placement.js';
import { MEMBERSHIP_HEARTBEAT_MS, MEMBERSHIP_TTL_MS } from '../router/membership.js';

export const ROLES = ['log', 'query', 'worker'] as const;
export type Role = (typeof ROLES)[number];
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const DEFAULT_PORT = 7070;
export const DEFAULT_HOST = '127.0.0.1';
/**
 * /metrics is served on its own listener, never on the API's (it needs no key): loopback
 * and the port after the API's by default; a free port when the API's port is 0.
 */
export const DEFAULT_METRICS_HOST = '127.0.0.1';
export const DEFAULT_METRICS_PORT = 7071;
/** Without authentication (auth: none) the API binds only to loopback. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'];
/** api_keys: every request carries an API key (spec §6); none: loopback development only. */
export const AUTH_MODES = ['none', 'api_keys'] as const;
/** Who decides authorization with auth api_keys (spec §7): the built-in role bindings, or an OpenFGA server. */
export const AUTHORIZERS = ['builtin', 'openfga'] as const;
/** OpenFGA store names: what the server accepts (3-64 characters). */
export const OPENFGA_STORE_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{2,63}$/;

export interface NodeConfig {
  metastore: string;
  store: string;
  host: string;
  /** 0 picks a free port. */
  port: number;
  /** The Prometheus /metrics listener (no API key on it: keep it on a private interface). */
  metrics_host: string;
  /** 0 picks a free port; by default DEFAULT_METRICS_PORT, or 0 when `port` is 0. */
  metrics_port: number;
  roles: Role[];
  log_level: (typeof LOG_LEVELS)[number];
  node_id: string | null;
  flush_interval_ms: number;
  flush_bytes: number;
  backlog_max_records: number;
  backlog_max_bytes: number;
  lease_ttl_ms: number;
  gc_grace_ms: number;
  gc_interval_ms: number;
  maintenance_interval_ms: number;
  apply_poll_ms: number;
  apply_interval_ms: number;
  segment_min_age_ms: number;
  cache_bytes: number;
  /**
   * Bytes of write request bodies (their Content-Length) a node reads and holds at once, until
   * each is answered; a write beyond it waits up to write_queue_timeout_ms, then is refused
   * with 503 (docs/operations.md, sizing).
   */
  write_inflight_bytes: number;
  write_queue_timeout_ms: number;
  /**
   * The worker thread's CPU priority relative to the request path (a nice increment, 0–19;
   * Linux, per thread): maintenance yields the cores to acknowledgements under load.
   */
  worker_nice: number;
  /**
   * The worker thread's ArrayBuffers (its caches, its work and what it is done with), bytes:
   * past it the thread runs a full collection (./buffer-bound.ts; docs/operations.md, sizing). 0: off.
   */
  worker_buffer_bytes: number;
  auth: (typeof AUTH_MODES)[number];
  /** The org `loam dev`/`serve` create on first start with auth api_keys (with one admin key). */
  bootstrap_org: string;
  /** With auth api_keys: the built-in authorizer, or OpenFGA at openfga_url (docs/openfga.md). */
  authorizer: (typeof AUTHORIZERS)[number];
  /** The OpenFGA server's HTTP API (http://host:8080); required with authorizer openfga. */
  openfga_url: string | null;
  /** The OpenFGA store Loam's tuples and model live in (created on first start). */
  openfga_store: string;
  /**
   * The key-encryption key of the erasure log (64 hex digits): the per-org erasure-log keys are
   * stored wrapped by it (spec §9.6). Unset: erasure is off (its routes answer 503). Keep it
   * in LOAM_ERASURE_KEK or a file only the node reads; it is never logged.
   */
  erasure_kek: string | null;
  /** An erasure completes within this (spec §9.7, default 30 days). */
  erasure_deadline_ms: number;
  /** The purge (its forced compaction and the early release of time travel) runs within this of a request. */
  erasure_purge_deadline_ms: number;
  /** How often a node advances active erasures and evicts what they retired. */
  erasure_interval_ms: number;
  /** Envelope encryption of new namespaces (spec §9.8, docs/encryption.md): on by default wherever a key provider is set. */
  encryption: (typeof ENCRYPTION_MODES)[number];
  /** Where namespace keys come from: local (a master key; the default), kms, or none (no encryption). */
  key_provider: (typeof KEY_PROVIDERS)[number];
  /**
   * key_provider local: 32 bytes, base64 (LOAM_ENCRYPTION_MASTER_KEY). Never logged. Unset on an
   * embedded metastore file: generated once into its directory (encryption.key, mode 0600).
   */
  encryption_master_key: string | null;
  /** key_provider kms: the endpoint (null: the SDK's default for the region) and the region. */
  kms_endpoint: string | null;
  kms_region: string;
  /** Cached keys are re-checked at least this often: a destroyed key is zeroized by then on every node. */
  key_refresh_ms: number;
  /** The node's zone (docs/placement.md): replicas spread over zones, writes stay in the client's zone. Null: the unnamed zone. */
  zone: string | null;
  /** The node's relative capacity in placement (1 is a standard node; 2 owns about twice the keys). */
  placement_weight: number;
  /** Where other nodes reach this node's API (http://host:port); null: the address it listens on. */
  advertise_url: string | null;
  /** How often a node renews its membership and re-reads the others' (spec §5.3). */
  membership_heartbeat_ms: number;
  /** owner: reads and queries go to the collection's owner, writes to a log node in this zone (docs/placement.md); local: every node serves what it is sent. */
  routing: (typeof ROUTING_MODES)[number];
}

/** Request routing (spec §5.3): to the owner, or served wherever it arrives. */
export const ROUTING_MODES = ['owner', 'local'] as const;

/**
 * Maintenance (apply, compaction, segmenting, GC) runs at a lower CPU priority than the
 * request path, as databases run compaction threads: under saturation the cores go to
 * acknowledging writes, and the backlog quotas bound how far apply may fall behind.
 */
export const DEFAULT_WORKER_NICE = 10;

/** The purge's deadline by default: a day (the applier has long applied the delete by then). */
export const DEFAULT_ERASURE_PURGE_DEADLINE_MS = 86_400_000;

export const ENCRYPTION_MODES = ['on', 'off'] as const;
export const KEY_PROVIDERS = ['none', 'local', 'kms'] as const;

export const DEFAULTS: Omit<NodeConfig, 'metastore' | 'store'> = {
  host: DEFAULT_HOST,
  port: DEFAULT_PORT,
  metrics_host: DEFAULT_METRICS_HOST,
  metrics_port: DEFAULT_METRICS_PORT,
  roles: [...ROLES],
  log_level: 'info',
  node_id: null,
  flush_interval_ms: DEFAULT_FLUSH_INTERVAL_MS,
  flush_bytes: DEFAULT_FLUSH_BYTES,
  backlog_max_records: DEFAULT_MAX_BACKLOG_RECORDS,
  backlog_max_bytes: DEFAULT_MAX_BACKLOG_BYTES,
  lease_ttl_ms: DEFAULT_LEASE_TTL_MS,
  gc_grace_ms: DEFAULT_GC_GRACE_MS,
  gc_interval_ms: DEFAULT_GC_INTERVAL_MS,
  maintenance_interval_ms: DEFAULT_MAINTENANCE_MS,
  apply_poll_ms: DEFAULT_APPLY_POLL_MS,
  apply_interval_ms: DEFAULT_APPLY_INTERVAL_MS,
  segment_min_age_ms: DEFAULT_SEGMENT_MIN_AGE_MS,
  cache_bytes: DEFAULT_CHUNK_CACHE_BYTES,
  write_inflight_bytes: DEFAULT_WRITE_INFLIGHT_BYTES,
  write_queue_timeout_ms: DEFAULT_WRITE_QUEUE_TIMEOUT_MS,
  worker_nice: DEFAULT_WORKER_NICE,
  worker_buffer_bytes: DEFAULT_WORKER_BUFFER_BYTES,
  auth: 'none',
  bootstrap_org: 'default',
  authorizer: 'builtin',
  openfga_url: null,
  openfga_store: 'loam',
  erasure_kek: null,
  erasure_deadline_ms: DEFAULT_ERASURE_DEADLINE_MS,
  erasure_purge_deadline_ms: DEFAULT_ERASURE_PURGE_DEADLINE_MS,
  erasure_interval_ms: DEFAULT_ERASURE_INTERVAL_MS,
  encryption: 'on',
  key_provider: 'local',
  encryption_master_key: null,
  kms_endpoint: null,
  kms_region: 'us-east-1',
  key_refresh_ms: KEY_REFRESH_INTERVAL_MS,
  zone: null,
  placement_weight: 1,
  advertise_url: null,
  membership_heartbeat_ms: MEMBERSHIP_HEARTBEAT_MS,
  routing: 'owner',
};

/**
 * The erasure's completion bound (spec §9.7): max(compaction deadline, retention override)
 * + segmenter lag + GC grace. The purge is the compaction and releases time travel in the
 * same step (the retention override is 0 past it); the segmenter segments a chunk at most
 * SEGMENT_MAX_AGE_MS past segment_min_age_ms, a maintenance pass later; GC deletes after its
 * grace, a pass later. Each erasure task pass adds its interval.
 */
export function erasureBoundMs(c: Pick<NodeConfig, 'erasure_purge_deadline_ms' | 'segment_min_age_ms' | 'maintenance_interval_ms' | 'gc_grace_ms' | 'gc_interval_ms' | 'erasure_interval_ms'>): number {
  const segmenterLag = c.segment_min_age_ms + SEGMENT_MAX_AGE_MS + c.maintenance_interval_ms;
  return Math.max(c.erasure_purge_deadline_ms, 0) + segmenterLag + c.gc_grace_ms + c.gc_interval_ms + c.erasure_interval_ms;
}

export { ConfigError } from './config-error.js';

type IntRange = [number, number];
const INTS: Partial<Record<keyof NodeConfig, IntRange>> = {
  port: [0, 65_535],
  metrics_port: [0, 65_535],
  flush_interval_ms: [0, 10_000],
  flush_bytes: [1_024, 256 * 1024 * 1024],
  backlog_max_records: [1, 1_000_000_000],
  backlog_max_bytes: [1_024, 1024 ** 4],
  lease_ttl_ms: [MIN_LEASE_TTL_MS, MAX_LEASE_TTL_MS],
  gc_grace_ms: [100, 30 * 86_400_000],
  gc_interval_ms: [10, 86_400_000],
  maintenance_interval_ms: [10, 3_600_000],
  apply_poll_ms: [10, 3_600_000],
  apply_interval_ms: [0, 3_600_000],
  segment_min_age_ms: [0, 86_400_000],
  cache_bytes: [0, 1024 ** 4],
  write_inflight_bytes: [64 * 1024, 1024 ** 4],
  write_queue_timeout_ms: [0, 600_000],
  worker_nice: [0, 19],
  worker_buffer_bytes: [0, 1024 ** 4],
  erasure_deadline_ms: [1_000, 365 * 86_400_000],
  erasure_purge_deadline_ms: [1_000, 365 * 86_400_000],
  erasure_interval_ms: [10, 3_600_000],
  key_refresh_ms: [1_000, KEY_REFRESH_INTERVAL_MS],
  membership_heartbeat_ms: [100, MEMBERSHIP_TTL_MS / 2],
};

const KEYS = ['metastore', 'store', ...Object.keys(DEFAULTS)] as (keyof NodeConfig)[];

/** A setting's value as an error quotes it: a URL's credentials masked (src/meta/url.ts). */
function shown(v: unknown): string {
  return JSON.stringify(typeof v === 'string' ? redactUrl(v) : v);
}

/** A JSON.parse error without the text V8 quotes from the input (it may be a password's). */
function jsonProblem(e: unknown): string {
  return (e as Error).message.replace(/, (\.\.\.)?".*"(\.\.\.)? is not valid JSON$/s, ' (the text there is not shown)');
}

/** Reads a config file (JSON). Missing file or bad JSON is a ConfigError naming the file. */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError('--config', `cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('the top level must be an object');
    return v as Record<string, unknown>;
  } catch (e) {
    throw new ConfigError('--config', `${path} is not valid JSON: ${jsonProblem(e)}`);
  }
}

/** The LOAM_* variables that name settings, as raw strings. */
export function envOverrides(env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of KEYS) {
    const v = env[`LOAM_${k.toUpperCase()}`];
    if (v !== undefined && v !== '') out[k] = v;
  }
  return out;
}

/** Merges defaults ← file ← env ← flags and validates everything. */
export function resolveConfig(...layers: Record<string, unknown>[]): NodeConfig {
  const raw: Record<string, unknown> = { ...DEFAULTS };
  let metricsPortSet = false;
  for (const l of layers) {
    if (l.metrics_port !== undefined) metricsPortSet = true;
    for (const [k, v] of Object.entries(l)) {
      if (v === undefined) continue;
      if (!KEYS.includes(k as keyof NodeConfig)) throw new ConfigError(k, `is not a setting (known: ${KEYS.join(', ')})`);
      raw[k] = v;
    }
  }
  const out = { ...raw } as Record<string, unknown>;
  for (const [k, [lo, hi]] of Object.entries(INTS) as [keyof NodeConfig, IntRange][]) {
    const v = raw[k];
    const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < lo || n > hi) {
      throw new ConfigError(k, `must be an integer in ${lo}..${hi}; got ${JSON.stringify(v)}`);
    }
    out[k] = n;
  }
  if (!metricsPortSet && out.port === 0) out.metrics_port = 0;
  if (out.port !== 0 && out.metrics_port === out.port && raw.metrics_host === raw.host) {
    throw new ConfigError('metrics_port', `must differ from port (${String(out.port)}): /metrics has a listener of its own`);
  }
  if (typeof raw.metrics_host !== 'string' || raw.metrics_host.trim() === '' || /[\s/]/.test(raw.metrics_host)) {
    throw new ConfigError('metrics_host', `must be a host name or address to listen on (default ${DEFAULT_METRICS_HOST}); got ${JSON.stringify(raw.metrics_host)}`);
  }
  // A sharded metastore (docs/sharding.md): { "shards": [...], "directory": "<URL>" }, in the
  // file or as JSON in LOAM_METASTORE; checked here, carried on as its sharded: URL.
  let ms = raw.metastore;
  if (typeof ms === 'string' && ms.trim().startsWith('{')) {
    try {
      ms = JSON.parse(ms) as unknown;
    } catch (e) {
      throw new ConfigError('metastore', `is not valid JSON: ${jsonProblem(e)}`);
    }
  }
  if (typeof ms === 'object' && ms !== null) {
    try {
      out.metastore = shardedUrl(parseShardedSetting(ms));
    } catch (e) {
      throw new ConfigError('metastore', (e as Error).message);
    }
  }
  for (const k of ['metastore', 'store'] as const) {
    if (typeof out[k] !== 'string' || (out[k] as string).trim() === '') throw new ConfigError(k, 'is required (a URL; see the README)');
  }
  // Both URLs read now by what opens them, before anything is opened or written (config-check
  // refuses what serve would).
  checkMetastoreUrl(out.metastore as string);
  try {
    parseStoreUrl(out.store as string);
  } catch (e) {
    throw new ConfigError('store', redactUrl((e as Error).message.replace(/^url: /, '')));
  }
  if (!(AUTH_MODES as readonly string[]).includes(raw.auth as string)) {
    throw new ConfigError('auth', `must be one of ${AUTH_MODES.join(', ')}; got ${JSON.stringify(raw.auth)}`);
  }
  if (!(AUTHORIZERS as readonly string[]).includes(raw.authorizer as string)) {
    throw new ConfigError('authorizer', `must be one of ${AUTHORIZERS.join(', ')}; got ${JSON.stringify(raw.authorizer)}`);
  }
  if (raw.authorizer === 'openfga') {
    if (raw.auth !== 'api_keys') throw new ConfigError('authorizer', 'openfga decides for API keys: set auth: api_keys too');
    let url: URL | null = null;
    try {
      url = typeof raw.openfga_url === 'string' ? new URL(raw.openfga_url) : null;
    } catch {
      url = null;
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError('openfga_url', `must be the OpenFGA server's HTTP API URL (http://host:8080) when authorizer is openfga; got ${shown(raw.openfga_url)}`);
    }
    out.openfga_url = url.toString().replace(/\/$/, '');
  } else if (raw.openfga_url !== null && typeof raw.openfga_url !== 'string') {
    throw new ConfigError('openfga_url', `must be a URL or null; got ${shown(raw.openfga_url)}`);
  }
  if (typeof raw.openfga_store !== 'string' || !OPENFGA_STORE_PATTERN.test(raw.openfga_store)) {
    throw new ConfigError('openfga_store', `must be 3-64 characters of A-Z a-z 0-9 _ . - (an OpenFGA store name); got ${JSON.stringify(raw.openfga_store)}`);
  }
  if (typeof raw.bootstrap_org !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/.test(raw.bootstrap_org)) {
    throw new ConfigError('bootstrap_org', `must be 1-63 characters of A-Z a-z 0-9 _ -; got ${JSON.stringify(raw.bootstrap_org)}`);
  }
  if (typeof raw.host !== 'string' || (raw.auth === 'none' && !LOOPBACK_HOSTS.includes(raw.host))) {
    throw new ConfigError('host', `must be a loopback address (${LOOPBACK_HOSTS.join(', ')}) while auth is none (set auth: api_keys to listen elsewhere); got ${JSON.stringify(raw.host)}`);
  }
  let roles = raw.roles;
  if (typeof roles === 'string') roles = roles.split(',').map((s) => s.trim()).filter(Boolean);
  if (!Array.isArray(roles) || roles.length === 0 || roles.some((r) => !(ROLES as readonly string[]).includes(r as string))) {
    throw new ConfigError('roles', `must be a non-empty list of ${ROLES.join(', ')}; got ${JSON.stringify(raw.roles)}`);
  }
  out.roles = [...new Set(roles as Role[])];
  if (!(LOG_LEVELS as readonly string[]).includes(raw.log_level as string)) {
    throw new ConfigError('log_level', `must be one of ${LOG_LEVELS.join(', ')}; got ${JSON.stringify(raw.log_level)}`);
  }
  if (raw.node_id !== null && (typeof raw.node_id !== 'string' || !/^[A-Za-z0-9_-]{1,32}$/.test(raw.node_id))) {
    throw new ConfigError('node_id', 'must be 1-32 characters of A-Z a-z 0-9 _ -');
  }
  if (!(ENCRYPTION_MODES as readonly string[]).includes(raw.encryption as string)) {
    throw new ConfigError('encryption', `must be one of ${ENCRYPTION_MODES.join(', ')}; got ${JSON.stringify(raw.encryption)}`);
  }
  if (!(KEY_PROVIDERS as readonly string[]).includes(raw.key_provider as string)) {
    throw new ConfigError('key_provider', `must be one of ${KEY_PROVIDERS.join(', ')}; got ${JSON.stringify(raw.key_provider)}`);
  }
  if (raw.key_provider === 'local') {
    // The value is a secret: the error names the setting only. Unset, the node takes the key
    // from its data directory (generated once) on the embedded defaults (src/node/keys.ts).
    if (raw.encryption_master_key !== null) {
      try {
        parseMasterKey(typeof raw.encryption_master_key === 'string' ? raw.encryption_master_key : '', 'encryption_master_key');
      } catch {
        throw new ConfigError('encryption_master_key', 'must be 32 bytes in base64 (e.g. openssl rand -base64 32)');
      }
    }
  } else if (raw.encryption_master_key !== null) {
    throw new ConfigError('encryption_master_key', 'is only used with key_provider local');
  }
  if (raw.kms_endpoint !== null) {
    let u: URL | null = null;
    try {
      u = typeof raw.kms_endpoint === 'string' ? new URL(raw.kms_endpoint) : null;
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) throw new ConfigError('kms_endpoint', `must be an http(s) URL or null; got ${shown(raw.kms_endpoint)}`);
  }
  if (typeof raw.kms_region !== 'string' || !/^[a-z]{2}(-[a-z]+)+-\d+$/.test(raw.kms_region)) {
    throw new ConfigError('kms_region', `must be an AWS region name such as eu-west-2; got ${JSON.stringify(raw.kms_region)}`);
  }
  if (raw.erasure_kek !== null && raw.erasure_kek !== undefined) {
    if (typeof raw.erasure_kek !== 'string' || !/^[0-9a-fA-F]{64}$/.test(raw.erasure_kek)) throw new ConfigError('erasure_kek', 'must be 64 hex digits (a 256-bit key) or null (erasure off); the value is not shown');
  }
  if (raw.zone !== null && (typeof raw.zone !== 'string' || !ZONE_PATTERN.test(raw.zone))) {
    throw new ConfigError('zone', `must be 1-63 characters of a-z 0-9 _ -, starting with a letter or digit (e.g. eu-west-1a), or null; got ${JSON.stringify(raw.zone)}`);
  }
  const w = typeof raw.placement_weight === 'string' && raw.placement_weight.trim() !== '' ? Number(raw.placement_weight) : raw.placement_weight;
  if (typeof w !== 'number' || !Number.isFinite(w) || w < MIN_WEIGHT || w > MAX_WEIGHT) {
    throw new ConfigError('placement_weight', `must be a number in ${MIN_WEIGHT}..${MAX_WEIGHT}; got ${JSON.stringify(raw.placement_weight)}`);
  }
  out.placement_weight = w;
  if (raw.advertise_url !== null) {
    let u: URL | null = null;
    try {
      u = typeof raw.advertise_url === 'string' ? new URL(raw.advertise_url) : null;
    } catch {
      u = null;
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:') || u.username || u.password || (u.pathname !== '/' && u.pathname !== '')) {
      throw new ConfigError('advertise_url', `must be http(s)://host:port (no path, no credentials) or null; got ${shown(raw.advertise_url)}`);
    }
    out.advertise_url = u.origin;
  }
  if (!(ROUTING_MODES as readonly string[]).includes(raw.routing as string)) {
    throw new ConfigError('routing', `must be one of ${ROUTING_MODES.join(', ')}; got ${JSON.stringify(raw.routing)}`);
  }
  const c = out as unknown as NodeConfig;
  const bound = erasureBoundMs(c);
  if (bound > c.erasure_deadline_ms) {
    throw new ConfigError(
      'erasure_deadline_ms',
      `(${c.erasure_deadline_ms} ms) is shorter than the erasure bound these settings give, ${bound} ms (spec §9.7): erasure_purge_deadline_ms ${c.erasure_purge_deadline_ms}` +
        ` + segmenter lag (segment_min_age_ms ${c.segment_min_age_ms} + ${SEGMENT_MAX_AGE_MS} + maintenance_interval_ms ${c.maintenance_interval_ms})` +
        ` + gc_grace_ms ${c.gc_grace_ms} + gc_interval_ms ${c.gc_interval_ms} + erasure_interval_ms ${c.erasure_interval_ms}; shorten those or raise erasure_deadline_ms`,
    );
  }
  if (c.gc_grace_ms <= 2 * c.lease_ttl_ms) {
    throw new ConfigError('gc_grace_ms', `must be more than twice lease_ttl_ms (${c.lease_ttl_ms}), so no slow writer's object is collected under it`);
  }
  return c;
}

/** A sqlite: metastore URL for a path (relative paths resolve against `base`). */
export function sqliteUrl(path: string, base = process.cwd()): string {
  return `sqlite:${isAbsolute(path) ? path : resolve(base, path)}`;
}

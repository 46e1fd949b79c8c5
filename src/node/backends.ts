// Metastore URL → backend, through the backend registry (src/meta/backends/registry.ts,
// DESIGN §3):
//
//   sqlite:/abs/path/meta.db     the embedded backend on a file (relative paths: from the cwd)
//   sqlite::memory:              the embedded backend in memory (nothing survives the process)
//   postgres://user:pw@host/db   the Postgres backend (connected and migrated at start)
//   dynamodb://[host:port]/table?region=…&profile=dynamodb|alternator&tls=…
//                                the DynamoDB backend (the table is created when missing)
//   sharded:{"shards":[…],"directory":"…"}
//                                a sharded metastore over those backends (docs/sharding.md;
//                                written from the config's object form)
import type { MetaStore } from '../meta/contract.js';
import type { SizeClass } from '../meta/backends/sharded/directory.js';
import { ALL_SMALL, type SizeClasses } from '../router/placement.js';
import { DESCRIPTORS, METASTORE_SCHEMES as SCHEMES, descriptorFor, type Connection } from '../meta/backends/registry.js';
import { ConfigError } from './config-error.js';
import { redactSecrets, redactUrl } from '../meta/url.js';
import { openDirectory } from '../control/directory/index.js';

export const METASTORE_SCHEMES = [...SCHEMES];

export interface OpenedMeta {
  meta: MetaStore;
  /** The backend's name, for metrics and logs (never the URL: it may hold a password). */
  backend: string;
  /** The connection the ControlStore opens on (src/control controlStoreOn). */
  connection: Connection;
}

/** The metastore URL's backend, or a ConfigError naming the schemes there are (read without connecting: config-check too). */
export function metastoreDescriptor(url: string): NonNullable<ReturnType<typeof descriptorFor>> {
  const d = descriptorFor(url);
  if (!d) {
    throw new ConfigError(
      'metastore',
      `unknown metastore URL scheme in ${JSON.stringify(redactUrl(url))} (expected ${METASTORE_SCHEMES.join(', ')}: ${DESCRIPTORS.map((x) => x.urlForm).join('; ')})`,
    );
  }
  return d;
}

/**
 * The metastore URL read by its backend without connecting (a ConfigError saying what is
 * wrong): with the config, so config-check refuses what serve would.
 */
export function checkMetastoreUrl(url: string): void {
  const d = metastoreDescriptor(url);
  try {
    d.parse(url);
  } catch (e) {
    const why = redactSecrets(stripField((e as Error).message), url);
    // A sharded setting's own messages name the shard; its URL is the whole setting.
    throw new ConfigError('metastore', d.name === 'sharded' ? why : `${JSON.stringify(redactUrl(url))}: ${why}`);
  }
}

/**
 * What opening the metastore needs on this host and will not make (an embedded file's
 * directory), checked without changing anything: `loam config-check`.
 */
export function preflightMetastore(url: string): void {
  const d = metastoreDescriptor(url);
  try {
    d.preflight?.(url);
  } catch (e) {
    throw new ConfigError('metastore', redactSecrets((e as Error).message, url));
  }
}

/** A MetaError's `url: ` prefix (the field is the setting, named already). */
const stripField = (message: string) => message.replace(/^url: /, '');

export async function openMetastore(url: string): Promise<OpenedMeta> {
  const d = metastoreDescriptor(url);
  try {
    // A sharded metastore's directory lives beside the ControlStore, which this layer opens.
    return await d.open(url, { applicationName: 'loam-node', ...(d.name === 'sharded' ? { openDirectory } : {}) } as Parameters<typeof d.open>[1]);
  } catch (e) {
    const message = redactSecrets(stripField((e as Error).message), url);
    // The embedded backend's URL errors say what to write; a service backend's say it cannot be used.
    throw new ConfigError('metastore', d.name === 'embedded' ? message : `cannot use the ${d.name} metastore: ${message}`);
  }
}

/** The size classes of a sharded metastore's directory view (ShardedMetaStore.sizeClassOf); ALL_SMALL for another backend. */
export function sizeClassesOf(meta: MetaStore): SizeClasses {
  const m = meta as MetaStore & { sizeClassOf?: (ns: number) => SizeClass; sizeClassVersion?: () => number };
  if (typeof m.sizeClassOf !== 'function' || typeof m.sizeClassVersion !== 'function') return ALL_SMALL;
  return { of: (ns) => m.sizeClassOf!(ns), version: () => m.sizeClassVersion!() };
}

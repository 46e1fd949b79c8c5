// The one backend registry (issue 12 item 3, DESIGN §5.1): a metastore URL's scheme names a
// backend descriptor, and the descriptor opens the backend. Each backend exports its
// descriptor from its own folder (`./<backend>/descriptor.ts`); adding a backend is one
// entry here.
//
// A descriptor opens the MetaStore and says which connection it runs on (`Connection`, a
// typed union), so the ControlStore can be opened on the same connection (spec §6) by the
// layer that owns it (src/control): the metastore knows no ControlStore, and nobody needs to
// look at a class name or into a backend's private fields.
import type { BackendDescriptor } from './descriptor.js';
import { embeddedDescriptor } from './embedded/descriptor.js';
import { postgresDescriptor } from './postgres/descriptor.js';
import { dynamoDescriptor } from './dynamodb/descriptor.js';
import { parseShardedUrl, shardedDescriptor, type ShardedOpenOptions } from './sharded/descriptor.js';
import { remoteDescriptor } from './remote/descriptor.js';

export { connectionOf, registerConnection, type Connection } from './connections.js';
export type { BackendDescriptor, BackendOpenOptions, OpenedBackend } from './descriptor.js';

/** The backends a shard of a sharded metastore may be (any but sharded itself). */
const SHARD_DESCRIPTORS: readonly BackendDescriptor[] = [embeddedDescriptor, postgresDescriptor, dynamoDescriptor, remoteDescriptor];

/** The backend of a shard's (or the directory's) URL. */
function shardDescriptor(u: string): BackendDescriptor {
  const d = SHARD_DESCRIPTORS.find((x) => x.schemes.some((sc) => u.toLowerCase().startsWith(sc)));
  if (!d) throw new Error(`not a backend URL (expected ${SHARD_DESCRIPTORS.flatMap((x) => x.schemes).join(', ')})`);
  return d;
}

/** Runs `fn` on each shard's and the directory's URL with its backend; an error names the entry. */
function eachEntry(url: string, fn: (d: BackendDescriptor, u: string) => void): void {
  const setting = parseShardedUrl(url);
  const entries = [...setting.shards.map((s, i) => ({ u: s.url, where: `shards[${i}] (${s.name})` })), { u: setting.directory, where: 'directory' }];
  for (const { u, where } of entries) {
    try {
      fn(shardDescriptor(u), u);
    } catch (e) {
      // A MetaError's field prefix (`url: `): the entry is named instead.
      throw new Error(`${where}: ${(e as Error).message.replace(/^url: /, '')}`);
    }
  }
}

/** The sharded backend opens its shards through the registry (it cannot import it: a cycle). */
const sharded: BackendDescriptor = {
  ...shardedDescriptor,
  // Every shard's and the directory's URL, read (and checked on this host) by its own backend, as a lone one is.
  parse: (url) => eachEntry(url, (d, u) => d.parse(u)),
  preflight: (url) => eachEntry(url, (d, u) => d.preflight?.(u)),
  open: (url, options?: ShardedOpenOptions) =>
    shardedDescriptor.open(url, {
      openShard: async (u: string) => (await shardDescriptor(u).open(u, options)).meta,
      ...options,
    }),
  // Each shard's and the directory's backend makes what it needs (the control plane's clusters).
  async provision(url) {
    const setting = parseShardedUrl(url);
    for (const u of [...setting.shards.map((s) => s.url), setting.directory]) {
      const d = SHARD_DESCRIPTORS.find((x) => x.schemes.some((sc) => u.toLowerCase().startsWith(sc)));
      await d?.provision?.(u);
    }
  },
};

export const DESCRIPTORS: readonly BackendDescriptor[] = [...SHARD_DESCRIPTORS, sharded];

export const METASTORE_SCHEMES: readonly string[] = DESCRIPTORS.flatMap((d) => d.schemes);

/** The descriptor serving a URL's scheme, or null. */
export function descriptorFor(url: string): BackendDescriptor | null {
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(url)?.[0].toLowerCase();
  return DESCRIPTORS.find((d) => scheme !== undefined && d.schemes.includes(scheme)) ?? null;
}

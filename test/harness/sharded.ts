// Sharded backend factories for the shared suites (spec §5.2): a ShardedMetaStore over
//   sharded        3 embedded shards (files), the directory beside a 4th embedded file
//   sharded-mixed  2 Postgres databases and 1 embedded shard, the directory beside the
//                  first Postgres shard (in its database, as a config may put it)
// Each store is a fresh set of shards. connect() opens every shard and the directory again,
// as another node would; location() carries every shard's location, so a worker thread opens
// the same sharded store.
import type { MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import { openSharded, type ShardSpec } from '../../src/meta/backends/sharded/index.js';
import { shardIdentity } from '../../src/meta/backends/sharded/descriptor.js';
import { connectionOf } from '../../src/meta/backends/registry.js';
import { directoryOn } from '../../src/control/directory/index.js';
import type { BackendFactory, Location, OpenOptions } from './backends.js';

/** Namespace names a sharded store spreads over its three test shards (test/meta/sharded checks the spread). */
export const SPREAD_NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

export interface ShardedLayout {
  /** The factory of each shard's backend, in shard order. */
  shards: BackendFactory[];
  /** Where the directory lives: beside shard `n`'s database (an index), or in a database of its own factory. */
  directory: BackendFactory | number;
}

interface Opened {
  shards: MetaStore[];
  dir: MetaStore;
}

function locationUrl(loc: Location): string {
  // Shard identities are credential-free URLs of where each database is.
  if (loc.backend === 'embedded') return `sqlite:${loc.path}`;
  if (loc.backend === 'dynamodb' || loc.backend === 'alternator') {
    const endpoint = new URL((loc as Location & { endpoint: string }).endpoint);
    return `dynamodb://${endpoint.host}/${loc.path}?profile=${loc.backend}`;
  }
  return loc.path;
}

export function shardedFactory(name: string, layout: ShardedLayout, faultsOnAll = true): BackendFactory {
  const parts = new Map<MetaStore, Opened>();

  const assemble = async (o: Opened): Promise<MetaStore> => {
    const conn = connectionOf(o.dir);
    if (!conn) throw new Error('the directory backend has no connection');
    const store = await directoryOn(conn);
    const shards: ShardSpec[] = o.shards.map((s, i) => ({
      name: `s${i}`,
      identity: shardIdentity(locationUrl(layout.shards[i]!.location(s))),
      store: s,
    }));
    // The factory's cleanup closes the backend handles; the sharded store closes only the directory view.
    const keep = shards.map((s) => ({ ...s, store: unclosable(s.store) }));
    const sharded = await openSharded({ directory: { store, connection: conn, close: () => store.close() }, shards: keep, follow: false });
    parts.set(sharded, o);
    return sharded;
  };

  return {
    name,
    async open(opts?: OpenOptions) {
      const faults: OpenOptions = faultsOnAll && opts?.faults ? { faults: opts.faults } : {};
      const shards: MetaStore[] = [];
      for (const f of layout.shards) shards.push(await f.open(faults));
      const dir = typeof layout.directory === 'number' ? shards[layout.directory]! : await layout.directory.open();
      return assemble({ shards, dir });
    },
    async connect(store, opts?: OpenOptions) {
      const o = parts.get(store);
      if (!o) throw new Error('connect: store was not opened by this factory');
      const faults: OpenOptions = opts?.faults ? { faults: opts.faults } : {};
      const shards: MetaStore[] = [];
      for (const [i, s] of o.shards.entries()) shards.push(await layout.shards[i]!.connect(s, faults));
      const dir = typeof layout.directory === 'number' ? shards[layout.directory]! : await layout.directory.connect(o.dir);
      return assemble({ shards, dir });
    },
    location(store) {
      const o = parts.get(store);
      if (!o) throw new Error('location: store was not opened by this factory');
      return {
        backend: name,
        path: JSON.stringify({
          shards: o.shards.map((s, i) => layout.shards[i]!.location(s)),
          directory: typeof layout.directory === 'number' ? layout.shards[layout.directory]!.location(o.dir) : layout.directory.location(o.dir),
        }),
      };
    },
    async cleanup() {
      for (const s of parts.keys()) await s.close();
      parts.clear();
      for (const f of new Set([...layout.shards, ...(typeof layout.directory === 'number' ? [] : [layout.directory])])) await f.cleanup();
    },
  };
}

/** A handle whose close() is a no-op: its factory closes it at cleanup. */
function unclosable(s: MetaStore): MetaStore {
  return new Proxy(s, { get: (t, k, r) => (k === 'close' ? async () => {} : Reflect.get(t, k, r)) });
}

/** A sharded store from its location (a worker thread's handle): every shard and the directory opened again. */
export async function openShardedLocation(loc: Location, open: (l: Location) => Promise<MetaStore>): Promise<MetaStore> {
  const l = JSON.parse(loc.path) as { shards: Location[]; directory: Location };
  const shards = await Promise.all(l.shards.map(open));
  const dir = await open(l.directory);
  const conn = connectionOf(dir);
  if (!conn) throw new Error('the directory backend has no connection');
  const store = await directoryOn(conn);
  return openSharded({
    directory: {
      store,
      connection: conn,
      async close() {
        await store.close();
        await dir.close();
      },
    },
    shards: shards.map((s, i) => ({ name: `s${i}`, identity: shardIdentity(locationUrl(l.shards[i]!)), store: s })),
  });
}

export type { FaultHook };

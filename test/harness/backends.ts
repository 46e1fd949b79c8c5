// Backend factories for the shared suites (conformance, linearizability, faults).
// A suite asks for the backend named by LOAM_TEST_BACKEND (default: embedded) and selects
// its cases by capabilities(), never by backend name.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import { openEmbedded, type EmbeddedOptions } from '../../src/meta/backends/embedded/index.js';
import { dynamoFactory, openDynamoAt } from './dynamodb.js';
import { openPostgres } from '../../src/meta/backends/postgres/index.js';
import { postgresFactory } from './postgres.js';
import { shardedFactory } from './sharded.js';
import { openRemoteLocation, remoteFactory } from './remote.js';

export interface OpenOptions {
  /** Fault injection at the backend's transaction points (spec §4.2). */
  faults?: FaultHook;
}

/** Where a store lives, as plain data: a file, a URL, or (DynamoDB) an endpoint and a table. */
export interface Location {
  backend: string;
  /** The file, the database URL, or the table. */
  path: string;
  /** Service backends: the endpoint the table is reached at. */
  endpoint?: string;
  region?: string;
}

export interface BackendFactory {
  readonly name: string;
  /** A fresh, empty metastore. */
  open(opts?: OpenOptions): Promise<MetaStore>;
  /** Another handle (connection) on the database of `store`, as a second node would have. */
  connect(store: MetaStore, opts?: OpenOptions): Promise<MetaStore>;
  /** How a worker thread or process opens a handle on the same database: plain data. */
  location(store: MetaStore): Location;
  /** Closes every handle and removes everything the factory created. */
  cleanup(): Promise<void>;
}

export const BACKENDS = ['embedded', 'postgres', 'dynamodb', 'alternator', 'sharded', 'sharded-mixed', 'remote', 'remote-postgres'] as const;

/** Remote backends (spec §8): the client over gRPC to a server in the test process on the named backend. */
export const REMOTE_INNER: Record<string, string> = { remote: 'embedded', 'remote-postgres': 'postgres' };
/** The partition group size of the backends behind the remote ones in the shared suites. */
export const REMOTE_TEST_GROUP = 16;
/** The swap limit of the backends behind the remote ones in the shared suites. */
export const REMOTE_TEST_SWAP = 64;

export function backendName(): string {
  return process.env.LOAM_TEST_BACKEND ?? 'embedded';
}

/**
 * The sharded configurations' shards (CI size): not fsynced (the embedded run tests
 * durability) and small partition groups, so the multi-group cases run quickly and a WAL
 * object's part on each shard still spans several groups.
 */
const SHARD_TEST_OPTIONS = { synchronous: 'NORMAL', maxChunksPerGroup: 8 } as const;

export function backendFactory(name = backendName(), extra: Partial<EmbeddedOptions> = {}): BackendFactory {
  switch (name) {
    case 'embedded': {
      const dirs: string[] = [];
      const stores: MetaStore[] = [];
      const paths = new Map<MetaStore, string>();
      const openAt = (path: string, opts?: OpenOptions): MetaStore => {
        const s = openEmbedded({ path, ...extra, ...(opts?.faults ? { faults: opts.faults } : {}) });
        stores.push(s);
        paths.set(s, path);
        return s;
      };
      return {
        name,
        async open(opts) {
          // A file, not :memory:, so the suites run on the durable configuration users get.
          const dir = mkdtempSync(join(tmpdir(), 'loam-meta-'));
          dirs.push(dir);
          return openAt(join(dir, 'meta.db'), opts);
        },
        async connect(store, opts) {
          const path = paths.get(store);
          if (!path) throw new Error('connect: store was not opened by this factory');
          return openAt(path, opts);
        },
        location(store) {
          const path = paths.get(store);
          if (!path) throw new Error('location: store was not opened by this factory');
          return { backend: name, path };
        },
        async cleanup() {
          for (const s of stores.splice(0)) await s.close();
          paths.clear();
          for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
        },
      };
    }
    case 'postgres': {
      const { maxChunksPerGroup, maxSwapEntries, clock, requestTokenTtlMs, feedRetention } = extra;
      return postgresFactory({
        ...(maxChunksPerGroup !== undefined ? { maxChunksPerGroup } : {}),
        ...(maxSwapEntries !== undefined ? { maxSwapEntries } : {}),
        ...(clock !== undefined ? { clock } : {}),
        ...(requestTokenTtlMs !== undefined ? { requestTokenTtlMs } : {}),
        ...(feedRetention !== undefined ? { feedRetention } : {}),
      });
    }
    case 'dynamodb':
    case 'alternator':
      // DynamoDB Local (LOAM_TEST_DYNAMODB_URL), one fresh table per open().
      return dynamoFactory(name, extra.maxChunksPerGroup !== undefined ? { maxChunksPerGroup: extra.maxChunksPerGroup } : {});
    case 'sharded': {
      // 3 embedded shards; the directory beside a 4th embedded database. Not fsynced: the
      // suites test the router here (the embedded backend's own run tests its durability).
      const shards = backendFactory('embedded', { ...SHARD_TEST_OPTIONS, ...extra });
      return shardedFactory(name, { shards: [shards, shards, shards], directory: backendFactory('embedded', { synchronous: 'NORMAL' }) });
    }
    case 'sharded-mixed': {
      // 2 Postgres databases and 1 embedded shard; the directory beside the first Postgres shard.
      const pg = backendFactory('postgres', { maxChunksPerGroup: SHARD_TEST_OPTIONS.maxChunksPerGroup, ...extra });
      return shardedFactory(name, { shards: [pg, pg, backendFactory('embedded', { ...SHARD_TEST_OPTIONS, ...extra })], directory: 0 });
    }
    case 'remote':
    case 'remote-postgres':
      // Small partition groups and swap limits unless a suite chose, so the cases that build
      // one past a limit (2·maxChunksPerGroup + 1 partitions, maxSwapEntries + 1 commits, each
      // one call) stay small over the wire.
      return remoteFactory(name, backendFactory(REMOTE_INNER[name]!, { maxChunksPerGroup: REMOTE_TEST_GROUP, maxSwapEntries: REMOTE_TEST_SWAP, ...extra }));
    default:
      throw new Error(`unknown backend "${name}"; known: ${BACKENDS.join(', ')}`);
  }
}

/** Opens a handle from a location, inside a worker thread or child process. */
export async function openLocation(loc: Location): Promise<MetaStore> {
  switch (loc.backend) {
    case 'sharded':
    case 'sharded-mixed': {
      const { openShardedLocation } = await import('./sharded.js');
      return openShardedLocation(loc, openLocation);
    }
    case 'embedded':
      return openEmbedded({ path: loc.path });
    case 'postgres':
      // loc.path is the database's URL; connections are made at the first call.
      return openPostgres({ url: loc.path });
    case 'dynamodb':
    case 'alternator':
      // loc.path is the table; loc.endpoint the DynamoDB endpoint (a worker has no factory).
      return openDynamoAt(loc);
    case 'remote':
    case 'remote-postgres':
      // loc.path is remote://host:port?cluster=… of the server in the test process.
      return openRemoteLocation(loc);
    default:
      throw new Error(`unknown backend "${loc.backend}"`);
  }
}

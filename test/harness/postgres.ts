// The PostgreSQL test service and backend factory (DESIGN §3).
//
// startCluster(): a throwaway cluster — initdb and pg_ctl in a temporary directory, on a free
// 127.0.0.1 port, as the OS user `postgres` when we are root (initdb refuses root). It uses
// Debian's binaries (/usr/lib/postgresql/<v>/bin, or LOAM_PG_BIN). test/run.ts starts it once
// per backend stage through SERVICES.postgres and passes its URL as LOAM_TEST_PG_URL; a test
// file run on its own starts one for its process. If no server can be started, the suites
// fail loudly: nothing is skipped because the server "was not there".
//
// postgresFactory(): every open() is a fresh DATABASE, copied from a template this process
// migrated once (CREATE DATABASE … TEMPLATE), so cases are isolated and cheap; cleanup()
// closes every handle and drops the databases.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { freePort } from './ports.js';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { MetaStore } from '../../src/meta/index.js';
import { openPostgres, type PostgresMetaStore, type PostgresOptions } from '../../src/meta/backends/postgres/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import type { RealFault } from '../faults/matrix.js';
import type { BackendFactory, OpenOptions } from './backends.js';
import { postgresRealFaults } from './postgres-faults.js';
import type { RunningService, ServiceSpec } from './services.js';

export const PG_URL_ENV = 'LOAM_TEST_PG_URL';

/** The directory holding initdb, pg_ctl and postgres: LOAM_PG_BIN, else the newest Debian install. */
export function pgBinDir(): string {
  const env = process.env.LOAM_PG_BIN;
  if (env) return env;
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((d) => existsSync(join(root, d, 'bin', 'initdb')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      'PostgreSQL server binaries not found (no /usr/lib/postgresql/<version>/bin/initdb). ' +
        'Install them (apt-get install postgresql-15, as .ci/run does), set LOAM_PG_BIN, or set LOAM_TEST_PG_URL to a server.',
    );
  }
  return join(root, versions[0]!, 'bin');
}


export interface ClusterOptions {
  /**
   * false (tests): fsync, synchronous_commit and full_page_writes off — a throwaway cluster
   * loses nothing that matters on a crash, and cases run several times faster.
   * true (benchmarks): the defaults, every commit flushed.
   */
  durable?: boolean;
  maxConnections?: number;
}

const SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

export interface Cluster extends RunningService {
  dir: string;
  port: number;
}

/** Starts a throwaway cluster; stop() shuts it down and removes its directory. */
export async function startCluster(opts: ClusterOptions = {}): Promise<Cluster> {
  const bin = pgBinDir();
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'loam-pg-'));
  const run = (cmd: string, args: string[]) => {
    const argv = asRoot ? ['-u', 'postgres', '--', join(bin, cmd), ...args] : args;
    const r = spawnSync(asRoot ? 'runuser' : join(bin, cmd), argv, { encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) {
      throw new Error(`${cmd} failed (${r.status ?? r.signal}): ${(r.stderr || r.stdout || String(r.error ?? '')).trim().slice(-2000)}`);
    }
  };
  try {
    if (asRoot) {
      chownSync(dir, uidOf('postgres'), gidOf('postgres'));
      chmodSync(dir, 0o700);
    }
    run('initdb', ['-D', join(dir, 'data'), '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '--no-instructions']);
    const settings = [
      '-c listen_addresses=127.0.0.1',
      `-c unix_socket_directories=${dir}`,
      `-c max_connections=${opts.maxConnections ?? 300}`,
      '-c shared_buffers=64MB',
      ...(opts.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    ];
    let port = 0;
    for (let attempt = 1; ; attempt++) {
      port = await freePort();
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-l', join(dir, 'log'), '-w', '-t', '60', 'start', '-o', `-p ${port} ${settings.join(' ')}`]);
        break;
      } catch (e) {
        if (attempt >= 3) throw e; // a port taken between freePort() and the bind: try another
      }
    }
    const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    let stopped = false;
    const stopNow = () => {
      if (stopped) return;
      stopped = true;
      process.off('exit', stopNow);
      for (const sig of SIGNALS) process.off(sig, onSignal);
      try {
        run('pg_ctl', ['-D', join(dir, 'data'), '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    };
    // A process that exits or is interrupted without stop() still takes its cluster down.
    const onSignal = (sig: NodeJS.Signals) => {
      try {
        stopNow();
      } finally {
        process.kill(process.pid, sig);
      }
    };
    process.once('exit', stopNow);
    for (const sig of SIGNALS) process.once(sig, onSignal);
    return { url, port, dir, stop: async () => stopNow() };
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
}

function uidOf(user: string): number {
  return Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
}
function gidOf(user: string): number {
  return Number(execFileSync('id', ['-g', user], { encoding: 'utf8' }).trim());
}

/** The service test/run.ts starts once per postgres stage. */
export const POSTGRES_SERVICE: ServiceSpec = {
  env: PG_URL_ENV,
  start: () => startCluster(),
};

let ownCluster: Promise<Cluster> | undefined;
/**
 * The server the tests use: LOAM_TEST_PG_URL, or a cluster this process starts (and stops at
 * exit) when a test file runs outside test/run.ts.
 */
export async function testServerUrl(): Promise<string> {
  const env = process.env[PG_URL_ENV];
  if (env) return env;
  if (!ownCluster) {
    ownCluster = startCluster();
    const c = await ownCluster; // stopped when this process exits (startCluster's exit hook)
    process.env[PG_URL_ENV] = c.url;
  }
  return (await ownCluster).url;
}

/** The same server URL with another database name. */
export function withDatabase(url: string, db: string): string {
  const u = new URL(url);
  u.pathname = `/${db}`;
  return u.toString();
}

/**
 * Fault points the postgres backend injects for real (see src/meta/faults.ts, test/faults/matrix.ts);
 * the other faults the real server produces (postgres-faults.ts).
 */
export const POSTGRES_FAULT_POINTS = { Race: 'BeforeWrite' } as const;

/** Small pools that close idle connections quickly: a test process holds many handles at once. */
const TEST_POOL: Partial<PostgresOptions> = { poolSize: 8, readPoolSize: 4, idleTimeoutMs: 1_000 };

export function postgresFactory(extra: Partial<PostgresOptions> = {}): BackendFactory & {
  faultPoints: typeof POSTGRES_FAULT_POINTS;
  produce: Record<string, RealFault>;
  unknownsResolved(store: MetaStore): number;
} {
  const name = 'postgres';
  const stores: MetaStore[] = [];
  const urls = new Map<MetaStore, string>();
  const databases: string[] = [];
  let admin: pg.Pool | undefined;
  let template: Promise<string> | undefined;
  let seq = 0;
  const prefix = `loam_t${process.pid}_${Math.random().toString(36).slice(2, 7)}`;

  const adminPool = async (): Promise<pg.Pool> => {
    if (!admin) {
      admin = new pg.Pool({ connectionString: await testServerUrl(), max: 2, idleTimeoutMillis: 1_000, allowExitOnIdle: true });
      admin.on('error', () => undefined);
    }
    return admin;
  };
  // A template database migrated once; every open() copies it (much cheaper than migrating).
  const ensureTemplate = (): Promise<string> => {
    if (!template) {
      template = (async () => {
        const a = await adminPool();
        const tpl = `${prefix}_tpl`;
        await a.query(`CREATE DATABASE ${tpl}`);
        const s = openPostgres({ url: withDatabase(await testServerUrl(), tpl), ...TEST_POOL });
        try {
          await s.ready();
        } finally {
          await s.close();
        }
        return tpl;
      })();
      template.catch(() => (template = undefined));
    }
    return template;
  };
  const openAt = (url: string, opts?: OpenOptions, more: Partial<PostgresOptions> = {}): PostgresMetaStore => {
    const s = openPostgres({ url, ...TEST_POOL, ...extra, ...more, ...(opts?.faults ? { faults: opts.faults } : {}) });
    stores.push(s);
    urls.set(s, url);
    return s;
  };
  /** A fresh database: a copy of the template on the test server, or migrated by its first handle elsewhere. */
  const openWith = async (
    faults: FaultHook | undefined,
    o: { server?: string; extra?: Partial<PostgresOptions>; settings?: Record<string, string> } = {},
  ): Promise<PostgresMetaStore> => {
    const db = `${prefix}_${++seq}`;
    // Database names and settings come from this process, never from input.
    const settings = Object.entries(o.settings ?? {}).map(([k, val]) => `ALTER DATABASE ${db} SET ${k} = '${val}'`);
    let url: string;
    if (o.server === undefined) {
      const tpl = await ensureTemplate();
      const a = await adminPool();
      await a.query(`CREATE DATABASE ${db} TEMPLATE ${tpl}`);
      databases.push(db);
      for (const q of settings) await a.query(q);
      url = withDatabase(await testServerUrl(), db);
    } else {
      // Another server (the fault matrix's throttle cluster), removed as a whole by its owner.
      const c = new pg.Client({ connectionString: o.server });
      await c.connect();
      try {
        await c.query(`CREATE DATABASE ${db}`);
        for (const q of settings) await c.query(q);
      } finally {
        await c.end();
      }
      url = withDatabase(o.server, db);
    }
    const s = openAt(url, faults ? { faults } : undefined, o.extra);
    await s.ready();
    return s;
  };
  const real = postgresRealFaults({
    openWith,
    startCluster,
    urlOf: (store) => {
      const url = urls.get(store);
      if (!url) throw new Error('urlOf: store was not opened by this factory');
      return url;
    },
  });
  return {
    name,
    faultPoints: POSTGRES_FAULT_POINTS,
    produce: real.produce,
    unknownsResolved: (store) => {
      const st = (store as PostgresMetaStore).stats();
      return st.resolvedCommitted + st.resolvedAborted;
    },
    open: (opts) => openWith(opts?.faults),
    async connect(store, opts) {
      const url = urls.get(store);
      if (!url) throw new Error('connect: store was not opened by this factory');
      const s = openAt(url, opts);
      await s.ready();
      return s;
    },
    location(store) {
      const url = urls.get(store);
      if (!url) throw new Error('location: store was not opened by this factory');
      return { backend: name, path: url };
    },
    async cleanup() {
      await real.stop();
      for (const s of stores.splice(0)) await s.close();
      urls.clear();
      const dbs = databases.splice(0);
      const tpl = template ? await template.catch(() => undefined) : undefined;
      template = undefined;
      if (admin) {
        for (const db of [...dbs, ...(tpl ? [tpl] : [])]) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
        await admin.end();
        admin = undefined;
      }
    },
  };
}

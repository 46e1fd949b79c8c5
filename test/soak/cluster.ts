// The soak's and the crash gate's world: one metastore (embedded file, Postgres or DynamoDB
// Local), one bucket (MinIO, or a file store for the crash gate on embedded), a Toxiproxy
// proxy between Loam and each network service, and `loam serve` nodes as child processes
// that can be SIGKILLed and restarted on the same data.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { SERVICES, type RunningService } from '../harness/services.js';
import { withDatabase } from '../harness/postgres.js';
import { MinioServer } from '../store/helpers/minio.js';
import { Toxiproxy, hostPort, viaProxy, type Proxy } from '../harness/toxiproxy.js';

const ROOT = new URL('../..', import.meta.url).pathname;

import type { SoakBackend } from './backends.js';
export { SOAK_BACKENDS, type SoakBackend } from './backends.js';

/** A node that does not print its address within this is a failed start. */
export const NODE_START_DEADLINE_MS = 60_000;
/** A node's /readyz must answer 200 within this once its links are healthy ("not stuck"). */
export const READY_BOUND_MS = 20_000;
/** SIGTERM, then SIGKILL after this. */
const STOP_DEADLINE_MS = 15_000;

/** Settings that make workers (apply, segment, GC) run often enough for a short soak. */
export const SOAK_NODE_SETTINGS = {
  lease_ttl_ms: 1_000,
  gc_grace_ms: 8_000,
  gc_interval_ms: 500,
  maintenance_interval_ms: 200,
  apply_poll_ms: 100,
  segment_min_age_ms: 0,
  log_level: 'warn',
  auth: 'none',
} as const;

export type Link = 'meta' | 'store';

export interface World {
  backend: SoakBackend;
  /** What the nodes use (through the proxies). */
  nodeMetastore: string;
  nodeStore: string;
  /** The same, bypassing the proxies: for the end checks. */
  directMetastore: string;
  directStore: string;
  /** Credentials and region the nodes' SDKs read from the environment. */
  env: Record<string, string>;
  toxiproxy: Toxiproxy;
  /** Proxies by link; the embedded metastore has none, a file store neither. */
  proxies: Partial<Record<Link, Proxy>>;
  dir: string;
  close(): Promise<void>;
}

export interface WorldOptions {
  backend: SoakBackend;
  /** 'minio' (behind Toxiproxy) or 'file' (the crash gate on embedded). */
  store: 'minio' | 'file';
  /** Tag for database, table and bucket names. */
  tag: string;
}

/** Starts (or reuses, from the runner's LOAM_TEST_* variable) a service; a failure names it. */
async function service(name: string, started: RunningService[]): Promise<string> {
  const spec = SERVICES[name]!;
  const given = process.env[spec.env];
  if (given) return given;
  try {
    const s = await spec.start();
    started.push(s);
    return s.url;
  } catch (e) {
    throw new Error(`service ${name} did not start: ${(e as Error).message}`);
  }
}

export async function startWorld(o: WorldOptions): Promise<World> {
  const dir = mkdtempSync(join(tmpdir(), `loam-soak-${o.backend}-`));
  const started: RunningService[] = [];
  let minio: MinioServer | undefined;
  let toxiproxy: Toxiproxy | undefined;
  const close = async () => {
    await toxiproxy?.stop().catch(() => undefined);
    await minio?.stop().catch(() => undefined);
    for (const s of started.reverse()) await s.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    toxiproxy = await Toxiproxy.start().catch((e: Error) => {
      throw new Error(`service toxiproxy did not start: ${e.message}`);
    });
    const proxies: Partial<Record<Link, Proxy>> = {};
    // The soaks and crash gates check the log's bytes directly (no key ring): they run unencrypted;
    // encryption has its own suites (test/crypto).
    const env: Record<string, string> = { AWS_REGION: 'us-east-1', LOAM_KEY_PROVIDER: 'none' };
    let nodeMetastore: string;
    let directMetastore: string;
    switch (o.backend) {
      case 'embedded':
        directMetastore = nodeMetastore = `sqlite:${join(dir, 'meta.db')}`;
        break;
      case 'postgres': {
        const server = await service('postgres', started);
        const db = `soak_${o.tag}`.replace(/[^a-z0-9_]/g, '_');
        const admin = new pg.Client({ connectionString: server });
        await admin.connect();
        try {
          await admin.query(`DROP DATABASE IF EXISTS ${db}`);
          await admin.query(`CREATE DATABASE ${db}`);
        } finally {
          await admin.end();
        }
        directMetastore = withDatabase(server, db);
        const { host, port } = hostPort(server);
        proxies.meta = await toxiproxy.proxy('meta', `${host}:${port}`);
        nodeMetastore = viaProxy(directMetastore, proxies.meta);
        break;
      }
      case 'dynamodb': {
        const endpoint = await service('dynamodb', started);
        const { host, port } = hostPort(endpoint);
        proxies.meta = await toxiproxy.proxy('meta', `${host}:${port}`);
        const table = `soak-${o.tag}`;
        directMetastore = `dynamodb://${host}:${port}/${table}?region=us-east-1`;
        nodeMetastore = `dynamodb://${proxies.meta.host}:${proxies.meta.port}/${table}?region=us-east-1`;
        break;
      }
    }
    let nodeStore: string;
    let directStore: string;
    if (o.store === 'file') {
      mkdirSync(join(dir, 'objects'), { recursive: true });
      directStore = nodeStore = pathToFileURL(join(dir, 'objects')).href;
      // DynamoDB Local ignores credentials; the SDK still wants some.
      env.AWS_ACCESS_KEY_ID = 'loam';
      env.AWS_SECRET_ACCESS_KEY = 'loam';
    } else {
      minio = await MinioServer.start().catch((e: Error) => {
        throw new Error(`service minio did not start: ${e.message}`);
      });
      const bucket = `soak-${o.tag}`.toLowerCase().replace(/[^a-z0-9-]/g, '-');
      const s3 = new S3Client({ endpoint: minio.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: minio.credentials });
      await s3.send(new CreateBucketCommand({ Bucket: bucket }));
      s3.destroy();
      const { host, port } = hostPort(minio.endpoint);
      proxies.store = await toxiproxy.proxy('store', `${host}:${port}`);
      const url = (endpoint: string) => `s3://${bucket}/loam?endpoint=${encodeURIComponent(endpoint)}&forcePathStyle=true&region=us-east-1`;
      directStore = url(minio.endpoint);
      nodeStore = url(`http://${proxies.store.host}:${proxies.store.port}`);
      // One set of credentials for both SDKs (DynamoDB Local ignores them).
      env.AWS_ACCESS_KEY_ID = minio.accessKeyId;
      env.AWS_SECRET_ACCESS_KEY = minio.secretAccessKey;
    }
    return { backend: o.backend, nodeMetastore, nodeStore, directMetastore, directStore, env, toxiproxy, proxies, dir, close };
  } catch (e) {
    await close();
    throw e;
  }
}

export interface NodeProc {
  name: string;
  url: string;
  /** Its Prometheus listener (http://…/metrics). */
  metricsUrl: string;
  proc: ChildProcess;
  exited: Promise<number | null>;
  /** stderr so far (bounded), for failure messages and hook signals. */
  stderr(): string;
  /** Resolves when stderr shows `line` (a test hook's signal). */
  waitFor(line: RegExp, timeoutMs: number): Promise<void>;
}

/** Every node any soak started in this process: none may outlive a failed run. */
const LIVE = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of LIVE) p.kill('SIGKILL');
});

export function configFile(world: World, name: string, extra: Record<string, unknown> = {}): string {
  const file = join(world.dir, `${name}.json`);
  writeFileSync(file, JSON.stringify({ metastore: world.nodeMetastore, store: world.nodeStore, port: 0, node_id: name, ...SOAK_NODE_SETTINGS, ...extra }, null, 2));
  return file;
}

/**
 * Starts `loam serve --config <file>` (or, with `entry`, a test entry taking the same
 * arguments) and waits for its address.
 */
export async function startNode(world: World, name: string, o: { entry?: string; env?: Record<string, string>; extra?: Record<string, unknown> } = {}): Promise<NodeProc> {
  const file = configFile(world, name, o.extra);
  const entry = o.entry ?? join(ROOT, 'src/cli/main.ts');
  const proc = spawn(process.execPath, ['--import', 'tsx', entry, 'serve', '--config', file], {
    cwd: ROOT,
    env: { ...process.env, ...world.env, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  LIVE.add(proc);
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => r(code)));
  void exited.then(() => LIVE.delete(proc));
  let err = '';
  const waiters: { re: RegExp; done: () => void }[] = [];
  proc.stderr!.on('data', (b: Buffer) => {
    err = (err + b.toString()).slice(-20_000);
    for (const w of waiters.splice(0)) {
      if (w.re.test(err)) w.done();
      else waiters.push(w);
    }
  });
  let out = '';
  const [url, metricsUrl] = await new Promise<[string, string]>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`node ${name} did not start within ${NODE_START_DEADLINE_MS} ms: ${err.slice(-2000)}`)), NODE_START_DEADLINE_MS);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const m = /listening: (http:\/\/127\.0\.0\.1:\d+)\nmetrics: +(http\S+)/.exec(out);
      if (m) {
        clearTimeout(t);
        resolve([m[1]!, m[2]!]);
      }
    });
    void exited.then((code) => {
      clearTimeout(t);
      reject(new Error(`node ${name} exited with ${code} before listening: ${err.slice(-2000)}`));
    });
  });
  return {
    name,
    url,
    metricsUrl,
    proc,
    exited,
    stderr: () => err,
    waitFor: (re, timeoutMs) =>
      new Promise<void>((resolve, reject) => {
        if (re.test(err)) return resolve();
        const t = setTimeout(() => reject(new Error(`node ${name}: no ${re} on stderr within ${timeoutMs} ms: ${err.slice(-2000)}`)), timeoutMs);
        waiters.push({ re, done: () => (clearTimeout(t), resolve()) });
        void exited.then((code) => {
          clearTimeout(t);
          reject(new Error(`node ${name} exited with ${code} before ${re}: ${err.slice(-2000)}`));
        });
      }),
  };
}

export async function kill9(n: NodeProc): Promise<void> {
  n.proc.kill('SIGKILL');
  await n.exited;
}

export async function stopNode(n: NodeProc): Promise<number | null> {
  if (n.proc.exitCode !== null || n.proc.signalCode !== null) return n.proc.exitCode;
  n.proc.kill('SIGTERM');
  const t = setTimeout(() => n.proc.kill('SIGKILL'), STOP_DEADLINE_MS);
  const code = await n.exited;
  clearTimeout(t);
  return code;
}

/** Polls /readyz until 200; returns the time it took, or throws after `boundMs` ("stuck"). */
export async function waitReady(url: string, boundMs = READY_BOUND_MS): Promise<number> {
  const t0 = Date.now();
  let last = '';
  while (Date.now() - t0 < boundMs) {
    try {
      const r = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(3_000) });
      if (r.status === 200) return Date.now() - t0;
      last = `${r.status} ${await r.text()}`;
    } catch (e) {
      last = (e as Error).message;
    }
    await sleep(100);
  }
  throw new Error(`node at ${url} is stuck: /readyz not 200 within ${boundMs} ms (last: ${last})`);
}

/** A counter's value on a node's /metrics (summed over its labels); 0 when it cannot be read. */
export async function counter(n: NodeProc, name: string): Promise<number> {
  try {
    const r = await fetch(n.metricsUrl, { signal: AbortSignal.timeout(3_000) });
    let sum = 0;
    for (const line of (await r.text()).split('\n')) {
      const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+]+)$`).exec(line);
      if (m) sum += Number(m[1]);
    }
    return sum;
  } catch {
    return 0;
  }
}

/** A supervisor's restarts of a node that exits at start (its metastore or store unreachable). */
export const MAX_START_ATTEMPTS = 20;
const START_RETRY_MS = 500;

/**
 * Starts a node as a supervisor (systemd, Kubernetes) would: a node that exits at start
 * because a link is down is started again, up to MAX_START_ATTEMPTS. Returns the node and
 * how many starts failed.
 */
export async function superviseStart(world: World, name: string, o: Parameters<typeof startNode>[2] = {}): Promise<{ node: NodeProc; failedStarts: number }> {
  let last: Error | undefined;
  for (let i = 0; i < MAX_START_ATTEMPTS; i++) {
    try {
      return { node: await startNode(world, name, o), failedStarts: i };
    } catch (e) {
      last = e as Error;
      if (!/exited with/.test(last.message)) throw last;
      await sleep(START_RETRY_MS);
    }
  }
  throw new Error(`node ${name} did not start in ${MAX_START_ATTEMPTS} attempts: ${last?.message}`);
}

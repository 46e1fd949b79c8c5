// The data boundary (spec §8): a data plane (`loam serve`, metastore remote://… with an agent
// key, its bucket on MinIO) runs against a control plane (`loam control-plane`), both as the
// processes users run. Documents carrying a unique marker go in through the HTTP API and are
// read back. Then everything the control plane stored (its registry and every cluster file,
// WAL and shared-memory files included) and everything it printed (stdout, stderr) is
// scanned: the marker never appears, nor do the bucket's secret key, the agent key's
// secret or any API key's secret. The same scan of the bucket finds the marker, so the scan
// would see a leak; and the cluster's file holds the namespace's name, so the data plane's
// metadata did go through the control plane.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { MinioServer } from '../store/helpers/minio.js';
import { FAST } from '../node/helpers.js';
import { newKey } from '../../src/control/keys.js';
import { openRegistry } from '../../src/controlplane/registry.js';
import { createCluster } from '../../src/controlplane/admin.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const MAIN = join(ROOT, 'src/cli/main.ts');
/** How long a process may take to print its address (a loaded CI machine). */
const START_DEADLINE_MS = 60_000;
const STOP_DEADLINE_MS = 15_000;
/** Documents written, in batches: enough for several WAL objects and applied manifests. */
const BATCHES = 5;
const DOCS_PER_BATCH = 20;

interface Proc {
  proc: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

const live = new Set<ChildProcess>();
process.once('exit', () => {
  for (const p of live) p.kill('SIGKILL');
});

function start(args: string[], env: Record<string, string>): Proc {
  const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  live.add(proc);
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => proc.once('exit', (code) => (live.delete(proc), r(code))));
  return { proc, out: () => out, exited };
}

async function waitFor(p: Proc, re: RegExp): Promise<RegExpExecArray> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    const m = re.exec(p.out());
    if (m) return m;
    if (p.proc.exitCode !== null) throw new Error(`exited (${p.proc.exitCode}) before printing ${re}:\n${p.out().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`did not print ${re} within ${START_DEADLINE_MS} ms:\n${p.out().slice(-2000)}`);
}

async function stop(p: Proc): Promise<void> {
  if (p.proc.exitCode !== null) return;
  p.proc.kill('SIGTERM');
  const t = setTimeout(() => p.proc.kill('SIGKILL'), STOP_DEADLINE_MS);
  await p.exited;
  clearTimeout(t);
}

/** Every file under dir, recursively, as bytes. */
function filesUnder(dir: string): { path: string; bytes: Buffer }[] {
  return (readdirSync(dir, { recursive: true }) as string[]).map((f) => join(dir, f)).filter((f) => statSync(f).isFile()).map((path) => ({ path, bytes: readFileSync(path) }));
}

/** Where `needle` occurs (as UTF-8, and as UTF-16LE, which SQLite may use for text), by file. */
function occurrences(files: { path: string; bytes: Buffer }[], needle: string): string[] {
  return files.filter((f) => f.bytes.includes(Buffer.from(needle, 'utf8')) || f.bytes.includes(Buffer.from(needle, 'utf16le'))).map((f) => f.path);
}

let dir: string;
let cpDir: string;
let minio: MinioServer;
let cp: Proc;
let dp: Proc;
let agentKey: string;
const marker = `m4rk${randomBytes(12).toString('hex')}`;
const operatorKey = newKey().token;
let adminKey = '';

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loam-boundary-'));
  cpDir = join(dir, 'control-plane');
  minio = await MinioServer.start();
  const s3 = new S3Client({ endpoint: minio.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: minio.credentials });
  await s3.send(new CreateBucketCommand({ Bucket: 'dataplane' }));
  s3.destroy();
  const cpConfig = join(dir, 'control-plane.json');
  writeFileSync(cpConfig, JSON.stringify({ registry: `sqlite:${cpDir}/registry.db`, clusters: `sqlite:${cpDir}/clusters/{cluster}.db`, port: 0, log_level: 'debug' }));
  // What `loam clusters create` does (test/controlplane/cli.test.ts runs the command), in process: one process start less.
  const reg = await openRegistry(`sqlite:${cpDir}/registry.db`);
  agentKey = (await createCluster(reg.registry, `sqlite:${cpDir}/clusters/{cluster}.db`, 'acme-prod', 'test')).key.token;
  await reg.close();
  cp = start(['control-plane', '--config', cpConfig], {});
  const target = (await waitFor(cp, /listening: (127\.0\.0\.1:\d+)/))[1]!;
  const dpConfig = join(dir, 'data-plane.json');
  writeFileSync(
    dpConfig,
    JSON.stringify({
      metastore: `remote://${target}?cluster=acme-prod`,
      store: `s3://dataplane/loam?endpoint=${encodeURIComponent(minio.endpoint)}&forcePathStyle=true&region=us-east-1`,
      auth: 'api_keys',
      port: 0,
      log_level: 'debug',
      ...FAST,
    }),
  );
  dp = start(['serve', '--config', dpConfig], {
    LOAM_AGENT_KEY: agentKey,
    LOAM_BOOTSTRAP_OPERATOR_KEY: operatorKey,
    AWS_ACCESS_KEY_ID: minio.accessKeyId,
    AWS_SECRET_ACCESS_KEY: minio.secretAccessKey,
  });
  await waitFor(dp, /listening: (http:\/\/\S+)/);
});

after(async () => {
  for (const p of [dp, cp]) if (p) await stop(p);
  await minio?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function api(method: string, path: string, key: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = /listening: (http:\/\/\S+)/.exec(dp.out())![1]!;
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('the data boundary', () => {
  test('documents, vectors and text never reach the control plane; nor do bucket credentials or key secrets', async () => {
    const org = await api('POST', '/v1/orgs', operatorKey, { id: 'acme' });
    assert.equal(org.status, 201, JSON.stringify(org.body));
    adminKey = String(org.body.admin_key);
    assert.equal((await api('POST', '/v1/namespaces', adminKey, { name: 'shop' })).status, 201);
    const coll = await api('POST', '/v1/namespaces/shop/collections', adminKey, { name: 'reviews', primary_key: 'id', partitions: 2 });
    assert.equal(coll.status, 201, JSON.stringify(coll.body));
    let token = '';
    for (let b = 0; b < BATCHES; b++) {
      const upserts = Array.from({ length: DOCS_PER_BATCH }, (_, i) => ({
        id: `r${b}-${i}`,
        text: `a review that says ${marker} loudly`,
        nested: { note: marker, tags: [marker, 'x'] },
        embedding: [0.25, 0.5, b, i],
      }));
      const put = await api('POST', '/v1/namespaces/shop/collections/reviews/documents', adminKey, { upserts });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      token = String(put.body.token);
    }
    const got = await api('GET', `/v1/namespaces/shop/collections/reviews/documents/r0-0?token=${encodeURIComponent(token)}`, adminKey);
    assert.equal(got.status, 200, JSON.stringify(got.body));
    assert.equal((got.body.nested as { note: string }).note, marker);
    // Let the applier move the collection's pointer past the writes (manifests go through the control plane too).
    const deadline = Date.now() + START_DEADLINE_MS;
    for (;;) {
      const q = await api('POST', '/v1/namespaces/shop/collections/reviews/query', adminKey, { filter: { id: { $eq: 'r4-19' } }, limit: 1, consistency: 'eventual' });
      if (q.status === 200 && (q.body.documents as unknown[]).length === 1) break;
      assert.ok(Date.now() < deadline, 'the writes were never applied');
      await new Promise((r) => setTimeout(r, 200));
    }
    await stop(dp);
    await stop(cp);

    const stored = filesUnder(cpDir);
    assert.ok(stored.some((f) => f.path.endsWith('acme-prod.db')), `the cluster's store: ${stored.map((f) => f.path).join(', ')}`);
    const printed = [{ path: 'control-plane stdout+stderr', bytes: Buffer.from(cp.out()) }];
    const everything = [...stored, ...printed];
    // What the control plane may see, it does see: the data plane's names and paths went through it.
    assert.ok(occurrences(stored, 'reviews').length > 0, "the collection's name is in the control plane's store");
    assert.ok(occurrences(stored, 'shop').length > 0, "the namespace's name is in the control plane's store");
    // The same scan finds the marker where the documents are: the data plane's bucket.
    assert.ok(occurrences(filesUnder(minio.dataDir), marker).length > 0, 'the scan finds the marker in the bucket');

    const secrets: [string, string][] = [
      ['the document marker', marker],
      ["the bucket's secret access key", minio.secretAccessKey],
      ["the agent key's secret", agentKey.slice(-64)],
      ["the operator key's secret", operatorKey.slice(-64)],
      ["the org admin key's secret", adminKey.slice(-64)],
    ];
    for (const [what, s] of secrets) assert.deepEqual(occurrences(everything, s), [], `${what} reached the control plane`);
    assert.ok(cp.out().includes('control plane listening'), 'the control plane did log');
  });
});

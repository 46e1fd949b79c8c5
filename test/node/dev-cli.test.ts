// `loam dev` as a user starts it (the package's bin in a child process): a second dev node on
// another --port starts beside the first (each /metrics next to its own API port); a port in
// use is one line naming the setting to change; a --data-dir that is a file, or cannot be
// made, is one line naming it; a data dir whose metastore file was lost or emptied while its
// objects remain is refused (a fresh metastore would collect them as garbage) — exit 1, no
// stack trace, within a deadline.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePortPair } from '../harness/ports.js';

const BIN = new URL('../../src/cli/loam.mjs', import.meta.url).pathname;
/** A dev node prints its address, or a failed one exits, within this. */
const DEADLINE_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'loam-dev-cli-'));
const running: ChildProcess[] = [];
after(() => {
  for (const p of running) p.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Starts `loam dev …`: resolves with its stdout once it listens, or with its exit and stderr. */
function dev(args: string[]): Promise<{ listening: boolean; code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [BIN, 'dev', ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp' } });
    running.push(p);
    let stdout = '';
    let stderr = '';
    const t = setTimeout(() => reject(new Error(`loam dev ${args.join(' ')}: neither listening nor exited within ${DEADLINE_MS} ms`)), DEADLINE_MS);
    p.stdout.on('data', (b: Buffer) => {
      stdout += b.toString();
      if (/^status:/m.test(stdout)) {
        clearTimeout(t);
        resolve({ listening: true, code: null, stdout, stderr });
      }
    });
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ listening: false, code, stdout, stderr });
    });
  });
}

async function occupy(port: number): Promise<Server> {
  const s = createServer();
  await new Promise<void>((r, j) => (s.once('error', j), s.listen(port, '127.0.0.1', () => r())));
  return s;
}

const oneLine = (stderr: string, says: RegExp) => {
  assert.match(stderr, says);
  assert.equal(stderr.trim().split('\n').length, 1, `one line, no stack trace: ${stderr}`);
};

test('two dev nodes on two ports both start, each with /metrics beside its own port', async () => {
  const a = await freePortPair();
  const b = await freePortPair([a, a + 1]);
  const first = await dev(['--port', String(a), '--data-dir', join(dir, 'a')]);
  assert.ok(first.listening, first.stderr);
  const second = await dev(['--port', String(b), '--data-dir', join(dir, 'b')]);
  assert.ok(second.listening, `the second starts too: ${second.stderr}`);
  for (const [out, p] of [[first.stdout, a], [second.stdout, b]] as const) {
    assert.match(out, new RegExp(`metrics: +http://127\\.0\\.0\\.1:${p + 1}/metrics`));
    assert.equal((await fetch(`http://127.0.0.1:${p + 1}/metrics`, { signal: AbortSignal.timeout(10_000) })).status, 200);
  }
});

test('a port in use names the setting to change', async () => {
  const p = await freePortPair();
  const api = await occupy(p);
  try {
    const r = await dev(['--port', String(p), '--metrics-port', '0', '--data-dir', join(dir, 'c')]);
    assert.equal(r.code, 1);
    oneLine(r.stderr, new RegExp(`^loam: configuration: port ${p} on 127\\.0\\.0\\.1 is in use .*set port \\(LOAM_PORT\\)`));
  } finally {
    api.close();
  }
  const metrics = await occupy(p + 1);
  try {
    const r = await dev(['--port', String(p), '--data-dir', join(dir, 'c')]);
    assert.equal(r.code, 1);
    oneLine(r.stderr, new RegExp(`^loam: configuration: metrics_port ${p + 1} on 127\\.0\\.0\\.1 is in use .*set metrics_port \\(LOAM_METRICS_PORT\\)`));
  } finally {
    metrics.close();
  }
});

test('a --data-dir that is a file, or cannot be made, is one line naming it', async () => {
  const file = join(dir, 'a-file');
  writeFileSync(file, 'x');
  const r = await dev(['--port', '0', '--data-dir', file]);
  assert.equal(r.code, 1);
  oneLine(r.stderr, /^loam: configuration: --data-dir .*a-file is not a directory/);
  const below = await dev(['--port', '0', '--data-dir', join(file, 'deeper')]);
  assert.equal(below.code, 1);
  oneLine(below.stderr, /^loam: configuration: --data-dir .*a-file is not a directory/);
  // Where nothing can be made (Node's own recursive mkdir never returns here).
  const proc = await dev(['--port', '0', '--data-dir', '/proc/loam-dev-test/data']);
  assert.equal(proc.code, 1);
  oneLine(proc.stderr, /^loam: configuration: --data-dir \/proc\/loam-dev-test\/data: cannot make \/proc\/loam-dev-test \(ENOENT\)/);
});

test('a data dir whose metastore file was lost or emptied, its objects still there, is refused: the objects are not taken for garbage', async () => {
  const data = join(dir, 'lost-meta');
  const first = await dev(['--port', '0', '--data-dir', data]);
  assert.ok(first.listening, first.stderr);
  const url = /listening: (http:\/\/\S+)/.exec(first.stdout)![1]!;
  const key = /export LOAM_KEY=(\S+)/.exec(first.stdout)![1]!;
  const call = (method: string, path: string, body: unknown) =>
    fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(10_000) });
  assert.equal((await call('POST', '/v1/namespaces', { name: 'demo' })).status, 201);
  assert.equal((await call('POST', '/v1/namespaces/demo/collections', { name: 'books', primary_key: 'id' })).status, 201);
  assert.equal((await call('POST', '/v1/namespaces/demo/collections/books/documents', { upserts: [{ id: 'b1' }] })).status, 200);
  running.at(-1)!.kill('SIGKILL');
  const objects = () => (readdirSync(join(data, 'objects', 'objects'), { recursive: true }) as string[]).sort();
  const before = objects();
  assert.ok(before.some((p) => p.startsWith('wal/')), 'the write left a WAL object');

  for (const lose of [() => truncateSync(join(data, 'meta.db'), 0), () => rmSync(join(data, 'meta.db'))]) {
    for (const f of ['meta.db-wal', 'meta.db-shm']) rmSync(join(data, f), { force: true });
    lose();
    const r = await dev(['--port', '0', '--data-dir', data]);
    assert.equal(r.code, 1, r.stdout);
    oneLine(r.stderr, /^loam: configuration: metastore .*meta\.db holds no namespace, but the store file:\/\/.*objects already holds Loam data \(wal\/.*Restore the metastore it was written with/);
    assert.doesNotMatch(r.stdout, /LOAM_KEY/, 'no new keys were made');
    assert.deepEqual(objects(), before, 'the objects are untouched');
  }
});

test("a data dir's key file that is a directory, or holds no key, is one line naming it, not a stack trace", async () => {
  for (const [name, make, says] of [
    ['erasure.kek', (p: string) => mkdirSync(p), /^loam: configuration: erasure_kek is read from \S+erasure\.kek, which cannot be read or made \(EISDIR\)/],
    ['erasure.kek', (p: string) => writeFileSync(p, 'not a key', { mode: 0o600 }), /^loam: configuration: erasure_kek is read from \S+erasure\.kek, which does not hold 64 hex digits/],
    ['encryption.key', (p: string) => mkdirSync(p), /^loam: configuration: encryption_master_key is read from \S+encryption\.key, which is not a file/],
  ] as const) {
    const data = mkdtempSync(join(dir, 'keyfile-'));
    make(join(data, name));
    const r = await dev(['--port', '0', '--data-dir', data]);
    assert.equal(r.code, 1, r.stdout);
    oneLine(r.stderr, says);
  }
});

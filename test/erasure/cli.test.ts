// `loam erase` and `loam erasures` as a user runs them (the package's bin in a child process):
// erase a key, follow the erasure to its completion, verify the key (a wrong key's 404 is the
// erasure suite's; the CLI prints any 4xx with exit status 1 like every data command).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { keyedNode, raw, type KeyedNode } from '../client/helpers.js';
import { until } from '../node/helpers.js';
import { KEK } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const BIN = join(ROOT, 'src/cli/loam.mjs');
let n: KeyedNode;

function loam(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn('node', [BIN, ...args], { cwd: ROOT, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOAM_URL: n.url, LOAM_KEY: n.admin } });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const t = setTimeout(() => (p.kill('SIGKILL'), reject(new Error(`loam ${args.join(' ')}: no exit within 60 s`))), 60_000);
    p.on('exit', (code) => (clearTimeout(t), resolve({ code, stdout, stderr })));
  });
}

before(async () => {
  n = await keyedNode({ erasure_kek: KEK, erasure_interval_ms: 100 });
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces', { name: 'demo' })).status, 201);
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections', { name: 'users', primary_key: 'id', partitions: 1 })).status, 201);
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections/users/documents', { upserts: [{ id: 'user-17', email: 'a@b.c' }] })).status, 200);
});
after(async () => n?.close());

test('loam erase, loam erasures show and verify', async () => {
  const e = await loam(['erase', 'demo', 'users', 'user-17', '-o', 'json']);
  assert.equal(e.code, 0, e.stderr);
  const id = (JSON.parse(e.stdout) as { id: string }).id;
  assert.match(id, /^er_/);
  assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/users/documents/user-17')).status, 404);
  await until(async () => (await raw(n.url, n.admin, 'GET', `/v1/erasures/${id}`)).body.phase === 'complete', 60_000, 100);
  const show = await loam(['erasures', 'show', id]);
  assert.equal(show.code, 0, show.stderr);
  assert.match(show.stdout, /complete/);
  assert.match(show.stdout, /expected_completion/);
  const v = await loam(['erasures', 'verify', id, '--key', 'user-17', '-o', 'json']);
  assert.equal(v.code, 0, v.stderr);
  assert.equal(JSON.parse(v.stdout).verified, true);
});

test('loam erase without keys or with both keys and --filter: one line that says what to give, exit 1, nothing erased', async () => {
  const count = async () => {
    const log = await raw(n.url, n.admin, 'GET', '/v1/erasures');
    assert.equal(log.status, 200);
    return (log.body.items as unknown[]).length;
  };
  const before = await count();
  for (const [args, says] of [
    [['erase', 'demo', 'users'], /^loam: give the keys to erase, or --filter \(see loam erase --help\)\n$/],
    [['erase', 'demo', 'users', 'k1', '--filter', '{"email":"a@b.c"}'], /^loam: give keys or --filter, not both \(see loam erase --help\)\n$/],
  ] as const) {
    const r = await loam([...args]);
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stderr, says, 'no stack trace');
  }
  assert.equal(await count(), before, 'no erasure was requested');
});

test('loam erase --number on a collection whose primary key is a number (and by filter there): the document is erased, and its key verifies', async () => {
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections', { name: 'nums', primary_key: 'id', partitions: 1, fields: { id: 'number' } })).status, 201);
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections/nums/documents', { upserts: [{ id: 0 }, { id: 16 }, { id: 17 }] })).status, 200);
  const e = await loam(['erase', 'demo', 'nums', '17', '--number', '-o', 'json']);
  assert.equal(e.code, 0, e.stderr);
  const id = (JSON.parse(e.stdout) as { id: string }).id;
  assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/nums/documents/17')).status, 404);
  const v = await loam(['erasures', 'verify', id, '--key', '17', '--number', '-o', 'json']);
  assert.equal(v.code, 0, v.stderr);
  assert.equal(JSON.parse(v.stdout).verified, true);
  const f = await loam(['erase', 'demo', 'nums', '--filter', '{"id":{"$gte":16}}']);
  assert.equal(f.code, 0, f.stderr);
  assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/nums/documents/16')).status, 404);
  assert.equal((await raw(n.url, n.admin, 'GET', '/v1/namespaces/demo/collections/nums/documents/0')).status, 200, 'the others stay');
});

test('loam erase --number with a value that is not a JSON number (empty, hex, text): one line naming it, exit 1, nothing erased', async () => {
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections', { name: 'counted', primary_key: 'id', partitions: 1, fields: { id: 'number' } })).status, 201);
  assert.equal((await raw(n.url, n.admin, 'POST', '/v1/namespaces/demo/collections/counted/documents', { upserts: [{ id: 0 }, { id: 16 }] })).status, 200);
  const before = ((await raw(n.url, n.admin, 'GET', '/v1/erasures')).body.items as unknown[]).length;
  // "" (an unset shell variable) and "0x10" were read as 0 and 16: another document, erased for good.
  for (const v of ['', '0x10', 'b2', ' 16', '1e400']) {
    const r = await loam(['erase', 'demo', 'counted', v, '--number']);
    assert.equal(r.code, 1, `${JSON.stringify(v)}: ${r.stdout}`);
    assert.equal(r.stderr, `loam: --number: ${JSON.stringify(v)} is not a number (a JSON number such as 17 or -2.5)\n`);
  }
  const verify = await loam(['erasures', 'verify', 'er_0123abcd', '--key', '0x10', '--number']);
  assert.equal(verify.code, 1);
  assert.match(verify.stderr, /^loam: --number: "0x10" is not a number/);
  for (const id of ['0', '16']) assert.equal((await raw(n.url, n.admin, 'GET', `/v1/namespaces/demo/collections/counted/documents/${id}`)).status, 200, `${id} is still there`);
  assert.equal(((await raw(n.url, n.admin, 'GET', '/v1/erasures')).body.items as unknown[]).length, before, 'no erasure was requested');
});

// `loam serve`'s first start with auth api_keys, run as an operator runs it (the real CLI in a
// child process, its log at debug level): it writes the operator key to a new file of mode
// 0600 and prints only the path, or installs the key given in LOAM_BOOTSTRAP_OPERATOR_KEY
// and writes nothing; no secret (the key, its secret part, or its hash) reaches stdout,
// stderr or the log; a restart creates nothing.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { hashSecret, KEY_PATTERN, newKey, parseKey } from '../../src/control/keys.js';

const ROOT = new URL('../..', import.meta.url).pathname;
/** A start compiles the TypeScript first: generous, but bounded. */
const START_DEADLINE_MS = 60_000;
let dir: string;

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'loam-serve-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function config(name: string): string {
  const file = join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({
      metastore: `sqlite:${join(dir, `${name}.db`)}`,
      store: pathToFileURL(join(dir, `${name}-objects`)).href,
      host: '127.0.0.1',
      port: 0,
      auth: 'api_keys',
      log_level: 'debug',
    }),
  );
  return file;
}

interface Served {
  url: string;
  /** Everything it wrote to stdout and stderr (its log goes to stdout). */
  output(): string;
  stop(): Promise<number | null>;
}

/** `loam serve`, until it prints its address (or exits: then the promise rejects with its output). */
function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('LOAM_')));
  const proc = spawn(process.execPath, [join(ROOT, 'src/cli/loam.mjs'), 'serve', ...args], { cwd: ROOT, env: { ...clean, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  proc.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`loam serve did not start within ${START_DEADLINE_MS} ms: ${out}`));
    }, START_DEADLINE_MS);
    const poll = setInterval(() => {
      const m = /listening: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (!m) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({
        url: m[1]!,
        output: () => out,
        stop: async () => {
          proc.kill('SIGTERM');
          const code = await exited;
          return code;
        },
      });
    }, 50);
    void exited.then((code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(Object.assign(new Error(`loam serve exited with ${code}: ${out}`), { output: out, code }));
    });
  });
}

async function get(url: string, key: string, method = 'GET', body?: unknown) {
  const r = await fetch(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: r.status, body: (await r.json()) as any };
}

function assertNoSecret(output: string, token: string): void {
  const { secret } = parseKey(token)!;
  for (const s of [token, secret, hashSecret(secret)]) assert.ok(!output.includes(s), `a secret reached stdout, stderr or the log:\n${output}`);
}

test('first start: the operator key goes to a new 0600 file, never to stdout or the log; a restart makes none', async () => {
  const cfg = config('file');
  const keyFile = join(dir, 'operator.key');
  const s = await serve(['--config', cfg, '--operator-key-file', keyFile]);
  let token: string;
  try {
    assert.ok(existsSync(keyFile), `the key file is written: ${s.output()}`);
    assert.equal(statSync(keyFile).mode & 0o777, 0o600, 'only its owner can read it');
    token = readFileSync(keyFile, 'utf8').trim();
    assert.match(token, KEY_PATTERN);
    assert.ok(s.output().includes(keyFile), 'the path is printed');
    const orgs = await get(`${s.url}/v1/orgs`, token);
    assert.equal(orgs.status, 200, 'it is the operator key');
    assert.deepEqual(orgs.body.items, [], 'serve creates no org (and so no org admin key to print)');
    const acme = await get(`${s.url}/v1/orgs`, token, 'POST', { id: 'acme' });
    assert.equal(acme.status, 201);
    assert.equal((await get(`${s.url}/v1/org`, acme.body.admin_key)).body.id, 'acme', "the operator hands the org's admin key over");
  } finally {
    await s.stop();
  }
  assertNoSecret(s.output(), token);

  const again = join(dir, 'again.key');
  const s2 = await serve(['--config', cfg, '--operator-key-file', again]);
  await s2.stop();
  assert.ok(!existsSync(again), 'a restart creates no key');
  assert.doesNotMatch(s2.output(), /loam_[0-9a-f]{16}_[0-9a-f]{64}/);
});

test('first start with LOAM_BOOTSTRAP_OPERATOR_KEY: that key is the operator, and nothing is written', async () => {
  const token = newKey().token;
  const keyFile = join(dir, 'unused.key');
  const s = await serve(['--config', config('env'), '--operator-key-file', keyFile], { LOAM_BOOTSTRAP_OPERATOR_KEY: token });
  try {
    assert.equal((await get(`${s.url}/v1/orgs`, token)).status, 200);
    assert.ok(!existsSync(keyFile));
  } finally {
    await s.stop();
  }
  assertNoSecret(s.output(), token);
});

test('a malformed LOAM_BOOTSTRAP_OPERATOR_KEY, or a key file that exists, stops the start with a clear error', async () => {
  const bad = await serve(['--config', config('bad')], { LOAM_BOOTSTRAP_OPERATOR_KEY: 'loam_nope' }).then(
    () => assert.fail('it started'),
    (e: { output: string; code: number }) => e,
  );
  assert.equal(bad.code, 1);
  assert.match(bad.output, /LOAM_BOOTSTRAP_OPERATOR_KEY must be loam_<key_id/);
  assert.doesNotMatch(bad.output, /loam_nope/, 'not even a malformed key is echoed');

  const taken = join(dir, 'taken.key');
  writeFileSync(taken, 'something else\n');
  const cfg = config('taken');
  const refused = await serve(['--config', cfg, '--operator-key-file', taken]).then(
    () => assert.fail('it started'),
    (e: { output: string; code: number }) => e,
  );
  assert.equal(refused.code, 1);
  assert.match(refused.output, /could not write the operator key to .*taken\.key.*it was revoked/);
  assert.equal(readFileSync(taken, 'utf8'), 'something else\n', 'an existing file is never replaced');
  // The revoked key is not a usable one: the next start makes another.
  const fresh = join(dir, 'fresh.key');
  const s = await serve(['--config', cfg, '--operator-key-file', fresh]);
  await s.stop();
  assert.ok(existsSync(fresh), `a new key after the failed start: ${s.output()}`);
});

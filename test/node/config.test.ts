import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, envOverrides, resolveConfig } from '../../src/node/config.js';
import { openMetastore } from '../../src/node/backends.js';
import { redactUrl } from '../../src/meta/url.js';

const base = { metastore: 'sqlite::memory:', store: 'memory://' };

test('defaults, file values and LOAM_* overrides, in that order', () => {
  const c = resolveConfig(base, { port: 8080 }, envOverrides({ LOAM_PORT: '9090', LOAM_ROLES: 'log,query', LOAM_FLUSH_INTERVAL_MS: '5' }));
  assert.equal(c.port, 9090);
  assert.deepEqual(c.roles, ['log', 'query']);
  assert.equal(c.flush_interval_ms, 5);
  assert.equal(c.flush_bytes, 8 * 1024 * 1024);
  assert.equal(c.host, '127.0.0.1');
});

test('/metrics has its own listener: loopback and port 7071 by default, a free port beside port 0, LOAM_METRICS_* override', () => {
  const d = resolveConfig(base);
  assert.equal(d.metrics_host, '127.0.0.1');
  assert.equal(d.metrics_port, 7071);
  assert.equal(resolveConfig(base, { port: 0 }).metrics_port, 0);
  assert.equal(resolveConfig(base, { port: 0, metrics_port: 9464 }).metrics_port, 9464);
  const e = resolveConfig(base, { metrics_port: 9000 }, envOverrides({ LOAM_METRICS_PORT: '9464', LOAM_METRICS_HOST: '10.0.0.5' }));
  assert.equal(e.metrics_port, 9464);
  assert.equal(e.metrics_host, '10.0.0.5');
});

test('every bad setting is refused at start with its name', () => {
  const bad: [Record<string, unknown>, string][] = [
    [{ port: 70000 }, 'port'],
    [{ port: 'abc' }, 'port'],
    [{ host: '0.0.0.0' }, 'host'],
    [{ roles: ['cook'] }, 'roles'],
    [{ log_level: 'loud' }, 'log_level'],
    [{ flush_bytes: 1 }, 'flush_bytes'],
    [{ gc_grace_ms: 1000, lease_ttl_ms: 1000 }, 'gc_grace_ms'],
    [{ metastore: '' }, 'metastore'],
    [{ colour: 'blue' }, 'colour'],
    [{ metrics_port: 65536 }, 'metrics_port'],
    [{ port: 7070, metrics_port: 7070 }, 'metrics_port'],
    [{ metrics_host: '' }, 'metrics_host'],
    [{ metrics_host: 'http://x/' }, 'metrics_host'],
    // Both URLs are read with the config, so config-check refuses what serve would, before anything opens.
    [{ metastore: 'bogus://x' }, 'metastore'],
    [{ metastore: 'mysql://u:p@h/db' }, 'metastore'],
    [{ store: 's3://' }, 'store'],
    [{ store: 'ftp://x/y' }, 'store'],
    [{ store: 'file://relative/dir' }, 'store'],
    [{ store: 'memory://?colour=blue' }, 'store'],
    [{ store: 's3://bucket?sse=rot13' }, 'store'],
  ];
  for (const [layer, name] of bad) {
    assert.throws(
      () => resolveConfig(base, layer),
      (e: unknown) => e instanceof ConfigError && e.setting === name,
      name,
    );
  }
});

test('a bad store URL is refused with the config, naming the store and what to fix', () => {
  assert.throws(() => resolveConfig(base, { store: 's3://' }), (e: unknown) => e instanceof ConfigError && e.message === 'configuration: store s3:// needs a bucket: s3://bucket/prefix');
  assert.throws(() => resolveConfig(base, { metastore: 'bogus://x' }), (e: unknown) => e instanceof ConfigError && /unknown metastore URL scheme in "bogus:\/\/x" \(expected sqlite:/.test(e.message));
});

test('metastore URLs: sqlite works; unknown schemes and unbuilt backends are clear errors', async () => {
  const m = await openMetastore('sqlite::memory:');
  assert.equal(m.backend, 'embedded');
  await m.meta.close();
  await assert.rejects(openMetastore('mysql://x'), /unknown metastore URL scheme/);
  await assert.rejects(openMetastore('sqlite:'), /needs a path/);
  // Nothing listens on port 1: each backend is wired, and fails with a clear error that
  // never prints the password.
  for (const url of ['postgres://u:secret@127.0.0.1:1/db', 'dynamodb://127.0.0.1:1/loam-meta?region=us-east-1']) {
    const t0 = Date.now();
    await assert.rejects(openMetastore(url), (e: Error) => {
      assert.match(e.message, /cannot use the (postgres|dynamodb)/);
      assert.ok(!e.message.includes('secret'), 'never print a password');
      return true;
    });
    assert.ok(Date.now() - t0 < 30_000);
  }
});

// The real CLI in a child process, as an operator runs it (config-check, serve).
const BIN = new URL('../../src/cli/loam.mjs', import.meta.url).pathname;
/** A command that reads a config and exits; it compiles the TypeScript first: generous, but bounded. */
const CLI_DEADLINE_MS = 60_000;
const dir = mkdtempSync(join(tmpdir(), 'loam-config-'));
after(() => rmSync(dir, { recursive: true, force: true }));

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `loam <args>` with only the LOAM_* variables given. */
function loam(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, timeout: CLI_DEADLINE_MS }, (e, stdout, stderr) => {
      resolve({ code: e ? ((e as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

let files = 0;
/** A config file of these settings (an embedded metastore in the test's directory unless given). */
function configFile(settings: Record<string, unknown>): string {
  const file = join(dir, `c${files++}.json`);
  writeFileSync(file, JSON.stringify({ metastore: `sqlite:${join(dir, 'meta.db')}`, store: 'memory://', ...settings }));
  return file;
}

/** One line on stderr naming the setting, exit 1, and the secret nowhere. */
function refused(r: Ran, setting: string, secret: string): void {
  assert.equal(r.code, 1, r.stderr);
  assert.match(r.stderr, new RegExp(`^loam: configuration: ${setting} `));
  assert.equal(r.stderr.trim().split('\n').length, 1, `one line, no stack trace: ${r.stderr}`);
  assert.ok(!r.stdout.includes(secret) && !r.stderr.includes(secret), `the secret is not printed: ${r.stderr}${r.stdout}`);
}

test("a URL's credentials are masked: userinfo (a raw / or @ in the password too) and credential-like query values", () => {
  const cases: [string, string][] = [
    ['postgres://loam:hunter2@db:5432/loam', 'postgres://…@db:5432/loam'],
    ['postgres://loam:hun/ter@2@db/loam', 'postgres://…@db/loam'],
    ['https://token@github.example/x', 'https://…@github.example/x'],
    ['s3://bucket/prefix?endpoint=http://u:hunter2@minio:9000&region=eu-west-1', 's3://bucket/prefix?endpoint=http://…@minio:9000&region=eu-west-1'],
    ['postgres://db/loam?user=loam&password=hunter2&sslmode=require', 'postgres://db/loam?user=loam&password=…&sslmode=require'],
    ['x://h/?secretAccessKey=a&sessionToken=b&key=c&sseKmsKeyId=d', 'x://h/?secretAccessKey=…&sessionToken=…&key=…&sseKmsKeyId=d'],
    ['sharded:{"shards":["postgres://a:pw1@h/a"],"directory":"postgres://b:pw2@h/b"}', 'sharded:{"shards":["postgres://…@h/a"],"directory":"postgres://…@h/b"}'],
    // Nothing to mask: unchanged.
    ['file:///var/lib/loam/a@b', 'file:///var/lib/loam/a@b'],
    ['http://10.0.0.1:7070', 'http://10.0.0.1:7070'],
  ];
  for (const [url, shown] of cases) assert.equal(redactUrl(url), shown, url);
});

test('errors about URL settings never print their credentials (in the file or LOAM_*), and name the setting', async () => {
  const pw = 'hunter2';
  // One child at a time (a shared machine): each is a whole CLI start.
  const runs: [() => Promise<Ran>, string][] = [
    [() => loam(['config-check', '--config', configFile({ advertise_url: `http://admin:${pw}@10.0.0.1:7070` })]), 'advertise_url'],
    [() => loam(['config-check', '--config', configFile({})], { LOAM_ADVERTISE_URL: `http://admin:${pw}@10.0.0.1:7070` }), 'advertise_url'],
    [() => loam(['config-check', '--config', configFile({ key_provider: 'kms', kms_endpoint: `ftp://admin:${pw}@kms.internal` })]), 'kms_endpoint'],
    [() => loam(['config-check', '--config', configFile({ auth: 'api_keys', authorizer: 'openfga', openfga_url: `ftp://admin:${pw}@fga:8080` })]), 'openfga_url'],
    [() => loam(['config-check', '--config', configFile({ store: `s3://bucket/prefix?endpoint=http://u:${pw}@minio:9000&colour=blue` })]), 'store'],
    [() => loam(['config-check', '--config', configFile({ metastore: `mysql://loam:${pw}@db/loam` })]), 'metastore'],
    // serve reads the same config: the same line.
    [() => loam(['serve', '--config', configFile({ port: 0, advertise_url: `http://admin:${pw}@10.0.0.1:7070` })]), 'advertise_url'],
  ];
  for (const [run, setting] of runs) refused(await run(), setting, pw);
});

test('config-check prints every URL setting with its credentials masked', async () => {
  const pw = 'hunter2';
  const file = configFile({ store: `s3://bucket/prefix?endpoint=http://u:${pw}@minio:9000`, key_provider: 'kms', kms_endpoint: `https://k:${pw}@kms.internal`, metastore: `postgres://loam:${pw}@db/loam` });
  for (const r of [await loam(['config-check', '--config', file]), await loam(['config-check', '--config', configFile({})], { LOAM_STORE: `s3://bucket/prefix?endpoint=http://u:${pw}@minio:9000` })]) {
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(pw) && !r.stderr.includes(pw), r.stdout);
    assert.equal((JSON.parse(r.stdout) as { store: string }).store, 's3://bucket/prefix?endpoint=http://…@minio:9000');
  }
  const shown = JSON.parse((await loam(['config-check', '--config', file])).stdout) as Record<string, string>;
  assert.equal(shown.kms_endpoint, 'https://…@kms.internal');
  assert.equal(shown.metastore, 'postgres://…@db/loam');
});

test('a malformed LOAM_BOOTSTRAP_OPERATOR_KEY is refused with the config, in one line that does not quote it, before anything is written', async () => {
  const bad = 'S3CRETbad';
  const data = join(dir, 'bootstrap');
  mkdirSync(data);
  const file = configFile({ metastore: `sqlite:${join(data, 'meta.db')}`, store: 'memory://', port: 0, auth: 'api_keys' });
  for (const command of ['serve', 'config-check']) {
    const r = await loam([command, '--config', file], { LOAM_BOOTSTRAP_OPERATOR_KEY: bad });
    refused(r, 'LOAM_BOOTSTRAP_OPERATOR_KEY', bad);
    assert.match(r.stderr, /must be loam_<key_id: 16 hex digits>_<secret: 64 hex digits>/);
    assert.deepEqual(readdirSync(data), [], `${command} made no metastore file, no encryption.key`);
  }
});

test('the metastore URL is read by its backend with the config (no connection): config-check refuses what serve would, saying what is wrong', async () => {
  const refusedUrls: [unknown, RegExp][] = [
    ['postgres://loam:pw@127.0.0.1:notaport/loam', /metastore "postgres:\/\/…@127\.0\.0\.1:notaport\/loam": port must be a number 1\.\.65535, got notaport$/],
    ['postgres://loam:pw@127.0.0.1:70000/loam', /port must be a number 1\.\.65535, got 70000$/],
    ['dynamodb://127.0.0.1:1/tab?region=us-east-1&profile=bogus', /profile must be dynamodb or alternator, got bogus$/],
    ['dynamodb://127.0.0.1:1/t', /names no valid table/],
    ['remote://u:pw@127.0.0.1:1', /"remote:\/\/…@127\.0\.0\.1:1": the remote metastore URL takes no credentials/],
    ['remote://127.0.0.1', /needs a host and a port/],
    ['sqlite:/a.db?synchronous=SOMETIMES', /takes only \?synchronous=FULL\|NORMAL/],
    [{ shards: ['sqlite:/a.db', 'postgres://u:pw@h:x/db'], directory: 'sqlite:/d.db' }, /shards\[1\] \(s1\): postgres: port must be a number 1\.\.65535, got x$/],
    [{ shards: ['sqlite:/a.db'], directory: 'dynamodb://h:1/tab?profile=bogus' }, /directory: profile must be dynamodb or alternator/],
  ];
  for (const [metastore, says] of refusedUrls) {
    assert.throws(
      () => resolveConfig(base, { metastore }),
      (e: unknown) => e instanceof ConfigError && e.setting === 'metastore' && says.test(e.message) && !e.message.includes(':pw@'),
      JSON.stringify(metastore),
    );
  }
  // What the backends take still passes: a socket directory, a space in a password, postgresql:, a remote URL's options.
  for (const metastore of ['postgres://u:p@/db?host=/var/run/postgresql', 'postgres://u:p w@h/db', 'postgresql://h:5432/db', 'dynamodb:///loam-meta?region=eu-west-1', 'remote://127.0.0.1:7443?cluster=c1&timeout_ms=500']) {
    assert.equal(resolveConfig(base, { metastore }).metastore, metastore);
  }
  // An S3 endpoint is read with the config too.
  assert.throws(() => resolveConfig(base, { store: 's3://b/p?endpoint=ftp://minio:9000' }), (e: unknown) => e instanceof ConfigError && e.setting === 'store' && /endpoint: must be an http/.test(e.message));
  // The operator's three, through the CLI: one line each, exit 1.
  for (const metastore of ['postgres://loam:pw@127.0.0.1:notaport/loam', 'dynamodb://127.0.0.1:1/tab?region=us-east-1&profile=bogus', 'remote://u:pw@127.0.0.1:1']) {
    refused(await loam(['config-check', '--config', configFile({ metastore })]), 'metastore', ':pw@');
  }
});

test('an embedded metastore file whose directory is missing is named, with what to do, by serve, config-check and the operator commands', async () => {
  const missing = join(dir, 'no-such-dir');
  const file = configFile({ metastore: `sqlite:${join(missing, 'meta.db')}`, port: 0 });
  for (const args of [['serve', '--config', file], ['config-check', '--config', file], ['keys', 'list', '--config', file]]) {
    const r = await loam(args);
    refused(r, 'metastore', 'hunter2');
    assert.match(r.stderr, new RegExp(`cannot open the file ${join(missing, 'meta.db')}: its directory ${missing} does not exist; create it`), args[0]);
  }
  // Without --config, the operator commands read a loam dev data dir: one that is not there is named.
  const r = await loam(['keys', 'list', '--data-dir', missing]);
  refused(r, '--data-dir', 'hunter2');
  assert.match(r.stderr, /no-such-dir does not exist: pass --data-dir <a loam dev data dir> or --config/);
  assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('no-such')), [], 'nothing made');
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, envOverrides, resolveConfig } from '../../src/node/config.js';
import { openMetastore } from '../../src/node/backends.js';

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

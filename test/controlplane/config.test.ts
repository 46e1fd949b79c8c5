// The control plane's configuration: defaults, LOAM_CP_* overrides, and an error naming the
// setting for each mistake an operator makes.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConfigError, cpEnvOverrides, printableConfig, readTlsFiles, resolveControlPlaneConfig } from '../../src/controlplane/config.js';

const base = { registry: 'sqlite:/var/cp/registry.db', clusters: 'sqlite:/var/cp/clusters/{cluster}.db' };

function refused(layer: Record<string, unknown>, setting: string, why: RegExp): void {
  assert.throws(
    () => resolveControlPlaneConfig(layer),
    (e) => e instanceof ConfigError && e.setting === setting && why.test(e.message),
  );
}

describe('control-plane config', () => {
  test('defaults: loopback, plaintext, ports 7443 and 7444; LOAM_CP_* overrides a file; port 0 picks the metrics port too', () => {
    const c = resolveControlPlaneConfig(base);
    assert.equal(c.host, '127.0.0.1');
    assert.equal(c.port, 7443);
    assert.equal(c.metrics_port, 7444);
    assert.equal(c.tls_cert, null);
    const env = cpEnvOverrides({ LOAM_CP_PORT: '9000', LOAM_PORT: '1', LOAM_CP_MAX_OPEN_CLUSTERS: '5' });
    assert.deepEqual(env, { port: '9000', max_open_clusters: '5' });
    const o = resolveControlPlaneConfig(base, env);
    assert.equal(o.port, 9000);
    assert.equal(o.max_open_clusters, 5);
    assert.equal(resolveControlPlaneConfig(base, { port: 0 }).metrics_port, 0);
  });

  test('each mistake names its setting and what to write', () => {
    refused({ clusters: base.clusters }, 'registry', /is required/);
    refused({ registry: base.registry }, 'clusters', /is required/);
    refused({ ...base, clusters: 'sqlite:/var/cp/clusters.db' }, 'clusters', /must contain \{cluster\}/);
    refused({ ...base, clusters: 'postgres://u:secretpw@h/{cluster}x/y' }, 'clusters', /database name/);
    refused({ ...base, clusters: 'sqlite:/var/cp/{cluster}.db', registry: 'sqlite:/var/cp/registry.db' }, 'registry', /no cluster can be named into/);
    refused({ ...base, registry: 'mysql://h/db' }, 'registry', /unknown scheme/);
    refused({ ...base, host: '0.0.0.0' }, 'host', /loopback address .* without tls_cert and tls_key/);
    refused({ ...base, tls_cert: '/x.crt' }, 'tls_key', /set together/);
    refused({ ...base, client_ca: '/ca.crt' }, 'client_ca', /needs tls_cert and tls_key/);
    refused({ ...base, port: 70000 }, 'port', /integer in 0\.\.65535/);
    refused({ ...base, metrics_port: 7443 }, 'metrics_port', /must differ from port/);
    refused({ ...base, log_level: 'loud' }, 'log_level', /must be one of/);
    refused({ ...base, listen: ':7443' }, 'listen', /is not a control-plane setting/);
    // A password never reaches a message.
    assert.throws(() => resolveControlPlaneConfig({ ...base, clusters: 'postgres://u:secretpw@h/{cluster}x/y' }), (e) => !(e as Error).message.includes('secretpw'));
  });

  test('TLS files are read at start; a missing one names its setting; printable config hides passwords', () => {
    const c = resolveControlPlaneConfig({ ...base, host: '0.0.0.0', tls_cert: '/nonexistent/server.crt', tls_key: '/nonexistent/server.key' });
    assert.throws(() => readTlsFiles(c), (e) => e instanceof ConfigError && e.setting === 'tls_cert' && /ENOENT/.test(e.message));
    const p = printableConfig(resolveControlPlaneConfig({ registry: 'postgres://cp:hunter2@db/cp', clusters: 'postgres://cp:hunter2@db/c_{cluster}' }));
    assert.ok(!JSON.stringify(p).includes('hunter2'));
  });
});

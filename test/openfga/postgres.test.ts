// OpenFGA on its Postgres datastore (the configuration production uses): `openfga migrate`,
// a node deciding on it, and the tuples and the model record outliving a restart of the
// OpenFGA server (with the in-memory datastore they would not).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { pino } from 'pino';
import { openFgaBinary, startOpenFga, type OpenFga } from '../harness/openfga.js';
import { startCluster, type Cluster } from '../harness/postgres.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { MemoryStore } from '../../src/store/index.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { OpenFgaAuthorizer } from '../../src/authz/openfga/authorizer.js';

let cluster: Cluster;
let fga: OpenFga | null = null;
before(async () => {
  cluster = await startCluster();
});
after(async () => {
  await fga?.stop();
  await cluster?.stop();
});

test('on its Postgres datastore: a node decides on it, and tuples and the model outlive a restart of OpenFGA', async () => {
  const uri = `${cluster.url}?sslmode=disable`;
  const m = spawnSync(openFgaBinary(), ['migrate', '--datastore-engine', 'postgres', '--datastore-uri', uri], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(m.status, 0, `openfga migrate: ${m.stderr || m.stdout}`);
  const args = ['--datastore-engine=postgres', `--datastore-uri=${uri}`];
  fga = await startOpenFga({ args });
  const dir = mkdtempSync(join(tmpdir(), 'loam-openfga-pg-'));
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', authorizer: 'openfga', openfga_url: fga.url, openfga_store: 'loam-pg' });
  const open = () => startNode(config, { meta: openEmbedded({ path: join(dir, 'meta.db') }), store: new MemoryStore(), logger: pino({ level: 'silent' }) });
  let node: LoamNode = await open();
  const call = async (key: string, method: string, path: string, body?: unknown) => {
    const r = await fetch(node.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: r.status, body: (await r.json().catch(() => null)) as any };
  };
  try {
    const admin = node.bootstrapKey!;
    assert.equal((await call(admin, 'POST', '/v1/namespaces', { name: 'alpha' })).status, 201);
    const reader = (await call(admin, 'POST', '/v1/keys', { role: 'reader', namespace: 'alpha' })).body.key as string;
    assert.equal((await call(reader, 'GET', '/v1/namespaces/alpha')).status, 200);
    const modelId = (node.authorizer as OpenFgaAuthorizer).store.modelId;
    await node.close();
    await fga.stop();
    fga = await startOpenFga({ args, httpPort: fga.httpPort });
    node = await open();
    assert.equal((node.authorizer as OpenFgaAuthorizer).store.modelId, modelId, 'the recorded model is found again');
    assert.equal((await call(reader, 'GET', '/v1/namespaces/alpha')).status, 200, 'the tuples are still there');
    assert.equal((await call(reader, 'POST', '/v1/namespaces', { name: 'beta' })).status, 403);
  } finally {
    await node.close();
  }
});

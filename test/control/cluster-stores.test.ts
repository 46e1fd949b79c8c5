// The control plane's per-cluster stores (spec §8) on the backend under test: each cluster's
// MetaStore and ControlStore live in a file, database or table of their own, made from the
// clusters template; what one cluster writes, no other cluster's handle can see, even with
// the same ids; only registered clusters are opened.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { backendName } from '../harness/backends.js';
import { testServerUrl, withDatabase } from '../harness/postgres.js';
import { dynamoEndpoint, TEST_CREDENTIALS } from '../harness/dynamodb.js';
import { ClusterStores, clusterUrl, templateCovers, templateProblem } from '../../src/controlplane/cluster-stores.js';
import { openRegistry, type OpenedRegistry } from '../../src/controlplane/registry.js';
import { createCluster } from '../../src/controlplane/admin.js';
import { isMetaError } from '../../src/meta/errors.js';

const backend = backendName();
const tag = `t${process.pid}${Date.now().toString(36)}`;
let dir = '';
let template = '';
let registryUrl = '';
let reg: OpenedRegistry;
let stores: ClusterStores;

async function urls(): Promise<{ template: string; registry: string }> {
  switch (backend) {
    case 'embedded':
      dir = mkdtempSync(join(tmpdir(), 'loam-cp-'));
      return { template: `sqlite:${dir}/clusters/{cluster}.db`, registry: `sqlite:${dir}/registry.db` };
    case 'postgres': {
      const server = await testServerUrl();
      return { template: withDatabase(server, `${tag}_{cluster}`).replace('%7Bcluster%7D', '{cluster}'), registry: withDatabase(server, `${tag}_registry_db`) };
    }
    default: {
      process.env.AWS_ACCESS_KEY_ID ??= TEST_CREDENTIALS.accessKeyId;
      process.env.AWS_SECRET_ACCESS_KEY ??= TEST_CREDENTIALS.secretAccessKey;
      const host = new URL(dynamoEndpoint()).host;
      const q = `?region=us-east-1&profile=${backend === 'alternator' ? 'alternator' : 'dynamodb'}`;
      return { template: `dynamodb://${host}/${tag}-{cluster}${q}`, registry: `dynamodb://${host}/${tag}_registry${q}` };
    }
  }
}

before(async () => {
  ({ template, registry: registryUrl } = await urls());
  assert.equal(templateProblem(template), null, template);
  reg = await openRegistry(registryUrl);
  stores = new ClusterStores({ template, registry: reg.registry });
});

after(async () => {
  await stores?.close();
  await reg?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  if (backend === 'postgres') {
    const c = new pg.Client({ connectionString: withDatabase(await testServerUrl(), 'postgres') });
    await c.connect();
    const r = await c.query(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [`${tag}%`]);
    for (const row of r.rows as { datname: string }[]) await c.query(`DROP DATABASE IF EXISTS ${c.escapeIdentifier(row.datname)} WITH (FORCE)`);
    await c.end();
  }
});

describe(`per-cluster stores on ${backend}`, () => {
  test('two clusters: same ids, different metadata; neither sees the other\'s namespaces, keys or feed', async () => {
    const a = await createCluster(reg.registry, template, 'alpha', 'test');
    await createCluster(reg.registry, template, 'beta', 'test');
    assert.match(a.key.token, /^loam_agent_/);
    if (backend === 'embedded') assert.ok(existsSync(join(dir, 'clusters')), 'the clusters directory was made');
    const A = await stores.stores('alpha');
    const B = await stores.stores('beta');
    assert.notEqual(clusterUrl(template, 'alpha'), clusterUrl(template, 'beta'));
    const na = await A.meta.createNamespace({ org: 'acme', name: 'orders' });
    const nb = await B.meta.createNamespace({ org: 'acme', name: 'payroll' });
    // Ids are dense per cluster: the same id names a different namespace in each.
    assert.equal(na.id, nb.id);
    assert.equal((await A.meta.namespace(na.id)).name, 'orders');
    assert.equal((await B.meta.namespace(nb.id)).name, 'payroll');
    await assert.rejects(A.meta.namespaceByName('acme', 'payroll'), (e) => isMetaError(e, 'NotFound'));
    assert.deepEqual((await A.meta.listNamespaces('acme', { limit: 100 })).items.map((n) => n.name), ['orders']);
    const ca = await A.control();
    const cb = await B.control();
    await ca.createOrg('acme');
    await assert.rejects(cb.org('acme'), (e) => isMetaError(e, 'NotFound'));
    assert.deepEqual((await cb.listOrgs()).items, []);
    assert.equal(await cb.controlVersion(), 0);
    // The same handle again, not a second connection.
    assert.equal(await stores.stores('alpha'), A);
    assert.equal(stores.openCount, 2);
  });

  test('only registered clusters are opened: an unknown id is NotFound and makes no store', async () => {
    await assert.rejects(stores.stores('gamma'), (e) => isMetaError(e, 'NotFound') && /cluster "gamma"/.test((e as Error).message));
    await assert.rejects(stores.stores('../etc'), (e) => isMetaError(e, 'InvalidArgument'));
    if (backend === 'embedded') assert.ok(!existsSync(join(dir, 'clusters', 'gamma.db')));
    assert.equal(stores.openCount, 2);
  });
});

describe('per-cluster sharded stores', { skip: backend !== 'embedded' && 'the sharded case runs once, on embedded shards' }, () => {
  test('a sharded template: every shard and the directory of each cluster are its own files', async () => {
    const d = mkdtempSync(join(tmpdir(), 'loam-cp-sharded-'));
    const t = `sharded:${JSON.stringify({ shards: [`sqlite:${d}/s0/{cluster}.db`, `sqlite:${d}/s1/{cluster}.db`], directory: `sqlite:${d}/dir/{cluster}.db` })}`;
    assert.equal(templateProblem(t), null);
    assert.match(templateProblem(`sharded:${JSON.stringify({ shards: [`sqlite:${d}/s0/{cluster}.db`, `sqlite:${d}/s1/x.db`], directory: `sqlite:${d}/dir/{cluster}.db` })}`)!, /shards\[1\] must contain \{cluster\}/);
    const r = await openRegistry(`sqlite:${d}/registry.db`);
    const s = new ClusterStores({ template: t, registry: r.registry });
    try {
      await createCluster(r.registry, t, 'alpha', 'test');
      await createCluster(r.registry, t, 'beta', 'test');
      const A = await s.stores('alpha');
      const B = await s.stores('beta');
      assert.equal(A.backend, 'sharded');
      for (let i = 0; i < 4; i++) await A.meta.createNamespace({ org: 'acme', name: `a${i}` });
      await B.meta.createNamespace({ org: 'acme', name: 'b0' });
      assert.deepEqual((await A.meta.listNamespaces('acme', { limit: 100 })).items.map((n) => n.name), ['a0', 'a1', 'a2', 'a3']);
      assert.deepEqual((await B.meta.listNamespaces('acme', { limit: 100 })).items.map((n) => n.name), ['b0']);
      for (const sub of ['s0', 's1', 'dir']) assert.ok(existsSync(join(d, sub, 'alpha.db')) && existsSync(join(d, sub, 'beta.db')), sub);
      await (await A.control()).createOrg('acme');
      await assert.rejects((await B.control()).org('acme'), (e) => isMetaError(e, 'NotFound'));
    } finally {
      await s.close();
      await r.close();
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe('cluster URL templates', () => {
  test('the placeholder must be once, in the file, database or table name; sqlite::memory: is refused', () => {
    assert.equal(templateProblem('sqlite:/var/cp/{cluster}.db'), null);
    assert.equal(templateProblem('sqlite:/var/cp/{cluster}/meta.db'), null);
    assert.equal(templateProblem('postgres://u:p@h:5432/loam_{cluster}'), null);
    assert.equal(templateProblem('dynamodb://h:8000/loam-{cluster}?region=eu-west-1'), null);
    assert.match(templateProblem('sqlite:/var/cp/meta.db')!, /must contain \{cluster\}/);
    assert.match(templateProblem('sqlite:/var/{cluster}/{cluster}.db')!, /exactly once/);
    assert.match(templateProblem('sqlite::memory:{cluster}')!, /outlive the process/);
    assert.match(templateProblem('postgres://{cluster}:p@h/loam')!, /database name/);
    assert.match(templateProblem('dynamodb://h:8000/loam?region={cluster}')!, /table name/);
    assert.match(templateProblem('mysql://h/{cluster}')!, /unknown scheme/);
  });

  test('templateCovers: whether a cluster id could turn the template into a URL (the registry must not be one)', () => {
    assert.equal(templateCovers('sqlite:/cp/{cluster}.db', 'sqlite:/cp/registry.db'), true);
    assert.equal(templateCovers('sqlite:/cp/clusters/{cluster}.db', 'sqlite:/cp/registry.db'), false);
    assert.equal(templateCovers('sqlite:/cp/{cluster}.db', 'sqlite:/cp/Registry.db'), false);
  });
});

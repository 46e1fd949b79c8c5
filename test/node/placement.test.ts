// GET /v1/placement and `loam placement` (spec §5.3): an org admin sees the owner of its
// namespace's keys and the load per node; the operator names the org; other keys and bad
// input are refused with the field named.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { test } from 'node:test';
import { pino } from 'pino';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { placementKey } from '../../src/router/placement.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const run = promisify(execFile);

test('GET /v1/placement: owners and load per node for an org admin and the operator; refusals name the field', async () => {
  const meta = openEmbedded({ path: ':memory:' });
  const node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', zone: 'z1' }), {
    meta,
    store: new MemoryStore(),
    logger: pino({ level: 'silent' }),
  });
  const call = async (key: string, path: string, body?: unknown, method = body === undefined ? 'GET' : 'POST') => {
    const r = await fetch(node.url + path, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(15_000),
    });
    return { status: r.status, body: (await r.json()) as any };
  };
  try {
    const admin = node.bootstrapKey!;
    const operator = node.operatorKey!;
    assert.equal((await call(admin, '/v1/namespaces', { name: 'demo' })).status, 201);
    for (const c of ['books', 'films']) assert.equal((await call(admin, '/v1/namespaces/demo/collections', { name: c, primary_key: 'id' })).status, 201);
    const ns = await node.meta.namespaceByName('default', 'demo');

    const r = await call(admin, '/v1/placement?ns=demo&replicas=2');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.deepEqual(r.body.namespace, { name: 'demo', id: ns.id, size_class: 'small' });
    assert.deepEqual(r.body.keys.map((k: { kind: string; collection?: string }) => k.collection ?? k.kind), ['namespace', 'books', 'films']);
    for (const k of r.body.keys) {
      assert.equal(k.owner, node.id, 'one node owns everything');
      assert.deepEqual(k.replicas, [node.id], 'no more replicas than nodes');
    }
    assert.equal(r.body.keys[1].key, placementKey.collection(ns.id, 1).hashed, 'a small namespace places by ns alone');
    assert.deepEqual(r.body.nodes, [{ id: node.id, roles: ['gateway', 'log', 'query', 'worker'], zone: 'z1', weight: 1, owned: 3, in_flight: 0 }]);
    assert.equal(r.body.view.nodes, 1);

    const one = await call(operator, '/v1/placement?ns=demo&collection=films&org=default');
    assert.equal(one.status, 200, JSON.stringify(one.body));
    assert.deepEqual(one.body.keys.map((k: { collection?: string }) => k.collection ?? null), [null, 'films']);

    const refused = async (key: string, path: string, status: number, pattern: RegExp) => {
      const x = await call(key, path);
      assert.equal(x.status, status, `${path}: ${JSON.stringify(x.body)}`);
      assert.match(x.body.error.message, pattern);
    };
    await refused(admin, '/v1/placement', 400, /ns/);
    await refused(admin, '/v1/placement?ns=demo&replicas=0', 400, /replicas/);
    await refused(admin, '/v1/placement?ns=no-such', 404, /no-such/);
    await refused(admin, '/v1/placement?ns=demo&collection=nope', 404, /nope/);
    await refused(admin, '/v1/placement?ns=demo&org=other', 403, /org "other"/);
    await refused(operator, '/v1/placement?ns=demo', 400, /org/);
    const reader = (await call(admin, '/v1/keys', { role: 'reader' })).body.key as string;
    await refused(reader, '/v1/placement?ns=demo', 403, /may not/);

    // The CLI prints the same answer (LOAM_KEY, --url).
    const { stdout } = await run(process.execPath, ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'placement', 'demo', '--collection', 'books', '--url', node.url, '-o', 'json'], {
      cwd: ROOT,
      env: { ...process.env, LOAM_KEY: admin },
    });
    const printed = JSON.parse(stdout);
    assert.equal(printed.keys[1].collection, 'books');
    assert.equal(printed.keys[1].owner, node.id);
  } finally {
    await node.close();
    await meta.close();
  }
});

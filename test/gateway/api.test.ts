import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { errors } from '../../src/meta/index.js';
import { http, testNode, type TestNode } from '../node/helpers.js';

describe('HTTP API: namespaces and collections', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode();
  });
  after(async () => n.cleanup());

  test('namespaces: create, 409 on a taken name, get, list with pages, delete', async () => {
    const a = await http(n.url, 'POST', '/v1/namespaces', { name: 'alpha' });
    assert.equal(a.status, 201);
    assert.deepEqual(Object.keys(a.body).sort(), ['created', 'id', 'name']);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'alpha' })).status, 409);
    for (const name of ['beta', 'gamma', 'alps']) assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name })).status, 201);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/alpha')).body.id, a.body.id);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/nope')).status, 404);
    const p1 = await http(n.url, 'GET', '/v1/namespaces?page_size=2');
    assert.deepEqual(p1.body.items.map((x: { name: string }) => x.name), ['alpha', 'alps']);
    assert.ok(p1.body.next_cursor);
    const p2 = await http(n.url, 'GET', `/v1/namespaces?page_size=2&cursor=${encodeURIComponent(p1.body.next_cursor)}`);
    assert.deepEqual(p2.body.items.map((x: { name: string }) => x.name), ['beta', 'gamma']);
    assert.deepEqual((await http(n.url, 'GET', '/v1/namespaces?prefix=al')).body.items.map((x: { name: string }) => x.name), ['alpha', 'alps']);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces?page_size=1001')).status, 400);
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/gamma')).status, 204);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/gamma')).status, 404);
  });

  test('bad names and bodies are 400s naming the field', async () => {
    const cases: [string, unknown, string][] = [
      ['/v1/namespaces', { name: 'has space' }, 'body.name'],
      ['/v1/namespaces', {}, 'body.name is required'],
      ['/v1/namespaces', { name: 'x', extra: 1 }, 'body.extra'],
      ['/v1/namespaces/alpha/collections', { name: 'c' }, 'body.primary_key is required'],
      ['/v1/namespaces/alpha/collections', { name: 'c', primary_key: 'id', partitions: 0 }, 'body.partitions'],
      ['/v1/namespaces/alpha/collections', { name: 'c', primary_key: 'id', fields: { id: 'boolean' } }, 'primary key'],
      ['/v1/namespaces/alpha/collections', { name: 'c', primary_key: 'id', fields: { x: 'date' } }, 'body.fields.x'],
    ];
    for (const [path, body, needle] of cases) {
      const r = await http(n.url, 'POST', path, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.ok(r.body.error.message.includes(needle), `${r.body.error.message} should mention ${needle}`);
    }
  });

  test('a query parameter a route does not take is a 400 naming it on every route, and a refused delete deletes nothing', async () => {
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'qs' })).status, 201);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/qs/collections', { name: 'c', primary_key: 'id' })).status, 201);
    // A caller who adds a guard the API does not have must not have the operation done unguarded.
    const cases: [string, string, unknown?][] = [
      ['DELETE', '/v1/namespaces/qs/collections/c?dry_run=true'],
      ['DELETE', '/v1/namespaces/qs?if_empty=true'],
      ['GET', '/v1/namespaces/qs?consistency=eventual'],
      ['GET', '/v1/namespaces/qs/collections/c?verbose=1'],
      ['POST', '/v1/namespaces/qs/collections/c/documents?upsert=false', { upserts: [{ id: 'd' }] }],
      ['POST', '/v1/namespaces/qs/collections/c/query?limit=5', {}],
    ];
    for (const [method, path, body] of cases) {
      const r = await http(n.url, method, path, body);
      const param = new URL(path, n.url).searchParams.keys().next().value;
      assert.equal(r.status, 400, `${method} ${path}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.equal(r.body.error.message, `querystring.${param} is not a known field`);
    }
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/qs/collections/c')).status, 200, 'the collection is still there');
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/qs/collections/c/documents/d')).status, 404, 'and the refused write wrote nothing');
  });

  test('collections: create, 409, get, list, delete; a namespace with collections is 409 on delete', async () => {
    const c = await http(n.url, 'POST', '/v1/namespaces/alpha/collections', { name: 'users', primary_key: 'id' });
    assert.equal(c.status, 201);
    assert.equal(c.body.partitions, 4);
    assert.equal(c.body.primary_key, 'id');
    const taken = await http(n.url, 'POST', '/v1/namespaces/alpha/collections', { name: 'users', primary_key: 'id' });
    assert.equal(taken.status, 409);
    // In the caller's names, not the metastore's ids.
    assert.equal(taken.body.error.message, 'collection "users" already exists in namespace "alpha"');
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/nope/collections', { name: 'users', primary_key: 'id' })).status, 404);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/alpha/collections/users')).body.id, c.body.id);
    assert.deepEqual((await http(n.url, 'GET', '/v1/namespaces/alpha/collections')).body.items.map((x: { name: string }) => x.name), ['users']);
    const del = await http(n.url, 'DELETE', '/v1/namespaces/alpha');
    assert.equal(del.status, 409);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/alpha/collections/users/documents', { upserts: [{ id: 1, v: 'one' }] })).status, 200);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/alpha/collections/users/documents/1')).body.v, 'one');
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/alpha/collections/users')).status, 204);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/alpha/collections/users')).status, 404);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/alpha/collections/users/documents/1')).status, 404);
    assert.equal((await http(n.url, 'DELETE', '/v1/namespaces/alpha')).status, 204);
  });

  test('OpenAPI, health, readiness and metrics', async () => {
    const o = await http(n.url, 'GET', '/v1/openapi.json');
    assert.equal(o.body.openapi, '3.1.0');
    for (const p of ['/v1/namespaces', '/v1/namespaces/{ns}/collections/{c}/documents', '/v1/namespaces/{ns}/collections/{c}/query']) assert.ok(o.body.paths[p], p);
    assert.ok(o.body.paths['/v1/namespaces'].post.requestBody.content['application/json'].schema.properties.name.pattern);
    assert.deepEqual((await http(n.url, 'GET', '/healthz')).body, { status: 'ok' });
    assert.equal((await http(n.url, 'GET', '/readyz')).status, 200);
    const m = await (await fetch(n.metricsUrl, { signal: AbortSignal.timeout(15_000) })).text();
    for (const name of ['loam_http_requests_total', 'loam_meta_call_duration_seconds', 'loam_wal_flush_bytes', 'loam_worker_lag_records']) {
      assert.ok(m.includes(name), name);
    }
    assert.equal((await http(n.url, 'GET', '/v1/nothing')).body.error.code, 'not_found');
  });
});

describe('HTTP API: 429 and 503', () => {
  test('a collection over its unapplied backlog answers 429 quota_exceeded naming the quota, with Retry-After', async () => {
    const n = await testNode({ config: { backlog_max_records: 5 } });
    try {
      await http(n.url, 'POST', '/v1/namespaces', { name: 'ns' });
      await http(n.url, 'POST', '/v1/namespaces/ns/collections', { name: 'c', primary_key: 'id' });
      // A batch the quota can never hold is too large (413): waiting would not help.
      const alone = await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: Array.from({ length: 6 }, (_, i) => ({ id: i })) });
      assert.equal(alone.status, 413);
      assert.equal(alone.body.error.code, 'too_large');
      assert.match(alone.body.error.message, /adds 6 records, more than collection "c"'s unapplied_records quota \(5\).*split the batch/);
      assert.equal(alone.headers.get('retry-after'), null);
      // One that would fit once the workers catch up is 429 with Retry-After (the setting is the quota's default).
      assert.equal((await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: Array.from({ length: 3 }, (_, i) => ({ id: i })) })).status, 200);
      const r = await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: Array.from({ length: 3 }, (_, i) => ({ id: 10 + i })) });
      assert.equal(r.status, 429);
      assert.equal(r.body.error.code, 'quota_exceeded');
      assert.match(r.body.error.message, /unapplied_records quota \(5\)/);
      assert.ok(Number(r.headers.get('retry-after')) >= 1);
    } finally {
      await n.cleanup();
    }
  });

  test('a commit that cannot complete is a 503 with Retry-After, and the write is not acknowledged', async () => {
    let fail = false;
    const n = await testNode({
      meta: {
        faults: (point, op) => {
          if (fail && op === 'commitWal' && point === 'BeforeBegin') throw errors.staleCommit('x', 1, 0);
        },
      },
    });
    try {
      await http(n.url, 'POST', '/v1/namespaces', { name: 'ns' });
      await http(n.url, 'POST', '/v1/namespaces/ns/collections', { name: 'c', primary_key: 'id' });
      fail = true;
      const r = await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: [{ id: 'a' }] });
      assert.equal(r.status, 503);
      assert.ok(r.headers.get('retry-after'));
      fail = false;
      assert.equal((await http(n.url, 'GET', '/v1/namespaces/ns/collections/c/documents/a')).status, 404);
    } finally {
      await n.cleanup();
    }
  });

  test('a node without the log role answers writes with 503 role_unavailable', async () => {
    const n = await testNode({ config: { roles: ['query'] } });
    try {
      await http(n.url, 'POST', '/v1/namespaces', { name: 'ns' });
      await http(n.url, 'POST', '/v1/namespaces/ns/collections', { name: 'c', primary_key: 'id' });
      const r = await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/documents', { upserts: [{ id: 'a' }] });
      assert.equal(r.status, 503);
      assert.equal(r.body.error.code, 'role_unavailable');
    } finally {
      await n.cleanup();
    }
  });
});

// A collection's log retention through the HTTP API: shown on create and GET, set at create
// or with PUT …/retention, bounds checked with a 400 naming the field (and nothing written),
// and set only by a namespace or org admin — a writer or reader is refused (403).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS } from '../../src/meta/limits.js';
import { MAX_LOG_RETENTION_BYTES, MAX_LOG_RETENTION_MS, MIN_LOG_RETENTION_BYTES, MIN_LOG_RETENTION_MS } from '../../src/collection/retention.js';
import { keyedNode, raw, type KeyedNode } from '../client/helpers.js';

describe('collection log retention over HTTP', () => {
  let n: KeyedNode;
  const C = '/v1/namespaces/r/collections/c';
  const req = (key: string | null, method: string, path: string, body?: unknown) => raw(n.url, key, method, path, body);
  /** The retention the metastore holds for the collection's stream (what the workers trim by). */
  const stored = async (name = 'c') => {
    const ns = await n.node.meta.namespaceByName('default', 'r');
    const c = await n.node.meta.collectionByName(ns.id, name);
    return (await n.node.meta.stream(ns.id, c.streamId)).retention;
  };

  before(async () => {
    n = await keyedNode();
    // Malformed requests are charged to the quotas too; this suite sends many in a row.
    assert.equal((await req(n.operator, 'PUT', '/v1/orgs/default/quotas', { name: 'metadata_ops_rate', value: 1_000_000 })).status, 200);
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces', { name: 'other' })).status, 201);
  });
  after(async () => n.close());

  test('a new collection shows the default retention; create can set another; PUT replaces it and GET shows it', async () => {
    const c = await req(n.admin, 'POST', '/v1/namespaces/r/collections', { name: 'c', primary_key: 'id' });
    assert.equal(c.status, 201);
    assert.deepEqual(c.body.retention, { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null });
    assert.deepEqual((await req(n.admin, 'GET', C)).body.retention, { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null });

    const short = await req(n.admin, 'POST', '/v1/namespaces/r/collections', { name: 'short', primary_key: 'id', retention: { ms: 60_000, bytes: 8 << 20 } });
    assert.equal(short.status, 201);
    assert.deepEqual(short.body.retention, { ms: 60_000, bytes: 8 << 20 });
    assert.deepEqual(await stored('short'), { ms: 60_000, bytes: 8 << 20 });

    const put = await req(n.admin, 'PUT', `${C}/retention`, { ms: 3_600_000, bytes: MIN_LOG_RETENTION_BYTES });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    assert.equal(put.body.name, 'c');
    assert.deepEqual(put.body.retention, { ms: 3_600_000, bytes: MIN_LOG_RETENTION_BYTES });
    assert.deepEqual((await req(n.admin, 'GET', C)).body.retention, { ms: 3_600_000, bytes: MIN_LOG_RETENTION_BYTES });
    assert.deepEqual(await stored(), { ms: 3_600_000, bytes: MIN_LOG_RETENTION_BYTES });

    // Both null: the log is kept for ever. The bounds themselves are accepted.
    assert.deepEqual((await req(n.admin, 'PUT', `${C}/retention`, { ms: null, bytes: null })).body.retention, { ms: null, bytes: null });
    assert.deepEqual(await stored(), { ms: null, bytes: null });
    for (const r of [
      { ms: MIN_LOG_RETENTION_MS, bytes: MAX_LOG_RETENTION_BYTES },
      { ms: MAX_LOG_RETENTION_MS, bytes: null },
    ]) {
      assert.equal((await req(n.admin, 'PUT', `${C}/retention`, r)).status, 200);
      assert.deepEqual(await stored(), r);
    }
  });

  test('out-of-range and malformed retentions are 400s naming the field, and change nothing', async () => {
    await req(n.admin, 'PUT', `${C}/retention`, { ms: 3_600_000, bytes: null });
    const cases: [unknown, string][] = [
      [{ ms: MIN_LOG_RETENTION_MS - 1, bytes: null }, `body.ms must be >= ${MIN_LOG_RETENTION_MS}`],
      [{ ms: MAX_LOG_RETENTION_MS + 1, bytes: null }, `body.ms must be <= ${MAX_LOG_RETENTION_MS}`],
      [{ ms: 0, bytes: null }, 'body.ms'],
      [{ ms: -5_000, bytes: null }, 'body.ms'],
      [{ ms: 1500.5, bytes: null }, 'body.ms must be integer or null'],
      [{ ms: '3600000', bytes: null }, 'body.ms must be integer or null'],
      [{ ms: null, bytes: MIN_LOG_RETENTION_BYTES - 1 }, `body.bytes must be >= ${MIN_LOG_RETENTION_BYTES}`],
      [{ ms: null, bytes: MAX_LOG_RETENTION_BYTES + 1 }, `body.bytes must be <= ${MAX_LOG_RETENTION_BYTES}`],
      [{ ms: null }, 'body.bytes is required'],
      [{ bytes: null }, 'body.ms is required'],
      [{ ms: null, bytes: null, days: 1 }, 'body.days is not a known field'],
    ];
    for (const [body, needle] of cases) {
      const r = await req(n.admin, 'PUT', `${C}/retention`, body);
      assert.equal(r.status, 400, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.ok(r.body.error.message.includes(needle), `${r.body.error.message} should mention ${needle}`);
    }
    assert.deepEqual(await stored(), { ms: 3_600_000, bytes: null }, 'a refused PUT wrote nothing');
    // At create: the field is named under body.retention, and no collection is made.
    const bad = await req(n.admin, 'POST', '/v1/namespaces/r/collections', { name: 'bad', primary_key: 'id', retention: { ms: 10, bytes: null } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /^body\.retention\.ms must be >= 1000/);
    assert.equal((await req(n.admin, 'GET', '/v1/namespaces/r/collections/bad')).status, 404);
    // Unknown collection or namespace: 404; GET on the retention path: 405 naming PUT.
    assert.equal((await req(n.admin, 'PUT', '/v1/namespaces/r/collections/nope/retention', { ms: null, bytes: null })).status, 404);
    assert.equal((await req(n.admin, 'PUT', '/v1/namespaces/nope/collections/c/retention', { ms: null, bytes: null })).status, 404);
    const g = await req(n.admin, 'GET', `${C}/retention`);
    assert.equal(g.status, 405);
    assert.match(g.body.error.message, /allowed: PUT/);
  });

  test("a writer or reader cannot change retention (403, nothing written); a namespace admin can, only in its namespace", async () => {
    await req(n.admin, 'PUT', `${C}/retention`, { ms: 3_600_000, bytes: null });
    const key = async (role: string, namespace: string) => {
      const k = await req(n.admin, 'POST', '/v1/keys', { role, namespace });
      assert.equal(k.status, 201, JSON.stringify(k.body));
      return k.body.key as string;
    };
    const writer = await key('writer', 'r');
    const reader = await key('reader', 'r');
    const nsAdmin = await key('namespace_admin', 'r');
    const otherAdmin = await key('namespace_admin', 'other');
    for (const [k, who] of [
      [writer, 'writer'],
      [reader, 'reader'],
      [otherAdmin, "another namespace's admin"],
    ] as const) {
      const r = await req(k, 'PUT', `${C}/retention`, { ms: MIN_LOG_RETENTION_MS, bytes: null });
      assert.equal(r.status, 403, `${who}: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.error.code, 'forbidden');
      assert.match(r.body.error.message, /collection\.retention\.set/);
    }
    assert.deepEqual(await stored(), { ms: 3_600_000, bytes: null });
    // The writer still writes, and reads the retention.
    assert.equal((await req(writer, 'POST', `${C}/documents`, { upserts: [{ id: 'a' }] })).status, 200);
    assert.deepEqual((await req(reader, 'GET', C)).body.retention, { ms: 3_600_000, bytes: null });
    const ok = await req(nsAdmin, 'PUT', `${C}/retention`, { ms: MIN_LOG_RETENTION_MS, bytes: null });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.deepEqual(await stored(), { ms: MIN_LOG_RETENTION_MS, bytes: null });
    assert.equal((await req(null, 'PUT', `${C}/retention`, { ms: null, bytes: null })).status, 401);
  });

  test('the OpenAPI document declares the route, its body bounds and the retention in collection answers', async () => {
    const doc = (await req(n.admin, 'GET', '/v1/openapi.json')).body;
    const op = doc.paths['/v1/namespaces/{ns}/collections/{c}/retention'].put;
    assert.equal(op.operationId, 'setCollectionRetention');
    const body = op.requestBody.content['application/json'].schema;
    assert.deepEqual(body.required, ['ms', 'bytes']);
    assert.equal(body.properties.ms.minimum, MIN_LOG_RETENTION_MS);
    assert.equal(body.properties.bytes.maximum, MAX_LOG_RETENTION_BYTES);
    for (const s of ['200', '400', '401', '403', '404', '429']) assert.ok(op.responses[s], `declares ${s}`);
    assert.ok(doc.paths['/v1/namespaces/{ns}/collections/{c}'].get.responses['200'].content['application/json'].schema.properties.retention);
    assert.ok(doc.paths['/v1/namespaces/{ns}/collections'].post.requestBody.content['application/json'].schema.properties.retention);
  });
});

// Tenancy over HTTP (issue 8's security tests), on the metastore backend LOAM_TEST_BACKEND:
// 401 for missing, malformed, unknown, wrong-secret, expired and revoked keys; 403 for a
// wrong role or scope; the tenant fence (another org's key never sees a byte); list
// filtering; 429 with Retry-After per quota; a revocation reaching a second node through
// the change feed; and no secret or key hash in the logs. Run with each authorizer
// (LOAM_TEST_AUTHORIZER: builtin, openfga), with the same outcomes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { answerAll, answerHead } from '../harness/raw-http.js';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { backendFactory, type BackendFactory } from '../harness/backends.js';
import { authorizerSettings, TEST_AUTHORIZER } from '../harness/authorizers.js';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { hashSecret, parseKey } from '../../src/control/keys.js';
import { MAX_USAGE_ROWS } from '../../src/control/types.js';
import { call } from './helpers.js';

let f: BackendFactory;
let a: LoamNode;
let b: LoamNode;
let admin: string;
/** The deployment's operator key (the only one that sets quotas and creates orgs). */
let operator: string;
let logs = '';
/** Collections need multi-item transactions; a single-item backend (alternator) runs the key cases only (by capability). */
let dataPlane = true;
const secrets: string[] = [];

function remember(token: string): string {
  secrets.push(token, parseKey(token)!.secret, hashSecret(parseKey(token)!.secret));
  return token;
}

/** The operator sets (or, with null, clears) a quota of org "default" or one of its namespaces. */
async function setQuota(name: string, value: number | null, namespace?: string): Promise<void> {
  const r = await call(a, 'PUT', '/v1/orgs/default/quotas', operator, { name, value, ...(namespace ? { namespace } : {}) });
  assert.equal(r.status, 200, r.text);
}

async function newKey(node: LoamNode, key: string, body: unknown): Promise<string> {
  const r = await call(node, 'POST', '/v1/keys', key, body);
  assert.equal(r.status, 201, r.text);
  return remember(r.body.key);
}

before(async () => {
  f = backendFactory();
  const meta = await f.open();
  dataPlane = meta.capabilities().transactions === 'multi-item';
  const store = new MemoryStore();
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'debug', apply_poll_ms: 100, ...(await authorizerSettings()) });
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logs += chunk.toString();
      cb();
    },
  });
  a = await startNode(config, { meta, store, logger: pino({ level: 'debug' }, sink) });
  b = await startNode(config, { meta: await f.connect(meta), store, logger: pino({ level: 'debug' }, sink) });
  assert.ok(a.bootstrapKey, 'the first node bootstraps an admin key');
  assert.equal(b.bootstrapKey, null, 'a second node does not');
  admin = remember(a.bootstrapKey!);
  assert.ok(a.operatorKey, 'the first node bootstraps an operator key');
  assert.equal(b.operatorKey, null);
  operator = remember(a.operatorKey!);
  for (const ns of ['alpha', 'beta']) assert.equal((await call(a, 'POST', '/v1/namespaces', admin, { name: ns })).status, 201);
  if (!dataPlane) return;
  for (const ns of ['alpha', 'beta']) assert.equal((await call(a, 'POST', `/v1/namespaces/${ns}/collections`, admin, { name: 'docs', primary_key: 'id' })).status, 201);
  assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/documents', admin, { upserts: [{ id: 'd1', secret: 'alpha-data' }] })).status, 200);
});

after(async () => {
  await a?.close();
  await b?.close();
  await f?.cleanup();
});

describe(`tenancy over HTTP on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'} with the ${TEST_AUTHORIZER} authorizer`, () => {
  test('401: missing, malformed, unknown, wrong-secret, expired and revoked keys', async () => {
    const path = '/v1/namespaces';
    const missing = await call(a, 'GET', path, null);
    assert.equal(missing.status, 401);
    assert.match(missing.body.error.message, /missing API key/);
    for (const bad of ['nope', 'loam_xyz_abc', admin.slice(0, -1)]) assert.equal((await call(a, 'GET', path, bad)).status, 401);
    const { keyId, secret } = parseKey(admin)!;
    const unknown = await call(a, 'GET', path, `loam_${'0'.repeat(16)}_${secret}`);
    const wrong = await call(a, 'GET', path, `loam_${keyId}_${'0'.repeat(64)}`);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.status, 401);
    assert.deepEqual(unknown.body, wrong.body, 'an unknown key id and a wrong secret are indistinguishable');
    const short = await newKey(a, admin, { role: 'reader', ttl_s: 1 });
    assert.equal((await call(a, 'GET', path, short)).status, 200);
    await new Promise((r) => setTimeout(r, 1_100));
    const expired = await call(a, 'GET', path, short);
    assert.equal(expired.status, 401);
    assert.match(expired.body.error.message, /expired/);
    const doomed = await newKey(a, admin, { role: 'reader' });
    assert.equal((await call(a, 'GET', path, doomed)).status, 200);
    assert.equal((await call(a, 'DELETE', `/v1/keys/${parseKey(doomed)!.keyId}`, admin)).status, 204);
    const revoked = await call(a, 'GET', path, doomed);
    assert.equal(revoked.status, 401);
    assert.match(revoked.body.error.message, /revoked/);
    assert.equal((await call(a, 'GET', path, doomed)).status, 401, 'and stays refused (no cached verification survives)');
    // Two Authorization headers, in either order: which key is meant is ambiguous (Node keeps the first, a proxy may use the last).
    for (const keys of [[admin, doomed], [doomed, admin], [admin, admin]]) {
      const head = await answerAll(a.url, `GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer ${keys[0]}\r\nauthorization: Bearer ${keys[1]}\r\n\r\n`);
      assert.match(head, /^HTTP\/1\.1 401 /, head);
      assert.match(head, /2 Authorization headers: send exactly one/);
    }
  });

  test('HEAD is GET without the body: admitted as the GET, answering its status', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const reader = await newKey(a, admin, { role: 'reader' });
    const paths = ['/v1/namespaces', '/v1/namespaces/alpha', '/v1/namespaces/alpha/collections/docs/documents/d1', '/v1/namespaces/alpha/collections/docs/documents/nope', '/v1/quotas'];
    for (const key of [admin, reader]) {
      for (const path of paths) {
        const get = await call(a, 'GET', path, key);
        const head = await fetch(a.url + path, { method: 'HEAD', headers: { authorization: `Bearer ${key}` }, signal: AbortSignal.timeout(10_000) });
        assert.equal(head.status, get.status, `HEAD ${path}: ${head.status}, GET ${get.status}`);
        assert.equal(await head.text(), '');
      }
    }
    assert.equal((await fetch(a.url + '/v1/namespaces', { method: 'HEAD', signal: AbortSignal.timeout(10_000) })).status, 401);
  });

  test('403: a reader cannot write or create; a namespace-scoped key sees only its namespace', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const reader = await newKey(a, admin, { role: 'reader' });
    assert.equal((await call(a, 'GET', '/v1/namespaces/alpha/collections/docs/documents/d1', reader)).status, 200);
    const w = await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/documents', reader, { upserts: [{ id: 'x' }] });
    assert.equal(w.status, 403);
    assert.equal(w.body.error.code, 'forbidden');
    assert.equal((await call(a, 'POST', '/v1/namespaces', reader, { name: 'gamma' })).status, 403);
    assert.equal((await call(a, 'POST', '/v1/keys', reader, { role: 'org_admin' })).status, 403);
    // A writer on alpha only (role bound on the namespace).
    const alphaWriter = await newKey(a, admin, { role: 'writer', namespace: 'alpha' });
    assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/documents', alphaWriter, { upserts: [{ id: 'd2' }] })).status, 200);
    assert.equal((await call(a, 'GET', '/v1/namespaces/beta/collections/docs/documents/d1', alphaWriter)).status, 403);
    assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections', alphaWriter, { name: 'more', primary_key: 'id' })).status, 403);
    let list = await call(a, 'GET', '/v1/namespaces', alphaWriter);
    assert.deepEqual(list.body.items.map((n: { name: string }) => n.name), ['alpha'], 'lists are filtered');
    // A read-only scope caps an org-wide writer; an ns: scope caps an org-wide reader.
    const scopedRead = await newKey(a, admin, { role: 'writer', scopes: ['read'] });
    assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/documents', scopedRead, { upserts: [{ id: 'd3' }] })).status, 403);
    const created = await call(a, 'POST', '/v1/keys', admin, { role: 'reader', scopes: ['read', 'ns:beta', 'read', 'ns:beta'] });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.body.info?.scopes ?? created.body.scopes, ['read', 'ns:beta'], 'a scope named twice is stored once');
    const betaOnly = remember(created.body.key);
    assert.equal((await call(a, 'GET', '/v1/namespaces/alpha', betaOnly)).status, 403);
    assert.equal((await call(a, 'GET', '/v1/namespaces/beta', betaOnly)).status, 200);
    list = await call(a, 'GET', '/v1/namespaces', betaOnly);
    assert.deepEqual(list.body.items.map((n: { name: string }) => n.name), ['beta']);
  });

  test('the tenant fence: another org\'s admin key gets 404 or 403 on every route, never a byte', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    await a.control!.createOrg('other');
    const other = remember((await a.tenancy!.createKey({ org: 'other', role: 'org_admin', createdBy: 'test' })).token);
    const routes: [string, string, unknown?][] = [
      ['GET', '/v1/namespaces/alpha'],
      ['DELETE', '/v1/namespaces/alpha'],
      ['GET', '/v1/namespaces/alpha/collections'],
      ['POST', '/v1/namespaces/alpha/collections', { name: 'x', primary_key: 'id' }],
      ['GET', '/v1/namespaces/alpha/collections/docs'],
      ['DELETE', '/v1/namespaces/alpha/collections/docs'],
      ['POST', '/v1/namespaces/alpha/collections/docs/documents', { upserts: [{ id: 'evil' }] }],
      ['GET', '/v1/namespaces/alpha/collections/docs/documents/d1'],
      ['POST', '/v1/namespaces/alpha/collections/docs/query', {}],
      ['DELETE', `/v1/keys/${parseKey(admin)!.keyId}`],
      ['POST', '/v1/bindings', { key_id: parseKey(admin)!.keyId, role: 'reader' }],
    ];
    for (const [m, p, body] of routes) {
      const r = await call(a, m, p, other, body);
      assert.ok(r.status === 404 || r.status === 403, `${m} ${p} → ${r.status} ${r.text}`);
      assert.ok(!r.text.includes('alpha-data'), `${m} ${p} leaks data`);
    }
    const list = await call(a, 'GET', '/v1/namespaces', other);
    assert.deepEqual(list.body.items, []);
    const keys = await call(a, 'GET', '/v1/keys', other);
    assert.equal(keys.body.items.length, 1, 'only its own key');
    for (const p of ['/v1/bindings', '/v1/usage', '/v1/quotas']) {
      const r = await call(a, 'GET', p, other);
      assert.equal(r.status, 200, `${p}: ${r.text}`);
      assert.ok(!r.text.includes(parseKey(admin)!.keyId) && !r.text.includes('"default"'), `${p} shows nothing of the other org: ${r.text}`);
    }
    assert.equal((await call(a, 'GET', '/v1/quotas?namespace=alpha', other)).status, 404, 'namespace names resolve in the caller\'s org');

    // The same names in the other org are its own; the victim's tokens and cursors open nothing there.
    assert.equal((await call(a, 'POST', '/v1/namespaces', other, { name: 'alpha' })).status, 201);
    assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections', other, { name: 'docs', primary_key: 'id' })).status, 201);
    const w = await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/documents', admin, { upserts: [{ id: 'd9', secret: 'alpha-data' }] });
    assert.equal(w.status, 200);
    const q1 = await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/query', admin, { limit: 1 });
    assert.equal(q1.status, 200);
    assert.ok(q1.body.next_cursor, 'the victim has a cursor');
    const probes: [string, string, unknown?][] = [
      ['GET', '/v1/namespaces/alpha/collections/docs/documents/d1'],
      ['GET', `/v1/namespaces/alpha/collections/docs/documents/d9?token=${w.body.token}`],
      ['POST', '/v1/namespaces/alpha/collections/docs/query', { token: w.body.token }],
      ['POST', '/v1/namespaces/alpha/collections/docs/query', { cursor: q1.body.next_cursor }],
      ['POST', '/v1/namespaces/alpha/collections/docs/query', {}],
    ];
    for (const [m, p, body] of probes) {
      const r = await call(a, m, p, other, body);
      assert.ok(!r.text.includes('alpha-data'), `${m} ${p} ${JSON.stringify(body)} leaks data: ${r.text}`);
      assert.ok([200, 400, 404].includes(r.status), `${m} ${p} → ${r.status} ${r.text}`);
      if (r.status === 200 && r.body.documents) assert.deepEqual(r.body.documents, [], 'its own collection is empty');
    }
    // The victim's data and key are untouched.
    assert.equal((await call(a, 'GET', '/v1/namespaces/alpha/collections/docs/documents/d1', admin)).body.secret, 'alpha-data');
    assert.equal((await call(a, 'GET', '/v1/namespaces', admin)).status, 200);
  });

  test('a revocation reaches a second node through the change feed', async () => {
    const k = await newKey(a, admin, { role: 'reader' });
    assert.equal((await call(b, 'GET', '/v1/namespaces', k)).status, 200, 'node b caches the key');
    assert.equal((await call(a, 'DELETE', `/v1/keys/${parseKey(k)!.keyId}`, admin)).status, 204);
    const t0 = Date.now();
    let status = 200;
    while (Date.now() - t0 < 5_000 && status === 200) {
      status = (await call(b, 'GET', '/v1/namespaces', k)).status;
      if (status === 200) await new Promise((r) => setTimeout(r, 50));
    }
    assert.equal(status, 401, 'node b refuses the revoked key');
    assert.ok(Date.now() - t0 < 5_000, `well before the ${30} s cache expiry (${Date.now() - t0} ms)`);
  });

  test('a revoked grant and a lowered quota reach requests the gateways already admitted', async () => {
    // Both gateways cache the admission decision of a key for a route after its first use;
    // the change feed must end it on each of them (spec §6).
    const until = async (node: LoamNode, path: string, key: string, want: number) => {
      const t0 = Date.now();
      let r = await call(node, 'GET', path, key);
      while (r.status !== want && Date.now() - t0 < 5_000) {
        await new Promise((res) => setTimeout(res, 50));
        r = await call(node, 'GET', path, key);
      }
      assert.equal(r.status, want, `${path} on the ${node === a ? 'first' : 'second'} node: ${r.text}`);
      return r;
    };
    const k = await newKey(a, admin, { role: 'reader', namespace: 'alpha' });
    for (const node of [a, b]) for (let i = 0; i < 3; i++) assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', k)).status, 200);
    const del = await fetch(a.url + '/v1/bindings', {
      method: 'DELETE',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ key_id: parseKey(k)!.keyId, role: 'reader', namespace: 'alpha' }),
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(del.status, 204, await del.text());
    for (const node of [a, b]) await until(node, '/v1/namespaces/alpha', k, 403);

    for (const node of [a, b]) for (let i = 0; i < 3; i++) assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', admin)).status, 200);
    await setQuota('request_rate', 1, 'alpha'); // the lowest a request rate goes
    try {
      for (const node of [a, b]) {
        const r = await until(node, '/v1/namespaces/alpha', admin, 429);
        assert.match(r.body.error.message, /request_rate/);
      }
    } finally {
      await setQuota('request_rate', null, 'alpha');
    }
    for (const node of [a, b]) await until(node, '/v1/namespaces/alpha', admin, 200);
  });

  test('429 with Retry-After per quota, naming it; other namespaces unaffected; nothing of a refused write applied', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const q = (name: string, value: number | null) => setQuota(name, value, 'beta');
    const betaId = (await call(a, 'GET', '/v1/namespaces/beta', admin)).body.id as number;
    /**
     * Takes one slot of the semaphore (the lowest slot quota is 1), as a query in flight would,
     * on both nodes: a query sent to a is served by the collection's owner (spec §6), which
     * placement picks among a and b.
     */
    const holdSlot = async (name: 'concurrent_query_slots' | 'namespace_query_slots', key: string) => {
      const releases: (() => void)[] = [];
      for (const node of [a, b]) {
        // b learns the quota through the change feed: the slot is taken once it has (a slot
        // taken under the old size would leave the owner's semaphore with one free).
        const deadline = Date.now() + 10_000;
        while ((await node.tenancy!.quotas.value('default', betaId, name)) !== 1) {
          assert.ok(Date.now() < deadline, `${name} 1 reaches ${node === a ? 'a' : 'b'} within 10 s`);
          await new Promise((r) => setTimeout(r, 20));
        }
        const release = (await node.tenancy!.quotas.slotLimiter('default', betaId, name, key)).sem.tryAcquire(1);
        assert.ok(release, `a free ${name} slot to hold`);
        releases.push(release);
      }
      return () => releases.forEach((r) => r());
    };
    const over = (r: Awaited<ReturnType<typeof call>>, name: string) => {
      assert.equal(r.status, 429, r.text);
      assert.ok(Number(r.retryAfter) >= 1, 'Retry-After');
      assert.match(r.body.error.message, new RegExp(name));
    };
    const doc = '/v1/namespaces/beta/collections/docs/documents';
    // request rate
    await q('request_rate', 2);
    const rs = [];
    for (let i = 0; i < 5; i++) rs.push(await call(a, 'GET', '/v1/namespaces/beta', admin));
    over(rs.find((r) => r.status === 429)!, 'request_rate');
    assert.equal((await call(a, 'GET', '/v1/namespaces/alpha', admin)).status, 200, 'alpha is unaffected');
    await q('request_rate', null);
    // ingest bytes/s
    await q('ingest_bytes_per_s', 1024); // the lowest it goes; per gateway 512 bytes/s
    await call(a, 'POST', doc, admin, { upserts: [{ id: 'i0', pad: 'x'.repeat(1_100) }] });
    const big = await call(a, 'POST', doc, admin, { upserts: [{ id: 'refused', pad: 'x'.repeat(1_100) }] });
    over(big, 'ingest_bytes_per_s');
    // A chunked body (no Content-Length) is counted too.
    const body = new TextEncoder().encode(JSON.stringify({ upserts: [{ id: 'chunked', pad: 'x'.repeat(1_100) }] }));
    const chunked = await fetch(a.url + doc, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: new ReadableStream({ start: (c) => (c.enqueue(body), c.close()) }),
      duplex: 'half',
      signal: AbortSignal.timeout(15_000),
    } as RequestInit);
    const chunkedText = await chunked.text();
    over({ status: chunked.status, body: JSON.parse(chunkedText), text: chunkedText, retryAfter: chunked.headers.get('retry-after') }, 'ingest_bytes_per_s');
    await q('ingest_bytes_per_s', null);
    assert.equal((await call(a, 'GET', `${doc}/refused`, admin)).status, 404, 'nothing of a refused write is applied');
    // concurrent queries: the one slot taken → waits 800 ms, then 429
    await q('concurrent_query_slots', 1);
    assert.equal((await call(a, 'POST', '/v1/namespaces/beta/collections/docs/query', admin, {})).status, 200, 'the limiters exist');
    let release = await holdSlot('concurrent_query_slots', `${betaId}/docs`);
    const t0 = Date.now();
    over(await call(a, 'POST', '/v1/namespaces/beta/collections/docs/query', admin, {}), 'concurrent_query_slots');
    assert.ok(Date.now() - t0 >= 700, 'it waited for a slot first');
    assert.equal((await call(a, 'POST', '/v1/namespaces/alpha/collections/docs/query', admin, {})).status, 200);
    release();
    await q('concurrent_query_slots', null);
    // the namespace-wide semaphore at the gateway
    await q('namespace_query_slots', 1);
    assert.equal((await call(a, 'GET', `${doc}/i0`, admin)).status, 200);
    release = await holdSlot('namespace_query_slots', `${betaId}`);
    over(await call(a, 'GET', `${doc}/i0`, admin), 'namespace_query_slots');
    assert.equal((await call(a, 'GET', '/v1/namespaces/alpha/collections/docs/documents/d1', admin)).status, 200, 'alpha is unaffected');
    release();
    await q('namespace_query_slots', null);
    assert.equal((await call(a, 'GET', `${doc}/i0`, admin)).status, 200, 'a slot refused earlier is not held');
    // unapplied data per collection
    await q('unapplied_records', 1);
    const alone = await call(a, 'POST', doc, admin, { upserts: [{ id: 'u1' }, { id: 'u2' }] });
    assert.equal(alone.status, 413, `a batch the quota can never hold: ${alone.text}`);
    assert.match(alone.body.error.message, /unapplied_records/);
    await q('unapplied_records', null);
    // storage bytes (soft, measured)
    await q('storage_bytes', 1);
    over(await call(a, 'POST', doc, admin, { upserts: [{ id: 's1' }] }), 'storage_bytes');
    await q('storage_bytes', null);
    // metadata operations
    await q('metadata_ops_rate', 1);
    const m1 = await call(a, 'POST', '/v1/namespaces/beta/collections', admin, { name: 'm1', primary_key: 'id' });
    const m2 = await call(a, 'POST', '/v1/namespaces/beta/collections', admin, { name: 'm2', primary_key: 'id' });
    assert.ok(m1.status === 201 || m1.status === 429);
    over(m1.status === 429 ? m1 : m2, 'metadata_ops_rate');
    await q('metadata_ops_rate', null);
    const show = await call(a, 'GET', '/v1/quotas?namespace=beta', admin);
    assert.equal(show.body.effective.concurrent_query_slots, 16);
  });

  test('quotas hold whatever the requests: a body larger than its bucket leaves debt, a refused malformed request is charged, a spent quota is refused before the body, deletes pass the storage quota', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const q = (name: string, value: number | null) => setQuota(name, value, 'beta');
    const doc = '/v1/namespaces/beta/collections/docs/documents';
    // ingest bytes/s: 1024 (512 per gateway). A body of 8 KB takes a full bucket, and the rest is
    // debt: a second later a small write is still refused (before, each large body cost one second).
    await q('ingest_bytes_per_s', 1024);
    await new Promise((r) => setTimeout(r, 1_100)); // a full bucket
    const big = await call(a, 'POST', doc, admin, { upserts: [{ id: 'debt', pad: 'x'.repeat(8_000) }] });
    assert.equal(big.status, 200, big.text);
    await new Promise((r) => setTimeout(r, 1_100));
    const small = await call(a, 'POST', doc, admin, { upserts: [{ id: 'after-debt', pad: 'x'.repeat(200) }] });
    assert.equal(small.status, 429, `the 8 KB body's debt is not paid back after 1 s: ${small.text}`);
    assert.match(small.body.error.message, /ingest_bytes_per_s/);
    // Spent: a write declaring a 30 MiB body is refused at once, its body never sent.
    const head = await answerHead(a.url, `POST ${doc} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${admin}\r\nContent-Type: application/json\r\nContent-Length: ${30 * 1024 * 1024}\r\n\r\n{"upserts":[`);
    assert.match(head, /^HTTP\/1\.1 429 /);
    assert.match(head, /\r\nretry-after: \d+/i);
    await q('ingest_bytes_per_s', null);
    assert.equal((await call(a, 'GET', `${doc}/after-debt`, admin)).status, 404, 'nothing of a refused write is applied');
    // request_rate: a malformed request (400) is charged like any other. The org's own routes are
    // admitted on the node asked (a query may be served by the collection's owner, which learns
    // a new quota through the change feed).
    await setQuota('request_rate', 2);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await call(a, 'POST', '/v1/namespaces', admin, { bogus: 1 })).status);
    assert.ok(statuses.includes(429) && statuses[0] === 400, `six malformed creates at request_rate 2: ${statuses}`);
    await setQuota('request_rate', null);
    // storage_bytes: at its quota a namespace still deletes and erases (it can only shrink), and upserts are refused.
    await q('storage_bytes', 1);
    assert.equal((await call(a, 'POST', doc, admin, { upserts: [{ id: 's2' }] })).status, 429);
    const del = await call(a, 'POST', doc, admin, { deletes: ['debt'] });
    assert.equal(del.status, 200, del.text);
    assert.equal((await call(a, 'GET', `${doc}/debt?token=${encodeURIComponent(del.body.token)}`, admin)).status, 404);
    await q('storage_bytes', null);
  });

  test(`usage: more rows than a page (MAX_USAGE_ROWS, ${MAX_USAGE_ROWS}) are answered in pages, each row once`, async () => {
    // GET /v1/usage answered the first MAX_USAGE_ROWS rows (lowest namespace ids first) and
    // nothing said more existed: an org with a few hundred active namespaces lost the rest.
    await a.control!.createOrg('paged');
    const HOURS = 2 * MAX_USAGE_ROWS + 500;
    const rows = Array.from({ length: HOURS }, (_, i) => ({ org: 'paged', ns: null, metric: 'ingest_bytes', window: i * 3_600_000, value: i + 1 }));
    for (let lo = 0; lo < rows.length; lo += MAX_USAGE_ROWS) await a.control!.putUsage(rows.slice(lo, lo + MAX_USAGE_ROWS));
    for (const pageSize of [undefined, 700]) {
      const seen = new Map<string, number>();
      let cursor: string | null = null;
      let pages = 0;
      do {
        const qs = new URLSearchParams({ metric: 'ingest_bytes', ...(pageSize ? { page_size: String(pageSize) } : {}), ...(cursor ? { cursor } : {}) });
        const r = await call(a, 'GET', `/v1/orgs/paged/usage?${qs}`, operator);
        assert.equal(r.status, 200, r.text);
        const items = r.body.items as { ns: number | null; window: number; value: number }[];
        assert.ok(items.length <= (pageSize ?? MAX_USAGE_ROWS), `a page of ${items.length}`);
        for (const u of items) {
          const k = `${u.ns}/${u.window}`;
          assert.ok(!seen.has(k), `row ${k} answered twice`);
          seen.set(k, u.value);
        }
        cursor = r.body.next_cursor as string | null;
        assert.ok(++pages <= 10, 'the pages end');
      } while (cursor);
      for (const u of rows) assert.equal(seen.get(`null/${u.window}`), u.value, `window ${u.window} (page size ${pageSize ?? 'default'})`);
    }
    assert.equal((await call(a, 'GET', '/v1/usage?cursor=nonsense', admin)).status, 400);
    // Two rows of the admin's org at least, on every backend (one without a data plane counts no requests).
    await a.control!.putUsage([1, 2].map((h) => ({ org: 'default', ns: null, metric: 'ingest_bytes', window: h * 3_600_000, value: h })));
    const first = await call(a, 'GET', '/v1/usage?page_size=1', admin);
    assert.equal(first.status, 200, first.text);
    assert.equal(typeof first.body.next_cursor, 'string', "an org key's pages go on too");
  });

  test('usage: both gateways count admitted requests and ingest bytes per namespace', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const alpha = (await call(a, 'GET', '/v1/namespaces/alpha', admin)).body.id as number;
    const total = async (metric: string) => {
      await Promise.all([a.tenancy!.usage.flush(), b.tenancy!.usage.flush()]);
      const r = await call(a, 'GET', `/v1/usage?metric=${metric}`, admin);
      assert.equal(r.status, 200, r.text);
      return (r.body.items as { ns: number | null; value: number }[]).filter((u) => u.ns === alpha).reduce((x, u) => x + u.value, 0);
    };
    const requests0 = await total('requests');
    const bytes0 = await total('ingest_bytes');
    for (let i = 0; i < 5; i++) assert.equal((await call(a, 'GET', '/v1/namespaces/alpha', admin)).status, 200);
    for (let i = 0; i < 3; i++) assert.equal((await call(b, 'GET', '/v1/namespaces/alpha', admin)).status, 200);
    const body = JSON.stringify({ upserts: [{ id: 'counted', pad: 'y'.repeat(100) }] });
    const w = await fetch(a.url + '/v1/namespaces/alpha/collections/docs/documents', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    assert.equal(w.status, 200, await w.text());
    assert.equal((await total('requests')) - requests0, 9, 'eight reads on two gateways and one write');
    assert.equal((await total('ingest_bytes')) - bytes0, Buffer.byteLength(body), 'the write\'s bytes');
    assert.equal((await call(a, 'GET', '/v1/usage?metric=bogus', admin)).status, 400);

    // A namespace-scoped key sees its namespace's usage and quotas, nothing of the others.
    const betaOnly = await newKey(a, admin, { role: 'reader', scopes: ['read', 'ns:beta'] });
    const beta = (await call(a, 'GET', '/v1/namespaces/beta', admin)).body.id as number;
    const seen = (await call(a, 'GET', '/v1/usage', betaOnly)).body.items as { ns: number | null }[];
    assert.ok(seen.every((u) => u.ns === null || u.ns === beta), `only beta's rows: ${JSON.stringify(seen)}`);
    assert.ok((await call(a, 'GET', '/v1/usage', admin)).body.items.some((u: { ns: number }) => u.ns === alpha), 'the admin sees alpha');
    assert.equal((await call(a, 'GET', '/v1/quotas?namespace=alpha', betaOnly)).status, 404);
    assert.equal((await call(a, 'GET', '/v1/quotas?namespace=beta', betaOnly)).status, 200);
  });

  test('keys and bindings are listed a page at a time, every item once', async () => {
    // Identity only: last_used may change between two reads.
    const id = (x: { keyId?: string; subject?: string; role?: string; target?: unknown }) => x.keyId ?? `${x.subject} ${x.role} ${JSON.stringify(x.target)}`;
    for (const path of ['/v1/keys', '/v1/bindings']) {
      const whole = await call(a, 'GET', `${path}?page_size=1000`, admin);
      assert.equal(whole.status, 200, whole.text);
      assert.ok(whole.body.items.length >= 3, `${path}: enough items to page through`);
      const seen: string[] = [];
      let cursor: string | null = null;
      for (let i = 0; i < 100; i++) {
        const r = await call(a, 'GET', `${path}?page_size=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, admin);
        assert.equal(r.status, 200, r.text);
        assert.ok(r.body.items.length <= 2);
        seen.push(...r.body.items.map(id));
        cursor = r.body.next_cursor;
        if (!cursor) break;
      }
      assert.deepEqual(seen, whole.body.items.map(id), `${path}: the pages add up to the whole list`);
      assert.equal((await call(a, 'GET', `${path}?page_size=0`, admin)).status, 400);
    }
  });

  test('a cursor no page of the list returned is a 400 naming querystring.cursor, the parameter the caller sent', async () => {
    // Each list's own validity rule: a key id of 16 hex digits, an org name (a binding's cursor is any position).
    const lists: [string, string, string[]][] = [
      ['/v1/keys', admin, ['garbage', 'ffff']],
      ['/v1/orgs', operator, ['%00']],
    ];
    for (const [path, key, cursors] of lists) {
      for (const cursor of cursors) {
        const r = await call(a, 'GET', `${path}?cursor=${cursor}`, key);
        assert.equal(r.status, 400, `${path} with cursor ${cursor}: ${r.text}`);
        assert.equal(r.body.error.code, 'invalid_argument');
        assert.match(r.body.error.message, /^querystring\.cursor: /, `${path}: the message names the query parameter, not a store's field`);
      }
    }
  });

  test('the stored-bytes gauge follows deletes, not only writes', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    assert.equal((await call(a, 'POST', '/v1/namespaces', admin, { name: 'gauge' })).status, 201);
    const ns = (await call(a, 'GET', '/v1/namespaces/gauge', admin)).body.id as number;
    assert.equal((await call(a, 'POST', '/v1/namespaces/gauge/collections', admin, { name: 'docs', primary_key: 'id' })).status, 201);
    const pad = randomBytes(1_500).toString('base64');
    assert.equal((await call(a, 'POST', '/v1/namespaces/gauge/collections/docs/documents', admin, { upserts: [{ id: 'g', pad }] })).status, 200);
    const gauge = async () => {
      await a.tenancy!.refreshStorage();
      const r = await call(a, 'GET', '/v1/usage?metric=storage_bytes', admin);
      return (r.body.items as { ns: number; value: number }[]).find((u) => u.ns === ns)?.value;
    };
    const stored = await gauge();
    assert.ok(stored !== undefined && stored >= 1_500, `the write is measured (${stored})`);
    assert.equal((await call(a, 'DELETE', '/v1/namespaces/gauge/collections/docs', admin)).status, 204);
    assert.equal(await gauge(), 0, 'a dropped collection stores nothing');
  });

  test('/metrics counts refusals by reason and shows the live gateways', async (t) => {
    const text = await (await fetch(a.metricsUrl, { signal: AbortSignal.timeout(15_000) })).text();
    const value = (labels: string) => Number(new RegExp(`^loam_refusals_total\\{${labels}\\} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
    for (const reason of ['missing', 'malformed', 'invalid', 'revoked', 'expired']) {
      assert.ok(value(`status="401",code="unauthenticated",reason="${reason}"`) >= 1, `401 ${reason} is counted`);
    }
    assert.ok(value('status="403",code="forbidden",reason="namespace.read"') >= 1, 'a 403 names the action');
    assert.match(text, /^loam_gateways 2$/m);
    if (!dataPlane) return t.skip('the quota cases need collections');
    // A query's slot refusal is counted where the collection's owner served it: a or b.
    const textB = await (await fetch(b.metricsUrl, { signal: AbortSignal.timeout(15_000) })).text();
    const valueB = (labels: string) => Number(new RegExp(`^loam_refusals_total\\{${labels}\\} (\\d+)`, 'm').exec(textB)?.[1] ?? 0);
    // (unapplied_records refused a batch it could never hold above: a 413, not a quota refusal.)
    for (const quota of ['request_rate', 'ingest_bytes_per_s', 'concurrent_query_slots', 'namespace_query_slots', 'storage_bytes', 'metadata_ops_rate']) {
      const labels = `status="429",code="quota_exceeded",reason="${quota}"`;
      assert.ok(value(labels) + valueB(labels) >= 1, `a 429 for ${quota} is counted`);
    }
  });

  test('no secret or key hash reaches the logs or an error body', async () => {
    await a.tenancy!.flushTouches();
    assert.ok(logs.length > 0, 'logs were captured');
    assert.match(logs, /api key created/);
    for (const s of secrets) assert.ok(!logs.includes(s), 'a secret or hash is in the logs');
  });
  test("two live gateways share a rate quota through the namespace's owner; when one leaves, the other enforces all of it", async () => {
    const gateways = async (node: LoamNode) => (await call(node, 'GET', '/v1/quotas', admin)).body.gateways as number;
    const t0 = Date.now();
    while ((await gateways(a)) !== 2 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 100));
    assert.equal(await gateways(a), 2, 'both nodes are counted');
    assert.equal(await gateways(b), 2);
    const burst = async () => {
      let ok = 0;
      for (let i = 0; i < 30; i++) if ((await call(a, 'GET', '/v1/namespaces/alpha', admin)).status === 200) ok++;
      return ok;
    };
    await setQuota('request_rate', 20, 'alpha');
    try {
      await new Promise((r) => setTimeout(r, 1_100)); // the bucket refills to its capacity
      // spec §6: the bucket is at alpha's owner (a or b), so one gateway's burst gets the whole
      // bucket, not half of it (the owner's own requests draw from it too: test/unit/owner-quota).
      const shared = await burst();
      assert.ok(shared >= 20, `the bucket is the owner's: one gateway admits the whole 20/s (${shared} of 30 in a burst)`);
      await b.close();
      const t1 = Date.now();
      while ((await gateways(a)) !== 1 && Date.now() - t1 < 10_000) await new Promise((r) => setTimeout(r, 100));
      assert.equal(await gateways(a), 1, 'the node that left is no longer counted');
      await new Promise((r) => setTimeout(r, 1_100));
      const whole = await burst();
      assert.ok(whole >= 20, `alone, it admits the whole quota (${whole} of 30 in a burst)`);
    } finally {
      await setQuota('request_rate', null, 'alpha');
    }
  });
});

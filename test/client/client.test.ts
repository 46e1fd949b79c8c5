// The TypeScript client against a real node (API keys on, like `loam dev`): every route it
// covers, typed errors carrying the server's message unchanged, query pages, read-your-writes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LoamClient, LoamError } from '../../src/client/index.js';
import { countingFetch, keyedNode, raw, type KeyedNode } from './helpers.js';

let n: KeyedNode;
let loam: LoamClient;

before(async () => {
  n = await keyedNode();
  loam = new LoamClient({ url: n.url, key: n.admin });
});
after(async () => n?.close());

async function rejects(p: Promise<unknown>): Promise<LoamError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LoamError, `expected a LoamError, got ${String(e)}`);
    return e;
  }
  assert.fail('expected the call to fail');
}

describe('client: namespaces and collections', () => {
  test('create, get, list by pages, drop; a taken name is a LoamError with the server\'s message', async () => {
    const a = await loam.namespaces.create('alpha');
    assert.equal(a.name, 'alpha');
    assert.equal(typeof a.id, 'number');
    for (const name of ['alps', 'beta', 'gamma']) await loam.namespaces.create(name);
    assert.equal((await loam.namespaces.get('alpha')).id, a.id);

    const e = await rejects(loam.namespaces.create('alpha'));
    const server = await raw(n.url, n.admin, 'POST', '/v1/namespaces', { name: 'alpha' });
    assert.equal(e.status, 409);
    assert.equal(e.status, server.status);
    assert.equal(e.code, server.body.error.code);
    assert.equal(e.message, server.body.error.message, 'the message is the server\'s, unchanged');

    const first = await loam.namespaces.list({ page_size: 2 });
    assert.deepEqual(first.items.map((x) => x.name), ['alpha', 'alps']);
    assert.ok(first.next_cursor);
    const pages: string[][] = [];
    for await (const p of loam.namespaces.pages({ page_size: 2 })) pages.push(p.items.map((x) => x.name!));
    assert.deepEqual(pages, [['alpha', 'alps'], ['beta', 'gamma']]);
    assert.deepEqual((await loam.namespaces.list({ prefix: 'al' })).items.map((x) => x.name), ['alpha', 'alps']);

    await loam.namespaces.drop('gamma');
    const gone = await rejects(loam.namespaces.get('gamma'));
    assert.equal(gone.status, 404);
    assert.equal(gone.code, 'not_found');
  });

  test('collections: create with fields, get, list, drop; bad input is the server\'s 400, field named', async () => {
    const c = await loam.collections.create('alpha', { name: 'books', primary_key: 'id', fields: { year: 'number' } });
    assert.equal(c.primary_key, 'id');
    assert.deepEqual(c.fields, { year: 'number', id: 'string' });
    assert.equal((await loam.collections.get('alpha', 'books')).id, c.id);
    await loam.collections.create('alpha', { name: 'tmp', primary_key: 'k' });
    assert.deepEqual((await loam.collections.list('alpha')).items.map((x) => x.name), ['books', 'tmp']);
    await loam.collections.drop('alpha', 'tmp');
    assert.deepEqual((await loam.collections.list('alpha')).items.map((x) => x.name), ['books']);

    const bad = await rejects(loam.collections.create('alpha', { name: 'x', primary_key: 'id', partitions: 0 }));
    assert.equal(bad.status, 400);
    assert.equal(bad.code, 'invalid_argument');
    assert.match(bad.message, /body\.partitions/);
  });
});

describe('client: documents', () => {
  test('write upserts and deletes, get, and a 404 for what is not there', async () => {
    const books = loam.collection<{ id: string; title: string; year?: number }>('alpha', 'books');
    const w = await books.upsert([
      { id: 'b1', title: 'Dune', year: 1965 },
      { id: 'b2', title: 'Neuromancer', year: 1984 },
      { id: 'b3', title: 'Hyperion', year: 1989 },
    ]);
    assert.ok(w.token);
    assert.deepEqual(await books.get('b2'), { id: 'b2', title: 'Neuromancer', year: 1984 });
    await books.write({ upserts: [{ id: 'b4', title: 'Solaris' }], deletes: ['b1'] });
    const e = await rejects(books.get('b1'));
    assert.equal(e.status, 404);
    assert.equal(e.message, 'document "b1" not found in collection "books"');
    assert.equal((await books.get('b4')).title, 'Solaris');

    const refused = await rejects(books.upsert([{ id: 'b5', title: 'ok' }, { title: 'no id' } as never]));
    assert.equal(refused.status, 400);
    assert.equal(refused.message, 'upserts[1].id: the primary key is missing');
    assert.equal((await rejects(books.get('b5'))).status, 404, 'nothing of the refused batch was written');
  });

  test('a key that needs encoding in the path reaches the right document', async () => {
    const books = loam.collection('alpha', 'books');
    await books.upsert([{ id: 'a/b c?d', title: 'odd' }]);
    assert.equal((await books.get('a/b c?d')).title, 'odd');
    await books.delete(['a/b c?d']);
  });

  test('query: an async iterator over pages in primary-key order, the filter applied', async () => {
    const nums = loam.collection<{ id: string; n: number }>('alpha', 'books');
    await nums.upsert(Array.from({ length: 25 }, (_, i) => ({ id: `n${String(i).padStart(2, '0')}`, n: i, title: 't' })));
    const pages: number[][] = [];
    for await (const p of nums.query({ filter: { n: { $gte: 3 } }, limit: 10 })) pages.push(p.documents.map((d) => d.n));
    assert.deepEqual(pages.map((p) => p.length), [10, 10, 2]);
    assert.deepEqual(pages.flat(), Array.from({ length: 22 }, (_, i) => i + 3));
    // Breaking out of the loop stops fetching.
    const { fetch, calls } = countingFetch();
    const counted = new LoamClient({ url: n.url, key: n.admin, fetch }).collection('alpha', 'books');
    for await (const p of counted.query({ filter: { n: { $gte: 0 } }, limit: 5 })) {
      assert.equal(p.documents.length, 5);
      break;
    }
    assert.equal(calls.length, 1);
    const all: number[] = [];
    for await (const d of nums.documents({ filter: { n: { $lt: 4 } }, limit: 3 })) all.push(d.n);
    assert.deepEqual(all, [0, 1, 2, 3]);
    const bad = await rejects(nums.queryPage({ filter: { n: { $regex: 'x' } } }));
    assert.equal(bad.status, 400);
  });

  test('read-your-writes: reads carry the last write\'s token of that collection, only when asked', async () => {
    const { fetch, calls } = countingFetch();
    const ryw = new LoamClient({ url: n.url, key: n.admin, fetch, readYourWrites: true });
    const books = ryw.collection('alpha', 'books');
    const w = await books.upsert([{ id: 'r1', title: 'fresh' }]);
    assert.equal(books.lastToken, w.token);
    assert.equal((await books.get('r1', { consistency: 'eventual' })).title, 'fresh');
    const sent = new URL(calls.at(-1)!.url);
    assert.equal(sent.searchParams.get('token'), w.token);
    assert.equal(sent.searchParams.get('consistency'), 'eventual');
    const q = await books.queryPage({ filter: { id: 'r1' }, consistency: 'eventual' });
    assert.deepEqual(q.documents.map((d) => d.title), ['fresh']);
    // Without readYourWrites no token is attached (and the eventual read may well miss the write).
    const plain = countingFetch();
    await new LoamClient({ url: n.url, key: n.admin, fetch: plain.fetch }).get('alpha', 'books', 'r1', { consistency: 'eventual' }).catch((e: LoamError) => assert.equal(e.status, 404));
    assert.equal(new URL(plain.calls[0]!.url).searchParams.get('token'), null);
    // Another collection's reads do not carry it.
    assert.equal(ryw.lastToken('alpha', 'other'), undefined);
  });
});

describe('client: tenancy', () => {
  test('org, keys, bindings, quotas and usage; a revoked key gets the server\'s 401', async () => {
    assert.equal((await loam.org.get()).id, 'default');
    const k = await loam.keys.create({ role: 'reader', namespace: 'alpha', ttl_s: 3600 });
    assert.match(k.key!, /^loam_[0-9a-f]{16}_/);
    const ids = (await loam.keys.list()).items.map((x) => x.keyId);
    assert.ok(ids.includes(k.keyId));

    const reader = new LoamClient({ url: n.url, key: k.key! });
    assert.equal((await reader.get('alpha', 'books', 'b2')).title, 'Neuromancer');
    const forbidden = await rejects(reader.collection('alpha', 'books').upsert([{ id: 'x' }]));
    assert.equal(forbidden.status, 403);
    assert.equal(forbidden.code, 'forbidden');

    const granted = await loam.bindings.grant({ key_id: k.keyId!, role: 'writer', namespace: 'alpha' });
    assert.equal(granted.role, 'writer');
    assert.ok((await loam.bindings.list()).items.some((b) => b.subject === `key:${k.keyId}` && b.role === 'writer'));
    await loam.bindings.revoke({ key_id: k.keyId!, role: 'writer', namespace: 'alpha' });

    // Quotas are the operator's to set; the org reads them.
    const operator = new LoamClient({ url: n.url, key: n.operator });
    assert.deepEqual(await operator.orgs.setQuota('default', { name: 'request_rate', value: 500, namespace: 'alpha' }), { org: 'default', name: 'request_rate', namespace: 'alpha', value: 500 });
    assert.equal((await loam.quotas.get({ namespace: 'alpha' })).effective!.request_rate, 500);
    assert.equal((await operator.orgs.quotas('default', { namespace: 'alpha' })).effective!.request_rate, 500);
    assert.equal((await rejects(loam.orgs.setQuota('default', { name: 'request_rate', value: 5_000 }))).status, 403, 'not the org admin');
    await operator.orgs.setQuota('default', { name: 'request_rate', value: null, namespace: 'alpha' });
    assert.deepEqual((await operator.orgs.list()).items!.map((o) => o.id), ['default']);
    assert.ok(Array.isArray((await loam.usage.get({ metric: 'requests' })).items));

    await loam.keys.revoke(k.keyId!);
    const e = await rejects(reader.namespaces.list());
    assert.equal(e.status, 401);
    assert.equal(e.code, 'unauthenticated');
    assert.equal(e.message, `API key ${k.keyId} was revoked`);
  });

  test('no key: the server\'s 401 message, unchanged', async () => {
    const e = await rejects(new LoamClient({ url: n.url }).namespaces.list());
    assert.equal(e.status, 401);
    assert.equal(e.message, (await raw(n.url, null, 'GET', '/v1/namespaces')).body.error.message);
  });
});

// Query filters as a user meets them over HTTP (POST …/query and …/erase {"filter"}): the
// limits that keep one tenant's filter from stalling a node, and which field names and
// values a filter takes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_FILTER_NODES, MAX_IN_VALUES } from '../../src/collection/filter.js';
import { MAX_NAME_LENGTH } from '../../src/meta/limits.js';
import { http, testNode, type TestNode } from '../node/helpers.js';
import { KEK } from '../erasure/helpers.js';

const NS = '/v1/namespaces/f/collections';

let n: TestNode;
before(async () => {
  n = await testNode({ config: { erasure_kek: KEK } });
  assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'f' })).status, 201);
  assert.equal((await http(n.url, 'POST', NS, { name: 'docs', primary_key: 'id' })).status, 201);
  const docs = Array.from({ length: 20 }, (_, i) => ({ id: `d${String(i).padStart(2, '0')}`, v: i }));
  assert.equal((await http(n.url, 'POST', `${NS}/docs/documents`, { upserts: docs })).status, 200);
});
after(async () => n?.cleanup());

/** The primary keys (`pk`) of a query's documents, once it answered 200. */
const ids = (r: { status: number; body: any }, pk = 'id') => {
  assert.equal(r.status, 200, JSON.stringify(r.body).slice(0, 300));
  return r.body.documents.map((d: Record<string, unknown>) => d[pk]);
};

/** A 400 invalid_argument whose message names `field` and says `why`. */
function refused(r: { status: number; body: any }, field: string, why: RegExp): void {
  assert.equal(r.status, 400, JSON.stringify(r.body).slice(0, 300));
  assert.equal(r.body.error.code, 'invalid_argument');
  assert.ok(r.body.error.message.startsWith(`${field}:`) || r.body.error.message.includes(` ${field}`), r.body.error.message);
  assert.match(r.body.error.message, why);
}

describe('filter size', () => {
  test(`shorthand conditions {field: value} count toward the ${MAX_FILTER_NODES}-condition limit like operators do`, async () => {
    const shorthand = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`f${i}`, null]));
    const tooMany = new RegExp(`has more than ${MAX_FILTER_NODES} conditions`);
    // The filter that held the event loop for seconds: 100,000 conditions, each tested against every document.
    const huge = shorthand(100_000);
    refused(await http(n.url, 'POST', `${NS}/docs/query`, { filter: huge }), 'filter', tooMany);
    refused(await http(n.url, 'POST', `${NS}/docs/query`, { filter: shorthand(MAX_FILTER_NODES) }), 'filter', tooMany);
    // Inside $or, and mixed with operators, the same count.
    refused(await http(n.url, 'POST', `${NS}/docs/query`, { filter: { $or: [shorthand(200), shorthand(60)] } }), 'filter', tooMany);
    refused(await http(n.url, 'POST', `${NS}/docs/query`, { filter: { ...shorthand(200), v: { $gte: 0, $lte: 100 }, w: { $in: [1] }, ...Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`g${i}`, { $ne: 1 }])) } }), 'filter', tooMany);
    // An erase by filter is refused the same way, and erases nothing.
    refused(await http(n.url, 'POST', `${NS}/docs/erase`, { filter: huge }), 'filter', tooMany);
    assert.equal((await http(n.url, 'POST', `${NS}/docs/query`, { limit: 1000 })).body.documents.length, 20);
    // Within the limit (the filter object is one node, each condition another) it answers.
    const ok = await http(n.url, 'POST', `${NS}/docs/query`, { filter: shorthand(MAX_FILTER_NODES - 1) });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.documents.length, 20);
  });

  test(`the largest $in filters (${MAX_IN_VALUES} values each) over 10,000 documents do not hold the node: the query and /healthz meanwhile answer within 3 s`, async () => {
    assert.equal((await http(n.url, 'POST', NS, { name: 'many', primary_key: 'id', partitions: 1 })).status, 201);
    const docs = Array.from({ length: 10_000 }, (_, i) => ({ id: `m${i}`, v: i }));
    assert.equal((await http(n.url, 'POST', `${NS}/many/documents`, { upserts: docs }, 60_000)).status, 200);
    // Each $in finds its value last (null: the field is missing), so every value would be
    // compared; the last condition fails, so every document is tested against all of them.
    const values = [...Array.from({ length: MAX_IN_VALUES - 1 }, (_, i) => i), null];
    const filter = { ...Object.fromEntries(Array.from({ length: MAX_FILTER_NODES - 2 }, (_, i) => [`f${i}`, { $in: values }])), v: -1 };
    const started = Date.now();
    const query = http(n.url, 'POST', `${NS}/many/query`, { filter }, 120_000).then((r) => ({ r, ms: Date.now() - started }));
    await new Promise((r) => setTimeout(r, 200));
    const health = http(n.url, 'GET', '/healthz', undefined, 120_000).then((r) => ({ r, ms: Date.now() - started }));
    const [q, h] = await Promise.all([query, health]);
    assert.deepEqual(ids(q.r), []);
    assert.equal(h.r.status, 200);
    assert.ok(q.ms < 3_000 && h.ms < 3_000, `the query answered after ${q.ms} ms, /healthz after ${h.ms} ms`);
  });
});

describe("field names that are Object.prototype's members (toString, constructor, valueOf, …)", () => {
  test('a primary key of such a name is an ordinary field: the collection is created, written, read and filtered', async () => {
    const c = await http(n.url, 'POST', NS, { name: 'proto', primary_key: 'toString' });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    assert.deepEqual(c.body.fields, { toString: 'string' });
    assert.equal((await http(n.url, 'POST', `${NS}/proto/documents`, { upserts: [{ toString: 'a' }, { toString: 'b', v: 1 }] })).status, 200);
    assert.equal((await http(n.url, 'GET', `${NS}/proto/documents/b`)).body.v, 1);
    const q = (filter: object) => http(n.url, 'POST', `${NS}/proto/query`, { filter });
    assert.deepEqual(ids(await q({ toString: 'a' }), 'toString'), ['a']);
    assert.deepEqual(ids(await q({ toString: { $gt: 'a' } }), 'toString'), ['b']);
  });

  test('declared fields of such names that a document leaves out are absent: the write is accepted and {field: null} finds it', async () => {
    const c = await http(n.url, 'POST', NS, { name: 'proto2', primary_key: 'id', fields: { constructor: 'string', hasOwnProperty: 'number' } });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const w = await http(n.url, 'POST', `${NS}/proto2/documents`, { upserts: [{ id: 'a', constructor: 'Ada', hasOwnProperty: 1 }, { id: 'b' }] });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    // The declared types still hold.
    refused(await http(n.url, 'POST', `${NS}/proto2/documents`, { upserts: [{ id: 'c', hasOwnProperty: 'yes' }] }), 'upserts[0].hasOwnProperty', /must be a number/);
    const q = (filter: object) => http(n.url, 'POST', `${NS}/proto2/query`, { filter });
    assert.deepEqual(ids(await q({ constructor: null })), ['b']);
    assert.deepEqual(ids(await q({ constructor: 'Ada' })), ['a']);
    assert.deepEqual(ids(await q({ hasOwnProperty: { $gte: 1 } })), ['a']);
    refused(await q({ hasOwnProperty: 'x' }), 'filter.hasOwnProperty', /field "hasOwnProperty" is a number; got string/);
  });

  test('in a filter, an undeclared field of such a name is a field like any other, absent from documents without it', async () => {
    const q = (filter: object) => http(n.url, 'POST', `${NS}/docs/query`, { filter });
    const names = ['toString', 'valueOf', 'constructor', 'hasOwnProperty', 'isPrototypeOf', 'zzz'];
    // Every document lacks the field: {field: null} matches them all, as for any other name.
    for (const f of names) assert.equal(ids(await q({ [f]: null })).length, 20, `{"${f}": null}`);
    for (const f of names) {
      assert.deepEqual(ids(await q({ [f]: 'x' })), [], `{"${f}": "x"}`);
      assert.equal(ids(await q({ [f]: { $ne: 'x' } })).length, 20, `{"${f}": {"$ne": "x"}}`);
    }
  });
});

describe('field names', () => {
  test('every name a collection may declare (a primary key "1id", a field "9x", 63 characters) is one a filter takes', async () => {
    const long = `7${'k'.repeat(MAX_NAME_LENGTH - 1)}`;
    const c = await http(n.url, 'POST', NS, { name: 'digits', primary_key: '1id', fields: { '9x': 'number', [long]: 'string' } });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    const w = await http(n.url, 'POST', `${NS}/digits/documents`, { upserts: [{ '1id': 'a', '9x': 5, [long]: 'L', '2nd': true, _id: 1 }, { '1id': 'b', '9x': 50 }] });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const q = (filter: object) => http(n.url, 'POST', `${NS}/digits/query`, { filter });
    assert.deepEqual(ids(await q({ '1id': 'b' }), '1id'), ['b']);
    assert.deepEqual(ids(await q({ '9x': { $gte: 10 } }), '1id'), ['b']);
    assert.deepEqual(ids(await q({ [long]: 'L' }), '1id'), ['a']);
    // Documents' own fields too, declared or not.
    assert.deepEqual(ids(await q({ '2nd': true }), '1id'), ['a']);
    assert.deepEqual(ids(await q({ _id: 1 }), '1id'), ['a']);
    // The declared type still holds; a name no collection or filter takes is refused, naming it.
    refused(await q({ '9x': 'five' }), 'filter.9x', /field "9x" is a number; got string/);
    refused(await q({ '-x': 1 }), 'filter.-x', /not a field name a filter takes/);
    refused(await q({ 'a b': 1 }), 'filter.a b', /not a field name a filter takes/);
  });
});

describe('numeric keys in a string-keyed collection', () => {
  test('a key written as a number is found by a filter on the key as a number or as its string form, and ranges order it with the strings', async () => {
    assert.equal((await http(n.url, 'POST', NS, { name: 'mixed', primary_key: 'id' })).status, 201);
    const w = await http(n.url, 'POST', `${NS}/mixed/documents`, { upserts: [{ id: 7, v: 'seven' }, { id: '10' }, { id: 'a' }, { id: '8b' }, { id: 2.5 }] });
    assert.equal(w.status, 200, JSON.stringify(w.body));
    assert.equal((await http(n.url, 'GET', `${NS}/mixed/documents/7`)).body.v, 'seven');
    const q = (filter: object) => http(n.url, 'POST', `${NS}/mixed/query`, { filter });
    // Results come in key order, the keys' string forms: "10" < "2.5" < "7" < "8b" < "a".
    assert.deepEqual(ids(await q({})), ['10', 2.5, 7, '8b', 'a']);
    assert.deepEqual(ids(await q({ id: 7 })), [7]);
    assert.deepEqual(ids(await q({ id: '7' })), [7]);
    assert.deepEqual(ids(await q({ id: { $eq: '2.5' } })), [2.5]);
    assert.deepEqual(ids(await q({ id: 10 })), ['10']);
    assert.deepEqual(ids(await q({ id: { $in: ['7', 'a'] } })), [7, 'a']);
    assert.deepEqual(ids(await q({ id: { $ne: '7' } })), ['10', 2.5, '8b', 'a']);
    assert.deepEqual(ids(await q({ id: { $gte: '7' } })), [7, '8b', 'a']);
    assert.deepEqual(ids(await q({ id: { $gt: '2', $lt: '8' } })), [2.5, 7]);
    assert.deepEqual(ids(await q({ id: { $gte: 7 } })), [7, '8b', 'a']);
    // What a write refuses as a key is refused here too, naming the field.
    refused(await q({ id: true }), 'filter.id', /primary key.*got boolean/);
    refused(await q({ id: { $in: ['a', 12345678901234567890] } }), 'filter.id.$in[1]', /beyond/);
    // An erase by filter finds it the same way.
    const e = await http(n.url, 'POST', `${NS}/mixed/erase`, { filter: { id: '7' } });
    assert.equal(e.status, 202, JSON.stringify(e.body));
    assert.equal((await http(n.url, 'GET', `${NS}/mixed/documents/7`)).status, 404);
  });

  test('a number key is compared as a number, and takes only numbers', async () => {
    assert.equal((await http(n.url, 'POST', NS, { name: 'numbers', primary_key: 'id', fields: { id: 'number' } })).status, 201);
    assert.equal((await http(n.url, 'POST', `${NS}/numbers/documents`, { upserts: [{ id: 9 }, { id: 10 }] })).status, 200);
    const q = (filter: object) => http(n.url, 'POST', `${NS}/numbers/query`, { filter });
    assert.deepEqual(ids(await q({ id: { $gt: 9 } })), [10]);
    assert.deepEqual(ids(await q({ id: 9 })), [9]);
    refused(await q({ id: '9' }), 'filter.id', /field "id" is a number; got string/);
  });
});

import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { linkPointerKey } from '../../src/meta/index.js';
import { http, testNode, until, type TestNode } from '../node/helpers.js';
import { storedBytes } from '../../src/collection/usage.js';
import { upsertSpans } from '../../src/collection/batch-text.js';
import { MAX_QUERY_PAGE_BYTES } from '../../src/collection/reader.js';

const C = '/v1/namespaces/shop/collections/items';

describe('collections through the node', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode();
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'shop' })).status, 201);
    const c = await http(n.url, 'POST', '/v1/namespaces/shop/collections', {
      name: 'items',
      primary_key: 'sku',
      partitions: 3,
      fields: { price: 'number', color: 'string' },
    });
    assert.equal(c.status, 201, JSON.stringify(c.body));
  });
  after(async () => n.cleanup());

  test('strong reads see a write at once; eventual reads catch up after the applier', async () => {
    const docs = Array.from({ length: 50 }, (_, i) => ({ sku: `s${String(i).padStart(3, '0')}`, price: i, color: i % 2 ? 'red' : 'blue' }));
    const w = await http(n.url, 'POST', `${C}/documents`, { upserts: docs });
    assert.equal(w.status, 200);
    assert.match(w.body.token, /^[A-Za-z0-9_-]+$/);
    const g = await http(n.url, 'GET', `${C}/documents/s007`);
    assert.deepEqual(g.body, { sku: 's007', price: 7, color: 'red' });
    const t = await http(n.url, 'GET', `${C}/documents/s008?token=${w.body.token}`);
    assert.equal(t.status, 200);
    await until(async () => (await http(n.url, 'GET', `${C}/documents/s049?consistency=eventual`)).status === 200);
  });

  test('deletes hide documents at once and after applying', async () => {
    const w = await http(n.url, 'POST', `${C}/documents`, { deletes: ['s001', 's002'] });
    assert.equal(w.status, 200);
    assert.equal((await http(n.url, 'GET', `${C}/documents/s001`)).status, 404);
    assert.equal((await http(n.url, 'GET', `${C}/documents/s002?token=${w.body.token}`)).status, 404);
    await until(async () => (await http(n.url, 'GET', `${C}/documents/s001?consistency=eventual`)).status === 404);
  });

  test('query: filters, order, limit and cursor', async () => {
    const q = (body: object) => http(n.url, 'POST', `${C}/query`, body);
    const red = await q({ filter: { color: 'red', price: { $lt: 10 } } });
    assert.deepEqual(red.body.documents.map((d: { sku: string }) => d.sku), ['s003', 's005', 's007', 's009']);
    const ors = await q({ filter: { $or: [{ sku: 's010' }, { price: { $in: [20, 30] } }] } });
    assert.deepEqual(ors.body.documents.map((d: { sku: string }) => d.sku), ['s010', 's020', 's030']);
    const nots = await q({ filter: { $and: [{ price: { $gte: 45 } }, { $not: { color: 'blue' } }] } });
    assert.deepEqual(nots.body.documents.map((d: { sku: string }) => d.sku), ['s045', 's047', 's049']);
    // Paging through everything: 48 live documents, pages of 10.
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 10; i++) {
      const p = await q({ limit: 10, ...(cursor ? { cursor } : {}) });
      assert.equal(p.status, 200);
      seen.push(...p.body.documents.map((d: { sku: string }) => d.sku));
      cursor = p.body.next_cursor ?? undefined;
      if (!cursor) break;
    }
    assert.equal(seen.length, 48);
    assert.deepEqual(seen, [...seen].sort());
    const ev = await q({ consistency: 'eventual', filter: { price: { $gte: 0 } }, limit: 1000 });
    assert.ok(ev.body.documents.length <= 48);
  });

  test('bad filters and tokens are 400s that name what to fix', async () => {
    const q = (body: object) => http(n.url, 'POST', `${C}/query`, body);
    for (const [body, needle] of [
      [{ filter: { 'a.b': 1 } }, 'nested paths'],
      [{ filter: { price: { $gt: 'x' } } }, 'filter.price.$gt'],
      [{ filter: { price: { $regex: 'x' } } }, 'unknown operator'],
      [{ filter: { $or: [] } }, 'filter.$or'],
      [{ filter: { color: { $in: 'red' } } }, 'filter.color.$in'],
      [{ limit: 0 }, 'limit'],
      [{ limit: 100000 }, 'limit'],
      [{ cursor: '!!' }, 'cursor'],
      [{ token: 'AAAA' }, 'token'],
      [{ consistency: 'sometimes' }, 'consistency'],
    ] as [object, string][]) {
      const r = await q(body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.ok(r.body.error.message.includes(needle), `${JSON.stringify(body)} → ${r.body.error.message}`);
    }
  });

  test('bad batches are refused whole: nothing of them is applied', async () => {
    const w = (body: unknown) => http(n.url, 'POST', `${C}/documents`, body);
    for (const [body, status, needle] of [
      [{ upserts: [{ sku: 'ok1' }, { price: 1 }] }, 400, 'upserts[1].sku'],
      [{ upserts: [{ sku: 'ok1' }, { sku: { a: 1 } }] }, 400, 'upserts[1].sku'],
      [{ upserts: [{ sku: 'ok1' }, 'text'] }, 400, 'upserts[1]'],
      [{ upserts: [{ sku: 'ok1', price: 'cheap' }] }, 400, 'upserts[0].price'],
      [{ deletes: [null] }, 400, 'deletes[0]'],
      [{ upserts: [] }, 400, 'empty'],
      [{ upserts: [{ sku: 'ok1', big: 'x'.repeat(1024 * 1024 + 10) }] }, 413, 'upserts[0]'],
      [{ upserts: Array.from({ length: 10_001 }, (_, i) => ({ sku: `b${i}` })) }, 413, 'upserts'],
      ['{"upserts": [', 400, 'JSON'],
    ] as [unknown, number, string][]) {
      const r = await w(body);
      assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 80)} → ${JSON.stringify(r.body)}`);
      assert.ok(r.body.error.message.includes(needle), `${r.body.error.message} should mention ${needle}`);
    }
    assert.equal((await http(n.url, 'GET', `${C}/documents/ok1`)).status, 404);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/shop/collections/nope/documents', { upserts: [{ sku: 'a' }] })).status, 404);
  });

  test('compaction merges data files and materialises deletes; reads stay right', async () => {
    for (let round = 0; round < 12; round++) {
      const w = await http(n.url, 'POST', `${C}/documents`, { upserts: [{ sku: `c${round}`, price: round }], deletes: round > 0 ? [`c${round - 1}`] : [] });
      assert.equal(w.status, 200);
      // Wait for this round to be applied, so each round makes a data file.
      await until(async () => (await http(n.url, 'GET', `${C}/documents/c${round}?consistency=eventual`)).status === 200);
    }
    const c = (await n.meta.collectionByName((await n.meta.namespaceByName('default', 'shop')).id, 'items'))!;
    const p = await n.meta.pointer(c.ns, linkPointerKey(c.linkId));
    const m = await n.reader!.manifests.load(p!.value);
    assert.ok(m.files.length <= 9, `files: ${m.files.length}`);
    for (let round = 0; round < 11; round++) assert.equal((await http(n.url, 'GET', `${C}/documents/c${round}?consistency=eventual`)).status, 404);
    assert.equal((await http(n.url, 'GET', `${C}/documents/c11`)).status, 200);
  });

  // Documents are stored as the JSON text they were sent as (src/collection/batch-text.ts).
  test('a document reads back as sent: its spacing and every digit of a number JSON.stringify would round', async () => {
    const sent = '{ "sku": "raw-big",  "price": 12345678901234567890, "s": "a\\u00e9\\"b" }';
    const w = await http(n.url, 'POST', `${C}/documents`, `{"upserts": [${sent}, {"sku":"raw-plain","price":1}]}`);
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const strong = await fetch(`${n.url}${C}/documents/raw-big`);
    assert.equal(strong.status, 200);
    assert.equal(await strong.text(), sent, 'a strong read returns the document as it was sent');
    const eventual = await until(async () => {
      const r = await fetch(`${n.url}${C}/documents/raw-big?consistency=eventual`);
      return r.status === 200 ? r.text() : undefined;
    });
    assert.equal(eventual, sent, 'and so does a read from the applied data files');
    const q = await http(n.url, 'POST', `${C}/query`, { filter: { price: { $gt: 1e19 } } });
    assert.deepEqual(q.body.documents.map((d: { sku: string }) => d.sku), ['raw-big'], 'the stored text is the value the write validated');
    const bad = await http(n.url, 'POST', `${C}/documents`, '{"upserts":[{"sku":"raw-ok"},{"sku":"raw-bad","price":"text"}]}');
    assert.equal(bad.status, 400);
    assert.match(bad.body.error.message, /upserts\[1\]\.price/);
    assert.equal((await http(n.url, 'GET', `${C}/documents/raw-ok`)).status, 404, 'nothing of a refused batch is written');
  });

  test('a query answers each document as sent: every digit, its spacing, 1.50 and a repeated member', async () => {
    const sent = '{"sku":"q-big","price":12345678901234567890, "x" : 1.50, "r": 1, "r": 2,\n "s": "é\\u00e9"}';
    const w = await http(n.url, 'POST', `${C}/documents`, `{"upserts":[${sent}]}`);
    assert.equal(w.status, 200, JSON.stringify(w.body));
    const query = async (body: object) => {
      const r = await fetch(`${n.url}${C}/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      return r.text();
    };
    // The filter still reads the parsed value (the price's double, the last "r").
    const filter = { sku: 'q-big', price: { $gt: 1e19 }, r: 2 };
    const strong = await query({ filter });
    assert.ok(strong.includes(sent), `a strong query answers the text as sent: ${strong}`);
    assert.deepEqual(JSON.parse(strong), { documents: [JSON.parse(sent)], next_cursor: null }, 'in an answer of the same shape, valid JSON');
    const eventual = await until(async () => {
      const t = await query({ filter, consistency: 'eventual' });
      return (JSON.parse(t) as { documents: unknown[] }).documents.length === 1 ? t : undefined;
    });
    assert.ok(eventual?.includes(sent), `and so does a query of the applied data files: ${eventual}`);
    // A page with a next_cursor and several documents is valid JSON too.
    const page = JSON.parse(await query({ limit: 2 })) as { documents: { sku: string }[]; next_cursor: string };
    assert.equal(page.documents.length, 2);
    assert.match(page.next_cursor, /^[A-Za-z0-9_-]+$/);
  });

  test('a query page holds at most MAX_QUERY_PAGE_BYTES of documents, and its next_cursor goes on from there', async () => {
    const B = '/v1/namespaces/shop/collections/big';
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/shop/collections', { name: 'big', primary_key: 'id', partitions: 2 })).status, 201);
    // 40 documents of 0.67 to 1 MiB, about 34 MiB: a few pages at the bound, whatever the limit.
    const texts = Array.from({ length: 40 }, (_, i) => {
      const head = `{"id":"b${String(i).padStart(2, '0')}","n":${i},"pad":"`;
      return `${head}${'x'.repeat(700_000 + ((i * 37_003) % 340_000) - head.length - 2)}"}`;
    });
    for (let i = 0; i < texts.length; i += 10) {
      const w = await http(n.url, 'POST', `${B}/documents`, `{"upserts":[${texts.slice(i, i + 10).join(',')}]}`, 60_000);
      assert.equal(w.status, 200, JSON.stringify(w.body));
    }
    const size = (id: string) => Buffer.byteLength(texts[Number(id.slice(1))]!);
    /** Every page of a query, checked against the bound; the ids of each. */
    const pageThrough = async (filter: object | undefined, matching: string[]) => {
      const pages: string[][] = [];
      let cursor: string | null = null;
      do {
        const r: Response = await fetch(`${n.url}${B}/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ limit: 1000, ...(filter ? { filter } : {}), ...(cursor ? { cursor } : {}) }),
          signal: AbortSignal.timeout(60_000),
        });
        assert.equal(r.status, 200);
        const answer = await r.text();
        const page = JSON.parse(answer) as { documents: { id: string }[]; next_cursor: string | null };
        const ids = page.documents.map((d) => d.id);
        const bytes = ids.reduce((sum, id) => sum + size(id), 0);
        assert.ok(ids.length >= 1 && bytes <= MAX_QUERY_PAGE_BYTES, `page ${pages.length}: ${ids.length} documents, ${bytes} bytes (bound ${MAX_QUERY_PAGE_BYTES})`);
        assert.ok(Buffer.byteLength(answer) <= MAX_QUERY_PAGE_BYTES + 1024, `the answer is the documents and a small envelope: ${Buffer.byteLength(answer)} bytes`);
        const next = matching[pages.flat().length + ids.length];
        if (next !== undefined) assert.ok(bytes + size(next) > MAX_QUERY_PAGE_BYTES, `page ${pages.length} stopped before ${next} although it fitted`);
        pages.push(ids);
        cursor = page.next_cursor;
      } while (cursor && pages.length < texts.length);
      assert.deepEqual(pages.flat(), matching, 'every document once, in key order');
      assert.ok(pages.length >= 2, `${pages.length} pages`);
    };
    const ids = texts.map((_, i) => `b${String(i).padStart(2, '0')}`);
    await pageThrough(undefined, ids);
    // With a filter the page may end after keys it skipped: the cursor must not pass the next match.
    await pageThrough({ n: { $in: ids.map((_, i) => i).filter((i) => i % 3 !== 1) } }, ids.filter((_, i) => i % 3 !== 1));
  });
});

describe('stored bytes (the storage quota\'s measure)', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode();
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'store' })).status, 201);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/store/collections', { name: 'docs', primary_key: 'id' })).status, 201);
  });
  after(async () => n.cleanup());

  test('counts the log, the current manifest and its files, and what only a tag keeps', async () => {
    const D = '/v1/namespaces/store/collections/docs/documents';
    const c = (await n.meta.collectionByName((await n.meta.namespaceByName('default', 'store')).id, 'docs'))!;
    const measure = () => storedBytes(n.meta, n.reader!.manifests, c);
    const empty = await measure();
    assert.equal(empty.total, 0, 'an empty collection stores nothing');
    const pad = randomBytes(1_500).toString('base64'); // 2,000 characters that do not compress
    assert.equal((await http(n.url, 'POST', D, { upserts: [{ id: 'a', pad }] })).status, 200);
    await until(async () => (await http(n.url, 'GET', `${D}/a?consistency=eventual`)).status === 200);
    const first = await measure();
    assert.ok(first.log >= 2_000, `the log holds the write (${first.log})`);
    assert.ok(first.files >= 1_500, `a data file holds the applied document (${first.files})`);
    assert.ok(first.manifest > 0);
    assert.equal(first.tagOnly, 0);
    assert.equal(first.total, first.log + first.files + first.manifest);

    const v1 = (await n.meta.pointer(c.ns, linkPointerKey(c.linkId)))!.version;
    await n.meta.createTag(c.ns, c.id, 'before-b', v1);
    assert.equal((await measure()).tagOnly, 0, 'a tag on the current manifest adds nothing');
    assert.equal((await http(n.url, 'POST', D, { upserts: [{ id: 'b', pad }], deletes: ['a'] })).status, 200);
    await until(async () => (await n.meta.pointer(c.ns, linkPointerKey(c.linkId)))!.version > v1);
    const tagged = await measure();
    assert.ok(tagged.tagOnly > 0, 'the tagged manifest is no longer current: its bytes count as the tag\'s');
    await n.meta.dropTag(c.ns, c.id, 'before-b');
    assert.equal((await measure()).tagOnly, 0, 'dropping the tag drops its bytes from the count');
  });
});

/** Bodies whose documents' text must come back exactly: strings full of JSON syntax, escapes, nesting, spacing. */
const TRICKY = [
  '{"upserts":[{"id":"a"}]}',
  ' \n{ "deletes" : [ "x" , 2 ] ,\t"upserts" : [ { "id" : "a" , "s" : "}]\\"\\\\" } ,{"id":"b","v":[1,[2,{"c":"]"}]]} ] } ',
  '{"upserts":[{"id":"\\\\"},{"id":"q\\"","t":"\\\\\\""}],"deletes":[]}',
  '{"upserts":[{"id":"u","ü":"é\\u005d\\u0022","n":-1.5e+3,"b":true,"z":null,"e":{},"a":[]}]}',
  // JSON.parse keeps the last of duplicate members, and so must the scan; an escaped name is the same name.
  '{"upserts":[{"id":"old"}],"deletes":["k"],"upserts":[{"id":"new1"},{"id":"new2"}]}',
  '{"upserts":[{"id":"first"}],"\\u0075psert\\u0073":[{"id":"escaped"}]}',
];

function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/** A random JSON value of bounded depth, written with random spacing. */
function randomText(rnd: () => number, depth: number): string {
  const ws = () => [' ', '', '\n', '\t', '  '][Math.floor(rnd() * 5)]!;
  const r = rnd();
  if (depth <= 0 || r < 0.35) {
    const k = Math.floor(rnd() * 6);
    if (k === 0) return String(Math.floor(rnd() * 1e6) - 5e5);
    if (k === 1) return ['true', 'false', 'null'][Math.floor(rnd() * 3)]!;
    const alphabet = ['a', '"', '\\', ']', '}', '{', '[', ',', ':', 'é', '😀', '\n', '\u0000'];
    let s = '';
    for (let i = Math.floor(rnd() * 8); i > 0; i--) s += alphabet[Math.floor(rnd() * alphabet.length)];
    return JSON.stringify(s);
  }
  const n = Math.floor(rnd() * 4);
  if (r < 0.6) return `[${ws()}${Array.from({ length: n }, () => randomText(rnd, depth - 1)).join(`${ws()},${ws()}`)}${ws()}]`;
  return `{${ws()}${Array.from({ length: n }, (_, i) => `${JSON.stringify(`k${i}]"`)}${ws()}:${ws()}${randomText(rnd, depth - 1)}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

function spansOf(text: string): string[] {
  const b = Buffer.from(text);
  const spans = upsertSpans(b);
  assert.ok(spans, `no upserts found in ${text}`);
  const out: string[] = [];
  for (let i = 0; i < spans.length; i += 2) out.push(b.toString('utf8', spans[i], spans[i + 1]));
  return out;
}

test('the write path\'s scan gives each upsert\'s exact text, whatever the strings, escapes, nesting and spacing', () => {
  for (const text of TRICKY) {
    const docs = (JSON.parse(text) as { upserts: unknown[] }).upserts;
    const found = spansOf(text);
    assert.equal(found.length, docs.length, text);
    found.forEach((t, i) => assert.deepEqual(JSON.parse(t), docs[i], `${text}: upsert ${i}`));
  }
  const rnd = seeded(20);
  for (let round = 0; round < 300; round++) {
    const docs = Array.from({ length: 1 + Math.floor(rnd() * 4) }, (_, i) => `{ "id" : "d${i}" , "v" :${randomText(rnd, 4)} }`);
    const text = `{ "deletes":[${randomText(rnd, 2)}] , "upserts" : [ ${docs.join(' ,\n')} ] }`;
    JSON.parse(text); // the generator writes valid JSON
    assert.deepEqual(spansOf(text), docs, text);
  }
  assert.equal(upsertSpans(Buffer.from('{"deletes":["a"]}')), null, 'a body without upserts has none');
  assert.equal(upsertSpans(Buffer.from('[1,2]')), null);
});

// Documents are stored as the JSON text they were sent as (src/collection/batch-text.ts):
// the scan finds each upsert's text in bodies built to trip it, and through a node a document
// reads back as sent (its spacing and a number's every digit), by key, strongly and eventually.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { upsertSpans } from '../../src/collection/batch-text.js';
import { http, testNode, until, type TestNode } from '../node/helpers.js';

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

describe('each upsert stored as the text it was sent as', () => {
  test('the scan gives each upsert\'s exact text, whatever the strings, escapes, nesting and spacing', () => {
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

  describe('through a node', () => {
    let n: TestNode;
    const C = '/v1/namespaces/raw/collections/docs';
    before(async () => {
      n = await testNode();
      assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'raw' })).status, 201);
      assert.equal((await http(n.url, 'POST', '/v1/namespaces/raw/collections', { name: 'docs', primary_key: 'id', partitions: 2, fields: { n: 'number' } })).status, 201);
    });
    after(async () => n.cleanup());

    test('a document reads back as sent: its spacing and every digit of a number JSON.stringify would round', async () => {
      const sent = '{ "id": "big",  "n": 12345678901234567890, "s": "a\\u00e9\\"b" }';
      const w = await http(n.url, 'POST', `${C}/documents`, `{"upserts": [${sent}, {"id":"plain","n":1}]}`);
      assert.equal(w.status, 200, JSON.stringify(w.body));
      const strong = await fetch(`${n.url}${C}/documents/big`);
      assert.equal(strong.status, 200);
      assert.equal(await strong.text(), sent, 'a strong read returns the document as it was sent');
      const eventual = await until(async () => {
        const r = await fetch(`${n.url}${C}/documents/big?consistency=eventual`);
        return r.status === 200 ? r.text() : undefined;
      });
      assert.equal(eventual, sent, 'and so does a read from the applied data files');
      const q = await http(n.url, 'POST', `${C}/query`, { filter: { n: { $gt: 1 } } });
      assert.deepEqual(q.body.documents.map((d: { id: string }) => d.id), ['big'], 'the stored text is the value the write validated');
    });

    test('a refused document in a batch writes nothing of it, as before', async () => {
      const w = await http(n.url, 'POST', `${C}/documents`, '{"upserts":[{"id":"ok"},{"id":"bad","n":"text"}]}');
      assert.equal(w.status, 400);
      assert.match(w.body.error.message, /upserts\[1\]\.n/);
      assert.equal((await http(n.url, 'GET', `${C}/documents/ok`)).status, 404);
    });
  });
});

// The API keeps its contract under hostile input (issue 14): every error is a 4xx in the
// API's own shape {"error":{"code","message"}} naming what to fix, and a refused request
// wrote nothing. Runs a real node with API keys over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { MAX_KEY_BYTES } from '../../src/log/keys.js';
import { MAX_DOC_DEPTH } from '../../src/collection/document.js';

let node: LoamNode;
let auth: Record<string, string>;
const C = '/v1/namespaces/ns/collections';

interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  body: any;
}

/** Raw HTTP (no client-side URL normalisation), so bad escapes and huge headers reach the server as sent. */
function raw(method: string, path: string, o: { body?: string | Buffer; headers?: Record<string, string> } = {}): Promise<Res> {
  const u = new URL(node.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { ...auth, ...o.headers }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = null;
        try {
          body = JSON.parse(text);
        } catch {
          /* not JSON */
        }
        resolve({ status: res.statusCode!, headers: res.headers, text, body });
      });
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    if (o.body !== undefined) req.end(o.body);
    else req.end();
  });
}

const json = (method: string, path: string, body: unknown) => raw(method, path, { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** The API's error shape, with the status and code expected. */
function isError(r: Res, status: number, code?: string): void {
  assert.equal(r.status, status, `${r.status} ${r.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(r.body ?? {}), ['error'], `error body: ${r.text.slice(0, 300)}`);
  assert.deepEqual(Object.keys(r.body.error).sort(), ['code', 'message']);
  if (code) assert.equal(r.body.error.code, code, r.body.error.message);
}

before(async () => {
  node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent' }));
  auth = { authorization: `Bearer ${node.bootstrapKey}` };
  assert.equal((await json('POST', '/v1/namespaces', { name: 'ns' })).status, 201);
  assert.equal((await json('POST', C, { name: 's', primary_key: 'id' })).status, 201);
  assert.equal((await json('POST', C, { name: 'n', primary_key: 'id', fields: { id: 'number', x: 'number' } })).status, 201);
});
after(async () => node?.close());

describe('documents', () => {
  test(`a document nested deeper than ${MAX_DOC_DEPTH} levels is a 400 naming the field, at any depth (10,000 levels)`, async () => {
    for (const depth of [MAX_DOC_DEPTH + 1, MAX_DOC_DEPTH + 20, 10_000]) {
      const body = `{"upserts":[{"id":"deep${depth}","a":${'{"b":'.repeat(depth - 1)}1${'}'.repeat(depth - 1)}}]}`;
      const r = await json('POST', `${C}/s/documents`, body);
      isError(r, 400, 'invalid_argument');
      assert.match(r.body.error.message, /upserts\[0\]\.a\.b\.b/);
      assert.match(r.body.error.message, /deeper than/);
      isError(await raw('GET', `${C}/s/documents/deep${depth}`), 404, 'not_found');
    }
    const ok = `{"upserts":[{"id":"deepok","a":${'{"b":'.repeat(MAX_DOC_DEPTH - 2)}1${'}'.repeat(MAX_DOC_DEPTH - 2)}}]}`;
    assert.equal((await json('POST', `${C}/s/documents`, ok)).status, 200);
    assert.equal((await raw('GET', `${C}/s/documents/deepok`)).status, 200);
  });

  test(`every key the write path accepts (up to ${MAX_KEY_BYTES} bytes) is readable by GET and query`, async () => {
    const keys = ['k'.repeat(101), 'k'.repeat(MAX_KEY_BYTES), 'é'.repeat(MAX_KEY_BYTES / 2), '日'.repeat(Math.floor(MAX_KEY_BYTES / 3)), 'a/b?c#d%e f', '🙂'.repeat(MAX_KEY_BYTES / 4)];
    for (const id of keys) {
      assert.equal((await json('POST', `${C}/s/documents`, { upserts: [{ id, v: id.length }] })).status, 200, `write ${id.slice(0, 20)}…`);
      const r = await raw('GET', `${C}/s/documents/${encodeURIComponent(id)}`);
      assert.equal(r.status, 200, `GET of a ${Buffer.byteLength(id)}-byte key: ${r.text.slice(0, 200)}`);
      assert.equal(r.body.id, id);
    }
    const over = 'k'.repeat(MAX_KEY_BYTES + 1);
    isError(await json('POST', `${C}/s/documents`, { upserts: [{ id: over }] }), 400, 'invalid_argument');
    isError(await raw('GET', `${C}/s/documents/${over}`), 400, 'invalid_argument');
  });

  test('a primary key that is not well-formed Unicode (a lone surrogate) is refused, not folded into another key', async () => {
    // JSON's \u escapes can carry half a surrogate pair; its UTF-8 form would be U+FFFD, so
    // "\ud800" and "\udc00" would name one document and the second write would replace the first.
    for (const [body, field] of [['{"upserts":[{"id":"\\ud800","v":1}]}', 'upserts[0].id'], ['{"upserts":[{"id":"ok"},{"id":"a\\udc00"}]}', 'upserts[1].id'], ['{"deletes":["\\udfff"]}', 'deletes[0]']] as const) {
      const r = await json('POST', `${C}/s/documents`, body);
      isError(r, 400, 'invalid_argument');
      assert.ok(r.body.error.message.includes(field) && /surrogate/.test(r.body.error.message), `${body}: ${r.body.error.message}`);
    }
    isError(await raw('GET', `${C}/s/documents/ok`), 404, 'not_found');
    // A whole pair is one character and a key like any other.
    assert.equal((await json('POST', `${C}/s/documents`, '{"upserts":[{"id":"\\ud83d\\ude42","v":1}]}')).status, 200);
    assert.equal((await raw('GET', `${C}/s/documents/${encodeURIComponent('\u{1F642}')}`)).body.v, 1);
  });

  test('numbers: non-finite values, unsafe integer keys and mistyped keys are refused, naming the field', async () => {
    const cases: [string, string, string][] = [
      [`${C}/s/documents`, '{"upserts":[{"id":"inf","v":1e400}]}', 'upserts[0].v'],
      [`${C}/s/documents`, '{"upserts":[{"id":"inf2","v":[1,-1e999]}]}', 'upserts[0].v[1]'],
      [`${C}/s/documents`, '{"upserts":[{"id":12345678901234567890}]}', 'upserts[0].id'],
      [`${C}/s/documents`, '{"deletes":[9007199254740993]}', 'deletes[0]'],
      [`${C}/n/documents`, '{"upserts":[{"id":"abc"}]}', 'upserts[0].id'],
      [`${C}/n/documents`, '{"deletes":["abc"]}', 'deletes[0]'],
      [`${C}/n/documents`, '{"upserts":[{"id":1,"x":"abc"}]}', 'upserts[0].x'],
    ];
    for (const [path, body, field] of cases) {
      const r = await json('POST', path, body);
      isError(r, 400, 'invalid_argument');
      assert.ok(r.body.error.message.includes(field), `${body}: ${r.body.error.message} should name ${field}`);
    }
    // The advice fits the key's type: a string key may carry a large integer as a string, a number key may not.
    const advice = async (path: string, body: string) => (await json('POST', path, body)).body.error.message as string;
    assert.match(await advice(`${C}/s/documents`, '{"upserts":[{"id":1e21}]}'), /send it as a string/);
    for (const body of ['{"upserts":[{"id":1e21}]}', '{"deletes":[9007199254740993]}']) {
      const m = await advice(`${C}/n/documents`, body);
      assert.doesNotMatch(m, /send it as a string/, `${body} on a number key: ${m}`);
      assert.match(m, /primary key is a number/);
    }
    for (const id of ['inf', 'inf2', '12345678901234567000', '12345678901234567890']) isError(await raw('GET', `${C}/s/documents/${id}`), 404);
    isError(await raw('GET', `${C}/n/documents/abc`), 404);
    // The largest exact integer is a key like any other.
    assert.equal((await json('POST', `${C}/n/documents`, `{"upserts":[{"id":${Number.MAX_SAFE_INTEGER},"x":1.5}]}`)).status, 200);
    assert.equal((await raw('GET', `${C}/n/documents/${Number.MAX_SAFE_INTEGER}`)).body.id, Number.MAX_SAFE_INTEGER);
  });
});

describe('routes', () => {
  test('a URL matching no route is 404 after authentication (401 without a key); a method a route does not take is 405 with Allow', async () => {
    for (const path of ['/v1/nothing', '/v1/namespaces/ns/collections/s/nothing', '/v2/namespaces', '/']) {
      isError(await raw('GET', path), 404, 'not_found');
      isError(await raw('GET', path, { headers: { authorization: '' } }), 401, 'unauthenticated');
    }
    const r = await raw('PUT', '/v1/namespaces');
    isError(r, 405, 'method_not_allowed');
    assert.equal(r.headers.allow, 'GET, HEAD, POST');
    const d = await raw('PATCH', `${C}/s/documents/x`);
    isError(d, 405, 'method_not_allowed');
    assert.equal(d.headers.allow, 'GET, HEAD');
    isError(await raw('PUT', '/v1/namespaces', { headers: { authorization: '' } }), 401, 'unauthenticated');
  });

  test('a Content-Type: application/json with no body is no body: a DELETE or GET goes on, 404 and 405 stay, a route that takes a body says it is missing', async () => {
    const empty = { body: '', headers: { 'content-type': 'application/json' } };
    assert.equal((await json('POST', '/v1/namespaces', { name: 'emptybody' })).status, 201);
    assert.equal((await raw('GET', '/v1/namespaces/emptybody', empty)).status, 200);
    assert.equal((await raw('DELETE', '/v1/namespaces/emptybody', empty)).status, 204, 'curl -X DELETE -H content-type:… deletes');
    isError(await raw('GET', '/v1/namespaces/emptybody', empty), 404, 'not_found');
    isError(await raw('PATCH', '/v1/namespaces', empty), 405, 'method_not_allowed');
    isError(await raw('GET', '/v1/nothing', empty), 404, 'not_found');
    for (const r of [await raw('POST', '/v1/namespaces', empty), await raw('POST', '/v1/namespaces'), await json('POST', '/v1/namespaces', '[]')]) {
      isError(r, 400, 'invalid_json');
      assert.match(r.body.error.message, /send a JSON object/);
    }
  });

  test("fastify's and Node's own errors answer in the API's shape: bad escapes, long URLs and headers", async () => {
    isError(await raw('GET', '/v1/namespaces/%FF'), 400, 'invalid_url');
    isError(await raw('GET', `${C}/s/documents/%E0%A4%A`), 400, 'invalid_url');
    const longUrl = await raw('GET', `${C}/s/documents/x?token=${'A'.repeat(20_000)}`);
    isError(longUrl, 431, 'headers_too_large');
    isError(await raw('GET', '/v1/namespaces', { headers: { 'x-big': 'x'.repeat(20_000) } }), 431, 'headers_too_large');
  });
});

describe('bodies', () => {
  test('invalid UTF-8 is a 400 saying so; text/plain and other media types are 415; bad JSON is 400', async () => {
    const bad = Buffer.concat([Buffer.from('{"upserts":[{"id":"'), Buffer.from([0xff, 0xfe]), Buffer.from('"}]}')]);
    const r = await raw('POST', `${C}/s/documents`, { body: bad, headers: { 'content-type': 'application/json' } });
    isError(r, 400, 'invalid_encoding');
    assert.match(r.body.error.message, /UTF-8/);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      isError(await raw('POST', `${C}/s/documents`, { body: '{"upserts":[{"id":"t"}]}', headers: { 'content-type': type } }), 415, 'unsupported_media_type');
    }
    isError(await raw('GET', `${C}/s/documents/t`), 404);
    isError(await json('POST', `${C}/s/documents`, '{"upserts": ['), 400, 'invalid_json');
    isError(await json('POST', '/v1/namespaces', '{"name":"x","__proto__":{"a":1}}'), 400);
  });

  test('a Content-Encoding, or a charset other than UTF-8, is 415 naming it, and nothing is written', async () => {
    const body = '{"upserts":[{"id":"enc"}]}';
    for (const [headers, says] of [
      [{ 'content-type': 'application/json', 'content-encoding': 'gzip' }, /Content-Encoding "gzip"/],
      [{ 'content-type': 'application/json', 'content-encoding': 'br' }, /Content-Encoding "br"/],
      [{ 'content-type': 'application/json; charset=latin1' }, /charset "latin1"/],
      [{ 'content-type': 'application/json; charset="utf-16"' }, /charset "utf-16"/],
    ] as const) {
      const r = await raw('POST', `${C}/s/documents`, { body, headers });
      isError(r, 415, 'unsupported_media_type');
      assert.match(r.body.error.message, says);
    }
    // A gzip body is refused as gzip, not as "not UTF-8".
    const gz = await raw('POST', `${C}/s/documents`, { body: gzipSync(body), headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    isError(gz, 415, 'unsupported_media_type');
    isError(await raw('GET', `${C}/s/documents/enc`), 404);
    for (const type of ['application/json; charset=utf-8', 'application/json; charset=UTF-8', 'application/json;charset=utf8']) {
      const ok = await raw('POST', `${C}/s/documents`, { body, headers: { 'content-type': type, 'content-encoding': 'identity' } });
      assert.equal(ok.status, 200, `${type}: ${JSON.stringify(ok.body)}`);
    }
  });

  test('bad JSON says where; a "__proto__" key, or "constructor" holding "prototype", is refused by name, not as bad JSON', async () => {
    const syntax = await json('POST', `${C}/s/documents`, '{"upserts":[{"id":"j" "v":1}]}');
    isError(syntax, 400, 'invalid_json');
    assert.match(syntax.body.error.message, /position 22/, syntax.body.error.message);
    for (const body of ['{"upserts":[{"id":"p1","__proto__":{"admin":true}}]}', '{"upserts":[{"id":"p2","constructor":{"prototype":{"x":1}}}]}']) {
      const r = await json('POST', `${C}/s/documents`, body);
      isError(r, 400, 'invalid_argument');
      assert.match(r.body.error.message, /__proto__.*prototype|prototype.*__proto__/, r.body.error.message);
      assert.match(r.body.error.message, /rename/, r.body.error.message);
    }
    for (const id of ['p1', 'p2']) isError(await raw('GET', `${C}/s/documents/${id}`), 404, 'not_found');
    // "constructor" alone is an ordinary field name.
    assert.equal((await json('POST', `${C}/s/documents`, '{"upserts":[{"id":"p3","constructor":"Ada"}]}')).status, 200);
    assert.equal((await raw('GET', `${C}/s/documents/p3`)).body.constructor, 'Ada');
  });

  test('a primary key value that is neither a non-empty string nor a number is refused saying what is accepted, naming the item', async () => {
    const cases: [string, unknown, string][] = [
      [`${C}/s/documents`, { deletes: ['a', true] }, 'body.deletes[1]'],
      [`${C}/s/documents`, { deletes: ['a', 'b', ''] }, 'body.deletes[2]'],
      [`${C}/s/documents`, { deletes: [null] }, 'body.deletes[0]'],
      [`${C}/s/documents`, { upserts: [{ id: 'kept' }], deletes: [{ id: 'x' }] }, 'body.deletes[0]'],
      [`${C}/s/erase`, { keys: [1, false] }, 'body.keys[1]'],
      ['/v1/erasures/er_0123456789abcdef/verify', { key: ['x'] }, 'body.key'],
    ];
    for (const [path, body, field] of cases) {
      const r = await json('POST', path, body);
      isError(r, 400, 'invalid_argument');
      assert.equal(r.body.error.message, `${field} must be a non-empty string or a number`, JSON.stringify(body));
    }
    isError(await raw('GET', `${C}/s/documents/kept`), 404, 'not_found');
  });

  test('a batch over 10,000 items is 413 as documented; types in bodies are not coerced', async () => {
    isError(await json('POST', `${C}/s/documents`, { upserts: Array.from({ length: 10_001 }, (_, i) => ({ id: i })) }), 413, 'too_large');
    isError(await json('POST', `${C}/s/documents`, { deletes: Array.from({ length: 10_001 }, (_, i) => i) }), 413, 'too_large');
    isError(await json('POST', `${C}/s/documents`, { upserts: Array.from({ length: 5_001 }, (_, i) => ({ id: i })), deletes: Array.from({ length: 5_000 }, (_, i) => `d${i}`) }), 413, 'too_large');
    isError(await raw('GET', `${C}/s/documents/0`), 404);
    for (const limit of [true, '5', 1.5, null]) {
      const r = await json('POST', `${C}/s/query`, { limit });
      isError(r, 400, 'invalid_argument');
      assert.match(r.body.error.message, /body\.limit/);
    }
    isError(await json('POST', C, { name: 'p', primary_key: 'id', partitions: '4' }), 400, 'invalid_argument');
    // Querystrings are text: page_size=2 is still the number 2.
    assert.equal((await raw('GET', '/v1/namespaces?page_size=1')).status, 200);
  });
});

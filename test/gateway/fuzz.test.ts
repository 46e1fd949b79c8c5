// The HTTP API under generated hostile requests (issue 14's contract, at scale): every
// operation /v1/openapi.json lists is called with seeded random path segments, query values
// and bodies made from its own request schema and then broken — fields of the wrong type,
// required ones dropped, unknown ones added, numbers and strings at their extremes, bodies
// that are not JSON. Every answer must be below 500, and every error the API's own
// {"error":{"code","message"}}; the node must still serve afterwards.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, test } from 'node:test';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { mulberry32 } from '../../src/check/prng.js';

/** Requests per operation. */
const PER_OP = Number(process.env.LOAM_FUZZ_PER_OP ?? 30);
const SEED = Number(process.env.LOAM_FUZZ_SEED ?? 1);
/** Schema nesting followed at most. */
const MAX_DEPTH = 5;

const SEGMENTS = ['ns', 's', 'n', 'default', 'other', 'x'.repeat(300), '%00', '..', '%2e%2e', '%ff', '%C3%A9', '%E2%80%AE', '__proto__', 'constructor', '0', '-1', '9007199254740993', ''];
const STRINGS = ['', 'a', 'ns', 's', 'id', 'x'.repeat(70), 'x'.repeat(20_000), 'a\u0000b', '\ud800', '../x', '__proto__', 'default', 'writer', 'admin', 'operator', 'request_rate', '2026-12-03T00:00:00Z', 'ns:ns', 'collection:ns/s'];
const NUMBERS = [0, 1, -1, 0.5, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, 86_400_000];
const JUNK: unknown[] = [null, true, 'x', 7, [], {}, [1, 'a'], { a: { b: {} } }];

type Schema = { type?: string | string[]; properties?: Record<string, Schema>; required?: string[]; items?: Schema; enum?: unknown[]; oneOf?: Schema[]; anyOf?: Schema[]; additionalProperties?: boolean | Schema; minimum?: number; maximum?: number; maxLength?: number; maxItems?: number };

function gen(s: Schema | undefined, rnd: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  if (!s || depth > MAX_DEPTH || rnd() < 0.08) return pick(JUNK);
  if (s.enum) return rnd() < 0.85 ? pick(s.enum) : pick(STRINGS);
  const alt = s.oneOf ?? s.anyOf;
  if (alt) return gen(pick(alt), rnd, depth + 1);
  const type = Array.isArray(s.type) ? pick(s.type) : s.type;
  switch (type) {
    case 'object': {
      const o: Record<string, unknown> = {};
      for (const [k, sub] of Object.entries(s.properties ?? {})) {
        const req = s.required?.includes(k);
        if (rnd() < (req ? 0.05 : 0.4)) continue;
        o[k] = gen(sub, rnd, depth + 1);
      }
      if (rnd() < 0.1) o[pick(['extra', '__proto__', 'constructor'])] = pick(JUNK);
      return o;
    }
    case 'array': {
      const n = rnd() < 0.05 ? (s.maxItems ?? 100) + 1 : Math.floor(rnd() * 4);
      return Array.from({ length: n }, () => gen(s.items, rnd, depth + 1));
    }
    case 'integer':
    case 'number':
      return rnd() < 0.2 && s.maximum !== undefined ? s.maximum + 1 : pick(NUMBERS);
    case 'boolean':
      return rnd() < 0.5;
    case 'null':
      return null;
    default:
      return rnd() < 0.1 && s.maxLength !== undefined ? 'y'.repeat(s.maxLength + 1) : pick(STRINGS);
  }
}

/** A query value as sent: a lone surrogate, which encodeURIComponent refuses, goes as its WTF-8 bytes. */
function encode(v: string): string {
  try {
    return encodeURIComponent(v);
  } catch {
    return '%ED%A0%80';
  }
}

interface Res {
  status: number;
  text: string;
}

let node: LoamNode;
let auth: Record<string, string>;

function send(method: string, path: string, body: string | undefined, headers: Record<string, string>): Promise<Res> {
  const u = new URL(node.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers: { ...auth, ...headers }, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('timeout', () => req.destroy(new Error(`timeout: ${method} ${path}`)));
    req.on('error', reject);
    req.end(body);
  });
}

before(async () => {
  node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', erasure_kek: '5e'.repeat(32) }));
  auth = { authorization: `Bearer ${node.bootstrapKey}` };
  const j = { 'content-type': 'application/json' };
  assert.equal((await send('POST', '/v1/namespaces', JSON.stringify({ name: 'ns' }), j)).status, 201);
  assert.equal((await send('POST', '/v1/namespaces/ns/collections', JSON.stringify({ name: 's', primary_key: 'id' }), j)).status, 201);
  assert.equal((await send('POST', '/v1/namespaces/ns/collections', JSON.stringify({ name: 'n', primary_key: 'id', fields: { id: 'number', x: 'number' } }), j)).status, 201);
});
after(async () => node?.close());

describe('HTTP API: generated hostile requests', () => {
  test(`every operation of /v1/openapi.json answers ${PER_OP} generated requests below 500, every error in the API's shape (seed ${SEED})`, async () => {
    const doc = JSON.parse((await send('GET', '/v1/openapi.json', undefined, {})).text) as { paths: Record<string, Record<string, { parameters?: { in: string; name: string; schema?: Schema }[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }>> };
    const rnd = mulberry32(SEED);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
    const bad: string[] = [];
    let calls = 0;
    const ops = Object.entries(doc.paths).flatMap(([p, item]) => Object.entries(item).map(([m, op]) => ({ path: p, method: m.toUpperCase(), op })));
    assert.ok(ops.length >= 20, `the document lists ${ops.length} operations`);
    for (const { path, method, op } of ops) {
      for (let i = 0; i < PER_OP; i++) {
        const url = path.replace(/\{[^}]+\}/g, () => (rnd() < 0.6 ? pick(['ns', 's', 'n', 'default']) : pick(SEGMENTS)));
        const query = (op.parameters ?? [])
          .filter((x) => x.in === 'query' && rnd() < 0.5)
          .map((x) => `${x.name}=${encode(String(rnd() < 0.5 ? gen(x.schema, rnd, 0) : pick(SEGMENTS)))}`);
        const schema = op.requestBody?.content?.['application/json']?.schema;
        let body: string | undefined;
        const headers: Record<string, string> = {};
        if (schema || rnd() < 0.2) {
          const r = rnd();
          body = r < 0.08 ? '{"a":' : r < 0.12 ? 'null' : r < 0.15 ? '\u0000\u00ff' : JSON.stringify(gen(schema, rnd, 0));
          headers['content-type'] = rnd() < 0.95 ? 'application/json' : pick(['text/plain', 'application/x-www-form-urlencoded', 'application/json; charset=latin1']);
        }
        const res = await send(method, `${url}${query.length ? `?${query.join('&')}` : ''}`, body, headers);
        calls++;
        const what = `${method} ${url}${query.length ? `?${query.join('&')}` : ''} ${String(body).slice(0, 200)} → ${res.status} ${res.text.slice(0, 300)}`;
        if (res.status >= 500) {
          bad.push(what);
          continue;
        }
        if (res.status >= 400) {
          let shape = false;
          try {
            const e = JSON.parse(res.text) as { error?: Record<string, unknown> };
            shape = Object.keys(e).join() === 'error' && Object.keys(e.error ?? {}).sort().join() === 'code,message' && typeof e.error!.code === 'string' && typeof e.error!.message === 'string' && e.error!.message !== '';
          } catch {
            /* not JSON */
          }
          if (!shape) bad.push(`not the error shape: ${what}`);
        }
      }
    }
    assert.deepEqual(bad, [], `${bad.length} of ${calls} generated requests broke the contract`);
    // Still serving.
    assert.equal((await send('GET', '/healthz', undefined, {})).status, 200);
    assert.equal((await send('GET', '/v1/namespaces', undefined, {})).status, 200);
  });
});

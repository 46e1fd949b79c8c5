// The OpenAPI document lists every status each operation can answer: this walks every
// operation of an authenticated node's /v1/openapi.json, provokes each kind of answer it can
// give (success, no key, a key without the right, bad and unknown path parameters, unknown
// query parameters, bodies of the wrong type, encoding, syntax and size, oversized headers,
// the request rate quota) and checks that every status it saw is declared for it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { BODY_LIMIT_BYTES } from '../../src/gateway/server.js';

let node: LoamNode;
let admin: string;
let stranger: string;

interface Op {
  id: string;
  method: string;
  path: string;
  params: string[];
  query: boolean;
  declared: Set<number>;
}

function send(method: string, path: string, o: { key?: string | null; body?: string | Buffer; type?: string; headers?: Record<string, string>; declaredLength?: number } = {}): Promise<{ status: number; body: any }> {
  const u = new URL(node.url);
  const headers: Record<string, string> = { ...o.headers };
  const key = o.key === undefined ? admin : o.key;
  if (key) headers.authorization = `Bearer ${key}`;
  if (o.type) headers['content-type'] = o.type;
  if (o.declaredLength !== undefined) headers['content-length'] = String(o.declaredLength);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, method, path, headers, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          /* none */
        }
        resolve({ status: res.statusCode!, body });
        req.destroy();
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timeout`)));
    req.on('error', reject);
    if (o.declaredLength !== undefined) req.write('{"a":'); // the server answers from the declared length
    else if (o.body !== undefined) req.end(o.body);
    else req.end();
  });
}

before(async () => {
  node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent' }));
  admin = node.bootstrapKey!;
  const j = (method: string, path: string, body: unknown) => send(method, path, { body: JSON.stringify(body), type: 'application/json' });
  for (const name of ['ns', 'other']) assert.equal((await j('POST', '/v1/namespaces', { name })).status, 201);
  assert.equal((await j('POST', '/v1/namespaces/ns/collections', { name: 'c', primary_key: 'id' })).status, 201);
  assert.equal((await j('POST', '/v1/namespaces/ns/collections/c/documents', { upserts: [{ id: 'd' }] })).status, 200);
  const k = await j('POST', '/v1/keys', { role: 'reader', namespace: 'other' });
  assert.equal(k.status, 201);
  stranger = k.body.key;
});
after(async () => node?.close());

test('every status an operation answers is declared in /v1/openapi.json', async () => {
  const doc = (await send('GET', '/v1/openapi.json')).body as { paths: Record<string, Record<string, { operationId: string; parameters?: { name: string; in: string }[]; responses: Record<string, unknown> }>> };
  const ops: Op[] = [];
  for (const [path, methods] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(methods)) {
      const ps = op.parameters ?? [];
      ops.push({
        id: op.operationId,
        method: method.toUpperCase(),
        path,
        params: ps.filter((p) => p.in === 'path').map((p) => p.name),
        query: ps.some((p) => p.in === 'query'),
        declared: new Set(Object.keys(op.responses).map(Number)),
      });
    }
  }
  assert.ok(ops.length >= 20, `${ops.length} operations`);
  const org = (await send('GET', '/v1/org')).body.id as string;
  const sample: Record<string, string> = { ns: 'ns', c: 'c', id: 'd', key: '0123456789abcdef', org };
  const fill = (op: Op, over: Record<string, string> = {}) => op.path.replace(/\{(\w+)\}/g, (_, n: string) => over[n] ?? sample[n] ?? 'x');
  const seen = new Map<string, Map<number, string>>();
  const saw = (op: Op, status: number, what: string) => {
    const m = seen.get(op.id) ?? new Map<number, string>();
    if (!m.has(status)) m.set(status, what);
    seen.set(op.id, m);
  };
  const takesBody = (op: Op) => op.method !== 'GET';

  for (const op of ops) {
    const url = fill(op);
    if (op.method === 'GET') {
      saw(op, (await send('GET', url)).status, "a valid request with the org admin's key");
      saw(op, (await send('GET', url, { key: node.operatorKey })).status, "a valid request with the operator's key");
    }
    saw(op, (await send(op.method, url, { key: null })).status, 'no API key');
    saw(op, (await send(op.method, url, { key: stranger, ...(takesBody(op) ? { body: '{}', type: 'application/json' } : {}) })).status, 'a key without the right');
    for (const p of op.params) {
      for (const [v, what] of [
        ['%FF', 'a bad %-escape'],
        ['no-such-thing', 'an unknown resource'],
        [encodeURIComponent('bad name!'), 'an invalid name'],
        ['x'.repeat(5_000), 'a parameter over the router limit'],
      ] as const) {
        saw(op, (await send(op.method, fill(op, { [p]: v }), takesBody(op) ? { body: '{}', type: 'application/json' } : {})).status, `${p}: ${what}`);
      }
    }
    saw(op, (await send(op.method, op.query ? `${url}?zzz=1&page_size=0` : `${url}?zzz=1`)).status, op.query ? 'unknown and out-of-range query parameters' : 'a query parameter on a route that takes none');
    if (takesBody(op)) {
      saw(op, (await send(op.method, url, { body: '{"a":1}', type: 'text/plain' })).status, 'a text/plain body');
      saw(op, (await send(op.method, url, { body: '{"a":', type: 'application/json' })).status, 'invalid JSON');
      saw(op, (await send(op.method, url, { body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]), type: 'application/json' })).status, 'invalid UTF-8');
      saw(op, (await send(op.method, url, { body: '[1,2]', type: 'application/json' })).status, 'a body of the wrong shape');
      saw(op, (await send(op.method, url, { type: 'application/json', declaredLength: BODY_LIMIT_BYTES + 1 })).status, 'a body over the limit');
    }
    saw(op, (await send(op.method, url, { headers: { 'x-pad': 'x'.repeat(20_000) } })).status, 'headers over the limit');
  }

  // Last, the request rate: a quota of 1 per second (set by the operator) makes the second request of each a 429.
  const q = await send('PUT', `/v1/orgs/${org}/quotas`, { key: node.operatorKey, body: JSON.stringify({ name: 'request_rate', value: 1 }), type: 'application/json' });
  assert.equal(q.status, 200, JSON.stringify(q.body));
  for (const op of ops) {
    for (let i = 0; i < 2; i++) saw(op, (await send(op.method, fill(op), takesBody(op) ? { body: '{}', type: 'application/json' } : {})).status, 'over the request rate');
  }

  const missing: string[] = [];
  for (const op of ops) {
    for (const [status, what] of seen.get(op.id) ?? []) if (!op.declared.has(status)) missing.push(`${op.method} ${op.path} (${op.id}) answered ${status} to ${what} but does not declare it`);
  }
  assert.deepEqual(missing, []);
  // The walk reached the statuses it meant to.
  const all = new Set([...seen.values()].flatMap((m) => [...m.keys()]));
  for (const s of [200, 400, 401, 403, 404, 413, 415, 429, 431]) assert.ok(all.has(s), `some operation answered ${s}`);
});

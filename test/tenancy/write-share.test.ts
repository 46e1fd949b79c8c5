// Tenants and the node's write budget (src/gateway/body-admission.ts, write-budget.ts): a
// write body holds its share of write_inflight_bytes until its last byte arrives, so a caller
// that declares a large body and sends it slowly holds that share for as long as it likes. A
// request without a valid key is answered 401 before any of its body is read and holds
// nothing; an org's slow bodies hold at most its share (half), and another org's writes go on.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import type { BackendFactory } from '../harness/backends.js';
import { TEST_AUTHORIZER } from '../harness/authorizers.js';
import type { LoamNode } from '../../src/node/node.js';
import { call as callNode, keyedTenancyNode } from './helpers.js';

/** The smallest budget a node takes; each org holds at most half of it. */
const BUDGET = 64 * 1024;
/** How long a write waits for the budget before it is refused (503). */
const QUEUE_TIMEOUT_MS = 1_000;
/** What a slow caller declares: far over the budget, so it is charged the most it may hold. */
const DECLARED_BYTES = 1_000_000;
/** How long a socket waits for an answer. */
const ANSWER_TIMEOUT_MS = 5_000;

let f: BackendFactory;
let node: LoamNode;
/** Writes need collections, which need multi-item transactions: a single-item backend (alternator) skips these cases, by capability. */
let dataPlane = false;
let admin: string;
let acme: string;
const open: Socket[] = [];

const call = (method: string, path: string, key: string | null, body?: unknown) => callNode(node, method, path, key, body);

/** A write whose headers say DECLARED_BYTES and whose body has only begun; resolves with the socket and whatever it is answered. */
function slowWrite(key: string | null): { socket: Socket; answered: Promise<string> } {
  const u = new URL(node.url);
  const socket = connect(Number(u.port), u.hostname);
  open.push(socket);
  const auth = key ? `Authorization: Bearer ${key}\r\n` : '';
  socket.write(`POST /v1/namespaces/n/collections/c/documents HTTP/1.1\r\nHost: loam\r\n${auth}Content-Type: application/json\r\nContent-Length: ${DECLARED_BYTES}\r\n\r\n{"upserts":[`);
  let text = '';
  const answered = new Promise<string>((resolve) => {
    const t = setTimeout(() => resolve(text), ANSWER_TIMEOUT_MS);
    socket.on('data', (c: Buffer) => {
      text += c.toString('utf8');
      if (text.includes('\r\n\r\n')) {
        clearTimeout(t);
        resolve(text);
      }
    });
    socket.on('error', () => undefined);
  });
  return { socket, answered };
}

before(async () => {
  ({ node, factory: f } = await keyedTenancyNode({ write_inflight_bytes: BUDGET, write_queue_timeout_ms: QUEUE_TIMEOUT_MS }));
  admin = node.bootstrapKey!;
  dataPlane = node.meta.capabilities().transactions === 'multi-item';
  if (!dataPlane) return;
  const created = await call('POST', '/v1/orgs', node.operatorKey!, { id: 'acme' });
  assert.equal(created.status, 201, created.text);
  acme = created.body.admin_key;
  for (const key of [admin, acme]) {
    assert.equal((await call('POST', '/v1/namespaces', key, { name: 'n' })).status, 201);
    assert.equal((await call('POST', '/v1/namespaces/n/collections', key, { name: 'c', primary_key: 'id' })).status, 201);
  }
});

after(async () => {
  for (const s of open) s.destroy();
  await node?.close();
  await f?.cleanup();
});

describe(`the write budget among tenants (${TEST_AUTHORIZER} authorizer)`, () => {
  test('a request without a valid key is 401 before its body is read, and holds none of the budget', async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    for (const key of [null, 'loam_0000000000000000_' + '0'.repeat(64)]) {
      const slow = slowWrite(key);
      // Answered while the body is still owed: the node did not wait for it.
      assert.match(await slow.answered, /^HTTP\/1\.1 401 /, `${key ? 'a wrong key' : 'no key'}: answered 401 before the body`);
    }
    const w = await call('POST', '/v1/namespaces/n/collections/c/documents', admin, { upserts: [{ id: 'after-keyless' }] });
    assert.equal(w.status, 200, `a keyed write goes on: ${w.text}`);
  });

  test("one org's slow bodies hold at most its share: another org's writes go on, its own wait for it", async (t) => {
    if (!dataPlane) return t.skip('needs collections (multi-item transactions)');
    const slow = slowWrite(admin);
    // Admitted (it holds the org's share) and waiting for its body: no answer yet.
    const early = await Promise.race([slow.answered, new Promise<string>((r) => setTimeout(() => r(''), 300))]);
    assert.equal(early, '', `the slow write is still reading its body: ${early}`);
    const other = await call('POST', '/v1/namespaces/n/collections/c/documents', acme, { upserts: [{ id: 'a1', v: 1 }] });
    assert.equal(other.status, 200, `acme's write is not held back by default's slow body: ${other.text}`);
    assert.equal((await call('GET', '/v1/namespaces/n/collections/c/documents/a1', acme)).body.v, 1);
    const own = await call('POST', '/v1/namespaces/n/collections/c/documents', admin, { upserts: [{ id: 'd1' }] });
    assert.equal(own.status, 503, `default's own write waits for default's share, then is refused: ${own.text}`);
    assert.equal(own.body.error.code, 'overloaded');
    assert.equal((await call('GET', '/v1/namespaces/n/collections/c/documents/d1', admin)).status, 404, 'the refused write wrote nothing');
    // Its client gone, the share is back.
    slow.socket.destroy();
    const until = Date.now() + ANSWER_TIMEOUT_MS;
    for (;;) {
      const again = await call('POST', '/v1/namespaces/n/collections/c/documents', admin, { upserts: [{ id: 'd2' }] });
      if (again.status === 200) break;
      assert.ok(Date.now() < until, `default writes again once its slow client is gone: ${again.text}`);
    }
  });
});

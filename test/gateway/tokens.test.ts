// Consistency tokens over HTTP (spec §3.5): a write to as many partitions as a collection may
// have is acknowledged with a token of at most MAX_TOKEN_LENGTH characters, which works in a
// URL on any node; a refused write wrote nothing; a token beyond the heads is refused at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { MemoryStore } from '../../src/store/index.js';
import { MAX_PARTITIONS } from '../../src/meta/limits.js';
import { MAX_BATCH_DOCS } from '../../src/collection/writer.js';
import { MAX_TOKEN_ENTRIES, MAX_TOKEN_LENGTH, TOKEN_MAGIC, TOKEN_VERSION, decodeToken, encodeToken, type TokenEntry } from '../../src/meta/index.js';
import { http, testNode } from '../node/helpers.js';

/** The exact (version 1) wire form, of any length: what nodes before the compact form returned. */
function exactToken(entries: TokenEntry[]): string {
  const bytes: number[] = [TOKEN_MAGIC, TOKEN_VERSION];
  const put = (v: number) => {
    while (v >= 0x80) {
      bytes.push((v % 0x80) | 0x80);
      v = Math.floor(v / 0x80);
    }
    bytes.push(v);
  };
  put(entries.length);
  for (const e of entries) for (const v of [e.ns, e.stream, e.partition, e.offset]) put(v);
  const b = Buffer.from(bytes);
  const out = Buffer.alloc(b.length + 4);
  b.copy(out);
  out.writeUInt32BE(crc32(b), b.length);
  return out.toString('base64url');
}

test(`a ${MAX_BATCH_DOCS}-document write to ${MAX_PARTITIONS} partitions: acknowledged, a token within ${MAX_TOKEN_LENGTH} characters that reads on another node in a URL`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-token-'));
  const store = new MemoryStore();
  // No worker role: applying 10,000 partitions in the background is not what this measures.
  const config = { roles: ['log', 'query'] as ('log' | 'query')[] };
  const a = await testNode({ dir, store, config });
  const b = await testNode({ dir, store, config });
  try {
    await http(a.url, 'POST', '/v1/namespaces', { name: 'ns' });
    assert.equal((await http(a.url, 'POST', '/v1/namespaces/ns/collections', { name: 'wide', primary_key: 'id', partitions: MAX_PARTITIONS })).status, 201);
    const base = '/v1/namespaces/ns/collections/wide';
    const docs = Array.from({ length: MAX_BATCH_DOCS }, (_, i) => ({ id: `d${i}`, i }));
    const w = await http(a.url, 'POST', `${base}/documents`, { upserts: docs }, 120_000);
    assert.equal(w.status, 200, JSON.stringify(w.body).slice(0, 300));
    const token = w.body.token as string;
    console.log(`token of a ${MAX_BATCH_DOCS}-document write to ${MAX_PARTITIONS} partitions: ${token.length} characters (bound ${MAX_TOKEN_LENGTH})`);
    assert.ok(token.length <= MAX_TOKEN_LENGTH, `token is ${token.length} characters`);
    for (const i of [0, 1, 4_999, MAX_BATCH_DOCS - 1]) {
      // A bound, not a measure: the first read catches node b up on 10,000 partitions (over 15 s at load 30).
      const r = await http(b.url, 'GET', `${base}/documents/d${i}?token=${token}`, undefined, 120_000);
      assert.equal(r.status, 200, `d${i} with the token on the other node: ${JSON.stringify(r.body)}`);
      assert.equal(r.body.i, i);
    }
    const q = await http(b.url, 'POST', `${base}/query`, { token, filter: { i: { $gte: MAX_BATCH_DOCS - 3 } } }, 60_000);
    assert.equal(q.status, 200);
    assert.equal(q.body.documents.length, 3);

    // Tokens of earlier nodes (exact, up to MAX_TOKEN_ENTRIES partitions) are still accepted in a query body.
    const ns = await a.meta.namespaceByName('default', 'ns');
    const c = await a.meta.collectionByName(ns.id, 'wide');
    const head = await a.meta.collectionHead(ns.id, c.id);
    const legacy = exactToken(head.heads.filter((h) => h.next > 0).slice(0, MAX_TOKEN_ENTRIES).map((h) => ({ ns: ns.id, stream: c.streamId, partition: h.partition, offset: h.next })));
    assert.ok(legacy.length > MAX_TOKEN_LENGTH, `a legacy token of ${legacy.length} characters`);
    const lq = await http(b.url, 'POST', `${base}/query`, { token: legacy, filter: { i: 7 } });
    assert.equal(lq.status, 200, JSON.stringify(lq.body));
    assert.equal(lq.body.documents[0].i, 7);
  } finally {
    await a.cleanup();
    await b.cleanup();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('writes that together touch more partitions than one WAL object may commit are all acknowledged, none refused after writing', async () => {
  // A long flush interval puts both writes into the same flush.
  const n = await testNode({ config: { flush_interval_ms: 300, roles: ['log', 'query'] } });
  try {
    await http(n.url, 'POST', '/v1/namespaces', { name: 'ns' });
    for (const name of ['a', 'b']) {
      assert.equal((await http(n.url, 'POST', '/v1/namespaces/ns/collections', { name, primary_key: 'id', partitions: MAX_PARTITIONS })).status, 201);
    }
    const body = { upserts: Array.from({ length: MAX_BATCH_DOCS }, (_, i) => ({ id: i })) };
    const [ra, rb] = await Promise.all(['a', 'b'].map((c) => http(n.url, 'POST', `/v1/namespaces/ns/collections/${c}/documents`, body, 120_000)));
    assert.equal(ra!.status, 200, JSON.stringify(ra!.body));
    assert.equal(rb!.status, 200, JSON.stringify(rb!.body));
    for (const c of ['a', 'b']) assert.equal((await http(n.url, 'GET', `/v1/namespaces/ns/collections/${c}/documents/${MAX_BATCH_DOCS - 1}`)).status, 200);
  } finally {
    await n.cleanup();
  }
});

test('a token beyond the partition heads (from the future) is a 400 at once, not a query slot held until a 503', async () => {
  const n = await testNode();
  try {
    await http(n.url, 'POST', '/v1/namespaces', { name: 'ns' });
    await http(n.url, 'POST', '/v1/namespaces/ns/collections', { name: 'c', primary_key: 'id', partitions: 2 });
    const base = '/v1/namespaces/ns/collections/c';
    const w = await http(n.url, 'POST', `${base}/documents`, { upserts: [{ id: 'a' }] });
    const t = decodeToken(w.body.token);
    const future = encodeToken({ entries: t.entries.map((e) => ({ ...e, offset: e.offset + 1_000 })) });
    for (const [method, path, body] of [
      ['GET', `${base}/documents/a?token=${future}`, undefined],
      ['POST', `${base}/query`, { token: future }],
    ] as const) {
      const t0 = Date.now();
      const r = await http(n.url, method, path, body);
      const ms = Date.now() - t0;
      assert.equal(r.status, 400, JSON.stringify(r.body));
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.match(r.body.error.message, /^token: .*head/);
      assert.ok(ms < 1_000, `answered in ${ms} ms`);
    }
    // The write's own token still reads.
    assert.equal((await http(n.url, 'GET', `${base}/documents/a?token=${w.body.token}`)).status, 200);
  } finally {
    await n.cleanup();
  }
});

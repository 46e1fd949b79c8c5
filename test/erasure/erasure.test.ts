// Erasure on one node (embedded metastore, a versioned in-memory bucket): erase hides the key
// at once and answers the erasure; the purge runs to completion (every phase), the tag is
// rewritten, and nothing of the key is left in any object version or in the metastore's file;
// bad input is refused with a typed 4xx and writes nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MemoryStore } from '../../src/store/index.js';
import { http, testNode, type TestNode } from '../node/helpers.js';
import { ERASURE_FAST, completed, tagCurrent, unreadable, writeMarked, type Setup } from './helpers.js';
import { markerCount } from './scan.js';
import { MAX_ERASE_KEYS } from '../../src/erasure/record.js';

/** Every version of every object in a MemoryStore, with its bytes (markers included). */
function allVersions(store: MemoryStore): { path: string; bytes: Buffer }[] {
  const out: { path: string; bytes: Buffer }[] = [];
  for (const [path, vs] of (store as unknown as { objects: Map<string, { bytes: Buffer | null }[]> }).objects) for (const v of vs) if (v.bytes) out.push({ path, bytes: v.bytes });
  return out;
}

describe('erasure on an embedded node with a versioned bucket', () => {
  let n: TestNode;
  let s: Setup;
  const store = new MemoryStore({ versioning: true });
  const marker = `mk${randomBytes(8).toString('hex')}`;

  before(async () => {
    // Unencrypted: the byte scans look for the marker in the formats' own bytes (encryption would hide it before the erasure too).
    n = await testNode({ store, config: { ...ERASURE_FAST, key_provider: 'none' } });
    s = await writeMarked(n, marker);
  });
  after(async () => n?.cleanup());

  test('bad erase requests are typed 4xx naming what to fix, and write nothing', async () => {
    const before = (await n.meta.streamState(s.ns, s.stream)).heads.map((h) => h.next);
    const cases: [string, unknown, number, RegExp][] = [
      ['/v1/namespaces/ns/collections/nope/erase', { keys: ['a'] }, 404, /collection/],
      ['/v1/namespaces/ns/collections/c/erase', { keys: [] }, 400, /body\.keys.*at least one/],
      ['/v1/namespaces/ns/collections/c/erase', { keys: Array.from({ length: MAX_ERASE_KEYS + 1 }, (_, i) => `k${i}`) }, 413, /MAX_ERASE_KEYS/],
      ['/v1/namespaces/ns/collections/c/erase', { keys: ['a'], filter: {} }, 400, /either keys/],
      ['/v1/namespaces/ns/collections/c/erase', {}, 400, /either keys/],
      ['/v1/namespaces/ns/collections/c/erase', { keys: [{ a: 1 }] }, 400, /body\.keys/],
    ];
    for (const [path, body, status, msg] of cases) {
      const r = await http(n.url, 'POST', path, body);
      assert.equal(r.status, status, `${JSON.stringify(body).slice(0, 60)}: ${JSON.stringify(r.body)}`);
      assert.match(r.body.error.message, msg);
      assert.ok(r.body.error.code);
    }
    assert.deepEqual((await n.meta.streamState(s.ns, s.stream)).heads.map((h) => h.next), before, 'a refused erase wrote no delete');
    assert.equal((await http(n.url, 'GET', '/v1/erasures')).body.items.length, 0, 'and no erasure');
    assert.equal((await http(n.url, 'GET', '/v1/erasures/er_00000000')).status, 404);
    const cursor = await http(n.url, 'GET', '/v1/erasures?cursor=zz');
    assert.equal(cursor.status, 400, JSON.stringify(cursor.body));
    assert.match(cursor.body.error.message, /^querystring\.cursor: /, 'a cursor no page returned is named as the query parameter sent');
  });

  test('erase hides the key at once; the purge completes; nothing of it is left in any object version or the metastore file', async () => {
    const tag = await tagCurrent(n, s, 'snapshot');
    // The scan sees the marker where it is (plain, deflated, gzipped) before the erasure.
    const before = allVersions(store).filter((o) => markerCount(o.bytes, marker) > 0).map((o) => o.path);
    for (const kind of [/^wal\//, /\.seg$/, /\.ldf$/, /manifest\/.*\.json$/]) assert.ok(before.some((p) => kind.test(p)), `before: ${kind} in ${before.join(', ')}`);
    const e = await http(n.url, 'POST', '/v1/namespaces/ns/collections/c/erase', { keys: [s.key] });
    assert.equal(e.status, 202, JSON.stringify(e.body));
    assert.match(e.body.erasure.id, /^er_/);
    assert.equal(e.body.erasure.counts.keys, 1);
    assert.ok(e.body.erasure.expected_completion > e.body.erasure.requested);
    assert.ok(!JSON.stringify(e.body).includes(marker), 'the answer holds hashes, not the key');
    assert.equal((await http(n.url, 'GET', `/v1/namespaces/ns/collections/c/documents/${s.key}`)).status, 404, 'hidden at once');

    const done = await completed(n, e.body.erasure.id);
    // Files holding the key were rewritten, or (when a compaction had materialised the delete first) are orphans the erasure deleted.
    assert.ok(done.counts.files_rewritten + done.counts.orphans_deleted >= 1, JSON.stringify(done.counts));
    assert.equal(done.counts.tags_rewritten, 1);
    assert.ok(done.counts.objects_deleted >= done.counts.objects_retired, JSON.stringify(done.counts));
    await unreadable(n, s);

    // The tag names the rewritten manifest, and says by which erasure, from which version.
    const [t] = (await n.meta.listTags(s.ns, s.collection)).items;
    assert.equal(t!.rewrittenBy, done.id);
    assert.equal(t!.manifestVersion, tag.version);
    assert.notEqual(t!.manifestPath, tag.path);
    assert.deepEqual(done.tags.map((x: { to_path: string }) => x.to_path), [t!.manifestPath]);

    // The byte scan: every version of every object (decoded), and the metastore's files.
    const hits = allVersions(store).filter((o) => markerCount(o.bytes, marker) > 0).map((o) => o.path);
    assert.deepEqual(hits, [], 'objects holding the marker');
    for (const f of ['meta.db', 'meta.db-wal']) {
      if (existsSync(join(n.dir, f))) assert.equal(markerCount(readFileSync(join(n.dir, f)), marker), 0, f);
    }
    // The neighbour collection and the collection's other documents are untouched.
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/ns/collections/n/documents/n-3')).body.v, 3);
    assert.equal((await http(n.url, 'GET', '/v1/namespaces/ns/collections/c/documents/other-4')).status, 200);

    // The erasure log: the request and completion records, and verify by the key.
    assert.ok(store.get(`_erasure/default/${done.id}/request.rec`));
    assert.ok(await store.get(`_erasure/default/${done.id}/completion.rec`));
    const v = await http(n.url, 'POST', `/v1/erasures/${done.id}/verify`, { key: s.key });
    assert.equal(v.status, 200, JSON.stringify(v.body));
    assert.equal(v.body.verified, true);
    assert.ok(done.key_hashes.includes(v.body.key_hash));
    const wrong = await http(n.url, 'POST', `/v1/erasures/${done.id}/verify`, { key: 'someone-else' });
    assert.equal(wrong.status, 404);
    assert.match(wrong.body.error.message, /^body\.key: erasure er_\w+ holds no hash of this key .*; check the key's exact value and type$/, 'one sentence, with no "not found" tacked onto its end');
  });
});

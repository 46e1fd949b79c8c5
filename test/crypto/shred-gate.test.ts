// The crypto-shredding gate (issue 19, "a second gate"; spec §9.8) on a running node with the
// local key provider: two namespaces write into shared WAL objects, their documents are
// applied into data files and their logs segmented; namespace A's key is destroyed; then every
// object of A in the bucket (WAL chunks, segments, data files, manifests) fails to decrypt
// under a fresh node's key ring, reads of A through the API answer 410 key_destroyed, and B —
// in the same WAL objects — reads fine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testNode, http, until } from '../node/helpers.js';
import { readObject } from '../../src/log/format.js';
import { openChunk } from '../../src/crypto/chunk.js';
import { EncryptingStore } from '../../src/crypto/encrypting-store.js';
import { KeyRing } from '../../src/crypto/keyring.js';
import { LocalKeyProvider } from '../../src/crypto/local.js';
import { controlStoreFor } from '../../src/control/index.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { join } from 'node:path';
import type { MemoryStore } from '../../src/store/index.js';

/** Documents per namespace (CI size). */
const DOCS = 40;
/** Write rounds, each its own WAL object(s): over SEGMENT_MIN_ENTRIES so the log is segmented. */
const ROUNDS = 10;

test('crypto-shred namespace A: all of A in the bucket fails to decrypt, B in the same WAL objects reads', async () => {
  const master = randomBytes(32).toString('base64');
  const node = await testNode({ config: { key_provider: 'local', encryption_master_key: master } });
  try {
    const u = node.url;
    for (const ns of ['a', 'b']) {
      assert.equal((await http(u, 'POST', '/v1/namespaces', { name: ns })).status, 201);
      assert.equal((await http(u, 'POST', `/v1/namespaces/${ns}/collections`, { name: 'c', primary_key: 'id', partitions: 1 })).status, 201);
    }
    // Both namespaces' writes in flight together, so their chunks share WAL objects; ROUNDS
    // objects in turn, enough index entries for the segmenter (SEGMENT_MIN_ENTRIES).
    for (let j = 0; j < ROUNDS; j++) {
      await Promise.all(
        ['a', 'b'].map((ns) =>
          http(u, 'POST', `/v1/namespaces/${ns}/collections/c/documents`, {
            upserts: Array.from({ length: DOCS / ROUNDS }, (_, i) => ({ id: `${ns}-${j}-${i}`, v: `MARKER-${ns.toUpperCase()}-${j}-${i}` })),
          }).then((r) => assert.equal(r.status, 200, JSON.stringify(r.body))),
        ),
      );
    }
    const raw = node.rawStore as MemoryStore;
    const list = async (prefix: string) => (await raw.list(prefix, { limit: 1000 })).items.map((o) => o.path);
    const nsA = (await http(u, 'GET', '/v1/namespaces/a')).body.id as number;
    const nsB = (await http(u, 'GET', '/v1/namespaces/b')).body.id as number;
    // Applied into data files and segmented (the workers run fast in tests).
    await until(async () => (await list(`ns/${nsA}/c/`)).some((p) => p.endsWith('.ldf')) && (await list(`ns/${nsA}/s/`)).length > 0 && (await list(`ns/${nsB}/c/`)).some((p) => p.endsWith('.ldf')), 20_000, 100);
    assert.equal((await http(u, 'GET', '/v1/namespaces/a/collections/c/documents/a-0-0')).body.v, 'MARKER-A-0-0');

    const walPaths = await list('wal/');
    let sharedObjects = 0;
    for (const p of walPaths) {
      const o = readObject((await raw.get(p)).bytes, p);
      const nss = new Set(o.chunks.map((c) => c.ns));
      if (nss.has(nsA) && nss.has(nsB)) sharedObjects++;
    }
    assert.ok(sharedObjects > 0, 'some WAL objects hold chunks of both namespaces');
    // Plaintext nowhere in the bucket.
    for (const p of await list('')) assert.equal((await raw.get(p)).bytes.indexOf('MARKER'), -1, `${p} holds no plaintext`);

    await node.keys!.destroy(nsA);

    // A fresh reader (its own key ring on the same ControlStore and master key) finds every byte of A sealed shut.
    const meta = openEmbedded({ path: join(node.dir, 'meta.db') });
    const control = await controlStoreFor(meta);
    const ring = new KeyRing({ control, provider: new LocalKeyProvider(Buffer.from(master, 'base64')), encryptNewNamespaces: false });
    const fresh = new EncryptingStore(raw, ring);
    let aObjects = 0;
    for (const p of await list(`ns/${nsA}/`)) {
      aObjects++;
      await assert.rejects(fresh.get(p), (e: Error) => e.name === 'KeyDestroyedError', `${p} must fail to decrypt`);
    }
    assert.ok(aObjects >= 3, `data files, manifests and segments of A were checked (${aObjects})`);
    for (const p of await list(`ns/${nsB}/`)) await fresh.get(p); // B's objects open
    let aChunks = 0;
    let bChunks = 0;
    for (const p of walPaths) {
      const o = readObject((await raw.get(p)).bytes, p);
      for (const c of o.chunks) {
        if (c.ns === nsA) {
          aChunks++;
          await assert.rejects(ring.readKek(c.ns, 1), (e: Error) => e.name === 'KeyDestroyedError');
        } else if (c.ns === nsB) {
          bChunks++;
          const kek = await ring.readKek(c.ns, 1);
          const recs = c.decode((m, s) => openChunk(kek, c.ns, p, c.stream, c.partition, m, s));
          assert.ok(recs.every((r) => r.body.toString().includes('MARKER-B')));
        }
      }
    }
    assert.ok(aChunks > 0 && bChunks > 0);
    ring.close();
    await control.close();
    await meta.close();

    // Through the API: a clear typed error for A, B reads fine.
    const ra = await http(u, 'GET', '/v1/namespaces/a/collections/c/documents/a-1-1');
    assert.equal(ra.status, 410, JSON.stringify(ra.body));
    assert.equal(ra.body.error.code, 'key_destroyed');
    const rb = await http(u, 'GET', '/v1/namespaces/b/collections/c/documents/b-1-1');
    assert.equal(rb.status, 200);
    assert.equal(rb.body.v, 'MARKER-B-1-1');
  } finally {
    await node.cleanup();
  }
});

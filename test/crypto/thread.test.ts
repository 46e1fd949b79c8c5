// Encryption with the workers in their own thread (spec §9.8, docs/encryption.md): a node on an
// embedded metastore file and a file store runs apply, compaction and segmenting in its worker
// thread, which has a key ring of its own. Its data files and segments are sealed, reads open
// them, and after one namespace's key is destroyed the thread still applies the neighbour's
// writes while the shredded namespace answers 410.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { resolveConfig, sqliteUrl } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { ENC_MAGIC } from '../../src/crypto/encrypting-store.js';
import { FAST, http, until } from '../node/helpers.js';

/** Write rounds per namespace (each its own WAL objects; enough entries for the segmenter). */
const ROUNDS = 10;
const DOCS_PER_ROUND = 4;

/** Every file under the file store's root whose object path starts with `prefix` ('' for all). */
function files(root: string, prefix: string): string[] {
  const all = readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
  return all.map((e) => join(e.parentPath, e.name)).filter((f) => prefix === '' || f.includes(`/objects/${prefix}/`));
}

test('the worker thread seals and opens with its own key ring; a shredded namespace leaves its neighbour applying', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-crypto-thread-'));
  const objects = join(dir, 'objects');
  const config = resolveConfig({
    metastore: sqliteUrl(join(dir, 'meta.db')),
    store: pathToFileURL(objects).href,
    port: 0,
    log_level: 'silent',
    key_provider: 'local',
    encryption_master_key: randomBytes(32).toString('base64'),
    ...FAST,
  });
  const node = await startNode(config, { logger: pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' }) });
  try {
    // The workers run in the thread, not on the event loop.
    assert.equal(node.workers, null, 'no workers on the main thread');
    const u = node.url;
    for (const ns of ['a', 'b']) {
      assert.equal((await http(u, 'POST', '/v1/namespaces', { name: ns })).status, 201);
      assert.equal((await http(u, 'POST', `/v1/namespaces/${ns}/collections`, { name: 'c', primary_key: 'id', partitions: 1 })).status, 201);
    }
    const write = (ns: string, j: number) =>
      http(u, 'POST', `/v1/namespaces/${ns}/collections/c/documents`, {
        upserts: Array.from({ length: DOCS_PER_ROUND }, (_, i) => ({ id: `${ns}-${j}-${i}`, v: `THREADMARK-${ns}-${j}-${i}` })),
      });
    for (let j = 0; j < ROUNDS; j++) for (const ns of ['a', 'b']) assert.equal((await write(ns, j)).status, 200);
    const nsA = (await http(u, 'GET', '/v1/namespaces/a')).body.id as number;
    const nsB = (await http(u, 'GET', '/v1/namespaces/b')).body.id as number;
    // Applied into data files and segmented by the thread.
    await until(() => files(objects, `ns/${nsA}/c`).some((f) => f.endsWith('.ldf')) && files(objects, `ns/${nsA}/s`).length > 0 && files(objects, `ns/${nsB}/c`).some((f) => f.endsWith('.ldf')), 30_000, 100);
    const sealed = [...files(objects, `ns/${nsA}`), ...files(objects, `ns/${nsB}`)];
    assert.ok(sealed.length >= 4);
    for (const f of sealed) assert.ok(readFileSync(f).subarray(0, ENC_MAGIC.length).equals(ENC_MAGIC), `${f} is sealed`);
    for (const f of files(objects, '')) assert.equal(readFileSync(f).indexOf('THREADMARK'), -1, `${f} holds no plaintext`);
    // An eventual read answers from the applied data files (sealed by the thread, opened here).
    const got = await until(async () => {
      const r = await http(u, 'GET', '/v1/namespaces/a/collections/c/documents/a-3-1?consistency=eventual');
      return r.status === 200 ? r : null;
    }, 30_000, 100);
    assert.equal(got!.body.v, 'THREADMARK-a-3-1');

    await node.keys!.destroy(nsA);
    assert.equal((await http(u, 'GET', '/v1/namespaces/a/collections/c/documents/a-3-1')).status, 410);
    assert.equal((await write('a', 99)).status, 410);
    // B's new writes are still applied by the thread into (sealed) data files.
    const before = new Set(files(objects, `ns/${nsB}/c`).filter((f) => f.endsWith('.ldf')));
    for (let j = ROUNDS; j < ROUNDS + 3; j++) assert.equal((await write('b', j)).status, 200);
    await until(() => files(objects, `ns/${nsB}/c`).some((f) => f.endsWith('.ldf') && !before.has(f)), 30_000, 100);
    const late = await http(u, 'GET', `/v1/namespaces/b/collections/c/documents/b-${ROUNDS + 2}-0`);
    assert.equal(late.status, 200);
    assert.equal(late.body.v, `THREADMARK-b-${ROUNDS + 2}-0`);
  } finally {
    await node.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

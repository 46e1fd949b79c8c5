// The erasure log (spec §9.6, §9.7): who may erase and read the log (both authorizers map the
// same actions), key rotation and destruction, the deadline's configuration check, and a
// restore that replays erasures newer than the restored data before the node serves.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { keyedNode, raw, type KeyedNode } from '../client/helpers.js';
import { ConfigError, resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { openStore, type Store } from '../../src/store/index.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { FAST, http, until } from '../node/helpers.js';
import { MetaError } from '../../src/meta/errors.js';
import { isDataError } from '../../src/log/errors.js';
import { ErasureService } from '../../src/erasure/service.js';
import { ERASURE_FAST, KEK, completed } from './helpers.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { ErasureLogKeys } from '../../src/erasure/keys.js';
import { MemoryStore } from '../../src/store/index.js';

describe('who erases and who reads the erasure log', () => {
  let n: KeyedNode;
  const req = (key: string | null, method: string, path: string, body?: unknown) => raw(n.url, key, method, path, body);
  const C = '/v1/namespaces/r/collections/c';
  let writer: string;
  let nsAdmin: string;
  let reader: string;
  let id: string;

  before(async () => {
    n = await keyedNode({ erasure_kek: KEK, erasure_interval_ms: 100 });
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces/r/collections', { name: 'c', primary_key: 'id' })).status, 201);
    assert.equal((await req(n.admin, 'POST', `${C}/documents`, { upserts: [{ id: 'a' }, { id: 'b' }, { id: 7, v: 1 }] })).status, 200);
    const key = async (role: string) => (await req(n.admin, 'POST', '/v1/keys', { role, namespace: 'r' })).body.key as string;
    [writer, nsAdmin, reader] = [await key('writer'), await key('namespace_admin'), await key('reader')];
  });
  after(async () => n?.close());

  test("erase is a namespace admin's: a writer or reader is refused and nothing is written", async () => {
    for (const k of [writer, reader]) {
      const r = await req(k, 'POST', `${C}/erase`, { keys: ['a'] });
      assert.equal(r.status, 403, JSON.stringify(r.body));
    }
    assert.equal((await req(n.admin, 'GET', `${C}/documents/a`)).status, 200, 'a refused erase deleted nothing');
    const e = await req(nsAdmin, 'POST', `${C}/erase`, { keys: ['a'] });
    assert.equal(e.status, 202, JSON.stringify(e.body));
    id = e.body.erasure.id;
    assert.equal((await req(n.admin, 'GET', `${C}/documents/a`)).status, 404);
  });

  test("the log is the org admin's and the operator's audit: no one else's, and no other org's", async () => {
    assert.equal((await req(n.admin, 'GET', '/v1/erasures')).body.items[0].id, id);
    assert.equal((await req(n.admin, 'GET', `/v1/erasures/${id}`)).status, 200);
    for (const k of [nsAdmin, writer, reader]) {
      assert.equal((await req(k, 'GET', '/v1/erasures')).status, 403);
      assert.equal((await req(k, 'GET', `/v1/erasures/${id}`)).status, 403);
      assert.equal((await req(k, 'POST', `/v1/erasures/${id}/verify`, { key: 'a' })).status, 403);
    }
    const audit = await req(n.operator, 'GET', '/v1/orgs/default/erasures');
    assert.equal(audit.status, 200, JSON.stringify(audit.body));
    assert.deepEqual(audit.body.items.map((x: { id: string }) => x.id), [id]);
    assert.equal((await req(n.operator, 'GET', `/v1/erasures/${id}`)).status, 403, "the operator reads the log through the audit route, not as an org's admin");
    const other = await req(n.operator, 'POST', '/v1/orgs', { id: 'acme' });
    const acme = other.body.admin_key as string;
    assert.equal((await req(acme, 'GET', `/v1/erasures/${id}`)).status, 404, "another org's erasure is not found");
    assert.deepEqual((await req(acme, 'GET', '/v1/erasures')).body.items, []);
  });

  test('rotation starts a new key version; destroying the org\'s keys makes its hashes unlinkable', async () => {
    const v1 = await req(n.admin, 'POST', `/v1/erasures/${id}/verify`, { key: 'a' });
    assert.equal(v1.status, 200);
    assert.equal(v1.body.key_version, 1);
    assert.equal(await n.node.erasure!.keys.rotate('default'), 2);
    const e2 = await req(nsAdmin, 'POST', `${C}/erase`, { keys: [7] });
    assert.equal(e2.body.erasure.key_version, 2);
    // 7 and "7" are one key (its canonical encoding).
    assert.equal((await req(n.admin, 'POST', `/v1/erasures/${e2.body.erasure.id}/verify`, { key: '7' })).status, 200);
    assert.notEqual((await req(n.admin, 'POST', `/v1/erasures/${e2.body.erasure.id}/verify`, { key: 7 })).body.key_hash, v1.body.key_hash);
    assert.equal((await req(n.admin, 'POST', `/v1/erasures/${id}/verify`, { key: 'a' })).body.key_version, 1, 'the old record keeps its version');

    assert.equal(await n.node.erasure!.keys.destroy('default'), 2);
    const gone = await req(n.admin, 'POST', `/v1/erasures/${id}/verify`, { key: 'a' });
    assert.equal(gone.status, 409);
    assert.match(gone.body.error.message, /destroyed/);
    assert.equal((await req(n.admin, 'GET', `/v1/erasures/${id}`)).body.key_hashes.length, 1, 'the hashes stay, unlinkable');
  });
});

describe('an erase whose request cannot be recorded', () => {
  let n: KeyedNode;
  const req = (key: string | null, method: string, path: string, body?: unknown) => raw(n.url, key, method, path, body);
  const C = '/v1/namespaces/r/collections/c';
  before(async () => {
    n = await keyedNode({ erasure_kek: KEK, erasure_interval_ms: 100 });
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    assert.equal((await req(n.admin, 'POST', '/v1/namespaces/r/collections', { name: 'c', primary_key: 'id' })).status, 201);
  });
  after(async () => n?.close());

  test('says the documents were deleted, and sent again records the erasure; a bucket failing after the record still answers', async () => {
    assert.equal((await req(n.admin, 'POST', `${C}/documents`, { upserts: [{ id: 'r1' }] })).status, 200);
    const node = n.node;
    const real = node.erasure!;
    const c = await node.meta.collectionByName((await node.meta.namespaceByName('default', 'r')).id, 'c');
    // The node's own parts, with one call failing (a control store or a bucket that is down).
    const failing = <T extends object>(o: T, name: string, fails: (...a: unknown[]) => boolean): T =>
      new Proxy(o, {
        get(t, p) {
          const v = Reflect.get(t, p, t) as unknown;
          if (typeof v !== 'function') return v;
          return (...a: unknown[]) => (p === name && fails(...a) ? Promise.reject(new MetaError('Retryable', `${name} is down (injected)`)) : (v as (...x: unknown[]) => unknown).apply(t, a));
        },
      });
    const noRecord = new ErasureService({ control: failing(real.control, 'createErasure', () => true), keys: real.keys, store: node.store });
    await assert.rejects(noRecord.erase('default', c, { keys: ['r1'] }, node.writer!, node.reader), (e: unknown) => {
      assert.ok(isDataError(e, 'Unavailable'), String(e));
      assert.match((e as Error).message, /the documents were deleted \(consistency token .+\), but the erasure request could not be recorded.*send the same erase again/);
      return true;
    });
    assert.equal((await req(n.admin, 'GET', `${C}/documents/r1`)).status, 404, 'the delete committed, as the answer says');

    // The log's object copy is the runner's to write too: a bucket failing after the record still answers.
    const noCopy = new ErasureService({ control: real.control, keys: real.keys, store: failing(node.store, 'put', (path) => String(path).endsWith('/request.rec')) });
    const again = await noCopy.erase('default', c, { keys: ['r1'] }, node.writer!, node.reader);
    assert.equal(again.row.phase, 'requested');
    await until(async () => (await req(n.admin, 'GET', `/v1/erasures/${again.row.id}`)).body.phase === 'complete', 30_000);
  });
});

describe('the deadline and the key-encryption key are checked at start', () => {
  const base = { metastore: 'sqlite::memory:', store: 'memory://' };
  test('settings whose bound exceeds the deadline are refused, naming them', () => {
    assert.throws(
      () => resolveConfig({ ...base, gc_grace_ms: 30 * 86_400_000 }),
      (e: unknown) => e instanceof ConfigError && e.setting === 'erasure_deadline_ms' && /gc_grace_ms/.test(e.message) && /erasure_purge_deadline_ms/.test(e.message) && /segment_min_age_ms/.test(e.message),
    );
    assert.throws(() => resolveConfig({ ...base, erasure_deadline_ms: 3_600_000 }), /erasure_deadline_ms \(3600000 ms\) is shorter than the erasure bound/);
    // The default fits its deadline; a shortened deadline with shortened terms does too.
    assert.equal(resolveConfig(base).erasure_deadline_ms, 30 * 86_400_000);
    assert.equal(resolveConfig({ ...base, ...FAST, erasure_deadline_ms: 60_000, erasure_purge_deadline_ms: 10_000 }).erasure_deadline_ms, 60_000);
  });
  test('a malformed erasure_kek is refused without showing it', () => {
    assert.throws(
      () => resolveConfig({ ...base, erasure_kek: 'secret-but-short' }),
      (e: unknown) => e instanceof ConfigError && e.setting === 'erasure_kek' && !e.message.includes('secret-but-short'),
    );
  });
});

describe('a restore replays erasures newer than the restored data before serving', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-restore-'));
  const objects = join(dir, 'objects');
  const config = resolveConfig({ metastore: `sqlite:${join(dir, 'meta.db')}`, store: `file://${objects}`, port: 0, log_level: 'silent', ...FAST, ...ERASURE_FAST });
  // The metastore and store handles are given (workers then run in the node's own thread: a quicker start).
  const start = async (o: { store?: Store } = {}): Promise<LoamNode> => {
    const meta = openEmbedded({ path: join(dir, 'meta.db') });
    const store = o.store ?? openStore(config.store);
    try {
      const node = await startNode(config, { logger: pino({ level: 'silent' }), meta, store });
      const close = node.close.bind(node);
      return Object.assign(node, { close: async () => (await close(), await store.close(), await meta.close()) });
    } catch (e) {
      await meta.close();
      if (!o.store) await store.close();
      throw e;
    }
  };
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('restored data with an erased key: hidden before the first request, purged again', async () => {
    let node: LoamNode = await start();
    assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    // One partition: the erased key's trim covers every chunk of the WAL object, which then retires at once.
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections', { name: 'c', primary_key: 'id', partitions: 1 })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections/c/documents', { upserts: [{ id: 'gone' }, { id: 'kept' }] })).status, 200);
    await until(async () => (await http(node.url, 'GET', '/v1/namespaces/r/collections/c/documents/gone?consistency=eventual')).status === 200);
    await node.close();
    // The backup: the metastore file and the bucket, as they were before the erasure.
    cpSync(dir, `${dir}.snap`, { recursive: true });
    node = await start();
    const e = await http(node.url, 'POST', '/v1/namespaces/r/collections/c/erase', { keys: ['gone'] });
    assert.equal(e.status, 202);
    await completed(node, e.body.erasure.id);
    await node.close();
    // Restore both from the backup; the _erasure/ records sit outside every snapshot and stay.
    const log = `${dir}.erasure`;
    cpSync(join(objects, 'objects', '_erasure'), log, { recursive: true });
    rmSync(dir, { recursive: true, force: true });
    cpSync(`${dir}.snap`, dir, { recursive: true });
    cpSync(log, join(objects, 'objects', '_erasure'), { recursive: true });
    rmSync(`${dir}.snap`, { recursive: true, force: true });
    rmSync(log, { recursive: true, force: true });

    // A node that cannot read the erasure log's objects refuses to serve.
    const plain = openStore(config.store);
    const blind: Store = Object.create(plain, { list: { value: (prefix: string, o: never) => (prefix.startsWith('_erasure/') ? Promise.reject(new Error('the bucket is unreachable')) : plain.list(prefix, o)) } });
    await assert.rejects(start({ store: blind }), /unreachable/);
    await plain.close();

    node = await start();
    try {
      assert.equal((await http(node.url, 'GET', '/v1/namespaces/r/collections/c/documents/gone')).status, 404, 'hidden before the first request');
      assert.equal((await http(node.url, 'GET', '/v1/namespaces/r/collections/c/documents/kept')).status, 200);
      const again = await completed(node, e.body.erasure.id);
      assert.equal(again.id, e.body.erasure.id);
      assert.equal((await http(node.url, 'GET', '/v1/namespaces/r/collections/c/documents/gone?consistency=eventual')).status, 404);
    } finally {
      await node.close();
    }
  });
});

// The erasure-log keys a node keeps unwrapped (src/erasure/keys.ts): one per org and version
// it used, kept for the life of the process before; now the most recently used, bounded.
describe('unwrapped erasure-log keys', () => {
  test('are kept for at most maxCached orgs and versions; a forgotten one unwraps again, the same key', async () => {
    const control = openEmbeddedControl(':memory:');
    await control.init();
    const keys = new ErasureLogKeys(control, randomBytes(32), new MemoryStore(), { maxCached: 3 });
    const made = new Map<string, Buffer>();
    for (let i = 0; i < 8; i++) {
      await control.createOrg(`o${i}`);
      made.set(`o${i}`, Buffer.from((await keys.current(`o${i}`)).key));
      assert.ok(keys.cached() <= 3, `${keys.cached()} keys kept after ${i + 1} orgs`);
    }
    for (const [org, key] of made) assert.deepEqual((await keys.current(org)).key, key, `${org}'s key unwraps again`);
    assert.equal(keys.cached(), 3);
  });
});

describe('a node started with another erasure_kek than the one its erasure-log keys were made with', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-kek-'));
  const config = (kek: string) => resolveConfig({ metastore: `sqlite:${join(dir, 'meta.db')}`, store: `file://${join(dir, 'objects')}`, port: 0, log_level: 'silent', ...FAST, ...ERASURE_FAST, erasure_kek: kek });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('is refused at start naming erasure_kek (loam dev: a lost erasure.kek made again), not a node answering 500 to every erase and verify', async () => {
    let node = await startNode(config(KEK), { logger: pino({ level: 'silent' }) });
    assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'r' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections', { name: 'c', primary_key: 'id' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections/c/documents', { upserts: [{ id: 'a' }] })).status, 200);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections/c/erase', { keys: ['a'] })).status, 202);
    await node.close();
    const other = randomBytes(32).toString('hex');
    await assert.rejects(startNode(config(other), { logger: pino({ level: 'silent' }) }), (e: unknown) => {
      assert.ok(e instanceof ConfigError && e.setting === 'erasure_kek', String(e));
      assert.match(e.message, /erasure_kek does not unwrap the erasure-log key version 1 of org "default".*erasure\.kek/);
      assert.ok(!e.message.includes(other) && !e.message.includes(KEK), 'no key is shown');
      return true;
    });
    node = await startNode(config(KEK), { logger: pino({ level: 'silent' }) });
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/r/collections/c/erase', { keys: ['a'] })).status, 202, 'the right one starts and erases');
    await node.close();
  });
});

// Encryption on by default (issue 19 item 5, docs/encryption.md): key_provider local; on an
// embedded metastore file the master key is generated once into its directory (mode 0600),
// used again at the next start, never logged or printed; a shared metastore without a key runs
// unencrypted and says so; `loam config-check` masks the key.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { resolveConfig, sqliteUrl } from '../../src/node/config.js';
import { startNode } from '../../src/node/node.js';
import { MASTER_KEY_FILE } from '../../src/node/keys.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { EncryptingStore } from '../../src/crypto/encrypting-store.js';
import { FAST, http } from '../node/helpers.js';
import { shownConfig } from '../../src/cli/main.js';

function sink(): { logger: pino.Logger; text: () => string } {
  let out = '';
  const w = new Writable({ write: (c: Buffer, _e, cb) => ((out += c.toString()), cb()) });
  return { logger: pino({ level: 'debug' }, w), text: () => out };
}

test('the defaults: key_provider local, and a master key generated once into the data directory', async () => {
  const plain = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://' });
  assert.deepEqual([plain.key_provider, plain.encryption, plain.encryption_master_key], ['local', 'on', null]);
  const dir = mkdtempSync(join(tmpdir(), 'loam-crypto-defaults-'));
  const store = new MemoryStore();
  const config = resolveConfig({ metastore: sqliteUrl(join(dir, 'meta.db')), store: 'memory://', port: 0, log_level: 'debug', ...FAST });
  try {
    const log = sink();
    let node = await startNode(config, { store, logger: log.logger });
    const file = join(dir, MASTER_KEY_FILE);
    const key = readFileSync(file, 'utf8').trim();
    assert.equal(Buffer.from(key, 'base64').length, 32);
    assert.equal(statSync(file).mode & 0o777, 0o600, 'only its owner reads it');
    assert.ok(node.keys, 'encryption is on');
    assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'a' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/a/collections', { name: 'c', primary_key: 'id' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/a/collections/c/documents', { upserts: [{ id: 'x', v: 'SEALEDBYDEFAULT' }] })).status, 200);
    const k = await http(node.url, 'GET', '/v1/namespaces/a/key');
    assert.deepEqual([k.body.state, k.body.current_version], ['active', 1]);
    for (const o of (await store.list('', { limit: 1000 })).items) {
      const bytes = (await store.get(o.path)).bytes;
      assert.equal(bytes.indexOf('SEALEDBYDEFAULT'), -1, `${o.path} holds no plaintext`);
      if (o.path.startsWith('ns/')) assert.ok(EncryptingStore.isSealed(bytes), `${o.path} is sealed`);
    }
    await node.close();
    // The next start uses the same key (the file is not made again) and reads what was written.
    const again = sink();
    node = await startNode(config, { store, logger: again.logger });
    assert.equal(readFileSync(file, 'utf8').trim(), key);
    assert.equal((await http(node.url, 'GET', '/v1/namespaces/a/collections/c/documents/x')).body.v, 'SEALEDBYDEFAULT');
    await node.close();
    for (const t of [log.text(), again.text()]) assert.ok(!t.includes(key), 'the master key is never logged');
    assert.match(log.text(), /master key from its data directory/);

    // A key file others may read is refused, naming the setting.
    chmodSync(file, 0o644);
    await assert.rejects(startNode(config, { store, logger: pino({ level: 'silent' }) }), /encryption_master_key.*chmod 600/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a shared metastore without a master key: the node writes unencrypted and says so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-crypto-defaults-'));
  const meta = openEmbedded({ path: join(dir, 'meta.db') }); // handed in, as a shared one is
  const log = sink();
  try {
    const node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, log_level: 'warn' }), { meta, store: new MemoryStore(), logger: log.logger });
    assert.equal(node.keys, null);
    assert.match(log.text(), /encryption_master_key is not set and the metastore is shared: new namespaces are written unencrypted/);
    await node.close();
  } finally {
    await meta.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('loam config-check shows the master key only as (set)', () => {
  const key = randomBytes(32).toString('base64');
  const c = resolveConfig({ metastore: 'sqlite:/var/lib/loam/meta.db', store: 'memory://' }, { encryption_master_key: key });
  const shown = JSON.stringify(shownConfig(c));
  assert.ok(!shown.includes(key), 'the key is not printed');
  assert.equal(shownConfig(c).encryption_master_key, '(set)');
});

test('a data directory whose master key file is gone, or holds another key, is refused at start naming the file; no key is made in its place', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-crypto-defaults-'));
  const store = new MemoryStore();
  const config = resolveConfig({ metastore: sqliteUrl(join(dir, 'meta.db')), store: 'memory://', port: 0, log_level: 'silent', ...FAST });
  const file = join(dir, MASTER_KEY_FILE);
  try {
    const node = await startNode(config, { store, logger: pino({ level: 'silent' }) });
    assert.equal((await http(node.url, 'POST', '/v1/namespaces', { name: 'a' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/a/collections', { name: 'c', primary_key: 'id' })).status, 201);
    assert.equal((await http(node.url, 'POST', '/v1/namespaces/a/collections/c/documents', { upserts: [{ id: 'x' }] })).status, 200);
    await node.close();
    const key = readFileSync(file, 'utf8');

    // Lost (a restore without it, a mistaken cleanup): a new key could read none of the namespaces.
    rmSync(file);
    await assert.rejects(startNode(config, { store, logger: pino({ level: 'silent' }) }), (e: Error) => {
      assert.match(e.message, /^configuration: encryption_master_key .*encryption\.key is missing.*wrapped by master key local:[0-9a-f]{16}.*restore/);
      return true;
    });
    assert.throws(() => readFileSync(file), /ENOENT/, 'no key was generated in its place');

    // Replaced by another key: refused the same way, not a node that answers 500 to every request.
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { mode: 0o600 });
    await assert.rejects(startNode(config, { store, logger: pino({ level: 'silent' }) }), /configuration: encryption_master_key .*is not the master key that wraps/);

    // The right key back: the node starts and reads what was written.
    writeFileSync(file, key, { mode: 0o600 });
    const again = await startNode(config, { store, logger: pino({ level: 'silent' }) });
    assert.equal((await http(again.url, 'GET', '/v1/namespaces/a/collections/c/documents/x')).body.id, 'x');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

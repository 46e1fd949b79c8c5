// The namespace key routes over HTTP (spec §9.8, docs/encryption.md), through the TypeScript
// client and raw requests: show, rotate (new writes are sealed under the new version, old data
// still reads), destroy (410 key_destroyed, the neighbour namespace unaffected), the explicit
// confirmation, and a key without the admin scope refused with nothing changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { testNode } from '../node/helpers.js';
import { LoamClient, LoamError } from '../../src/client/index.js';
import { readObject } from '../../src/log/format.js';
import { chunkKeyVersion } from '../../src/crypto/chunk.js';

async function refused(p: Promise<unknown>, status: number, code: string): Promise<LoamError> {
  const e = await p.then(
    () => assert.fail(`expected ${status} ${code}`),
    (x: unknown) => x,
  );
  assert.ok(e instanceof LoamError, String(e));
  assert.equal(e.status, status, e.message);
  assert.equal(e.code, code, e.message);
  return e;
}

test('namespace key routes: rotate, destroy with confirmation, admin scope only', async () => {
  const node = await testNode({ config: { auth: 'api_keys', key_provider: 'local', encryption_master_key: randomBytes(32).toString('base64') } });
  try {
    const admin = new LoamClient({ url: node.url, key: node.bootstrapKey! });
    for (const ns of ['a', 'b']) {
      await admin.namespaces.create(ns);
      await admin.collections.create(ns, { name: 'c', primary_key: 'id', partitions: 1 });
      await admin.collection(ns, 'c').upsert([{ id: `${ns}-old`, v: 'before rotation' }]);
    }
    const a = await admin.namespaceKeys.get('a');
    assert.deepEqual([a.state, a.encrypted, a.current_version, a.provider, a.versions?.length], ['active', true, 1, 'local', 1]);
    assert.ok(!JSON.stringify(a).includes('wrapped'), 'no key material in the answer');

    // Rotate: version 2; chunks of A written from now on carry it, older ones keep 1.
    const raw = node.rawStore;
    const walBefore = new Set((await raw.list('wal/', { limit: 1000 })).items.map((o) => o.path));
    const rotated = await admin.namespaceKeys.rotate('a');
    assert.deepEqual([rotated.state, rotated.current_version, rotated.versions?.map((v) => v.version)], ['active', 2, [1, 2]]);
    await admin.collection('a', 'c').upsert([{ id: 'a-new', v: 'after rotation' }]);
    const nsA = (await admin.namespaces.get('a')).id!;
    const versions = { before: new Set<number>(), after: new Set<number>() };
    for (const o of (await raw.list('wal/', { limit: 1000 })).items) {
      for (const c of readObject((await raw.get(o.path)).bytes, o.path).chunks) {
        if (c.ns === nsA) versions[walBefore.has(o.path) ? 'before' : 'after'].add(chunkKeyVersion(c.keyMeta, o.path));
      }
    }
    assert.deepEqual([...versions.before], [1]);
    assert.deepEqual([...versions.after], [2], 'the write after the rotation is sealed under version 2');
    assert.equal((await admin.collection('a', 'c').get('a-old')).v, 'before rotation');
    assert.equal((await admin.collection('a', 'c').get('a-new')).v, 'after rotation');

    // A key without the admin scope (read and write only) is refused, and nothing changes.
    const rw = await admin.keys.create({ role: 'org_admin', scopes: ['read', 'write'] });
    const writer = new LoamClient({ url: node.url, key: rw.key! });
    await refused(writer.namespaceKeys.rotate('a'), 403, 'forbidden');
    await refused(writer.namespaceKeys.destroy('a', 'a'), 403, 'forbidden');
    await refused(writer.namespaceKeys.get('a'), 403, 'forbidden');
    assert.equal((await writer.collection('a', 'c').get('a-old')).v, 'before rotation', 'the key still reads');
    const unchanged = await admin.namespaceKeys.get('a');
    assert.deepEqual([unchanged.state, unchanged.current_version], ['active', 2]);

    // Destroy needs the namespace's name as confirmation; a wrong or missing one changes nothing.
    const wrong = await refused(admin.namespaceKeys.destroy('a', 'b'), 400, 'invalid_argument');
    assert.match(wrong.message, /body\.confirm/);
    const missing = await fetch(`${node.url}/v1/namespaces/a/key/destroy`, {
      method: 'POST',
      headers: { authorization: `Bearer ${node.bootstrapKey}`, 'content-type': 'application/json' },
      body: '{}',
    });
    assert.equal(missing.status, 400);
    const body = (await missing.json()) as { error: { code: string; message: string } };
    assert.equal(body.error.code, 'invalid_argument');
    assert.match(body.error.message, /body\.confirm is required/);
    assert.equal((await admin.namespaceKeys.get('a')).state, 'active');
    await refused(admin.namespaceKeys.get('nope'), 404, 'not_found');

    // Destroy: A answers 410 key_destroyed for reads and writes; B is untouched.
    const destroyed = await admin.namespaceKeys.destroy('a', 'a');
    assert.deepEqual([destroyed.state, destroyed.current_version], ['destroyed', null]);
    assert.ok(destroyed.versions?.every((v) => v.state === 'destroyed' && typeof v.destroyed === 'number'));
    await refused(admin.collection('a', 'c').get('a-old'), 410, 'key_destroyed');
    await refused(admin.collection('a', 'c').upsert([{ id: 'a-late', v: 1 }]), 410, 'key_destroyed');
    await refused(admin.namespaceKeys.rotate('a'), 410, 'key_destroyed');
    assert.equal((await admin.namespaceKeys.destroy('a', 'a')).state, 'destroyed', 'destroying again answers the same');
    assert.equal((await admin.collection('b', 'c').get('b-old')).v, 'before rotation');
    await admin.collection('b', 'c').upsert([{ id: 'b-new', v: 'after A was shredded' }]);
    assert.equal((await admin.collection('b', 'c').get('b-new')).v, 'after A was shredded');
    const b = await admin.namespaceKeys.get('b');
    assert.deepEqual([b.state, b.current_version], ['active', 1]);
  } finally {
    await node.cleanup();
  }
});

test('namespace key routes on a node without a key provider: 503 naming the setting', async () => {
  const node = await testNode({ config: { key_provider: 'none' } });
  try {
    await new LoamClient({ url: node.url }).namespaces.create('a');
    // Raw requests: the client would retry a 503.
    for (const [method, path] of [['GET', '/v1/namespaces/a/key'], ['POST', '/v1/namespaces/a/key/rotate']] as const) {
      const r = await fetch(`${node.url}${path}`, { method });
      assert.equal(r.status, 503);
      const e = (await r.json()) as { error: { code: string; message: string } };
      assert.equal(e.error.code, 'encryption_unavailable');
      assert.match(e.error.message, /key_provider/);
    }
  } finally {
    await node.cleanup();
  }
});

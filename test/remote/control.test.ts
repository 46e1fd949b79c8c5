// The ControlStore over the wire (spec §6, §8): each call returns what the served ControlStore
// holds, typed errors cross as MetaErrors, and a write retried with its key applies once.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { controlStoreOn } from '../../src/control/index.js';
import { remoteDescriptor } from '../../src/meta/backends/remote/descriptor.js';
import { isMetaError } from '../../src/meta/index.js';
import { served, type Served } from './helpers.js';

const K1 = '0123456789abcdef';

describe('remote: the ControlStore', () => {
  let s: Served;
  after(() => s?.close());

  test('every call returns what the served ControlStore holds', async () => {
    s = await served();
    const opened = await remoteDescriptor.open(`remote://127.0.0.1:${s.port}`);
    const cs = await controlStoreOn(opened.connection);
    const local = s.control;
    try {
      assert.deepEqual(cs.capabilities(), local.capabilities());
      const org = await cs.createOrg('acme', 1_000);
      assert.deepEqual(org, await local.org('acme'));
      await assert.rejects(cs.createOrg('acme'), (e) => isMetaError(e, 'AlreadyExists'));
      assert.deepEqual(await cs.listOrgs(), await local.listOrgs());
      const rec = { keyId: K1, org: 'acme', secretHash: 'ab'.repeat(32), scopes: ['read', 'ns:prod'], expiry: null, createdBy: 'test', created: 2_000 };
      const info = await cs.createKey(rec);
      const { secretHash: _hash, ...shown } = rec;
      assert.deepEqual(info, { ...shown, lastUsed: null, revoked: null }, 'the hash is never listed');
      assert.deepEqual(await cs.key(K1), await local.key(K1));
      await cs.touchKeys([{ keyId: K1, at: 3_000 }]);
      assert.equal((await local.key(K1)).lastUsed, 3_000);
      assert.deepEqual(await cs.listKeys('acme'), await local.listKeys('acme'));
      const b = await cs.grant({ org: 'acme', subject: `key:${K1}`, role: 'writer', target: { kind: 'namespace', ns: 7 } });
      assert.deepEqual(await cs.bindings('acme', `key:${K1}`), [b]);
      await cs.grant({ org: 'acme', subject: `key:${K1}`, role: 'reader', target: { kind: 'org' } });
      assert.deepEqual(await cs.listBindings('acme'), await local.listBindings('acme'));
      await cs.dropNamespaceBindings('acme', 7);
      assert.deepEqual((await local.bindings('acme', `key:${K1}`)).map((x) => x.role), ['reader']);
      await cs.revokeGrant({ org: 'acme', subject: `key:${K1}`, role: 'reader', target: { kind: 'org' } });
      assert.deepEqual(await local.bindings('acme', `key:${K1}`), []);
      await cs.setQuota('acme', null, 'request_rate', 50.5);
      await cs.setQuota('acme', 7, 'storage_bytes', 1024);
      assert.deepEqual(await cs.quotas('acme'), await local.quotas('acme'));
      await cs.setQuota('acme', 7, 'storage_bytes', null);
      assert.equal((await local.quotas('acme')).length, 1);
      await cs.putUsage([{ org: 'acme', ns: 7, metric: 'stored_bytes', window: 0, value: 123 }], 4_000);
      await cs.addUsage([{ org: 'acme', ns: null, metric: 'requests', window: 60_000, delta: 2 }], 4_000);
      assert.deepEqual(await cs.usage('acme'), await local.usage('acme'));
      await cs.heartbeat('node-1', 60_000, 5_000, '{"roles":["gateway"]}');
      assert.deepEqual(await cs.members(6_000), await local.members(6_000));
      assert.equal((await cs.members(6_000))[0]!.info, '{"roles":["gateway"]}');
      await cs.leave('node-1');
      assert.deepEqual(await local.members(6_000), []);
      await cs.revokeKey('acme', K1, 7_000);
      assert.equal((await local.key(K1)).revoked, 7_000);
      assert.equal(await cs.controlVersion(), await local.controlVersion());
      assert.deepEqual(await cs.changesSince(0), await local.changesSince(0));
      assert.deepEqual(await cs.outbox(), await local.outbox());
      await cs.ackOutbox([]);
      await assert.rejects(cs.key('nope'), (e) => isMetaError(e, 'NotFound'));
    } finally {
      await cs.close();
      await opened.meta.close();
    }
  });
});

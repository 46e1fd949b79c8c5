// The control plane's cluster registry (spec §8): clusters and agent keys, the same cases on
// every backend (LOAM_TEST_BACKEND).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backendFactory, type BackendFactory } from '../harness/backends.js';
import { connectionOf } from '../../src/meta/backends/registry.js';
import { clusterRegistryOn } from '../../src/control/cluster-registry.js';
import { MAX_AGENT_KEYS_PER_CLUSTER, newAgentKey, parseAgentKey, type ClusterRegistry } from '../../src/control/clusters.js';
import { verifySecret } from '../../src/control/keys.js';
import { isMetaError } from '../../src/meta/errors.js';

let f: BackendFactory;
let reg: ClusterRegistry;
let reg2: ClusterRegistry;

before(async () => {
  f = backendFactory();
  const meta = await f.open();
  reg = await clusterRegistryOn(connectionOf(meta)!);
  reg2 = await clusterRegistryOn(connectionOf(await f.connect(meta))!);
});
after(async () => {
  await reg.close();
  await reg2.close();
  await f.cleanup();
});

const keyRec = (cluster: string) => {
  const k = newAgentKey();
  return { k, rec: { keyId: k.keyId, cluster, secretHash: k.secretHash, created: Date.now(), createdBy: 'test' } };
};

describe(`cluster registry on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'}`, () => {
  test('clusters: create, read on another handle, list in pages; a second create is AlreadyExists; bad ids are InvalidArgument', async () => {
    for (const id of ['east-1', 'prod', 'west-2']) await reg.createCluster(id, 'test', 1000);
    await assert.rejects(reg.createCluster('prod', 'test'), (e) => isMetaError(e, 'AlreadyExists'));
    for (const bad of ['Prod', 'ab', '1abc', 'has space', 'x'.repeat(41), 'a_b']) {
      await assert.rejects(reg.createCluster(bad, 'test'), (e) => isMetaError(e, 'InvalidArgument') && /cluster_id: must be 3-40 characters/.test((e as Error).message));
    }
    assert.deepEqual(await reg2.cluster('prod'), { id: 'prod', created: 1000, createdBy: 'test' });
    await assert.rejects(reg.cluster('nope'), (e) => isMetaError(e, 'NotFound'));
    const p1 = await reg.listClusters({ limit: 2 });
    assert.deepEqual(p1.items.map((c) => c.id), ['east-1', 'prod']);
    const p2 = await reg.listClusters({ limit: 2, after: p1.next! });
    assert.deepEqual(p2.items.map((c) => c.id), ['west-2']);
    assert.equal(p2.next, undefined);
  });

  test('agent keys: the hash only is stored, verified in constant time, listed per cluster without it; revoke is idempotent and cluster-checked', async () => {
    const { k, rec } = keyRec('prod');
    const info = await reg.createAgentKey(rec);
    assert.equal((info as unknown as Record<string, unknown>).secretHash, undefined);
    assert.match(k.token, /^loam_agent_[0-9a-f]{16}_[0-9a-f]{64}$/);
    const parsed = parseAgentKey(k.token)!;
    assert.ok(!JSON.stringify(info).includes(parsed.secret));
    const got = await reg2.agentKey(k.keyId);
    assert.equal(got.secretHash, k.secretHash);
    assert.equal(got.cluster, 'prod');
    assert.ok(verifySecret(parsed.secret, got.secretHash));
    assert.ok(!verifySecret(parsed.secret.replace(/.$/, (c) => (c === '0' ? '1' : '0')), got.secretHash));
    await assert.rejects(reg.createAgentKey(rec), (e) => isMetaError(e, 'AlreadyExists'));
    await assert.rejects(reg.createAgentKey(keyRec('nope').rec), (e) => isMetaError(e, 'NotFound'));
    await assert.rejects(reg.createAgentKey({ ...keyRec('prod').rec, secretHash: 'xyz' }), (e) => isMetaError(e, 'InvalidArgument'));
    const other = keyRec('east-1');
    await reg.createAgentKey(other.rec);
    const list = await reg.listAgentKeys('prod');
    assert.deepEqual(list.map((x) => x.keyId), [k.keyId]);
    assert.ok(!JSON.stringify(list).includes(k.secretHash));
    // Another cluster's key cannot be revoked in this cluster's name.
    await assert.rejects(reg.revokeAgentKey('east-1', k.keyId), (e) => isMetaError(e, 'NotFound'));
    await assert.rejects(reg.revokeAgentKey('prod', '0000000000000000'), (e) => isMetaError(e, 'NotFound'));
    assert.equal((await reg.agentKey(k.keyId)).revoked, null);
    await reg.revokeAgentKey('prod', k.keyId, 1234);
    await reg.revokeAgentKey('prod', k.keyId, 9999);
    assert.equal((await reg2.agentKey(k.keyId)).revoked, 1234);
    assert.equal((await reg2.agentKey(other.k.keyId)).revoked, null);
    await assert.rejects(reg.agentKey('0000000000000000'), (e) => isMetaError(e, 'NotFound'));
  });

  test(`agent keys: at most ${MAX_AGENT_KEYS_PER_CLUSTER} per cluster (LimitExceeded names the limit)`, async () => {
    await reg.createCluster('crowded', 'test');
    const recs = Array.from({ length: MAX_AGENT_KEYS_PER_CLUSTER }, () => keyRec('crowded').rec);
    for (let i = 0; i < recs.length; i += 10) await Promise.all(recs.slice(i, i + 10).map((r) => reg.createAgentKey(r)));
    await assert.rejects(reg.createAgentKey(keyRec('crowded').rec), (e) => isMetaError(e, 'LimitExceeded') && /MAX_AGENT_KEYS_PER_CLUSTER/.test((e as Error).message));
    assert.equal((await reg.listAgentKeys('crowded')).length, MAX_AGENT_KEYS_PER_CLUSTER);
  });
});

// The cross-cluster matrix (spec §8, as test/tenancy's matrix does for HTTP): every RPC of the
// service definition, called with every kind of wrong credential for cluster beta, is refused
// with the right status before any store is touched, and beta's stored metadata is byte for
// byte what it was; called with alpha's own key, it is served from alpha's stores only, and
// nothing of beta comes back. A new RPC without a row in ROWS fails the first test.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import Database from 'better-sqlite3';
import { allRpcs, callRaw, metadataOf, testControlPlane, type Outcome, type Rpc, type TestControlPlane } from './helpers.js';
import { createAgentKey, createCluster } from '../../src/controlplane/admin.js';
import { newKey } from '../../src/control/keys.js';

/** Every string of beta's stored data carries this; no request and nothing of alpha's does. */
const BETA_MARK = 'zqx';

let t: TestControlPlane;
let client: grpc.Client;
let alphaKey: string;
let betaKey: string;
let revokedAlphaKey: string;
let betaApiKeyHash: string;
const w = (id: string) => ({ w: { requestId: `matrix-${id}` } });
const rid = (id: string) => ({ requestId: `matrix-${id}` });

/**
 * One row per RPC: a request aimed at what beta holds (ids 1, org acme, beta's key id and
 * paths), so a call that reached beta's stores would read or change beta's metadata.
 */
function rows(betaKeyId: string): Record<string, unknown> {
  const lease = { scope: { ns: 1 }, key: 'lease-a' };
  return {
    'MetaStore.Capabilities': {},
    'MetaStore.CreateNamespace': { org: 'acme', name: 'intruder', ...w('cn') },
    'MetaStore.DropNamespace': { ns: 1, ...w('dn') },
    'MetaStore.GetNamespace': { ns: 1 },
    'MetaStore.NamespaceByName': { org: 'acme', name: 'orders' },
    'MetaStore.ListNamespaces': { org: 'acme', page: { limit: 100 } },
    'MetaStore.CreateCollection': { ns: 1, name: 'intruder', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1, ...w('cc') },
    'MetaStore.DropCollection': { ns: 1, collection: 1, ...w('dc') },
    'MetaStore.Janitor': { ns: 1, ...w('jan') },
    'MetaStore.GetCollection': { ns: 1, collection: 1 },
    'MetaStore.CollectionByName': { ns: 1, name: 'items' },
    'MetaStore.ListCollections': { ns: 1, page: { limit: 100 } },
    'MetaStore.UpdateCollectionSchema': { ns: 1, collection: 1, expectedVersion: 1, schema: { primaryKey: 'id', fields: { id: 'string' } }, ...w('ucs') },
    'MetaStore.UpdateAliases': { ns: 1, actions: [], ...w('ua') },
    'MetaStore.GetAliases': { ns: 1 },
    'MetaStore.CreateStream': { ns: 1, name: 'intruder', partitions: 1, ...w('cs') },
    'MetaStore.DropStream': { ns: 1, stream: 1, ...w('ds') },
    'MetaStore.GetStream': { ns: 1, stream: 1 },
    'MetaStore.ListStreams': { ns: 1, page: { limit: 100 } },
    'MetaStore.SetRetention': { ns: 1, stream: 1, retention: { ms: 1000 }, ...w('sr') },
    'MetaStore.CommitWal': { commit: { object: 'wal/matrix-1', objectStamp: Date.now(), chunks: [{ ns: 1, stream: 1, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] }, ...w('cw') },
    'MetaStore.CommitWalBatch': {
      calls: [{ call: { commit: { object: 'wal/matrix-2', objectStamp: Date.now(), chunks: [{ ns: 1, stream: 1, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] }, ...w('cwb') }, timeoutMs: 10_000 }],
    },
    'MetaStore.CommitWalStream': {
      batchId: 1,
      calls: [{ call: { commit: { object: 'wal/matrix-3', objectStamp: Date.now(), chunks: [{ ns: 1, stream: 1, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] }, ...w('cws') }, timeoutMs: 10_000 }],
    },
    'MetaStore.DueHeads': { before: Date.now(), page: { limit: 100 } },
    'MetaStore.SettleHead': { ns: 1, stream: 1, partition: 0, mark: 1 },
    'MetaStore.PartitionIndex': { ns: 1, stream: 1, partition: 0 },
    'MetaStore.StreamState': { ns: 1, stream: 1 },
    'MetaStore.CollectionHead': { ns: 1, collection: 1 },
    'MetaStore.SwapSegment': { swap: { ns: 1, stream: 1, partition: 0, start: 0, end: 1, path: 'seg/matrix', byteStart: 0, byteEnd: 1 }, ...w('ss') },
    'MetaStore.TrimPartition': { ns: 1, stream: 1, partition: 0, logStart: 1, ...w('tp') },
    'MetaStore.SegmentReferenced': { ns: 1, stream: 1, path: 'seg/x' },
    'MetaStore.RetiredWalObjects': { page: { limit: 100 } },
    'MetaStore.CasPointer': { ns: 1, key: 'ptr-a', expectedVersion: 1, value: 'intruder', ...w('cas') },
    'MetaStore.GetPointer': { ns: 1, key: 'ptr-a' },
    'MetaStore.PointerVersion': { ns: 1, key: 'ptr-a', version: 1 },
    'MetaStore.AcquireLease': { ...lease, owner: 'intruder', ttlMs: 10_000, ...w('al') },
    'MetaStore.RenewLease': { ...lease, owner: 'holder', epoch: 1, ttlMs: 10_000, ...w('rl') },
    'MetaStore.ReleaseLease': { ...lease, owner: 'holder', epoch: 1, ...w('rel') },
    'MetaStore.GetLease': lease,
    'MetaStore.CreateTag': { ns: 1, collection: 1, name: 'intruder', manifestVersion: 1, ...w('ct') },
    'MetaStore.RewriteTag': { ns: 1, collection: 1, name: 'tag-a', fromPath: 'manifests/a/1.json', toPath: 'manifests/intruder.json', rewrittenBy: 'intruder', ...w('rt') },
    'MetaStore.DropTag': { ns: 1, collection: 1, name: 'tag-a', ...w('dt') },
    'MetaStore.ListTags': { ns: 1, collection: 1, page: { limit: 100 } },
    'MetaStore.ClaimObject': { path: 'obj/a', owner: 'intruder', ...w('co') },
    'MetaStore.ReleaseClaim': { path: 'obj/a', owner: 'intruder', deleted: true, ...w('rc') },
    'MetaStore.GetObjectRef': { path: 'obj/a' },
    'MetaStore.CatalogVersion': {},
    'MetaStore.ChangesSince': { version: 0, limit: 100 },
    'MetaStore.WatchChanges': { scope: { catalog: true }, since: 0 },
    'ControlStore.Capabilities': {},
    'ControlStore.Init': {},
    'ControlStore.CreateOrg': { id: 'intruder', ...rid('co') },
    'ControlStore.GetOrg': { id: 'acme' },
    'ControlStore.ListOrgs': { page: { limit: 100 } },
    'ControlStore.CreateKey': { keyId: '00000000000000aa', org: 'acme', secretHash: 'a'.repeat(64), scopes: ['*'], createdBy: 'intruder', created: Date.now(), ...rid('ck') },
    'ControlStore.GetKey': { keyId: betaKeyId },
    'ControlStore.ListKeys': { org: 'acme', page: { limit: 100 } },
    'ControlStore.RevokeKey': { org: 'acme', keyId: betaKeyId, ...rid('rk') },
    'ControlStore.TouchKeys': { touches: [{ keyId: betaKeyId, at: Date.now() }], ...rid('tk') },
    'ControlStore.Grant': { org: 'acme', subject: `key:${betaKeyId}`, role: 'ROLE_ORG_ADMIN', target: { org: true }, ...rid('g') },
    'ControlStore.RevokeGrant': { org: 'acme', subject: `key:${betaKeyId}`, role: 'ROLE_READER', target: { org: true }, ...rid('rg') },
    'ControlStore.Bindings': { org: 'acme', subject: `key:${betaKeyId}` },
    'ControlStore.ListBindings': { org: 'acme', page: { limit: 100 } },
    'ControlStore.DropNamespaceBindings': { org: 'acme', ns: 1, ...rid('dnb') },
    'ControlStore.SetQuota': { org: 'acme', name: 'QUOTA_NAME_REQUEST_RATE', value: 1, ...rid('sq') },
    'ControlStore.Quotas': { org: 'acme' },
    'ControlStore.PutUsage': { rows: [{ org: 'acme', metric: 'stored_bytes', window: 0, value: 1 }], ...rid('pu') },
    'ControlStore.AddUsage': { rows: [{ org: 'acme', metric: 'requests', window: 0, delta: 1 }], ...rid('au') },
    'ControlStore.Usage': { org: 'acme' },
    'ControlStore.Heartbeat': { node: 'intruder', ttlMs: 10_000, ...rid('hb') },
    'ControlStore.Members': {},
    'ControlStore.Leave': { node: 'node-a', ...rid('lv') },
    'ControlStore.Outbox': { limit: 100 },
    'ControlStore.AckOutbox': { seqs: [1], ...rid('ao') },
    'ControlStore.PutErasureKey': { key: { org: 'acme', version: 9, wrapped: 'intruder', created: 1 }, ...rid('pek') },
    'ControlStore.ErasureKeys': { org: 'acme' },
    'ControlStore.DestroyErasureKeys': { org: 'acme', ...rid('dek') },
    'ControlStore.CreateErasure': { row: { id: 'intruder', org: 'acme', ns: 1, collection: 1, phase: 'requested', requested: 1, version: 1, data: '{}' }, ...rid('ce') },
    'ControlStore.GetErasure': { id: 'er-a' },
    'ControlStore.UpdateErasure': { id: 'er-a', expectedVersion: 1, phase: 'complete', data: '{}', ...rid('ue') },
    'ControlStore.ListErasures': { org: 'acme' },
    'ControlStore.JobPosition': { job: 'authz-openfga-reconcile' },
    'ControlStore.SaveJobPosition': { job: 'authz-openfga-reconcile', position: 'p', ...rid('jp') },
    'ControlStore.ControlVersion': {},
    'ControlStore.ChangesSince': { after: 0, limit: 100 },
  };
}

/** Everything beta's cluster store holds, table by table, row by row (its own file). */
function dumpCluster(dir: string, cluster: string): string {
  const db = new Database(join(dir, 'clusters', `${cluster}.db`), { readonly: true });
  try {
    const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as { name: string }[];
    // Rows sorted as text (some tables are WITHOUT ROWID).
    return JSON.stringify(tables.map(({ name }) => [name, (db.prepare(`SELECT * FROM "${name}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort()]));
  } finally {
    db.close();
  }
}

/** Seeds a cluster with the same shapes under names that carry `mark`. */
async function seed(cluster: string, mark: string): Promise<{ apiKeyId: string; apiKeyHash: string }> {
  const h = await t.cp.stores.stores(cluster);
  const ns = await h.meta.createNamespace({ org: 'acme', name: mark === '' ? 'orders' : `payroll-${mark}` });
  const c = await h.meta.createCollection({ ns: ns.id, name: mark === '' ? 'items' : `salaries-${mark}`, schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
  await h.meta.casPointer(ns.id, mark === '' ? 'ptr-a' : `ptr-${mark}`, null, `manifests/${mark || 'a'}/1.json`);
  await h.meta.acquireLease(ns.id, mark === '' ? 'lease-a' : `lease-${mark}`, mark === '' ? 'holder' : `holder-${mark}`, 60_000);
  await h.meta.commitWal({ object: `wal/${mark || 'a'}-1`, objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 3, byteStart: 0, byteEnd: 30 }] });
  const cs = await h.control();
  await cs.createOrg('acme');
  const k = newKey();
  await cs.createKey({ keyId: k.keyId, org: 'acme', secretHash: k.secretHash, scopes: ['*'], expiry: null, createdBy: mark === '' ? 'admin' : `admin-${mark}`, created: Date.now() });
  await cs.grant({ org: 'acme', subject: `key:${k.keyId}`, role: 'org_admin', target: { kind: 'org' } });
  await cs.setQuota('acme', null, 'request_rate', 77);
  await cs.heartbeat(mark === '' ? 'node-a' : `node-${mark}`, 60_000);
  return { apiKeyId: k.keyId, apiKeyHash: k.secretHash };
}

let betaApiKeyId: string;
let ROWS: Record<string, unknown>;

before(async () => {
  t = await testControlPlane();
  alphaKey = (await createCluster(t.cp.registry, t.template, 'alpha', 'test')).key.token;
  betaKey = (await createCluster(t.cp.registry, t.template, 'beta', 'test')).key.token;
  const revoked = await createAgentKey(t.cp.registry, 'alpha', 'test');
  await t.cp.registry.revokeAgentKey('alpha', revoked.info.keyId);
  revokedAlphaKey = revoked.token;
  await seed('alpha', '');
  ({ apiKeyId: betaApiKeyId, apiKeyHash: betaApiKeyHash } = await seed('beta', BETA_MARK));
  ROWS = rows(betaApiKeyId);
  client = new grpc.Client(t.cp.target, grpc.credentials.createInsecure());
});

after(async () => {
  client?.close();
  await t?.cp.close();
  if (t) rmSync(t.dir, { recursive: true, force: true });
});

/** Beta's data must never show up in anything a caller of alpha gets. */
function assertNothingOfBeta(rpc: Rpc, o: Outcome): void {
  const text = JSON.stringify(o.messages) + o.details;
  assert.ok(!text.includes(BETA_MARK) && !text.includes(betaApiKeyHash), `${rpc.name} returned beta's metadata: ${text.slice(0, 300)}`);
}

const wrongSecret = (k: string) => k.replace(/_([0-9a-f])([0-9a-f]{63})$/, (_m, c: string, rest: string) => `_${c === '0' ? '1' : '0'}${rest}`);

describe('the cross-cluster matrix over every RPC', () => {
  test('ROWS has exactly one row per RPC of the service definition', () => {
    const served = allRpcs().map((r) => r.name).sort();
    assert.ok(served.length >= 70, `the service definition lists ${served.length} RPCs`);
    assert.deepEqual(Object.keys(ROWS).sort(), served, 'add a row to ROWS for every new RPC (and remove rows of removed ones)');
  });

  test('wrong credentials for beta, on every RPC: refused with UNAUTHENTICATED or PERMISSION_DENIED, no response, nothing of beta read or changed', async () => {
    const before_ = dumpCluster(t.dir, 'beta');
    assert.ok(before_.includes(BETA_MARK));
    const cases: { label: string; key: string | undefined; cluster: string | undefined; code: grpc.status }[] = [
      { label: "alpha's key naming beta", key: alphaKey, cluster: 'beta', code: grpc.status.PERMISSION_DENIED },
      { label: 'no key', key: undefined, cluster: 'beta', code: grpc.status.UNAUTHENTICATED },
      { label: "beta's key id with a wrong secret", key: wrongSecret(betaKey), cluster: 'beta', code: grpc.status.UNAUTHENTICATED },
      { label: 'an unknown key id', key: betaKey.replace(/^loam_agent_[0-9a-f]{16}/, 'loam_agent_ffffffffffffffff'), cluster: 'beta', code: grpc.status.UNAUTHENTICATED },
      { label: "alpha's revoked key", key: revokedAlphaKey, cluster: 'alpha', code: grpc.status.UNAUTHENTICATED },
      { label: 'an API key instead of an agent key', key: `loam_${'1'.repeat(16)}_${'2'.repeat(64)}`, cluster: 'beta', code: grpc.status.UNAUTHENTICATED },
      { label: "alpha's key naming an unregistered cluster", key: alphaKey, cluster: 'gamma', code: grpc.status.UNAUTHENTICATED },
    ];
    let calls = 0;
    for (const rpc of allRpcs()) {
      for (const c of cases) {
        const o = await callRaw(client, rpc, ROWS[rpc.name], metadataOf(c.key, c.cluster));
        calls++;
        assert.equal(o.code, c.code, `${rpc.name} with ${c.label}: expected ${grpc.status[c.code]}, got ${grpc.status[o.code]} ${o.details}`);
        assert.deepEqual(o.messages, [], `${rpc.name} with ${c.label} answered a message`);
        assertNothingOfBeta(rpc, o);
        assert.ok(o.details.length > 0, `${rpc.name} with ${c.label}: the status says what to fix`);
      }
    }
    assert.equal(calls, allRpcs().length * cases.length);
    assert.equal(dumpCluster(t.dir, 'beta'), before_, "beta's stored metadata changed");
    const text = await (await fetch(t.cp.metricsUrl)).text();
    const refused = (reason: string) => Number(new RegExp(`loam_cp_auth_failures_total\\{reason="${reason}"\\} (\\d+)`).exec(text)?.[1] ?? 0);
    assert.equal(refused('other_cluster'), allRpcs().length);
    assert.equal(refused('invalid'), 2 * allRpcs().length);
    assert.equal(refused('revoked'), allRpcs().length);
    assert.ok(!/cluster="beta"/.test(text), 'no call was counted as served for beta');
  });

  test("alpha's own key, on every RPC: served from alpha's stores only; nothing of beta comes back and beta is untouched", async () => {
    const before_ = dumpCluster(t.dir, 'beta');
    const served = new Map<string, Outcome>();
    for (const rpc of allRpcs()) {
      const o = await callRaw(client, rpc, ROWS[rpc.name], metadataOf(alphaKey, 'alpha'));
      assert.ok(o.code !== grpc.status.UNAUTHENTICATED && o.code !== grpc.status.PERMISSION_DENIED, `${rpc.name}: alpha's own call was refused: ${o.details}`);
      assertNothingOfBeta(rpc, o);
      served.set(rpc.name, o);
    }
    assert.equal(dumpCluster(t.dir, 'beta'), before_, "beta's stored metadata changed");
    // Reads by id found alpha's rows under the ids beta uses too (ids are dense per cluster).
    const get = (name: string) => served.get(name)!;
    assert.equal(get('MetaStore.GetNamespace').code, grpc.status.OK);
    const nsName = (get('MetaStore.GetNamespace').messages[0] as { name: string }).name;
    assert.ok(nsName === 'orders', `namespace 1 of alpha is ${nsName}`);
    assert.equal(get('ControlStore.GetKey').code, grpc.status.NOT_FOUND, "alpha cannot read beta's API key by its id");
    const text = await (await fetch(t.cp.metricsUrl)).text();
    assert.match(text, /loam_cp_rpcs_total\{cluster="alpha",method="MetaStore\.GetNamespace"\} 1/);
  });

  test("an idempotency key alpha used is beta's own: beta's write applies in beta, no replay of alpha's answer", async () => {
    const rpc = allRpcs().find((r) => r.name === 'MetaStore.CreateNamespace')!;
    const req = (name: string) => ({ org: 'acme', name, w: { requestId: 'shared-request-id' } });
    const a = await callRaw(client, rpc, req('from-alpha'), metadataOf(alphaKey, 'alpha'));
    assert.equal(a.code, grpc.status.OK, a.details);
    // The same key with other arguments would be refused as a reuse within one cluster; in another it is new.
    const b = await callRaw(client, rpc, req(`from-beta-${BETA_MARK}`), metadataOf(betaKey, 'beta'));
    assert.equal(b.code, grpc.status.OK, b.details);
    assert.equal((b.messages[0] as { name: string }).name, `from-beta-${BETA_MARK}`);
    const beta = await t.cp.stores.stores('beta');
    assert.equal((await beta.meta.namespaceByName('acme', `from-beta-${BETA_MARK}`)).name, `from-beta-${BETA_MARK}`);
    const alpha = await t.cp.stores.stores('alpha');
    assert.equal((await alpha.meta.namespaceByName('acme', 'from-alpha')).name, 'from-alpha');
    // Within alpha, the key still answers alpha's first call.
    const again = await callRaw(client, rpc, req('from-alpha'), metadataOf(alphaKey, 'alpha'));
    assert.deepEqual(again.messages, a.messages);
  });

  test("a watch with alpha's key sees alpha's changes and never beta's", async () => {
    const rpc = allRpcs().find((r) => r.name === 'MetaStore.WatchChanges')!;
    const beta = await t.cp.stores.stores('beta');
    const alpha = await t.cp.stores.stores('alpha');
    // Beta's new namespaces get ids alpha's do not have, so a leaked change would show by its id.
    for (let i = 0; i < 5; i++) await beta.meta.createNamespace({ org: 'acme', name: `pad-${i}-${BETA_MARK}` });
    const since = await alpha.meta.catalogVersion();
    const watching = callRaw(client, rpc, { scope: { catalog: true }, since }, metadataOf(alphaKey, 'alpha'), 1_500);
    await new Promise((r) => setTimeout(r, 200));
    const b = await beta.meta.createNamespace({ org: 'acme', name: `late-${BETA_MARK}` });
    const a = await alpha.meta.createNamespace({ org: 'acme', name: 'late-alpha' });
    assert.notEqual(a.id, b.id);
    const o = await watching;
    assertNothingOfBeta(rpc, o);
    const changed = new Set((o.messages as { changes: { ns: number }[] }[]).flatMap((m) => m.changes.map((c) => Number(c.ns))));
    assert.deepEqual([...changed], [a.id], `the watch delivered exactly alpha's change: ${JSON.stringify(o.messages).slice(0, 300)}`);
  });
});

// The ControlStore conformance suite (spec §6): the same cases on every metastore backend
// (LOAM_TEST_BACKEND), selected by capabilities(), never by backend name.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { backendFactory, type BackendFactory } from '../harness/backends.js';
import { controlStoreFor, type ControlStore } from '../../src/control/index.js';
import { newKey } from '../../src/control/keys.js';
import { isMetaError } from '../../src/meta/errors.js';
import { MAX_OUTBOX_PAGE, MAX_QUOTA_OVERRIDES, MAX_TOUCH_BATCH, MAX_USAGE_ROWS } from '../../src/control/types.js';

let f: BackendFactory;
let cs: ControlStore;
let cs2: ControlStore;
let meta: Awaited<ReturnType<BackendFactory['open']>>;

before(async () => {
  f = backendFactory();
  meta = await f.open();
  cs = await controlStoreFor(meta);
  cs2 = await controlStoreFor(await f.connect(meta));
});
after(async () => {
  await cs.close();
  await cs2.close();
  await f.cleanup();
});

function keyRec(org: string, scopes = ['*']) {
  const k = newKey();
  return { k, rec: { keyId: k.keyId, org, secretHash: k.secretHash, scopes, expiry: null, createdBy: 'test', created: Date.now() } };
}

describe(`ControlStore on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'}`, () => {
  test('orgs: create, read, list with pages; a second create is AlreadyExists', async () => {
    await cs.createOrg('acme');
    await cs.createOrg('beta');
    await cs.createOrg('gamma');
    await assert.rejects(cs.createOrg('acme'), (e) => isMetaError(e, 'AlreadyExists'));
    await assert.rejects(cs.createOrg('bad org'), (e) => isMetaError(e, 'InvalidArgument'));
    assert.equal((await cs2.org('beta')).id, 'beta');
    await assert.rejects(cs.org('nope'), (e) => isMetaError(e, 'NotFound'));
    const p1 = await cs.listOrgs({ limit: 2 });
    assert.deepEqual(p1.items.map((o) => o.id), ['acme', 'beta']);
    const p2 = await cs.listOrgs({ limit: 2, after: p1.next! });
    assert.deepEqual(p2.items.map((o) => o.id), ['gamma']);
    assert.equal(p2.next, undefined);
  });

  test('a batch over its named limit is LimitExceeded naming it, and writes nothing', async () => {
    await cs.createOrg('batches');
    const { k, rec } = keyRec('batches', ['read']);
    await cs.createKey(rec);
    const touches = Array.from({ length: MAX_TOUCH_BATCH + 1 }, () => ({ keyId: k.keyId, at: 1 }));
    await assert.rejects(cs.touchKeys(touches), (e) => isMetaError(e, 'LimitExceeded') && /MAX_TOUCH_BATCH/.test((e as Error).message));
    assert.equal((await cs.key(k.keyId)).lastUsed, null, 'the refused touch wrote nothing');
    await assert.rejects(cs.ackOutbox(Array.from({ length: MAX_OUTBOX_PAGE + 1 }, (_, i) => i + 1)), (e) => isMetaError(e, 'LimitExceeded') && /MAX_OUTBOX_PAGE/.test((e as Error).message));
    const usage = Array.from({ length: MAX_USAGE_ROWS + 1 }, (_, i) => ({ org: 'batches', ns: null, metric: 'requests', window: i, value: 1 }));
    await assert.rejects(cs.putUsage(usage), (e) => isMetaError(e, 'LimitExceeded') && /MAX_USAGE_ROWS/.test((e as Error).message));
  });

  test('a page size below 1 is a page of one on every ControlStore (one clamp, rules.ts)', async () => {
    for (const id of ['p-a', 'p-b']) await cs.createOrg(id);
    for (const limit of [0, -5, 0.5]) {
      const page = await cs.listOrgs({ limit });
      assert.equal(page.items.length, 1, `listOrgs({ limit: ${limit} })`);
      assert.ok(page.next, `listOrgs({ limit: ${limit} }) says there is more`);
    }
    const { rec } = keyRec('p-a', ['read']);
    await cs.createKey(rec);
    await cs.createKey(keyRec('p-a', ['read']).rec);
    assert.equal((await cs.listKeys('p-a', { limit: 0 })).items.length, 1);
    assert.equal((await cs.listKeys('p-a', { limit: 10_000_000 })).items.length, 2, 'a size above the maximum is the maximum');
  });

  test('keys: stored with the hash only, listed without it, per org; revoke is idempotent and org-checked', async () => {
    const { k, rec } = keyRec('acme', ['read', 'ns:docs']);
    const info = await cs.createKey(rec);
    assert.equal((info as unknown as Record<string, unknown>).secretHash, undefined);
    assert.ok(!JSON.stringify(info).includes(k.secret));
    const got = await cs2.key(k.keyId);
    assert.equal(got.secretHash, k.secretHash);
    assert.deepEqual(got.scopes, ['read', 'ns:docs']);
    assert.equal(got.revoked, null);
    await assert.rejects(cs.createKey(rec), (e) => isMetaError(e, 'AlreadyExists'));
    await assert.rejects(cs.createKey(keyRec('nope').rec), (e) => isMetaError(e, 'NotFound'));
    await assert.rejects(cs.createKey({ ...keyRec('acme').rec, scopes: ['root'] }), (e) => isMetaError(e, 'InvalidArgument'));
    await cs.createKey(keyRec('beta').rec);
    const list = await cs.listKeys('acme');
    assert.deepEqual(list.items.map((x) => x.keyId), [k.keyId]);
    assert.ok(!JSON.stringify(list).includes(k.secretHash));
    await assert.rejects(cs.revokeKey('beta', k.keyId), (e) => isMetaError(e, 'NotFound'));
    await cs.revokeKey('acme', k.keyId, 1234);
    await cs.revokeKey('acme', k.keyId, 9999);
    assert.equal((await cs2.key(k.keyId)).revoked, 1234);
    await assert.rejects(cs.key('0000000000000000'), (e) => isMetaError(e, 'NotFound'));
  });

  test('keys: last_used updated in batches, never backwards', async () => {
    const a = keyRec('acme');
    const b = keyRec('acme');
    await cs.createKey(a.rec);
    await cs.createKey(b.rec);
    await cs.touchKeys([
      { keyId: a.k.keyId, at: 500 },
      { keyId: b.k.keyId, at: 700 },
    ]);
    await cs.touchKeys([{ keyId: a.k.keyId, at: 400 }]);
    assert.equal((await cs.key(a.k.keyId)).lastUsed, 500);
    assert.equal((await cs.key(b.k.keyId)).lastUsed, 700);
    await assert.rejects(cs.touchKeys(Array.from({ length: 101 }, () => ({ keyId: a.k.keyId, at: 1 }))), (e) => isMetaError(e, 'LimitExceeded'));
  });

  test('role bindings: grant is idempotent, per subject, dropped with their namespace', async () => {
    const { k } = keyRec('acme');
    const subject = `key:${k.keyId}`;
    await cs.grant({ org: 'acme', subject, role: 'reader', target: { kind: 'namespace', ns: 7 } });
    await cs.grant({ org: 'acme', subject, role: 'reader', target: { kind: 'namespace', ns: 7 } });
    await cs.grant({ org: 'acme', subject, role: 'writer', target: { kind: 'namespace', ns: 8 } });
    await cs.grant({ org: 'acme', subject, role: 'org_admin', target: { kind: 'org' } });
    await assert.rejects(cs.grant({ org: 'acme', subject, role: 'org_admin', target: { kind: 'namespace', ns: 1 } }), (e) => isMetaError(e, 'InvalidArgument'));
    await assert.rejects(cs.grant({ org: 'acme', subject, role: 'owner' as never, target: { kind: 'org' } }), (e) => isMetaError(e, 'InvalidArgument'));
    const bs = await cs2.bindings('acme', subject);
    assert.equal(bs.length, 3);
    assert.deepEqual(await cs.bindings('beta', subject), []);
    await cs.revokeGrant({ org: 'acme', subject, role: 'org_admin', target: { kind: 'org' } });
    await cs.dropNamespaceBindings('acme', 7);
    const left = await cs.bindings('acme', subject);
    assert.deepEqual(left.map((b) => [b.role, b.target]), [['writer', { kind: 'namespace', ns: 8 }]]);
    const page = await cs.listBindings('acme', { limit: 1 });
    assert.equal(page.items.length, 1);
  });

  test('quotas: per-org and per-namespace overrides, set and cleared', async () => {
    await cs.setQuota('acme', null, 'request_rate', 50);
    await cs.setQuota('acme', 3, 'request_rate', 5.5);
    await cs.setQuota('acme', 3, 'storage_bytes', 1e9);
    await assert.rejects(cs.setQuota('acme', null, 'nope' as never, 1), (e) => isMetaError(e, 'InvalidArgument'));
    await assert.rejects(cs.setQuota('acme', null, 'request_rate', -1), (e) => isMetaError(e, 'InvalidArgument'));
    await cs.setQuota('acme', 3, 'storage_bytes', null);
    const q = await cs2.quotas('acme');
    assert.deepEqual(
      q.map((x) => [x.ns, x.name, x.value]).sort((a, b) => String(a).localeCompare(String(b))),
      [
        [3, 'request_rate', 5.5],
        [null, 'request_rate', 50],
      ].sort((a, b) => String(a).localeCompare(String(b))),
    );
    assert.deepEqual(await cs.quotas('beta'), []);
  });

  test(`quotas: an org holds at most MAX_QUOTA_OVERRIDES (${MAX_QUOTA_OVERRIDES}) overrides, and quotas() answers every one`, async () => {
    // Before, any number could be set while quotas() answered the first 1,000 (by namespace id):
    // the override of a namespace past them was stored, listed nowhere and never enforced.
    await cs.createOrg('many-quotas');
    await cs.setQuota('many-quotas', null, 'request_rate', 500);
    for (let lo = 1; lo < MAX_QUOTA_OVERRIDES; lo += 100) {
      await Promise.all(Array.from({ length: Math.min(100, MAX_QUOTA_OVERRIDES - lo) }, (_, i) => cs.setQuota('many-quotas', 1_000 + lo + i, 'storage_bytes', 1e9)));
    }
    const last = 1_000_000;
    await assert.rejects(cs.setQuota('many-quotas', last, 'request_rate', 1), (e) => isMetaError(e, 'LimitExceeded') && /MAX_QUOTA_OVERRIDES/.test((e as Error).message));
    let q = await cs2.quotas('many-quotas');
    assert.equal(q.length, MAX_QUOTA_OVERRIDES);
    assert.ok(!q.some((r) => r.ns === last), 'the refused override was not written');
    // Changing one that exists, and clearing one, still work; the cleared place takes a new one.
    await cs.setQuota('many-quotas', 1_001, 'storage_bytes', 2e9);
    await cs.setQuota('many-quotas', 1_002, 'storage_bytes', null);
    await cs.setQuota('many-quotas', last, 'request_rate', 1);
    q = await cs2.quotas('many-quotas');
    assert.equal(q.length, MAX_QUOTA_OVERRIDES);
    assert.deepEqual(q.find((r) => r.ns === last && r.name === 'request_rate')?.value, 1, 'the newest override is answered');
    assert.deepEqual(q.find((r) => r.ns === null)?.value, 500);
  });

  test("a dropped namespace's quota overrides go with its bindings, and the change is on the feed", async () => {
    // They stayed: no name resolves to a dropped namespace, so they could never be cleared,
    // and they held places of the org's MAX_QUOTA_OVERRIDES.
    await cs.createOrg('dropping-quotas');
    await cs.setQuota('dropping-quotas', null, 'request_rate', 70);
    await cs.setQuota('dropping-quotas', 41, 'request_rate', 7);
    await cs.setQuota('dropping-quotas', 41, 'storage_bytes', 1e6);
    await cs.setQuota('dropping-quotas', 42, 'request_rate', 8);
    const v = await cs.controlVersion();
    await cs.dropNamespaceBindings('dropping-quotas', 41);
    assert.deepEqual((await cs2.quotas('dropping-quotas')).map((q) => [q.ns, q.name, q.value]), [[null, 'request_rate', 70], [42, 'request_rate', 8]]);
    assert.ok((await cs.changesSince(v)).some((c) => c.kind === 'quota' && c.org === 'dropping-quotas'), 'gateways hear of it');
  });

  test('membership: heartbeats keep a node alive until they expire; never backwards; leave ends it', async () => {
    const t0 = 1_700_000_000_000;
    await cs.heartbeat('gw-a', 10_000, t0);
    await cs2.heartbeat('gw-b', 10_000, t0 + 1_000);
    assert.deepEqual(await cs2.members(t0 + 5_000), [
      { node: 'gw-a', expires: t0 + 10_000, info: '' },
      { node: 'gw-b', expires: t0 + 11_000, info: '' },
    ]);
    assert.deepEqual((await cs.members(t0 + 10_500)).map((m) => m.node), ['gw-b'], 'gw-a expired');
    // A late heartbeat with an older clock does not shorten a newer one.
    await cs.heartbeat('gw-b', 10_000, t0 + 20_000);
    await cs2.heartbeat('gw-b', 1_000, t0 + 2_000);
    assert.deepEqual(await cs.members(t0 + 25_000), [{ node: 'gw-b', expires: t0 + 30_000, info: '' }]);
    await cs.leave('gw-b');
    await cs.leave('gw-b');
    assert.deepEqual(await cs2.members(t0 + 25_000), []);
    await assert.rejects(cs.heartbeat('bad node', 1_000, t0), (e) => isMetaError(e, 'InvalidArgument'));
    await assert.rejects(cs.heartbeat('gw-c', 0, t0), (e) => isMetaError(e, 'InvalidArgument'));
  });

  test("membership info: a heartbeat's info replaces the last, one without keeps it, leave and expiry clear it", async () => {
    const t0 = 1_700_000_100_000;
    await cs.heartbeat('node-a', 10_000, t0, '{"roles":["gateway","query"]}');
    await cs2.heartbeat('node-b', 10_000, t0);
    assert.deepEqual(await cs2.members(t0 + 1), [
      { node: 'node-a', expires: t0 + 10_000, info: '{"roles":["gateway","query"]}' },
      { node: 'node-b', expires: t0 + 10_000, info: '' },
    ]);
    await cs.heartbeat('node-a', 10_000, t0 + 1_000);
    assert.equal((await cs.members(t0 + 1_001))[0]!.info, '{"roles":["gateway","query"]}', 'kept without info');
    // A late heartbeat does not move the expiry back, but its info is the node's latest word.
    await cs2.heartbeat('node-a', 10_000, t0 + 500, '{"roles":["gateway"],"zone":"z1"}');
    assert.deepEqual((await cs.members(t0 + 1_001))[0], { node: 'node-a', expires: t0 + 11_000, info: '{"roles":["gateway"],"zone":"z1"}' });
    await cs.leave('node-a');
    await cs.heartbeat('node-a', 10_000, t0 + 2_000);
    assert.equal((await cs.members(t0 + 2_001)).find((m) => m.node === 'node-a')!.info, '', 'leave cleared it');
    await cs.heartbeat('node-c', 1_000, t0 + 3_000, 'c');
    await cs.heartbeat('node-d', 10_000, t0 + 5_000); // clears node-c (expired) and node-a, node-b
    await cs.heartbeat('node-c', 10_000, t0 + 5_000);
    assert.equal((await cs.members(t0 + 5_001)).find((m) => m.node === 'node-c')!.info, '', 'expiry cleared it');
    await assert.rejects(cs.heartbeat('node-e', 1_000, t0, 'x'.repeat(1_025)), (e) => isMetaError(e, 'InvalidArgument'));
    for (const n of ['node-a', 'node-b', 'node-c', 'node-d']) await cs.leave(n);
  });

  test('usage counters: concurrent adds from two handles into one window lose nothing', async () => {
    const w = 3_600_000 * 100;
    const add = (h: ControlStore, n: number) => h.addUsage([{ org: 'counting', ns: 4, metric: 'requests', window: w, delta: n }]);
    await Promise.all([...Array.from({ length: 10 }, () => add(cs, 1)), ...Array.from({ length: 10 }, () => add(cs2, 2))]);
    await cs.addUsage([
      { org: 'counting', ns: 4, metric: 'ingest_bytes', window: w, delta: 500 },
      { org: 'counting', ns: null, metric: 'requests', window: w, delta: 0 },
    ]);
    const u = await cs2.usage('counting', { since: w });
    const got = Object.fromEntries(u.map((x) => [`${x.ns}/${x.metric}`, x.value]));
    assert.equal(got['4/requests'], 30);
    assert.equal(got['4/ingest_bytes'], 500);
    assert.equal(got['null/requests'], 0);
    await assert.rejects(cs.addUsage([{ org: 'acme', ns: 4, metric: 'Bad Metric', window: w, delta: 1 }]), (e) => isMetaError(e, 'InvalidArgument'));
    await assert.rejects(cs.addUsage([{ org: 'acme', ns: 4, metric: 'requests', window: w, delta: -1 }]), (e) => isMetaError(e, 'InvalidArgument'));
  });

  test('usage rollups: upsert by (org, ns, metric, window)', async () => {
    await cs.putUsage([
      { org: 'acme', ns: 3, metric: 'storage_bytes', window: 0, value: 10 },
      { org: 'acme', ns: 3, metric: 'requests', window: 60_000, value: 4 },
    ]);
    await cs.putUsage([{ org: 'acme', ns: 3, metric: 'storage_bytes', window: 0, value: 12 }]);
    const u = await cs2.usage('acme', { metric: 'storage_bytes' });
    assert.deepEqual(u.map((x) => [x.ns, x.value]), [[3, 12]]);
    assert.equal((await cs.usage('acme')).length, 2);
    assert.deepEqual(await cs.usage('beta'), []);
  });

  test('arguments no backend can carry are refused the same everywhere: an id no record can have is NotFound, a malformed argument InvalidArgument naming it', async () => {
    const notFound = (e: unknown) => isMetaError(e, 'NotFound');
    await assert.rejects(cs.org('a\u0000b'), notFound);
    await assert.rejects(cs.org(''), notFound);
    await assert.rejects(cs.key(''), notFound);
    await assert.rejects(cs.key('x'.repeat(5_000)), notFound);
    await assert.rejects(cs.erasure(''), notFound);
    const invalid = (field: string) => (e: unknown) => isMetaError(e, 'InvalidArgument') && (e as Error).message.startsWith(`${field}:`);
    await assert.rejects(cs.listOrgs({ after: 'a\u0000b' }), invalid('page.after'));
    await assert.rejects(cs.listOrgs({ after: 'x'.repeat(5_000) }), invalid('page.after'));
    await assert.rejects(cs.listKeys('a\u0000b'), invalid('org'));
    await assert.rejects(cs.bindings('acme', 'x'.repeat(2_000)), invalid('subject'));
    await assert.rejects(cs.usage('acme', { metric: 'a\u0000b' }), invalid('metric'));
    await assert.rejects(cs.members(2 ** 63), invalid('at'));
    await assert.rejects(cs.changesSince(2 ** 63), invalid('after'));
    await assert.rejects(cs.saveJobPosition('job-a', 'p', 2 ** 63), invalid('at'));
    await assert.rejects(cs.touchKeys([{ keyId: '', at: 1 }]), invalid('touches[0].keyId'));
    await assert.rejects(cs.updateErasure('', 1, { phase: 'x', completed: null, data: '{}' }), invalid('id'));
    assert.equal(await cs.jobPosition('job-a'), null, 'nothing written');
  });

  test('usage rollups: a value that is no finite amount, or a row of no valid place, is InvalidArgument naming the field, and nothing of the batch is written', async () => {
    const ok = { org: 'acme', ns: 9, metric: 'storage_bytes', window: 0, value: 5 };
    for (const [bad, field] of [
      [{ ...ok, value: Number.NaN }, 'value'],
      [{ ...ok, value: Infinity }, 'value'],
      [{ ...ok, value: -1 }, 'value'],
      [{ ...ok, metric: 'Bad Metric' }, 'metric'],
      [{ ...ok, window: -5 }, 'window'],
      [{ ...ok, ns: -2 }, 'ns'],
      [{ ...ok, org: '../x' }, 'org'],
    ] as const) {
      await assert.rejects(cs.putUsage([ok, bad]), (e) => isMetaError(e, 'InvalidArgument') && new RegExp(`^${field}:`).test((e as Error).message), JSON.stringify(bad));
    }
    assert.deepEqual((await cs2.usage('acme')).filter((x) => x.ns === 9), []);
  });

  test('change feed: every key, binding, quota and org change appears, in version order, on another handle', async () => {
    const v0 = await cs2.controlVersion();
    const { k, rec } = keyRec('beta');
    await cs.createKey(rec);
    await cs.grant({ org: 'beta', subject: `key:${k.keyId}`, role: 'reader', target: { kind: 'org' } });
    await cs.revokeKey('beta', k.keyId);
    await cs.setQuota('beta', null, 'request_rate', 1);
    const v1 = await cs2.controlVersion();
    assert.ok(v1 >= v0 + 4, `${v1} ≥ ${v0} + 4`);
    const ch = await cs2.changesSince(v0);
    assert.deepEqual(
      ch.map((c) => [c.kind, c.org, c.id]),
      [
        ['key', 'beta', k.keyId],
        ['binding', 'beta', `key:${k.keyId}`],
        ['key', 'beta', k.keyId],
        ['quota', 'beta', ''],
      ],
    );
    for (let i = 1; i < ch.length; i++) assert.ok(ch[i]!.version > ch[i - 1]!.version);
    assert.deepEqual(await cs2.changesSince(v1), []);
    assert.equal((await cs2.changesSince(v0, 2)).length, 2);
    const caps = cs.capabilities();
    if (caps.feedOrder === 'ordered') assert.deepEqual(ch.map((c) => c.version), [v0 + 1, v0 + 2, v0 + 3, v0 + 4]);
  });

  test('a background job\'s position: saved by one handle, read by another (a new lease holder), cleared with null; bad names and positions are InvalidArgument', async () => {
    assert.equal(await cs.jobPosition('reconcile-test'), null, 'no position before the first save');
    await cs.saveJobPosition('reconcile-test', '{"phase":"tuples","token":"abc"}');
    assert.equal(await cs2.jobPosition('reconcile-test'), '{"phase":"tuples","token":"abc"}', 'another handle reads it');
    await cs2.saveJobPosition('reconcile-test', 'next');
    assert.equal(await cs.jobPosition('reconcile-test'), 'next', 'the last save wins');
    await cs.saveJobPosition('reconcile-test', null);
    assert.equal(await cs2.jobPosition('reconcile-test'), null, 'cleared');
    await assert.rejects(cs.saveJobPosition('Bad Job', 'x'), (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'job');
    await assert.rejects(cs.saveJobPosition('ok', 'x'.repeat(5_000)), (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'position');
    await assert.rejects(cs.saveJobPosition('ok', ''), (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'position');
  });

  test('the authorization outbox: one entry per key and binding change, in the change\'s transaction, only when opened with outbox', async () => {
    const ob = await controlStoreFor(meta, { outbox: true });
    try {
      const drain = async () => {
        const all = [];
        for (let i = 0; i < 100; i++) {
          const page = await ob.outbox(3);
          if (page.length === 0) break;
          all.push(...page);
          await ob.ackOutbox(page.map((e) => e.seq));
        }
        return all.map((e) => [e.org, e.subject, e.relation, e.target]);
      };
      await drain();
      await cs.createOrg('obx');
      const { k, rec } = keyRec('obx');
      await cs.createKey(rec);
      await cs.grant({ org: 'obx', subject: `key:${k.keyId}`, role: 'reader', target: { kind: 'org' } });
      assert.deepEqual(await ob.outbox(), [], 'a ControlStore opened without the outbox records none');
      const { k: k2, rec: rec2 } = keyRec('obx');
      await ob.createKey(rec2);
      const s = `key:${k2.keyId}`;
      await ob.grant({ org: 'obx', subject: s, role: 'writer', target: { kind: 'namespace', ns: 7 } });
      await ob.grant({ org: 'obx', subject: s, role: 'writer', target: { kind: 'namespace', ns: 7 } }); // no change: no entry
      await ob.grant({ org: 'obx', subject: s, role: 'reader', target: { kind: 'org' } });
      await assert.rejects(ob.grant({ org: 'nope', subject: s, role: 'reader', target: { kind: 'org' } }), (e) => isMetaError(e, 'NotFound'));
      await assert.rejects(ob.createKey(rec2), (e) => isMetaError(e, 'AlreadyExists'));
      await ob.revokeGrant({ org: 'obx', subject: s, role: 'reader', target: { kind: 'org' } });
      await ob.dropNamespaceBindings('obx', 7);
      await ob.revokeKey('obx', k2.keyId);
      const seen = await ob.outbox();
      for (let i = 1; i < seen.length; i++) assert.ok(seen[i]!.seq > seen[i - 1]!.seq, 'in seq order');
      assert.deepEqual(await drain(), [
        ['obx', s, 'member', 'org'],
        ['obx', s, 'writer', 'ns:7'],
        ['obx', s, 'reader', 'org'],
        // revokeGrant: an entry whether or not the binding was there on a backend that cannot tell (the drainer reads the state)
        ...(seen.filter((e) => e.relation === 'reader').length === 2 ? [['obx', s, 'reader', 'org']] : []),
        ['obx', s, 'writer', 'ns:7'],
        ['obx', s, 'member', 'org'],
      ]);
      assert.deepEqual(await ob.outbox(), [], 'acknowledged entries are gone');
      await ob.ackOutbox([123_456_789]); // unknown seqs are ignored
      await assert.rejects(ob.ackOutbox(Array.from({ length: 101 }, (_, i) => i)), (e) => isMetaError(e, 'LimitExceeded'));
    } finally {
      await ob.close();
    }
  });
});

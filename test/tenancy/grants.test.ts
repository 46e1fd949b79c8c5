// Granting roles under LOAM_TEST_BACKEND and TEST_AUTHORIZER (spec §6: no key creates a key
// with more power than its own; the same holds for the roles it grants): a key grants a role
// only when everything the role would let the grantee do on its target (the role's actions
// the grantee's scopes let through) it may do itself; a key that expires creates no key and
// grants no role to a key that outlives it; a grant or a revocation takes effect on the node
// that made it at once (with OpenFGA, once its outbox has delivered the tuple: within
// SETTLE_MS). A refused grant has written no binding.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendFactory } from '../harness/backends.js';
import { TEST_AUTHORIZER } from '../harness/authorizers.js';
import type { LoamNode } from '../../src/node/node.js';
import { call as callNode, keyedTenancyNode } from './helpers.js';

let f: BackendFactory;
let node: LoamNode;
/** The admin of org "default" (bootstrap). */
let admin: string;

const call = (method: string, path: string, key: string | null, body?: unknown) => callNode(node, method, path, key, body);

async function newKey(spec: Record<string, unknown>): Promise<{ key: string; id: string }> {
  const r = await call('POST', '/v1/keys', admin, spec);
  assert.equal(r.status, 201, `the admin creates ${JSON.stringify(spec)}: ${r.text}`);
  return { key: r.body.key, id: r.body.keyId };
}

/** What a key can do, by class: allowed routes answer 200 or 404 (no such collection), refused ones 403. */
const PROBES: Record<string, (k: string) => Promise<number>> = {
  read: async (k) => (await call('GET', '/v1/namespaces/alpha/collections/nope/documents/x', k)).status,
  write: async (k) => (await call('POST', '/v1/namespaces/alpha/collections/nope/documents', k, { upserts: [{ id: 'probe' }] })).status,
  ns_admin: async (k) => (await call('DELETE', '/v1/namespaces/alpha/collections/nope', k)).status,
  org_admin: async (k) => (await call('GET', '/v1/keys', k)).status,
};
async function power(k: string): Promise<string[]> {
  const out: string[] = [];
  for (const [cls, probe] of Object.entries(PROBES)) {
    const s = await probe(k);
    assert.ok([200, 403, 404].includes(s), `probe ${cls}: ${s}`);
    if (s !== 403) out.push(cls);
  }
  return out;
}

/** How long a grant or revocation may take to reach the authorizer: none with the built-in one (it reads the ControlStore), the outbox's delivery with OpenFGA. */
const SETTLE_MS = TEST_AUTHORIZER === 'openfga' ? 5_000 : 0;

/** `k`'s power once `done` holds of it, at once or within SETTLE_MS. */
async function settled(k: string, done: (p: string[]) => boolean, what: string): Promise<string[]> {
  const until = Date.now() + SETTLE_MS;
  for (;;) {
    const p = await power(k);
    if (done(p)) return p;
    assert.ok(Date.now() < until, `${what} (power ${p}${SETTLE_MS ? `, after ${SETTLE_MS} ms` : ''})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function bindingsOf(keyId: string): Promise<string[]> {
  const r = await call('GET', '/v1/bindings?page_size=100', admin);
  assert.equal(r.status, 200, r.text);
  return (r.body.items as { subject: string; role: string; target: { kind: string; ns?: number } }[])
    .filter((b) => b.subject === `key:${keyId}`)
    .map((b) => `${b.role}@${b.target.kind}${b.target.ns ?? ''}`)
    .sort();
}

before(async () => {
  ({ node, factory: f } = await keyedTenancyNode());
  admin = node.bootstrapKey!;
  assert.equal((await call('POST', '/v1/namespaces', admin, { name: 'alpha' })).status, 201);
  for (const name of ['request_rate', 'metadata_ops_rate']) assert.equal((await call('PUT', '/v1/orgs/default/quotas', node.operatorKey!, { name, value: 1_000_000 })).status, 200);
});

after(async () => {
  await node?.close();
  await f?.cleanup();
});

describe(`granting roles on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'} with the ${TEST_AUTHORIZER} authorizer`, () => {
  test('a key grants a role only when it may itself do all the role would let the grantee do', async () => {
    const CLASSES: Record<string, string[]> = { '*': ['read', 'write', 'ns_admin', 'org_admin'], read: ['read'], write: ['write'], admin: ['ns_admin', 'org_admin'] };
    const ROLE_CLASSES: Record<string, string[]> = { org_admin: ['read', 'write', 'ns_admin', 'org_admin'], namespace_admin: ['read', 'write', 'ns_admin'], writer: ['read', 'write'], reader: ['read'] };
    const classes = (scopes: string[]) => new Set(scopes.flatMap((s) => CLASSES[s] ?? []));
    // Org admins narrowed by their scopes (each can manage keys: org_admin and an admin class).
    const granters = await Promise.all([['*'], ['read', 'admin'], ['admin']].map(async (scopes) => ({ scopes, ...(await newKey({ role: 'org_admin', scopes })) })));
    const GRANTEE_SCOPES = [['*'], ['read'], ['read', 'write']];
    const GRANTS = [{ role: 'org_admin' }, { role: 'namespace_admin', namespace: 'alpha' }, { role: 'writer' }, { role: 'reader' }];
    let allowed = 0;
    let refused = 0;
    for (const g of granters) {
      const granterPower = await settled(g.key, (p) => p.includes('org_admin'), 'a new org admin key manages keys');
      for (const scopes of GRANTEE_SCOPES) {
        for (const grant of GRANTS) {
          const grantee = await newKey({ role: 'reader', scopes });
          // Every grantee's scopes let reading through: its reader role shows.
          const before = await settled(grantee.key, (p) => p.includes('read'), 'a new reader key reads');
          const bindingsBefore = await bindingsOf(grantee.id);
          const conferred = ROLE_CLASSES[grant.role]!.filter((c) => classes(scopes).has(c));
          const expect = conferred.every((c) => classes(g.scopes).has(c));
          const r = await call('POST', '/v1/bindings', g.key, { key_id: grantee.id, ...grant });
          const what = `${JSON.stringify(g.scopes)} granting ${JSON.stringify(grant)} to a key of scopes ${JSON.stringify(scopes)}`;
          assert.equal(r.status, expect ? 201 : 403, `${what}: ${r.text}`);
          if (expect) {
            allowed++;
            const after = await settled(grantee.key, (p) => conferred.every((c) => p.includes(c)), `${what}: the grant takes effect at once`);
            assert.ok(after.every((c) => before.includes(c) || granterPower.includes(c)), `${what}: the grantee can ${after}, its granter only ${granterPower}`);
          } else {
            const after = await power(grantee.key);
            refused++;
            assert.equal(r.body.error.code, 'forbidden');
            assert.match(r.body.error.message, /which this key may not do itself/);
            assert.deepEqual(after, before, `${what}: the refused grant gave nothing`);
            assert.deepEqual(await bindingsOf(grantee.id), bindingsBefore, `${what}: and wrote no binding`);
          }
        }
      }
    }
    assert.ok(allowed >= 10 && refused >= 10, `both outcomes were exercised (${allowed} allowed, ${refused} refused)`);
  });

  test('the case found by hand: an org admin that cannot write does not make a key that can', async () => {
    const g = await newKey({ role: 'org_admin', scopes: ['read', 'admin'] });
    const r = await newKey({ role: 'reader' });
    assert.deepEqual(await settled(g.key, (p) => p.includes('org_admin'), 'a new org admin key manages keys'), ['read', 'ns_admin', 'org_admin']);
    const grant = await call('POST', '/v1/bindings', g.key, { key_id: r.id, role: 'org_admin' });
    assert.equal(grant.status, 403, grant.text);
    assert.match(grant.body.error.message, /documents\.write/);
    assert.equal(await PROBES.write!(r.key), 403, 'the reader still cannot write');
  });

  test('a role on the org given to a namespace-scoped key confers what it does in that namespace: a granter that cannot write does not make it write there', async () => {
    const g = await newKey({ role: 'org_admin', scopes: ['read', 'admin'] });
    await settled(g.key, (p) => p.includes('org_admin'), 'a new org admin key manages keys');
    for (const role of ['org_admin', 'writer']) {
      const grantee = await newKey({ role: 'reader', namespace: 'alpha', scopes: ['*', 'ns:alpha'] });
      assert.deepEqual(await settled(grantee.key, (p) => p.includes('read'), 'a new reader key reads'), ['read']);
      const before = await bindingsOf(grantee.id);
      const r = await call('POST', '/v1/bindings', g.key, { key_id: grantee.id, role });
      assert.equal(r.status, 403, `${role} on the org to a key scoped to ns:alpha: ${r.text}`);
      assert.match(r.body.error.message, /documents\.write.*which this key may not do itself/);
      assert.deepEqual(await bindingsOf(grantee.id), before, 'the refused grant wrote no binding');
      assert.deepEqual(await power(grantee.key), ['read'], 'and gave nothing');
    }
    // A granter that may write org-wide grants the same, and the grantee then writes in its namespace.
    const grantee = await newKey({ role: 'reader', namespace: 'alpha', scopes: ['*', 'ns:alpha'] });
    const ok = await call('POST', '/v1/bindings', admin, { key_id: grantee.id, role: 'writer' });
    assert.equal(ok.status, 201, ok.text);
    await settled(grantee.key, (p) => p.includes('write'), 'the granted writer role takes effect in ns alpha');
  });

  test('a key that expires creates no key and grants no role to a key that outlives it', async () => {
    const short = await newKey({ role: 'org_admin', ttl_s: 3_600 });
    for (const spec of [{ role: 'reader' }, { role: 'reader', ttl_s: 7_200 }]) {
      const r = await call('POST', '/v1/keys', short.key, spec);
      assert.equal(r.status, 403, `${JSON.stringify(spec)}: ${r.text}`);
      assert.match(r.body.error.message, /expires at .* give ttl_s of at most 3[56]\d\d/);
    }
    const within = await call('POST', '/v1/keys', short.key, { role: 'reader', ttl_s: 60 });
    assert.equal(within.status, 201, within.text);

    const forever = await newKey({ role: 'reader' });
    const g = await call('POST', '/v1/bindings', short.key, { key_id: forever.id, role: 'writer' });
    assert.equal(g.status, 403, g.text);
    assert.match(g.body.error.message, new RegExp(`key ${forever.id} never expires`));
    assert.deepEqual(await bindingsOf(forever.id), ['reader@org']);
    const ok = await call('POST', '/v1/bindings', short.key, { key_id: within.body.keyId, role: 'writer' });
    assert.equal(ok.status, 201, ok.text);
  });

  test('a revoked role is gone on this node at once', async () => {
    const w = await newKey({ role: 'writer' });
    await settled(w.key, (p) => p.includes('write'), 'a new writer key writes');
    const r = await call('DELETE', '/v1/bindings', admin, { key_id: w.id, role: 'writer' });
    assert.equal(r.status, 204, r.text);
    await settled(w.key, (p) => !p.includes('write'), 'the next request after the revocation is refused');
  });

  test('revoking a role the key does not hold is 404 naming it, not a 204 that revoked nothing', async () => {
    const r = await newKey({ role: 'reader', namespace: 'alpha' });
    await settled(r.key, (p) => p.includes('read'), 'a new reader key reads');
    // The wrong role, the wrong target: each a revocation an admin believes took the reader's access away.
    for (const wrong of [{ role: 'writer', namespace: 'alpha' }, { role: 'reader' }]) {
      const del = await call('DELETE', '/v1/bindings', admin, { key_id: r.id, ...wrong });
      assert.equal(del.status, 404, `${JSON.stringify(wrong)}: ${del.text}`);
      assert.equal(del.body.error.code, 'not_found');
      assert.match(del.body.error.message, new RegExp(`key ${r.id} holds no role ${wrong.role} on ${wrong.namespace ? 'namespace "alpha"' : 'the org'}`));
      assert.match(del.body.error.message, /its roles: reader on namespace "alpha"/);
    }
    assert.deepEqual(await power(r.key), ['read'], 'the reader still reads');
    const ok = await call('DELETE', '/v1/bindings', admin, { key_id: r.id, role: 'reader', namespace: 'alpha' });
    assert.equal(ok.status, 204, ok.text);
    const again = await call('DELETE', '/v1/bindings', admin, { key_id: r.id, role: 'reader', namespace: 'alpha' });
    assert.equal(again.status, 404, `a second revocation finds nothing to revoke: ${again.text}`);
    assert.match(again.body.error.message, /its roles: none/);
  });

  test('a revoked or expired key is granted no role: 400 naming body.key_id, and no binding written', async () => {
    const revoked = await newKey({ role: 'reader' });
    assert.equal((await call('DELETE', `/v1/keys/${revoked.id}`, admin)).status, 204);
    const expired = await newKey({ role: 'reader', ttl_s: 1 });
    await new Promise((r) => setTimeout(r, 1_100));
    for (const [k, why] of [[revoked, /was revoked/], [expired, /expired at/]] as const) {
      const before = await bindingsOf(k.id);
      const g = await call('POST', '/v1/bindings', admin, { key_id: k.id, role: 'writer' });
      assert.equal(g.status, 400, g.text);
      assert.equal(g.body.error.code, 'invalid_argument');
      assert.match(g.body.error.message, /^body\.key_id: /);
      assert.match(g.body.error.message, why);
      assert.deepEqual(await bindingsOf(k.id), before, 'the refused grant wrote no binding');
    }
    // Its roles can still be revoked (tidying up after a revoked key).
    assert.equal((await call('DELETE', '/v1/bindings', admin, { key_id: revoked.id, role: 'reader' })).status, 204);
  });
});

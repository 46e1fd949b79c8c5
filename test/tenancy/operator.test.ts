// The operator and the limits of an org's own keys, over HTTP, on the metastore backend
// LOAM_TEST_BACKEND: only the operator key creates orgs and sets quotas (an org admin reads
// its quotas and cannot raise them, create an org, or grant a role in another org); quota
// values have bounds, and the operator's routes are not throttled by the quotas they set; a
// key creates keys only within its own scopes and roles, for every scope and role.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BackendFactory } from '../harness/backends.js';
import { TEST_AUTHORIZER } from '../harness/authorizers.js';
import type { LoamNode } from '../../src/node/node.js';
import { call as callNode, keyedTenancyNode } from './helpers.js';
import { parseKey } from '../../src/control/keys.js';
import { OPERATOR_ORG } from '../../src/control/types.js';
import { DEFAULT_REQUEST_RATE } from '../../src/quota/quota.js';
import { isMetaError } from '../../src/meta/errors.js';

let f: BackendFactory;
let node: LoamNode;
/** The admin of org "default" (bootstrap), and the deployment's operator. */
let admin: string;
let operator: string;
/** The admin of org "acme", created by the operator. */
let acme: string;

const call = (method: string, path: string, key: string | null, body?: unknown) => callNode(node, method, path, key, body);

before(async () => {
  ({ node, factory: f } = await keyedTenancyNode());
  admin = node.bootstrapKey!;
  operator = node.operatorKey!;
  assert.ok(admin && operator && admin !== operator, 'the first start makes an org admin key and an operator key');
  assert.equal((await call('POST', '/v1/namespaces', admin, { name: 'alpha' })).status, 201);
  const created = await call('POST', '/v1/orgs', operator, { id: 'acme' });
  assert.equal(created.status, 201, created.text);
  acme = created.body.admin_key;
  assert.equal((await call('GET', '/v1/org', acme)).body.id, 'acme', "the new org's admin key works");
});

test("a tenant's keys do not name the operator's key: its first key's creator reads \"operator\"", async () => {
  const keys = await call('GET', '/v1/keys', acme);
  assert.equal(keys.status, 200, keys.text);
  const operatorId = operator.split('_')[1]!;
  assert.ok(!keys.text.includes(operatorId), `the operator key's id ${operatorId} is not shown to the tenant: ${keys.text}`);
  assert.deepEqual(keys.body.items.map((k: { createdBy: string }) => k.createdBy), ['operator']);
});

after(async () => {
  await node?.close();
  await f?.cleanup();
});

describe(`the operator and the bounds of org keys on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'} with the ${TEST_AUTHORIZER} authorizer`, () => {
  test('quotas are the operator\'s: an org admin reads them but cannot raise them, create an org, or list orgs', async () => {
    const raise = { name: 'request_rate', value: 5_000 };
    const tenantPut = await call('PUT', '/v1/quotas', admin, raise);
    assert.ok(tenantPut.status >= 400 && tenantPut.status < 500, `an org admin's PUT /v1/quotas is refused (${tenantPut.status} ${tenantPut.text})`);
    for (const org of ['default', 'acme']) {
      const r = await call('PUT', `/v1/orgs/${org}/quotas`, admin, raise);
      assert.equal(r.status, 403, r.text);
      assert.match(r.body.error.message, /quota\.set/);
    }
    assert.equal((await call('POST', '/v1/orgs', admin, { id: 'evil' })).status, 403, 'an org admin cannot create an org');
    assert.equal((await call('GET', '/v1/orgs', admin)).status, 403);
    assert.equal((await call('GET', '/v1/orgs/acme/quotas', admin)).status, 403, "nor read another org's quotas");
    assert.equal((await call('GET', '/v1/orgs/acme/usage', admin)).status, 403);
    assert.deepEqual(await node.control!.quotas('default'), [], 'nothing was written');
    await assert.rejects(node.control!.org('evil'), (e) => isMetaError(e, 'NotFound'));
    const mine = await call('GET', '/v1/quotas', admin);
    assert.equal(mine.status, 200);
    assert.equal(mine.body.effective.request_rate, DEFAULT_REQUEST_RATE);

    // The operator sets it; the org sees it.
    const set = await call('PUT', '/v1/orgs/default/quotas', operator, raise);
    assert.equal(set.status, 200, set.text);
    assert.equal((await call('GET', '/v1/quotas', admin)).body.effective.request_rate, 5_000);
    assert.equal((await call('GET', '/v1/orgs/default/quotas', operator)).body.effective.request_rate, 5_000);
    assert.equal((await call('PUT', '/v1/orgs/default/quotas', operator, { name: 'request_rate', value: null })).status, 200);
    const orgs = await call('GET', '/v1/orgs', operator);
    assert.deepEqual(orgs.body.items.map((o: { id: string }) => o.id), ['acme', 'default'], 'the tenant orgs');
    // Paged: the operator's own org (left out) does not leave a page short, or empty with a cursor.
    const pages: string[][] = [];
    for (let cursor: string | null = null, i = 0; i === 0 || (cursor && i < 10); i++) {
      const r = await call('GET', `/v1/orgs?page_size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, operator);
      assert.equal(r.status, 200, r.text);
      pages.push(r.body.items.map((o: { id: string }) => o.id));
      cursor = r.body.next_cursor;
    }
    assert.deepEqual(pages.filter((p) => p.length > 0), [['acme'], ['default']], 'each tenant org once');
    assert.ok(pages.slice(0, 2).every((p) => p.length === 1), `full pages of one while orgs remain: ${JSON.stringify(pages)}`);
    assert.equal((await call('PUT', '/v1/orgs/nobody/quotas', operator, raise)).status, 404);
    assert.ok([400, 404].includes((await call('PUT', `/v1/orgs/${OPERATOR_ORG}/quotas`, operator, raise)).status), 'the operator org has no quotas');
    const taken = await call('POST', '/v1/orgs', operator, { id: 'acme' });
    assert.equal(taken.status, 409);
    assert.equal(taken.body.error.message, 'org "acme" already exists', 'no internal id in the answer');
    // The operator reads no org's data.
    for (const [m, p, body] of [['GET', '/v1/namespaces'], ['GET', '/v1/namespaces/alpha'], ['POST', '/v1/namespaces', { name: 'x' }]] as const) {
      const r = await call(m, p, operator, body);
      assert.ok(r.status === 403 || r.status === 404, `${m} ${p} with the operator key → ${r.status}`);
    }
  });

  test('an org admin cannot grant a role in another org, nor the operator role anywhere', async () => {
    const defaultAdminId = parseKey(admin)!.keyId;
    const before = await node.control!.bindings('default', `key:${defaultAdminId}`);
    const other = await call('POST', '/v1/bindings', acme, { key_id: defaultAdminId, role: 'reader' });
    assert.equal(other.status, 404, `a key of another org cannot be bound: ${other.text}`);
    const revoke = await call('DELETE', '/v1/bindings', acme, { key_id: defaultAdminId, role: 'org_admin' });
    assert.equal(revoke.status, 404);
    assert.deepEqual(await node.control!.bindings('default', `key:${defaultAdminId}`), before, "the other org's bindings are untouched");
    const acmeId = parseKey(acme)!.keyId;
    assert.equal((await call('POST', '/v1/bindings', acme, { key_id: acmeId, role: 'operator' })).status, 400, 'the operator role is not grantable');
    const minted = await call('POST', '/v1/keys', acme, { role: 'operator' });
    assert.equal(minted.status, 403, minted.text);
    await assert.rejects(node.control!.grant({ org: 'acme', subject: `key:${acmeId}`, role: 'operator', target: { kind: 'org' } }), (e) => isMetaError(e, 'InvalidArgument'), 'refused by the ControlStore too');
    assert.equal((await call('PUT', '/v1/orgs/acme/quotas', acme, { name: 'request_rate', value: 5_000 })).status, 403, 'not even its own');
    assert.deepEqual(await node.control!.quotas('acme'), []);
  });

  test("quota values have bounds, and the operator's routes are not throttled by the quota they set", async () => {
    const bad: [string, number][] = [
      ['request_rate', 0],
      ['request_rate', -1],
      ['request_rate', 1e10],
      ['metadata_ops_rate', 0],
      ['concurrent_query_slots', 0],
      ['concurrent_query_slots', 1.5],
      ['namespace_query_slots', 0],
      ['ingest_bytes_per_s', 10],
      ['unapplied_records', 0],
      ['unapplied_bytes', 10],
      ['storage_bytes', -1],
      ['storage_bytes', 2 ** 51],
    ];
    for (const [name, value] of bad) {
      const r = await call('PUT', '/v1/orgs/default/quotas', operator, { name, value, namespace: 'alpha' });
      assert.equal(r.status, 400, `${name} = ${value}: ${r.text}`);
      assert.equal(r.body.error.code, 'invalid_argument');
      assert.match(r.body.error.message, new RegExp(`${name} must be an? (integer|number) in \\d+\\.\\.\\d+`), r.text);
    }
    assert.deepEqual(await node.control!.quotas('default'), [], 'nothing out of bounds was stored');
    const shown = await call('GET', '/v1/quotas', admin);
    assert.deepEqual(shown.body.bounds.request_rate, { min: 1, max: 1_000_000_000, integer: false }, 'the bounds are listed');

    // At the lowest request rate the org is throttled, the operator is not.
    assert.equal((await call('PUT', '/v1/orgs/default/quotas', operator, { name: 'request_rate', value: 1 })).status, 200);
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await call('GET', '/v1/quotas', admin)).status);
      assert.ok(statuses.includes(429), `the org is held to 1 request/s: ${statuses}`);
      for (let i = 0; i < 30; i++) {
        const r = i % 2 ? await call('GET', '/v1/orgs/default/quotas', operator) : await call('PUT', '/v1/orgs/default/quotas', operator, { name: 'request_rate', value: 1 });
        assert.equal(r.status, 200, `operator request ${i}: ${r.text}`);
      }
    } finally {
      assert.equal((await call('PUT', '/v1/orgs/default/quotas', operator, { name: 'request_rate', value: null })).status, 200);
    }
    const t0 = Date.now();
    let r = await call('GET', '/v1/quotas', admin);
    while (r.status === 429 && Date.now() - t0 < 5_000) {
      await new Promise((res) => setTimeout(res, 100));
      r = await call('GET', '/v1/quotas', admin);
    }
    assert.equal(r.status, 200, 'the org is served again once the operator clears it');
  });

  test('a key creates keys only within its own scopes and roles, for every scope and role', async () => {
    // Out of the way of the matrix's hundreds of requests (and a check the operator can).
    for (const name of ['request_rate', 'metadata_ops_rate']) assert.equal((await call('PUT', '/v1/orgs/default/quotas', operator, { name, value: 1_000_000 })).status, 200);
    const CLASSES: Record<string, string[]> = { '*': ['read', 'write', 'ns_admin', 'org_admin'], read: ['read'], write: ['write'], admin: ['ns_admin', 'org_admin'] };
    const ROLE_CLASSES: Record<string, string[]> = { org_admin: ['read', 'write', 'ns_admin', 'org_admin'], namespace_admin: ['read', 'write', 'ns_admin'], writer: ['read', 'write'], reader: ['read'] };
    const SCOPES = [['*'], ['read'], ['write'], ['admin'], ['read', 'write'], ['admin', 'ns:alpha'], ['read', 'ns:alpha']];
    const ROLES = [{ role: 'org_admin' }, { role: 'namespace_admin', namespace: 'alpha' }, { role: 'writer' }, { role: 'reader', namespace: 'alpha' }];
    type Spec = { role: string; namespace?: string; scopes: string[] };
    const classes = (s: string[]) => new Set(s.flatMap((x) => CLASSES[x] ?? []));
    const nsOf = (s: string[]) => s.filter((x) => x.startsWith('ns:'));
    const within = (inner: Spec, outer: Spec) => {
      const oc = classes(outer.scopes);
      if (![...classes(inner.scopes)].every((c) => oc.has(c))) return false;
      const on = nsOf(outer.scopes);
      if (on.length > 0 && !(nsOf(inner.scopes).length > 0 && nsOf(inner.scopes).every((n) => on.includes(n)))) return false;
      const rolesOk = ROLE_CLASSES[inner.role]!.every((c) => ROLE_CLASSES[outer.role]!.includes(c));
      return rolesOk && (outer.namespace === undefined || inner.namespace === outer.namespace);
    };
    // Managing keys needs org.manage: the org_admin role and an admin class, org-wide.
    const manages = (s: Spec) => s.role === 'org_admin' && classes(s.scopes).has('org_admin') && nsOf(s.scopes).length === 0;
    const specs: Spec[] = ROLES.flatMap((r) => SCOPES.map((scopes) => ({ ...r, scopes })));
    const creators: { spec: Spec; key: string }[] = [];
    for (const spec of specs) {
      const r = await call('POST', '/v1/keys', admin, spec);
      assert.equal(r.status, 201, `the admin creates ${JSON.stringify(spec)}: ${r.text}`);
      creators.push({ spec, key: r.body.key });
    }
    // What a key can do, by class: allowed routes answer 404 or 200 (no such collection), refused ones 403.
    const probes: Record<string, (k: string) => Promise<number>> = {
      read: async (k) => (await call('GET', '/v1/namespaces/alpha/collections/nope/documents/x', k)).status,
      write: async (k) => (await call('POST', '/v1/namespaces/alpha/collections/nope/documents', k, { upserts: [{ id: 'x' }] })).status,
      ns_admin: async (k) => (await call('DELETE', '/v1/namespaces/alpha/collections/nope', k)).status,
      org_admin: async (k) => (await call('GET', '/v1/keys', k)).status,
    };
    const power = async (k: string) => {
      const out: string[] = [];
      for (const [cls, probe] of Object.entries(probes)) {
        const s = await probe(k);
        assert.ok([200, 403, 404].includes(s), `probe ${cls}: ${s}`);
        if (s !== 403) out.push(cls);
      }
      return out;
    };
    let allowed = 0;
    let refused = 0;
    for (const c of creators) {
      let creatorPower: string[] | null = null;
      for (const spec of [...specs, { role: 'operator', scopes: ['*'] }]) {
        const r = await call('POST', '/v1/keys', c.key, spec);
        const expect = spec.role !== 'operator' && manages(c.spec) && within(spec, c.spec);
        assert.equal(r.status, expect ? 201 : 403, `${JSON.stringify(c.spec)} creating ${JSON.stringify(spec)}: ${r.text}`);
        if (!expect) {
          refused++;
          continue;
        }
        allowed++;
        creatorPower ??= await power(c.key);
        const minted = await power(r.body.key);
        assert.ok(minted.every((cls) => creatorPower!.includes(cls)), `${JSON.stringify(spec)} minted by ${JSON.stringify(c.spec)} can ${minted}, its creator only ${creatorPower}`);
      }
    }
    assert.ok(allowed >= 30 && refused > allowed, `both outcomes were exercised (${allowed} allowed, ${refused} refused)`);
    // The case found in review: a key narrowed to admin cannot mint a '*' key that reads documents.
    const adminOnly = creators.find((c) => c.spec.role === 'org_admin' && c.spec.scopes.join() === 'admin')!;
    const escalation = await call('POST', '/v1/keys', adminOnly.key, { role: 'org_admin', scopes: ['*'] });
    assert.equal(escalation.status, 403);
    assert.match(escalation.body.error.message, /within its own scopes/);
    assert.deepEqual(await power(adminOnly.key), ['ns_admin', 'org_admin']);
    // The operator mints operator keys within its own too, and nothing for a tenant role.
    assert.equal((await call('POST', '/v1/keys', operator, { role: 'operator', scopes: ['admin'] })).status, 201);
    assert.equal((await call('POST', '/v1/keys', operator, { role: 'writer' })).status, 403);
    for (const name of ['request_rate', 'metadata_ops_rate']) assert.equal((await call('PUT', '/v1/orgs/default/quotas', operator, { name, value: null })).status, 200);
  });
});

test('an org whose creation stopped before its admin key is completed by creating it again; one with a live key is 409', async () => {
  // The state a create leaves when it stops between its two writes (the org, then its key).
  await node.control!.createOrg('halfway');
  const again = await call('POST', '/v1/orgs', operator, { id: 'halfway' });
  assert.equal(again.status, 201, again.text);
  assert.equal((await call('GET', '/v1/org', again.body.admin_key)).body.id, 'halfway', 'the key it answers with works');
  const twice = await call('POST', '/v1/orgs', operator, { id: 'halfway' });
  assert.equal(twice.status, 409, twice.text);
});

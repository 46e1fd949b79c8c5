// The authorizer's lifecycle hooks (spec §7) are called for every org, namespace, collection
// and key the API creates or deletes, so an authorizer that keeps its own relations (OpenFGA)
// stays in step. A recording wrapper around the configured authorizer (LOAM_TEST_AUTHORIZER:
// builtin or openfga), through a real node.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Authorizer, LifecycleEvent } from '../../src/authz/authorizer.js';
import { OPERATOR_ORG } from '../../src/control/types.js';
import { parseKey } from '../../src/control/keys.js';
import { resolveConfig } from '../../src/node/config.js';
import { configuredAuthorizer, startNode, type LoamNode } from '../../src/node/node.js';
import { authorizerSettings, TEST_AUTHORIZER } from '../harness/authorizers.js';

const events: string[] = [];
/** While set, every lifecycle hook fails after it is recorded (an authorizer or ControlStore that is down). */
let hooksFail = false;
const failIfAsked = () => {
  if (hooksFail) throw new Error('the authorizer is down (injected)');
};
const show = (e: LifecycleEvent) => {
  switch (e.kind) {
    case 'org':
      return `org ${e.org}`;
    case 'namespace':
      return `namespace ${e.org}/${e.name}`;
    case 'collection':
      return `collection ${e.org}/${e.ns}/${e.collection}`;
    case 'key':
      return `key ${e.org}/${e.keyId}${e.role ? ` ${e.role}` : ''}`;
  }
};

function recording(inner: Authorizer): Authorizer {
  return {
    check: (p, a, r) => inner.check(p, a, r),
    batchCheck: (p, cs) => inner.batchCheck(p, cs),
    filterVisible: (p, a, rs) => inner.filterVisible(p, a, rs),
    invalidate: (o, s) => inner.invalidate(o, s),
    start: async () => inner.start?.(),
    close: async () => inner.close?.(),
    bootstrap: (o, s) => inner.bootstrap(o, s),
    onCreated: async (e) => {
      events.push(`created ${show(e)}`);
      failIfAsked();
      await inner.onCreated(e);
    },
    onDeleted: async (e) => {
      events.push(`deleted ${show(e)}`);
      failIfAsked();
      await inner.onDeleted(e);
    },
  };
}

let node: LoamNode;
let admin: string;
const call = async (method: string, path: string, body?: unknown) => {
  const r = await fetch(node.url + path, {
    method,
    headers: { authorization: `Bearer ${admin}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};

before(async () => {
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', ...(await authorizerSettings()) });
  node = await startNode(config, { authorizer: async (cs, ctx) => recording(await configuredAuthorizer(cs, ctx)) });
  admin = node.bootstrapKey!;
});
after(async () => node?.close());

test(`every create and delete through the API reaches the ${TEST_AUTHORIZER} authorizer`, async () => {
  const adminId = parseKey(admin)!.keyId;
  const operatorId = parseKey(node.operatorKey!)!.keyId;
  assert.deepEqual(
    events,
    [`created org ${OPERATOR_ORG}`, `created key ${OPERATOR_ORG}/${operatorId} operator`, 'created org default', `created key default/${adminId} org_admin`],
    "bootstrap: the operator's org and key, then the org and its admin key",
  );
  events.length = 0;
  const ns = await call('POST', '/v1/namespaces', { name: 'life' });
  assert.equal(ns.status, 201);
  const c = await call('POST', '/v1/namespaces/life/collections', { name: 'docs', primary_key: 'id' });
  assert.equal(c.status, 201);
  const k = await call('POST', '/v1/keys', { role: 'reader', namespace: 'life' });
  assert.equal(k.status, 201);
  const keyId = parseKey(k.body.key)!.keyId;
  assert.equal((await call('DELETE', `/v1/keys/${keyId}`)).status, 204);
  assert.equal((await call('DELETE', '/v1/namespaces/life/collections/docs')).status, 204);
  assert.equal((await call('DELETE', '/v1/namespaces/life')).status, 204);
  assert.deepEqual(events, [
    'created namespace default/life',
    `created collection default/${ns.body.id}/${c.body.id}`,
    `created key default/${keyId} reader`,
    `deleted key default/${keyId}`,
    `deleted collection default/${ns.body.id}/${c.body.id}`,
    'deleted namespace default/life',
  ]);
});

test('a create or delete the metastore committed is answered as done when a lifecycle hook fails; a key whose role was not granted is refused and does not authenticate', async () => {
  hooksFail = true;
  try {
    const ns = await call('POST', '/v1/namespaces', { name: 'hookless' });
    assert.equal(ns.status, 201, JSON.stringify(ns.body));
    assert.equal((await call('POST', '/v1/namespaces/hookless/collections', { name: 'docs', primary_key: 'id' })).status, 201);
    assert.equal((await call('DELETE', '/v1/namespaces/hookless/collections/docs')).status, 204);
    assert.equal((await call('GET', '/v1/namespaces/hookless/collections/docs')).status, 404);
    assert.equal((await call('DELETE', '/v1/namespaces/hookless')).status, 204, 'the namespace was dropped: a retry would only find it gone');
    assert.equal((await call('GET', '/v1/namespaces/hookless')).status, 404);

    const before = (await call('GET', '/v1/keys?page_size=1000')).body.items.filter((k: { revoked?: unknown }) => !k.revoked).length;
    const k = await call('POST', '/v1/keys', { role: 'reader' });
    assert.ok(k.status >= 500, `a key whose role could not be granted is not answered as created: ${JSON.stringify(k.body)}`);
    const after = (await call('GET', '/v1/keys?page_size=1000')).body.items.filter((x: { revoked?: unknown }) => !x.revoked).length;
    assert.equal(after, before, 'no live key was left behind');
  } finally {
    hooksFail = false;
  }
});

// The built-in authorizer's decisions, on a fake ControlStore: roles × targets × scopes, and
// the tenant fence holding even against a binding that names another org.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinAuthorizer, type Principal, type Resource } from '../../src/authz/authorizer.js';
import type { ControlStore, RoleBinding } from '../../src/control/types.js';
import { Semaphore, TokenBucket } from '../../src/quota/quota.js';

function authz(bindings: RoleBinding[]) {
  // Returns every binding of the subject, whatever org is asked: the fence must hold anyway.
  const cs = { bindings: async (_org: string, subject: string) => bindings.filter((b) => b.subject === subject) } as unknown as ControlStore;
  return new BuiltinAuthorizer(cs);
}
const p = (scopes: string[] = ['*']): Principal => ({ org: 'a', subject: 'key:1', scopes });
const ns = (org: string, id: number, name = `n${id}`): Resource => ({ kind: 'namespace', org, ns: id, name });

test('roles on the org and on a namespace; scopes narrow them', async () => {
  const z = authz([
    { org: 'a', subject: 'key:1', role: 'writer', target: { kind: 'namespace', ns: 1 }, created: 0 },
    { org: 'a', subject: 'key:1', role: 'reader', target: { kind: 'org' }, created: 0 },
  ]);
  assert.equal(await z.check(p(), 'documents.write', ns('a', 1)), true);
  assert.equal(await z.check(p(), 'documents.write', ns('a', 2)), false);
  assert.equal(await z.check(p(), 'documents.read', ns('a', 2)), true);
  assert.equal(await z.check(p(), 'collection.create', ns('a', 1)), false);
  assert.equal(await z.check(p(['read']), 'documents.write', ns('a', 1)), false);
  assert.equal(await z.check(p(['read', 'ns:n2']), 'documents.read', ns('a', 1)), false);
  assert.equal(await z.check(p(['read', 'ns:n2']), 'documents.read', ns('a', 2)), true);
  assert.deepEqual(await z.filterVisible(p(['*', 'ns:n1']), 'namespace.read', [ns('a', 1), ns('a', 2)]), [ns('a', 1)]);
});

test('the tenant fence: nothing in another org, whatever the bindings say', async () => {
  const z = authz([{ org: 'b', subject: 'key:1', role: 'org_admin', target: { kind: 'org' }, created: 0 }]);
  for (const action of ['namespace.read', 'documents.read', 'documents.write', 'namespace.delete'] as const) {
    assert.equal(await z.check(p(), action, ns('b', 1)), false);
  }
  assert.equal(await z.check(p(), 'namespace.create', { kind: 'org', org: 'b' }), false);
  assert.equal(await z.check(p(), 'namespace.create', { kind: 'org', org: 'a' }), false, 'a binding of org b grants nothing in org a either');
});

test('token bucket and semaphore', async () => {
  const b = new TokenBucket(2, 0);
  assert.equal(b.take(1, 0), 0);
  assert.equal(b.take(1, 0), 0);
  assert.equal(b.take(1, 0), 500);
  assert.equal(b.take(1, 500), 0);
  const s = new Semaphore(1);
  const r1 = await s.acquire(1, 50);
  assert.ok(r1);
  assert.equal(await s.acquire(1, 50), null);
  const waiting = s.acquire(1, 1_000);
  r1();
  assert.ok(await waiting);
});

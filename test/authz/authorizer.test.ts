// The built-in authorizer's decisions, on a fake ControlStore: roles × targets × scopes, and
// the tenant fence holding even against a binding that names another org.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BuiltinAuthorizer, type Principal, type Resource } from '../../src/authz/authorizer.js';
import type { ControlStore, RoleBinding } from '../../src/control/types.js';
import { DEFAULT_REQUEST_RATE, MAX_LIMITERS, QuotaExceeded, Quotas, Semaphore, TokenBucket } from '../../src/quota/quota.js';

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
  // A request larger than the bucket takes a full one and leaves the rest as debt.
  const big = new TokenBucket(1_000, 0);
  assert.equal(big.take(10_000, 0), 0, 'a full bucket lets one oversized request through');
  assert.equal(big.take(1, 1_000), 8_001, 'then nothing until the 9,000 tokens of debt are paid back');
  assert.equal(big.take(1_000, 10_000), 0);
  const s = new Semaphore(1);
  const r1 = await s.acquire(1, 50);
  assert.ok(r1);
  assert.equal(await s.acquire(1, 50), null);
  const waiting = s.acquire(1, 1_000);
  r1();
  assert.ok(await waiting);
});

test('query slots: at once when free, queued in order otherwise, released once', async () => {
  const s = new Semaphore(2);
  const r1 = s.tryAcquire(1);
  assert.ok(r1, 'a free slot is granted without waiting');
  const waiting = s.acquire(2, 1_000); // needs both slots: queues behind r1
  assert.equal(s.tryAcquire(1), null, 'nobody jumps the queue, though a slot is free');
  r1!();
  r1!(); // a second release of the same grant frees nothing more
  const r2 = await waiting;
  assert.ok(r2);
  assert.equal(s.tryAcquire(1), null, 'both slots are held by the waiter');
  r2!();
  assert.ok(s.idle);
});

test('limiter handles: a quota change bumps the generation and the next handle has the new rate', async () => {
  let rows: { org: string; ns: number | null; name: string; value: number }[] = [];
  const cs = { quotas: async () => rows } as unknown as ControlStore;
  let now = 0;
  const q = new Quotas(cs, 2, () => now);
  const l = await q.rateLimiter('a', 1, 'request_rate', 'a/1/rest', 'requests');
  assert.equal(l.rate, DEFAULT_REQUEST_RATE / 2, 'per-gateway fallback: quota ÷ gateways');
  const g = q.generation;
  rows = [{ org: 'a', ns: 1, name: 'request_rate', value: 2 }];
  q.invalidate('a');
  assert.notEqual(q.generation, g);
  const l2 = await q.rateLimiter('a', 1, 'request_rate', 'a/1/rest', 'requests');
  assert.equal(l2.rate, 1);
  assert.equal(l2.bucket, l.bucket, 'the same bucket, at the new rate');
  q.take(l2, 1);
  assert.throws(() => q.take(l2, 1), (e: unknown) => e instanceof QuotaExceeded && e.quota === 'request_rate' && e.retryAfterMs > 0);
  now += 1_000;
  q.take(l2, 1);
  // Query slots: a collection's are shared among the gateways, never below one; a namespace's are per gateway.
  assert.equal((await q.slotLimiter('a', 1, 'concurrent_query_slots', '1/c')).slots, 8);
  assert.equal((await q.slotLimiter('a', 1, 'namespace_query_slots', '1')).slots, 64);
  q.setGateways(40);
  assert.equal((await q.slotLimiter('a', 1, 'concurrent_query_slots', '1/c')).slots, 1);
});

test(`limiters past MAX_LIMITERS (${MAX_LIMITERS}): full buckets make room, a spent one stays spent`, async () => {
  // Reaching the bound cleared every bucket: each namespace then started over with a full
  // bucket, so at scale (more keys than the bound) a spent quota refilled at once.
  const cs = { quotas: async () => [] } as unknown as ControlStore;
  let now = 0;
  const q = new Quotas(cs, 1, () => now);
  const spent = await q.rateLimiter('a', 1, 'request_rate', 'a/1/rest', 'requests');
  q.take(spent, spent.rate);
  assert.throws(() => q.take(spent, 1), QuotaExceeded);
  for (let i = 0; i < MAX_LIMITERS; i++) await q.rateLimiter('a', 2 + i, 'request_rate', `a/${2 + i}/rest`, 'requests');
  const again = await q.rateLimiter('a', 1, 'request_rate', 'a/1/rest', 'requests');
  assert.throws(() => q.take(again, 1), QuotaExceeded, 'the spent bucket was kept, still spent');
  assert.ok(q.limiters() <= MAX_LIMITERS, `${q.limiters()} limiters kept`);
});

test('decisions kept over all keys stay within MAX_DECISIONS, however many keys each keep their own most', async () => {
  const { keepDecision, MAX_DECISIONS, MAX_DECISIONS_PER_KEY } = await import('../../src/authz/decisions.js');
  type D = Parameters<typeof keepDecision>[2];
  const d = { at: 0, generation: 0 } as D;
  // Keys that each use as many routes and namespaces as one key may keep.
  const keys = Math.ceil((2 * MAX_DECISIONS) / (MAX_DECISIONS_PER_KEY - 1));
  const caches = Array.from({ length: keys }, () => new Map<string, D>());
  for (const c of caches) for (let i = 0; i < MAX_DECISIONS_PER_KEY - 1; i++) keepDecision(c, `r${i}`, d);
  const total = caches.reduce((n, c) => n + c.size, 0);
  assert.ok(total <= MAX_DECISIONS, `${total} decisions kept over ${keys} keys; the bound is ${MAX_DECISIONS}`);
  assert.ok(caches.at(-1)!.size > 0, 'the newest are kept');
});

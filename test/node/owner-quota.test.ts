// Quotas at the owner over HTTP (spec §6): two nodes with API keys on one metastore; a
// namespace's request-rate bucket is at its owner, and the other node's requests lease tokens
// from it through the owner's grant route (authenticated as a node, refused to anyone else).
// With the owner stopped, the other node admits on its fallback share instead of failing.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../src/store/index.js';
import { placementKey } from '../../src/router/placement.js';
import { GRANT_PATH, OWNER_DOWN_MS } from '../../src/quota/owner.js';
import { testNode, until, type TestNode } from './helpers.js';

/** Namespaces made while looking for one the other node owns, at most (each is with odds 1 in 2). */
const MAX_TRIES = 30;

test("a namespace's request-rate bucket is at its owner: the other node leases from it; with the owner stopped it falls back", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-owner-quota-'));
  const store = new MemoryStore();
  const nodes: TestNode[] = [];
  try {
    const config = { auth: 'api_keys' as const, membership_heartbeat_ms: 200, roles: ['log', 'query'] as ('log' | 'query')[] };
    const a = await testNode({ dir, store, config });
    nodes.push(a);
    const b = await testNode({ dir, store, config });
    nodes.push(b);
    await until(() => a.membership.view().nodes.length === 2 && b.membership.view().nodes.length === 2, 20_000);
    const admin = a.bootstrapKey!;
    const operator = a.operatorKey!;
    const call = async (n: TestNode, method: string, path: string, key: string | null, body?: unknown, headers: Record<string, string> = {}) => {
      const r = await fetch(n.url + path, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(15_000),
      });
      return { status: r.status, body: (await r.json().catch(() => null)) as any };
    };
    // A namespace b owns (in a's view: the one a routes its bucket by).
    let name = '';
    for (let i = 0; i < MAX_TRIES && !name; i++) {
      const r = await call(a, 'POST', '/v1/namespaces', admin, { name: `q${i}` });
      assert.equal(r.status, 201, JSON.stringify(r.body));
      if (a.membership.view().placement('gateway').owner(placementKey.namespace(r.body.id)) === b.id) name = `q${i}`;
    }
    assert.ok(name, 'b owns one of them');
    assert.equal((await call(a, 'PUT', '/v1/orgs/default/quotas', operator, { name: 'request_rate', value: 1000, namespace: name })).status, 200);

    // a's requests are admitted on tokens leased from b, over HTTP, batched.
    for (let i = 0; i < 20; i++) assert.equal((await call(a, 'GET', `/v1/namespaces/${name}`, admin)).status, 200);
    const leases = a.quotaLeases!;
    assert.ok(leases.counts.batches > 0, 'a asked b');
    // (An ask past its 250 ms deadline on a starved machine falls back: counted, not failed.)
    assert.ok(leases.counts.answered > 0, 'and b answered');
    assert.ok(leases.counts.asks < 20, `fewer asks (${leases.counts.asks}) than requests: tokens are leased`);

    // The grant route is for members only.
    const grant = { items: [{ org: 'default', ns: 1, name: 'request_rate', key: 'default/1/rest', want: 5, rate: 10 }] };
    assert.equal((await call(b, 'POST', GRANT_PATH, admin, grant)).status, 401, 'an API key is not a node');
    assert.equal((await call(b, 'POST', GRANT_PATH, null, grant, { 'x-loam-peer': a.id, 'x-loam-peer-secret': 'guess' })).status, 401, 'a wrong secret');

    // b stops (its API gone; still listed until its membership lapses): a falls back and still admits.
    b.membership.stop();
    await b.app.close();
    await new Promise((r) => setTimeout(r, 600)); // a's lease expires
    const t0 = Date.now();
    for (let i = 0; i < 5; i++) assert.equal((await call(a, 'GET', `/v1/namespaces/${name}`, admin)).status, 200, 'admitted on the fallback share');
    assert.ok(leases.counts.fallbacks > 0, 'charged to the fallback bucket');
    assert.ok(Date.now() - t0 < OWNER_DOWN_MS + 5_000, 'no request waited on the dead owner past its deadline');
  } finally {
    for (const n of nodes.reverse()) await n.cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});

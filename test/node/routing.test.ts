// Request routing (spec §5.3, §3.5's gate): on four nodes sharing one metastore and one
// bucket, reads and queries are served by the collection's owner, and a node without the log
// role sends writes to the log node of its zone. A node with an old membership view (one that
// missed a join) and nodes whose views still list a node that died route suboptimally, never
// wrongly: every read with a token sees the write it names.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { MemoryStore } from '../../src/store/index.js';
import { placementKey } from '../../src/router/placement.js';
import { SERVED_BY_HEADER } from '../../src/router/requests.js';
import type { NodeConfig } from '../../src/node/config.js';
import { http, testNode, until, type TestNode } from './helpers.js';

/** Namespaces made while looking for one a given node owns, at most (each is its with odds 1 in 4 or 5). */
const MAX_TRIES = 60;

test('reads go to the owner, writes to a log node in the zone; an old view and a dead node route suboptimally, never wrongly', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-routing-'));
  const store = new MemoryStore();
  const nodes: TestNode[] = [];
  const start = async (config: Partial<NodeConfig>) => {
    // No worker role: maintenance is not what this checks, and five nodes' workers cost CPU.
    const n = await testNode({ dir, store, config: { membership_heartbeat_ms: 200, roles: ['log', 'query'], ...config } });
    nodes.push(n);
    return n;
  };
  try {
    const a = await start({ zone: 'z1' });
    const b = await start({ zone: 'z2' });
    const c = await start({ zone: 'z1' });
    const d = await start({ zone: 'z2', roles: ['query'] });
    await until(() => nodes.every((n) => n.membership.view().nodes.length === 4), 20_000);

    // Small namespaces (the default size class) place by namespace: one collection each.
    let made = 0;
    const makeCollection = async () => {
      const name = `r${made++}`;
      assert.equal((await http(a.url, 'POST', '/v1/namespaces', { name })).status, 201);
      const r = await http(a.url, 'POST', `/v1/namespaces/${name}/collections`, { name: 'kv', primary_key: 'k', partitions: 1 });
      assert.equal(r.status, 201);
      return { name, ns: (await a.meta.namespaceByName('default', name)).id, id: r.body.id as number };
    };
    type Col = Awaited<ReturnType<typeof makeCollection>>;
    const ownerIn = (n: TestNode, col: Col) => n.membership.view().placement('query').owner(placementKey.collection(col.ns, col.id));
    /** A new collection that `target` owns in `view`'s view (each new one: 1 in 4 or 5; bounded). */
    const ownedBy = async (view: TestNode, target: string) => {
      for (let i = 0; i < MAX_TRIES; i++) {
        const col = await makeCollection();
        if (ownerIn(view, col) === target) return col;
      }
      throw new Error(`no collection owned by ${target} in ${MAX_TRIES} tries`);
    };
    const path = (col: Col) => `/v1/namespaces/${col.name}/collections/kv`;

    // Writes through d (no log role, zone z2) are served by b, z2's log node; reads by the owner.
    for (const col of [await makeCollection(), await ownedBy(a, d.id), await ownedBy(a, c.id)]) {
      const w = await http(d.url, 'POST', `${path(col)}/documents`, { upserts: [{ k: 'x', v: col.name }] });
      assert.equal(w.status, 200);
      assert.equal(w.headers.get(SERVED_BY_HEADER), b.id, "the write went to the log node in d's zone");
      for (const via of nodes) {
        const r = await http(via.url, 'GET', `${path(col)}/documents/x?token=${encodeURIComponent(w.body.token)}`);
        assert.equal(r.status, 200);
        assert.equal(r.body.v, col.name);
        assert.equal(r.headers.get(SERVED_BY_HEADER), ownerIn(a, col), `read of ${col.name} via ${via.id} served by its owner`);
      }
      const q = await http(c.url, 'POST', `${path(col)}/query`, { filter: { k: 'x' }, token: w.body.token });
      assert.equal(q.body.documents.length, 1);
      assert.equal(q.headers.get(SERVED_BY_HEADER), ownerIn(a, col), 'queries too');
    }

    // a stops following the membership; e joins. a's view lacks e: what e owns, a sends to its old owner.
    a.membership.stop();
    const e = await start({ zone: 'z1' });
    await until(() => b.membership.view().node(e.id) !== undefined && c.membership.view().node(e.id) !== undefined, 20_000);
    assert.equal(a.membership.view().node(e.id), undefined, "a's view is old");
    {
      const col = await ownedBy(b, e.id);
      const w = await http(b.url, 'POST', `${path(col)}/documents`, { upserts: [{ k: 'x', v: `new-${col.name}` }] });
      const viaA = await http(a.url, 'GET', `${path(col)}/documents/x?token=${encodeURIComponent(w.body.token)}`);
      assert.equal(viaA.body.v, `new-${col.name}`, 'token-fresh through the old view');
      assert.equal(viaA.headers.get(SERVED_BY_HEADER), ownerIn(a, col), 'served by the owner a knows');
      assert.notEqual(ownerIn(a, col), e.id);
      const viaC = await http(c.url, 'GET', `${path(col)}/documents/x?token=${encodeURIComponent(w.body.token)}`);
      assert.equal(viaC.headers.get(SERVED_BY_HEADER), e.id, 'a fresh view sends it to e');
      assert.equal(viaC.body.v, `new-${col.name}`);
    }

    // c dies without leaving: every view still lists it until its TTL lapses. Its reads are
    // served where they arrive (or by the next node in rank), and fresh.
    {
      const col = await ownedBy(a, c.id);
      c.membership.stop();
      await c.app.close();
      const w = await http(b.url, 'POST', `${path(col)}/documents`, { upserts: [{ k: 'x', v: `after-${col.name}` }] });
      // a's view is frozen with c in it; the others list c until its TTL lapses (10 s), which a
      // starved machine may reach before this loop ends: either way the answers must be fresh.
      assert.ok(a.membership.view().node(c.id), "a's view still lists c");
      for (const via of [a, b, d, e]) {
        const r = await http(via.url, 'GET', `${path(col)}/documents/x?token=${encodeURIComponent(w.body.token)}`);
        assert.equal(r.status, 200);
        assert.equal(r.body.v, `after-${col.name}`, `token-fresh via ${via.id} with c gone`);
        assert.notEqual(r.headers.get(SERVED_BY_HEADER), c.id);
      }
    }
  } finally {
    for (const n of nodes.reverse()) await n.cleanup().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
});

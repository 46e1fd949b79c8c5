// Membership (spec §5.3): nodes publish roles, zone, weight and URL through the ControlStore's
// heartbeat; every node's view lists the live ones, raises its version on a change and tells
// subscribers, so each can recompute what it owns. Two nodes on one embedded metastore file.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { controlStoreFor } from '../../src/control/index.js';
import { checkDescriptor, decodeMember, Membership, MembershipError, type MembershipView } from '../../src/router/membership.js';
import { placementKey } from '../../src/router/placement.js';

const dir = mkdtempSync(join(tmpdir(), 'loam-membership-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('membership', () => {
  test('two nodes see each other with roles and zones; a join and a leave change the view and reach subscribers', async () => {
    const metaA = openEmbedded({ path: join(dir, 'm.db') });
    const metaB = openEmbedded({ path: join(dir, 'm.db') });
    const csA = await controlStoreFor(metaA);
    const csB = await controlStoreFor(metaB);
    const a = new Membership({ control: csA, self: { id: 'node-a', roles: ['gateway', 'query'], zone: 'z1', url: 'http://127.0.0.1:1' } });
    const b = new Membership({ control: csB, self: { id: 'node-b', roles: ['gateway', 'worker'], zone: 'z2', weight: 2 } });
    try {
      assert.deepEqual(a.view().nodes.map((n) => n.id), ['node-a'], 'itself before the first beat');
      await a.start();
      const seen: MembershipView[] = [];
      a.subscribe((v) => seen.push(v));
      await b.start();
      await a.beat();
      const v = a.view();
      assert.deepEqual(v.nodes.map((n) => n.id), ['node-a', 'node-b']);
      assert.deepEqual(v.node('node-b'), { id: 'node-b', roles: ['gateway', 'worker'], zone: 'z2', weight: 2 });
      assert.equal(v.node('node-a')!.url, 'http://127.0.0.1:1');
      assert.equal(seen.length, 1, 'one change: b joined');
      assert.equal(seen[0]!.version, v.version);
      // Placement by role: only b runs workers, both are gateways.
      assert.equal(v.placement('worker').owner(placementKey.collection(1, 2)), 'node-b');
      assert.equal(v.placement('gateway').size, 2);
      assert.deepEqual(b.view().nodes.map((n) => n.id), ['node-a', 'node-b'], 'b sees a too');
      // Nothing changed: no new version, no call.
      await a.beat();
      assert.equal(a.view().version, v.version);
      assert.equal(seen.length, 1);
      await b.close();
      await a.beat();
      assert.deepEqual(a.view().nodes.map((n) => n.id), ['node-a'], 'b left at once, without waiting for its TTL');
      assert.equal(seen.length, 2);
      assert.ok(seen[1]!.version > v.version);
    } finally {
      await a.close();
      await b.close();
      await csA.close();
      await csB.close();
      await metaA.close();
      await metaB.close();
    }
  });

  test('an unreachable ControlStore keeps the last view and reports the failure', async () => {
    const meta = openEmbedded({ path: join(dir, 'n.db') });
    const cs = await controlStoreFor(meta);
    const failures: unknown[] = [];
    const m = new Membership({ control: cs, self: { id: 'node-x', roles: ['gateway'] }, failed: (e) => failures.push(e) });
    await m.start();
    await cs.close();
    await meta.close();
    await m.beat();
    assert.equal(failures.length, 1);
    assert.deepEqual(m.view().nodes.map((n) => n.id), ['node-x']);
    await m.close();
  });

  test("a member's info that this version cannot read counts as a plain gateway; bad settings name the field", () => {
    assert.deepEqual(decodeMember({ node: 'n1', expires: 1, info: '' }), { id: 'n1', roles: ['gateway'] });
    assert.deepEqual(decodeMember({ node: 'n1', expires: 1, info: 'not json' }), { id: 'n1', roles: ['gateway'] });
    assert.deepEqual(decodeMember({ node: 'n1', expires: 1, info: '{"roles":["log","teleport"],"zone":"BAD ZONE","weight":-1,"url":"ftp://x"}' }), { id: 'n1', roles: ['log'] });
    const field = (f: string) => (e: unknown) => e instanceof MembershipError && e.field === f;
    assert.throws(() => checkDescriptor({ id: 'n1', roles: ['gateway'], zone: 'Zone A' }), field('zone'));
    assert.throws(() => checkDescriptor({ id: 'n1', roles: ['gateway'], weight: 0 }), field('placement_weight'));
    assert.throws(() => checkDescriptor({ id: 'n1', roles: ['gateway'], url: 'http://u:p@host:1' }), field('advertise_url'));
    assert.throws(() => checkDescriptor({ id: 'n1', roles: ['gateway'], url: 'nope' }), field('advertise_url'));
    assert.throws(() => checkDescriptor({ id: 'n 1', roles: ['gateway'] }), field('node_id'));
  });
});

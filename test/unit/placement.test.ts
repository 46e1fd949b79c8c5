// Placement (spec §5.3): rendezvous hashing with xxh3 — spread, minimal movement on join and
// leave, zone spread of replicas, weights, bounded load on a skewed load, size classes, and
// the same answer on every node whatever order it learned the nodes in.
import assert from 'node:assert/strict';
import { PlacementOwnership } from '../../src/node/ownership.js';
import { describe, test } from 'node:test';
import { BOUNDED_LOAD_EPSILON, BoundedLoad, Placement, PlacementError, placementKey, type PlacementNode } from '../../src/router/placement.js';

/** Keys per distribution check: enough that a share's noise (about 1/√(keys/n)) is a few percent. */
const KEYS = 20_000;
const nodes = (n: number, f: (i: number) => Partial<PlacementNode> = () => ({})): PlacementNode[] =>
  Array.from({ length: n }, (_, i) => ({ id: `node-${i}`, ...f(i) }));
const keys = Array.from({ length: KEYS }, (_, i) => placementKey.collection(1 + (i % 997), i, 'large'));

function shares(p: Placement): Map<string, number> {
  const m = new Map<string, number>();
  for (const k of keys) m.set(p.owner(k), (m.get(p.owner(k)) ?? 0) + 1);
  return m;
}

describe('placement', () => {
  test('every node owns about its share of keys', () => {
    const s = shares(new Placement(nodes(5)));
    assert.equal(s.size, 5);
    for (const [n, c] of s) assert.ok(Math.abs(c / KEYS - 0.2) < 0.02, `${n} owns ${c / KEYS}`);
  });

  test('deterministic: the same owners whatever the order of the nodes, on a new instance', () => {
    const a = new Placement(nodes(7));
    const b = new Placement(nodes(7).reverse());
    for (const k of keys.slice(0, 2_000)) {
      assert.equal(a.owner(k), b.owner(k));
      assert.deepEqual(a.owners(k, 3), b.owners(k, 3));
      assert.deepEqual(a.rank(k), b.rank(k));
    }
  });

  test('a fifth node joining moves only keys onto it, about 1/5 of them; a node leaving moves only its own', () => {
    const four = new Placement(nodes(4));
    const five = new Placement(nodes(5));
    let moved = 0;
    for (const k of keys) {
      const before = four.owner(k);
      const now = five.owner(k);
      if (before !== now) {
        moved++;
        assert.equal(now, 'node-4', 'a key moves only to the node that joined');
      }
    }
    assert.ok(moved / KEYS > 0.17 && moved / KEYS < 0.23, `moved ${moved / KEYS}`);
    const without2 = new Placement(nodes(5).filter((n) => n.id !== 'node-2'));
    for (const k of keys) {
      if (five.owner(k) !== 'node-2') assert.equal(without2.owner(k), five.owner(k), 'keys of the others stay');
    }
  });

  test('replicas spread over zones first, then fill with the best remaining nodes', () => {
    const zoned = new Placement(nodes(6, (i) => ({ zone: `z${i % 3}` })));
    const zoneOf = (id: string) => zoned.nodes.find((n) => n.id === id)!.zone;
    for (const k of keys.slice(0, 3_000)) {
      const r3 = zoned.owners(k, 3);
      assert.equal(r3[0], zoned.owner(k));
      assert.equal(new Set(r3.map(zoneOf)).size, 3, 'three zones');
      const r5 = zoned.owners(k, 5);
      assert.equal(new Set(r5).size, 5);
      assert.deepEqual(r5.slice(0, 3), r3);
    }
    const oneZone = new Placement(nodes(3, () => ({ zone: 'z1' })));
    assert.equal(new Set(oneZone.owners(keys[0]!, 2)).size, 2, 'one zone: still two distinct nodes');
    assert.equal(oneZone.owners(keys[0]!, 9).length, 3, 'no more replicas than nodes');
  });

  test('weights: a node of weight 2 owns about twice a standard share', () => {
    const p = new Placement(nodes(4, (i) => (i === 0 ? { weight: 2 } : {})));
    const s = shares(p);
    assert.ok(Math.abs(s.get('node-0')! / KEYS - 0.4) < 0.02, `weight 2 owns ${s.get('node-0')! / KEYS}`);
    for (const n of ['node-1', 'node-2', 'node-3']) assert.ok(Math.abs(s.get(n)! / KEYS - 0.2) < 0.02, `${n} owns ${s.get(n)! / KEYS}`);
  });

  test('bounded load: on a Zipf load no node takes more than ⌈(1+ε)·mean⌉; without it the hottest node takes far more', () => {
    const p = new Placement(nodes(5));
    const hot = Array.from({ length: 1_000 }, (_, i) => placementKey.collection(7, i, 'large'));
    // Zipf(s = 1.1) over 1 000 keys by inverse CDF, from a fixed sequence.
    const w = hot.map((_, i) => 1 / (i + 1) ** 1.1);
    const sum = w.reduce((a, b) => a + b, 0);
    const cdf: number[] = [];
    let acc = 0;
    for (const x of w) cdf.push((acc += x / sum));
    const bounded = new BoundedLoad(p);
    const plain = new Map<string, number>();
    const requests = 20_000;
    for (let i = 0; i < requests; i++) {
      const u = ((i * 0.6180339887498949) % 1) * 0.999999;
      let j = 0;
      while (cdf[j]! < u) j++;
      bounded.assign(hot[j]!);
      plain.set(p.owner(hot[j]!), (plain.get(p.owner(hot[j]!)) ?? 0) + 1);
    }
    const mean = requests / 5;
    const max = Math.max(...bounded.loads().values());
    assert.ok(max <= Math.ceil((1 + BOUNDED_LOAD_EPSILON) * mean), `bounded max/mean ${max / mean}`);
    assert.ok(Math.max(...plain.values()) / mean > 1 + BOUNDED_LOAD_EPSILON + 0.1, 'the skew is real: unbounded, the top node is overloaded');
    // Released load goes back: a quiet cluster serves each key at its owner again.
    for (const [n, c] of [...bounded.loads()]) bounded.release(n, c);
    assert.equal(bounded.total, 0);
    assert.equal(bounded.assign(hot[0]!), p.owner(hot[0]!));
  });

  test('size classes: a small namespace places all its objects on one node; a large one spreads them', () => {
    const p = new Placement(nodes(5));
    const small = new Set<string>();
    const large = new Set<string>();
    for (let c = 0; c < 50; c++) {
      small.add(p.owner(placementKey.collection(42, c)));
      small.add(p.owner(placementKey.partition(42, c, 0)));
      large.add(p.owner(placementKey.collection(42, c, 'large')));
    }
    assert.equal(small.size, 1);
    assert.equal([...small][0], p.owner(placementKey.namespace(42)));
    assert.equal(large.size, 5);
  });

  test("the workers' ownership reads the namespace's size class: a large namespace's collections spread over the workers", () => {
    let large = new Set<number>();
    let version = 0;
    const sizes = { of: (ns: number) => (large.has(ns) ? ('large' as const) : ('small' as const)), version: () => version };
    const views = ['w0', 'w1', 'w2'].map((id) => new PlacementOwnership(id, sizes));
    for (const o of views) o.update(nodes(3).map((n, i) => ({ ...n, id: `w${i}` })));
    const owners = (ns: number) => Array.from({ length: 40 }, (_, c) => views.filter((o) => o.owns({ ns, collection: c })).map((o) => o.self));
    // Each collection has exactly one owner in either class; small: all on the namespace's one node.
    assert.ok(owners(9).every((o) => o.length === 1));
    assert.equal(new Set(owners(9).flat()).size, 1);
    assert.equal(views.filter((o) => o.mayOwn(9)).length, 1);
    const before = views[0]!.version();
    large = new Set([9]);
    version++;
    assert.ok(views[0]!.version() > before, 'a size class change is an ownership change');
    assert.ok(owners(9).every((o) => o.length === 1));
    assert.equal(new Set(owners(9).flat()).size, 3, 'large: spread over the three workers');
    assert.ok(views.every((o) => o.mayOwn(9)));
  });

  test('bad input is refused with the field named', () => {
    assert.throws(() => new Placement([{ id: 'a' }, { id: 'a' }]), /listed twice/);
    assert.throws(() => new Placement([{ id: 'a', weight: 0 }]), /weight/);
    assert.throws(() => new Placement([{ id: 'a', zone: 'Bad Zone' }]), /zone/);
    assert.throws(() => new Placement([{ id: 'a' }], { epsilon: 0 }), /epsilon/);
    assert.throws(() => new Placement([]).owner(keys[0]!), PlacementError);
    assert.throws(() => placementKey.collection(-1, 2), /ns must be an id/);
    assert.throws(() => placementKey.partition(1, 2, 1.5), /partition must be an id/);
    assert.throws(() => new Placement(nodes(2)).owners(keys[0]!, 0), /r must be/);
  });
});

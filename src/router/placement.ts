// Placement (spec §5.3): which node owns a key. Weighted rendezvous hashing with xxh3 over the
// live nodes, zone-aware with r replicas, with bounded load (Mirrokni, Thorup, Zadimoghaddam
// 2016: the next rendezvous choice serves when the top node is at its cap) and size classes
// (small namespaces place by ns alone, large ones per key). Ownership is a hint: any node can
// serve any key correctly, so a stale view only costs cache affinity (spec §5.3).
import { xxh3 } from '@node-rs/xxhash';
import type { SizeClass } from '../meta/backends/sharded/directory.js';

export type NodeId = string;

/**
 * ε of bounded load: a node takes at most ⌈(1+ε)·mean⌉ of the load (its weight's share of
 * it). 0.25 keeps the maximum within 1.25× the mean at the price of a few keys served by a
 * second choice; Mirrokni et al. show the expected moves on a change grow as 1/ε².
 */
export const BOUNDED_LOAD_EPSILON = 0.25;
/** Weights are relative capacities in this range (1 is a standard node). */
export const MIN_WEIGHT = 0.01;
export const MAX_WEIGHT = 1_000;
/** Nodes in one placement, at most (the ControlStore lists at most MAX_MEMBERS, 1 000). */
export const MAX_PLACEMENT_NODES = 1_000;
/** Zones: short names (config `zone`), like cloud zone names. */
export const ZONE_PATTERN = /^[a-z0-9][a-z0-9_-]{0,62}$/;

export interface PlacementNode {
  id: NodeId;
  /** The node's zone; nodes without one share the unnamed zone. */
  zone?: string | undefined;
  /** Relative capacity (default 1): a node of weight 2 owns about twice the keys. */
  weight?: number | undefined;
}

export type PlacementKind = 'namespace' | 'collection' | 'partition';

/** A placement key (spec §5.3's table). Build one with `placementKey`. */
export interface PlacementKey {
  readonly kind: PlacementKind;
  readonly ns: number;
  /** What is hashed: `ns/<ns>` for a small namespace, the object's own key for a large one. */
  readonly hashed: string;
  /** Human-readable, for `loam placement` and logs. */
  readonly text: string;
}

function checkId(what: string, v: number): void {
  if (!Number.isSafeInteger(v) || v < 0) throw new PlacementError(`${what} must be an id (an integer ≥ 0), got ${String(v)}`);
}

function key(kind: PlacementKind, ns: number, own: string, sizeClass: SizeClass): PlacementKey {
  if (sizeClass !== 'small' && sizeClass !== 'large') throw new PlacementError(`sizeClass must be small or large, got ${String(sizeClass)}`);
  // Small namespaces place by ns alone (spec §5.3): one node warms all of a tenant's objects.
  return { kind, ns, hashed: sizeClass === 'small' ? `ns/${ns}` : own, text: own };
}

/**
 * Placement keys of spec §5.3. `sizeClass` is the namespace's (its directory entry's; a
 * namespace is small until the operator marks it large). Namespace keys (quotas per
 * namespace) are the same for both classes.
 */
export const placementKey = {
  namespace(ns: number): PlacementKey {
    checkId('ns', ns);
    return key('namespace', ns, `ns/${ns}`, 'small');
  },
  /** A collection: (ns, collection). */
  collection(ns: number, collection: number, sizeClass: SizeClass = 'small'): PlacementKey {
    checkId('ns', ns);
    checkId('collection', collection);
    return key('collection', ns, `collection/${ns}/${collection}`, sizeClass);
  },
  /** A stream partition (fetch, subscribe, segmenting, retention): (ns, stream, partition). */
  partition(ns: number, stream: number, partition: number, sizeClass: SizeClass = 'small'): PlacementKey {
    checkId('ns', ns);
    checkId('stream', stream);
    checkId('partition', partition);
    return key('partition', ns, `partition/${ns}/${stream}/${partition}`, sizeClass);
  },
};

/** Namespaces' size classes as placement reads them (spec §5.3): `of` without a round trip, `version` bumped on a change. */
export interface SizeClasses {
  of(ns: number): SizeClass;
  version(): number;
}

/** Without a directory (one metastore, not sharded) every namespace is small. */
export const ALL_SMALL: SizeClasses = { of: () => 'small', version: () => 0 };

/** Bad nodes or keys given to placement, or no node to place on. */
export class PlacementError extends Error {
  readonly code = 'placement';
}

interface Entry {
  id: NodeId;
  zone: string;
  weight: number;
  /** The two halves of xxh3(id). */
  s1: number;
  s2: number;
}

const TWO_POW_21 = 2 ** 21;
const TWO_POW_53 = 2 ** 53;

/** The key's xxh3, as two 32-bit halves: hashed once per key, whatever the node count. */
interface KeyHash {
  lo: number;
  hi: number;
}

function halves(h: bigint): KeyHash {
  return { lo: Number(h & 0xffffffffn), hi: Number(h >> 32n) };
}

function hashKey(hashed: string): KeyHash {
  return halves(xxh3.xxh64(hashed));
}

/** murmur3's 32-bit finalizer: every input bit flips each output bit with probability ½. */
function fmix32(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Weighted rendezvous score (the logarithmic method): w / −ln(u), u uniform in (0, 1) from
 * the key's xxh3 mixed with the node's (53 bits). Ordering by it gives each node a share of
 * keys proportional to its weight, and a node's leaving moves only the keys it had. The key is
 * hashed once and mixed per node in plain arithmetic, so a key costs one xxh3 call.
 */
function score(k: KeyHash, e: Entry): number {
  const a = fmix32(k.lo ^ e.s1);
  const b = fmix32(k.hi ^ e.s2 ^ Math.imul(a, 0x27d4eb2d));
  const u = (a * TWO_POW_21 + (b >>> 11) + 0.5) / TWO_POW_53;
  return e.weight / -Math.log(u);
}

/** Higher score first; equal scores (practically never) by id, so every node agrees. */
const better = (sa: number, a: Entry, sb: number, b: Entry) => sa > sb || (sa === sb && a.id < b.id);

export interface PlacementOptions {
  /** ε of bounded load (default BOUNDED_LOAD_EPSILON). */
  epsilon?: number;
}

/** Placement over one set of nodes (a membership view); immutable, cheap to rebuild. */
export class Placement {
  private readonly entries: readonly Entry[];
  private readonly weights: ReadonlyMap<NodeId, number>;
  readonly totalWeight: number;
  readonly epsilon: number;

  constructor(nodes: readonly PlacementNode[], opts: PlacementOptions = {}) {
    if (nodes.length > MAX_PLACEMENT_NODES) throw new PlacementError(`at most ${MAX_PLACEMENT_NODES} nodes, got ${nodes.length}`);
    const eps = opts.epsilon ?? BOUNDED_LOAD_EPSILON;
    if (!(Number.isFinite(eps) && eps > 0 && eps <= 10)) throw new PlacementError(`epsilon must be in (0, 10], got ${eps}`);
    this.epsilon = eps;
    const seen = new Set<string>();
    const entries: Entry[] = [];
    for (const n of nodes) {
      if (typeof n.id !== 'string' || n.id.length === 0) throw new PlacementError('a node needs an id');
      if (seen.has(n.id)) throw new PlacementError(`node ${n.id} is listed twice`);
      seen.add(n.id);
      const weight = n.weight ?? 1;
      if (!(Number.isFinite(weight) && weight >= MIN_WEIGHT && weight <= MAX_WEIGHT)) throw new PlacementError(`node ${n.id}: weight must be in ${MIN_WEIGHT}..${MAX_WEIGHT}, got ${weight}`);
      if (n.zone !== undefined && !ZONE_PATTERN.test(n.zone)) throw new PlacementError(`node ${n.id}: zone must match ${ZONE_PATTERN.source}`);
      const h = halves(xxh3.xxh64(`node\u0000${n.id}`));
      entries.push({ id: n.id, zone: n.zone ?? '', weight, s1: h.lo, s2: h.hi });
    }
    entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    this.entries = entries;
    this.weights = new Map(entries.map((e) => [e.id, e.weight]));
    this.totalWeight = entries.reduce((s, e) => s + e.weight, 0);
  }

  /** The nodes, by id. */
  get nodes(): readonly PlacementNode[] {
    return this.entries.map((e) => ({ id: e.id, ...(e.zone ? { zone: e.zone } : {}), weight: e.weight }));
  }

  get size(): number {
    return this.entries.length;
  }

  has(node: NodeId): boolean {
    return this.weights.has(node);
  }

  weight(node: NodeId): number {
    return this.weights.get(node) ?? 0;
  }

  /** The key's owner: the node with the highest score. Throws PlacementError without nodes. */
  owner(k: PlacementKey): NodeId {
    if (this.entries.length === 0) throw new PlacementError('no live node to place on');
    const kh = hashKey(k.hashed);
    let best = this.entries[0]!;
    let bestScore = score(kh, best);
    for (let i = 1; i < this.entries.length; i++) {
      const e = this.entries[i]!;
      const s = score(kh, e);
      if (better(s, e, bestScore, best)) {
        best = e;
        bestScore = s;
      }
    }
    return best.id;
  }

  /** Every node, best first: the order in which bounded load and failover try them. */
  rank(k: PlacementKey): NodeId[] {
    return this.ranked(k).map((e) => e.id);
  }

  private ranked(k: PlacementKey): Entry[] {
    const kh = hashKey(k.hashed);
    const scored = this.entries.map((e) => ({ e, s: score(kh, e) }));
    scored.sort((a, b) => (better(a.s, a.e, b.s, b.e) ? -1 : 1));
    return scored.map((x) => x.e);
  }

  /**
   * The key's r replicas, zone-aware: the owner first, then the best node of each zone not yet
   * used, then (with fewer zones than r) the best remaining nodes. Fewer than r when there are
   * fewer nodes. The first is always `owner(k)`.
   */
  owners(k: PlacementKey, r = 1): NodeId[] {
    if (!(Number.isSafeInteger(r) && r >= 1)) throw new PlacementError(`r must be an integer ≥ 1, got ${r}`);
    if (this.entries.length === 0) throw new PlacementError('no live node to place on');
    if (r === 1) return [this.owner(k)];
    const ranked = this.ranked(k);
    const out: Entry[] = [];
    const zones = new Set<string>();
    for (const e of ranked) {
      if (out.length >= r) break;
      if (!zones.has(e.zone)) {
        out.push(e);
        zones.add(e.zone);
      }
    }
    for (const e of ranked) {
      if (out.length >= r) break;
      if (!out.includes(e)) out.push(e);
    }
    return out.map((e) => e.id);
  }

  /**
   * A node's cap under bounded load, when `total` units are placed in all (the one being
   * placed included): ⌈(1+ε)·total·w/W⌉, its weight's share of the mean raised by ε.
   */
  cap(node: NodeId, total: number): number {
    return Math.ceil((1 + this.epsilon) * total * (this.weight(node) / this.totalWeight));
  }

  /**
   * Bounded load (spec §5.3): the first node in the key's rank whose load stays within its cap
   * with `cost` more. `load` is the caller's view of each node's current load (requests in
   * flight, keys owned …), `total` their sum (computed when omitted). The sum of the caps
   * exceeds the total, so some node always fits.
   */
  choose(k: PlacementKey, load: ReadonlyMap<NodeId, number>, cost = 1, total?: number): NodeId {
    if (this.entries.length === 0) throw new PlacementError('no live node to place on');
    let sum = total;
    if (sum === undefined) {
      sum = 0;
      for (const e of this.entries) sum += load.get(e.id) ?? 0;
    }
    const after = sum + cost;
    const top = this.owner(k);
    if ((load.get(top) ?? 0) + cost <= this.cap(top, after)) return top;
    for (const e of this.ranked(k)) if ((load.get(e.id) ?? 0) + cost <= this.cap(e.id, after)) return e.id;
    return top; // unreachable unless cost exceeds every cap: the owner takes it
  }
}

/**
 * Load counted against bounded-load caps, for one placement: `assign` picks a node for a key
 * and counts `cost` on it; `release` gives it back (a finished request). The view of one
 * process (a gateway's forwards, a benchmark), not a cluster-wide count.
 */
export class BoundedLoad {
  private readonly load = new Map<NodeId, number>();
  private sum = 0;
  constructor(readonly placement: Placement) {}

  assign(k: PlacementKey, cost = 1): NodeId {
    const node = this.placement.choose(k, this.load, cost, this.sum);
    this.load.set(node, (this.load.get(node) ?? 0) + cost);
    this.sum += cost;
    return node;
  }

  /** Counts `cost` on a node chosen elsewhere (a forward in flight). */
  add(node: NodeId, cost = 1): void {
    this.load.set(node, (this.load.get(node) ?? 0) + cost);
    this.sum += cost;
  }

  release(node: NodeId, cost = 1): void {
    const have = this.load.get(node) ?? 0;
    const take = Math.min(have, cost);
    if (have - take <= 0) this.load.delete(node);
    else this.load.set(node, have - take);
    this.sum -= take;
  }

  get total(): number {
    return this.sum;
  }

  /** Each node's load (nodes with none are absent). */
  loads(): ReadonlyMap<NodeId, number> {
    return this.load;
  }
}

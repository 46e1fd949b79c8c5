// Membership (spec §5.3): the live nodes, from the ControlStore's gateway membership, each
// with its roles, zone, weight and the URL other nodes reach it at. A node renews its own
// entry every heartbeat and reads everyone's; when the set (or anyone's info) changes, the
// view's version goes up and subscribers hear of it, so a node can recompute what it owns.
// A view is a hint: placement over a stale view routes suboptimally, never wrongly.
import type { ControlStore, Member } from '../control/types.js';
import { MAX_MEMBER_INFO_BYTES, NODE_ID_PATTERN } from '../control/types.js';
import { MAX_WEIGHT, MIN_WEIGHT, Placement, ZONE_PATTERN, type PlacementNode, type PlacementOptions } from './placement.js';

/** What a node does: every node is a gateway (it serves the HTTP API); the rest are config `roles`. */
export const NODE_ROLES = ['gateway', 'log', 'query', 'worker'] as const;
export type NodeRole = (typeof NODE_ROLES)[number];

/** A node renews its membership this often… */
export const MEMBERSHIP_HEARTBEAT_MS = 2_000;
/** …and is counted this long after its last renewal (a few missed beats). */
export const MEMBERSHIP_TTL_MS = 10_000;
/** One heartbeat and read of the members, at most (every wait a deadline). */
export const MEMBERSHIP_CALL_DEADLINE_MS = 5_000;
/** Subscribers per membership, at most. */
export const MAX_MEMBERSHIP_SUBSCRIBERS = 64;

export interface NodeDescriptor {
  id: string;
  roles: readonly NodeRole[];
  zone?: string | undefined;
  /** Relative capacity for placement (default 1). */
  weight?: number | undefined;
  /** Where other nodes reach this node's HTTP API (http://host:port), when they may. */
  url?: string | undefined;
  /**
   * sha256 (hex) of the secret this node presents on calls to other nodes (quota grants): a
   * fresh secret per start, known only to the node; the others check it against this.
   */
  authHash?: string | undefined;
}

/** Thrown for a bad descriptor (config `zone`, `placement_weight`, `advertise_url`). */
export class MembershipError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

/** Checks a descriptor before it is published; each error names the setting to fix. */
export function checkDescriptor(d: NodeDescriptor): void {
  if (!NODE_ID_PATTERN.test(d.id)) throw new MembershipError('node_id', 'must be 1-64 characters of A-Z a-z 0-9 _ -');
  if (d.roles.length === 0 || d.roles.some((r) => !(NODE_ROLES as readonly string[]).includes(r))) {
    throw new MembershipError('roles', `must be some of ${NODE_ROLES.join(', ')}`);
  }
  if (d.zone !== undefined && !ZONE_PATTERN.test(d.zone)) throw new MembershipError('zone', 'must be 1-63 characters of a-z 0-9 _ -, starting with a letter or digit');
  if (d.weight !== undefined && !(Number.isFinite(d.weight) && d.weight >= MIN_WEIGHT && d.weight <= MAX_WEIGHT)) {
    throw new MembershipError('placement_weight', `must be a number in ${MIN_WEIGHT}..${MAX_WEIGHT}`);
  }
  if (d.url !== undefined) {
    let u: URL;
    try {
      u = new URL(d.url);
    } catch {
      throw new MembershipError('advertise_url', `must be an http(s) URL, got ${JSON.stringify(d.url)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new MembershipError('advertise_url', 'must be an http(s) URL');
    if (u.username || u.password) throw new MembershipError('advertise_url', 'must not carry credentials');
  }
  if (Buffer.byteLength(encodeInfo(d)) > MAX_MEMBER_INFO_BYTES) throw new MembershipError('advertise_url', `the node's description exceeds ${MAX_MEMBER_INFO_BYTES} bytes`);
}

/** The member info this node publishes (JSON; the id is the member's own). */
export function encodeInfo(d: NodeDescriptor): string {
  return JSON.stringify({
    v: 1,
    roles: d.roles,
    ...(d.zone ? { zone: d.zone } : {}),
    ...(d.weight !== undefined ? { weight: d.weight } : {}),
    ...(d.url ? { url: d.url } : {}),
    ...(d.authHash ? { auth: d.authHash } : {}),
  });
}

/**
 * A member's descriptor from its info. A member with no info or info this version cannot read
 * (a node of an older or newer version) counts as a gateway of weight 1 in no zone: it still
 * serves, so it is still placed on; what it cannot be is a forward target without a URL.
 */
export function decodeMember(m: Member): NodeDescriptor {
  const plain: NodeDescriptor = { id: m.node, roles: ['gateway'] };
  if (!m.info) return plain;
  let o: unknown;
  try {
    o = JSON.parse(m.info);
  } catch {
    return plain;
  }
  if (typeof o !== 'object' || o === null) return plain;
  const r = o as { roles?: unknown; zone?: unknown; weight?: unknown; url?: unknown; auth?: unknown };
  const roles = Array.isArray(r.roles) ? (r.roles.filter((x) => (NODE_ROLES as readonly unknown[]).includes(x)) as NodeRole[]) : [];
  const d: NodeDescriptor = { id: m.node, roles: roles.length > 0 ? roles : ['gateway'] };
  if (typeof r.zone === 'string' && ZONE_PATTERN.test(r.zone)) d.zone = r.zone;
  if (typeof r.weight === 'number' && Number.isFinite(r.weight) && r.weight >= MIN_WEIGHT && r.weight <= MAX_WEIGHT) d.weight = r.weight;
  if (typeof r.url === 'string' && /^https?:\/\//.test(r.url)) d.url = r.url;
  if (typeof r.auth === 'string' && /^[0-9a-f]{64}$/.test(r.auth)) d.authHash = r.auth;
  return d;
}

/** One membership view: the live nodes at one moment, and placements over them by role. */
export class MembershipView {
  private readonly byId: ReadonlyMap<string, NodeDescriptor>;
  private readonly placements = new Map<NodeRole | 'any', Placement>();
  constructor(
    /** Raised whenever the set or anyone's descriptor changed. */
    readonly version: number,
    /** By id. */
    readonly nodes: readonly NodeDescriptor[],
    private readonly opts: PlacementOptions = {},
  ) {
    this.byId = new Map(nodes.map((n) => [n.id, n]));
  }

  node(id: string): NodeDescriptor | undefined {
    return this.byId.get(id);
  }

  /** The nodes with a role (all nodes with none given). */
  withRole(role?: NodeRole): NodeDescriptor[] {
    return role ? this.nodes.filter((n) => n.roles.includes(role)) : [...this.nodes];
  }

  /** Placement over the nodes with `role` (cached per view). */
  placement(role?: NodeRole): Placement {
    const k = role ?? 'any';
    let p = this.placements.get(k);
    if (!p) {
      const nodes: PlacementNode[] = this.withRole(role).map((n) => ({ id: n.id, zone: n.zone, weight: n.weight }));
      p = new Placement(nodes, this.opts);
      this.placements.set(k, p);
    }
    return p;
  }
}

export interface MembershipOptions {
  /** Where members are recorded; null: a membership of this node alone (a metastore without a ControlStore). */
  control: ControlStore | null;
  /** This node. Always in its own view, even before the ControlStore answers. */
  self: NodeDescriptor;
  now?: () => number;
  heartbeatMs?: number;
  ttlMs?: number;
  placement?: PlacementOptions;
  /** A heartbeat or read failed (the view stays as it was). */
  failed?: (e: unknown) => void;
}

function withDeadline<T>(p: Promise<T>, ms: number): Promise<T> {
  let t: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(t)),
    new Promise<T>((_, reject) => {
      t = setTimeout(() => reject(new Error(`the ControlStore did not answer the membership heartbeat within ${ms} ms`)), ms);
      t.unref();
    }),
  ]);
}

const sameNode = (a: NodeDescriptor, b: NodeDescriptor) =>
  a.id === b.id && a.authHash === b.authHash && a.zone === b.zone && a.weight === b.weight && a.url === b.url && a.roles.length === b.roles.length && a.roles.every((r, i) => b.roles[i] === r);

/**
 * This node's membership: heartbeats with its descriptor, the live view, and change
 * subscriptions. `start` joins (one beat, waited for); `close` leaves at once, so the others'
 * views drop it without waiting for the TTL.
 */
export class Membership {
  private current: MembershipView;
  private readonly subscribers = new Set<(view: MembershipView, previous: MembershipView) => void>();
  private beating: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;
  private left = false;
  private info: string;
  private me: NodeDescriptor;
  private readonly now: () => number;
  private readonly heartbeatMs: number;
  private readonly ttlMs: number;

  constructor(private readonly o: MembershipOptions) {
    checkDescriptor(o.self);
    this.me = { ...o.self };
    this.info = encodeInfo(this.me);
    this.now = o.now ?? Date.now;
    this.heartbeatMs = o.heartbeatMs ?? MEMBERSHIP_HEARTBEAT_MS;
    this.ttlMs = o.ttlMs ?? MEMBERSHIP_TTL_MS;
    this.current = new MembershipView(0, [this.me], o.placement);
  }

  get self(): NodeDescriptor {
    return this.me;
  }

  /** Sets where the others reach this node (known once its listener is bound), before `start`. */
  advertise(url: string): void {
    const me = { ...this.me, url };
    checkDescriptor(me);
    this.me = me;
    this.info = encodeInfo(me);
    this.current = new MembershipView(this.current.version + 1, this.current.nodes.map((n) => (n.id === me.id ? me : n)), this.o.placement);
  }

  /** The latest view (never empty: this node is in it). */
  view(): MembershipView {
    return this.current;
  }

  /** Calls `fn` after every change of the view; returns the unsubscribe. */
  subscribe(fn: (view: MembershipView, previous: MembershipView) => void): () => void {
    if (this.subscribers.size >= MAX_MEMBERSHIP_SUBSCRIBERS) throw new Error(`at most ${MAX_MEMBERSHIP_SUBSCRIBERS} membership subscribers`);
    this.subscribers.add(fn);
    return () => this.subscribers.delete(fn);
  }

  async start(): Promise<void> {
    await this.beat();
    if (this.closed || !this.o.control) return;
    this.timer = setInterval(() => void this.beat(), this.heartbeatMs);
    this.timer.unref();
  }

  /** Renews this node's membership and re-reads the live nodes (one at a time). */
  beat(): Promise<void> {
    if (this.beating || this.closed || !this.o.control) return this.beating ?? Promise.resolve();
    const control = this.o.control;
    this.beating = (async () => {
      try {
        const members = await withDeadline(
          (async () => {
            await control.heartbeat(this.me.id, this.ttlMs, this.now(), this.info);
            return control.members(this.now());
          })(),
          MEMBERSHIP_CALL_DEADLINE_MS,
        );
        if (!this.closed) this.apply(members);
      } catch (e) {
        this.o.failed?.(e);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
  }

  private apply(members: readonly Member[]): void {
    const nodes = members.map(decodeMember);
    // This node is in its own view even when its entry lags (a slow store, a clock step).
    if (!nodes.some((n) => n.id === this.me.id)) nodes.push(this.me);
    nodes.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const prev = this.current;
    if (prev.nodes.length === nodes.length && prev.nodes.every((n, i) => sameNode(n, nodes[i]!))) return;
    this.current = new MembershipView(prev.version + 1, nodes, this.o.placement);
    for (const fn of this.subscribers) {
      try {
        fn(this.current, prev);
      } catch (e) {
        this.o.failed?.(e);
      }
    }
  }

  /**
   * Stops renewing and following without leaving: the node stays in the others' views until
   * its TTL lapses, as a node that died would, and its own view stays as it was (tests of
   * stale views and of a node that is gone without a word).
   */
  stop(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.left) return;
    this.left = true;
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.beating;
    if (this.o.control) await withDeadline(this.o.control.leave(this.me.id), MEMBERSHIP_CALL_DEADLINE_MS).catch(() => undefined);
  }
}

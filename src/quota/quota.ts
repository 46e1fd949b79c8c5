// Quotas (spec §6): defaults as named constants, per-org and per-namespace overrides from the
// ControlStore (set by the operator, within QUOTA_BOUNDS), and the local mechanisms that
// enforce them: token buckets and a cost-weighted semaphore. On one node every bucket is
// local. In a cluster the spec puts a bucket at the rendezvous owner of the placement key;
// without a router, each gateway keeps its own bucket sized quota ÷ gateways (the spec's
// per-gateway fallback), the count of gateways alive in the ControlStore's membership
// (`setGateways`).
import { QUOTA_BOUNDS, type ControlStore, type QuotaName, type QuotaOverride } from '../control/types.js';

/** Requests per second per namespace and surface (burst: one second's worth). */
export const DEFAULT_REQUEST_RATE = 1_000;
/** Ingest bytes per second per namespace, at the gateway. */
export const DEFAULT_INGEST_BYTES_PER_S = 64 * 1024 * 1024;
/** Query slots per collection (spec §6: 16); a text/filter query or a get costs 1. */
export const DEFAULT_CONCURRENT_QUERY_SLOTS = 16;
/**
 * Query slots per namespace at each gateway (spec §6: "a namespace-wide semaphore at the
 * gateway"), so one tenant's many collections cannot take every query a gateway can run:
 * four collections' worth.
 */
export const DEFAULT_NAMESPACE_QUERY_SLOTS = 4 * DEFAULT_CONCURRENT_QUERY_SLOTS;
/** How long a query waits for its slots before 429 (spec §6: 800 ms). */
export const QUERY_SLOT_WAIT_MS = 800;
/** Unapplied backlog per collection (spec §6's defaults; a node's backlog_max_* settings replace them). */
export const DEFAULT_UNAPPLIED_RECORDS = 1_000_000;
export const DEFAULT_UNAPPLIED_BYTES = 128 * 1024 * 1024;
/** Stored bytes per namespace (soft: checked against a periodic measurement). */
export const DEFAULT_STORAGE_BYTES = 1024 ** 4;
/** Metadata operations (namespace and collection creates and drops) per second per namespace. */
export const DEFAULT_METADATA_OPS_RATE = 10;

export const QUOTA_DEFAULTS: Record<QuotaName, number> = {
  request_rate: DEFAULT_REQUEST_RATE,
  ingest_bytes_per_s: DEFAULT_INGEST_BYTES_PER_S,
  concurrent_query_slots: DEFAULT_CONCURRENT_QUERY_SLOTS,
  namespace_query_slots: DEFAULT_NAMESPACE_QUERY_SLOTS,
  unapplied_records: DEFAULT_UNAPPLIED_RECORDS,
  unapplied_bytes: DEFAULT_UNAPPLIED_BYTES,
  storage_bytes: DEFAULT_STORAGE_BYTES,
  metadata_ops_rate: DEFAULT_METADATA_OPS_RATE,
};

/** How long an org's overrides are trusted without a change-feed event. */
export const QUOTA_CACHE_MS = 30_000;
/** An owner re-reads an org's quotas when an asker's rate differs from its own at most this often. */
export const QUOTA_RECHECK_MS = 250;
/** Buckets and semaphores kept, at most (full buckets and idle semaphores are dropped first when exceeded). */
export const MAX_LIMITERS = 100_000;

/**
 * A value within the quota's bounds: an override stored before the bounds existed (a
 * request_rate of 0 that locked an org out) is read as the nearest bound.
 */
export function clampQuota(name: QuotaName, value: number): number {
  const b = QUOTA_BOUNDS[name];
  return Math.min(b.max, Math.max(b.min, value));
}

function releaseAll(held: (() => void)[]): () => void {
  return held.length === 1 ? held[0]! : () => {
    for (const r of held) r();
  };
}

/** A refusal: which quota, and when to retry. */
export class QuotaExceeded extends Error {
  constructor(
    readonly quota: QuotaName,
    readonly retryAfterMs: number,
    message: string,
  ) {
    super(message);
  }
}

export class TokenBucket {
  private tokens: number;
  private last: number;
  constructor(
    public rate: number,
    now: number,
  ) {
    this.tokens = this.capacity;
    this.last = now;
  }
  get capacity(): number {
    return Math.max(this.rate, 1);
  }
  private refill(now: number): void {
    this.tokens = Math.min(this.capacity, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }
  /** Whether it holds a full bucket: then it is no different from a new one (nothing to remember). */
  full(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity;
  }
  /** Takes as many whole tokens as it has, up to n (an owner's grant to another gateway); how many. */
  takeUpTo(n: number, now: number): number {
    this.refill(now);
    const got = Math.max(0, Math.min(Math.floor(n), Math.floor(this.tokens)));
    this.tokens -= got;
    return got;
  }
  /** Milliseconds until n tokens are there (0 when they are). */
  msUntil(n: number, now: number): number {
    this.refill(now);
    const need = Math.min(n, this.capacity);
    if (this.tokens >= need) return 0;
    if (this.rate <= 0) return 60_000;
    return Math.ceil(((need - this.tokens) / this.rate) * 1000);
  }
  /**
   * Takes n tokens; 0 or ms to wait. A request larger than the bucket needs a full bucket and
   * leaves it in debt for the rest, which later requests wait out: the rate holds on average
   * whatever the sizes (a body of many seconds' quota is not let through for one second's).
   */
  take(n: number, now: number): number {
    this.refill(now);
    const need = Math.min(n, this.capacity);
    if (this.tokens >= need) {
      this.tokens -= n;
      return 0;
    }
    if (this.rate <= 0) return 60_000;
    return Math.ceil(((need - this.tokens) / this.rate) * 1000);
  }
}

/** A cost-weighted semaphore with a bounded wait (spec §6). */
export class Semaphore {
  private used = 0;
  private readonly waiters: { cost: number; grant: () => void }[] = [];
  constructor(public slots: number) {}
  get idle(): boolean {
    return this.used === 0 && this.waiters.length === 0;
  }
  /** A slot now (its release function), or null when none is free or others wait first. */
  tryAcquire(cost: number): (() => void) | null {
    if (this.used + cost > this.slots || this.waiters.length > 0) return null;
    this.used += cost;
    return this.releaser(cost);
  }
  /** Resolves with a release function, or null after `waitMs` without a slot. */
  acquire(cost: number, waitMs: number): Promise<(() => void) | null> {
    const now = this.tryAcquire(cost);
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const w = {
        cost,
        grant: () => {
          clearTimeout(t);
          this.used += cost;
          resolve(this.releaser(cost));
        },
      };
      const t = setTimeout(() => {
        const i = this.waiters.indexOf(w);
        if (i >= 0) this.waiters.splice(i, 1);
        resolve(null);
      }, waitMs);
      this.waiters.push(w);
    });
  }
  /** Frees `cost` slots once, however often it is called. */
  private releaser(cost: number): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= cost;
      this.pump();
    };
  }
  private pump(): void {
    while (this.waiters.length > 0 && this.used + this.waiters[0]!.cost <= this.slots) this.waiters.shift()!.grant();
  }
}

/**
 * Where buckets live in a cluster (spec §6; src/quota/owner.ts and the router): a namespace's
 * request-rate bucket at the owner of its namespace key, a collection's query semaphore at the
 * collection's owner. Without it, every gateway keeps its per-gateway share.
 */
export interface OwnerHooks {
  /** The node holding ns's request-rate bucket when it is another node; null when it is this one. */
  ownerOf(ns: number): { id: string; url: string } | null;
  /** Whether this node owns the collection (its query semaphore is then whole here). */
  ownsCollection(ns: number, collection: number): boolean;
  /** Takes n tokens for a limiter whose bucket is at its owner; `fallback` charges the per-gateway bucket. */
  take(l: RateLimiter, n: number, fallback: (l: RateLimiter, n: number) => void): void | Promise<void>;
}

/** Effective quotas: namespace override, else org override, else the default. */
export class Quotas {
  private readonly overrides = new Map<string, { at: number; rows: Promise<QuotaOverride[]>; recheckedAgainst?: number }>();
  private readonly buckets = new Map<string, TokenBucket>();
  private readonly sems = new Map<string, Semaphore>();
  /** The deployment's defaults: QUOTA_DEFAULTS, with what the node's settings replace. */
  readonly defaults: Readonly<Record<QuotaName, number>>;
  constructor(
    private readonly cs: ControlStore,
    /** Gateways sharing a namespace's traffic (per-gateway fallback: each bucket is quota ÷ gateways). */
    private gateways = 1,
    private readonly now: () => number = Date.now,
    defaults: Partial<Record<QuotaName, number>> = {},
  ) {
    this.defaults = { ...QUOTA_DEFAULTS, ...defaults };
  }

  /** Bumped whenever a limiter handle may have gone stale (quota change, eviction, a new owner). */
  generation = 0;
  private owners: OwnerHooks | null = null;

  /** Buckets go to their owners from now on (the node, once membership runs). */
  setOwners(o: OwnerHooks | null): void {
    this.owners = o;
    this.generation++;
  }

  /** Ownership changed (a membership view changed): limiters are decided again. */
  ownersChanged(): void {
    this.generation++;
  }

  /** The live gateway count changed: rate shares change with it. */
  setGateways(n: number): void {
    const g = Math.max(1, Math.floor(n));
    if (g === this.gateways) return;
    this.gateways = g;
    this.generation++;
  }

  get gatewayCount(): number {
    return this.gateways;
  }

  /** Buckets and semaphores kept now (for tests). */
  limiters(): number {
    return this.buckets.size + this.sems.size;
  }

  invalidate(org: string): void {
    this.overrides.delete(org);
    this.generation++;
  }

  async value(org: string, ns: number | null, name: QuotaName): Promise<number> {
    let e = this.overrides.get(org);
    if (!e || this.now() - e.at >= QUOTA_CACHE_MS) {
      const rows = this.cs.quotas(org);
      rows.catch(() => this.overrides.delete(org));
      e = { at: this.now(), rows };
      if (this.overrides.size >= MAX_LIMITERS) this.overrides.clear();
      this.overrides.set(org, e);
    }
    const rows = await e.rows;
    const nsRow = ns === null ? undefined : rows.find((r) => r.ns === ns && r.name === name);
    const orgRow = rows.find((r) => r.ns === null && r.name === name);
    return clampQuota(name, nsRow?.value ?? orgRow?.value ?? this.defaults[name]);
  }

  /**
   * The bucket of (name, key) at the quota's current rate. Callers may keep the handle while
   * `generation` is unchanged (a quota change or an eviction bumps it).
   */
  async rateLimiter(org: string, ns: number | null, name: QuotaName, key: string, what: string): Promise<RateLimiter> {
    const full = await this.value(org, ns, name);
    // spec §6: the request-rate bucket lives at the namespace's owner. Here when this node owns
    // it (the whole rate); leased from the owner otherwise, with this share as the fallback.
    const owner = name === 'request_rate' && ns !== null && this.owners ? this.owners.ownerOf(ns) : undefined;
    const rate = owner === null ? full : full / this.gateways;
    const k = `${name}\u0000${owner === null ? 'owner\u0000' : ''}${key}`;
    const bucket = this.bucketAt(k, rate);
    if (owner) return { name, rate, bucket, what, owner, org, ns: ns!, key, ownerRate: full };
    return { name, rate, bucket, what };
  }

  /** The bucket kept under `k`, made at `rate` when new, and at `rate` from now on (bounded by MAX_LIMITERS). */
  private bucketAt(k: string, rate: number): TokenBucket {
    let bucket = this.buckets.get(k);
    if (!bucket) {
      if (this.buckets.size >= MAX_LIMITERS) {
        // Full buckets go first: forgetting one loses nothing (a new one starts full). Only
        // when none is full are all dropped, so a spent quota does not refill by eviction.
        const now = this.now();
        for (const [key, b] of this.buckets) if (b.full(now)) this.buckets.delete(key);
        if (this.buckets.size >= MAX_LIMITERS) this.buckets.clear();
        this.generation++;
      }
      bucket = new TokenBucket(rate, this.now());
      this.buckets.set(k, bucket);
    }
    bucket.rate = rate;
    return bucket;
  }

  /** Takes `n` from a limiter's bucket (or its owner's); throws (or rejects with) QuotaExceeded when it is short. */
  take(l: RateLimiter, n: number): void | Promise<void> {
    if (l.owner && this.owners) return this.owners.take(l, n, this.takeHere);
    return this.takeHere(l, n);
  }

  private readonly takeHere = (l: RateLimiter, n: number): void => {
    const wait = l.bucket.take(n, this.now());
    if (wait > 0) throw this.over(l, wait);
  };

  /**
   * Throws QuotaExceeded when `n` could not be taken from the limiter's bucket now, taking
   * nothing (a request refused before its body is read). A bucket at another node is not asked:
   * only what this node holds is looked at.
   */
  refuseSpent(l: RateLimiter, n: number): void {
    if (l.owner && this.owners) return;
    const wait = l.bucket.msUntil(n, this.now());
    if (wait > 0) throw this.over(l, wait);
  }

  private over(l: RateLimiter, wait: number): QuotaExceeded {
    return new QuotaExceeded(l.name, wait, `${l.what}: over the ${l.name} quota (${l.rate} per second); retry later`);
  }

  /**
   * The owner's side of a grant (spec §6): up to `want` tokens of (org, ns)'s request-rate
   * bucket, the same bucket this node's own requests for the namespace draw from.
   */
  async grant(org: string, ns: number, key: string, want: number, askedRate: number): Promise<{ granted: number; retry_after_ms: number }> {
    // The ControlStore's value decides, not the lower of two cached views: when the asker's
    // view differs from ours, one of them is stale, so we read it again (at most once per
    // QUOTA_RECHECK_MS per org). A lowered quota applies at once and a raised one too,
    // whichever node learned it first.
    let rate = await this.value(org, ns, 'request_rate');
    if (rate !== askedRate) {
      // Not again for the same disagreement within QUOTA_RECHECK_MS (the store already
      // confirmed our value against this asked rate); a different asked rate reads again.
      const e = this.overrides.get(org);
      if (e && !(e.recheckedAgainst === askedRate && this.now() - e.at < QUOTA_RECHECK_MS)) {
        this.overrides.delete(org);
        rate = await this.value(org, ns, 'request_rate');
        const fresh = this.overrides.get(org);
        if (fresh) fresh.recheckedAgainst = askedRate;
      }
    }
    const k = `request_rate\u0000owner\u0000${key}`;
    const bucket = this.bucketAt(k, rate);
    const now = this.now();
    const granted = bucket.takeUpTo(want, now);
    return { granted, retry_after_ms: granted > 0 ? 0 : bucket.msUntil(1, now) };
  }

  /**
   * A query-slot semaphore sized by its quota: a collection's (`concurrent_query_slots`) or a
   * namespace's (`namespace_query_slots`), by `key`; kept like a RateLimiter.
   */
  async slotLimiter(org: string, ns: number, name: SlotQuota, key: string, collection?: number): Promise<SlotLimiter> {
    const value = await this.value(org, ns, name);
    // A collection's slots are its owner's (spec §6): whole at the owner, where the router sends
    // its queries; a node serving it otherwise (a stale view, an owner down) takes its share
    // (never below one slot unless the quota is 0). The namespace semaphore is per gateway by definition.
    const owned = collection !== undefined && this.owners?.ownsCollection(ns, collection) === true;
    const slots = name === 'concurrent_query_slots' && value > 0 && !owned ? Math.max(1, Math.ceil(value / this.gateways)) : value;
    const k = `${name}\u0000${key}`;
    let sem = this.sems.get(k);
    if (!sem) {
      if (this.sems.size >= MAX_LIMITERS) {
        for (const [k, v] of this.sems) if (v.idle) this.sems.delete(k);
        this.generation++;
      }
      sem = new Semaphore(slots);
      this.sems.set(k, sem);
    }
    sem.slots = slots;
    return { name, sem, slots };
  }

  /**
   * A query's slots in each semaphore, in the order given (always namespace, then collection,
   * so two queries never hold one each and wait for the other's): at once when all are free
   * (no promise on the hot path), else waiting up to QUERY_SLOT_WAIT_MS in all. Throws
   * or rejects with QuotaExceeded naming the quota that had no slot; nothing stays held then.
   */
  slots(ls: readonly SlotLimiter[], cost: number): (() => void) | Promise<() => void> {
    const held: (() => void)[] = [];
    for (const l of ls) {
      const got = l.sem.tryAcquire(cost);
      if (!got) return this.waitSlots(ls, cost, held);
      held.push(got);
    }
    return releaseAll(held);
  }

  private async waitSlots(ls: readonly SlotLimiter[], cost: number, held: (() => void)[]): Promise<() => void> {
    const deadline = this.now() + QUERY_SLOT_WAIT_MS;
    for (let i = held.length; i < ls.length; i++) {
      const l = ls[i]!;
      const got = await l.sem.acquire(cost, Math.max(0, deadline - this.now()));
      if (!got) {
        for (const r of held) r();
        const per = l.name === 'namespace_query_slots' ? 'per namespace on this gateway' : 'per collection';
        throw new QuotaExceeded(l.name, QUERY_SLOT_WAIT_MS, `over the ${l.name} quota (${l.slots} ${per}); retry later`);
      }
      held.push(got);
    }
    return releaseAll(held);
  }
}

export interface RateLimiter {
  name: QuotaName;
  /** Per second, on this gateway. */
  rate: number;
  bucket: TokenBucket;
  /** What is counted, for the refusal's message. */
  what: string;
  /** With the bucket at another node (spec §6): that node, what it keys the bucket by, and its full rate; `bucket` is the fallback then. */
  owner?: { id: string; url: string };
  org?: string;
  ns?: number;
  key?: string;
  ownerRate?: number;
}

export type SlotQuota = 'concurrent_query_slots' | 'namespace_query_slots';

export interface SlotLimiter {
  name: SlotQuota;
  sem: Semaphore;
  slots: number;
}

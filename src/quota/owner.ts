// Request-rate buckets at the owner (spec §6, §5.3): a namespace's request_rate bucket lives
// at the rendezvous owner of its namespace key among the gateways. Another gateway does not
// ask the owner per request: it holds a small lease of tokens the owner granted (at most
// LEASE_FRACTION of a second's rate, expiring after LEASE_TTL_MS) and asks for more before it
// runs out, every namespace's asks to one owner batched into one call with a deadline. When
// the owner does not answer, the gateway falls back to the per-gateway bucket (quota ÷
// gateways) for OWNER_DOWN_MS, then asks again.
import { QuotaExceeded, type OwnerHooks, type RateLimiter } from './quota.js';

/** A grant is at most this share of a second's rate (50 ms of it): what one gateway may hold unused. */
export const LEASE_FRACTION = 0.05;
/** Granted tokens not used within this expire (they are not returned: the bucket refills on its own). */
export const LEASE_TTL_MS = 500;
/** An ask is answered within this, or the owner counts as unreachable. */
export const OWNER_ASK_DEADLINE_MS = 250;
/** After an ask failed, the per-gateway fallback serves for this long before the owner is asked again. */
export const OWNER_DOWN_MS = 2_000;
/** Asks that arrive within this are sent as one batch per owner… */
export const OWNER_ASK_BATCH_MS = 1;
/** …of at most this many items (more go in the next batch). */
export const MAX_GRANT_ITEMS = 256;
/** Asks waiting to be sent, at most; past it a request is charged to the fallback bucket. */
export const MAX_PENDING_ASKS = 10_000;
/** Leases kept, at most (cleared when exceeded: each is at most a few tokens). */
export const MAX_LEASES = 100_000;
/** The owner's route for grants (between nodes; authenticated by the asking node's credential). */
export const GRANT_PATH = '/v1/internal/quota/grant';

/** A node a bucket lives at. */
export interface OwnerTarget {
  id: string;
  url: string;
}

/** One item of a batch: tokens wanted from the bucket (org, ns, name, key). */
export interface GrantAsk {
  org: string;
  ns: number;
  name: 'request_rate';
  key: string;
  want: number;
  /** The asker's view of the full rate: the owner uses the lower of it and its own (a lowered quota applies at once, whichever node learned it first). */
  rate: number;
}

export interface GrantAnswer {
  granted: number;
  /** With nothing granted: when the bucket has a token again. */
  retry_after_ms: number;
}

/** Sends one batch to an owner (HTTP in the node); rejects when the owner does not answer. */
export type AskOwner = (to: OwnerTarget, items: GrantAsk[], deadlineMs: number) => Promise<GrantAnswer[]>;

interface Lease {
  tokens: number;
  /** The rate the tokens were granted at: a lowered quota drops what exceeds its grant. */
  rate: number;
  expires: number;
  refill: Promise<void> | null;
  /** The owner's last refusal: no ask before this. */
  refusedUntil: number;
}

interface Pending {
  ask: GrantAsk;
  resolve: (a: GrantAnswer) => void;
  reject: (e: unknown) => void;
}

/** A rate limiter whose bucket is at another node (Quotas.rateLimiter fills these in). */
type LeasedLimiter = RateLimiter & Required<Pick<RateLimiter, 'owner' | 'org' | 'ns' | 'key' | 'ownerRate'>>;

export class OwnerLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly down = new Map<string, number>();
  private readonly queues = new Map<string, { to: OwnerTarget; items: Pending[]; timer: NodeJS.Timeout | null }>();
  private pending = 0;
  /** Batches sent, asks, asks the owner answered, and takes charged to the fallback (tests, metrics). */
  readonly counts = { batches: 0, asks: 0, answered: 0, fallbacks: 0 };

  constructor(
    private readonly ask: AskOwner,
    private readonly now: () => number,
  ) {}

  /** Whether asks to this owner are suspended after a failure. */
  isDown(id: string): boolean {
    const until = this.down.get(id);
    if (until === undefined) return false;
    if (this.now() < until) return true;
    this.down.delete(id);
    return false;
  }

  /**
   * Takes n tokens for a leased limiter: from the lease at once when it holds them (asking for
   * more in the background when it runs low), else after a batched ask. Throws (or rejects
   * with) QuotaExceeded when the owner has none; charges the fallback bucket while the owner
   * is unreachable.
   */
  take(limiter: RateLimiter, n: number, fallback: (l: RateLimiter, n: number) => void): void | Promise<void> {
    const l = limiter as LeasedLimiter;
    if (this.isDown(l.owner.id)) {
      this.counts.fallbacks++;
      return fallback(l, n);
    }
    const lk = `${l.owner.id}\u0000${l.key}`;
    let lease = this.leases.get(lk);
    const now = this.now();
    if (!lease) {
      if (this.leases.size >= MAX_LEASES) this.leases.clear();
      lease = { tokens: 0, rate: l.ownerRate, expires: 0, refill: null, refusedUntil: 0 };
      this.leases.set(lk, lease);
    }
    if (lease.expires <= now) lease.tokens = 0;
    const grant = Math.max(1, Math.ceil(l.ownerRate * LEASE_FRACTION));
    if (l.ownerRate < lease.rate) lease.tokens = Math.min(lease.tokens, grant);
    // The owner's last refusal was at the old rate: a raised quota may be granted at once.
    if (l.ownerRate > lease.rate) lease.refusedUntil = 0;
    lease.rate = l.ownerRate;
    if (lease.tokens >= n) {
      lease.tokens -= n;
      if (lease.tokens < grant / 2 && !lease.refill && now >= lease.refusedUntil) void this.refill(l, lease, grant).catch(() => undefined);
      return;
    }
    if (now < lease.refusedUntil) throw this.refused(l, lease.refusedUntil - now);
    return this.refill(l, lease, Math.max(grant, n)).then(
      () => {
        const at = this.now();
        if (lease.tokens >= n && lease.expires > at) {
          lease.tokens -= n;
          return;
        }
        throw this.refused(l, Math.max(1, lease.refusedUntil - at));
      },
      () => {
        this.counts.fallbacks++;
        return fallback(l, n);
      },
    );
  }

  private refused(l: LeasedLimiter, waitMs: number): QuotaExceeded {
    return new QuotaExceeded(l.name, waitMs, `${l.what}: over the ${l.name} quota (${l.ownerRate} per second); retry later`);
  }

  /** One ask for `want` tokens (shared by concurrent takers); rejects when the owner does not answer. */
  private refill(l: LeasedLimiter, lease: Lease, want: number): Promise<void> {
    if (lease.refill) return lease.refill;
    const p = this.enqueue(l.owner, { org: l.org, ns: l.ns, name: 'request_rate', key: l.key, want, rate: l.ownerRate }).then(
      (a) => {
        this.counts.answered++;
        const now = this.now();
        if (lease.expires <= now) lease.tokens = 0;
        lease.tokens += a.granted;
        lease.expires = now + LEASE_TTL_MS;
        if (a.granted === 0) lease.refusedUntil = now + Math.max(1, a.retry_after_ms);
      },
      (e: unknown) => {
        this.down.set(l.owner.id, this.now() + OWNER_DOWN_MS);
        throw e;
      },
    );
    lease.refill = p.finally(() => {
      lease.refill = null;
    });
    return lease.refill;
  }

  private enqueue(to: OwnerTarget, ask: GrantAsk): Promise<GrantAnswer> {
    if (this.pending >= MAX_PENDING_ASKS) return Promise.reject(new Error('too many quota asks waiting'));
    this.counts.asks++;
    return new Promise((resolve, reject) => {
      let q = this.queues.get(to.id);
      if (!q) {
        q = { to, items: [], timer: null };
        this.queues.set(to.id, q);
      }
      q.items.push({ ask, resolve, reject });
      this.pending++;
      if (q.items.length >= MAX_GRANT_ITEMS) this.flush(to.id);
      else if (!q.timer) {
        // Not unref'd: a request waits on it (1 ms).
        q.timer = setTimeout(() => this.flush(to.id), OWNER_ASK_BATCH_MS);
      }
    });
  }

  private flush(id: string): void {
    const q = this.queues.get(id);
    if (!q) return;
    if (q.timer) clearTimeout(q.timer);
    q.timer = null;
    const batch = q.items.splice(0, MAX_GRANT_ITEMS);
    if (q.items.length === 0) this.queues.delete(id);
    else q.timer = setTimeout(() => this.flush(id), 0);
    this.pending -= batch.length;
    this.counts.batches++;
    this.ask(
      q.to,
      batch.map((b) => b.ask),
      OWNER_ASK_DEADLINE_MS,
    ).then(
      (answers) => {
        batch.forEach((b, i) => {
          const a = answers[i];
          if (a && Number.isFinite(a.granted) && a.granted >= 0) b.resolve(a);
          else b.reject(new Error(`the owner's answer has no item ${i}`));
        });
      },
      (e: unknown) => {
        for (const b of batch) b.reject(e);
      },
    );
  }
}

/** The hooks Quotas needs, from a node's view of who owns what. */
export function ownerHooks(leases: OwnerLeases, owners: { ownerOf(ns: number): OwnerTarget | null; ownsCollection(ns: number, collection: number): boolean }): OwnerHooks {
  return {
    ownerOf: (ns) => owners.ownerOf(ns),
    ownsCollection: (ns, c) => owners.ownsCollection(ns, c),
    take: (l, n, fallback) => leases.take(l, n, fallback),
  };
}

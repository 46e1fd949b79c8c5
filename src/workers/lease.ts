// Leases for maintenance tasks (DESIGN §1: each task under a lease whose epoch fences its
// effects). A Leases instance belongs to one node incarnation (a fresh owner id per process
// start, so a restarted node takes its tasks over under NEW epochs).
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Fence, LeaseScope } from '../meta/types.js';

/** Default lease time-to-live: a crashed node's tasks move after at most this long. */
export const DEFAULT_LEASE_TTL_MS = 10_000;
/** A held lease is extended when less than this fraction of its TTL is left. */
export const RENEW_FRACTION = 0.5;
/** Releases sent at once by releaseAll and releaseWhere. */
export const RELEASE_CONCURRENCY = 64;

interface Held {
  fence: Fence;
  /** Local clock time before which we consider the lease ours without asking. */
  goodUntil: number;
}

export class Leases {
  private readonly held = new Map<string, Held>();
  constructor(
    private readonly meta: MetaStore,
    readonly owner: string,
    readonly ttlMs = DEFAULT_LEASE_TTL_MS,
  ) {}

  /**
   * The fence of a lease this node holds (acquiring or extending it as needed), or null
   * when another node holds it. A lost lease (FenceMismatch) is forgotten.
   */
  async hold(scope: LeaseScope, key: string): Promise<Fence | null> {
    const k = `${scope}|${key}`;
    const h = this.held.get(k);
    const now = Date.now();
    if (h && now < h.goodUntil - this.ttlMs * (1 - RENEW_FRACTION)) return h.fence;
    try {
      const l = h
        ? await this.meta.renewLease(scope, key, this.owner, h.fence.epoch, this.ttlMs)
        : await this.meta.acquireLease(scope, key, this.owner, this.ttlMs);
      const fence = { scope, key, epoch: l.epoch };
      // Trust it a little less than the TTL: stamps are bounded-skew (spec §3.2), and a
      // fenced effect is refused anyway once the epoch moves on.
      this.held.set(k, { fence, goodUntil: now + this.ttlMs * 0.9 });
      return fence;
    } catch (e) {
      this.held.delete(k);
      if (isMetaError(e, 'LeaseHeld') || isMetaError(e, 'FenceMismatch')) {
        if (h && isMetaError(e, 'FenceMismatch')) return this.hold(scope, key); // expired: try to take it again
        return null;
      }
      if (isMetaError(e, 'NotFound')) return null; // the namespace is gone
      throw e;
    }
  }

  /** Forget a lease whose fence was refused. */
  lost(scope: LeaseScope, key: string): void {
    this.held.delete(`${scope}|${key}`);
  }

  /**
   * Releases every held lease (clean shutdown), so other nodes take over at once. Leases past
   * their deadline are only forgotten (nobody needs them released), and the rest are released
   * RELEASE_CONCURRENCY at a time, so a shutdown holding many ends within its deadline.
   */
  async releaseAll(): Promise<void> {
    await this.releaseWhere(() => true);
  }

  /** Releases the held leases `pick` chooses (ownership moved away: the new owner takes them at once). */
  async releaseWhere(pick: (scope: LeaseScope, key: string) => boolean): Promise<number> {
    const now = Date.now();
    const live: Held[] = [];
    for (const [k, h] of this.held) {
      if (!pick(h.fence.scope, h.fence.key)) continue;
      this.held.delete(k);
      if (now < h.goodUntil) live.push(h);
    }
    for (let i = 0; i < live.length; i += RELEASE_CONCURRENCY) {
      await Promise.allSettled(live.slice(i, i + RELEASE_CONCURRENCY).map((h) => this.meta.releaseLease(h.fence.scope, h.fence.key, this.owner, h.fence.epoch)));
    }
    return live.length;
  }

  /** Forgets leases past their deadline (they lapsed: another node may take them), bounding what is held. */
  forgetLapsed(now = Date.now()): void {
    for (const [k, h] of this.held) if (now >= h.goodUntil) this.held.delete(k);
  }

  /** Leases this node believes it holds. */
  size(): number {
    return this.held.size;
  }

  /** The epochs this node holds (for tests and /debug). */
  epochs(): Record<string, number> {
    return Object.fromEntries([...this.held.entries()].map(([k, h]) => [k, h.fence.epoch]));
  }
}

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

  /** Releases every held lease (clean shutdown), so other nodes take over at once. */
  async releaseAll(): Promise<void> {
    const all = [...this.held.values()];
    this.held.clear();
    await Promise.allSettled(all.map((h) => this.meta.releaseLease(h.fence.scope, h.fence.key, this.owner, h.fence.epoch)));
  }

  /** The epochs this node holds (for tests and /debug). */
  epochs(): Record<string, number> {
    return Object.fromEntries([...this.held.entries()].map(([k, h]) => [k, h.fence.epoch]));
  }
}

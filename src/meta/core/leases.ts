// The lease rules (contract: acquireLease, renewLease, releaseLease; spec §3.2, §10), once.
// Each rule takes the lease row as the backend read it inside its transaction (or before its
// conditional write) and the proposer's stamp, and returns the row to write or throws the
// typed refusal. A dialect reads the row, calls the rule, and writes its result on the
// condition that the row is still what it read. The linearizability checker keeps its own
// model of these rules (src/check): that is the specification this code is checked against.
import { errors } from '../errors.js';
import type { MetaStore } from '../contract.js';
import type { EntityState, Lease, LeaseScope, Stamp, WriteContext } from '../types.js';

/**
 * Leases live in a namespace or in the cluster. A namespace's leases exist only while the
 * namespace is live: acquiring, renewing or releasing one in an absent or dropping namespace
 * is NotFound on every backend (issue 12: the SQL backends refused, DynamoDB accepted).
 * `state` is the namespace's state as read in the same transaction (null: absent);
 * ignored for 'cluster'.
 */
export function checkLeaseScope(scope: LeaseScope, state: EntityState | null): void {
  if (scope === 'cluster') return;
  if (state !== 'live') throw errors.notFound(`namespace ${scope}`);
}

/** Whether a lease is held at `stamp`: an owner and a deadline not yet passed by the stamp (spec §3.2). */
export function leaseAlive(cur: Lease | null, stamp: Stamp): cur is Lease & { owner: string } {
  return cur !== null && cur.owner !== null && cur.deadline >= stamp;
}

/**
 * acquireLease: the current owner extends at the same epoch; a free, released or expired
 * lease is taken over at epoch + 1 (expiry judged on the proposer's stamp); else LeaseHeld.
 */
export function acquireRule(cur: Lease | null, scope: LeaseScope, key: string, owner: string, ttlMs: number, stamp: Stamp): Lease {
  if (leaseAlive(cur, stamp)) {
    if (cur.owner === owner) return { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) };
    throw errors.leaseHeld(key, cur.owner, cur.epoch, cur.deadline);
  }
  return { scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs };
}

/** renewLease: only while owner and epoch match and the lease has not expired; else FenceMismatch. */
export function renewRule(cur: Lease | null, key: string, owner: string, epoch: number, ttlMs: number, stamp: Stamp): Lease {
  if (!cur || cur.owner !== owner || cur.epoch !== epoch || cur.deadline < stamp) {
    throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
  }
  return { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) };
}

/**
 * releaseLease: frees the lease and keeps its epoch, so the next taker gets epoch + 1.
 * Idempotent: releasing a released lease at the same epoch is fine; a stale epoch or
 * another owner is FenceMismatch.
 */
export function releaseRule(cur: Lease | null, key: string, owner: string, epoch: number): Lease {
  if (!cur || cur.epoch !== epoch || (cur.owner !== owner && cur.owner !== null)) {
    throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
  }
  return { ...cur, owner: null, deadline: 0 };
}

/** A fence holds while the lease is at the fence's epoch (casPointer with a fence). */
export function checkFence(what: string, lease: { epoch: number; owner: string | null } | null, epoch: number): void {
  if (!lease || lease.epoch !== epoch) throw errors.fenceMismatch(what, epoch, lease?.epoch ?? 0, lease?.owner ?? null);
}

// ---------------------------------------------------------------- the calls, over a dialect

/** What a dialect supplies for leases: one row read and one conditional write. */
export interface LeaseStorage {
  /**
   * One atomic step of `op`: read the lease row and (for a namespace scope) the namespace's
   * state, call `decide` with them and the call's stamp, and write the lease it returns on
   * the condition that neither changed since the read (a SQL transaction gives that by
   * itself; a single-item store conditions its write on the row and retries the step).
   */
  updateLease(
    op: 'acquireLease' | 'renewLease' | 'releaseLease',
    scope: LeaseScope,
    key: string,
    w: WriteContext | undefined,
    decide: (cur: Lease | null, namespace: EntityState | null, stamp: Stamp) => Lease,
  ): Promise<Lease>;
  readLease(scope: LeaseScope, key: string): Promise<Lease | null>;
}

export type LeaseCalls = Pick<MetaStore, 'acquireLease' | 'renewLease' | 'releaseLease' | 'lease'>;

/** The four lease calls of the contract, over a dialect's LeaseStorage. */
export function leaseCalls(s: LeaseStorage): LeaseCalls {
  return {
    acquireLease: (scope, key, owner, ttlMs, w) =>
      s.updateLease('acquireLease', scope, key, w, (cur, ns, stamp) => {
        checkLeaseScope(scope, ns);
        return acquireRule(cur, scope, key, owner, ttlMs, stamp);
      }),
    renewLease: (scope, key, owner, epoch, ttlMs, w) =>
      s.updateLease('renewLease', scope, key, w, (cur, ns, stamp) => {
        checkLeaseScope(scope, ns);
        return renewRule(cur, key, owner, epoch, ttlMs, stamp);
      }),
    releaseLease: async (scope, key, owner, epoch, w) => {
      await s.updateLease('releaseLease', scope, key, w, (cur, ns) => {
        checkLeaseScope(scope, ns);
        return releaseRule(cur, key, owner, epoch);
      });
    },
    lease: (scope, key) => s.readLease(scope, key),
  };
}

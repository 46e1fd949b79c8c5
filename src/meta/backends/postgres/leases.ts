// Leases of the PostgreSQL backend: acquire, renew, release and read (spec §3.2).
//
// Table leases (scope, key) → (owner, epoch, deadline); a released lease keeps its row with
// owner NULL, so epochs never go back. Every write reads the row, decides, and writes
// conditionally on the row being exactly as read (UPDATE … WHERE epoch, owner and deadline
// are as read; INSERT … ON CONFLICT DO NOTHING for a first acquire); if it changed under us,
// acquire decides again on the row locked FOR UPDATE (bounded rounds). A namespace-scoped
// lease needs a live namespace.
import { errors } from '../../errors.js';
import type { Lease, LeaseScope, WriteContext } from '../../types.js';
import * as v from '../../validate.js';
import { scopeKey } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { liveNamespace } from './shared.js';
import type { WriteTx } from './tx.js';

/** Re-decisions of a lease write whose row changed under it. */
const MAX_LEASE_ROUNDS = 3;

async function checkScope(tx: WriteTx, scope: LeaseScope): Promise<void> {
  if (scope !== 'cluster') await liveNamespace(tx, scope);
}

async function leaseRow(tx: WriteTx, scope: LeaseScope, key: string, lock: boolean): Promise<Lease | null> {
  const r = await tx.one<{ owner: string | null; epoch: number; deadline: number }>(
    `SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2${lock ? ' FOR UPDATE' : ''}`,
    [scopeKey(scope), key],
  );
  return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
}

export async function acquireLease(ctx: PgContext, scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.ttl(ttlMs);
  return ctx.write('acquireLease', w, async (tx) => {
    const stamp = tx.stamp;
    await checkScope(tx, scope);
    // Read, decide, write conditionally on the row being as read; if it changed under us,
    // decide again on the row locked (bounded).
    for (let round = 0; round < MAX_LEASE_ROUNDS; round++) {
      const cur = await leaseRow(tx, scope, key, round > 0);
      if (round === 0) await tx.beforeWrite();
      const alive = cur !== null && cur.owner !== null && cur.deadline >= stamp;
      if (alive && cur.owner !== owner) throw errors.leaseHeld(key, cur.owner!, cur.epoch, cur.deadline);
      // The current owner extends at the same epoch; anyone else takes over free, released
      // or expired leases (judged on the proposer's stamp, spec §3.2) at the next epoch.
      const next: Lease = alive
        ? { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) }
        : { scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs };
      const done = cur === null
        ? await tx.one(
            `INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (scope, key) DO NOTHING RETURNING epoch`,
            [scopeKey(scope), key, next.owner, next.epoch, next.deadline],
          )
        : await tx.one(
            `UPDATE leases SET owner = $3, epoch = $4, deadline = $5
             WHERE scope = $1 AND key = $2 AND epoch = $6 AND owner IS NOT DISTINCT FROM $7 AND deadline = $8 RETURNING epoch`,
            [scopeKey(scope), key, next.owner, next.epoch, next.deadline, cur.epoch, cur.owner, cur.deadline],
          );
      if (done) return next;
    }
    throw errors.retryable('conflict', `lease ${key} kept changing under acquireLease`);
  });
}

export async function renewLease(ctx: PgContext, scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.id('epoch', epoch);
  v.ttl(ttlMs);
  return ctx.write('renewLease', w, async (tx) => {
    await checkScope(tx, scope);
    await tx.beforeWrite();
    const r = await tx.one<{ deadline: number }>(
      `UPDATE leases SET deadline = greatest(deadline, $5::bigint + $6::bigint)
       WHERE scope = $1 AND key = $2 AND owner = $3 AND epoch = $4 AND deadline >= $5 RETURNING deadline`,
      [scopeKey(scope), key, owner, epoch, tx.stamp, ttlMs],
    );
    if (!r) {
      const cur = await leaseRow(tx, scope, key, false);
      throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
    }
    return { scope, key, owner, epoch, deadline: r.deadline };
  });
}

export async function releaseLease(ctx: PgContext, scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.id('epoch', epoch);
  return ctx.write('releaseLease', w, async (tx) => {
    await checkScope(tx, scope);
    await tx.beforeWrite();
    const r = await tx.one(
      `UPDATE leases SET owner = NULL, deadline = 0
       WHERE scope = $1 AND key = $2 AND epoch = $3 AND (owner = $4 OR owner IS NULL) RETURNING epoch`,
      [scopeKey(scope), key, epoch, owner],
    );
    if (!r) {
      const cur = await leaseRow(tx, scope, key, false);
      throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
    }
  });
}

export async function lease(ctx: PgContext, scope: LeaseScope, key: string): Promise<Lease | null> {
  v.leaseScope(scope);
  v.key('key', key);
  const r = await ctx.readOne<{ owner: string | null; epoch: number; deadline: number }>(
    'SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2',
    [scopeKey(scope), key],
  );
  return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
}

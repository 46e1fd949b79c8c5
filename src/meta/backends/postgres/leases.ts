// Leases of the PostgreSQL backend: the core's four lease calls (core/leases.ts leaseCalls)
// over the leases table (spec §3.2).
//
// Table leases (scope, key) → (owner, epoch, deadline), scope 'cluster' or 'ns/<id>'
// (sql/rows.ts scopeKey); a released lease keeps its row with owner NULL, so epochs never go
// back. updateLease reads the namespace's state and the row (plain reads), calls the rule,
// and writes its result on the condition that the row is exactly as read (UPDATE … WHERE
// epoch, owner and deadline are as read; INSERT … ON CONFLICT DO NOTHING for a first acquire).
// If the row changed under it (the Race point sits between the read and the write), it
// decides again on the row locked FOR UPDATE, a bounded number of rounds. Lease writes store
// no commit token: they are idempotent by their own condition (core/tokens.ts).
import { errors } from '../../errors.js';
import { leaseCalls, type LeaseCalls, type LeaseStorage } from '../../core/leases.js';
import type { EntityState, Lease, LeaseScope } from '../../types.js';
import { scopeKey } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { writable } from './shared.js';
import type { WriteTx } from './tx.js';

/** Re-decisions of a lease write whose row changed under it. */
const MAX_LEASE_ROUNDS = 3;

async function leaseRow(tx: WriteTx, scope: LeaseScope, key: string, lock: boolean): Promise<Lease | null> {
  const r = await tx.one<{ owner: string | null; epoch: number; deadline: number }>(
    `SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2${lock ? ' FOR UPDATE' : ''}`,
    [scopeKey(scope), key],
  );
  return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
}

async function namespaceState(tx: WriteTx, scope: LeaseScope): Promise<EntityState | null> {
  if (scope === 'cluster') return null;
  const r = await tx.one<{ state: EntityState }>('SELECT state FROM namespaces WHERE id = $1', [scope]);
  return r?.state ?? null;
}

export function postgresLeaseCalls(ctx: PgContext): LeaseCalls {
  const storage: LeaseStorage = {
    updateLease: (op, scope, key, w, decide) =>
      ctx.write(op, w, async (tx) => {
        if (scope !== 'cluster') await writable(tx, scope);
        const ns = await namespaceState(tx, scope);
        for (let round = 0; round < MAX_LEASE_ROUNDS; round++) {
          const cur = await leaseRow(tx, scope, key, round > 0);
          const next = decide(cur, ns, tx.stamp);
          if (round === 0) await tx.beforeWrite();
          const done =
            cur === null
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
        throw errors.retryable('conflict', `lease ${key} kept changing under ${op}`);
      }),
    readLease: async (scope, key) => {
      const r = await ctx.readOne<{ owner: string | null; epoch: number; deadline: number }>(
        'SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2',
        [scopeKey(scope), key],
      );
      return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
    },
  };
  return leaseCalls(storage);
}

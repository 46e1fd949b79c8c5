// The embedded backend's leases: the core's four lease calls (core/leases.ts leaseCalls) over
// the leases table, keyed (scope, key) with scope 'cluster' or 'ns/<id>' (sql/rows.ts
// scopeKey). updateLease reads the row and the namespace's state and writes the rule's
// result in one BEGIN IMMEDIATE transaction, so no condition on the write is needed.
import { leaseCalls, type LeaseCalls, type LeaseStorage } from '../../core/leases.js';
import type { Lease, LeaseScope } from '../../types.js';
import { scopeKey } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

export function embeddedLeaseCalls(ctx: SqliteContext): LeaseCalls {
  const row = (scope: LeaseScope, key: string): Lease | null => {
    const r = ctx.get<{ owner: string | null; epoch: number; deadline: number }>(
      'SELECT owner, epoch, deadline FROM leases WHERE scope = ? AND key = ?',
      scopeKey(scope),
      key,
    );
    return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
  };
  const storage: LeaseStorage = {
    updateLease: (op, scope, key, w, decide) =>
      ctx.write(op, w, (stamp) => {
        if (scope !== 'cluster') ctx.writable(scope);
        const l = decide(row(scope, key), scope === 'cluster' ? null : ctx.namespaceState(scope), stamp);
        ctx.run(
          `INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (scope, key) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch, deadline = excluded.deadline`,
          scopeKey(l.scope),
          l.key,
          l.owner,
          l.epoch,
          l.deadline,
        );
        return l;
      }),
    readLease: (scope, key) => ctx.read(() => row(scope, key)),
  };
  return leaseCalls(storage);
}

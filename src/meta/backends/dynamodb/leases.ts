// Leases (spec §2.3, §3.2, §10): the core's four lease calls (core/leases.ts leaseCalls) over
// the lease item `lease#cluster` / `lease#ns/<ns>`, sort key the lease key. The rules
// (acquire, renew, release, takeover, and no lease in an absent or dropping namespace) are the
// core's; this module reads and writes the items:
//
// - updateLease reads the lease and, for a namespace scope, the namespace item (one consistent
//   BatchGetItem), lets the rule decide, and writes the lease conditioned on exactly what was
//   read (owner, epoch and deadline). A cluster lease is that one conditional UpdateItem. A
//   namespace's lease is a transaction of that update and a ConditionCheck that the namespace
//   is live, so a lease can never be granted in a namespace a concurrent dropNamespace just
//   dropped (see README.md, Choices). A lost race returns the items (ALL_OLD) and the rule
//   decides again. Expiry is judged on the proposer's stamp, never on TTL.
// - The writer's nonce in the item resolves a retry after an unknown outcome.
// - The Alternator profile has no transactions: it checks the namespace by the read alone.
import { randomUUID } from 'node:crypto';
import { leaseCalls, type LeaseCalls, type LeaseStorage } from '../../core/leases.js';
import type { EntityState, Lease, LeaseScope } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { single, txCheck, txUpdate, type Build } from './expr.js';
import { AGAIN, LIVE, toLease } from './items.js';
import { K } from './keys.js';

export function dynamoLeaseCalls(cx: DynamoContext): LeaseCalls {
  const storage: LeaseStorage = {
    updateLease: (op, scope, key, w, decide) =>
      cx.write(op, w, async (ctx) => {
        const inNs = scope !== 'cluster';
        let item: Item | null | undefined;
        let nsItem: Item | null = null;
        return cx.attempts(op, async () => {
          if (item === undefined) {
            const [l, n] = await cx.sdk.batchGet(inNs ? [K.lease(scope, key), K.ns(scope)] : [K.lease(scope, key)]);
            item = l ?? null;
            nsItem = n ?? null;
          }
          const cur = item ? toLease(scope, key, item) : null;
          // Our own earlier attempt applied (its nonce is in the item).
          if (item && ctx.requestId !== undefined && item.nonce === ctx.requestId && item.nonceOp === op) return cur!;
          const l = decide(cur, inNs ? ((nsItem?.state as EntityState | undefined) ?? null) : null, ctx.stamp);
          if (cur && l.owner === cur.owner && l.epoch === cur.epoch && l.deadline === cur.deadline) return cur; // nothing changes
          const nonce = ctx.requestId ?? randomUUID();
          const update: Build = (e) =>
            `SET ${e.a('epoch')} = ${e.v(l.epoch)}, ${e.a('deadline')} = ${e.v(l.deadline)}, ${e.a('nonce')} = ${e.v(nonce)}, ${e.a('nonceOp')} = ${e.v(op)}` +
            (l.owner === null ? ` REMOVE ${e.a('owner')}` : `, ${e.a('owner')} = ${e.v(l.owner)}`);
          const asRead: Build = (e) =>
            cur === null
              ? `attribute_not_exists(${e.a('pk')})`
              : `${e.a('epoch')} = ${e.v(cur.epoch)} AND ${e.a('deadline')} = ${e.v(cur.deadline)} AND ` +
                (cur.owner === null ? `attribute_not_exists(${e.a('owner')})` : `${e.a('owner')} = ${e.v(cur.owner)}`);
          if (!inNs || cx.profile === 'alternator') {
            const r = await cx.sdk.writeOne(op, { update: single(K.lease(scope, key), update, asRead) });
            if (r.ok) return l;
            item = r.conflict ? undefined : r.old;
            return AGAIN;
          }
          const out = await cx.sdk.transact(op, [
            txUpdate('lease', K.lease(scope, key), update, asRead),
            txCheck('ns', K.ns(scope), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          ], `${ctx.tokenBase}\u0000lease`);
          if (out.ok) return l;
          if (out.conflict) {
            item = undefined;
          } else {
            // What we lost to, as it is now: the rule decides again (a dropped namespace: NotFound).
            if (out.failed.has('lease')) item = out.failed.get('lease') ?? null;
            if (out.failed.has('ns')) nsItem = out.failed.get('ns') ?? null;
          }
          return AGAIN;
        });
      }),
    readLease: async (scope: LeaseScope, key: string): Promise<Lease | null> => {
      cx.checkOpen();
      const r = await cx.sdk.get(K.lease(scope, key));
      return r ? toLease(scope, key, r) : null;
    },
  };
  return leaseCalls(storage);
}

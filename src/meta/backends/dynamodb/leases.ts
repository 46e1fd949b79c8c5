// Leases (spec §2.3, §3.2): one conditional UpdateItem each, conditioned on the owner, epoch
// and deadline that were read; a lost race returns the item (ALL_OLD) and the decision is made
// again. Expiry is judged on the proposer's stamp, never on TTL. The writer's nonce in the
// item resolves a retry after an unknown outcome.
import { randomUUID } from 'node:crypto';
import { errors } from '../../errors.js';
import { checkLeaseScope } from '../../core/leases.js';
import type { EntityState, Lease, LeaseScope, Stamp, WriteContext } from '../../types.js';
import * as v from '../../validate.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { single } from './expr.js';
import { AGAIN, toLease } from './items.js';
import { K } from './keys.js';

/**
 * Reads the lease, decides, and writes with a condition on exactly what was read (owner,
 * epoch and deadline, spec §2.3). A lost race returns the item as it is now (ALL_OLD) and
 * the decision is made again. The writer's nonce in the item resolves a retry after an
 * unknown outcome.
 */
async function leaseWrite<T>(
  cx: DynamoContext,
  op: string,
  scope: LeaseScope,
  key: string,
  w: WriteContext | undefined,
  decide: (cur: Lease | null, stamp: Stamp) => { set: Lease } | { result: T },
  done: (l: Lease) => T,
): Promise<T> {
  return cx.write(op, w, async (ctx) => {
    let item: Item | null | undefined;
    let nsState: EntityState | null | undefined;
    return cx.attempts(op, async () => {
      if (item === undefined) item = (await cx.sdk.get(K.lease(scope, key))) ?? null;
      const cur = item ? toLease(scope, key, item) : null;
      if (item && ctx.requestId !== undefined && item.nonce === ctx.requestId && item.nonceOp === op) return done(cur!);
      // Leases live only in a live namespace (core/leases.ts checkLeaseScope), as on every
      // backend. A consistent read before the single-item write: a drop racing this very
      // write may still let it through (no transaction on the alternator profile), never a
      // later one.
      if (scope !== 'cluster' && nsState === undefined) nsState = ((await cx.sdk.get(K.ns(scope)))?.state as EntityState | undefined) ?? null;
      checkLeaseScope(scope, nsState ?? null);
      const d = decide(cur, ctx.stamp);
      if ('result' in d) return d.result;
      const l = d.set;
      const nonce = ctx.requestId ?? randomUUID();
      const r = await cx.sdk.writeOne(op, {
        update: single(
          K.lease(scope, key),
          (e) =>
            `SET ${e.a('epoch')} = ${e.v(l.epoch)}, ${e.a('deadline')} = ${e.v(l.deadline)}, ${e.a('nonce')} = ${e.v(nonce)}, ${e.a('nonceOp')} = ${e.v(op)}` +
            (l.owner === null ? ` REMOVE ${e.a('owner')}` : `, ${e.a('owner')} = ${e.v(l.owner)}`),
          (e) =>
            cur === null
              ? `attribute_not_exists(${e.a('pk')})`
              : `${e.a('epoch')} = ${e.v(cur.epoch)} AND ${e.a('deadline')} = ${e.v(cur.deadline)} AND ` +
                (cur.owner === null ? `attribute_not_exists(${e.a('owner')})` : `${e.a('owner')} = ${e.v(cur.owner)}`),
        ),
      });
      if (r.ok) return done(l);
      item = r.conflict ? undefined : r.old;
      return AGAIN;
    });
  });
}

export async function acquireLease(cx: DynamoContext, scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.ttl(ttlMs);
  return leaseWrite(cx, 
    'acquireLease',
    scope,
    key,
    w,
    (cur, stamp) => {
      const alive = cur !== null && cur.owner !== null && cur.deadline >= stamp;
      if (alive && cur.owner === owner) return { set: { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) } };
      if (alive) throw errors.leaseHeld(key, cur.owner!, cur.epoch, cur.deadline);
      // Free, released or expired (judged on the proposer's stamp, spec §3.2): take over.
      return { set: { scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs } };
    },
    (l) => l,
  );
}

export async function renewLease(cx: DynamoContext, scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.id('epoch', epoch);
  v.ttl(ttlMs);
  return leaseWrite(cx, 
    'renewLease',
    scope,
    key,
    w,
    (cur, stamp) => {
      if (!cur || cur.owner !== owner || cur.epoch !== epoch || cur.deadline < stamp) {
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
      return { set: { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) } };
    },
    (l) => l,
  );
}

export async function releaseLease(cx: DynamoContext, scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
  v.leaseScope(scope);
  v.key('key', key);
  v.tokenString('owner', owner);
  v.id('epoch', epoch);
  return leaseWrite<void>(
    cx,
    'releaseLease',
    scope,
    key,
    w,
    (cur) => {
      if (!cur || cur.epoch !== epoch || (cur.owner !== owner && cur.owner !== null)) {
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
      if (cur.owner === null) return { result: undefined }; // already released: idempotent
      return { set: { ...cur, owner: null, deadline: 0 } };
    },
    () => undefined,
  );
}

export async function lease(cx: DynamoContext, scope: LeaseScope, key: string): Promise<Lease | null> {
  v.leaseScope(scope);
  v.key('key', key);
  cx.checkOpen();
  const r = await cx.sdk.get(K.lease(scope, key));
  return r ? toLease(scope, key, r) : null;
}

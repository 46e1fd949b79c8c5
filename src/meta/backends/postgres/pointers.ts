// Pointers of the PostgreSQL backend: casPointer and pointer (spec §3.3).
//
// Table pointers (ns, key) → (version, value, stamp), and pointer_history: every version of a
// collection's link pointer, kept until manifestRetentionMs after it was superseded (for
// createTag). casPointer: one plain read of the namespace, link, collection, fence lease and
// pointer (early typed errors), then FOR SHARE on the collection and the fence's lease, then
// the compare-and-swap as one conditional UPDATE … WHERE version = $n (or INSERT … ON
// CONFLICT DO NOTHING for a create) and its row count, then the manifests' references. The
// core decides (core/pointers.ts: checkPointerVersion, historyCutoff; core/leases.ts:
// checkFence); this module maps the reads and writes onto SQL.
import { parseLinkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { checkFence } from '../../core/leases.js';
import { checkPointerVersion, historyCutoff } from '../../core/pointers.js';
import { DEFAULT_MANIFEST_RETENTION_MS } from '../../limits.js';
import type { Fence, Pointer, PointerVersion, WriteContext } from '../../types.js';
import { scopeKey, toPointer } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { adjustRefs, writable } from './shared.js';
import { SQL } from './sql.js';

export async function casPointer(
  ctx: PgContext,
  ns: number,
  key: string,
  expectedVersion: number | null,
  value: string,
  opts?: { fence?: Fence } & WriteContext,
): Promise<Pointer> {
  const fence = opts?.fence;
  const link = parseLinkPointerKey(key);
  return ctx.write('casPointer', opts, async (tx) => {
    await writable(tx, ns);
    // Plain reads: early typed errors, in the embedded backend's order.
    const pre = (await tx.one<{
      ns_state: string | null;
      link_state: string | null;
      coll_id: number | null;
      coll_state: string | null;
      lease_epoch: number | null;
      lease_owner: string | null;
      version: number | null;
      value: string | null;
    }>(SQL.CAS_PRE, [ns, key, link ?? 0, fence ? scopeKey(fence.scope) : '', fence?.key ?? '']))!;
    if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
    if (link !== null && (pre.link_state !== 'live' || pre.coll_state !== 'live')) {
      throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
    }
    if (fence) checkFence(`pointer ${key}`, pre.lease_epoch === null ? null : { epoch: pre.lease_epoch, owner: pre.lease_owner }, fence.epoch);
    const version = checkPointerVersion(key, pre.version, expectedVersion);
    await tx.beforeWrite();
    // Locks that make the checks hold until COMMIT: the collection (FOR SHARE: a drop waits,
    // or is seen) and the fence's lease (FOR SHARE: a takeover waits, or is seen).
    let retentionMs = DEFAULT_MANIFEST_RETENTION_MS;
    if (link !== null || fence) {
      type Locked = { coll_state: string | null; retention: number | null; epoch: number | null; owner: string | null };
      const l = (await tx.one<Locked>(SQL.CAS_LOCKS, [
        ns,
        link !== null ? pre.coll_id : 0,
        fence ? scopeKey(fence.scope) : '',
        fence?.key ?? '',
      ]))!;
      if (link !== null) {
        if (l.coll_state !== 'live') throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
        retentionMs = l.retention!;
      }
      if (fence) checkFence(`pointer ${key}`, l.epoch === null ? null : { epoch: l.epoch, owner: l.owner }, fence.epoch);
    }
    // The compare-and-swap: one conditional statement and its row count.
    const cas =
      expectedVersion === null
        ? await tx.one(SQL.CAS_CREATE, [ns, key, value, tx.stamp])
        : await tx.one(SQL.CAS_UPDATE, [value, tx.stamp, ns, key, expectedVersion]);
    if (!cas) {
      // Moved since the plain read: the rule gives the refusal with the version now stored.
      const cur = await tx.one<{ version: number }>('SELECT version FROM pointers WHERE ns = $1 AND key = $2', [ns, key]);
      checkPointerVersion(key, cur?.version ?? null, expectedVersion);
      throw errors.retryable('conflict', `pointer ${key} changed under the compare-and-swap`);
    }
    // (ns, key, version) names one value forever (versions are dense and never reused), so
    // the value the plain read saw at expectedVersion is the one replaced.
    await adjustRefs(tx, [
      { path: value, kind: 'manifest', delta: 1 },
      ...(pre.value !== null ? [{ path: pre.value, kind: 'manifest', delta: -1 }] : []),
    ]);
    await tx.q(SQL.POINTER_HISTORY, [ns, key, version, value, tx.stamp, historyCutoff(tx.stamp, retentionMs)]);
    return { ns, key, version, value, stamp: tx.stamp } satisfies Pointer;
  });
}

export async function pointerVersion(ctx: PgContext, ns: number, key: string, version: number): Promise<PointerVersion | null> {
  const r = await ctx.readOne<{ value: string; superseded: number | null }>(
    'SELECT value, superseded FROM pointer_history WHERE ns = $1 AND key = $2 AND version = $3',
    [ns, key, version],
  );
  return r ? { version, value: r.value, superseded: r.superseded } : null;
}

export async function pointer(ctx: PgContext, ns: number, key: string): Promise<Pointer | null> {
  const r = await ctx.readOne('SELECT * FROM pointers WHERE ns = $1 AND key = $2', [ns, key]);
  return r ? toPointer(r) : null;
}

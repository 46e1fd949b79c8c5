// Pointers of the PostgreSQL backend: casPointer and pointer (spec §3.3).
//
// Table pointers (ns, key) → (version, value, stamp), and pointer_history: every version of a
// collection's link pointer, kept until manifestRetentionMs after it was superseded (for
// createTag). casPointer: one plain read of the namespace, link, collection, fence lease and
// pointer (early typed errors), then FOR SHARE on the collection and the fence's lease, then
// the compare-and-swap as one conditional UPDATE … WHERE version = $n (or INSERT … ON
// CONFLICT DO NOTHING for a create) and its row count, then the manifests' references.
import { parseLinkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
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
  if (fence) {
  }
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
    if (fence && pre.lease_epoch !== fence.epoch) {
      throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, pre.lease_epoch ?? 0, pre.lease_owner ?? null);
    }
    if (pre.version !== expectedVersion) throw errors.versionMismatch(`pointer ${key}`, expectedVersion, pre.version);
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
      if (fence && l.epoch !== fence.epoch) throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, l.epoch ?? 0, l.owner ?? null);
    }
    // The compare-and-swap: one conditional statement and its row count.
    const version = (expectedVersion ?? 0) + 1;
    const cas =
      expectedVersion === null
        ? await tx.one(SQL.CAS_CREATE, [ns, key, value, tx.stamp])
        : await tx.one(SQL.CAS_UPDATE, [value, tx.stamp, ns, key, expectedVersion]);
    if (!cas) {
      const cur = await tx.one<{ version: number }>('SELECT version FROM pointers WHERE ns = $1 AND key = $2', [ns, key]);
      throw errors.versionMismatch(`pointer ${key}`, expectedVersion, cur?.version ?? null);
    }
    // (ns, key, version) names one value forever (versions are dense and never reused), so
    // the value the plain read saw at expectedVersion is the one replaced.
    await adjustRefs(tx, [
      { path: value, kind: 'manifest', delta: 1 },
      ...(pre.value !== null ? [{ path: pre.value, kind: 'manifest', delta: -1 }] : []),
    ]);
    await tx.q(SQL.POINTER_HISTORY, [ns, key, version, value, tx.stamp, tx.stamp - retentionMs]);
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

// Tags and GC of the PostgreSQL backend: createTag, dropTag, listTags; claimObject,
// releaseClaim, objectRef, retiredWalObjects, segmentReferenced; the janitor (spec §3.2.3,
// §3.3).
//
// Table tags (ns, collection, name) → the manifest's version and path, holding a reference
// on it. object_refs is one row per object: its reference count, a GC claim (owner, stamp)
// and a tombstone (deleted) once GC removed it; a claim is one upsert on the row, conditional
// on refs = 0, so a concurrent reference either committed first or sees the claim. The
// janitor deletes the rows of dropped streams and collections in bounded batches
// (JANITOR_BATCH_ENTRIES index entries per call), releasing their references. The core
// decides (core/pointers.ts: checkRetained, claimDecision, releaseDecision); this module
// reads the rows under the locks that keep the decision true until COMMIT, and writes.
import { pageArgs } from '../../core/paging.js';
import { linkPointerKey } from '../../contract.js';
import { checkRetained, claimDecision, releaseDecision, type ClaimState } from '../../core/pointers.js';
import { errors } from '../../errors.js';
import { JANITOR_BATCH_ENTRIES } from '../../limits.js';
import type { ClaimResult, Fence, ObjectRef, Page, PageRequest, Stamp, Tag, WriteContext } from '../../types.js';
import { paged, toCollection, toTag, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { adjustRefs, checkFence, writable, writablePath } from './shared.js';
import type { WriteTx } from './tx.js';

export async function janitor(ctx: PgContext, ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
  return ctx.write('janitor', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    let budget = JANITOR_BATCH_ENTRIES;
    let streams = 0;
    const dropping = await tx.q<{ id: number }>("SELECT id FROM streams WHERE ns = $1 AND state = 'dropping' ORDER BY id FOR UPDATE", [ns]);
    for (const { id } of dropping) {
      const gone = await tx.q<{ path: string }>(
        `DELETE FROM index_entries WHERE (ns, stream, partition, start) IN (
           SELECT ns, stream, partition, start FROM index_entries WHERE ns = $1 AND stream = $2
           ORDER BY partition, start LIMIT $3) RETURNING path`,
        [ns, id, budget],
      );
      await adjustRefs(tx, gone.map((e) => ({ path: e.path, kind: 'unknown', delta: -1 })));
      budget -= gone.length;
      if (budget === 0) {
        const more = await tx.one('SELECT 1 FROM index_entries WHERE ns = $1 AND stream = $2 LIMIT 1', [ns, id]);
        if (more) return { collections: 0, streams, done: false };
      }
      await tx.q('DELETE FROM heads WHERE ns = $1 AND stream = $2', [ns, id]);
      await tx.q('DELETE FROM streams WHERE ns = $1 AND id = $2', [ns, id]);
      streams++;
    }
    // Collections last: their implicit streams are gone by now, so a janitor stopped
    // half-way finds its work again.
    let collections = 0;
    const colls = await tx.q<{ id: number; link_id: number }>(
      "SELECT id, link_id FROM collections WHERE ns = $1 AND state = 'dropping' ORDER BY id FOR UPDATE",
      [ns],
    );
    for (const c of colls) {
      const tags = await tx.q<{ path: string }>('DELETE FROM tags WHERE ns = $1 AND collection = $2 RETURNING path', [ns, c.id]);
      await adjustRefs(tx, tags.map((t) => ({ path: t.path, kind: 'manifest', delta: -1 })));
      await tx.q('DELETE FROM pointer_history WHERE ns = $1 AND key = $2', [ns, linkPointerKey(c.link_id)]);
      await tx.q('DELETE FROM links WHERE ns = $1 AND id = $2', [ns, c.link_id]);
      await tx.q('DELETE FROM collections WHERE ns = $1 AND id = $2', [ns, c.id]);
      collections++;
    }
    return { collections, streams, done: true };
  });
}

export async function segmentReferenced(ctx: PgContext, ns: number, stream: number, path: string): Promise<boolean> {
  const r = await ctx.read('SELECT 1 FROM index_entries WHERE path = $1 AND ns = $2 AND stream = $3 LIMIT 1', [path, ns, stream]);
  return r.length > 0;
}

export async function retiredWalObjects(ctx: PgContext, page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
  const p = pageArgs(page);
  const rows = await ctx.read<{ path: string; retired: number }>(
    `SELECT path, retired FROM object_refs WHERE kind = 'wal' AND retired IS NOT NULL AND refs = 0
       AND claim_owner IS NULL AND NOT deleted AND starts_with(path, $1) AND path > $2 ORDER BY path LIMIT $3`,
    [p.prefix, p.after ?? '', p.limit + 1],
  );
  return paged(
    rows.map((r) => ({ path: r.path, retired: r.retired })),
    p.limit,
    (r) => r.path,
  );
}

export async function createTag(ctx: PgContext, ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
  return ctx.write('createTag', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    // The collection FOR SHARE (a drop waits or is seen), then its pointer FOR SHARE: a
    // concurrent casPointer (which supersedes and prunes history) waits, so the history row
    // read below stays as read until COMMIT. Same lock order as casPointer.
    const c = await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2 FOR SHARE', [ns, collection]);
    if (!c || c.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    const coll = toCollection(c);
    const key = linkPointerKey(coll.linkId);
    const hRow = await tx.one<{ value: string; superseded: number | null }>(
      `SELECT h.value, h.superseded FROM pointer_history h
       WHERE h.ns = $1 AND h.key = $2 AND h.version = $3
         AND EXISTS (SELECT 1 FROM pointers p WHERE p.ns = $1 AND p.key = $2 FOR SHARE)`,
      [ns, key, manifestVersion],
    );
    const path = checkRetained(collection, manifestVersion, hRow ?? null, coll.manifestRetentionMs, tx.stamp);
    const ins = await tx.one(
      `INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES ($1, $2, $3, $4, $5, $6, NULL)
       ON CONFLICT (ns, collection, name) DO NOTHING RETURNING 1`,
      [ns, collection, name, manifestVersion, path, tx.stamp],
    );
    if (!ins) {
      const existing = await tx.one<{ version: number }>('SELECT version FROM tags WHERE ns = $1 AND collection = $2 AND name = $3', [ns, collection, name]);
      throw errors.alreadyExists(`tag ${name} of collection ${collection}`, existing?.version ?? 0);
    }
    await adjustRefs(tx, [{ path, kind: 'manifest', delta: 1 }]);
    return { ns, collection, name, manifestVersion, manifestPath: path, created: tx.stamp, rewrittenBy: null } satisfies Tag;
  });
}

export async function dropTag(ctx: PgContext, ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
  return ctx.write('dropTag', w, async (tx) => {
    await writable(tx, ns);
    const c = await tx.one<{ state: string }>('SELECT state FROM collections WHERE ns = $1 AND id = $2', [ns, collection]);
    if (!c || c.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    await tx.beforeWrite();
    const t = await tx.one<{ path: string }>('DELETE FROM tags WHERE ns = $1 AND collection = $2 AND name = $3 RETURNING path', [ns, collection, name]);
    if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
    await adjustRefs(tx, [{ path: t.path, kind: 'manifest', delta: -1 }]);
  });
}

export async function rewriteTag(
  ctx: PgContext,
  ns: number,
  collection: number,
  name: string,
  fromPath: string,
  toPath: string,
  rewrittenBy: string,
  w?: WriteContext,
): Promise<Tag> {
  return ctx.write('rewriteTag', w, async (tx) => {
    const c = await tx.one<{ state: string }>('SELECT state FROM collections WHERE ns = $1 AND id = $2 FOR SHARE', [ns, collection]);
    if (!c || c.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    await tx.beforeWrite();
    const t = await tx.one<Row>('SELECT * FROM tags WHERE ns = $1 AND collection = $2 AND name = $3 FOR UPDATE', [ns, collection, name]);
    if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
    const tag = toTag(t);
    if (tag.manifestPath === toPath && tag.rewrittenBy === rewrittenBy) return tag;
    if (tag.manifestPath !== fromPath) throw errors.versionMismatch(`tag ${name} of collection ${collection} no longer names ${fromPath}`, null, null);
    await tx.one('UPDATE tags SET path = $1, rewritten_by = $2 WHERE ns = $3 AND collection = $4 AND name = $5 RETURNING 1', [toPath, rewrittenBy, ns, collection, name]);
    await adjustRefs(tx, [
      { path: toPath, kind: 'manifest', delta: 1 },
      { path: fromPath, kind: 'manifest', delta: -1 },
    ]);
    return { ...tag, manifestPath: toPath, rewrittenBy } satisfies Tag;
  });
}

export async function listTags(ctx: PgContext, ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
  const p = pageArgs(page);
  const rows = await ctx.read<{ state: string; t: Row | null }>(
    `SELECT c.state, row_to_json(t) AS t FROM collections c
     LEFT JOIN LATERAL (SELECT * FROM tags WHERE ns = c.ns AND collection = c.id AND starts_with(name, $3) AND name > $4
                        ORDER BY name LIMIT $5) t ON true
     WHERE c.ns = $1 AND c.id = $2 ORDER BY t.name`,
    [ns, collection, p.prefix, p.after ?? '', p.limit + 1],
  );
  if (rows.length === 0 || rows[0]!.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
  return paged(
    rows.flatMap((r) => (r.t ? [toTag(r.t)] : [])),
    p.limit,
    (t) => t.name,
  );
}


/** The path's reference row, locked FOR UPDATE (a row that does not exist yet locks nothing: the upsert's condition covers it). */
async function lockRef(tx: WriteTx, path: string): Promise<ClaimState | null> {
  const r = await tx.one<{ refs: number; claim_owner: string | null; claim_epoch: number | null; deleted: boolean }>(
    'SELECT refs, claim_owner, claim_epoch, deleted FROM object_refs WHERE path = $1 FOR UPDATE',
    [path],
  );
  return r ? { refs: Number(r.refs), claimOwner: r.claim_owner, claimEpoch: r.claim_epoch === null ? null : Number(r.claim_epoch), deleted: r.deleted } : null;
}

export async function claimObject(ctx: PgContext, path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult> {
  const fence = opts?.fence;
  return ctx.write('claimObject', opts, async (tx) => {
    await writablePath(tx, path);
    await tx.beforeWrite();
    await checkFence(tx, fence, `claim on ${path}`);
    const d = claimDecision(path, owner, fence, await lockRef(tx, path));
    if ('claimed' in d) return d;
    // Atomic with "still unreferenced": the upsert's condition is evaluated on the newest
    // version of the row. A row inserted since the read (a first reference, or another
    // claim) either committed first (the condition fails: decide again on it, now locked)
    // or waits and then sees the claim (Claimed).
    const ok = await tx.one(
      `INSERT INTO object_refs AS o (path, kind, refs, claim_owner, claim_stamp, claim_epoch) VALUES ($1, 'unknown', 0, $2, $3, $4::bigint)
       ON CONFLICT (path) DO UPDATE SET claim_owner = excluded.claim_owner, claim_stamp = excluded.claim_stamp, claim_epoch = excluded.claim_epoch
       WHERE o.refs = 0 AND (o.claim_owner IS NULL OR $5::boolean) AND NOT o.deleted RETURNING 1`,
      [path, owner, tx.stamp, fence?.epoch ?? null, d.takeover],
    );
    if (ok) return { claimed: true, path, owner, stamp: tx.stamp, ...(d.takeover ? { takeover: true } : {}) } satisfies ClaimResult;
    const again = claimDecision(path, owner, fence, await lockRef(tx, path));
    if ('claimed' in again) return again;
    throw errors.retryable('conflict', `claim on ${path}: the reference row changed under the claim`);
  });
}

export async function releaseClaim(ctx: PgContext, path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
  return ctx.write('releaseClaim', w, async (tx) => {
    await writablePath(tx, path);
    await tx.beforeWrite();
    if (releaseDecision(path, owner, opts.deleted, await lockRef(tx, path)) === 'repeat') return;
    if (opts.deleted) {
      // A tombstone: the path stays unreferenceable until it is pruned (after the commit-record TTL).
      await tx.q('UPDATE object_refs SET claim_owner = NULL, claim_stamp = $1, deleted = true, retired = NULL WHERE path = $2', [tx.stamp, path]);
    } else {
      await tx.q('UPDATE object_refs SET claim_owner = NULL, claim_stamp = NULL, claim_epoch = NULL WHERE path = $1', [path]);
    }
  });
}

export async function objectRef(ctx: PgContext, path: string): Promise<ObjectRef | null> {
  const r = await ctx.readOne<{ refs: number; claim_owner: string | null; claim_stamp: number | null }>(
    'SELECT refs, claim_owner, claim_stamp FROM object_refs WHERE path = $1',
    [path],
  );
  if (!r) return null;
  return { path, refs: r.refs, claim: r.claim_owner === null ? null : { owner: r.claim_owner, stamp: r.claim_stamp ?? 0 } };
}

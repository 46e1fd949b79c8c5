// The embedded backend's tags and GC claims: createTag, dropTag, listTags on the tags table
// (each tag holds a reference on its manifest's path), and claimObject, releaseClaim,
// objectRef on object_refs, where a claim is two columns of the path's reference row, so a
// claim and a new reference serialise on that row (spec §3.2.3); a fenced claim records its
// lease epoch (claim_epoch), so a newer GC can take over an older one's claim. The core
// decides (core/pointers.ts: checkRetained, claimDecision, releaseDecision).
import type { MetaStore } from '../../contract.js';
import { linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { checkRetained, claimDecision, releaseDecision } from '../../core/pointers.js';
import { pageArgs, paged } from '../../core/paging.js';
import type { ClaimResult, Fence, ObjectRef, PageRequest, Tag, WriteContext } from '../../types.js';
import { toTag, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

export type TagGcCalls = Pick<MetaStore, 'createTag' | 'dropTag' | 'rewriteTag' | 'listTags' | 'claimObject' | 'releaseClaim' | 'objectRef'>;

export function tagGcCalls(ctx: SqliteContext): TagGcCalls {
  return {
    createTag: (ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext) =>
      ctx.write('createTag', w, (stamp) => {
        ctx.writable(ns);
        const c = ctx.liveCollection(ns, collection);
        const h = ctx.get<{ value: string; superseded: number | null }>(
          'SELECT value, superseded FROM pointer_history WHERE ns = ? AND key = ? AND version = ?',
          ns,
          linkPointerKey(c.linkId),
          manifestVersion,
        );
        const path = checkRetained(collection, manifestVersion, h ?? null, c.manifestRetentionMs, stamp);
        const existing = ctx.get<{ version: number }>('SELECT version FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
        if (existing) throw errors.alreadyExists(`tag ${name} of collection ${collection}`, existing.version);
        ctx.addRef(path, 'manifest', 1);
        ctx.run(
          'INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES (?, ?, ?, ?, ?, ?, NULL)',
          ns,
          collection,
          name,
          manifestVersion,
          path,
          stamp,
        );
        return { ns, collection, name, manifestVersion, manifestPath: path, created: stamp, rewrittenBy: null } satisfies Tag;
      }),

    dropTag: (ns: number, collection: number, name: string, w?: WriteContext) =>
      ctx.write('dropTag', w, (stamp) => {
        ctx.writable(ns);
        ctx.liveCollection(ns, collection);
        const t = ctx.get<{ path: string }>('SELECT path FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
        if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
        ctx.run('DELETE FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
        ctx.dropRef(t.path, 1, stamp);
      }),

    rewriteTag: (ns: number, collection: number, name: string, fromPath: string, toPath: string, rewrittenBy: string, w?: WriteContext) =>
      ctx.write('rewriteTag', w, (stamp) => {
        ctx.liveCollection(ns, collection);
        const t = ctx.get<Row>('SELECT * FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
        if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
        const tag = toTag(t);
        if (tag.manifestPath === toPath && tag.rewrittenBy === rewrittenBy) return tag;
        if (tag.manifestPath !== fromPath) throw errors.versionMismatch(`tag ${name} of collection ${collection} no longer names ${fromPath}`, null, null);
        ctx.addRef(toPath, 'manifest', 1);
        ctx.run('UPDATE tags SET path = ?, rewritten_by = ? WHERE ns = ? AND collection = ? AND name = ?', toPath, rewrittenBy, ns, collection, name);
        ctx.dropRef(fromPath, 1, stamp);
        return { ...tag, manifestPath: toPath, rewrittenBy } satisfies Tag;
      }),

    listTags: (ns: number, collection: number, page?: PageRequest) => {
      const p = pageArgs(page);
      return ctx.read(() => {
        ctx.liveCollection(ns, collection);
        return paged(
          ctx
            .all<Row>(
              'SELECT * FROM tags WHERE ns = ? AND collection = ? AND substr(name, 1, ?) = ? AND name > ? ORDER BY name LIMIT ?',
              ns,
              collection,
              p.prefix.length,
              p.prefix,
              p.after ?? '',
              p.limit + 1,
            )
            .map(toTag),
          p.limit,
          (t) => t.name,
        );
      });
    },

    claimObject: (path: string, owner: string, opts?: { fence?: Fence } & WriteContext) =>
      ctx.write('claimObject', opts, (stamp) => {
        ctx.writablePath(path);
        const fence = opts?.fence;
        ctx.checkFence(fence, `claim on ${path}`);
        const d = claimDecision(path, owner, fence, ctx.refState(path));
        if ('claimed' in d) return d;
        // Atomic with "still unreferenced": the row was read in this transaction.
        ctx.run(
          `INSERT INTO object_refs (path, kind, refs, claim_owner, claim_stamp, claim_epoch) VALUES (?, 'unknown', 0, ?, ?, ?)
           ON CONFLICT (path) DO UPDATE SET claim_owner = excluded.claim_owner, claim_stamp = excluded.claim_stamp, claim_epoch = excluded.claim_epoch`,
          path,
          owner,
          stamp,
          fence?.epoch ?? null,
        );
        return { claimed: true, path, owner, stamp, ...(d.takeover ? { takeover: true } : {}) } satisfies ClaimResult;
      }),

    releaseClaim: (path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext) =>
      ctx.write('releaseClaim', w, (stamp) => {
        ctx.writablePath(path);
        if (releaseDecision(path, owner, opts.deleted, ctx.refState(path)) === 'repeat') return;
        if (opts.deleted) {
          // A tombstone: the path stays unreferenceable until it is pruned (after the commit-record TTL).
          ctx.run('UPDATE object_refs SET claim_owner = NULL, claim_stamp = ?, deleted = 1, retired = NULL WHERE path = ?', stamp, path);
        } else {
          ctx.run('UPDATE object_refs SET claim_owner = NULL, claim_stamp = NULL, claim_epoch = NULL WHERE path = ?', path);
        }
      }),

    objectRef: (path: string) =>
      ctx.read(() => {
        const r = ctx.get<{ refs: number; claim_owner: string | null; claim_stamp: number | null }>(
          'SELECT refs, claim_owner, claim_stamp FROM object_refs WHERE path = ?',
          path,
        );
        if (!r) return null;
        return { path, refs: r.refs, claim: r.claim_owner === null ? null : { owner: r.claim_owner, stamp: r.claim_stamp ?? 0 } } satisfies ObjectRef;
      }),
  };
}

// Tags and GC claims (spec §3.2.3, §3.3): createTag checks, in its transaction, the collection
// (live) and the pointer-history item of the version (still retained at the stamp) and takes a
// reference on the manifest; a GC claim is the object's reference item itself, set only while
// nothing references it, so a claim and a new reference serialise in one item. The core decides
// (core/pointers.ts checkRetained, claimDecision, releaseDecision); this module maps the reads
// and the conditions that keep the decision true onto items.
import { linkPointerKey } from '../../contract.js';
import { checkRetained, claimDecision, historyCutoff, releaseDecision, type ClaimState } from '../../core/pointers.js';
import { errors } from '../../errors.js';
import { prunableAt } from '../../core/tokens.js';
import type { ClaimResult, Fence, ObjectRef, Page, PageRequest, Tag, WriteContext } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { txCheck, txDelete, txPut, txUpdate, type Expr } from './expr.js';
import { AGAIN, LIVE, MAX_KEY_PATH_BYTES, checkFence, fenceCheck, keyPath, lost, toCollection, toTag, unexpected } from './items.js';
import { K, retiredShard } from './keys.js';
import { listNames } from './catalog.js';
import { pageArgs, paged } from '../../core/paging.js';

export async function createTag(cx: DynamoContext, ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
  cx.needTx('createTag');
  return cx.write('createTag', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const c = toCollection(await cx.liveCollectionItem(ns, collection));
      const key = linkPointerKey(c.linkId);
      const hist = await cx.sdk.get(K.ptrHist(ns, key, manifestVersion));
      const path = checkRetained(
        collection,
        manifestVersion,
        hist ? { value: String(hist.value), superseded: hist.superseded === undefined ? null : Number(hist.superseded) } : null,
        c.manifestRetentionMs,
        ctx.stamp,
      );
      // The transaction keeps the rule's inputs as read: still retained at this cutoff.
      const cutoff = historyCutoff(ctx.stamp, c.manifestRetentionMs);
      const tag: Tag = { ns, collection, name, manifestVersion, manifestPath: path, created: ctx.stamp, rewrittenBy: null };
      const out = await cx.submit(ctx, [
        txCheck('coll', K.coll(ns, collection), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        txCheck('hist', K.ptrHist(ns, key, manifestVersion), (e) =>
          `attribute_exists(${e.a('pk')}) AND (attribute_not_exists(${e.a('superseded')}) OR ${e.a('superseded')} >= ${e.v(cutoff)})`),
        txPut('tag', K.tag(ns, collection, name), { ns, collection, name, version: manifestVersion, path: tag.manifestPath, created: ctx.stamp, rewrittenBy: null }, (e) =>
          `attribute_not_exists(${e.a('pk')})`),
        cx.refUp('obj', tag.manifestPath, 'manifest', 1),
      ], tag);
      if ('result' in out) return out.result;
      const existing = out.failed.get('tag');
      if (existing) throw errors.alreadyExists(`tag ${name} of collection ${collection}`, Number(existing.version));
      if (out.failed.has('obj')) throw errors.claimed(tag.manifestPath);
      if (lost(out, 'coll', 'hist')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function dropTag(cx: DynamoContext, ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
  cx.needTx('dropTag');
  return cx.write('dropTag', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      await cx.liveCollectionItem(ns, collection);
      const t = await cx.sdk.get(K.tag(ns, collection, name));
      if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
      const out = await cx.submit(ctx, [
        txDelete('tag', K.tag(ns, collection, name), (e) => `${e.a('path')} = ${e.v(String(t.path))}`),
        txUpdate('obj', K.obj(String(t.path)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
        txCheck('coll', K.coll(ns, collection), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
      ], null);
      if ('result' in out) return undefined;
      if (lost(out, 'tag', 'obj', 'coll')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  ) as Promise<void>;
}

export async function rewriteTag(
  cx: DynamoContext,
  ns: number,
  collection: number,
  name: string,
  fromPath: string,
  toPath: string,
  rewrittenBy: string,
  w?: WriteContext,
): Promise<Tag> {
  cx.needTx('rewriteTag');
  return cx.write('rewriteTag', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      await cx.liveCollectionItem(ns, collection);
      const t = await cx.sdk.get(K.tag(ns, collection, name));
      if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
      const tag = toTag(t);
      if (tag.manifestPath === toPath && tag.rewrittenBy === rewrittenBy) return tag;
      if (tag.manifestPath !== fromPath) throw errors.versionMismatch(`tag ${name} of collection ${collection} no longer names ${fromPath}`, null, null);
      const next: Tag = { ...tag, manifestPath: toPath, rewrittenBy };
      const out = await cx.submit(ctx, [
        txUpdate('tag', K.tag(ns, collection, name), (e) => `SET ${e.a('path')} = ${e.v(toPath)}, ${e.a('rewrittenBy')} = ${e.v(rewrittenBy)}`, (e) => `${e.a('path')} = ${e.v(fromPath)}`),
        cx.refUp('obj', toPath, 'manifest', 1),
        txUpdate('old', K.obj(fromPath), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
        txCheck('coll', K.coll(ns, collection), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
      ], next);
      if ('result' in out) return out.result;
      if (out.failed.has('obj')) throw errors.claimed(toPath);
      if (lost(out, 'tag', 'old', 'coll')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function listTags(cx: DynamoContext, ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
  const p = pageArgs(page);
  cx.checkOpen();
  await cx.liveCollectionItem(ns, collection);
  const rows = await listNames(cx, K.tagPk(ns, collection), '', p);
  return paged(rows.map(toTag), p.limit, (t) => t.name);
}

export async function claimObject(cx: DynamoContext, path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult> {
  keyPath('path', path);
  const fence = opts?.fence;
  cx.needTx('claimObject');
  return cx.write('claimObject', opts, async (ctx) =>
    cx.attempts(ctx.op, async () => {
      // The rule judges the item read here (core/pointers.ts claimDecision), and the write's
      // condition pins what it read, so a change in between makes it judge again.
      const [cur, l] = await cx.sdk.batchGet([K.obj(path), ...(fence ? [K.lease(fence.scope, fence.key)] : [])]);
      if (fence) checkFence(fence, l, `claim on ${path}`);
      const ref = claimState(cur);
      const d = claimDecision(path, owner, fence, ref);
      if ('claimed' in d) return cx.refusedUnlessApplied(ctx, d);
      const held = d.takeover ? { owner: ref!.claimOwner!, epoch: ref!.claimEpoch } : null;
      const result: ClaimResult = { claimed: true, path, owner, stamp: ctx.stamp, ...(held ? { takeover: true } : {}) };
      // The claim is the object's reference item itself: set only while nothing references it,
      // and every reference addition requires it absent, so the two serialise (spec §3.2.3).
      const claim = txUpdate(
        'obj',
        K.obj(path),
        (e) =>
          `SET ${e.a('path')} = ${e.v(path)}, ${e.a('claimOwner')} = ${e.v(owner)}, ${e.a('claimStamp')} = ${e.v(ctx.stamp)}, ` +
          // No kind: the path's first real reference sets it (a WAL object must still retire).
          `${e.a('refs')} = if_not_exists(${e.a('refs')}, ${e.v(0)})` +
          (fence ? `, ${e.a('claimEpoch')} = ${e.v(fence.epoch)} REMOVE ${e.a('rk')}` : ` REMOVE ${e.a('rk')}, ${e.a('claimEpoch')}`),
        (e) =>
          `(attribute_not_exists(${e.a('refs')}) OR ${e.a('refs')} = ${e.v(0)}) AND attribute_not_exists(${e.a('deleted')}) AND ` +
          (held
            ? `${e.a('claimOwner')} = ${e.v(held.owner)} AND ` +
              (held.epoch === null ? `attribute_not_exists(${e.a('claimEpoch')})` : `${e.a('claimEpoch')} = ${e.v(held.epoch)}`)
            : `attribute_not_exists(${e.a('claimOwner')})`),
      );
      const out = await cx.submit(ctx, fence ? [claim, fenceCheck(fence)] : [claim], result);
      if ('result' in out) return out.result;
      if (out.failed.has('lease')) checkFence(fence!, out.failed.get('lease'), `claim on ${path}`);
      if (out.failed.has('obj')) {
        // The item moved since the read: a refusal on what it is now, else judge again.
        const again = claimDecision(path, owner, fence, claimState(out.failed.get('obj')));
        return 'claimed' in again ? again : AGAIN; // a token of an applied attempt would have failed 'req'
      }
      if (out.conflict) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function releaseClaim(cx: DynamoContext, path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
  keyPath('path', path);
  cx.needTx('releaseClaim');
  return cx.write('releaseClaim', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const r = await cx.sdk.get(K.obj(path));
      if (releaseDecision(path, owner, opts.deleted, claimState(r)) === 'repeat') return undefined;
      const tomb = opts.deleted ? cx.expiring(K.obj(path), prunableAt('record', ctx.stamp)) : null;
      const relist = !opts.deleted && r!.kind === 'wal' && r!.retired !== undefined && Number(r!.refs ?? 0) === 0; // release: the item exists
      const out = await cx.submit(ctx, [
        txUpdate(
          'obj',
          K.obj(path),
          (e) =>
            opts.deleted
              ? // A tombstone: the path stays unreferenceable until a prune pass removes it (after
                // the commit-record margin, spec §3.2.2), never changed before that.
                `SET ${e.a('deleted')} = ${e.v(true)}, ${e.a('claimStamp')} = ${e.v(ctx.stamp)}, ${setExpiring(e, tomb)} REMOVE ${e.a('claimOwner')}, ${e.a('rk')}, ${e.a('retired')}`
              : `REMOVE ${e.a('claimOwner')}, ${e.a('claimStamp')}, ${e.a('claimEpoch')}` + (relist ? ` SET ${e.a('rk')} = ${e.v(path)}, ${e.a('rs')} = ${e.v(retiredShard(path))}` : ''),
          (e) => `${e.a('claimOwner')} = ${e.v(owner)}`,
        ),
      ], null);
      if ('result' in out) return undefined;
      if (lost(out, 'obj')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  ) as Promise<void>;
}

/** SET clauses for an item's expiry attributes (context.ts expiring). */
function setExpiring(e: Expr, x: { ttl: number; xs: string; xk: string } | null): string {
  if (!x) return '';
  return `${e.a('ttl')} = ${e.v(x.ttl)}, ${e.a('xs')} = ${e.v(x.xs)}, ${e.a('xk')} = ${e.v(x.xk)}`;
}

/** An object's reference item as the core's claim rules see it (null: no item). */
function claimState(r: Item | null | undefined): ClaimState | null {
  if (!r) return null;
  return {
    refs: Number(r.refs ?? 0),
    claimOwner: r.claimOwner === undefined ? null : String(r.claimOwner),
    claimEpoch: r.claimEpoch === undefined ? null : Number(r.claimEpoch),
    deleted: r.deleted !== undefined,
  };
}

export async function objectRef(cx: DynamoContext, path: string): Promise<ObjectRef | null> {
  cx.checkOpen();
  if (Buffer.byteLength(path) > MAX_KEY_PATH_BYTES) return null;
  const r = await cx.sdk.get(K.obj(path));
  if (!r) return null;
  return {
    path,
    refs: Number(r.refs ?? 0),
    claim: r.claimOwner === undefined ? null : { owner: String(r.claimOwner), stamp: Number(r.claimStamp ?? 0) },
  };
}

// Tags and GC claims (spec §3.2.3, §3.3): createTag checks, in its transaction, the collection
// (live) and the pointer-history item of the version (still retained at the stamp) and takes a
// reference on the manifest; a GC claim is the object's reference item itself, set only while
// nothing references it, so a claim and a new reference serialise in one item.
import { linkPointerKey } from '../../contract.js';
import { claimTakenOver } from '../../core/pointers.js';
import { errors } from '../../errors.js';
import { WAL_COMMIT_RECORD_TTL_MS } from '../../limits.js';
import type { ClaimResult, Fence, ObjectRef, Page, PageRequest, Tag, WriteContext } from '../../types.js';
import type { DynamoContext } from './context.js';
import { txCheck, txDelete, txPut, txUpdate } from './expr.js';
import { AGAIN, LIVE, MAX_KEY_PATH_BYTES, checkFence, fenceCheck, keyPath, lost, toCollection, toTag, ttlAt, unexpected } from './items.js';
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
      const cutoff = ctx.stamp - c.manifestRetentionMs;
      // Retained: the current manifest, or one superseded less than manifestRetentionMs ago (judged on the stamp).
      if (!hist || (hist.superseded !== undefined && Number(hist.superseded) < cutoff)) {
        throw errors.notFound(`retained manifest version ${manifestVersion} of collection ${collection}`);
      }
      const tag: Tag = { ns, collection, name, manifestVersion, manifestPath: String(hist.value), created: ctx.stamp, rewrittenBy: null };
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
      // A fenced claim may take over a live claim: judged on the item read here, and the
      // write's condition pins that claim, so a change in between makes it read again.
      let held: { owner: string; epoch: number | null } | null = null;
      if (fence) {
        const [cur, l] = await cx.sdk.batchGet([K.obj(path), K.lease(fence.scope, fence.key)]);
        checkFence(fence, l, `claim on ${path}`);
        if (cur?.claimOwner !== undefined && cur.deleted === undefined) {
          const epoch = cur.claimEpoch === undefined ? null : Number(cur.claimEpoch);
          if (claimTakenOver(String(cur.claimOwner), epoch, owner, fence)) held = { owner: String(cur.claimOwner), epoch };
        }
      }
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
      if (held && out.failed.has('obj')) return AGAIN; // the claim we meant to take over moved: judge again
      if (out.failed.has('obj')) {
        const old = out.failed.get('obj');
        const refs = Number(old?.refs ?? 0);
        if (refs > 0) return { claimed: false, path, reason: 'referenced', refs } satisfies ClaimResult;
        return { claimed: false, path, reason: 'claimed', refs: 0 } satisfies ClaimResult;
      }
      if (out.conflict) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function releaseClaim(cx: DynamoContext, path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
  if (typeof opts?.deleted !== 'boolean') throw errors.invalid('deleted', 'must be true or false');
  keyPath('path', path);
  cx.needTx('releaseClaim');
  return cx.write('releaseClaim', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const r = await cx.sdk.get(K.obj(path));
      if (r && r.deleted !== undefined && opts.deleted) return undefined; // a repeat
      if (!r || r.claimOwner !== owner) throw errors.notFound(`claim by ${owner} on ${path}`);
      const relist = !opts.deleted && r.kind === 'wal' && r.retired !== undefined && Number(r.refs ?? 0) === 0;
      const out = await cx.submit(ctx, [
        txUpdate(
          'obj',
          K.obj(path),
          (e) =>
            opts.deleted
              ? // A tombstone: the path stays unreferenceable until TTL removes it (after the commit-record TTL).
                `SET ${e.a('deleted')} = ${e.v(true)}, ${e.a('claimStamp')} = ${e.v(ctx.stamp)}, ${e.a('ttl')} = ${e.v(ttlAt(ctx.stamp + WAL_COMMIT_RECORD_TTL_MS))} REMOVE ${e.a('claimOwner')}, ${e.a('rk')}, ${e.a('retired')}`
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

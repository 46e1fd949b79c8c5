// casPointer and pointer (spec §2.3): on the dynamodb profile one transaction of the pointer
// item (conditioned on its version or absence), the owner's live check (the namespace, or the
// link for a collection's pointer), the fence's lease epoch, the new value's reference (claim
// check) and the old value's release, and for link keys the pointer history that tags name.
// The Alternator profile's unfenced plain-key casPointer is one conditional UpdateItem whose
// writer nonce resolves a retry. The core decides (core/pointers.ts checkPointerVersion,
// core/leases.ts checkFence); this module maps the reads and the conditions onto items.
import { randomUUID } from 'node:crypto';
import { parseLinkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { DEFAULT_MANIFEST_RETENTION_MS, MAX_CLOCK_SKEW_MS } from '../../limits.js';
import { checkPointerVersion } from '../../core/pointers.js';
import type { Fence, Pointer, PointerVersion, WriteContext } from '../../types.js';
import { MAX_CACHE_ENTRIES, type DynamoContext } from './context.js';
import { single, txCheck, txPut, txUpdate } from './expr.js';
import { AGAIN, LIVE, checkFence, keyPath, lost, setAll, toPointer, unexpected } from './items.js';
import { K, type Key } from './keys.js';
import type { TxItem } from './sdk.js';

export async function casPointer(
  cx: DynamoContext,
  ns: number,
  key: string,
  expectedVersion: number | null,
  value: string,
  opts?: { fence?: Fence } & WriteContext,
): Promise<Pointer> {
  keyPath('value', value);
  const fence = opts?.fence;
  const link = parseLinkPointerKey(key);
  if (cx.profile === 'alternator') {
    if (fence || link !== null) cx.needTx('casPointer with a fence or on a link key');
    return casPointerSingle(cx, ns, key, expectedVersion, value, opts);
  }
  return cx.write('casPointer', opts, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const keys: Key[] = [K.ptr(ns, key), link !== null ? K.link(ns, link) : K.ns(ns)];
      if (fence) keys.push(K.lease(fence.scope, fence.key));
      const [cur, owner, l] = await cx.sdk.batchGet(keys);
      if (link !== null) {
        if (!owner || owner.state !== LIVE) throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
      } else if (!owner || owner.state !== LIVE) {
        throw errors.notFound(`namespace ${ns}`);
      }
      if (fence) checkFence(fence, l, `pointer ${key}`);
      const curVersion = cur ? Number(cur.version) : null;
      const version = checkPointerVersion(key, curVersion, expectedVersion);
      const p: Pointer = { ns, key, version, value, stamp: ctx.stamp };
      const items: TxItem[] = [
        txPut('ptr', K.ptr(ns, key), { ns, key, version, value, stamp: ctx.stamp }, (e) =>
          cur ? `${e.a('version')} = ${e.v(curVersion!)}` : `attribute_not_exists(${e.a('pk')})`),
        link !== null
          ? txCheck('owner', K.link(ns, link), (e) => `${e.a('state')} = ${e.v(LIVE)}`)
          : txCheck('owner', K.ns(ns), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
      ];
      if (fence) items.push(txCheck('lease', K.lease(fence.scope, fence.key), (e) => `${e.a('epoch')} = ${e.v(fence.epoch)}`));
      const oldValue = cur ? String(cur.value) : null;
      if (oldValue !== value) {
        items.push(cx.refUp('newobj', value, 'manifest', 1));
        if (oldValue !== null) {
          items.push(txUpdate('oldobj', K.obj(oldValue), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`));
        }
      }
      if (link !== null) {
        // Pointer history, so tags can name any retained manifest (contract: createTag).
        const retentionMs = (await linkInfo(cx, ns, link, Number(owner.collectionId))).retentionMs;
        items.push(txPut('hnew', K.ptrHist(ns, key, version), { version, value }));
        if (cur) {
          // Superseded: taggable for retentionMs by the stamp, then listed for pruning
          // (with the skew bound, as the records: the stamp may run ahead of the backend).
          const x = cx.expiring(K.ptrHist(ns, key, curVersion!), ctx.stamp + retentionMs + MAX_CLOCK_SKEW_MS);
          items.push(
            txUpdate('hold', K.ptrHist(ns, key, curVersion!), (e) =>
              `SET ${e.a('version')} = ${e.v(curVersion!)}, ${e.a('value')} = ${e.v(String(cur.value))}, ${e.a('superseded')} = ${e.v(ctx.stamp)}, ` +
              `${e.a('ttl')} = ${e.v(x.ttl)}, ${e.a('xs')} = ${e.v(x.xs)}, ${e.a('xk')} = ${e.v(x.xk)}`),
          );
        }
      }
      const out = await cx.submit(ctx, items, p);
      if ('result' in out) return out.result;
      if (out.failed.has('owner')) {
        throw link !== null ? errors.notFound(`collection of link ${link} in namespace ${ns}`) : errors.notFound(`namespace ${ns}`);
      }
      if (out.failed.has('lease')) checkFence(fence!, out.failed.get('lease'), `pointer ${key}`);
      if (out.failed.has('newobj')) throw errors.claimed(value);
      if (out.failed.has('ptr')) {
        const now = out.failed.get('ptr');
        checkPointerVersion(key, now ? Number(now.version) : null, expectedVersion);
        return AGAIN; // moved and back: judge again on a fresh read
      }
      if (lost(out, 'oldobj')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

async function linkInfo(cx: DynamoContext, ns: number, link: number, collection: number): Promise<{ collection: number; retentionMs: number }> {
  const k = `${ns}/${link}`;
  let info = cx.links.get(k);
  if (!info) {
    const c = await cx.sdk.get(K.coll(ns, collection));
    info = { collection, retentionMs: Number(c?.mret ?? DEFAULT_MANIFEST_RETENTION_MS) };
    if (cx.links.size > MAX_CACHE_ENTRIES) cx.links.clear();
    cx.links.set(k, info);
  }
  return info;
}

/** The single-item profile: one conditional UpdateItem; the writer's nonce resolves retries. */
async function casPointerSingle(cx: DynamoContext, ns: number, key: string, expectedVersion: number | null, value: string, w?: WriteContext): Promise<Pointer> {
  return cx.write('casPointer', w, async (ctx) => {
    const version = (expectedVersion ?? 0) + 1;
    const nonce = ctx.requestId ?? randomUUID();
    const r = await cx.attempts(ctx.op, async () => {
      const w1 = await cx.sdk.writeOne(ctx.op, {
        update: single(
          K.ptr(ns, key),
          (e) => setAll(e, { ns, key, version, value, stamp: ctx.stamp, nonce }),
          (e) => (expectedVersion === null ? `attribute_not_exists(${e.a('pk')})` : `${e.a('version')} = ${e.v(expectedVersion)}`),
        ),
      });
      return !w1.ok && w1.conflict ? AGAIN : w1;
    });
    if (r.ok) return { ns, key, version, value, stamp: ctx.stamp };
    // Our own earlier attempt applied if the item carries our nonce (spec §2.3).
    if (r.old && ctx.requestId !== undefined && r.old.nonce === ctx.requestId) return toPointer(r.old);
    checkPointerVersion(key, r.old ? Number(r.old.version) : null, expectedVersion);
    throw errors.retryable('conflict', `pointer ${key} changed under the compare-and-swap`);
  });
}

export async function pointerVersion(cx: DynamoContext, ns: number, key: string, version: number): Promise<PointerVersion | null> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.ptrHist(ns, key, version));
  if (!r) return null;
  return { version, value: String(r.value), superseded: r.superseded === undefined ? null : Number(r.superseded) };
}

export async function pointer(cx: DynamoContext, ns: number, key: string): Promise<Pointer | null> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.ptr(ns, key));
  return r ? toPointer(r) : null;
}

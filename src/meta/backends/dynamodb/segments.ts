// Index maintenance (spec §2.3): swapSegment replaces a run of entries by one segment entry
// in one transaction (the head's bounds, the entries' paths, one reference item per distinct
// path, the segment's claim check), so at most MAX_SWAP_ENTRIES per swap; trimPartition moves
// logStart with one conditional UpdateItem (its linearization point) and then deletes the
// entries below it in idempotent transactions of TRIM_CHUNK_ENTRIES. The GC reads of WAL
// objects (retired index, index references) live here too.
import { errors } from '../../errors.js';
import type { Fence, IndexEntry, Page, PageRequest, PartitionHead, SegmentSwap, Stamp, WriteContext } from '../../types.js';
import type { Item } from './codec.js';
import { type Ctx, type DynamoContext } from './context.js';
import { single, txCheck, txDelete, txPut, txUpdate } from './expr.js';
import { AGAIN, LIVE, MAX_KEY_PATH_BYTES, checkFence, entryItem, fenceCheck, keyPath, toEntry, toHead, toStream, unexpected } from './items.js';
import { K, RETIRED_INDEX, RETIRED_SHARDS, byteCompare, nameRange } from './keys.js';
import type { TxItem } from './sdk.js';
import { checkPartition, planSwap, planTrim } from '../../core/log.js';
import { pageArgs, paged } from '../../core/paging.js';

/** Entries one trim (or janitor) chunk deletes: 2 items each + the head. */
export const TRIM_CHUNK_ENTRIES = 30;

export async function swapSegment(cx: DynamoContext, swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }> {
  keyPath('path', swap.path);
  const fence = opts?.fence;
  cx.needTx('swapSegment');
  const { ns, stream, partition } = swap;
  const what = `segments of partition ${partition}`;
  return cx.write('swapSegment', opts, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const [s, hItem, l] = await cx.sdk.batchGet([K.stream(ns, stream), K.head(ns, stream, partition), ...(fence ? [K.lease(fence.scope, fence.key)] : [])]);
      if (!s || s.state !== LIVE) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      checkPartition(toStream(s), partition);
      if (fence) checkFence(fence, l, what);
      const rows = (
        await cx.sdk.query(
          {
            KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
            ExpressionAttributeValues: {
              ':p': { S: K.entryPk(ns, stream, partition) },
              ':a': { S: K.entrySk(swap.start) },
              ':b': { S: K.entrySk(swap.end - 1) },
            },
          },
          cx.caps.maxSwapEntries + 1,
        )
      ).map((r) => toEntry(partition, r));
      const plan = planSwap(swap, rows, toHead(partition, hItem), cx.caps.maxSwapEntries);
      if (plan.kind === 'done') return { entry: plan.entry }; // a retry of a swap that applied
      const { entry, bytesDelta } = plan;
      const first = rows[0]!;
      const perPath = new Map<string, number>();
      for (const e of rows) perPath.set(e.path, (perPath.get(e.path) ?? 0) + 1);
      const paths = [...perPath.keys()];
      const objs = await cx.sdk.batchGet(paths.map((p) => K.obj(p)));
      const items: TxItem[] = [
        txUpdate('head', K.head(ns, stream, partition), (e) => `ADD ${e.a('bytes')} ${e.v(bytesDelta)}`, (e) =>
          `${e.a('logStart')} <= ${e.v(swap.start)} AND ${e.a('next')} >= ${e.v(swap.end)}`),
        txCheck('stream', K.stream(ns, stream), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        // The segment entry takes the first replaced entry's key: one item, overwritten.
        txPut('e:0', K.entry(ns, stream, partition, swap.start), entryItem(entry), (e) =>
          `${e.a('path')} = ${e.v(first.path)} AND ${e.a('end')} = ${e.v(first.end)}`),
        ...rows.slice(1).map((r, i) =>
          txDelete(`e:${i + 1}`, K.entry(ns, stream, partition, r.start), (e) => `${e.a('path')} = ${e.v(r.path)} AND ${e.a('end')} = ${e.v(r.end)}`),
        ),
        ...paths.map((p, i) => cx.refDown(`o:${i}`, p, perPath.get(p)!, objs[i], ctx.stamp, true)),
        cx.refUp('seg', swap.path, 'segment', 1, { stream: `${ns}/${stream}` }),
        ...(fence ? [fenceCheck(fence)] : []),
      ];
      const out = await cx.submit(ctx, items, { entry });
      if ('result' in out) return out.result;
      if (out.failed.has('lease')) checkFence(fence!, out.failed.get('lease'), what);
      if (out.failed.has('seg')) throw errors.claimed(swap.path);
      if (out.failed.has('stream')) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      if (out.conflict || out.failed.size > 0) return AGAIN; // the head or entries moved: re-read
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function trimPartition(
  cx: DynamoContext,
  ns: number,
  stream: number,
  partition: number,
  logStart: number,
  opts?: { fence?: Fence } & WriteContext,
): Promise<PartitionHead> {
  const fence = opts?.fence;
  cx.needTx('trimPartition');
  const what = `log start of partition ${partition}`;
  return cx.write('trimPartition', opts, async (ctx) => {
    const s = toStream(await cx.liveStreamItem(ns, stream));
    checkPartition(s, partition);
    // 1. Move logStart forward (one conditional write): readers stop at once at the new start.
    //    The call's result is the head as that write left it: the trim's linearization point.
    const head = await cx.attempts(ctx.op, async () => {
      const [hItem, l] = await cx.sdk.batchGet([K.head(ns, stream, partition), ...(fence ? [K.lease(fence.scope, fence.key)] : [])]);
      if (fence) checkFence(fence, l, what);
      const h = toHead(partition, hItem);
      if (!planTrim(h, logStart)) return h; // never backward; a repeat is a no-op
      if (fence) {
        // Fenced: the move and the lease check in one transaction.
        const out = await cx.sdk.transact(ctx.op, [
          txUpdate('head', K.head(ns, stream, partition), (e) => `SET ${e.a('logStart')} = ${e.v(logStart)}`, (e) =>
            `${e.a('logStart')} < ${e.v(logStart)} AND ${e.a('next')} >= ${e.v(logStart)}`),
          fenceCheck(fence),
        ], `${ctx.tokenBase}\u0000trim`);
        if (out.ok) return { ...h, logStart };
        if (out.failed.has('lease')) checkFence(fence, out.failed.get('lease'), what);
        return AGAIN;
      }
      const r = await cx.sdk.writeOne(ctx.op, {
        update: single(
          K.head(ns, stream, partition),
          (e) => `SET ${e.a('logStart')} = ${e.v(logStart)}`,
          (e) => `${e.a('logStart')} < ${e.v(logStart)} AND ${e.a('next')} >= ${e.v(logStart)}`,
        ),
      });
      return r.ok ? toHead(partition, r.item) : AGAIN;
    });
    // 2. Delete the entries that end at or below it, in idempotent chunks; their bytes leave
    //    the head as they go (as if with the move: concurrent commits only add later offsets).
    const swept = await sweep(cx, ctx, ns, stream, partition, head.logStart);
    return { ...head, bytes: head.bytes - swept };
  });
}

/** Deletes a partition's entries ending at or below `upTo`, releasing their objects' counts. */
export async function sweep(cx: DynamoContext, ctx: Ctx, ns: number, stream: number, partition: number, upTo: number): Promise<number> {
  const pk = K.entryPk(ns, stream, partition);
  let swept = 0;
  // Bounded: every round deletes at least one entry or ends; a partition holds finitely many.
  for (let round = 0; round < 1_000_000; round++) {
    const done = await cx.attempts(ctx.op, async () => {
      const rows = (
        await cx.sdk.query(
          { KeyConditionExpression: 'pk = :p AND sk < :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(upTo) } } },
          TRIM_CHUNK_ENTRIES,
        )
      )
        .map((r) => toEntry(partition, r))
        .filter((e) => e.end <= upTo);
      if (rows.length === 0) return true;
      const perPath = new Map<string, number>();
      let bytes = 0;
      for (const e of rows) {
        perPath.set(e.path, (perPath.get(e.path) ?? 0) + 1);
        bytes += e.byteEnd - e.byteStart;
      }
      const paths = [...perPath.keys()];
      const objs = await cx.sdk.batchGet(paths.map((p) => K.obj(p)));
      const items: TxItem[] = [
        ...rows.map((r, i) => txDelete(`e:${i}`, K.entry(ns, stream, partition, r.start), (e) => `${e.a('path')} = ${e.v(r.path)}`)),
        ...paths.map((p, i) => cx.refDown(`o:${i}`, p, perPath.get(p)!, objs[i], ctx.stamp, true)),
        txUpdate('head', K.head(ns, stream, partition), (e) => `ADD ${e.a('bytes')} ${e.v(-bytes)}`, (e) => `attribute_exists(${e.a('pk')})`),
      ];
      const out = await cx.sdk.transact(ctx.op, items, `${ctx.tokenBase}\u0000sweep\u0000${rows[0]!.start}`);
      if (!out.ok) return AGAIN; // another sweep or swap got there first: read again
      swept += bytes;
      return rows.length < TRIM_CHUNK_ENTRIES;
    });
    if (done) return swept;
  }
  return swept;
}

export async function segmentReferenced(cx: DynamoContext, ns: number, stream: number, path: string): Promise<boolean> {
  cx.checkOpen();
  if (Buffer.byteLength(path) > MAX_KEY_PATH_BYTES) return false;
  // The object's index-reference count, kept in the transactions that change entries (spec §2.3).
  const o = await cx.sdk.get(K.obj(path));
  return Number(o?.irefs ?? 0) > 0 && (o?.stream === `${ns}/${stream}` || o?.stream === '*');
}

export async function retiredWalObjects(cx: DynamoContext, page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
  const p = pageArgs(page);
  cx.checkOpen();
  const range = nameRange('', p.prefix, p.after);
  if (!range) return { items: [] };
  // Each shard of the `retired` index, by path, merged across shards in path order. The index
  // is a GSI (eventually consistent), so every path it names is read again from the base
  // table with a consistent read and kept only if it is still retired, unreferenced and
  // unclaimed: nothing is listed that is not retired. One retired a moment ago may be missing
  // until the index catches up; GC finds it on its next pass (claims keep GC safe either way).
  const listed: string[] = [];
  for (let shard = 0; shard < RETIRED_SHARDS; shard++) {
    const rows = await cx.sdk.query(
      {
        IndexName: RETIRED_INDEX,
        ...(range.lo === ''
          ? { KeyConditionExpression: 'rs = :p AND rk <= :hi', ExpressionAttributeValues: { ':p': { S: K.retiredPk(shard) }, ':hi': { S: range.hi } } }
          : {
              KeyConditionExpression: 'rs = :p AND rk BETWEEN :lo AND :hi',
              ExpressionAttributeValues: { ':p': { S: K.retiredPk(shard) }, ':lo': { S: range.lo }, ':hi': { S: range.hi } },
            }),
      },
      p.limit + 2,
      { consistent: false },
    );
    for (const r of rows) {
      const path = String(r.rk);
      if (path.startsWith(p.prefix) && (p.after === null || byteCompare(path, p.after) > 0)) listed.push(path);
    }
  }
  listed.sort(byteCompare);
  const wanted = listed.slice(0, p.limit + 1);
  const objs = await cx.sdk.batchGet(wanted.map((path) => K.obj(path)));
  const rows = objs
    .filter((r): r is Item => r !== undefined && r.rk !== undefined && Number(r.refs ?? 0) === 0 && r.claimOwner === undefined && r.deleted === undefined)
    .map((r) => ({ path: String(r.path), retired: Number(r.retired) }));
  if (rows.length > p.limit) return paged(rows, p.limit, (r) => r.path);
  // A listed path that was no longer retired may leave the page short: more may still follow.
  const more = listed.length > wanted.length || wanted.length === p.limit + 1;
  return more ? { items: rows, next: wanted[wanted.length - 1]! } : { items: rows };
}

// The janitor of dropped collections and streams (spec §2.3): deletes what dropCollection and
// dropStream leave behind — index entries (releasing their objects' counts, so WAL objects
// retire), heads, tags, pointer history, then the records themselves.
//
// One call does a bounded batch (contract: `done: false` means call again): at most
// JANITOR_BATCH_ENTRIES index entries, heads, tags and history items, in the transactions of
// segments.ts's sweep (TRIM_CHUNK_ENTRIES entries each) and BatchWriteItem deletes of 25.
// Only partitions that have a head can hold entries (heads are written with every commit),
// so a dropped stream is walked by its heads, and a head is deleted once its partition is
// empty: the heads still there are the work still to do. A record is deleted last, after
// everything under it, so a janitor stopped anywhere finds its work again.
import { linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { JANITOR_BATCH_ENTRIES } from '../../limits.js';
import type { Collection, Stream, WriteContext } from '../../types.js';
import type { Ctx, DynamoContext } from './context.js';
import { txDelete, txUpdate } from './expr.js';
import { DROPPING, toCollection, toStream } from './items.js';
import { K, type Key } from './keys.js';
import type { TxItem } from './sdk.js';

/** Queries one stream's clear-up may run in one call (every loop has a bound). */
const MAX_JANITOR_QUERIES = 10_000;

interface Budget {
  left: number;
}

export async function janitor(cx: DynamoContext, ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
  cx.needTx('janitor');
  return cx.write('janitor', w, async (ctx) => {
    const rows = await cx.sdk.query({
      KeyConditionExpression: 'pk = :p',
      FilterExpression: '#s = :d',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':p': { S: K.nsPk(ns) }, ':d': { S: DROPPING } },
    });
    const budget: Budget = { left: JANITOR_BATCH_ENTRIES };
    let collections = 0;
    let streams = 0;
    // Streams first (a dropped collection's implicit stream among them), then collections.
    for (const s of rows.filter((x) => String(x.sk).startsWith('stream#')).map(toStream)) {
      if (!(await clearStream(cx, ctx, s, budget))) return { collections, streams, done: false };
      await cx.sdk.batchDelete(ctx.op, [K.stream(ns, s.id)]);
      streams++;
    }
    for (const c of rows.filter((x) => String(x.sk).startsWith('coll#')).map(toCollection)) {
      if (!(await clearCollection(cx, ctx, c, budget))) return { collections, streams, done: false };
      await cx.sdk.batchDelete(ctx.op, [K.link(ns, c.linkId), K.coll(ns, c.id)]);
      collections++;
    }
    return { collections, streams, done: true };
  });
}

/** Entries one janitor transaction deletes: n entries + at most n object counts ≤ 100 items. */
export const JANITOR_TX_ENTRIES = 45;

/**
 * Deletes a dropped stream's index entries and heads, walking the partitions that have a head.
 * Entries of many partitions share a transaction (the stream is dropping, so no head's bytes
 * need keeping); a head goes once its partition is empty. True when nothing is left.
 */
async function clearStream(cx: DynamoContext, ctx: Ctx, s: Stream, budget: Budget): Promise<boolean> {
  const heads = await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.headPk(s.ns, s.id) } } });
  let batch: Array<{ partition: number; start: number; path: string }> = [];
  let emptied: Key[] = [];
  const gone: Key[] = [];
  const flush = async (): Promise<void> => {
    if (batch.length > 0) {
      const perPath = new Map<string, number>();
      for (const e of batch) perPath.set(e.path, (perPath.get(e.path) ?? 0) + 1);
      const paths = [...perPath.keys()];
      const objs = await cx.sdk.batchGet(paths.map((p) => K.obj(p)));
      const items: TxItem[] = [
        ...batch.map((r, i) => txDelete(`e:${i}`, K.entry(s.ns, s.id, r.partition, r.start), (e) => `${e.a('path')} = ${e.v(r.path)}`)),
        ...paths.map((p, i) => cx.refDown(`o:${i}`, p, perPath.get(p)!, objs[i], ctx.stamp, true)),
      ];
      const first = batch[0]!;
      const out = await cx.sdk.transact(ctx.op, items, `${ctx.tokenBase}\u0000sweep\u0000${s.id}\u0000${first.partition}\u0000${first.start}`);
      // Another janitor (or a concurrent trim) took some of these entries: read again next call.
      if (!out.ok) throw errors.retryable('conflict', `janitor: stream ${s.id}'s index changed under it; run it again`);
      budget.left -= batch.length;
      batch = [];
    }
    gone.push(...emptied);
    emptied = [];
  };
  let done = true;
  outer: for (const h of heads) {
    const p = Number(h.sk);
    const pk = K.entryPk(s.ns, s.id, p);
    let after = -1;
    for (let round = 0; ; round++) {
      const room = Math.min(JANITOR_TX_ENTRIES - batch.length, budget.left - batch.length - emptied.length - gone.length);
      if (room <= 0 || round >= MAX_JANITOR_QUERIES) {
        await flush();
        if (budget.left - gone.length <= 0 || round >= MAX_JANITOR_QUERIES) {
          done = false;
          break outer;
        }
        continue;
      }
      const rows = await cx.sdk.query(
        after < 0
          ? { KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: pk } } }
          : { KeyConditionExpression: 'pk = :p AND sk > :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(after) } } },
        room,
      );
      for (const r of rows) batch.push({ partition: p, start: Number(r.start), path: String(r.path) });
      if (rows.length < room) {
        emptied.push(K.head(s.ns, s.id, p)); // empty once this batch is applied
        break;
      }
      after = Number(rows[rows.length - 1]!.start);
    }
  }
  await flush();
  await cx.sdk.batchDelete(ctx.op, gone);
  budget.left -= gone.length;
  return done;
}

/** Releases a dropped collection's tags and deletes its pointer history; true when none is left. */
async function clearCollection(cx: DynamoContext, ctx: Ctx, c: Collection, budget: Budget): Promise<boolean> {
  const { ns } = c;
  const tags = await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.tagPk(ns, c.id) } } }, budget.left + 1);
  const more = tags.length > budget.left;
  for (const t of tags.slice(0, budget.left)) {
    const out = await cx.sdk.transact(ctx.op, [
      txDelete('tag', K.tag(ns, c.id, String(t.sk)), (e) => `attribute_exists(${e.a('pk')})`),
      txUpdate('obj', K.obj(String(t.path)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
    ], `${ctx.tokenBase}\u0000tag\u0000${c.id}\u0000${String(t.sk)}`);
    if (!out.ok && !out.failed.has('tag')) throw errors.retryable('conflict', 'janitor: a tag changed under it; run it again');
    budget.left--;
  }
  if (more) return false;
  // Pointer history (the current pointer went with the drop).
  const hist = await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.ptr(ns, linkPointerKey(c.linkId)).pk } } }, budget.left + 1);
  const batch = hist.slice(0, budget.left);
  await cx.sdk.batchDelete(ctx.op, batch.map((h) => ({ pk: String(h.pk), sk: String(h.sk) })));
  budget.left -= batch.length;
  return batch.length === hist.length;
}

// The dirty set on DynamoDB (multi-item profile; contract: dueHeads, settleHead; the rules are
// core/due.ts). The mark and the due time live on the partition head item, which commitWal's
// transaction already updates: `mark` (ADD 1 per chunk), and while the head is due the listing
// attributes `ds` (its shard of the sparse `due` index, by the head's key) and `dk` (its due
// cursor: due, ns, stream, partition as fixed-width digits). A settle to null REMOVEs ds and
// dk, so the index holds only due heads. Why an index and not a per-shard due item: README.md
// beside this file, *The dirty set*.
//
// The index is a GSI (eventually consistent): every head a page lists is read again from the
// base table (consistent BatchGetItem) and kept only while it is still due at the listed
// position, with the mark read there. A head made due a moment ago may be missing until the
// index catches up; the base item stays due, so the next poll finds it.
import { createHash } from 'node:crypto';
import { DUE_NOW, dueCursor, parseDueCursor } from '../../core/due.js';
import { pageArgs, paged } from '../../core/paging.js';
import type { DueHead, Page, PageRequest, Stamp } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { single, type Expr } from './expr.js';
import { AGAIN } from './items.js';
import { byteCompare, DUE_INDEX, DUE_SHARDS, K } from './keys.js';

/** The due index's shard of a partition head (the `ds` attribute). */
export function dueShard(ns: number, stream: number, partition: number): string {
  return K.duePk(createHash('sha256').update(`${ns}/${stream}/${partition}`).digest().readUInt32BE(0) % DUE_SHARDS);
}

/** The update clause that lists a head in the due index at `due` (commitWal: DUE_NOW). */
export function listDue(e: Expr, ns: number, stream: number, partition: number, due: Stamp = DUE_NOW): string {
  return `${e.a('ds')} = ${e.v(dueShard(ns, stream, partition))}, ${e.a('dk')} = ${e.v(dueCursor({ due, ns, stream, partition }))}`;
}

export async function dueHeads(cx: DynamoContext, before: Stamp, page?: PageRequest): Promise<Page<DueHead>> {
  cx.needTx('dueHeads');
  cx.checkOpen();
  const p = pageArgs(page);
  // Every cursor of a head due at `before` or earlier sorts below `<before>/` ('/' follows '.').
  const hi = `${dueCursor({ due: before, ns: 0, stream: 0, partition: 0 }).slice(0, 16)}/`;
  const listed: string[] = [];
  for (let shard = 0; shard < DUE_SHARDS; shard++) {
    const rows = await cx.sdk.query(
      {
        IndexName: DUE_INDEX,
        ...(p.after === null
          ? { KeyConditionExpression: 'ds = :p AND dk < :hi', ExpressionAttributeValues: { ':p': { S: K.duePk(shard) }, ':hi': { S: hi } } }
          : {
              KeyConditionExpression: 'ds = :p AND dk BETWEEN :lo AND :hi',
              ExpressionAttributeValues: { ':p': { S: K.duePk(shard) }, ':lo': { S: p.after }, ':hi': { S: hi } },
            }),
      },
      p.limit + 2,
      { consistent: false },
    );
    for (const r of rows) {
      const k = String(r.dk);
      if (byteCompare(k, hi) < 0 && (p.after === null || byteCompare(k, p.after) > 0)) listed.push(k);
    }
  }
  listed.sort(byteCompare);
  const wanted = listed.slice(0, p.limit + 1);
  const keys = wanted.map(parseDueCursor);
  const items = await cx.sdk.batchGet(keys.map((k) => K.head(k.ns, k.stream, k.partition)));
  const rows: DueHead[] = [];
  items.forEach((it: Item | undefined, i) => {
    // Still due at the listed position (a settle or a commit since moved it: found there later).
    if (it === undefined || it.dk !== wanted[i]) return;
    const k = keys[i]!;
    rows.push({ ns: k.ns, stream: k.stream, partition: k.partition, mark: Number(it.mark ?? 0), due: k.due });
  });
  if (rows.length > p.limit) return paged(rows, p.limit, dueCursor);
  // A listed head no longer due there may leave the page short: more may still follow.
  const more = listed.length > wanted.length || wanted.length === p.limit + 1;
  return more ? { items: rows, next: wanted[wanted.length - 1]! } : { items: rows };
}

/**
 * One conditional UpdateItem on the head: applies only while its mark is `mark` (core/due.ts
 * settles); no commit token (a repeat applies the same). A head the janitor deleted fails the
 * condition: false.
 */
export async function settleHead(cx: DynamoContext, ns: number, stream: number, partition: number, mark: number, due: Stamp | null): Promise<boolean> {
  cx.needTx('settleHead');
  cx.checkOpen();
  const key = K.head(ns, stream, partition);
  return cx.attempts('settleHead', async () => {
    const r = await cx.sdk.writeOne('settleHead', {
      update: {
        ...single(
          key,
          (e) => (due === null ? `REMOVE ${e.a('ds')}, ${e.a('dk')}` : `SET ${listDue(e, ns, stream, partition, due)}`),
          (e) => `${e.a('mark')} = ${e.v(mark)}`,
        ),
        ReturnValues: 'NONE',
      },
    });
    if (r.ok) return true;
    return r.conflict ? AGAIN : false;
  });
}

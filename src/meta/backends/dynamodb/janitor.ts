// The janitor of dropped collections and streams (spec §2.3): deletes what dropCollection and
// dropStream leave behind — index entries (releasing their objects' counts), heads, tags,
// pointer history, then the records themselves.
import { linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import type { WriteContext } from '../../types.js';
import * as v from '../../validate.js';
import type { DynamoContext } from './context.js';
import { txDelete, txUpdate } from './expr.js';
import { DROPPING, toCollection, toStream } from './items.js';
import { K, type Key } from './keys.js';
import { sweep } from './segments.js';

/**
 * Deletes what dropped collections and streams of a namespace leave behind (spec §2.3):
 * index entries (releasing their objects' counts), heads, tags, pointer history, then the
 * records themselves. Idempotent and resumable: run it again after any failure.
 */
export async function janitor(cx: DynamoContext, ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
  v.id('ns', ns);
  cx.needTx('janitor');
  return cx.write('janitor', w, async (ctx) => {
    const rows = await cx.sdk.query({
      KeyConditionExpression: 'pk = :p',
      FilterExpression: '#s = :d',
      ExpressionAttributeNames: { '#s': 'state' },
      ExpressionAttributeValues: { ':p': { S: K.nsPk(ns) }, ':d': { S: DROPPING } },
    });
    let collections = 0;
    let streams = 0;
    for (const r of rows.filter((x) => String(x.sk).startsWith('stream#'))) {
      const s = toStream(r);
      for (let p = 0; p < s.partitions; p++) {
        await sweep(cx, ctx, ns, s.id, p, Number.MAX_SAFE_INTEGER);
      }
      const heads = await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.headPk(ns, s.id) } } });
      await deleteAll(cx, heads.map((h) => ({ pk: String(h.pk), sk: String(h.sk) })));
      streams++;
    }
    for (const r of rows.filter((x) => String(x.sk).startsWith('coll#'))) {
      const c = toCollection(r);
      for (const t of await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.tagPk(ns, c.id) } } })) {
        const out = await cx.sdk.transact(ctx.op, [
          txDelete('tag', K.tag(ns, c.id, String(t.sk)), (e) => `attribute_exists(${e.a('pk')})`),
          txUpdate('obj', K.obj(String(t.path)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
        ], `${ctx.tokenBase}\u0000tag\u0000${c.id}\u0000${String(t.sk)}`);
        if (!out.ok && !out.failed.has('tag')) throw errors.retryable('conflict', 'janitor: a tag changed under it; run it again');
      }
      const ptrPk = K.ptr(ns, linkPointerKey(c.linkId)).pk;
      const hist = await cx.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: ptrPk } } });
      await deleteAll(cx, hist.map((h) => ({ pk: String(h.pk), sk: String(h.sk) })));
      await deleteAll(cx, [K.link(ns, c.linkId)]);
      collections++;
    }
    // Records last, so a janitor that stops half-way finds its work again.
    await deleteAll(cx, rows.filter((x) => /^(stream|coll)#/.test(String(x.sk))).map((x) => ({ pk: String(x.pk), sk: String(x.sk) })));
    // Sweeps run in idempotent chunks until done, so one call finishes the namespace.
    return { collections, streams, done: true };
  });
}

async function deleteAll(cx: DynamoContext, keys: Key[]): Promise<void> {
  for (const k of keys) {
    await cx.sdk.writeOne('janitor', { delete: { Key: { pk: { S: k.pk }, sk: { S: k.sk } } } });
  }
}

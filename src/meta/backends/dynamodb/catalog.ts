// Catalog calls on namespaces and streams (spec §2.3): creates take ids from the counter item,
// then one TransactWriteItems of the name item (attribute_not_exists, ALL_OLD → AlreadyExists
// with the existing id), the record, the namespace's live check and child count, and the
// catalog change `chg#<v+1>`. Drops mark the record dropping and delete the name in one
// transaction; the janitor deletes the rest. The Alternator profile creates namespaces with
// single-item writes, the name item being the commit point. Lists page over name items.
import type { CreateNamespace, CreateStream, ReadOptions } from '../../contract.js';
import { errors } from '../../errors.js';
import type { ChangeKind, Namespace, Page, PageRequest, Retention, Stamp, Stream, WriteContext } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { single, txDelete, txPut, txUpdate, type Build } from './expr.js';
import { AGAIN, DROPPING, LIVE, lost, setAll, streamItem, toNamespace, toStream, unexpected, toWire } from './items.js';
import { K, byteCompare, nameRange, type Key } from './keys.js';
import { checkDropStream, checkNamespaceEmpty, retentionOrDefault } from '../../core/catalog.js';
import { pageArgs, paged } from '../../core/paging.js';

export async function createNamespace(cx: DynamoContext, req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
  const org = req?.org;
  const name = req?.name;
  if (cx.profile === 'alternator') return createNamespaceSingle(cx, org, name, w, req?.id);
  return cx.write('createNamespace', w, async (ctx) => {
    // An id allocated by a sharded store's directory (spec §10) is used as given; the record's
    // attribute_not_exists condition refuses one already held. The counter item is not raised:
    // a table serving a sharded store takes every namespace id from the directory.
    const { namespace: id } = req?.id !== undefined ? { namespace: req.id } : await cx.nextIds(['namespace'] as const);
    const ns: Namespace = { id, org, name, state: 'live', created: ctx.stamp };
    return cx.attempts(ctx.op, async () => {
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txPut('name', K.nsName(org, name), { ...ns }, (e) => `attribute_not_exists(${e.a('pk')})`),
        txPut('ns', K.ns(id), { ...ns, colls: 0, streams: 0 }, (e) => `attribute_not_exists(${e.a('pk')})`),
        ...cx.chgItems(version, id, 'namespace.created', null, ctx.stamp),
      ], ns);
      if ('result' in out) {
        cx.chgDone(version);
        return out.result;
      }
      const existing = out.failed.get('name');
      if (existing) throw errors.alreadyExists(`namespace ${org}/${name}`, Number(existing.id));
      if (out.failed.has('ns')) throw errors.alreadyExists(`namespace id ${id}`, id);
      if (out.failed.has('chg')) return cx.chgLost();
      if (out.conflict) return AGAIN;
      throw unexpected(ctx.op, out);
    });
  });
}

/**
 * The single-item profile's create: the name item is the commit point (attribute_not_exists
 * with ALL_OLD: AlreadyExists carries the existing id; a retry with the same requestId finds
 * its own nonce there and finishes the call). The record by id and the catalog change follow
 * as idempotent single-item writes; README.md says what a crash between them leaves.
 */
async function createNamespaceSingle(cx: DynamoContext, org: string, name: string, w?: WriteContext, given?: number): Promise<Namespace> {
  return cx.write('createNamespace', w, async (ctx) => {
    const { namespace: id } = given !== undefined ? { namespace: given } : await cx.nextIds(['namespace'] as const);
    let ns: Namespace = { id, org, name, state: 'live', created: ctx.stamp };
    const nameKey = K.nsName(org, name);
    const r = await cx.attempts(ctx.op, async () => {
      const w1 = await cx.sdk.writeOne(ctx.op, {
        put: {
          Item: { ...toWire({ ...ns, nonce: ctx.requestId ?? null }), pk: { S: nameKey.pk }, sk: { S: nameKey.sk } },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      return !w1.ok && w1.conflict ? AGAIN : w1;
    });
    let chg: number | null = null;
    if (!r.ok) {
      const old = r.old;
      if (!old) throw new Error('dynamodb metastore: a failed name condition returned no item');
      if (ctx.requestId === undefined || old.nonce !== ctx.requestId) throw errors.alreadyExists(`namespace ${org}/${name}`, Number(old.id));
      ns = toNamespace(old);
      chg = old.chg === undefined ? null : Number(old.chg);
    }
    await cx.sdk.update({ ...single(K.ns(ns.id), (e) => setAll(e, { ...ns, colls: 0, streams: 0 })) });
    if (chg === null) await appendChangeSingle(cx, nameKey, ns.id, 'namespace.created', null, ctx.stamp);
    return ns;
  });
}

/** Records a catalog change with single-item writes: the first free version, then a mark on `owner`. */
async function appendChangeSingle(cx: DynamoContext, owner: Key, ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): Promise<void> {
  await cx.attempts('catalogChange', async () => {
    const version = await cx.chgVersion();
    const k = K.chg(version);
    const r = await cx.sdk.writeOne('catalogChange', {
      put: { Item: { ...toWire({ version, ns, kind, id, stamp }), pk: { S: k.pk }, sk: { S: k.sk } }, ConditionExpression: 'attribute_not_exists(pk)' },
    });
    if (!r.ok) return cx.chgLost();
    cx.chgDone(version);
    // The namespace's newest change, kept by the feed's pruning (never lowered).
    await cx.sdk
      .update(single(K.chgNs(ns), (e) => `SET ${e.a('version')} = ${e.v(version)}`, (e) => `attribute_not_exists(${e.a('version')}) OR ${e.a('version')} < ${e.v(version)}`))
      .catch((err: unknown) => {
        if ((err as { name?: string }).name !== 'ConditionalCheckFailedException') throw err;
      });
    await cx.sdk.update(single(owner, (e) => `SET ${e.a('chg')} = ${e.v(version)}`));
    return undefined;
  });
}

export async function dropNamespace(cx: DynamoContext, ns: number, w?: WriteContext): Promise<void> {
  cx.needTx('dropNamespace');
  return cx.write('dropNamespace', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const cur = await cx.liveNamespace(ns);
      const c = Number(cur.colls ?? 0);
      const s = Number(cur.streams ?? 0);
      checkNamespaceEmpty(ns, c, s);
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txUpdate('ns', K.ns(ns), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) =>
          `${e.a('state')} = ${e.v(LIVE)} AND ${e.a('colls')} = ${e.v(0)} AND ${e.a('streams')} = ${e.v(0)}`),
        txDelete('name', K.nsName(String(cur.org), String(cur.name)), (e) => `${e.a('id')} = ${e.v(ns)}`),
        ...cx.chgItems(version, ns, 'namespace.dropped', null, ctx.stamp),
      ], null);
      if ('result' in out) {
        cx.chgDone(version);
        return undefined;
      }
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'ns', 'name')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  ) as Promise<void>;
}

export async function namespace(cx: DynamoContext, ns: number, opts?: ReadOptions): Promise<Namespace> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.ns(ns));
  if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
  return toNamespace(r);
}

export async function namespaceByName(cx: DynamoContext, org: string, name: string): Promise<Namespace> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.nsName(org, name));
  if (!r) throw errors.notFound(`namespace ${org}/${name}`);
  return toNamespace({ ...r, state: LIVE });
}

export async function listNamespaces(cx: DynamoContext, org: string, page?: PageRequest): Promise<Page<Namespace>> {
  const p = pageArgs(page);
  cx.checkOpen();
  const rows = await listNames(cx, K.nsNamePk(org), '', p);
  return paged(rows.map((r) => toNamespace({ ...r, state: LIVE })), p.limit, (n) => n.name);
}

/** Name items under `pk` whose sort key is keyPrefix + name: the page's names, in order. */
export async function listNames(cx: DynamoContext, pk: string, keyPrefix: string, p: { prefix: string; after: string | null; limit: number }): Promise<Item[]> {
  const range = nameRange(keyPrefix, p.prefix, p.after);
  if (!range) return [];
  const rows = await cx.sdk.query(
    range.lo === ''
      ? { KeyConditionExpression: 'pk = :p AND sk <= :hi', ExpressionAttributeValues: { ':p': { S: pk }, ':hi': { S: range.hi } } }
      : {
          KeyConditionExpression: 'pk = :p AND sk BETWEEN :lo AND :hi',
          ExpressionAttributeValues: { ':p': { S: pk }, ':lo': { S: range.lo }, ':hi': { S: range.hi } },
        },
    p.limit + 2,
  );
  return rows
    .filter((r) => {
      const n = String(r.sk).slice(keyPrefix.length);
      return n.startsWith(p.prefix) && (p.after === null || byteCompare(n, p.after) > 0);
    })
    .slice(0, p.limit + 1);
}
export async function createStream(cx: DynamoContext, req: CreateStream, w?: WriteContext): Promise<Stream> {
  const ns = req?.ns;
  const name = req.name;
  const partitions = req.partitions;
  const retention = retentionOrDefault(req.retention);
  cx.needTx('createStream');
  return cx.write('createStream', w, async (ctx) => {
    const { stream: id } = await cx.nextIds(['stream'] as const);
    const s: Stream = { ns, id, name, partitions, retention, implicit: false, state: 'live', created: ctx.stamp };
    const notExists: Build = (e) => `attribute_not_exists(${e.a('pk')})`;
    return cx.attempts(ctx.op, async () => {
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txUpdate('ns', K.ns(ns), (e) => `ADD ${e.a('streams')} ${e.v(1)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        txPut('name', K.streamName(ns, name), { id }, notExists),
        txPut('stream', K.stream(ns, id), streamItem(s), notExists),
        ...cx.chgItems(version, ns, 'stream.created', id, ctx.stamp),
      ], s);
      if ('result' in out) {
        cx.chgDone(version);
        cx.cacheParts(ns, id, partitions);
        return out.result;
      }
      if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
      const existing = out.failed.get('name');
      if (existing) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, Number(existing.id));
      if (out.failed.has('chg')) return cx.chgLost();
      if (out.conflict) return AGAIN;
      throw unexpected(ctx.op, out);
    });
  });
}

export async function dropStream(cx: DynamoContext, ns: number, stream: number, w?: WriteContext): Promise<void> {
  cx.needTx('dropStream');
  return cx.write('dropStream', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const s = toStream(await cx.liveStreamItem(ns, stream));
      checkDropStream(s);
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txUpdate('stream', K.stream(ns, stream), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        txDelete('name', K.streamName(ns, s.name), (e) => `${e.a('id')} = ${e.v(stream)}`),
        txUpdate('nsc', K.ns(ns), (e) => `ADD ${e.a('streams')} ${e.v(-1)}`),
        ...cx.chgItems(version, ns, 'stream.dropped', stream, ctx.stamp),
      ], null);
      if ('result' in out) {
        cx.chgDone(version);
        return undefined;
      }
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'stream', 'name')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  ) as Promise<void>;
}

export async function stream(cx: DynamoContext, ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.stream(ns, stream));
  if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
  return toStream(r);
}

export async function listStreams(cx: DynamoContext, ns: number, page?: PageRequest): Promise<Page<Stream>> {
  const p = pageArgs(page);
  cx.checkOpen();
  await cx.liveNamespace(ns);
  const names = await listNames(cx, K.nsPk(ns), 'streamname#', p);
  const recs = await cx.sdk.batchGet(names.map((r) => K.stream(ns, Number(r.id))));
  const live = recs.filter((r): r is Item => r !== undefined && r.state === LIVE).map(toStream);
  return paged(live, p.limit, (s) => s.name);
}

export async function setRetention(cx: DynamoContext, ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
  const r = retentionOrDefault(retention);
  cx.needTx('setRetention');
  return cx.write('setRetention', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const s = toStream(await cx.liveStreamItem(ns, stream));
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txUpdate(
          'stream',
          K.stream(ns, stream),
          (e) => `SET ${e.a('retMs')} = ${e.v(r.ms)}, ${e.a('retBytes')} = ${e.v(r.bytes)}`,
          (e) => `${e.a('state')} = ${e.v(LIVE)}`,
        ),
        ...cx.chgItems(version, ns, 'stream.retention', stream, ctx.stamp),
      ], { ...s, retention: r });
      if ('result' in out) {
        cx.chgDone(version);
        return out.result;
      }
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'stream')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

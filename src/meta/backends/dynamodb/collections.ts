// Catalog calls on collections and aliases (spec §2.3): createCollection is one transaction of
// the 7 items of the spec (partition heads are lazy); dropCollection marks the collection,
// stream and link dropping, deletes both names and the pointer, removes the collection from
// the alias map and bumps the alias item's `gen`, in one transaction; updateAliases is one
// item with a version, conditioned on its `gen`, so no alias names a collection dropped
// after the read.
import type { CreateCollection, ReadOptions } from '../../contract.js';
import { implicitStreamName, linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import type { AliasAction, Aliases, Collection, CollectionSchema, Page, PageRequest, WriteContext } from '../../types.js';
import type { Item } from './codec.js';
import type { DynamoContext } from './context.js';
import { txCheck, txDelete, txPut, txUpdate, type Build } from './expr.js';
import { AGAIN, DROPPING, LIVE, collItem, lost, streamItem, toCollection, unexpected } from './items.js';
import { K } from './keys.js';
import type { TxItem } from './sdk.js';
import { listNames } from './catalog.js';
import { aliasesWithout, applyAliases, collectionLogRetentionOrDefault, copySchema, manifestRetentionOrDefault, schemaUpdate } from '../../core/catalog.js';
import { pageArgs, paged } from '../../core/paging.js';

export async function createCollection(cx: DynamoContext, req: CreateCollection, w?: WriteContext): Promise<Collection> {
  const ns = req?.ns;
  const name = req.name;
  const schema = copySchema(req.schema);
  const partitions = req.partitions;
  const retention = collectionLogRetentionOrDefault(req.retention);
  const mret = manifestRetentionOrDefault(req.manifestRetentionMs);
  cx.needTx('createCollection');
  return cx.write('createCollection', w, async (ctx) => {
    const ids = await cx.nextIds(['collection', 'stream', 'link'] as const);
    const coll: Collection = {
      ns,
      id: ids.collection,
      name,
      schema,
      schemaVersion: 1,
      streamId: ids.stream,
      linkId: ids.link,
      partitions,
      manifestRetentionMs: mret,
      state: 'live',
      created: ctx.stamp,
    };
    const sname = implicitStreamName(name);
    const notExists: Build = (e) => `attribute_not_exists(${e.a('pk')})`;
    return cx.attempts(ctx.op, async () => {
      const version = await cx.chgVersion();
      // One transaction of 7 items (spec §2.3); partition heads are lazy.
      const out = await cx.submit(ctx, [
        txUpdate('ns', K.ns(ns), (e) => `ADD ${e.a('colls')} ${e.v(1)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        txPut('name', K.collName(ns, name), { id: coll.id }, notExists),
        txPut('coll', K.coll(ns, coll.id), collItem(coll), notExists),
        txPut('sname', K.streamName(ns, sname), { id: coll.streamId }, notExists),
        txPut('stream', K.stream(ns, coll.streamId), streamItem({ ns, id: coll.streamId, name: sname, partitions, retention, implicit: true, state: 'live', created: ctx.stamp }), notExists),
        txPut('link', K.link(ns, coll.linkId), { ns, id: coll.linkId, streamId: coll.streamId, collectionId: coll.id, state: LIVE }, notExists),
        ...cx.chgItems(version, ns, 'collection.created', coll.id, ctx.stamp),
      ], coll);
      if ('result' in out) {
        cx.chgDone(version);
        cx.cacheParts(ns, coll.streamId, partitions);
        return out.result;
      }
      if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
      const existing = out.failed.get('name');
      if (existing) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, Number(existing.id));
      if (out.failed.has('chg')) return cx.chgLost();
      if (out.conflict) return AGAIN;
      throw unexpected(ctx.op, out);
    });
  });
}

export async function dropCollection(cx: DynamoContext, ns: number, collection: number, w?: WriteContext): Promise<void> {
  cx.needTx('dropCollection');
  return cx.write('dropCollection', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const c = toCollection(await cx.liveCollectionItem(ns, collection));
      const key = linkPointerKey(c.linkId);
      // Aliases are read first: updateAliases' transaction is conditioned on their `gen`,
      // which every drop bumps, so no alias can be set to this collection after this read.
      const [a, p, sItem] = await cx.sdk.batchGet([K.aliases(ns), K.ptr(ns, key), K.stream(ns, c.streamId)]);
      const items: TxItem[] = [
        txUpdate('coll', K.coll(ns, collection), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        txDelete('name', K.collName(ns, c.name), (e) => `${e.a('id')} = ${e.v(collection)}`),
        txUpdate('stream', K.stream(ns, c.streamId), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`),
        txDelete('sname', K.streamName(ns, String(sItem?.name ?? implicitStreamName(c.name))), (e) => `${e.a('id')} = ${e.v(c.streamId)}`),
        txUpdate('link', K.link(ns, c.linkId), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`),
        txUpdate('nsc', K.ns(ns), (e) => `ADD ${e.a('colls')} ${e.v(-1)}`),
      ];
      if (p) {
        items.push(txDelete('ptr', K.ptr(ns, key), (e) => `${e.a('version')} = ${e.v(Number(p.version))}`));
        items.push(txUpdate('pobj', K.obj(String(p.value)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`));
      } else {
        items.push(txCheck('ptr', K.ptr(ns, key), (e) => `attribute_not_exists(${e.a('pk')})`));
      }
      const map = a ? (JSON.parse(String(a.map)) as Record<string, number>) : {};
      const without = aliasesWithout(map, collection);
      const kept = without ?? map;
      const changedMap = without !== null;
      const aver = Number(a?.version ?? 0);
      items.push(
        txUpdate(
          'aliases',
          K.aliases(ns),
          (e) =>
            `SET ${e.a('version')} = ${e.v(changedMap ? aver + 1 : aver)}, ${e.a('map')} = ${e.v(JSON.stringify(kept))} ADD ${e.a('gen')} ${e.v(1)}`,
          (e) => (a ? `${e.a('version')} = ${e.v(aver)}` : `attribute_not_exists(${e.a('pk')})`),
        ),
      );
      const version = await cx.chgVersion();
      items.push(...cx.chgItems(version, ns, 'collection.dropped', collection, ctx.stamp));
      const out = await cx.submit(ctx, items, null);
      if ('result' in out) {
        cx.chgDone(version);
        return undefined;
      }
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'coll', 'ptr', 'pobj', 'aliases', 'name', 'sname')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  ) as Promise<void>;
}

export async function collection(cx: DynamoContext, ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
  cx.checkOpen();
  const r = await cx.sdk.get(K.coll(ns, collection));
  if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
  return toCollection(r);
}

export async function collectionByName(cx: DynamoContext, ns: number, name: string): Promise<Collection> {
  cx.checkOpen();
  const n = await cx.sdk.get(K.collName(ns, name));
  const r = n ? await cx.sdk.get(K.coll(ns, Number(n.id))) : undefined;
  if (!r || r.state !== LIVE) throw errors.notFound(`collection ${name} in namespace ${ns}`);
  return toCollection(r);
}

export async function listCollections(cx: DynamoContext, ns: number, page?: PageRequest): Promise<Page<Collection>> {
  const p = pageArgs(page);
  cx.checkOpen();
  await cx.liveNamespace(ns);
  const names = await listNames(cx, K.nsPk(ns), 'collname#', p);
  const recs = await cx.sdk.batchGet(names.map((r) => K.coll(ns, Number(r.id))));
  const live = recs.filter((r): r is Item => r !== undefined && r.state === LIVE).map(toCollection);
  return paged(live, p.limit, (c) => c.name);
}

export async function updateCollectionSchema(
  cx: DynamoContext,
  ns: number,
  collection: number,
  expectedVersion: number,
  schema: CollectionSchema,
  w?: WriteContext,
): Promise<Collection> {
  const s = copySchema(schema);
  cx.needTx('updateCollectionSchema');
  return cx.write('updateCollectionSchema', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      const c = toCollection(await cx.liveCollectionItem(ns, collection));
      const next = schemaUpdate(c, expectedVersion, s);
      const version = await cx.chgVersion();
      const out = await cx.submit(ctx, [
        txUpdate(
          'coll',
          K.coll(ns, collection),
          (e) => `SET ${e.a('schema')} = ${e.v(JSON.stringify(s))}, ${e.a('schemaVersion')} = ${e.v(next.schemaVersion)}`,
          (e) => `${e.a('state')} = ${e.v(LIVE)} AND ${e.a('schemaVersion')} = ${e.v(c.schemaVersion)}`,
        ),
        ...cx.chgItems(version, ns, 'collection.schema', collection, ctx.stamp),
      ], next);
      if ('result' in out) {
        cx.chgDone(version);
        return out.result;
      }
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'coll')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function updateAliases(cx: DynamoContext, ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
  cx.needTx('updateAliases');
  return cx.write('updateAliases', w, (ctx) =>
    cx.attempts(ctx.op, async () => {
      // The alias item first (its version and gen), then the collections it will name.
      const [nsItem, a] = await cx.sdk.batchGet([K.ns(ns), K.aliases(ns)]);
      if (!nsItem || nsItem.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
      const version = Number(a?.version ?? 0);
      const stored = a ? (JSON.parse(String(a.map)) as Record<string, number>) : {};
      // An early VersionMismatch before reading the targets; the rule below decides in full.
      applyAliases(ns, version, stored, [], expectedVersion, () => {});
      const targets = [...new Set(actions.flatMap((x) => (x.op === 'set' ? [x.collection] : [])))];
      const recs = await cx.sdk.batchGet(targets.map((id) => K.coll(ns, id)));
      const next = applyAliases(ns, version, stored, actions, expectedVersion, (id) => {
        const r = recs[targets.indexOf(id)];
        if (!r || r.state !== LIVE) throw errors.notFound(`collection ${id} in namespace ${ns}`);
      });
      const map = next.aliases;
      const result: Aliases = { ns, version: next.version, aliases: map };
      const cv = await cx.chgVersion();
      const gen = Number(a?.gen ?? 0);
      const out = await cx.submit(ctx, [
        // A collection named here was live when read after this item; any drop since bumped gen.
        txPut('aliases', K.aliases(ns), { version: next.version, map: JSON.stringify(map), gen }, (e) =>
          a ? `${e.a('version')} = ${e.v(version)} AND ${e.a('gen')} = ${e.v(gen)}` : `attribute_not_exists(${e.a('pk')})`),
        txCheck('ns', K.ns(ns), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        ...cx.chgItems(cv, ns, 'aliases', null, ctx.stamp),
      ], result);
      if ('result' in out) {
        cx.chgDone(cv);
        return out.result;
      }
      if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
      if (out.failed.has('chg')) return cx.chgLost();
      if (lost(out, 'aliases')) return AGAIN;
      throw unexpected(ctx.op, out);
    }),
  );
}

export async function aliases(cx: DynamoContext, ns: number): Promise<Aliases> {
  cx.checkOpen();
  const [nsItem, a] = await cx.sdk.batchGet([K.ns(ns), K.aliases(ns)]);
  if (!nsItem || nsItem.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
  return { ns, version: Number(a?.version ?? 0), aliases: a ? (JSON.parse(String(a.map)) as Record<string, number>) : {} };
}

// Catalog of the PostgreSQL backend: namespaces, collections (with their implicit stream and
// link), aliases and explicit streams (spec §3.3, §5.4).
//
// Tables namespaces, collections, streams, links, aliases; ids from the counters rows (locked
// in kind order); every change also bumps catalog_counter and inserts its catalog_changes row
// in the same statement, which NOTIFYs (shared.ts recordChange). Creates: plain reads for
// early typed errors, then INSERT … ON CONFLICT (ns, name) WHERE state = 'live' DO NOTHING
// (no row: AlreadyExists with the winner's id), with the namespace row FOR SHARE so a drop
// waits or is seen. Drops lock their row FOR UPDATE and mark it 'dropping' (the janitor,
// tags-gc.ts, deletes it later).
import { pageArgs, prefixEnd } from '../../core/paging.js';
import {
  aliasesWithout,
  applyAliases,
  checkDropStream,
  checkNamespaceEmpty,
  collectionLogRetentionOrDefault,
  copySchema,
  manifestRetentionOrDefault,
  retentionOrDefault,
  schemaUpdate,
} from '../../core/catalog.js';
import type { CreateCollection, CreateNamespace, CreateStream, ReadOptions } from '../../contract.js';
import { implicitStreamName, linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import type {
  AliasAction,
  Aliases,
  Collection,
  CollectionSchema,
  Namespace,
  Page,
  PageRequest,
  Retention,
  Stream,
  WriteContext,
} from '../../types.js';
import { paged, toCollection, toNamespace, toStream, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { nextIds, recordChange, adjustRefs, shareNamespace, liveNamespace, writable } from './shared.js';
import { SQL } from './sql.js';
import type { WriteTx } from './tx.js';

export async function createNamespace(ctx: PgContext, req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
  const org = req.org;
  const name = req.name;
  return ctx.write('createNamespace', w, async (tx) => {
    const existing = await tx.one<{ id: number }>("SELECT id FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
    if (existing) throw errors.alreadyExists(`namespace ${org}/${name}`, existing.id);
    await tx.beforeWrite();
    let id: number | undefined;
    if (req.id !== undefined) {
      // An id allocated by a sharded store's directory (spec §10): never reused here either.
      id = req.id;
      if (await tx.one('SELECT 1 FROM namespaces WHERE id = $1', [id])) throw errors.alreadyExists(`namespace id ${id}`, id);
      await tx.q("UPDATE counters SET value = GREATEST(value, $1) WHERE kind = 'namespace'", [id]);
    } else ({ namespace: id } = await nextIds(tx, ['namespace']));
    const ins = await tx.one(
      `INSERT INTO namespaces (id, org, name, state, created) VALUES ($1, $2, $3, 'live', $4)
       ON CONFLICT (org, name) WHERE state = 'live' DO NOTHING RETURNING id`,
      [id, org, name, tx.stamp],
    );
    if (!ins) {
      // A concurrent create won the name; this statement sees its committed row.
      const won = await tx.one<{ id: number }>("SELECT id FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
      if (won) throw errors.alreadyExists(`namespace ${org}/${name}`, won.id);
      throw errors.retryable('conflict', `namespace ${org}/${name} was created and dropped concurrently`);
    }
    await recordChange(tx, id!, 'namespace.created', null);
    return { id: id!, org, name, state: 'live', created: tx.stamp } satisfies Namespace;
  });
}

export async function dropNamespace(ctx: PgContext, ns: number, w?: WriteContext): Promise<void> {
  return ctx.write('dropNamespace', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    // The namespace row is locked: creates in it hold FOR SHARE, so none is in flight now,
    // and every one committed before is visible to the counts below.
    const r = await tx.one<{ state: string }>('SELECT state FROM namespaces WHERE id = $1 FOR UPDATE', [ns]);
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
    const n = (await tx.one<{ c: number; s: number }>(
      `SELECT (SELECT count(*) FROM collections WHERE ns = $1 AND state = 'live') AS c,
              (SELECT count(*) FROM streams WHERE ns = $1 AND state = 'live') AS s`,
      [ns],
    ))!;
    checkNamespaceEmpty(ns, Number(n.c), Number(n.s));
    await tx.q("UPDATE namespaces SET state = 'dropping' WHERE id = $1", [ns]);
    await recordChange(tx, ns, 'namespace.dropped', null);
  });
}

export async function namespace(ctx: PgContext, ns: number, opts?: ReadOptions): Promise<Namespace> {
  const r = await ctx.readOne('SELECT * FROM namespaces WHERE id = $1', [ns]);
  if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
  return toNamespace(r);
}

export async function namespaceByName(ctx: PgContext, org: string, name: string): Promise<Namespace> {
  const r = await ctx.readOne("SELECT * FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
  if (!r) throw errors.notFound(`namespace ${org}/${name}`);
  return toNamespace(r);
}

export async function listNamespaces(ctx: PgContext, org: string, page?: PageRequest): Promise<Page<Namespace>> {
  const p = pageArgs(page);
  const end = prefixEnd(p.prefix);
  // Keyset paging on one index range (namespaces_list or namespaces_name); state is the constant the range implies.
  const rows = await ctx.read(
    `SELECT id, org, name, 'live' AS state, created FROM namespaces WHERE org = $1 AND state = 'live' AND name > $3 AND name >= $2${end === null ? '' : ' AND name < $5'}
       AND starts_with(name, $2)
     ORDER BY name LIMIT $4`,
    [org, p.prefix, p.after ?? '', p.limit + 1, ...(end === null ? [] : [end])],
  );
  return paged(rows.map(toNamespace), p.limit, (n) => n.name);
}

export async function createCollection(ctx: PgContext, req: CreateCollection, w?: WriteContext): Promise<Collection> {
  const ns = req.ns;
  const name = req.name;
  const schema = copySchema(req.schema);
  const partitions = req.partitions;
  const retention = collectionLogRetentionOrDefault(req.retention);
  const mret = manifestRetentionOrDefault(req.manifestRetentionMs);
  return ctx.write('createCollection', w, async (tx) => {
    await writable(tx, ns);
    const pre = (await tx.one<{ ns_state: string | null; existing: number | null }>(SQL.CREATE_COLLECTION_PRE, [ns, name]))!;
    if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
    if (pre.existing !== null) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, pre.existing);
    await tx.beforeWrite();
    await shareNamespace(tx, ns);
    const ids = await nextIds(tx, ['collection', 'stream', 'link']);
    const id = ids.collection!;
    const streamId = ids.stream!;
    const linkId = ids.link!;
    const ins = await tx.one(SQL.INSERT_COLLECTION, [
      ns,
      id,
      name,
      JSON.stringify(schema),
      streamId,
      linkId,
      partitions,
      mret,
      tx.stamp,
    ]);
    if (!ins) {
      const won = await tx.one<{ id: number }>("SELECT id FROM collections WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
      if (won) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, won.id);
      throw errors.retryable('conflict', `collection ${name} was created and dropped concurrently`);
    }
    await tx.q(SQL.INSERT_IMPLICIT_STREAM, [
      ns,
      streamId,
      implicitStreamName(name),
      partitions,
      retention.ms,
      retention.bytes,
      tx.stamp,
      linkId,
      id,
    ]);
    await recordChange(tx, ns, 'collection.created', id);
    return {
      ns,
      id,
      name,
      schema,
      schemaVersion: 1,
      streamId,
      linkId,
      partitions,
      manifestRetentionMs: mret,
      state: 'live',
      created: tx.stamp,
    } satisfies Collection;
  });
}

export async function dropCollection(ctx: PgContext, ns: number, collection: number, w?: WriteContext): Promise<void> {
  return ctx.write('dropCollection', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    const r = await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2 FOR UPDATE', [ns, collection]);
    if (!r || r.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    const c = toCollection(r);
    await tx.q(
      `WITH c AS (UPDATE collections SET state = 'dropping' WHERE ns = $1 AND id = $2),
            s AS (UPDATE streams SET state = 'dropping' WHERE ns = $1 AND id = $3)
       UPDATE links SET state = 'dropping' WHERE ns = $1 AND id = $4`,
      [ns, collection, c.streamId, c.linkId],
    );
    const p = await tx.one<{ value: string }>('DELETE FROM pointers WHERE ns = $1 AND key = $2 RETURNING value', [ns, linkPointerKey(c.linkId)]);
    if (p) await adjustRefs(tx, [{ path: p.value, kind: 'manifest', delta: -1 }]);
    const a = await tx.one<{ version: number; map: Record<string, number> }>('SELECT version, map FROM aliases WHERE ns = $1 FOR UPDATE', [ns]);
    const kept = a ? aliasesWithout(a.map, collection) : null;
    if (kept) await tx.q('UPDATE aliases SET version = $1, map = $2 WHERE ns = $3', [a!.version + 1, JSON.stringify(kept), ns]);
    await recordChange(tx, ns, 'collection.dropped', collection);
  });
}

export async function collection(ctx: PgContext, ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
  const r = await ctx.readOne('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection]);
  if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
  return toCollection(r);
}

export async function collectionByName(ctx: PgContext, ns: number, name: string): Promise<Collection> {
  const r = await ctx.readOne("SELECT * FROM collections WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
  if (!r) throw errors.notFound(`collection ${name} in namespace ${ns}`);
  return toCollection(r);
}

/** One statement: the namespace's state and a page of its live rows of `table`, by name. */
async function listInNamespace(ctx: PgContext, table: 'collections' | 'streams', ns: number, page: PageRequest | undefined): Promise<Row[]> {
  const p = pageArgs(page);
  const rows = await ctx.read<{ ns_state: string; r: Row | null }>(
    `SELECT n.state AS ns_state, row_to_json(t) AS r FROM namespaces n
     LEFT JOIN LATERAL (SELECT * FROM ${table} WHERE ns = n.id AND state = 'live' AND starts_with(name, $2) AND name > $3
                        ORDER BY name LIMIT $4) t ON true
     WHERE n.id = $1 ORDER BY t.name`,
    [ns, p.prefix, p.after ?? '', p.limit + 1],
  );
  if (rows.length === 0 || rows[0]!.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
  return rows.flatMap((x) => (x.r ? [x.r] : []));
}

export async function listCollections(ctx: PgContext, ns: number, page?: PageRequest): Promise<Page<Collection>> {
  const p = pageArgs(page);
  const rows = await listInNamespace(ctx, 'collections', ns, page);
  return paged(rows.map(toCollection), p.limit, (c) => c.name);
}

export async function updateCollectionSchema(
    ctx: PgContext,
  ns: number,
  collection: number,
  expectedVersion: number,
  schema: CollectionSchema,
  w?: WriteContext,
): Promise<Collection> {
  const s = copySchema(schema);
  return ctx.write('updateCollectionSchema', w, async (tx) => {
    await writable(tx, ns);
    const check = (r: Row | undefined): Collection => {
      if (!r || r.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
      return schemaUpdate(toCollection(r), expectedVersion, s);
    };
    const next = check(await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection]));
    await tx.beforeWrite();
    const up = await tx.one(
      `UPDATE collections SET schema = $1, schema_version = schema_version + 1
       WHERE ns = $2 AND id = $3 AND state = 'live' AND schema_version = $4 RETURNING schema_version`,
      [JSON.stringify(s), ns, collection, expectedVersion],
    );
    if (!up) check(await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection])); // throws the current reason
    await recordChange(tx, ns, 'collection.schema', collection);
    return next;
  });
}

export async function updateAliases(ctx: PgContext, ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
  return ctx.write('updateAliases', w, async (tx) => {
    await writable(tx, ns);
    await liveNamespace(tx, ns);
    // An early VersionMismatch before any lock; the rule runs again on the locked row below.
    const cur = await tx.one<{ version: number; map: Record<string, number> }>('SELECT version, map FROM aliases WHERE ns = $1', [ns]);
    applyAliases(ns, cur?.version ?? 0, cur?.map ?? {}, [], expectedVersion, () => {});
    await tx.beforeWrite();
    // Targets of 'set' are locked FOR SHARE: a concurrent dropCollection (which also removes
    // the collection from the aliases) waits for this call, or this call sees it dropped.
    const targets = [...new Set(actions.flatMap((a) => (a.op === 'set' ? [a.collection] : [])))].sort((x, y) => x - y);
    const live = new Set<number>();
    if (targets.length > 0) {
      const rows = await tx.q<{ id: number }>(
        "SELECT id FROM collections WHERE ns = $1 AND id = ANY($2::bigint[]) AND state = 'live' ORDER BY id FOR SHARE",
        [ns, targets],
      );
      for (const r of rows) live.add(Number(r.id));
    }
    await tx.q("INSERT INTO aliases (ns, version, map) VALUES ($1, 0, '{}') ON CONFLICT (ns) DO NOTHING", [ns]);
    const a = (await tx.one<{ version: number; map: Record<string, number> }>('SELECT version, map FROM aliases WHERE ns = $1 FOR UPDATE', [ns]))!;
    const next = applyAliases(ns, a.version, a.map, actions, expectedVersion, (c) => {
      if (!live.has(c)) throw errors.notFound(`collection ${c} in namespace ${ns}`);
    });
    await tx.q('UPDATE aliases SET version = $1, map = $2 WHERE ns = $3', [next.version, JSON.stringify(next.aliases), ns]);
    await recordChange(tx, ns, 'aliases', null);
    return { ns, version: next.version, aliases: next.aliases };
  });
}

export async function aliases(ctx: PgContext, ns: number): Promise<Aliases> {
  const r = await ctx.readOne<{ state: string | null; version: number | null; map: Record<string, number> | null }>(
    'SELECT n.state, a.version, a.map FROM namespaces n LEFT JOIN aliases a ON a.ns = n.id WHERE n.id = $1',
    [ns],
  );
  if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
  return { ns, version: r.version ?? 0, aliases: r.map ?? {} };
}

export async function createStream(ctx: PgContext, req: CreateStream, w?: WriteContext): Promise<Stream> {
  const ns = req.ns;
  const name = req.name;
  const partitions = req.partitions;
  const retention = retentionOrDefault(req.retention);
  return ctx.write('createStream', w, async (tx) => {
    await writable(tx, ns);
    const pre = (await tx.one<{ ns_state: string | null; existing: number | null }>(
      `SELECT (SELECT state FROM namespaces WHERE id = $1) AS ns_state,
              (SELECT id FROM streams WHERE ns = $1 AND name = $2 AND state = 'live') AS existing`,
      [ns, name],
    ))!;
    if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
    if (pre.existing !== null) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, pre.existing);
    await tx.beforeWrite();
    await shareNamespace(tx, ns);
    const { stream: id } = await nextIds(tx, ['stream']);
    const ins = await tx.one(
      `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
       VALUES ($1, $2, $3, $4, $5, $6, false, 'live', $7)
       ON CONFLICT (ns, name) WHERE state = 'live' DO NOTHING RETURNING id`,
      [ns, id, name, partitions, retention.ms, retention.bytes, tx.stamp],
    );
    if (!ins) {
      const won = await tx.one<{ id: number }>("SELECT id FROM streams WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
      if (won) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, won.id);
      throw errors.retryable('conflict', `stream ${name} was created and dropped concurrently`);
    }
    await recordChange(tx, ns, 'stream.created', id!);
    return { ns, id: id!, name, partitions, retention, implicit: false, state: 'live', created: tx.stamp } satisfies Stream;
  });
}

export async function dropStream(ctx: PgContext, ns: number, stream: number, w?: WriteContext): Promise<void> {
  return ctx.write('dropStream', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    const r = await tx.one('SELECT * FROM streams WHERE ns = $1 AND id = $2 FOR UPDATE', [ns, stream]);
    if (!r || r.state !== 'live') throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    checkDropStream(toStream(r));
    await tx.q("UPDATE streams SET state = 'dropping' WHERE ns = $1 AND id = $2", [ns, stream]);
    await recordChange(tx, ns, 'stream.dropped', stream);
  });
}

export async function stream(ctx: PgContext, ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
  const r = await ctx.readOne('SELECT * FROM streams WHERE ns = $1 AND id = $2', [ns, stream]);
  if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
  return toStream(r);
}

export async function listStreams(ctx: PgContext, ns: number, page?: PageRequest): Promise<Page<Stream>> {
  const p = pageArgs(page);
  const rows = await listInNamespace(ctx, 'streams', ns, page);
  return paged(rows.map(toStream), p.limit, (s) => s.name);
}

export async function setRetention(ctx: PgContext, ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
  const r = retentionOrDefault(retention);
  return ctx.write('setRetention', w, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    const s = await tx.one(
      `UPDATE streams SET retention_ms = $1, retention_bytes = $2 WHERE ns = $3 AND id = $4 AND state = 'live' RETURNING *`,
      [r.ms, r.bytes, ns, stream],
    );
    if (!s) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    await recordChange(tx, ns, 'stream.retention', stream);
    return toStream(s);
  });
}

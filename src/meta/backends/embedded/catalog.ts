// The embedded backend's catalog: namespaces, collections (with their implicit stream and
// link), streams, aliases and the janitor of dropped entities, mapped onto the tables of
// migrations.ts. Each write is one SqliteContext.write transaction that reads the rows the
// core's catalog rules need (core/catalog.ts), calls them, and writes what they return; each
// catalog change is one catalog_changes row in the same transaction. Names are unique among
// live rows by partial unique indexes, so dropping frees a name at once.
import type { CreateCollection, CreatedNamespace, CreateNamespace, CreateNamespaceWith, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import { implicitStreamName, linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { JANITOR_BATCH_ENTRIES } from '../../limits.js';
import {
  aliasesWithout,
  applyAliases,
  checkDropStream,
  checkNamespaceEmpty,
  copySchema,
  manifestRetentionOrDefault,
  collectionLogRetentionOrDefault,
  retentionOrDefault,
  schemaUpdate,
} from '../../core/catalog.js';
import { pageArgs, paged, prefixEnd, type PageArgs } from '../../core/paging.js';
import type { AliasAction, Aliases, Collection, CollectionSchema, Namespace, Page, PageRequest, Retention, Stream, WriteContext } from '../../types.js';
import { toCollection, toNamespace, toStream, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

export type CatalogCalls = Pick<
  MetaStore,
  | 'createNamespace'
  | 'createNamespaces'
  | 'dropNamespace'
  | 'namespace'
  | 'namespaceByName'
  | 'listNamespaces'
  | 'createCollection'
  | 'dropCollection'
  | 'janitor'
  | 'collection'
  | 'collectionByName'
  | 'listCollections'
  | 'updateCollectionSchema'
  | 'updateAliases'
  | 'aliases'
  | 'createStream'
  | 'dropStream'
  | 'stream'
  | 'listStreams'
  | 'setRetention'
>;

export function catalogCalls(ctx: SqliteContext): CatalogCalls {
  const aliasRow = (ns: number) => {
    const a = ctx.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
    return { version: a?.version ?? 0, map: a ? (JSON.parse(a.map) as Record<string, number>) : {}, exists: a !== undefined };
  };
  const putAliases = (ns: number, version: number, map: Record<string, number>) =>
    ctx.run(
      'INSERT INTO aliases (ns, version, map) VALUES (?, ?, ?) ON CONFLICT (ns) DO UPDATE SET version = excluded.version, map = excluded.map',
      ns,
      version,
      JSON.stringify(map),
    );

  /** Live collections or streams of a live namespace, one page by name (spec §5.4). */
  const listLiveByName = <T extends { name: string }>(table: 'collections' | 'streams', ns: number, p: PageArgs, map: (r: Row) => T): Page<T> => {
    ctx.liveNamespace(ns);
    const rows = ctx.all<Row>(
      `SELECT * FROM ${table} WHERE ns = ? AND state = 'live' AND substr(name, 1, ?) = ? AND name > ? ORDER BY name LIMIT ?`,
      ns,
      p.prefix.length,
      p.prefix,
      p.after ?? '',
      p.limit + 1,
    );
    return paged(rows.map(map), p.limit, (t) => t.name);
  };

  const insertStream = (s: Stream) =>
    ctx.run(
      `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
       VALUES (?, ?, ?, ?, ?, ?, ?, 'live', ?)`,
      s.ns,
      s.id,
      s.name,
      s.partitions,
      s.retention.ms,
      s.retention.bytes,
      s.implicit ? 1 : 0,
      s.created,
    );

  /** createNamespace's rows, in the current write (the single and the bulk create). */
  const insertNamespace = (req: CreateNamespace, stamp: number): Namespace => {
    const existing = ctx.get<{ id: number }>("SELECT id FROM namespaces WHERE org = ? AND name = ? AND state = 'live'", req.org, req.name);
    if (existing) throw errors.alreadyExists(`namespace ${req.org}/${req.name}`, existing.id);
    const id = req.id ?? ctx.nextId('namespace');
    if (req.id !== undefined) {
      // An id allocated by a sharded store's directory (spec §10): never reused here either.
      if (ctx.get('SELECT 1 FROM namespaces WHERE id = ?', id)) throw errors.alreadyExists(`namespace id ${id}`, id);
      ctx.run("UPDATE counters SET value = max(value, ?) WHERE kind = 'namespace'", id);
    }
    ctx.run("INSERT INTO namespaces (id, org, name, state, created) VALUES (?, ?, ?, 'live', ?)", id, req.org, req.name, stamp);
    ctx.recordChange(id, 'namespace.created', null, stamp);
    return { id, org: req.org, name: req.name, state: 'live', created: stamp } satisfies Namespace;
  };

  /** createCollection's rows, in the current write: the collection, its implicit stream and link. */
  const insertCollection = (req: CreateCollection, stamp: number): Collection => {
    const schema = copySchema(req.schema);
    const retention = collectionLogRetentionOrDefault(req.retention);
    const mret = manifestRetentionOrDefault(req.manifestRetentionMs);
    const { ns, name, partitions } = req;
    ctx.writable(ns);
    ctx.liveNamespace(ns);
    const existing = ctx.get<{ id: number }>("SELECT id FROM collections WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
    if (existing) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, existing.id);
    const id = ctx.nextId('collection');
    const streamId = ctx.nextId('stream');
    const linkId = ctx.nextId('link');
    insertStream({ ns, id: streamId, name: implicitStreamName(name), partitions, retention, implicit: true, state: 'live', created: stamp });
    ctx.run(
      `INSERT INTO collections (ns, id, name, schema, schema_version, stream_id, link_id, partitions,
         manifest_retention_ms, state, created) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, 'live', ?)`,
      ns,
      id,
      name,
      JSON.stringify(schema),
      streamId,
      linkId,
      partitions,
      mret,
      stamp,
    );
    ctx.run("INSERT INTO links (ns, id, stream_id, collection_id, state) VALUES (?, ?, ?, ?, 'live')", ns, linkId, streamId, id);
    ctx.recordChange(ns, 'collection.created', id, stamp);
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
      created: stamp,
    } satisfies Collection;
  };

  return {
    // ---------------------------------------------------------------- namespaces
    createNamespace: (req: CreateNamespace, w?: WriteContext) => ctx.write('createNamespace', w, (stamp) => insertNamespace(req, stamp)),

    createNamespaces: (reqs: CreateNamespaceWith[], w?: WriteContext) =>
      // One transaction for the whole call: every namespace and collection, or none.
      ctx.write('createNamespaces', w, (stamp) =>
        reqs.map((req): CreatedNamespace => {
          const namespace = insertNamespace(req, stamp);
          return { namespace, collections: (req.collections ?? []).map((c) => insertCollection({ ...c, ns: namespace.id }, stamp)) };
        }),
      ),

    dropNamespace: (ns: number, w?: WriteContext) =>
      ctx.write('dropNamespace', w, (stamp) => {
        ctx.writable(ns);
        ctx.liveNamespace(ns);
        const c = ctx.get<{ n: number }>("SELECT count(*) AS n FROM collections WHERE ns = ? AND state = 'live'", ns)!.n;
        const s = ctx.get<{ n: number }>("SELECT count(*) AS n FROM streams WHERE ns = ? AND state = 'live'", ns)!.n;
        checkNamespaceEmpty(ns, c, s);
        ctx.run("UPDATE namespaces SET state = 'dropping' WHERE id = ?", ns);
        ctx.recordChange(ns, 'namespace.dropped', null, stamp);
      }),

    namespace: (ns: number, opts?: ReadOptions) =>
      ctx.read(() => {
        const r = ctx.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns);
        if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
        return toNamespace(r);
      }),

    namespaceByName: (org: string, name: string) =>
      ctx.read(() => {
        const r = ctx.get<Row>("SELECT * FROM namespaces WHERE org = ? AND name = ? AND state = 'live'", org, name);
        if (!r) throw errors.notFound(`namespace ${org}/${name}`);
        return toNamespace(r);
      }),

    listNamespaces: (org: string, page?: PageRequest) => {
      const p = pageArgs(page);
      const end = prefixEnd(p.prefix);
      // Keyset paging on one covering index range (namespaces_list): org, then names after the
      // cursor within the prefix; rows as arrays.
      const rows = ctx.read(() =>
        ctx.rows<[number, string, number]>(
          `SELECT id, name, created FROM namespaces INDEXED BY namespaces_list
           WHERE org = ? AND state = 'live' AND name > ? AND name >= ?${end === null ? '' : ' AND name < ?'} AND substr(name, 1, ?) = ?
           ORDER BY name LIMIT ?`,
          org,
          p.after ?? '',
          p.prefix,
          ...(end === null ? [] : [end]),
          p.prefix.length,
          p.prefix,
          p.limit + 1,
        ),
      );
      return rows.then((r) =>
        paged(
          r.map(([id, name, created]): Namespace => ({ id, org, name, state: 'live', created })),
          p.limit,
          (n) => n.name,
        ),
      );
    },

    // ---------------------------------------------------------------- collections
    createCollection: (req: CreateCollection, w?: WriteContext) => ctx.write('createCollection', w, (stamp) => insertCollection(req, stamp)),

    dropCollection: (ns: number, collection: number, w?: WriteContext) =>
      ctx.write('dropCollection', w, (stamp) => {
        ctx.writable(ns);
        const c = ctx.liveCollection(ns, collection);
        ctx.run("UPDATE collections SET state = 'dropping' WHERE ns = ? AND id = ?", ns, collection);
        ctx.run("UPDATE streams SET state = 'dropping' WHERE ns = ? AND id = ?", ns, c.streamId);
        ctx.run("UPDATE links SET state = 'dropping' WHERE ns = ? AND id = ?", ns, c.linkId);
        const key = linkPointerKey(c.linkId);
        const p = ctx.get<{ value: string }>('SELECT value FROM pointers WHERE ns = ? AND key = ?', ns, key);
        if (p) {
          ctx.dropRef(p.value, 1, stamp);
          ctx.run('DELETE FROM pointers WHERE ns = ? AND key = ?', ns, key);
        }
        const a = aliasRow(ns);
        const kept = a.exists ? aliasesWithout(a.map, collection) : null;
        if (kept) putAliases(ns, a.version + 1, kept);
        ctx.recordChange(ns, 'collection.dropped', collection, stamp);
      }),

    janitor: (ns: number, w?: WriteContext) =>
      ctx.write('janitor', w, (stamp) => {
        ctx.writable(ns);
        // Bounded: at most JANITOR_BATCH_ENTRIES index entries per call; done: false means call again.
        let budget = JANITOR_BATCH_ENTRIES;
        let streams = 0;
        for (const { id } of ctx.all<{ id: number }>("SELECT id FROM streams WHERE ns = ? AND state = 'dropping' ORDER BY id", ns)) {
          const entries = ctx.all<{ partition: number; start: number; path: string }>(
            'SELECT partition, start, path FROM index_entries WHERE ns = ? AND stream = ? ORDER BY partition, start LIMIT ?',
            ns,
            id,
            budget + 1,
          );
          const batch = entries.slice(0, budget);
          for (const e of batch) {
            ctx.dropRef(e.path, 1, stamp);
            ctx.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start = ?', ns, id, e.partition, e.start);
          }
          budget -= batch.length;
          if (entries.length > batch.length) return { collections: 0, streams, done: false };
          ctx.run('DELETE FROM heads WHERE ns = ? AND stream = ?', ns, id);
          ctx.run('DELETE FROM streams WHERE ns = ? AND id = ?', ns, id);
          streams++;
        }
        // Collections last: their implicit streams are gone by now, so a janitor stopped
        // half-way finds its work again.
        let collections = 0;
        for (const c of ctx.all<Row>("SELECT * FROM collections WHERE ns = ? AND state = 'dropping' ORDER BY id", ns).map(toCollection)) {
          for (const t of ctx.all<{ path: string }>('SELECT path FROM tags WHERE ns = ? AND collection = ?', ns, c.id)) ctx.dropRef(t.path, 1, stamp);
          ctx.run('DELETE FROM tags WHERE ns = ? AND collection = ?', ns, c.id);
          ctx.run('DELETE FROM pointer_history WHERE ns = ? AND key = ?', ns, linkPointerKey(c.linkId));
          ctx.run('DELETE FROM links WHERE ns = ? AND id = ?', ns, c.linkId);
          ctx.run('DELETE FROM collections WHERE ns = ? AND id = ?', ns, c.id);
          collections++;
        }
        return { collections, streams, done: true };
      }),

    collection: (ns: number, collection: number, opts?: ReadOptions) =>
      ctx.read(() => {
        const r = ctx.get<Row>('SELECT * FROM collections WHERE ns = ? AND id = ?', ns, collection);
        if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
        return toCollection(r);
      }),

    collectionByName: (ns: number, name: string) =>
      ctx.read(() => {
        const r = ctx.get<Row>("SELECT * FROM collections WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
        if (!r) throw errors.notFound(`collection ${name} in namespace ${ns}`);
        return toCollection(r);
      }),

    listCollections: (ns: number, page?: PageRequest) => {
      const p = pageArgs(page);
      return ctx.read(() => listLiveByName('collections', ns, p, toCollection));
    },

    updateCollectionSchema: (ns: number, collection: number, expectedVersion: number, schema: CollectionSchema, w?: WriteContext) =>
      ctx.write('updateCollectionSchema', w, (stamp) => {
        ctx.writable(ns);
        const next = schemaUpdate(ctx.liveCollection(ns, collection), expectedVersion, schema);
        ctx.run('UPDATE collections SET schema = ?, schema_version = ? WHERE ns = ? AND id = ?', JSON.stringify(next.schema), next.schemaVersion, ns, collection);
        ctx.recordChange(ns, 'collection.schema', collection, stamp);
        return next;
      }),

    // ---------------------------------------------------------------- aliases
    updateAliases: (ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext) =>
      ctx.write('updateAliases', w, (stamp) => {
        ctx.writable(ns);
        ctx.liveNamespace(ns);
        const a = aliasRow(ns);
        const next = applyAliases(ns, a.version, a.map, actions, expectedVersion, (c) => void ctx.liveCollection(ns, c));
        putAliases(ns, next.version, next.aliases);
        ctx.recordChange(ns, 'aliases', null, stamp);
        return { ns, ...next } satisfies Aliases;
      }),

    aliases: (ns: number) =>
      ctx.read(() => {
        ctx.liveNamespace(ns);
        const a = aliasRow(ns);
        return { ns, version: a.version, aliases: a.map } satisfies Aliases;
      }),

    // ---------------------------------------------------------------- streams
    createStream: (req: CreateStream, w?: WriteContext) => {
      const retention = retentionOrDefault(req.retention);
      return ctx.write('createStream', w, (stamp) => {
        const { ns, name, partitions } = req;
        ctx.writable(ns);
        ctx.liveNamespace(ns);
        const existing = ctx.get<{ id: number }>("SELECT id FROM streams WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
        if (existing) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, existing.id);
        const s: Stream = { ns, id: ctx.nextId('stream'), name, partitions, retention, implicit: false, state: 'live', created: stamp };
        insertStream(s);
        ctx.recordChange(ns, 'stream.created', s.id, stamp);
        return s;
      });
    },

    dropStream: (ns: number, stream: number, w?: WriteContext) =>
      ctx.write('dropStream', w, (stamp) => {
        ctx.writable(ns);
        checkDropStream(ctx.liveStream(ns, stream));
        ctx.run("UPDATE streams SET state = 'dropping' WHERE ns = ? AND id = ?", ns, stream);
        ctx.recordChange(ns, 'stream.dropped', stream, stamp);
      }),

    stream: (ns: number, stream: number, opts?: ReadOptions) =>
      ctx.read(() => {
        const r = ctx.get<Row>('SELECT * FROM streams WHERE ns = ? AND id = ?', ns, stream);
        if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
        return toStream(r);
      }),

    listStreams: (ns: number, page?: PageRequest) => {
      const p = pageArgs(page);
      return ctx.read(() => listLiveByName('streams', ns, p, toStream));
    },

    setRetention: (ns: number, stream: number, retention: Retention, w?: WriteContext) => {
      const r = retentionOrDefault(retention);
      return ctx.write('setRetention', w, (stamp) => {
        ctx.writable(ns);
        const s = ctx.liveStream(ns, stream);
        ctx.run('UPDATE streams SET retention_ms = ?, retention_bytes = ? WHERE ns = ? AND id = ?', r.ms, r.bytes, ns, stream);
        ctx.recordChange(ns, 'stream.retention', stream, stamp);
        return { ...s, retention: r };
      });
    },
  };
}

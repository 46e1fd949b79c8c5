// The embedded backend's move calls (src/meta/moves.ts, spec §5.5): the fence is two columns
// of the namespace row (move_state, move_epoch) that every write reads in its BEGIN
// IMMEDIATE transaction (context.ts writable), so a fence commits between writes, never
// inside one. A copy is read from one snapshot and written in one transaction. The rules
// are the core's (core/moves.ts); here: which rows.
import { errors } from '../../errors.js';
import {
  checkExportable,
  fenceRule,
  importRule,
  maxIds,
  moveStateOf,
  removeRule,
  unfenceRule,
  walCounts,
} from '../../core/moves.js';
import type { NamespaceMoveStorage, NamespaceRows } from '../../moves.js';
import type { Stamp } from '../../types.js';
import { scopeKey, toNamespace, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

/** The object paths a namespace owns: ns/<id>/… ('0' follows '/' in byte order). */
export function ownedPathRange(ns: number): [string, string] {
  return [`ns/${ns}/`, `ns/${ns}0`];
}

export function moveCalls(ctx: SqliteContext): NamespaceMoveStorage {
  /** Deletes every row of the namespace but its namespace row, counting down the WAL live counts its entries held. */
  const deleteRows = (ns: number, stamp: Stamp) => {
    const wal = ctx.all<{ path: string; n: number }>("SELECT path, count(*) AS n FROM index_entries WHERE ns = ? AND kind = 'wal' GROUP BY path", ns);
    for (const w of wal) ctx.dropRef(w.path, w.n, stamp);
    for (const t of ['streams', 'collections', 'links', 'aliases', 'heads', 'index_entries', 'pointers', 'pointer_history', 'tags']) {
      ctx.run(`DELETE FROM ${t} WHERE ns = ?`, ns);
    }
    ctx.run('DELETE FROM leases WHERE scope = ?', scopeKey(ns));
    const [lo, hi] = ownedPathRange(ns);
    ctx.run('DELETE FROM object_refs WHERE path >= ? AND path < ?', lo, hi);
  };

  return {
    moveState: (ns) => ctx.read(() => moveStateOf(ns, ctx.fenceRow(ns))),

    fenceNamespace: (ns, epoch) =>
      ctx.write('fenceNamespace', undefined, () => {
        const row = ctx.fenceRow(ns);
        if (fenceRule(ns, row, epoch) === 'apply') ctx.run("UPDATE namespaces SET move_state = 'fenced', move_epoch = ? WHERE id = ?", epoch, ns);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    unfenceNamespace: (ns, epoch) =>
      ctx.write('unfenceNamespace', undefined, () => {
        if (unfenceRule(ns, ctx.fenceRow(ns), epoch) === 'apply') ctx.run('UPDATE namespaces SET move_state = NULL WHERE id = ?', ns);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    exportNamespace: (ns) =>
      ctx.read(() => {
        checkExportable(ns, ctx.fenceRow(ns));
        const [lo, hi] = ownedPathRange(ns);
        // Each table as one JSON array built by SQLite in the copy's shape: a namespace's rows
        // leave in one snapshot without a JavaScript object per column.
        const json = <T>(sql: string, ...args: unknown[]): T[] => JSON.parse(ctx.get<{ j: string }>(sql, ...args)!.j) as T[];
        const n = toNamespace(ctx.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns)!);
        const a = ctx.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
        const rows: NamespaceRows = {
          format: 1,
          namespace: { id: n.id, org: n.org, name: n.name, state: n.state, created: n.created },
          streams: json(`SELECT json_group_array(json_object('ns', ns, 'id', id, 'name', name, 'partitions', partitions,
              'retention', json_object('ms', retention_ms, 'bytes', retention_bytes), 'implicit', json(iif(implicit, 'true', 'false')),
              'state', state, 'created', created)) AS j FROM (SELECT * FROM streams WHERE ns = ? ORDER BY id)`, ns),
          collections: json(`SELECT json_group_array(json_object('ns', ns, 'id', id, 'name', name, 'schema', json(schema),
              'schemaVersion', schema_version, 'streamId', stream_id, 'linkId', link_id, 'partitions', partitions,
              'manifestRetentionMs', manifest_retention_ms, 'state', state, 'created', created)) AS j
              FROM (SELECT * FROM collections WHERE ns = ? ORDER BY id)`, ns),
          links: json(`SELECT json_group_array(json_object('ns', ns, 'id', id, 'streamId', stream_id, 'collectionId', collection_id, 'state', state)) AS j
              FROM (SELECT * FROM links WHERE ns = ? ORDER BY id)`, ns),
          aliases: a ? { version: a.version, map: JSON.parse(a.map) as Record<string, number> } : null,
          heads: json(`SELECT json_group_array(json_object('stream', stream, 'partition', partition, 'next', next, 'logStart', log_start, 'bytes', bytes)) AS j
              FROM (SELECT * FROM heads WHERE ns = ? ORDER BY stream, partition)`, ns),
          index: json(`SELECT json_group_array(json_object('stream', stream, 'partition', partition, 'start', start, 'end', end, 'kind', kind,
              'path', path, 'byteStart', byte_start, 'byteEnd', byte_end, 'records', records)) AS j
              FROM (SELECT * FROM index_entries WHERE ns = ? ORDER BY stream, partition, start)`, ns),
          pointers: json(`SELECT json_group_array(json_object('ns', ns, 'key', key, 'version', version, 'value', value, 'stamp', stamp)) AS j
              FROM (SELECT * FROM pointers WHERE ns = ? ORDER BY key)`, ns),
          pointerHistory: json(`SELECT json_group_array(json_object('key', key, 'version', version, 'value', value, 'superseded', superseded)) AS j
              FROM (SELECT * FROM pointer_history WHERE ns = ? ORDER BY key, version)`, ns),
          leases: json(`SELECT json_group_array(json_object('key', key, 'owner', owner, 'epoch', epoch, 'deadline', deadline)) AS j
              FROM (SELECT * FROM leases WHERE scope = ? ORDER BY key)`, scopeKey(ns)),
          tags: json(`SELECT json_group_array(json_object('ns', ns, 'collection', collection, 'name', name, 'manifestVersion', version,
              'manifestPath', path, 'created', created, 'rewrittenBy', rewritten_by)) AS j
              FROM (SELECT * FROM tags WHERE ns = ? ORDER BY collection, name)`, ns),
          objects: json(`SELECT json_group_array(json_object('path', path, 'kind', kind, 'refs', refs, 'claimOwner', claim_owner,
              'claimStamp', claim_stamp, 'claimEpoch', claim_epoch, 'deleted', json(iif(deleted, 'true', 'false')), 'retired', retired)) AS j
              FROM (SELECT * FROM object_refs WHERE path >= ? AND path < ? ORDER BY path)`, lo, hi),
        };
        return rows;
      }),

    importNamespace: (rows, epoch) =>
      ctx.write('importNamespace', undefined, (stamp) => {
        const ns = rows.namespace.id;
        importRule(rows, ctx.fenceRow(ns), epoch);
        if (rows.namespace.state !== 'live') throw errors.invalid('rows.namespace.state', `only a live namespace moves; got ${rows.namespace.state}`);
        const n = rows.namespace;
        const taken = ctx.get<{ id: number }>("SELECT id FROM namespaces WHERE org = ? AND name = ? AND state = 'live' AND id <> ?", n.org, n.name, ns);
        if (taken) throw errors.alreadyExists(`another namespace named ${n.org}/${n.name} on the target shard`, taken.id);
        deleteRows(ns, stamp);
        ctx.run('DELETE FROM namespaces WHERE id = ?', ns);
        ctx.run("INSERT INTO namespaces (id, org, name, state, created, move_state, move_epoch) VALUES (?, ?, ?, ?, ?, 'fenced', ?)", n.id, n.org, n.name, n.state, n.created, epoch);
        for (const s of rows.streams) {
          ctx.run(
            `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            ns, s.id, s.name, s.partitions, s.retention.ms, s.retention.bytes, s.implicit ? 1 : 0, s.state, s.created,
          );
        }
        for (const c of rows.collections) {
          ctx.run(
            `INSERT INTO collections (ns, id, name, schema, schema_version, stream_id, link_id, partitions, manifest_retention_ms, state, created)
             VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            ns, c.id, c.name, JSON.stringify(c.schema), c.schemaVersion, c.streamId, c.linkId, c.partitions, c.manifestRetentionMs, c.state, c.created,
          );
        }
        for (const l of rows.links) ctx.run('INSERT INTO links (ns, id, stream_id, collection_id, state) VALUES (?, ?, ?, ?, ?)', ns, l.id, l.streamId, l.collectionId, l.state);
        if (rows.aliases) ctx.run('INSERT INTO aliases (ns, version, map) VALUES (?, ?, ?)', ns, rows.aliases.version, JSON.stringify(rows.aliases.map));
        for (const h of rows.heads) ctx.run('INSERT INTO heads (ns, stream, partition, next, log_start, bytes) VALUES (?, ?, ?, ?, ?, ?)', ns, h.stream, h.partition, h.next, h.logStart, h.bytes);
        for (const e of rows.index) {
          ctx.run(
            'INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
            ns, e.stream, e.partition, e.start, e.end, e.kind, e.path, e.byteStart, e.byteEnd, e.records,
          );
        }
        for (const p of rows.pointers) ctx.run('INSERT INTO pointers (ns, key, version, value, stamp) VALUES (?, ?, ?, ?, ?)', ns, p.key, p.version, p.value, p.stamp);
        for (const h of rows.pointerHistory) ctx.run('INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES (?, ?, ?, ?, ?)', ns, h.key, h.version, h.value, h.superseded);
        for (const l of rows.leases) ctx.run('INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES (?, ?, ?, ?, ?)', scopeKey(ns), l.key, l.owner, l.epoch, l.deadline);
        for (const t of rows.tags) {
          ctx.run('INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES (?, ?, ?, ?, ?, ?, ?)', ns, t.collection, t.name, t.manifestVersion, t.manifestPath, t.created, t.rewrittenBy);
        }
        for (const o of rows.objects) {
          ctx.run(
            'INSERT INTO object_refs (path, kind, refs, claim_owner, claim_stamp, claim_epoch, deleted, retired) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
            o.path, o.kind, o.refs, o.claimOwner, o.claimStamp, o.claimEpoch, o.deleted ? 1 : 0, o.retired,
          );
        }
        // The shard's live count of each WAL object the entries point into (spec §5.2); Claimed if GC claimed one here.
        for (const [path, n] of walCounts(rows)) ctx.addRef(path, 'wal', n);
        for (const [kind, id] of Object.entries(maxIds(rows))) ctx.run('UPDATE counters SET value = max(value, ?) WHERE kind = ?', id, kind);
        ctx.recordChange(ns, 'namespace.created', null, stamp);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    removeNamespaceCopy: (ns, epoch, opts) =>
      ctx.write('removeNamespaceCopy', undefined, (stamp) => {
        if (removeRule(ns, ctx.fenceRow(ns), epoch, opts.tombstone) === 'apply') {
          deleteRows(ns, stamp);
          if (opts.tombstone) ctx.run("UPDATE namespaces SET state = 'moved', move_state = NULL WHERE id = ?", ns);
          else ctx.run('DELETE FROM namespaces WHERE id = ?', ns);
        }
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),
  };
}

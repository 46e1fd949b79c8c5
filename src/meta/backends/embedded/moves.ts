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
import { scopeKey, toCollection, toEntry, toNamespace, toPointer, toStream, toTag, type Row } from '../sql/rows.js';
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
        const a = ctx.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
        const rows: NamespaceRows = {
          format: 1,
          namespace: toNamespace(ctx.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns)!),
          streams: ctx.all<Row>('SELECT * FROM streams WHERE ns = ? ORDER BY id', ns).map(toStream),
          collections: ctx.all<Row>('SELECT * FROM collections WHERE ns = ? ORDER BY id', ns).map(toCollection),
          links: ctx
            .all<Row>('SELECT * FROM links WHERE ns = ? ORDER BY id', ns)
            .map((r) => ({ ns, id: r.id as number, streamId: r.stream_id as number, collectionId: r.collection_id as number, state: r.state as 'live' })),
          aliases: a ? { version: a.version, map: JSON.parse(a.map) as Record<string, number> } : null,
          heads: ctx
            .all<Row>('SELECT * FROM heads WHERE ns = ? ORDER BY stream, partition', ns)
            .map((r) => ({ stream: r.stream as number, partition: r.partition as number, next: r.next as number, logStart: r.log_start as number, bytes: r.bytes as number })),
          index: ctx.all<Row>('SELECT * FROM index_entries WHERE ns = ? ORDER BY stream, partition, start', ns).map((r) => ({ ...toEntry(r), stream: r.stream as number })),
          pointers: ctx.all<Row>('SELECT * FROM pointers WHERE ns = ? ORDER BY key', ns).map(toPointer),
          pointerHistory: ctx
            .all<Row>('SELECT * FROM pointer_history WHERE ns = ? ORDER BY key, version', ns)
            .map((r) => ({ key: r.key as string, version: r.version as number, value: r.value as string, superseded: (r.superseded as number | null) ?? null })),
          leases: ctx
            .all<Row>('SELECT * FROM leases WHERE scope = ? ORDER BY key', scopeKey(ns))
            .map((r) => ({ key: r.key as string, owner: (r.owner as string | null) ?? null, epoch: r.epoch as number, deadline: r.deadline as number })),
          tags: ctx.all<Row>('SELECT * FROM tags WHERE ns = ? ORDER BY collection, name', ns).map(toTag),
          objects: ctx.all<Row>('SELECT * FROM object_refs WHERE path >= ? AND path < ? ORDER BY path', lo, hi).map((r) => ({
            path: r.path as string,
            kind: r.kind as string,
            refs: r.refs as number,
            claimOwner: (r.claim_owner as string | null) ?? null,
            claimStamp: (r.claim_stamp as number | null) ?? null,
            claimEpoch: (r.claim_epoch as number | null) ?? null,
            deleted: r.deleted === 1,
            retired: (r.retired as number | null) ?? null,
          })),
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

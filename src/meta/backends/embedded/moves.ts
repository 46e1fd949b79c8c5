// The embedded backend's move calls (src/meta/moves.ts, spec §5.5): the fence is two columns
// of the namespace row (move_state, move_epoch) that every write reads in its BEGIN
// IMMEDIATE transaction (context.ts writable), so a fence commits between writes, never
// inside one. A pre-copy's changes are recorded by the tracking triggers (backends/sql/moves.ts).
// A copy or a delta is read from one snapshot and written in one transaction. The rules are
// the core's (core/moves.ts); the tables and keys are backends/sql/moves.ts'; here: the SQL.
import { errors } from '../../errors.js';
import {
  changesImportRule,
  checkChangesExportable,
  checkRemoveLimit,
  checkExportable,
  fenceRule,
  importRule,
  maxIds,
  moveStateOf,
  removeRule,
  retireRule,
  takeRule,
  trackRule,
  unfenceRule,
  walCounts,
  walDeltas,
} from '../../core/moves.js';
import { ROW_KINDS, type NamespaceDelta, type NamespaceMoveStorage, type NamespaceRows, type RowKind } from '../../moves.js';
import type { IndexEntry, Stamp } from '../../types.js';
import { DUE_NOW } from '../../core/due.js';
import { MOVED_TABLES, movedTable, sqliteDeleteKeys, sqliteDropTrackingTriggers, sqliteOwned, sqliteRowsOf, sqliteTrackingTriggers } from '../sql/moves.js';
import { toNamespace, type Row } from '../sql/rows.js';
import type { SqliteContext } from './context.js';

/** The object paths a namespace owns: ns/<id>/… ('0' follows '/' in byte order). */
export function ownedPathRange(ns: number): [string, string] {
  return [`ns/${ns}/`, `ns/${ns}0`];
}

/** Each kind's rows as SQLite builds them in the copy's shape (one JSON array per table: no JavaScript object per column), and their order. */
const PROJECTIONS: Record<RowKind, { json: string; order: string }> = {
  streams: {
    json: `json_object('ns', ns, 'id', id, 'name', name, 'partitions', partitions, 'retention', json_object('ms', retention_ms, 'bytes', retention_bytes),
      'implicit', json(iif(implicit, 'true', 'false')), 'state', state, 'created', created)`,
    order: 'id',
  },
  collections: {
    json: `json_object('ns', ns, 'id', id, 'name', name, 'schema', json(schema), 'schemaVersion', schema_version, 'streamId', stream_id,
      'linkId', link_id, 'partitions', partitions, 'manifestRetentionMs', manifest_retention_ms, 'state', state, 'created', created)`,
    order: 'id',
  },
  links: { json: `json_object('ns', ns, 'id', id, 'streamId', stream_id, 'collectionId', collection_id, 'state', state)`, order: 'id' },
  aliases: { json: `json_object('version', version, 'map', json(map))`, order: 'ns' },
  heads: { json: `json_object('stream', stream, 'partition', partition, 'next', next, 'logStart', log_start, 'bytes', bytes, 'mark', mark)`, order: 'stream, partition' },
  index: {
    json: `json_object('stream', stream, 'partition', partition, 'start', start, 'end', end, 'kind', kind, 'path', path,
      'byteStart', byte_start, 'byteEnd', byte_end, 'records', records)`,
    order: 'stream, partition, start',
  },
  pointers: { json: `json_object('ns', ns, 'key', key, 'version', version, 'value', value, 'stamp', stamp)`, order: 'key' },
  pointerHistory: { json: `json_object('key', key, 'version', version, 'value', value, 'superseded', superseded)`, order: 'key, version' },
  leases: { json: `json_object('key', key, 'owner', owner, 'epoch', epoch, 'deadline', deadline)`, order: 'key' },
  tags: {
    json: `json_object('ns', ns, 'collection', collection, 'name', name, 'manifestVersion', version, 'manifestPath', path, 'created', created, 'rewrittenBy', rewritten_by)`,
    order: 'collection, name',
  },
  tokens: { json: `json_object('id', id, 'op', op, 'result', json(result), 'stamp', stamp)`, order: 'id' },
  objects: {
    json: `json_object('path', path, 'kind', kind, 'refs', refs, 'claimOwner', claim_owner, 'claimStamp', claim_stamp, 'claimEpoch', claim_epoch,
      'deleted', json(iif(deleted, 'true', 'false')), 'retired', retired)`,
    order: 'path',
  },
};

type Tables = Omit<NamespaceRows, 'format' | 'namespace'>;

export function moveCalls(ctx: SqliteContext): NamespaceMoveStorage {
  /** Every kind's rows of the namespace: all of them, or those at the keys tracking recorded. */
  const readRows = (ns: number, which: 'all' | 'changed'): Tables => {
    const out: Record<string, unknown> = {};
    for (const kind of ROW_KINDS) {
      const p = PROJECTIONS[kind];
      const j = ctx.get<{ j: string }>(`SELECT json_group_array(${p.json}) AS j FROM (${sqliteRowsOf(movedTable(kind), which)} ORDER BY ${p.order})`, { ns })!.j;
      out[kind] = JSON.parse(j) as unknown[];
    }
    const aliases = out.aliases as Array<{ version: number; map: Record<string, number> }>;
    return { ...(out as unknown as Omit<Tables, 'aliases'>), aliases: aliases[0] ?? null };
  };

  /** Counts down the WAL live counts the namespace's entries hold here, in one statement (spec §5.2: per shard). */
  const dropWalRefs = (ns: number, stamp: Stamp) => {
    const counted = `SELECT path, count(*) AS n FROM index_entries WHERE ns = @ns AND kind = 'wal' GROUP BY path`;
    const short = ctx.get<{ path: string }>(`SELECT o.path FROM object_refs o JOIN (${counted}) d ON o.path = d.path WHERE o.refs < d.n LIMIT 1`, { ns });
    if (short) throw new Error(`embedded metastore invariant violated: object ${short.path}: reference count would go negative`);
    ctx.run(
      `UPDATE object_refs SET refs = refs - d.n, retired = CASE WHEN refs - d.n = 0 AND kind = 'wal' THEN @stamp ELSE NULL END
       FROM (${counted}) AS d WHERE object_refs.path = d.path`,
      { ns, stamp },
    );
  };

  /** Deletes every row of the namespace but its namespace row, and its recorded changes. */
  const deleteRows = (ns: number, stamp: Stamp) => {
    dropWalRefs(ns, stamp);
    for (const t of MOVED_TABLES) ctx.run(`DELETE FROM ${t.table} WHERE ${sqliteOwned(t)}`, { ns });
    ctx.run('DELETE FROM move_changes WHERE ns = ?', ns);
  };

  /**
   * Removes at most `limit` of the namespace's rows, table by table, counting down the WAL
   * live counts of the index entries among them (spec §5.2); true once none is left.
   */
  const deleteSomeRows = (ns: number, stamp: Stamp, limit: number): boolean => {
    let left = limit;
    for (const t of MOVED_TABLES) {
      if (left === 0) return false;
      const cols = t.key.length > 0 ? t.key.map((k) => k.col).join(', ') : '1';
      const b = ctx.get<{ keys: string; n: number }>(
        `SELECT json_group_array(json_array(${cols})) AS keys, count(*) AS n FROM (SELECT ${cols} FROM ${t.table} WHERE ${sqliteOwned(t)} LIMIT @limit)`,
        { ns, limit: left },
      )!;
      if (b.n === 0) continue;
      if (t.kind === 'index') {
        const wal = ctx.all<{ path: string; n: number }>(
          `SELECT path, count(*) AS n FROM index_entries WHERE ns = @ns AND kind = 'wal' AND (stream, partition, start) IN
             (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(@keys)) GROUP BY path`,
          { ns, keys: b.keys },
        );
        for (const w of wal) ctx.dropRef(w.path, w.n, stamp);
      }
      ctx.run(sqliteDeleteKeys(t), { ns, keys: b.keys });
      left -= b.n;
    }
    ctx.run('DELETE FROM move_changes WHERE ns = ?', ns);
    return left > 0;
  };

  /** Inserts a copy's (or a delta's) rows; the namespace row is the caller's. */
  const insertRows = (ns: number, rows: Tables) => {
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
    // Every copied head is due at once (spec §5.4), so the target's workers look at each moved
    // partition again; its mark comes along, so a settle with a mark read before the move
    // applies only if no commit came in since (core/due.ts).
    for (const h of rows.heads) {
      ctx.run('INSERT INTO heads (ns, stream, partition, next, log_start, bytes, mark, due) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', ns, h.stream, h.partition, h.next, h.logStart, h.bytes, h.mark ?? 0, DUE_NOW);
    }
    for (const e of rows.index) {
      ctx.run(
        'INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
        ns, e.stream, e.partition, e.start, e.end, e.kind, e.path, e.byteStart, e.byteEnd, e.records,
      );
    }
    for (const p of rows.pointers) ctx.run('INSERT INTO pointers (ns, key, version, value, stamp) VALUES (?, ?, ?, ?, ?)', ns, p.key, p.version, p.value, p.stamp);
    for (const h of rows.pointerHistory) ctx.run('INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES (?, ?, ?, ?, ?)', ns, h.key, h.version, h.value, h.superseded);
    for (const l of rows.leases) ctx.run('INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES (?, ?, ?, ?, ?)', `ns/${ns}`, l.key, l.owner, l.epoch, l.deadline);
    for (const t of rows.tags) {
      ctx.run('INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES (?, ?, ?, ?, ?, ?, ?)', ns, t.collection, t.name, t.manifestVersion, t.manifestPath, t.created, t.rewrittenBy);
    }
    // A requestId names one call cluster-wide: a row already here is that call's.
    for (const k of rows.tokens) ctx.run('INSERT OR IGNORE INTO request_tokens (id, op, result, stamp, ns) VALUES (?, ?, ?, ?, ?)', k.id, k.op, JSON.stringify(k.result ?? null), k.stamp, ns);
    for (const o of rows.objects) {
      ctx.run(
        'INSERT INTO object_refs (path, kind, refs, claim_owner, claim_stamp, claim_epoch, deleted, retired) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        o.path, o.kind, o.refs, o.claimOwner, o.claimStamp, o.claimEpoch, o.deleted ? 1 : 0, o.retired,
      );
    }
  };

  const raiseCounters = (rows: NamespaceRows) => {
    for (const [kind, id] of Object.entries(maxIds(rows))) ctx.run('UPDATE counters SET value = max(value, ?) WHERE kind = ?', id, kind);
  };

  /** The tracking triggers go once no namespace here tracks (sql/moves.ts: writes pay for them only during a pre-copy). */
  const dropIdleTriggers = () => {
    if (!ctx.get("SELECT 1 FROM namespaces INDEXED BY namespaces_tracking WHERE move_state = 'tracking' LIMIT 1")) ctx.db.exec(sqliteDropTrackingTriggers());
  };

  /** The recorded keys and the rows now at them. */
  const deltaOf = (ns: number): NamespaceDelta => {
    const changed = Object.fromEntries(ROW_KINDS.map((k) => [k, [] as unknown[][]])) as NamespaceDelta['changed'];
    for (const r of ctx.all<{ kind: RowKind; k: string }>('SELECT kind, k FROM move_changes WHERE ns = ? ORDER BY kind, k', ns)) {
      changed[r.kind].push(JSON.parse(r.k) as unknown[]);
    }
    const namespace = namespaceRow(ns);
    return { format: 1, namespace, changed, rows: { format: 1, namespace, ...readRows(ns, 'changed') } };
  };

  const namespaceRow = (ns: number) => {
    const n = toNamespace(ctx.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns)!);
    return { id: n.id, org: n.org, name: n.name, state: n.state, created: n.created };
  };

  return {
    moveState: (ns) => ctx.read(() => moveStateOf(ns, ctx.fenceRow(ns))),

    trackNamespace: (ns, epoch) =>
      ctx.write('trackNamespace', undefined, () => {
        if (trackRule(ns, ctx.fenceRow(ns), epoch) === 'apply') {
          // The triggers first, in this transaction: every write after its commit records its keys.
          for (const sql of sqliteTrackingTriggers()) ctx.db.exec(sql);
          ctx.run('DELETE FROM move_changes WHERE ns = ?', ns);
          ctx.run("UPDATE namespaces SET move_state = 'tracking', move_epoch = ? WHERE id = ?", epoch, ns);
        }
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    fenceNamespace: (ns, epoch) =>
      ctx.write('fenceNamespace', undefined, () => {
        if (fenceRule(ns, ctx.fenceRow(ns), epoch) === 'apply') {
          ctx.run("UPDATE namespaces SET move_state = 'fenced', move_epoch = ? WHERE id = ?", epoch, ns);
          dropIdleTriggers();
        }
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    unfenceNamespace: (ns, epoch) =>
      ctx.write('unfenceNamespace', undefined, () => {
        if (unfenceRule(ns, ctx.fenceRow(ns), epoch) === 'apply') {
          ctx.run('UPDATE namespaces SET move_state = NULL WHERE id = ?', ns);
          ctx.run('DELETE FROM move_changes WHERE ns = ?', ns);
          dropIdleTriggers();
        }
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    exportNamespace: (ns) =>
      ctx.read(() => {
        checkExportable(ns, ctx.fenceRow(ns));
        return { format: 1, namespace: namespaceRow(ns), ...readRows(ns, 'all') } satisfies NamespaceRows;
      }),

    exportNamespaceChanges: (ns) =>
      ctx.read(() => {
        checkChangesExportable(ns, ctx.fenceRow(ns));
        return deltaOf(ns);
      }),

    takeNamespaceChanges: (ns, epoch) =>
      ctx.write('takeNamespaceChanges', undefined, () => {
        takeRule(ns, ctx.fenceRow(ns), epoch);
        // Writers are serialised: the keys forgotten here are exactly the ones read.
        const delta = deltaOf(ns);
        ctx.run('DELETE FROM move_changes WHERE ns = ?', ns);
        return delta;
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
        insertRows(ns, rows);
        // The shard's live count of each WAL object the entries point into (spec §5.2); Claimed if GC claimed one here.
        for (const [path, c] of walCounts(rows)) ctx.addRef(path, 'wal', c);
        raiseCounters(rows);
        ctx.recordChange(ns, 'namespace.created', null, stamp);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    importNamespaceChanges: (delta, epoch) =>
      ctx.write('importNamespaceChanges', undefined, (stamp) => {
        const ns = delta.namespace.id;
        changesImportRule(delta, ctx.fenceRow(ns), epoch);
        const before = delta.changed.index.length
          ? ctx.all<Pick<IndexEntry, 'kind' | 'path'>>(
              `SELECT kind, path FROM index_entries WHERE ns = @ns AND (stream, partition, start) IN
                 (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') FROM json_each(@keys))`,
              { ns, keys: JSON.stringify(delta.changed.index) },
            )
          : [];
        for (const t of MOVED_TABLES) {
          const keys = delta.changed[t.kind];
          if (keys.length > 0) ctx.run(sqliteDeleteKeys(t), { ns, keys: JSON.stringify(keys) });
        }
        insertRows(ns, delta.rows);
        for (const [path, n] of walDeltas(before, delta.rows.index)) {
          if (n > 0) ctx.addRef(path, 'wal', n);
          else ctx.dropRef(path, -n, stamp);
        }
        raiseCounters(delta.rows);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    retireNamespace: (ns, epoch) =>
      ctx.write('retireNamespace', undefined, () => {
        // One row: the rows stay, fenced, until removeNamespaceCopy (outside the fenced window).
        if (retireRule(ns, ctx.fenceRow(ns), epoch) === 'apply') ctx.run("UPDATE namespaces SET state = 'moved' WHERE id = ?", ns);
        return moveStateOf(ns, ctx.fenceRow(ns));
      }),

    removeNamespaceCopy: (ns, epoch, opts) => {
      checkRemoveLimit(opts.limit);
      return ctx.write('removeNamespaceCopy', undefined, (stamp) => {
        if (removeRule(ns, ctx.fenceRow(ns), epoch, opts.tombstone) === 'apply') {
          if (!opts.tombstone) {
            deleteRows(ns, stamp);
            ctx.run('DELETE FROM namespaces WHERE id = ?', ns);
          } else if (opts.limit === undefined) {
            deleteRows(ns, stamp);
            ctx.run("UPDATE namespaces SET state = 'moved', move_state = NULL WHERE id = ?", ns);
          } else {
            // Retired (if it was only fenced), then a batch; the fence comes down with the last row.
            ctx.run("UPDATE namespaces SET state = 'moved' WHERE id = ?", ns);
            if (deleteSomeRows(ns, stamp, opts.limit)) ctx.run('UPDATE namespaces SET move_state = NULL WHERE id = ?', ns);
          }
        }
        return moveStateOf(ns, ctx.fenceRow(ns));
      });
    },

    retiredNamespaces: (limit) =>
      ctx.read(() =>
        ctx
          .all<{ id: number; move_epoch: number }>(
            "SELECT id, move_epoch FROM namespaces INDEXED BY namespaces_retired WHERE state = 'moved' AND move_state = 'fenced' ORDER BY id LIMIT ?",
            limit,
          )
          .map((r) => ({ ns: r.id, state: 'retired' as const, epoch: r.move_epoch })),
      ),
  };
}

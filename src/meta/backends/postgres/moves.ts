// The PostgreSQL backend's move calls (src/meta/moves.ts, spec §5.5). The fence is two
// columns of the namespace row; every write takes that row FOR KEY SHARE and reads them
// (shared.ts writable), and fenceNamespace (like trackNamespace) takes it FOR UPDATE, which
// waits for every write in flight and is seen by every later one. A pre-copy's changes are
// recorded by the tracking triggers (backends/sql/moves.ts). A copy or a delta is read in one
// REPEATABLE READ snapshot and written in one transaction, one statement per table
// (json_populate_recordset). The rules are the core's (core/moves.ts); here: the SQL.
import { errors } from '../../errors.js';
import {
  changesImportRule,
  checkChangesExportable,
  checkExportable,
  checkRemoveLimit,
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
  type FenceRow,
} from '../../core/moves.js';
import { ROW_KINDS, type NamespaceDelta, type NamespaceMoveState, type NamespaceMoveStorage, type NamespaceRows, type RowKind } from '../../moves.js';
import type { IndexEntry } from '../../types.js';
import { DUE_NOW } from '../../core/due.js';
import { MOVED_TABLES, movedTable, pgDeleteKeys, pgOwned, pgRowsOf } from '../sql/moves.js';
import { scopeKey, toCollection, toEntry, toNamespace, toPointer, toStream, toTag, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { mapPgError } from './errors.js';
import { adjustRefs, recordChange } from './shared.js';
import { acquire, type WriteTx } from './tx.js';

const TABLES = MOVED_TABLES;

async function fenceRow(tx: WriteTx, ns: number, lock: boolean): Promise<FenceRow | null> {
  const r = await tx.one<{ state: string; move_state: string | null; move_epoch: number }>(
    `SELECT state, move_state, move_epoch FROM namespaces WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [ns],
  );
  return r ? { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch } : null;
}

/** Every row of the namespace but its namespace row, and its recorded changes; the WAL live counts its entries held are counted down. */
async function deleteRows(tx: WriteTx, ns: number): Promise<void> {
  const wal = await tx.q<{ path: string; n: number }>("SELECT path, count(*)::bigint AS n FROM index_entries WHERE ns = $1 AND kind = 'wal' GROUP BY path", [ns]);
  await adjustRefs(tx, wal.map((w) => ({ path: w.path, kind: 'wal', delta: -w.n })));
  for (const t of TABLES) await tx.q(`DELETE FROM ${t.table} x WHERE ${pgOwned(t, 'x')}`, [ns]);
  await tx.q('DELETE FROM move_changes WHERE ns = $1', [ns]);
}

/**
 * At most `limit` of the namespace's rows, table by table, with the WAL live counts of the
 * index entries among them counted down (spec §5.2); true once none is left.
 */
async function deleteSomeRows(tx: WriteTx, ns: number, limit: number): Promise<boolean> {
  let left = limit;
  for (const t of TABLES) {
    if (left === 0) return false;
    const sel = t.key.length > 0 ? t.key.map((k) => `x.${k.col}`).join(', ') : '1 AS one';
    const arr = t.key.length > 0 ? t.key.map((k) => `s.${k.col}`).join(', ') : 's.one';
    const b = (await tx.one<{ keys: unknown[]; n: number }>(
      `SELECT coalesce(jsonb_agg(jsonb_build_array(${arr})), '[]'::jsonb) AS keys, count(*)::bigint AS n
         FROM (SELECT ${sel} FROM ${t.table} x WHERE ${pgOwned(t, 'x')} LIMIT $2) s`,
      [ns, left],
    ))!;
    const n = Number(b.n);
    if (n === 0) continue;
    const gone = await tx.q<{ kind: string; path: string }>(pgDeleteKeys(t, t.kind === 'index' ? 'x.kind, x.path' : ''), [ns, JSON.stringify(b.keys)]);
    if (t.kind === 'index') {
      const wal = new Map<string, number>();
      for (const e of gone) if (e.kind === 'wal') wal.set(e.path, (wal.get(e.path) ?? 0) + 1);
      await adjustRefs(tx, [...wal].map(([path, n]) => ({ path, kind: 'wal', delta: -n })));
    }
    left -= n;
  }
  await tx.q('DELETE FROM move_changes WHERE ns = $1', [ns]);
  return left > 0;
}

/** One table's rows from a copy, as JSON objects keyed by column. */
async function insertAll(tx: WriteTx, table: string, rows: Record<string, unknown>[], conflict = ''): Promise<void> {
  if (rows.length === 0) return;
  await tx.q(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)${conflict}`, [JSON.stringify(rows)]);
}

type Tables = Omit<NamespaceRows, 'format' | 'namespace'>;
type Query = (text: string, values: unknown[]) => Promise<Row[]>;

/** Every kind's rows of the namespace (all, or those at the keys tracking recorded), in the copy's shape. */
async function readRows(q: Query, ns: number, which: 'all' | 'changed'): Promise<Tables> {
  const rowsOf = (kind: RowKind, order: string) => q(`${pgRowsOf(movedTable(kind), which)} ORDER BY ${order}`, [ns]);
  const a = (await rowsOf('aliases', 'x.ns'))[0];
  return {
    streams: (await rowsOf('streams', 'x.id')).map(toStream),
    collections: (await rowsOf('collections', 'x.id')).map(toCollection),
    links: (await rowsOf('links', 'x.id')).map((r) => ({
      ns,
      id: r.id as number,
      streamId: r.stream_id as number,
      collectionId: r.collection_id as number,
      state: r.state as 'live',
    })),
    aliases: a ? { version: a.version as number, map: (typeof a.map === 'string' ? JSON.parse(a.map) : a.map) as Record<string, number> } : null,
    heads: (await rowsOf('heads', 'x.stream, x.partition')).map((r) => ({
      stream: r.stream as number,
      partition: r.partition as number,
      next: r.next as number,
      logStart: r.log_start as number,
      bytes: r.bytes as number,
      mark: r.mark as number,
    })),
    index: (await rowsOf('index', 'x.stream, x.partition, x.start')).map((r) => ({ ...toEntry(r), stream: r.stream as number })),
    pointers: (await rowsOf('pointers', 'x.key')).map(toPointer),
    pointerHistory: (await rowsOf('pointerHistory', 'x.key, x.version')).map((r) => ({
      key: r.key as string,
      version: r.version as number,
      value: r.value as string,
      superseded: (r.superseded as number | null) ?? null,
    })),
    leases: (await rowsOf('leases', 'x.key')).map((r) => ({
      key: r.key as string,
      owner: (r.owner as string | null) ?? null,
      epoch: r.epoch as number,
      deadline: r.deadline as number,
    })),
    tags: (await rowsOf('tags', 'x.collection, x.name')).map(toTag),
    tokens: (await rowsOf('tokens', 'x.id')).map((r) => ({ id: r.id as string, op: r.op as string, result: r.result ?? null, stamp: r.stamp as number })),
    objects: (await rowsOf('objects', 'x.path')).map((r) => ({
      path: r.path as string,
      kind: r.kind as string,
      refs: r.refs as number,
      claimOwner: (r.claim_owner as string | null) ?? null,
      claimStamp: (r.claim_stamp as number | null) ?? null,
      claimEpoch: (r.claim_epoch as number | null) ?? null,
      deleted: r.deleted === true,
      retired: (r.retired as number | null) ?? null,
    })),
  };
}

/** A copy's (or a delta's) rows, one statement per table; the namespace row is the caller's. */
async function insertRows(tx: WriteTx, ns: number, rows: Tables): Promise<void> {
  await insertAll(tx, 'streams', rows.streams.map((s) => ({
    ns, id: s.id, name: s.name, partitions: s.partitions, retention_ms: s.retention.ms, retention_bytes: s.retention.bytes, implicit: s.implicit, state: s.state, created: s.created,
  })));
  await insertAll(tx, 'collections', rows.collections.map((c) => ({
    ns, id: c.id, name: c.name, schema: c.schema, schema_version: c.schemaVersion, stream_id: c.streamId, link_id: c.linkId,
    partitions: c.partitions, manifest_retention_ms: c.manifestRetentionMs, state: c.state, created: c.created,
  })));
  await insertAll(tx, 'links', rows.links.map((l) => ({ ns, id: l.id, stream_id: l.streamId, collection_id: l.collectionId, state: l.state })));
  if (rows.aliases) await insertAll(tx, 'aliases', [{ ns, version: rows.aliases.version, map: rows.aliases.map }]);
  // Every copied head is due at once (spec §5.4, core/due.ts), so the target's workers look at
  // each moved partition again; its mark comes along, so a settle with a mark read before the
  // move applies only if no commit came in since.
  await insertAll(tx, 'heads', rows.heads.map((h) => ({ ns, stream: h.stream, partition: h.partition, next: h.next, log_start: h.logStart, bytes: h.bytes, mark: h.mark ?? 0, due: DUE_NOW })));
  await insertAll(tx, 'index_entries', rows.index.map((e) => ({
    ns, stream: e.stream, partition: e.partition, start: e.start, end: e.end, kind: e.kind, path: e.path, byte_start: e.byteStart, byte_end: e.byteEnd, records: e.records,
  })));
  await insertAll(tx, 'pointers', rows.pointers.map((p) => ({ ns, key: p.key, version: p.version, value: p.value, stamp: p.stamp })));
  await insertAll(tx, 'pointer_history', rows.pointerHistory.map((h) => ({ ns, key: h.key, version: h.version, value: h.value, superseded: h.superseded })));
  await insertAll(tx, 'leases', rows.leases.map((l) => ({ scope: scopeKey(ns), key: l.key, owner: l.owner, epoch: l.epoch, deadline: l.deadline })));
  await insertAll(tx, 'tags', rows.tags.map((t) => ({
    ns, collection: t.collection, name: t.name, version: t.manifestVersion, path: t.manifestPath, created: t.created, rewritten_by: t.rewrittenBy,
  })));
  // A requestId names one call cluster-wide: a row already here is that call's.
  await insertAll(tx, 'request_tokens', rows.tokens.map((k) => ({ id: k.id, op: k.op, result: k.result ?? null, stamp: k.stamp, ns })), ' ON CONFLICT (id) DO NOTHING');
  await insertAll(tx, 'object_refs', rows.objects.map((o) => ({
    path: o.path, kind: o.kind, refs: o.refs, claim_owner: o.claimOwner, claim_stamp: o.claimStamp, claim_epoch: o.claimEpoch, deleted: o.deleted, retired: o.retired,
  })));
}

async function raiseCounters(tx: WriteTx, rows: NamespaceRows): Promise<void> {
  const ids = Object.entries(maxIds(rows));
  await tx.q(
    `UPDATE counters SET value = GREATEST(counters.value, v.value)
       FROM unnest($1::text[], $2::bigint[]) AS v(kind, value) WHERE counters.kind = v.kind`,
    [ids.map(([k]) => k), ids.map(([, v]) => v)],
  );
}

/** A read-only REPEATABLE READ snapshot on the write pool (a copy or a delta leaves in one snapshot). */
async function snapshot<T>(ctx: PgContext, fn: (q: Query) => Promise<T>): Promise<T> {
  ctx.checkOpen();
  await ctx.ready().catch((e) => {
    throw mapPgError(e, true);
  });
  const client = await acquire(ctx.writePool);
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const out = await fn(async (text, values) => (await client.query(text, values)).rows as Row[]);
    await client.query('COMMIT');
    client.release();
    return out;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    client.release();
    throw mapPgError(e, true);
  }
}

/** The recorded keys and the rows now at them (`n`: the namespace row). */
async function deltaOf(q: Query, ns: number, n: Row): Promise<NamespaceDelta> {
  const changed = Object.fromEntries(ROW_KINDS.map((k) => [k, [] as unknown[][]])) as NamespaceDelta['changed'];
  for (const r of await q('SELECT kind, k FROM move_changes WHERE ns = $1 ORDER BY kind, k', [ns])) changed[r.kind as RowKind].push(r.k as unknown[]);
  const namespace = toNamespace(n);
  return { format: 1, namespace, changed, rows: { format: 1, namespace, ...(await readRows(q, ns, 'changed')) } };
}

const fenceOf = (n: Row | undefined): FenceRow | null =>
  n ? { state: n.state as string, moveState: (n.move_state as string | null) ?? null, moveEpoch: n.move_epoch as number } : null;

export function moveCalls(ctx: PgContext): NamespaceMoveStorage {
  const state = async (tx: WriteTx, ns: number): Promise<NamespaceMoveState> => moveStateOf(ns, await fenceRow(tx, ns, false));
  return {
    async moveState(ns) {
      const r = await ctx.readOne<{ state: string; move_state: string | null; move_epoch: number }>('SELECT state, move_state, move_epoch FROM namespaces WHERE id = $1', [ns]);
      return moveStateOf(ns, r ? { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch } : null);
    },

    trackNamespace: (ns, epoch) =>
      ctx.write('trackNamespace', undefined, async (tx) => {
        // FOR UPDATE, as the fence: every write in flight commits first (and is in the snapshot
        // the pre-copy reads after this), every later one sees 'tracking' and records its keys.
        if (trackRule(ns, await fenceRow(tx, ns, true), epoch) === 'apply') {
          await tx.q('DELETE FROM move_changes WHERE ns = $1', [ns]);
          await tx.q("UPDATE namespaces SET move_state = 'tracking', move_epoch = $2 WHERE id = $1", [ns, epoch]);
        }
        return state(tx, ns);
      }),

    fenceNamespace: (ns, epoch) =>
      ctx.write('fenceNamespace', undefined, async (tx) => {
        // FOR UPDATE: waits for every write holding the row FOR KEY SHARE (shared.ts writable).
        if (fenceRule(ns, await fenceRow(tx, ns, true), epoch) === 'apply') {
          await tx.q("UPDATE namespaces SET move_state = 'fenced', move_epoch = $2 WHERE id = $1", [ns, epoch]);
        }
        return state(tx, ns);
      }),

    unfenceNamespace: (ns, epoch) =>
      ctx.write('unfenceNamespace', undefined, async (tx) => {
        if (unfenceRule(ns, await fenceRow(tx, ns, true), epoch) === 'apply') {
          await tx.q('UPDATE namespaces SET move_state = NULL WHERE id = $1', [ns]);
          await tx.q('DELETE FROM move_changes WHERE ns = $1', [ns]);
        }
        return state(tx, ns);
      }),

    exportNamespace: (ns) =>
      snapshot(ctx, async (q) => {
        const n = (await q('SELECT * FROM namespaces WHERE id = $1', [ns]))[0];
        checkExportable(ns, fenceOf(n));
        return { format: 1, namespace: toNamespace(n!), ...(await readRows(q, ns, 'all')) } satisfies NamespaceRows;
      }),

    exportNamespaceChanges: (ns) =>
      snapshot(ctx, async (q) => {
        const n = (await q('SELECT * FROM namespaces WHERE id = $1', [ns]))[0];
        checkChangesExportable(ns, fenceOf(n));
        return deltaOf(q, ns, n!);
      }),

    takeNamespaceChanges: (ns, epoch) =>
      ctx.write('takeNamespaceChanges', undefined, async (tx) => {
        // FOR UPDATE, as the fence: every write in flight commits first (its keys are read
        // here), and every later one waits, then records its keys again after this commits.
        const n = await tx.one<Row>('SELECT * FROM namespaces WHERE id = $1 FOR UPDATE', [ns]);
        takeRule(ns, fenceOf(n), epoch);
        const delta = await deltaOf((text, values) => tx.q<Row>(text, values), ns, n!);
        await tx.q('DELETE FROM move_changes WHERE ns = $1', [ns]);
        return delta;
      }),

    importNamespace: (rows, epoch) =>
      ctx.write('importNamespace', undefined, async (tx) => {
        const ns = rows.namespace.id;
        const n = rows.namespace;
        importRule(rows, await fenceRow(tx, ns, true), epoch);
        if (n.state !== 'live') throw errors.invalid('rows.namespace.state', `only a live namespace moves; got ${n.state}`);
        const taken = await tx.one<{ id: number }>("SELECT id FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live' AND id <> $3", [n.org, n.name, ns]);
        if (taken) throw errors.alreadyExists(`another namespace named ${n.org}/${n.name} on the target shard`, taken.id);
        await deleteRows(tx, ns);
        await tx.q('DELETE FROM namespaces WHERE id = $1', [ns]);
        await tx.q("INSERT INTO namespaces (id, org, name, state, created, move_state, move_epoch) VALUES ($1, $2, $3, $4, $5, 'fenced', $6)", [
          n.id, n.org, n.name, n.state, n.created, epoch,
        ]);
        await insertRows(tx, ns, rows);
        // The shard's live count of each WAL object the entries point into (spec §5.2); Claimed if GC claimed one here.
        await adjustRefs(tx, [...walCounts(rows)].map(([path, delta]) => ({ path, kind: 'wal', delta })));
        await raiseCounters(tx, rows);
        await recordChange(tx, ns, 'namespace.created', null);
        return state(tx, ns);
      }),

    importNamespaceChanges: (delta, epoch) =>
      ctx.write('importNamespaceChanges', undefined, async (tx) => {
        const ns = delta.namespace.id;
        changesImportRule(delta, await fenceRow(tx, ns, true), epoch);
        let before: Array<Pick<IndexEntry, 'kind' | 'path'>> = [];
        for (const t of TABLES) {
          const keys = delta.changed[t.kind];
          if (keys.length === 0) continue;
          const gone = await tx.q<Pick<IndexEntry, 'kind' | 'path'>>(pgDeleteKeys(t, t.kind === 'index' ? 'x.kind, x.path' : ''), [ns, JSON.stringify(keys)]);
          if (t.kind === 'index') before = gone;
        }
        await insertRows(tx, ns, delta.rows);
        const nets = [...walDeltas(before, delta.rows.index)];
        // Releases first: a path both released and taken nets to one entry, so each call is one-signed.
        await adjustRefs(tx, nets.filter(([, d]) => d < 0).map(([path, d]) => ({ path, kind: 'wal', delta: d })));
        await adjustRefs(tx, nets.filter(([, d]) => d > 0).map(([path, d]) => ({ path, kind: 'wal', delta: d })));
        await raiseCounters(tx, delta.rows);
        return state(tx, ns);
      }),

    retireNamespace: (ns, epoch) =>
      ctx.write('retireNamespace', undefined, async (tx) => {
        // One row, FOR UPDATE as the fence: the rows stay, fenced, until removeNamespaceCopy (outside the fenced window).
        if (retireRule(ns, await fenceRow(tx, ns, true), epoch) === 'apply') await tx.q("UPDATE namespaces SET state = 'moved' WHERE id = $1", [ns]);
        return state(tx, ns);
      }),

    removeNamespaceCopy: (ns, epoch, opts) => {
      checkRemoveLimit(opts.limit);
      return ctx.write('removeNamespaceCopy', undefined, async (tx) => {
        if (removeRule(ns, await fenceRow(tx, ns, true), epoch, opts.tombstone) === 'apply') {
          if (!opts.tombstone) {
            await deleteRows(tx, ns);
            await tx.q('DELETE FROM namespaces WHERE id = $1', [ns]);
          } else if (opts.limit === undefined) {
            await deleteRows(tx, ns);
            await tx.q("UPDATE namespaces SET state = 'moved', move_state = NULL WHERE id = $1", [ns]);
          } else {
            // Retired (if it was only fenced), then a batch; the fence comes down with the last row.
            await tx.q("UPDATE namespaces SET state = 'moved' WHERE id = $1", [ns]);
            if (await deleteSomeRows(tx, ns, opts.limit)) await tx.q('UPDATE namespaces SET move_state = NULL WHERE id = $1', [ns]);
          }
        }
        return state(tx, ns);
      });
    },

    async retiredNamespaces(limit) {
      const rows = await ctx.read<{ id: number; move_epoch: number }>(
        "SELECT id, move_epoch FROM namespaces WHERE state = 'moved' AND move_state = 'fenced' ORDER BY id LIMIT $1",
        [limit],
      );
      return rows.map((r) => ({ ns: Number(r.id), state: 'retired' as const, epoch: Number(r.move_epoch) }));
    },
  };
}

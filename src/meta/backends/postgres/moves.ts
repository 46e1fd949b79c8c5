// The PostgreSQL backend's move calls (src/meta/moves.ts, spec §5.5). The fence is two
// columns of the namespace row; every write takes that row FOR KEY SHARE and reads them
// (shared.ts writable), and fenceNamespace takes it FOR UPDATE, which waits for every write
// in flight and is seen by every later one. A copy is read in one REPEATABLE READ snapshot
// and written in one transaction, one statement per table (json_populate_recordset). The
// rules are the core's (core/moves.ts); here: which rows.
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
  type FenceRow,
} from '../../core/moves.js';
import type { NamespaceMoveState, NamespaceMoveStorage, NamespaceRows } from '../../moves.js';
import { scopeKey, toCollection, toEntry, toNamespace, toPointer, toStream, toTag, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { mapPgError } from './errors.js';
import { adjustRefs, recordChange } from './shared.js';
import { acquire, type WriteTx } from './tx.js';

/** The object paths a namespace owns: ns/<id>/… ('0' follows '/' in byte order; the column is COLLATE "C"). */
function ownedPathRange(ns: number): [string, string] {
  return [`ns/${ns}/`, `ns/${ns}0`];
}

const TABLES = ['streams', 'collections', 'links', 'aliases', 'heads', 'index_entries', 'pointers', 'pointer_history', 'tags'] as const;

async function fenceRow(tx: WriteTx, ns: number, lock: boolean): Promise<FenceRow | null> {
  const r = await tx.one<{ state: string; move_state: string | null; move_epoch: number }>(
    `SELECT state, move_state, move_epoch FROM namespaces WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
    [ns],
  );
  return r ? { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch } : null;
}

/** Every row of the namespace but its namespace row; the WAL live counts its entries held are counted down. */
async function deleteRows(tx: WriteTx, ns: number): Promise<void> {
  const wal = await tx.q<{ path: string; n: number }>("SELECT path, count(*)::bigint AS n FROM index_entries WHERE ns = $1 AND kind = 'wal' GROUP BY path", [ns]);
  await adjustRefs(tx, wal.map((w) => ({ path: w.path, kind: 'wal', delta: -w.n })));
  for (const t of TABLES) await tx.q(`DELETE FROM ${t} WHERE ns = $1`, [ns]);
  await tx.q('DELETE FROM leases WHERE scope = $1', [scopeKey(ns)]);
  const [lo, hi] = ownedPathRange(ns);
  await tx.q('DELETE FROM object_refs WHERE path >= $1 AND path < $2', [lo, hi]);
}

/** One table's rows from a copy, as JSON objects keyed by column. */
async function insertAll(tx: WriteTx, table: string, rows: Record<string, unknown>[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.q(`INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`, [JSON.stringify(rows)]);
}

export function moveCalls(ctx: PgContext): NamespaceMoveStorage {
  const state = async (tx: WriteTx, ns: number): Promise<NamespaceMoveState> => moveStateOf(ns, await fenceRow(tx, ns, false));
  return {
    async moveState(ns) {
      const r = await ctx.readOne<{ state: string; move_state: string | null; move_epoch: number }>('SELECT state, move_state, move_epoch FROM namespaces WHERE id = $1', [ns]);
      return moveStateOf(ns, r ? { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch } : null);
    },

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
        if (unfenceRule(ns, await fenceRow(tx, ns, true), epoch) === 'apply') await tx.q('UPDATE namespaces SET move_state = NULL WHERE id = $1', [ns]);
        return state(tx, ns);
      }),

    async exportNamespace(ns) {
      ctx.checkOpen();
      await ctx.ready().catch((e) => {
        throw mapPgError(e, true);
      });
      const client = await acquire(ctx.writePool);
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        const q = async (text: string, values: unknown[]) => (await client.query(text, values)).rows as Row[];
        const n = (await q('SELECT * FROM namespaces WHERE id = $1', [ns]))[0];
        checkExportable(ns, n ? { state: n.state as string, moveState: (n.move_state as string | null) ?? null, moveEpoch: n.move_epoch as number } : null);
        const [lo, hi] = ownedPathRange(ns);
        const a = (await q('SELECT version, map FROM aliases WHERE ns = $1', [ns]))[0];
        const rows: NamespaceRows = {
          format: 1,
          namespace: toNamespace(n!),
          streams: (await q('SELECT * FROM streams WHERE ns = $1 ORDER BY id', [ns])).map(toStream),
          collections: (await q('SELECT * FROM collections WHERE ns = $1 ORDER BY id', [ns])).map(toCollection),
          links: (await q('SELECT * FROM links WHERE ns = $1 ORDER BY id', [ns])).map((r) => ({
            ns,
            id: r.id as number,
            streamId: r.stream_id as number,
            collectionId: r.collection_id as number,
            state: r.state as 'live',
          })),
          aliases: a ? { version: a.version as number, map: (typeof a.map === 'string' ? JSON.parse(a.map) : a.map) as Record<string, number> } : null,
          heads: (await q('SELECT * FROM heads WHERE ns = $1 ORDER BY stream, partition', [ns])).map((r) => ({
            stream: r.stream as number,
            partition: r.partition as number,
            next: r.next as number,
            logStart: r.log_start as number,
            bytes: r.bytes as number,
          })),
          index: (await q('SELECT * FROM index_entries WHERE ns = $1 ORDER BY stream, partition, start', [ns])).map((r) => ({ ...toEntry(r), stream: r.stream as number })),
          pointers: (await q('SELECT * FROM pointers WHERE ns = $1 ORDER BY key', [ns])).map(toPointer),
          pointerHistory: (await q('SELECT * FROM pointer_history WHERE ns = $1 ORDER BY key, version', [ns])).map((r) => ({
            key: r.key as string,
            version: r.version as number,
            value: r.value as string,
            superseded: (r.superseded as number | null) ?? null,
          })),
          leases: (await q('SELECT * FROM leases WHERE scope = $1 ORDER BY key', [scopeKey(ns)])).map((r) => ({
            key: r.key as string,
            owner: (r.owner as string | null) ?? null,
            epoch: r.epoch as number,
            deadline: r.deadline as number,
          })),
          tags: (await q('SELECT * FROM tags WHERE ns = $1 ORDER BY collection, name', [ns])).map(toTag),
          objects: (await q('SELECT * FROM object_refs WHERE path >= $1 AND path < $2 ORDER BY path', [lo, hi])).map((r) => ({
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
        await client.query('COMMIT');
        client.release();
        return rows;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        client.release();
        throw mapPgError(e, true);
      }
    },

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
        await insertAll(tx, 'streams', rows.streams.map((s) => ({
          ns, id: s.id, name: s.name, partitions: s.partitions, retention_ms: s.retention.ms, retention_bytes: s.retention.bytes, implicit: s.implicit, state: s.state, created: s.created,
        })));
        await insertAll(tx, 'collections', rows.collections.map((c) => ({
          ns, id: c.id, name: c.name, schema: c.schema, schema_version: c.schemaVersion, stream_id: c.streamId, link_id: c.linkId,
          partitions: c.partitions, manifest_retention_ms: c.manifestRetentionMs, state: c.state, created: c.created,
        })));
        await insertAll(tx, 'links', rows.links.map((l) => ({ ns, id: l.id, stream_id: l.streamId, collection_id: l.collectionId, state: l.state })));
        if (rows.aliases) await insertAll(tx, 'aliases', [{ ns, version: rows.aliases.version, map: rows.aliases.map }]);
        await insertAll(tx, 'heads', rows.heads.map((h) => ({ ns, stream: h.stream, partition: h.partition, next: h.next, log_start: h.logStart, bytes: h.bytes })));
        await insertAll(tx, 'index_entries', rows.index.map((e) => ({
          ns, stream: e.stream, partition: e.partition, start: e.start, end: e.end, kind: e.kind, path: e.path, byte_start: e.byteStart, byte_end: e.byteEnd, records: e.records,
        })));
        await insertAll(tx, 'pointers', rows.pointers.map((p) => ({ ns, key: p.key, version: p.version, value: p.value, stamp: p.stamp })));
        await insertAll(tx, 'pointer_history', rows.pointerHistory.map((h) => ({ ns, key: h.key, version: h.version, value: h.value, superseded: h.superseded })));
        await insertAll(tx, 'leases', rows.leases.map((l) => ({ scope: scopeKey(ns), key: l.key, owner: l.owner, epoch: l.epoch, deadline: l.deadline })));
        await insertAll(tx, 'tags', rows.tags.map((t) => ({
          ns, collection: t.collection, name: t.name, version: t.manifestVersion, path: t.manifestPath, created: t.created, rewritten_by: t.rewrittenBy,
        })));
        await insertAll(tx, 'object_refs', rows.objects.map((o) => ({
          path: o.path, kind: o.kind, refs: o.refs, claim_owner: o.claimOwner, claim_stamp: o.claimStamp, claim_epoch: o.claimEpoch, deleted: o.deleted, retired: o.retired,
        })));
        // The shard's live count of each WAL object the entries point into (spec §5.2); Claimed if GC claimed one here.
        await adjustRefs(tx, [...walCounts(rows)].map(([path, delta]) => ({ path, kind: 'wal', delta })));
        const ids = Object.entries(maxIds(rows));
        await tx.q(
          `UPDATE counters SET value = GREATEST(counters.value, v.value)
             FROM unnest($1::text[], $2::bigint[]) AS v(kind, value) WHERE counters.kind = v.kind`,
          [ids.map(([k]) => k), ids.map(([, v]) => v)],
        );
        await recordChange(tx, ns, 'namespace.created', null);
        return state(tx, ns);
      }),

    removeNamespaceCopy: (ns, epoch, opts) =>
      ctx.write('removeNamespaceCopy', undefined, async (tx) => {
        if (removeRule(ns, await fenceRow(tx, ns, true), epoch, opts.tombstone) === 'apply') {
          await deleteRows(tx, ns);
          if (opts.tombstone) await tx.q("UPDATE namespaces SET state = 'moved', move_state = NULL WHERE id = $1", [ns]);
          else await tx.q('DELETE FROM namespaces WHERE id = $1', [ns]);
        }
        return state(tx, ns);
      }),
  };
}

// The statements of the hot calls (commitWal, casPointer, createCollection), shared with the
// benchmark's bare-pg baseline (bench/_meta_postgres.ts) so both run exactly the same SQL.
// Every value is a parameter; nothing here is built from input.
import { DUE_NOW } from '../../core/due.js';
import { NOTIFY_CHANNEL } from './listener.js';

export const SQL = {
  // commitWal, for a batch of commit groups (wal-batch.ts; a batch of one is a plain commit):
  // each group's commit record by its ordinal, the claimed objects, the live streams, and the
  // namespaces' fence rows FOR KEY SHARE (shared.ts writable) — one round trip.
  WAL_PRE: `SELECT
    (SELECT json_agg(json_build_array(k.ord, w.result)) FROM unnest($1::text[], $2::int[]) WITH ORDINALITY AS k(object, grp, ord)
       JOIN wal_commits w ON w.object = k.object AND w.grp = k.grp) AS recs,
    (SELECT json_agg(o.path) FROM object_refs o WHERE o.path = ANY($1::text[]) AND (o.claim_owner IS NOT NULL OR o.deleted)) AS claimed,
    (SELECT json_agg(json_build_array(s.ns, s.id, s.partitions)) FROM streams s
       JOIN unnest($3::bigint[], $4::bigint[]) AS k(ns, id) ON s.ns = k.ns AND s.id = k.id
      WHERE s.state = 'live') AS streams,
    (SELECT json_agg(json_build_array(f.id, f.state, f.move_state, f.move_epoch)) FROM (
       SELECT id, state, move_state, move_epoch FROM namespaces WHERE id = ANY($5::bigint[]) ORDER BY id FOR KEY SHARE) f) AS fence`,
  HEADS_LOCK: `SELECT h.ns, h.stream, h.partition, h.next FROM heads h
    JOIN unnest($1::bigint[], $2::bigint[], $3::int[]) AS k(ns, stream, partition)
      ON h.ns = k.ns AND h.stream = k.stream AND h.partition = k.partition
    ORDER BY h.ns, h.stream, h.partition FOR UPDATE OF h`,
  HEADS_CREATE: `INSERT INTO heads (ns, stream, partition, next, log_start, bytes)
    SELECT k.ns, k.stream, k.partition, 0, 0, 0 FROM unnest($1::bigint[], $2::bigint[], $3::int[]) WITH ORDINALITY AS k(ns, stream, partition, ord)
    ORDER BY k.ord ON CONFLICT DO NOTHING`,
  // Every chunk of the batch ($1..$9, each with its object's path), the heads moved to their
  // last chunk's end, and one commit record per group ($10..$13) — one statement. It returns
  // how many records it wrote (fewer: another attempt of a group committed first) and the xid,
  // recorded before COMMIT (the records are this transaction's commit token).
  WAL_APPLY: `WITH v AS (
      SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::int[], $4::bigint[], $5::bigint[], $6::bigint[], $7::bigint[], $8::bigint[], $9::text[])
        AS v(ns, stream, partition, start, "end", byte_start, byte_end, records, path)),
    hv AS (SELECT ns, stream, partition, max("end") AS "end", sum(byte_end - byte_start)::bigint AS bytes FROM v GROUP BY ns, stream, partition),
    h AS (UPDATE heads SET next = hv."end", bytes = heads.bytes + hv.bytes, mark = heads.mark + 1, due = ${DUE_NOW} FROM hv
          WHERE heads.ns = hv.ns AND heads.stream = hv.stream AND heads.partition = hv.partition RETURNING 1),
    e AS (INSERT INTO index_entries (ns, stream, partition, start, "end", kind, path, byte_start, byte_end, records)
          SELECT v.ns, v.stream, v.partition, v.start, v."end", 'wal', v.path, v.byte_start, v.byte_end, v.records FROM v RETURNING 1),
    w AS (INSERT INTO wal_commits (object, grp, result, stamp)
          SELECT r.object, r.grp, r.result::json, r.stamp FROM unnest($10::text[], $11::int[], $12::text[], $13::bigint[]) AS r(object, grp, result, stamp)
          ON CONFLICT DO NOTHING RETURNING 1)
    SELECT (SELECT count(*) FROM w)::int AS recorded, pg_current_xact_id()::text AS xid`,
  // The dirty set's due scan (core/due.ts): one range of heads_due, strictly after the cursor's key.
  DUE_HEADS: `SELECT ns, stream, partition, mark, due FROM heads
    WHERE due IS NOT NULL AND due <= $1 AND (due, ns, stream, partition) > ($2, $3, $4, $5)
    ORDER BY due, ns, stream, partition LIMIT $6`,
  SETTLE_HEAD: `UPDATE heads SET due = $5 WHERE ns = $1 AND stream = $2 AND partition = $3 AND mark = $4 RETURNING 1`,
  ADJUST_REFS: `WITH d AS (
      UPDATE object_refs o SET refs = o.refs + v.delta,
        retired = CASE WHEN o.refs + v.delta = 0 AND o.kind = 'wal' THEN $6::bigint ELSE NULL END
      FROM unnest($4::text[], $5::bigint[]) AS v(path, delta) WHERE o.path = v.path RETURNING 1)
    INSERT INTO object_refs AS o (path, kind, refs)
    SELECT v.path, v.kind, v.delta FROM unnest($1::text[], $2::text[], $3::bigint[]) WITH ORDINALITY AS v(path, kind, delta, ord)
    ORDER BY v.ord
    ON CONFLICT (path) DO UPDATE SET
      refs = o.refs + excluded.refs,
      kind = CASE WHEN o.kind = 'unknown' THEN excluded.kind ELSE o.kind END,
      retired = NULL
    WHERE o.claim_owner IS NULL AND NOT o.deleted
    RETURNING o.path`,
  TOKEN_INSERT: `INSERT INTO request_tokens (id, op, result, stamp, ns) VALUES ($1, $2, $3, $4, $5)
    ON CONFLICT (id) DO NOTHING RETURNING pg_current_xact_id()::text AS xid`,
  CAS_PRE: `SELECT (SELECT state FROM namespaces WHERE id = $1) AS ns_state,
           l.state AS link_state, c.id AS coll_id, c.state AS coll_state,
           (SELECT epoch FROM leases WHERE scope = $4 AND key = $5) AS lease_epoch,
           (SELECT owner FROM leases WHERE scope = $4 AND key = $5) AS lease_owner,
           p.version, p.value
    FROM (SELECT 1) one
    LEFT JOIN links l ON l.ns = $1 AND l.id = $3
    LEFT JOIN collections c ON c.ns = $1 AND c.id = l.collection_id
    LEFT JOIN pointers p ON p.ns = $1 AND p.key = $2`,
  CAS_LOCKS: `SELECT c.state AS coll_state, c.manifest_retention_ms AS retention, x.epoch, x.owner
    FROM (SELECT 1) one
    LEFT JOIN LATERAL (SELECT state, manifest_retention_ms FROM collections WHERE ns = $1 AND id = $2 FOR SHARE) c ON true
    LEFT JOIN LATERAL (SELECT epoch, owner FROM leases WHERE scope = $3 AND key = $4 FOR SHARE) x ON true`,
  CAS_CREATE: `INSERT INTO pointers (ns, key, version, value, stamp) VALUES ($1, $2, 1, $3, $4)
    ON CONFLICT (ns, key) DO NOTHING RETURNING version`,
  CAS_UPDATE: `UPDATE pointers SET version = version + 1, value = $1, stamp = $2 WHERE ns = $3 AND key = $4 AND version = $5 RETURNING version`,
  POINTER_HISTORY: `WITH s AS (UPDATE pointer_history SET superseded = $5 WHERE ns = $1 AND key = $2 AND version = $3 - 1),
         d AS (DELETE FROM pointer_history WHERE ns = $1 AND key = $2 AND superseded < $6)
    INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES ($1, $2, $3, $4, NULL)`,
  CREATE_COLLECTION_PRE: `SELECT (SELECT state FROM namespaces WHERE id = $1) AS ns_state,
    (SELECT id FROM collections WHERE ns = $1 AND name = $2 AND state = 'live') AS existing`,
  SHARE_NAMESPACE: `SELECT state FROM namespaces WHERE id = $1 FOR SHARE`,
  FENCE_SHARE: `SELECT id, state, move_state, move_epoch FROM namespaces WHERE id = ANY($1::bigint[]) ORDER BY id FOR KEY SHARE`,
  // Counter rows are locked in kind order (a multi-row UPDATE locks in scan order, which
  // moves as rows are rewritten: two creates could deadlock).
  NEXT_IDS: `WITH l AS (SELECT kind FROM counters WHERE kind = ANY($1::text[]) ORDER BY kind FOR UPDATE)
    UPDATE counters c SET value = c.value + 1 FROM l WHERE c.kind = l.kind RETURNING c.kind, c.value`,
  INSERT_COLLECTION: `INSERT INTO collections (ns, id, name, schema, schema_version, stream_id, link_id, partitions,
      manifest_retention_ms, state, created) VALUES ($1, $2, $3, $4, 1, $5, $6, $7, $8, 'live', $9)
    ON CONFLICT (ns, name) WHERE state = 'live' DO NOTHING RETURNING id`,
  INSERT_IMPLICIT_STREAM: `WITH s AS (
      INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
      VALUES ($1, $2, $3, $4, $5, $6, true, 'live', $7))
    INSERT INTO links (ns, id, stream_id, collection_id, state) VALUES ($1, $8, $2, $9, 'live')`,
  RECORD_CHANGE: `WITH v AS (UPDATE catalog_counter SET version = version + 1 RETURNING version)
    INSERT INTO catalog_changes (version, ns, kind, id, stamp) SELECT v.version, $1, $2, $3, $4 FROM v
    RETURNING pg_notify('${NOTIFY_CHANNEL}', $5)`,
} as const;

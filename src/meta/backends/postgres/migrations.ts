// Versioned schema migrations of the PostgreSQL backend (spec §2.2: sqlx::migrate's shape).
// Each entry runs once, in order, in its own transaction that also records its version in
// loam_schema_version; all of it under a session advisory lock, so two nodes starting at
// once apply each migration exactly once. Idempotent: an up-to-date database is a no-op.
// A database written by a newer Loam (a recorded version above the last entry) is refused.
import type pg from 'pg';
import { pgTrackingSchema } from '../sql/moves.js';

/** How long a starting node waits for another node's migration before it gives up. */
export const MIGRATION_LOCK_WAIT_MS = 60_000;
/** The advisory-lock name of migrations (hashed to a bigint key by hashtextextended). */
export const MIGRATION_LOCK = 'loam:migrate';

// Text columns that are keys or sort orders use COLLATE "C": byte order, the same on every
// database whatever its locale, and the same order SQLite's BINARY gives the embedded backend.
// json (not jsonb) keeps stored results and schemas byte for byte as written.
export const MIGRATIONS: readonly string[] = [
  // 1: the whole catalog, log index, pointers, leases, tags, GC refs, change feed, tokens.
  `
  CREATE TABLE counters (kind text COLLATE "C" PRIMARY KEY, value bigint NOT NULL);
  INSERT INTO counters (kind, value) VALUES ('namespace', 0), ('stream', 0), ('collection', 0), ('link', 0);

  -- The catalog version: one row, locked only by catalog changes (never by commitWal,
  -- pointers or leases), so versions are dense and visible in commit order.
  CREATE TABLE catalog_counter (one boolean PRIMARY KEY DEFAULT true CHECK (one), version bigint NOT NULL);
  INSERT INTO catalog_counter (one, version) VALUES (true, 0);

  CREATE TABLE namespaces (
    id bigint PRIMARY KEY, org text COLLATE "C" NOT NULL, name text COLLATE "C" NOT NULL,
    state text NOT NULL CHECK (state IN ('live', 'dropping')), created bigint NOT NULL);
  -- Names are unique among live namespaces of an org; dropping frees the name at once.
  CREATE UNIQUE INDEX namespaces_name ON namespaces (org, name) WHERE state = 'live';

  CREATE TABLE streams (
    ns bigint NOT NULL, id bigint NOT NULL, name text COLLATE "C" NOT NULL, partitions integer NOT NULL,
    retention_ms bigint, retention_bytes bigint, implicit boolean NOT NULL,
    state text NOT NULL CHECK (state IN ('live', 'dropping')), created bigint NOT NULL, PRIMARY KEY (ns, id));
  CREATE UNIQUE INDEX streams_name ON streams (ns, name) WHERE state = 'live';

  CREATE TABLE collections (
    ns bigint NOT NULL, id bigint NOT NULL, name text COLLATE "C" NOT NULL, schema json NOT NULL,
    schema_version integer NOT NULL, stream_id bigint NOT NULL, link_id bigint NOT NULL,
    partitions integer NOT NULL, manifest_retention_ms bigint NOT NULL,
    state text NOT NULL CHECK (state IN ('live', 'dropping')), created bigint NOT NULL, PRIMARY KEY (ns, id));
  CREATE UNIQUE INDEX collections_name ON collections (ns, name) WHERE state = 'live';

  CREATE TABLE links (
    ns bigint NOT NULL, id bigint NOT NULL, stream_id bigint NOT NULL, collection_id bigint NOT NULL,
    state text NOT NULL CHECK (state IN ('live', 'dropping')), PRIMARY KEY (ns, id));

  CREATE TABLE aliases (ns bigint PRIMARY KEY, version bigint NOT NULL, map json NOT NULL);

  -- A missing head means next = 0 (heads are created lazily, spec §2.3).
  CREATE TABLE heads (
    ns bigint NOT NULL, stream bigint NOT NULL, partition integer NOT NULL,
    next bigint NOT NULL, log_start bigint NOT NULL, bytes bigint NOT NULL,
    PRIMARY KEY (ns, stream, partition));

  CREATE TABLE index_entries (
    ns bigint NOT NULL, stream bigint NOT NULL, partition integer NOT NULL,
    start bigint NOT NULL, "end" bigint NOT NULL, kind text NOT NULL, path text COLLATE "C" NOT NULL,
    byte_start bigint NOT NULL, byte_end bigint NOT NULL, records bigint NOT NULL,
    PRIMARY KEY (ns, stream, partition, start));
  CREATE INDEX index_entries_path ON index_entries (path, ns, stream);

  -- One record per (WAL object, partition group): the idempotency record of spec §3.1, and
  -- commitWal's commit token.
  CREATE TABLE wal_commits (
    object text COLLATE "C" NOT NULL, grp integer NOT NULL, result json NOT NULL, stamp bigint NOT NULL,
    PRIMARY KEY (object, grp));
  CREATE INDEX wal_commits_stamp ON wal_commits (stamp);

  -- References and GC claims per object path (spec §3.2.3). For WAL objects refs is the
  -- live count (chunks not yet segmented or trimmed); retired is set when it reaches zero.
  CREATE TABLE object_refs (
    path text COLLATE "C" PRIMARY KEY, kind text NOT NULL, refs bigint NOT NULL CHECK (refs >= 0),
    claim_owner text, claim_stamp bigint, deleted boolean NOT NULL DEFAULT false, retired bigint);
  CREATE INDEX object_refs_retired ON object_refs (path) WHERE kind = 'wal' AND retired IS NOT NULL;
  CREATE INDEX object_refs_tombstones ON object_refs (claim_stamp) WHERE deleted;

  CREATE TABLE pointers (
    ns bigint NOT NULL, key text COLLATE "C" NOT NULL, version bigint NOT NULL, value text NOT NULL,
    stamp bigint NOT NULL, PRIMARY KEY (ns, key));
  -- Superseded values, for "tags only on retained manifests".
  CREATE TABLE pointer_history (
    ns bigint NOT NULL, key text COLLATE "C" NOT NULL, version bigint NOT NULL, value text NOT NULL,
    superseded bigint, PRIMARY KEY (ns, key, version));
  CREATE INDEX pointer_history_superseded ON pointer_history (ns, key, superseded);

  CREATE TABLE leases (
    scope text COLLATE "C" NOT NULL, key text COLLATE "C" NOT NULL, owner text, epoch bigint NOT NULL,
    deadline bigint NOT NULL, PRIMARY KEY (scope, key));

  CREATE TABLE tags (
    ns bigint NOT NULL, collection bigint NOT NULL, name text COLLATE "C" NOT NULL,
    version bigint NOT NULL, path text NOT NULL, created bigint NOT NULL, rewritten_by text,
    PRIMARY KEY (ns, collection, name));

  CREATE TABLE catalog_changes (
    version bigint PRIMARY KEY, ns bigint NOT NULL, kind text NOT NULL, id bigint, stamp bigint NOT NULL);
  CREATE INDEX catalog_changes_ns ON catalog_changes (ns, version);

  -- Commit tokens: every write transaction stores its result here, keyed by the requestId.
  CREATE TABLE request_tokens (
    id text COLLATE "C" PRIMARY KEY, op text NOT NULL, result json NOT NULL, stamp bigint NOT NULL);
  CREATE INDEX request_tokens_stamp ON request_tokens (stamp);
  `,
  // 2: the lease epoch a GC claim was made under, so a newer GC can take it over (contract: claimObject).
  `
  ALTER TABLE object_refs ADD COLUMN claim_epoch bigint;
  `,
  // 3: the change feed's horizon: the highest pruned version (core/feed.ts).
  `
  ALTER TABLE catalog_counter ADD COLUMN horizon bigint NOT NULL DEFAULT 0;
  `,
  // 4: namespace moves (spec §5.5, src/meta/moves.ts): the fence every write checks, its epoch,
  // and state 'moved' for the tombstone a shard keeps once its copy is removed.
  `
  ALTER TABLE namespaces DROP CONSTRAINT namespaces_state_check;
  ALTER TABLE namespaces ADD CONSTRAINT namespaces_state_check CHECK (state IN ('live', 'dropping', 'moved'));
  ALTER TABLE namespaces ADD COLUMN move_state text CHECK (move_state IN ('fenced'));
  ALTER TABLE namespaces ADD COLUMN move_epoch bigint NOT NULL DEFAULT 0;
  `,
  // 5: the pre-copy of a move (src/meta/moves.ts, backends/sql/moves.ts): move state
  // 'tracking', a commit token names the namespace its write checked (tokens move with it),
  // and every moved table records the keys it changes while its namespace is tracking.
  `
  ALTER TABLE namespaces DROP CONSTRAINT namespaces_move_state_check;
  ALTER TABLE namespaces ADD CONSTRAINT namespaces_move_state_check CHECK (move_state IN ('fenced', 'tracking'));
  ALTER TABLE request_tokens ADD COLUMN ns bigint;
  CREATE INDEX request_tokens_ns ON request_tokens (ns) WHERE ns IS NOT NULL;
  ${pgTrackingSchema()}
  `,
  // 6: an org's namespace pages read one index range (spec §5.4), covering the listed columns
  // (an index-only scan once vacuumed; the planner may take namespaces_name instead, the same
  // range with a heap fetch per row).
  `
  CREATE INDEX namespaces_list ON namespaces (org, name) INCLUDE (id, created) WHERE state = 'live';
  `,
  // 7: the dirty set (spec §5.4, contract: dueHeads, settleHead; rules in core/due.ts): per
  // partition head, a mark every commitWal bumps and when its maintenance is next due (0: now;
  // NULL: nothing pending). The default makes a head due from birth: heads written before this
  // are due once (an upgraded node looks at each again), and a moved head arrives due. The
  // due scan reads one index range; mark is not indexed, so a commit to a head already due
  // (due 0 → 0) stays a HOT update.
  `
  ALTER TABLE heads ADD COLUMN mark bigint NOT NULL DEFAULT 0;
  ALTER TABLE heads ADD COLUMN due bigint DEFAULT 0;
  CREATE INDEX heads_due ON heads (due, ns, stream, partition) WHERE due IS NOT NULL;
  `,
  // 8: retired move sources (src/meta/moves.ts: moved away, their rows still being removed),
  // so a restarted cleanup finds them without reading every namespace row.
  `
  CREATE INDEX namespaces_retired ON namespaces (id) WHERE state = 'moved' AND move_state = 'fenced';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

/** The schema version a database records (0 for an empty database). */
export async function schemaVersion(client: pg.ClientBase): Promise<number> {
  const t = await client.query<{ t: string | null }>("SELECT to_regclass('loam_schema_version')::text AS t");
  if (t.rows[0]?.t == null) return 0;
  const r = await client.query<{ v: number | null }>('SELECT max(version) AS v FROM loam_schema_version');
  return Number(r.rows[0]?.v ?? 0);
}

export class SchemaTooNewError extends Error {
  constructor(
    readonly found: number,
    readonly known: number,
  ) {
    super(`metastore schema version ${found} is newer than this Loam understands (${known}); upgrade Loam`);
    this.name = 'SchemaTooNewError';
  }
}

/**
 * Applies missing migrations under the advisory lock. `client` is a dedicated connection
 * (a session lock is held on it). Returns the versions it applied.
 */
export async function migrate(client: pg.ClientBase, opts: { waitMs?: number } = {}): Promise<number[]> {
  const deadline = Date.now() + (opts.waitMs ?? MIGRATION_LOCK_WAIT_MS);
  // Bounded wait for another node's migration: try, back off, give up at the deadline.
  for (let delay = 10; ; delay = Math.min(delay * 2, 500)) {
    const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [MIGRATION_LOCK]);
    if (r.rows[0]?.ok) break;
    if (Date.now() + delay > deadline) {
      throw new Error(`metastore migration: another node held the migration lock for over ${opts.waitMs ?? MIGRATION_LOCK_WAIT_MS} ms`);
    }
    await new Promise((res) => setTimeout(res, delay));
  }
  const applied: number[] = [];
  try {
    await client.query(
      'CREATE TABLE IF NOT EXISTS loam_schema_version (version integer PRIMARY KEY, applied timestamptz NOT NULL DEFAULT now())',
    );
    const current = await schemaVersion(client);
    if (current > SCHEMA_VERSION) throw new SchemaTooNewError(current, SCHEMA_VERSION);
    for (let v = current; v < SCHEMA_VERSION; v++) {
      await client.query('BEGIN');
      try {
        await client.query(MIGRATIONS[v]!);
        await client.query('INSERT INTO loam_schema_version (version) VALUES ($1)', [v + 1]);
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
      applied.push(v + 1);
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [MIGRATION_LOCK]).catch(() => undefined);
  }
  return applied;
}

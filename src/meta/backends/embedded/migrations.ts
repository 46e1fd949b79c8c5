// Versioned schema migrations of the embedded backend. Each entry runs once, in order,
// inside one transaction that also records the new version in PRAGMA user_version.
// A database written by a newer Loam (user_version above the last entry) is refused.
import type Database from 'better-sqlite3';
import { sqliteTrackingSchema } from '../sql/moves.js';

export const MIGRATIONS: readonly string[] = [
  // 1: the whole catalog, log index, pointers, leases, tags, GC refs, change feed, tokens.
  `
  CREATE TABLE counters (kind TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
  INSERT INTO counters (kind, value) VALUES ('namespace', 0), ('stream', 0), ('collection', 0), ('link', 0);

  CREATE TABLE namespaces (
    id INTEGER PRIMARY KEY, org TEXT NOT NULL, name TEXT NOT NULL,
    state TEXT NOT NULL, created INTEGER NOT NULL);
  -- Names are unique among live namespaces of an org; dropping frees the name at once.
  CREATE UNIQUE INDEX namespaces_name ON namespaces (org, name) WHERE state = 'live';

  CREATE TABLE streams (
    ns INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, partitions INTEGER NOT NULL,
    retention_ms INTEGER, retention_bytes INTEGER, implicit INTEGER NOT NULL,
    state TEXT NOT NULL, created INTEGER NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;
  CREATE UNIQUE INDEX streams_name ON streams (ns, name) WHERE state = 'live';

  CREATE TABLE collections (
    ns INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT NOT NULL, schema TEXT NOT NULL,
    schema_version INTEGER NOT NULL, stream_id INTEGER NOT NULL, link_id INTEGER NOT NULL,
    partitions INTEGER NOT NULL, manifest_retention_ms INTEGER NOT NULL,
    state TEXT NOT NULL, created INTEGER NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;
  CREATE UNIQUE INDEX collections_name ON collections (ns, name) WHERE state = 'live';

  CREATE TABLE links (
    ns INTEGER NOT NULL, id INTEGER NOT NULL, stream_id INTEGER NOT NULL,
    collection_id INTEGER NOT NULL, state TEXT NOT NULL, PRIMARY KEY (ns, id)) WITHOUT ROWID;

  CREATE TABLE aliases (ns INTEGER PRIMARY KEY, version INTEGER NOT NULL, map TEXT NOT NULL);

  -- A missing head means next = 0 (heads are created lazily, spec §2.3).
  CREATE TABLE heads (
    ns INTEGER NOT NULL, stream INTEGER NOT NULL, partition INTEGER NOT NULL,
    next INTEGER NOT NULL, log_start INTEGER NOT NULL, bytes INTEGER NOT NULL,
    PRIMARY KEY (ns, stream, partition)) WITHOUT ROWID;

  CREATE TABLE index_entries (
    ns INTEGER NOT NULL, stream INTEGER NOT NULL, partition INTEGER NOT NULL,
    start INTEGER NOT NULL, end INTEGER NOT NULL, kind TEXT NOT NULL, path TEXT NOT NULL,
    byte_start INTEGER NOT NULL, byte_end INTEGER NOT NULL, records INTEGER NOT NULL,
    PRIMARY KEY (ns, stream, partition, start)) WITHOUT ROWID;
  CREATE INDEX index_entries_path ON index_entries (path);

  -- One record per (WAL object, partition group): the idempotency record of spec §3.1.
  CREATE TABLE wal_commits (
    object TEXT NOT NULL, grp INTEGER NOT NULL, result TEXT NOT NULL, stamp INTEGER NOT NULL,
    PRIMARY KEY (object, grp)) WITHOUT ROWID;
  CREATE INDEX wal_commits_stamp ON wal_commits (stamp);

  -- References and GC claims per object path (spec §3.2.3). For WAL objects refs is the
  -- live count (chunks not yet segmented or trimmed); retired is set when it reaches zero.
  CREATE TABLE object_refs (
    path TEXT PRIMARY KEY, kind TEXT NOT NULL, refs INTEGER NOT NULL,
    claim_owner TEXT, claim_stamp INTEGER, deleted INTEGER NOT NULL DEFAULT 0,
    retired INTEGER) WITHOUT ROWID;
  CREATE INDEX object_refs_retired ON object_refs (kind, retired) WHERE retired IS NOT NULL;

  CREATE TABLE pointers (
    ns INTEGER NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, value TEXT NOT NULL,
    stamp INTEGER NOT NULL, PRIMARY KEY (ns, key)) WITHOUT ROWID;
  -- Superseded values, for "tags only on retained manifests".
  CREATE TABLE pointer_history (
    ns INTEGER NOT NULL, key TEXT NOT NULL, version INTEGER NOT NULL, value TEXT NOT NULL,
    superseded INTEGER, PRIMARY KEY (ns, key, version)) WITHOUT ROWID;
  -- So pruning superseded versions touches only the rows it deletes.
  CREATE INDEX pointer_history_superseded ON pointer_history (ns, key, superseded);

  CREATE TABLE leases (
    scope TEXT NOT NULL, key TEXT NOT NULL, owner TEXT, epoch INTEGER NOT NULL,
    deadline INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID;

  CREATE TABLE tags (
    ns INTEGER NOT NULL, collection INTEGER NOT NULL, name TEXT NOT NULL,
    version INTEGER NOT NULL, path TEXT NOT NULL, created INTEGER NOT NULL, rewritten_by TEXT,
    PRIMARY KEY (ns, collection, name)) WITHOUT ROWID;

  CREATE TABLE catalog_changes (
    version INTEGER PRIMARY KEY AUTOINCREMENT, ns INTEGER NOT NULL, kind TEXT NOT NULL,
    id INTEGER, stamp INTEGER NOT NULL);
  CREATE INDEX catalog_changes_ns ON catalog_changes (ns, version);

  -- Commit tokens: a write with a requestId stores its result in the same transaction.
  CREATE TABLE request_tokens (
    id TEXT PRIMARY KEY, op TEXT NOT NULL, result TEXT NOT NULL, stamp INTEGER NOT NULL) WITHOUT ROWID;
  CREATE INDEX request_tokens_stamp ON request_tokens (stamp);
  `,
  // 2: the lease epoch a GC claim was made under, so a newer GC can take it over (contract: claimObject).
  `
  ALTER TABLE object_refs ADD COLUMN claim_epoch INTEGER;
  `,
  // 3: the change feed's horizon, the highest pruned version (core/feed.ts).
  `
  INSERT INTO counters (kind, value) VALUES ('feed_horizon', 0);
  `,
  // 4: namespace moves (spec §5.5, src/meta/moves.ts): the fence every write checks, its epoch,
  // and state 'moved' for the tombstone a shard keeps once its copy is removed.
  `
  ALTER TABLE namespaces ADD COLUMN move_state TEXT;
  ALTER TABLE namespaces ADD COLUMN move_epoch INTEGER NOT NULL DEFAULT 0;
  `,
  // 5: the pre-copy of a move (src/meta/moves.ts, backends/sql/moves.ts): a commit token names
  // the namespace its write checked (tokens move with it), and every moved table records the
  // keys it changes while its namespace is tracking.
  `
  ALTER TABLE request_tokens ADD COLUMN ns INTEGER;
  CREATE INDEX request_tokens_ns ON request_tokens (ns) WHERE ns IS NOT NULL;
  ${sqliteTrackingSchema()}
  `,
  // 6: an org's namespace pages read one covering index range (spec §5.4): no table lookup per row.
  `
  CREATE INDEX namespaces_list ON namespaces (org, name, created) WHERE state = 'live';
  `,
  // 7: GC tombstones by age, so a prune pass reads only the tombstones it removes instead of
  // scanning every object reference (one row per live WAL object, segment and manifest).
  `
  CREATE INDEX object_refs_tombstones ON object_refs (claim_stamp) WHERE deleted = 1;
  `,
  // 8: the dirty set (spec §5.4, contract: dueHeads, settleHead): per partition head, a mark
  // every commitWal bumps and when its maintenance is next due (0: now; NULL: nothing pending).
  // Heads written before this are all due once, so an upgraded node looks at each again.
  `
  ALTER TABLE heads ADD COLUMN mark INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE heads ADD COLUMN due INTEGER;
  UPDATE heads SET due = 0;
  CREATE INDEX heads_due ON heads (due, ns, stream, partition) WHERE due IS NOT NULL;
  `,
  // 9: retired move sources (src/meta/moves.ts: moved away, their rows still being removed),
  // so a restarted cleanup finds them without reading every namespace row.
  `
  CREATE INDEX namespaces_retired ON namespaces (id) WHERE state = 'moved' AND move_state = 'fenced';
  `,
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export function migrate(db: Database.Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new Error(
      `metastore schema version ${current} is newer than this Loam understands (${SCHEMA_VERSION}); upgrade Loam`,
    );
  }
  // Several processes may open one fresh file at once (nodes of one host starting together):
  // the version read above is only a hint, so each step reads it again under the write lock
  // (BEGIN IMMEDIATE) and applies only what nobody applied meanwhile. Bounded: each round
  // applies one migration or finds the file up to date.
  for (let round = current; round < SCHEMA_VERSION; round++) {
    const done = db.transaction(() => {
      const v = db.pragma('user_version', { simple: true }) as number;
      if (v >= SCHEMA_VERSION) return true;
      db.exec(MIGRATIONS[v]!);
      db.pragma(`user_version = ${v + 1}`);
      return false;
    }).immediate();
    if (done) return;
  }
}

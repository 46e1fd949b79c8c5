// The tables a namespace move copies on the SQL backends (embedded SQLite and PostgreSQL keep
// the same tables), and the change tracking of a pre-copy (src/meta/moves.ts, spec §5.5), once:
// which table holds each kind of row, how a row names its namespace, its key columns, the
// triggers that record changed keys, and the statements that read and replace rows by key.
//
// Tracking is a trigger on every moved table, so every write path is covered, the ones to
// come included: a row inserted, updated or deleted while its namespace's move_state is
// 'tracking' has its key recorded in move_changes by the write's own statement, in its own
// transaction. A new table of namespace rows is added here, or a move does not copy it
// (test/conformance/moves.test.ts compares every table of a source and its copy). Writes pay
// for the triggers only while a move tracks: on SQLite they exist only then; on PostgreSQL a
// trigger's WHEN reads a transaction setting that the namespace fence check sets when it
// finds a tracking namespace (postgres/shared.ts writable), so no trigger function runs otherwise.
import { ROW_KEYS, type RowKind } from '../../moves.js';

export interface MovedTable {
  kind: RowKind;
  table: string;
  /** How a row names its namespace: an ns column, a lease scope 'ns/<id>', an object path 'ns/<id>/…'. */
  owner: 'ns' | 'scope' | 'path';
  /** The key columns, in ROW_KEYS order, with their PostgreSQL types (for the casts out of JSON). */
  key: ReadonlyArray<{ col: string; pg: 'bigint' | 'integer' | 'text' }>;
}

export const MOVED_TABLES: readonly MovedTable[] = [
  { kind: 'streams', table: 'streams', owner: 'ns', key: [{ col: 'id', pg: 'bigint' }] },
  { kind: 'collections', table: 'collections', owner: 'ns', key: [{ col: 'id', pg: 'bigint' }] },
  { kind: 'links', table: 'links', owner: 'ns', key: [{ col: 'id', pg: 'bigint' }] },
  { kind: 'aliases', table: 'aliases', owner: 'ns', key: [] },
  { kind: 'heads', table: 'heads', owner: 'ns', key: [{ col: 'stream', pg: 'bigint' }, { col: 'partition', pg: 'integer' }] },
  {
    kind: 'index',
    table: 'index_entries',
    owner: 'ns',
    key: [{ col: 'stream', pg: 'bigint' }, { col: 'partition', pg: 'integer' }, { col: 'start', pg: 'bigint' }],
  },
  { kind: 'pointers', table: 'pointers', owner: 'ns', key: [{ col: 'key', pg: 'text' }] },
  { kind: 'pointerHistory', table: 'pointer_history', owner: 'ns', key: [{ col: 'key', pg: 'text' }, { col: 'version', pg: 'bigint' }] },
  { kind: 'leases', table: 'leases', owner: 'scope', key: [{ col: 'key', pg: 'text' }] },
  { kind: 'tags', table: 'tags', owner: 'ns', key: [{ col: 'collection', pg: 'bigint' }, { col: 'name', pg: 'text' }] },
  { kind: 'tokens', table: 'request_tokens', owner: 'ns', key: [{ col: 'id', pg: 'text' }] },
  { kind: 'objects', table: 'object_refs', owner: 'path', key: [{ col: 'path', pg: 'text' }] },
];

// Every kind has its table, with the contract's key arity.
for (const t of MOVED_TABLES) {
  if (ROW_KEYS[t.kind].length !== t.key.length) throw new Error(`MOVED_TABLES ${t.table}: key arity differs from ROW_KEYS.${t.kind}`);
}
if (new Set(MOVED_TABLES.map((t) => t.kind)).size !== Object.keys(ROW_KEYS).length) throw new Error('MOVED_TABLES must cover every RowKind once');

export function movedTable(kind: RowKind): MovedTable {
  return MOVED_TABLES.find((t) => t.kind === kind)!;
}

// ---------------------------------------------------------------- SQLite

/** The namespace a row (NEW, OLD or a table alias) belongs to, in SQLite. */
function sqliteOwner(t: MovedTable, v: string): string {
  if (t.owner === 'ns') return `${v}.ns`;
  // 'ns/12' and 'ns/12/…': CAST reads the leading digits; other scopes and paths are NULL.
  const c = t.owner === 'scope' ? `${v}.scope` : `${v}.path`;
  return `CASE WHEN substr(${c}, 1, 3) = 'ns/' THEN CAST(substr(${c}, 4) AS INTEGER) END`;
}

function sqliteKey(t: MovedTable, v: string): string {
  return `json_array(${t.key.map((k) => `${v}.${k.col}`).join(', ')})`;
}

/** The migration's part: move_changes, and an index that finds a tracking namespace at once. */
export function sqliteTrackingSchema(): string {
  return `CREATE TABLE move_changes (ns INTEGER NOT NULL, kind TEXT NOT NULL, k TEXT NOT NULL, PRIMARY KEY (ns, kind, k)) WITHOUT ROWID;
  CREATE INDEX namespaces_tracking ON namespaces (id) WHERE move_state = 'tracking';`;
}

/**
 * The tracking triggers of the embedded backend. They exist only while some namespace on the
 * file is tracking (trackNamespace creates them in its transaction; the last fence, unfence
 * or removal drops them), so writes pay nothing when no move is under way. A schema change
 * reaches every connection to the file (each statement re-reads the schema), so no writer,
 * in this process or another, can skip them.
 */
export function sqliteTrackingTriggers(): string[] {
  const out: string[] = [];
  for (const t of MOVED_TABLES) {
    const tracking = (v: 'NEW' | 'OLD') => `EXISTS (SELECT 1 FROM namespaces WHERE id = ${sqliteOwner(t, v)} AND move_state = 'tracking')`;
    const rec = (v: 'NEW' | 'OLD') =>
      // ON CONFLICT DO NOTHING, not OR IGNORE: an OR clause in a trigger yields to the outer statement's.
      `INSERT INTO move_changes (ns, kind, k) SELECT ${sqliteOwner(t, v)}, '${t.kind}', ${sqliteKey(t, v)} WHERE ${tracking(v)} ON CONFLICT DO NOTHING;`;
    out.push(`CREATE TRIGGER IF NOT EXISTS move_track_${t.table}_i AFTER INSERT ON ${t.table} WHEN ${tracking('NEW')} BEGIN ${rec('NEW')} END;`);
    out.push(`CREATE TRIGGER IF NOT EXISTS move_track_${t.table}_u AFTER UPDATE ON ${t.table} WHEN ${tracking('OLD')} OR ${tracking('NEW')} BEGIN ${rec('OLD')} ${rec('NEW')} END;`);
    out.push(`CREATE TRIGGER IF NOT EXISTS move_track_${t.table}_d AFTER DELETE ON ${t.table} WHEN ${tracking('OLD')} BEGIN ${rec('OLD')} END;`);
  }
  return out;
}

export function sqliteDropTrackingTriggers(): string {
  return MOVED_TABLES.flatMap((t) => ['i', 'u', 'd'].map((e) => `DROP TRIGGER IF EXISTS move_track_${t.table}_${e};`)).join('\n');
}

/** `t`'s rows of namespace @ns (named parameter), as SQLite matches them. */
export function sqliteOwned(t: MovedTable, alias = t.table): string {
  if (t.owner === 'ns') return `${alias}.ns = @ns`;
  // CAST: a JavaScript number may be bound as a REAL, which would print as '12.0'.
  const id = `CAST(@ns AS INTEGER)`;
  if (t.owner === 'scope') return `${alias}.scope = 'ns/' || ${id}`;
  // '0' follows '/' in byte order: the paths under ns/<id>/.
  return `${alias}.path >= 'ns/' || ${id} || '/' AND ${alias}.path < 'ns/' || ${id} || '0'`;
}

/** A subquery of `t`'s rows of @ns: all of them, or those at the keys move_changes recorded. */
export function sqliteRowsOf(t: MovedTable, which: 'all' | 'changed'): string {
  if (which === 'all') return `SELECT * FROM ${t.table} WHERE ${sqliteOwned(t)}`;
  const match = t.key.map((k, i) => `x.${k.col} = json_extract(m.k, '$[${i}]')`);
  return `SELECT x.* FROM move_changes m JOIN ${t.table} x ON ${[sqliteOwned(t, 'x'), ...match].join(' AND ')}
    WHERE m.ns = @ns AND m.kind = '${t.kind}'`;
}

/** Deletes `t`'s rows of @ns at the keys in @keys (a JSON array of key arrays). */
export function sqliteDeleteKeys(t: MovedTable): string {
  if (t.key.length === 0) return `DELETE FROM ${t.table} WHERE ${sqliteOwned(t)} AND json_array_length(@keys) > 0`;
  const cols = t.key.map((k) => k.col).join(', ');
  const vals = t.key.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ');
  return `DELETE FROM ${t.table} WHERE ${sqliteOwned(t)} AND (${cols}) IN (SELECT ${vals} FROM json_each(@keys))`;
}

// ---------------------------------------------------------------- PostgreSQL

function pgOwner(t: MovedTable, v: string): string {
  if (t.owner === 'ns') return `${v}.ns`;
  const c = t.owner === 'scope' ? `${v}.scope` : `${v}.path`;
  return `CASE WHEN ${c} ~ '^ns/[0-9]{1,18}(/|$)' THEN split_part(${c}, '/', 2)::bigint END`;
}

/**
 * The transaction setting that arms the PostgreSQL tracking triggers: set by the fence check
 * of a write (postgres/shared.ts writable) that finds one of its namespaces tracking. Every
 * write to a namespace's rows runs that check first, in its transaction (as the fence needs),
 * and trackNamespace takes the row FOR UPDATE, so a write that read 'open' commits before
 * tracking begins (its change is in the pre-copy's snapshot).
 */
export const PG_TRACKING_SETTING = 'loam.move_tracking';

/** The migration that creates move_changes and the tracking triggers (PostgreSQL backend). */
export function pgTrackingSchema(): string {
  const out = [`CREATE TABLE move_changes (ns bigint NOT NULL, kind text COLLATE "C" NOT NULL, k jsonb NOT NULL, PRIMARY KEY (ns, kind, k));`];
  for (const t of MOVED_TABLES) {
    const key = (v: string) => `jsonb_build_array(${t.key.map((k) => `${v}.${k.col}`).join(', ')})`;
    const rec = (v: 'NEW' | 'OLD') =>
      `INSERT INTO move_changes (ns, kind, k) SELECT n.id, '${t.kind}', ${key(v)} FROM namespaces n
         WHERE n.id = ${pgOwner(t, v)} AND n.move_state = 'tracking' ON CONFLICT DO NOTHING;`;
    const row = (v: string) => `ROW(${t.key.map((k) => `${v}.${k.col}`).join(', ')})`;
    const same = t.key.length === 0 ? `OLD.ns = NEW.ns` : `${row('OLD')} IS NOT DISTINCT FROM ${row('NEW')}`;
    out.push(`CREATE FUNCTION loam_move_track_${t.table}() RETURNS trigger LANGUAGE plpgsql AS $f$
BEGIN
  IF TG_OP = 'DELETE' OR (TG_OP = 'UPDATE' AND NOT (${same})) THEN ${rec('OLD')} END IF;
  IF TG_OP <> 'DELETE' THEN ${rec('NEW')} END IF;
  RETURN NULL;
END $f$;`);
    out.push(
      `CREATE TRIGGER move_track AFTER INSERT OR UPDATE OR DELETE ON ${t.table} FOR EACH ROW
         WHEN (current_setting('${PG_TRACKING_SETTING}', true) = 'on') EXECUTE FUNCTION loam_move_track_${t.table}();`,
    );
  }
  return out.join('\n');
}

/** `t`'s rows of namespace $1 (alias `a`), as PostgreSQL matches them. */
export function pgOwned(t: MovedTable, a: string): string {
  if (t.owner === 'ns') return `${a}.ns = $1`;
  if (t.owner === 'scope') return `${a}.scope = 'ns/' || $1::bigint::text`;
  return `${a}.path >= 'ns/' || $1::bigint::text || '/' AND ${a}.path < 'ns/' || $1::bigint::text || '0'`;
}

/** A query of `t`'s rows of $1: all, or those at the keys move_changes recorded. */
export function pgRowsOf(t: MovedTable, which: 'all' | 'changed'): string {
  if (which === 'all') return `SELECT x.* FROM ${t.table} x WHERE ${pgOwned(t, 'x')}`;
  const match = t.key.map((k, i) => `x.${k.col} = (m.k->>${i})::${k.pg}`);
  return `SELECT x.* FROM move_changes m JOIN ${t.table} x ON ${[pgOwned(t, 'x'), ...match].join(' AND ')}
    WHERE m.ns = $1 AND m.kind = '${t.kind}'`;
}

/** Deletes `t`'s rows of $1 at the keys in $2 (a JSON array of key arrays); RETURNING what `returning` names. */
export function pgDeleteKeys(t: MovedTable, returning = ''): string {
  const ret = returning ? ` RETURNING ${returning}` : '';
  if (t.key.length === 0) return `DELETE FROM ${t.table} x WHERE ${pgOwned(t, 'x')} AND jsonb_array_length($2::jsonb) > 0${ret}`;
  const match = t.key.map((k, i) => `x.${k.col} = (j.v->>${i})::${k.pg}`).join(' AND ');
  return `DELETE FROM ${t.table} x USING jsonb_array_elements($2::jsonb) AS j(v) WHERE ${pgOwned(t, 'x')} AND ${match}${ret}`;
}

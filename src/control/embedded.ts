// The ControlStore on the embedded backend: its own control_* tables in the metastore's
// SQLite file, on the metastore's connection when given one (a ':memory:' database has no
// second connection), else on a connection of its own.
import Database from 'better-sqlite3';
import { errors } from '../meta/errors.js';
import { SQLITE_CACHE_KIB } from '../meta/backends/embedded/context.js';
import { SqlControlStore, type Query, type Row, type SqlDriver } from './sql.js';
import type { ControlOptions } from './types.js';

/** How long a statement waits for another connection's write lock (every wait a deadline). */
export const CONTROL_BUSY_TIMEOUT_MS = 5_000;
/** Longest pause between two tries for the write lock. */
export const BEGIN_RETRY_MAX_PAUSE_MS = 50;

/** `$1`-style SQL → SQLite's `?` with the parameters in occurrence order. */
function bind(sql: string, params: unknown[]): { sql: string; args: unknown[] } {
  const args: unknown[] = [];
  const out = sql.replace(/\$(\d+)/g, (_m, d: string) => {
    args.push(params[Number(d) - 1]);
    return '?';
  });
  return { sql: out, args };
}

class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  private readonly stmts = new Map<string, { stmt: Database.Statement; reader: boolean }>();
  private chain: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: Database.Database,
    private readonly owns: boolean,
  ) {}

  private run(sql: string, params: unknown[] = []): Row[] {
    const b = bind(sql, params);
    let s = this.stmts.get(b.sql);
    if (!s) {
      const stmt = this.db.prepare(b.sql);
      s = { stmt, reader: stmt.reader };
      this.stmts.set(b.sql, s);
    }
    if (s.reader) return s.stmt.all(...b.args) as Row[];
    s.stmt.run(...b.args);
    return [];
  }

  /** Control calls on this handle run one at a time (a transaction spans awaits). */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const p = this.chain.then(fn, fn);
    this.chain = p.catch(() => undefined);
    return p;
  }

  query: Query = (sql, params) => this.serial(async () => this.run(sql, params));

  /**
   * Takes the write lock without blocking the thread: SQLite's own busy wait sleeps
   * synchronously, which would stall every other connection of this process, including one
   * holding the lock across an await. So: try at once, and wait between tries here, bounded.
   */
  private async begin(): Promise<void> {
    const deadline = Date.now() + CONTROL_BUSY_TIMEOUT_MS;
    const saved = this.db.pragma('busy_timeout', { simple: true }) as number;
    for (let pause = 1; ; pause = Math.min(pause * 2, BEGIN_RETRY_MAX_PAUSE_MS)) {
      this.db.pragma('busy_timeout = 0');
      try {
        this.db.prepare('BEGIN IMMEDIATE').run();
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() + pause > deadline) throw e;
      } finally {
        this.db.pragma(`busy_timeout = ${saved}`);
      }
      await new Promise((r) => setTimeout(r, pause));
    }
  }

  tx<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    return this.serial(async () => {
      await this.begin().catch((e: unknown) => {
        if ((e as { code?: string }).code === 'SQLITE_BUSY') throw errors.retryable('busy', 'the control tables are locked by another writer', true);
        throw e;
      });
      try {
        const out = await fn(async (sql, params) => this.run(sql, params));
        this.db.prepare('COMMIT').run();
        return out;
      } catch (e) {
        if (this.db.inTransaction) this.db.prepare('ROLLBACK').run();
        if ((e as { code?: string }).code === 'SQLITE_BUSY') throw errors.retryable('busy', 'the control tables are locked by another writer', true);
        throw e;
      }
    });
  }

  isUniqueViolation(e: unknown): boolean {
    const c = (e as { code?: string }).code;
    return c === 'SQLITE_CONSTRAINT_PRIMARYKEY' || c === 'SQLITE_CONSTRAINT_UNIQUE';
  }

  async close(): Promise<void> {
    if (this.owns) this.db.close();
  }
}

/**
 * One driver per shared connection: its calls run one at a time, and a transaction spans
 * awaits, so everything on the connection that takes the driver's write lock (the
 * ControlStore, the directory) must share its queue.
 */
const sharedDrivers = new WeakMap<Database.Database, SqliteDriver>();

/** The driver on the metastore's own connection (shared; closing it leaves the connection open). */
export function sqliteDriverOn(db: Database.Database): SqlDriver {
  let d = sharedDrivers.get(db);
  if (!d) sharedDrivers.set(db, (d = new SqliteDriver(db, false)));
  return d;
}

/** On the metastore's own connection (shared; closing the ControlStore leaves it open). */
export function embeddedControlOn(db: Database.Database, opts: ControlOptions = {}): SqlControlStore {
  return new SqlControlStore(sqliteDriverOn(db), false, opts);
}

/** On a connection of its own to the metastore's file. */
export function openEmbeddedControl(path: string, opts: ControlOptions = {}): SqlControlStore {
  const db = new Database(path, { timeout: CONTROL_BUSY_TIMEOUT_MS });
  db.pragma('journal_mode = WAL');
  db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  return new SqlControlStore(new SqliteDriver(db, true), true, opts);
}

/** Master key ids listed at most by localMasterKeyRefs (a file normally holds one; a replaced key leaves a few). */
export const MAX_MASTER_KEY_REFS = 16;

/**
 * The master keys (their public ids) that wrap the live local-provider namespace keys in an
 * embedded metastore file: a node checks its own against them at start. None before the
 * control tables exist.
 */
export function localMasterKeyRefs(db: Database.Database): string[] {
  if (!db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'control_ns_keys'`).get()) return [];
  const rows = db.prepare(`SELECT DISTINCT key_ref FROM control_ns_keys WHERE provider = 'local' AND state <> 'destroyed' ORDER BY key_ref LIMIT ?`).all(MAX_MASTER_KEY_REFS) as { key_ref: string }[];
  return rows.map((r) => r.key_ref);
}

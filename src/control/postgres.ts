// The ControlStore on the Postgres backend: its own control_* tables in the metastore's
// database (created by init() under an advisory lock), on the metastore's write pool.
// Control writes are rare, so each runs in one READ COMMITTED transaction; serialization
// failures and deadlocks (40001, 40P01) are retried a bounded number of times.
import pg from 'pg';
import { errors } from '../meta/errors.js';
import { SqlControlStore, type Query, type SqlDriver } from './sql.js';
import type { ControlOptions } from './types.js';

/** Attempts of a control transaction that lost a serialization race. */
export const CONTROL_TX_ATTEMPTS = 5;

class PgDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  constructor(
    private readonly pool: pg.Pool,
    private readonly owns: boolean,
  ) {}

  query: Query = async (sql, params) => (await this.pool.query(sql, params as unknown[])).rows as Record<string, unknown>[];

  async tx<T>(fn: (q: Query) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.pool.connect();
      let broken = false;
      try {
        await c.query('BEGIN');
        const out = await fn(async (sql, params) => (await c.query(sql, params as unknown[])).rows as Record<string, unknown>[]);
        await c.query('COMMIT');
        return out;
      } catch (e) {
        await c.query('ROLLBACK').catch(() => (broken = true));
        const code = (e as { code?: string }).code;
        if ((code === '40001' || code === '40P01') && attempt < CONTROL_TX_ATTEMPTS) continue;
        if (code === '40001' || code === '40P01') throw errors.retryable('conflict', 'a control transaction kept conflicting', true);
        throw e;
      } finally {
        c.release(broken);
      }
    }
  }

  isUniqueViolation(e: unknown): boolean {
    return (e as { code?: string }).code === '23505';
  }

  async close(): Promise<void> {
    if (this.owns) await this.pool.end();
  }
}

/** A driver on the metastore's write pool (shared; closing it leaves the pool open). */
export function pgDriverOn(pool: pg.Pool): SqlDriver {
  return new PgDriver(pool, false);
}

export function postgresControlOn(pool: pg.Pool, opts: ControlOptions = {}): SqlControlStore {
  return new SqlControlStore(new PgDriver(pool, false), false, opts);
}

export function openPostgresControl(url: string, opts: ControlOptions = {}): SqlControlStore {
  const pool = new pg.Pool({ connectionString: url, max: 4, allowExitOnIdle: true, connectionTimeoutMillis: 5_000, statement_timeout: 30_000 });
  pool.on('error', () => undefined);
  return new SqlControlStore(new PgDriver(pool, true), true, opts);
}

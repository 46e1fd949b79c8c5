// Cluster singletons (spec §2.2, after Lakekeeper's advisory_lock.rs): maintenance that must
// run once per cluster, where a metastore lease does not already cover it, takes a Postgres
// advisory lock. pg_try_advisory_lock never waits: a second node simply skips the work.
// Keys are hashtextextended(name, 0), so callers use readable names ('loam:prune').
import type pg from 'pg';

export interface AdvisoryLock {
  readonly name: string;
  /** Releases the lock and returns the connection. Idempotent. */
  release(): Promise<void>;
}

/**
 * Takes the session advisory lock `name` on a dedicated connection of `pool`, or returns
 * null at once if another session holds it. The lock lives until release() or until the
 * connection drops (Postgres frees a dead session's locks), so a crashed holder never
 * blocks the cluster.
 */
export async function tryAdvisoryLock(pool: pg.Pool, name: string): Promise<AdvisoryLock | null> {
  const client = await pool.connect();
  client.on('error', () => undefined);
  let ok = false;
  try {
    const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [name]);
    ok = r.rows[0]?.ok === true;
  } finally {
    if (!ok) client.release();
  }
  if (!ok) return null;
  let released = false;
  return {
    name,
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [name]);
        client.release();
      } catch (e) {
        client.release(e as Error); // a broken connection: discard it (its locks went with it)
      }
    },
  };
}

/** Runs `fn` while holding the singleton `name`; returns null without running it if another holds it. */
export async function withSingleton<T>(pool: pg.Pool, name: string, fn: () => Promise<T>): Promise<T | null> {
  const lock = await tryAdvisoryLock(pool, name);
  if (!lock) return null;
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}

/** The transaction-scoped variant, for work done inside one transaction on `client`. */
export async function tryAdvisoryXactLock(client: pg.ClientBase, name: string): Promise<boolean> {
  const r = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [name]);
  return r.rows[0]?.ok === true;
}

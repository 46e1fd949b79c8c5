// Creating a Postgres metastore's database when it is missing (BackendDescriptor.provision):
// the hosted control plane gives each cluster a database of its own (spec §8), made when the
// cluster is created. It connects to the server's maintenance database (`postgres`) as the
// URL's user, who needs CREATEDB; an error says so.
import pg from 'pg';

/** Postgres identifiers are at most 63 bytes (NAMEDATALEN - 1); a longer name would be cut. */
export const MAX_DATABASE_NAME_BYTES = 63;
/** The database CREATE DATABASE is issued from. */
export const MAINTENANCE_DATABASE = 'postgres';
const CONNECT_TIMEOUT_MS = 10_000;
const STATEMENT_TIMEOUT_MS = 60_000;

/** The database a postgres:// URL names. */
export function databaseOf(url: string): string {
  const name = decodeURIComponent(new URL(url).pathname.replace(/^\//, ''));
  if (name === '') throw new Error('the postgres URL names no database (postgres://user:password@host:port/database)');
  if (Buffer.byteLength(name) > MAX_DATABASE_NAME_BYTES) throw new Error(`database name "${name}" is longer than ${MAX_DATABASE_NAME_BYTES} bytes`);
  return name;
}

/** Creates the URL's database unless it exists (idempotent, safe against a concurrent create). */
export async function createDatabase(url: string): Promise<void> {
  const name = databaseOf(url);
  const admin = new URL(url);
  admin.pathname = `/${MAINTENANCE_DATABASE}`;
  const c = new pg.Client({ connectionString: admin.toString(), connectionTimeoutMillis: CONNECT_TIMEOUT_MS, statement_timeout: STATEMENT_TIMEOUT_MS });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (r.rowCount) return;
    await c.query(`CREATE DATABASE ${c.escapeIdentifier(name)}`);
  } catch (e) {
    const code = (e as { code?: string }).code;
    // 42P04 duplicate_database, 23505 a concurrent create won the catalog's unique index.
    if (code === '42P04' || code === '23505') return;
    if (code === '42501') throw new Error(`cannot create database "${name}": the URL's user needs the CREATEDB privilege (or create the database beforehand)`);
    throw e;
  } finally {
    await c.end().catch(() => undefined);
  }
}

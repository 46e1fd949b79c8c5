// SQLSTATE → contract errors (spec §2.2, after Lakekeeper's dbutils.rs). Callers match on
// MetaError.code, never on Postgres' message text.
//
//   40001 serialization_failure, 40P01 deadlock_detected   rolled back: Retryable('conflict')
//   55P03 lock_not_available (lock_timeout)                 rolled back: Retryable('lock_timeout')
//   57014 query_canceled (statement_timeout)                rolled back: Retryable('timeout')
//   53300 too_many_connections, 53xxx insufficient resources Retryable('throttle')
//   57P01-57P03 admin shutdown / cannot connect now, 08xxx  Retryable('connection')
//   23505 unique_violation                                  AlreadyExists
//   23503 foreign_key_violation                             NotFound
//   22xxx data exceptions (a value out of range)            InvalidArgument
//   anything else                                           an Error carrying the SQLSTATE
// A connection error (no SQLSTATE) before BEGIN, or before COMMIT was sent, is Retryable with
// beforeSend: nothing can have applied. During COMMIT it is resolved by the caller (tx.ts).
import { MetaError, errors, isMetaError } from '../../errors.js';

/** A Postgres error as node-postgres reports it: `code` is the SQLSTATE. */
export interface PgError extends Error {
  code?: string;
  constraint?: string;
  table?: string;
  column?: string;
}

/** Whether this is an error the server sent (it has a five-character SQLSTATE). */
export function isServerError(e: unknown): e is PgError {
  const code = (e as PgError | undefined)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code);
}

/** A lost or refused connection: a socket error, or the server ending the session. */
export function isConnectionError(e: unknown): boolean {
  if (isMetaError(e)) return false;
  const code = (e as PgError | undefined)?.code;
  if (typeof code === 'string') {
    if (/^(08|57P0)/.test(code)) return true; // connection exception, admin shutdown, crash shutdown
    if (/^E[A-Z]+$/.test(code)) return true; // ECONNREFUSED, ECONNRESET, EPIPE, ETIMEDOUT…
    if (isServerError(e)) return false;
  }
  const msg = (e as Error | undefined)?.message ?? '';
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|not queryable|Client was closed|ECONNRESET|ECONNREFUSED|EPIPE|socket/i.test(
    msg,
  );
}

/**
 * Maps any error of a metastore call. `certainlyNotApplied`: the transaction cannot have
 * committed (we never sent COMMIT), so a transient failure carries beforeSend.
 */
export function mapPgError(e: unknown, certainlyNotApplied: boolean): unknown {
  if (e instanceof MetaError || isMetaError(e)) return e;
  const err = e as PgError;
  const code = err?.code ?? '';
  const msg = err?.message ?? String(e);
  if (code === '40001' || code === '40P01') {
    return errors.retryable('conflict', `metastore transaction rolled back (SQLSTATE ${code}): ${msg}`);
  }
  if (code === '55P03') return errors.retryable('lock_timeout', `metastore lock wait timed out (SQLSTATE 55P03): ${msg}`);
  if (code === '57014') return errors.retryable('timeout', `metastore statement cancelled (SQLSTATE 57014): ${msg}`);
  if (code.startsWith('53')) {
    return errors.retryable('throttle', `metastore out of resources (SQLSTATE ${code}): ${msg}`, certainlyNotApplied);
  }
  if (isConnectionError(e)) {
    return errors.retryable('connection', `metastore connection failed${code ? ` (${code})` : ''}: ${msg}`, certainlyNotApplied);
  }
  if (code === '23505') return new MetaError('AlreadyExists', `already exists (SQLSTATE 23505, ${err.constraint ?? 'unique'}): ${msg}`);
  if (code === '23503') return new MetaError('NotFound', `a referenced entity was not found (SQLSTATE 23503): ${msg}`);
  if (code.startsWith('22')) {
    return new MetaError('InvalidArgument', `a value was refused by the metastore (SQLSTATE ${code}): ${msg}`, {
      field: err.column ?? 'value',
    });
  }
  if (isServerError(e)) {
    const out = new Error(`metastore error SQLSTATE ${code}: ${msg}`) as PgError;
    out.code = code;
    return out;
  }
  return e;
}

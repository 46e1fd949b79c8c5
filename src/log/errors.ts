// Errors of the data plane (log, collections, workers), mapped to HTTP by the gateway.
// Callers match on `code`, never on message text.
import { DecryptFailed } from '../crypto/envelope.js';
import { KeyDestroyedError, KeyUnavailableError } from '../crypto/provider.js';

export type DataErrorCode =
  /** Bad input: the message names the field to fix (HTTP 400). */
  | 'InvalidArgument'
  /** Missing namespace, collection or document (HTTP 404). */
  | 'NotFound'
  /** Exists already, or a concurrent change won (HTTP 409). */
  | 'Conflict'
  /** Too many buffered writes on this node: retry after `retryAfterMs` (HTTP 429). */
  | 'Backpressure'
  /** Over a quota (`quota` names it), such as a collection's unapplied backlog: retry after `retryAfterMs` (HTTP 429). */
  | 'QuotaExceeded'
  /** The metastore or the store is unavailable, or the outcome is unknown: retry (HTTP 503). */
  | 'Unavailable'
  /** A deadline passed (a token read whose offsets never appeared, HTTP 503). */
  | 'Timeout'
  /** A payload or request over a named limit (HTTP 413). */
  | 'TooLarge'
  /** The namespace's key was destroyed (crypto-shredded, spec §9.8): its bytes can never be read again (HTTP 410). */
  | 'KeyDestroyed';

export class DataError extends Error {
  constructor(
    readonly code: DataErrorCode,
    message: string,
    readonly details: { field?: string; retryAfterMs?: number; quota?: string } = {},
  ) {
    super(message);
    this.name = `DataError(${code})`;
  }
}

export function isDataError(e: unknown, code?: DataErrorCode): e is DataError {
  return e instanceof DataError && (code === undefined || e.code === code);
}

export const dataErrors = {
  invalid: (field: string, why: string) => new DataError('InvalidArgument', `${field}: ${why}`, { field }),
  notFound: (what: string) => new DataError('NotFound', `${what} not found`),
  conflict: (message: string) => new DataError('Conflict', message),
  backpressure: (message: string, retryAfterMs: number) => new DataError('Backpressure', message, { retryAfterMs }),
  quotaExceeded: (quota: string, message: string, retryAfterMs: number) => new DataError('QuotaExceeded', message, { retryAfterMs, quota }),
  unavailable: (message: string, retryAfterMs = 1_000) => new DataError('Unavailable', message, { retryAfterMs }),
  timeout: (message: string) => new DataError('Timeout', message, { retryAfterMs: 1_000 }),
  tooLarge: (field: string, why: string) => new DataError('TooLarge', `${field}: ${why}`, { field }),
  keyDestroyed: (ns: number, what: string) => new DataError('KeyDestroyed', `namespace ${ns}'s key was destroyed (crypto-shredded): ${what} can no longer be decrypted`),
};

/** A key ring's failure as the data plane reports it: shredded (410), provider down (503), or altered bytes (503). */
export function keyError(e: unknown, ns: number, what: string): unknown {
  if (e instanceof KeyDestroyedError) return dataErrors.keyDestroyed(ns, what);
  if (e instanceof KeyUnavailableError) return dataErrors.unavailable(`${what}: ${e.message}`);
  if (e instanceof DecryptFailed) return dataErrors.unavailable(`${what}: ${e.message}`);
  return e;
}

// The API's errors (issue 14 items 2-6): every refusal is an HttpError, answered as
// {"error":{"code","message"}} with its status; what the layers below throw (the data plane's
// DataError, the metastore's MetaError, authorization, the object store, fastify's own and
// schema validation) is mapped here, once.
import type { DataError } from '../log/errors.js';
import { isDataError, keyError } from '../log/errors.js';
import { isMetaError, isNamespaceFenced, type MetaError } from '../meta/errors.js';
import { isStoreError } from '../store/index.js';
import { DecryptFailed } from '../crypto/envelope.js';
import { KeyDestroyedError, KeyUnavailableError } from '../crypto/provider.js';
import { isAuthzError } from '../authz/errors.js';
import { MAX_BATCH_BYTES } from '../collection/writer.js';
import { MOVE_HOLD_RETRY_AFTER_S } from './move-buffer.js';
import { WriteBudgetRefusal } from './write-budget.js';

/** HTTP body limit: the batch byte limit plus room for JSON syntax. */
export const BODY_LIMIT_BYTES = MAX_BATCH_BYTES + 4 * 1024 * 1024;
/** Retry-After (seconds) on 503s. */
export const UNAVAILABLE_RETRY_AFTER_S = 1;

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly retryAfterS?: number,
    /** For refusals (401, 403, 429): why, as a metric label (the quota's name, the action, …). */
    readonly reason?: string,
  ) {
    super(message);
  }
}

/** The fields a store names when it refuses a list's cursor (its `after`). */
const STORE_CURSOR_FIELDS: ReadonlySet<string> = new Set(['after', 'page.after']);

/** A list call: a cursor its store refuses is answered naming the query parameter the caller sent, not the store's field. */
export async function listedWithCursor<T>(list: Promise<T>): Promise<T> {
  try {
    return await list;
  } catch (e) {
    if (isMetaError(e, 'InvalidArgument') && STORE_CURSOR_FIELDS.has(String(e.details.field))) {
      throw new HttpError(400, 'invalid_argument', 'querystring.cursor: must be the next_cursor of a previous page of this list');
    }
    throw e;
  }
}

export function toHttp(e: unknown): HttpError {
  if (e instanceof HttpError) return e;
  if (e instanceof WriteBudgetRefusal) return new HttpError(503, 'overloaded', e.message, e.retryAfterS);
  if (isAuthzError(e)) return new HttpError(e.status, e.code, e.message, e.details.retryAfterS, e.details.reason);
  if (isDataError(e)) return fromData(e);
  if (isMetaError(e)) return fromMeta(e);
  if (e instanceof KeyDestroyedError || e instanceof KeyUnavailableError || e instanceof DecryptFailed) {
    return fromData(keyError(e, e instanceof KeyDestroyedError ? e.ns : -1, 'the data') as DataError);
  }
  if (isStoreError(e)) {
    if (e.code === 'Retryable') return new HttpError(503, 'unavailable', `the object store is unavailable: ${e.message}`, UNAVAILABLE_RETRY_AFTER_S);
    return new HttpError(500, 'internal', 'object store error');
  }
  const fe = e as { statusCode?: number; code?: string; message?: string; validation?: unknown };
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new HttpError(413, 'too_large', `the request body is over ${BODY_LIMIT_BYTES} bytes; split the batch`);
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return new HttpError(415, 'unsupported_media_type', 'send JSON with Content-Type: application/json');
    if (fe.code && !fe.code.startsWith('FST_')) return new HttpError(fe.statusCode, fe.code, fe.message ?? 'bad request');
    if (fe.code?.startsWith('FST_ERR_CTP') || /JSON/.test(fe.message ?? '')) return new HttpError(400, 'invalid_json', `the body is not valid JSON: ${fe.message}`);
    return new HttpError(fe.statusCode, fe.validation ? 'invalid_argument' : 'bad_request', fe.message ?? 'bad request');
  }
  return new HttpError(500, 'internal', 'internal error');
}

function fromData(e: DataError): HttpError {
  const retry = e.details.retryAfterMs === undefined ? undefined : Math.max(1, Math.ceil(e.details.retryAfterMs / 1000));
  switch (e.code) {
    case 'InvalidArgument':
      return new HttpError(400, 'invalid_argument', e.message);
    case 'NotFound':
      return new HttpError(404, 'not_found', e.message);
    case 'Conflict':
      return new HttpError(409, 'conflict', e.message);
    case 'TooLarge':
      return new HttpError(413, 'too_large', e.message);
    case 'KeyDestroyed':
      return new HttpError(410, 'key_destroyed', e.message);
    case 'Backpressure':
      return new HttpError(429, 'backpressure', e.message, retry ?? 1);
    case 'QuotaExceeded':
      return new HttpError(429, 'quota_exceeded', e.message, retry ?? 1, e.details.quota);
    case 'Unavailable':
      return new HttpError(503, 'unavailable', e.message, retry ?? UNAVAILABLE_RETRY_AFTER_S);
    case 'Timeout':
      return new HttpError(503, 'timeout', e.message, retry ?? UNAVAILABLE_RETRY_AFTER_S);
  }
}

function fromMeta(e: MetaError): HttpError {
  switch (e.code) {
    case 'NotFound':
      return new HttpError(404, 'not_found', e.message);
    case 'AlreadyExists':
      return new HttpError(409, 'already_exists', e.message);
    case 'VersionMismatch':
    case 'FenceMismatch':
    case 'LeaseHeld':
      return new HttpError(409, 'conflict', e.message);
    case 'InvalidArgument':
      return new HttpError(400, 'invalid_argument', e.message);
    case 'LimitExceeded':
      return new HttpError(400, 'limit_exceeded', e.message);
    case 'Retryable':
      if (isNamespaceFenced(e)) {
        return new HttpError(503, 'namespace_moving', `namespace ${String(e.details.ns)} is moving to another metastore shard; nothing was written, retry shortly`, MOVE_HOLD_RETRY_AFTER_S);
      }
      return new HttpError(503, 'unavailable', `the metastore could not complete the call: ${e.message}`, UNAVAILABLE_RETRY_AFTER_S);
    case 'Unknown':
    case 'Claimed':
    case 'StaleCommit':
    case 'NamespaceMoved':
      return new HttpError(503, 'unavailable', `the metastore could not complete the call: ${e.message}`, UNAVAILABLE_RETRY_AFTER_S);
  }
}

type AjvError = { instancePath: string; keyword?: string; message?: string; params?: Record<string, unknown>; schema?: unknown };

const ARTICLE: Record<string, string> = { string: 'a string', number: 'a number', integer: 'an integer', boolean: 'a boolean', object: 'an object', array: 'an array', null: 'null' };

/** A schema of one type (and a string's minimum length) in words, e.g. "a non-empty string"; undefined for anything more. */
function inWords(s: unknown): string | undefined {
  if (typeof s !== 'object' || s === null) return undefined;
  const { type, minLength } = s as { type?: unknown; minLength?: unknown };
  if (Object.keys(s).some((k) => k !== 'type' && k !== 'minLength' && k !== 'description')) return undefined;
  if (typeof type !== 'string' || !Object.hasOwn(ARTICLE, type)) return undefined;
  if (minLength === undefined) return ARTICLE[type];
  if (type !== 'string' || typeof minLength !== 'number') return undefined;
  return minLength === 1 ? 'a non-empty string' : `a string of at least ${minLength} characters`;
}

/** An error's field as the caller names it: `body.deletes[1]`. */
function fieldOf(e: AjvError, dataVar: string): string {
  return `${dataVar}${e.instancePath.replace(/\//g, '.').replace(/\.(\d+)(?=\.|$)/g, '[$1]')}`;
}

/** Ajv errors → one message naming the field to fix. */
export function formatValidation(errors: AjvError[], dataVar: string): Error {
  // Without allErrors the keyword that failed is the last error. For an anyOf, the errors
  // before it are its branches' own (the first says only "must be string"): say what each takes.
  const last = errors[errors.length - 1]!;
  if (last.keyword === 'anyOf' && Array.isArray(last.schema)) {
    const each = last.schema.map(inWords);
    if (each.every((x) => x !== undefined)) return new HttpError(400, 'invalid_argument', `${fieldOf(last, dataVar)} must be ${each.join(' or ')}`);
  }
  const e = errors[0]!;
  // A route that takes a JSON object was sent no body (or an array, a string, null).
  if (dataVar === 'body' && e.instancePath === '' && e.keyword === 'type' && e.params?.type === 'object') {
    return new HttpError(400, 'invalid_json', 'the body is empty or not an object; send a JSON object with Content-Type: application/json');
  }
  const path = fieldOf(e, dataVar);
  let msg = `${path} ${e.message ?? 'is invalid'}`;
  if (Array.isArray(e.params?.type)) msg = `${path} must be ${(e.params.type as string[]).join(' or ')}`;
  if (e.params?.additionalProperty) msg = `${path}.${String(e.params.additionalProperty)} is not a known field`;
  if (e.params?.missingProperty) msg = `${path}.${String(e.params.missingProperty)} is required`;
  if (e.params?.allowedValues) msg += ` (${(e.params.allowedValues as unknown[]).join(', ')})`;
  // A batch over its item limit is too large (413), like one over its byte limit.
  if (e.keyword === 'maxItems' && dataVar === 'body' && /^\/(upserts|deletes)$/.test(e.instancePath)) return new HttpError(413, 'too_large', msg);
  return new HttpError(400, 'invalid_argument', msg);
}

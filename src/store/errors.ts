// Typed object-store errors (DESIGN §4, spec §4.4). Providers map their native errors
// (errno codes, S3 status codes and error names) into these; callers match on `code`,
// never on message text. Every error is plain data plus a message, like MetaError.

export type StoreErrorCode =
  /** The key (or version) does not exist. */
  | 'NotFound'
  /** A create-only put (`ifNoneMatch: '*'`) found the key already there. */
  | 'AlreadyExists'
  /** An `ifMatch` put found another ETag, or no object at all. */
  | 'PreconditionFailed'
  /** Transient: conflict (409), throttling (503 SlowDown), 500, timeouts, lost acknowledgements. */
  | 'Retryable'
  /** The byte range cannot be satisfied (starts past the end, or is malformed). */
  | 'InvalidRange'
  /** A bad path, URL, option or limit: fix the call, do not retry it. */
  | 'InvalidArgument'
  /** The provider does not offer this feature; `capabilities()` says so up front. */
  | 'Unsupported'
  /** The provider refused the credentials or the action (403). */
  | 'PermissionDenied'
  /** Anything a provider could not map; the native error is kept as `cause`. */
  | 'Internal';

export interface StoreErrorDetails {
  /** The object path the call was about, when there is one. */
  path?: string;
  /** Retryable: what kind of transient failure (conflict, throttle, timeout, unavailable, lock). */
  reason?: string;
  /**
   * Retryable: the request may have been applied before the failure (a timeout or a lost
   * acknowledgement). A retry of a create-only put may then see AlreadyExists for its own
   * write, and a retried ifMatch put may see PreconditionFailed; callers resolve it by reading.
   */
  outcomeUnknown?: boolean;
  /** InvalidArgument: the field to fix. */
  field?: string;
  /** Unsupported: the missing capability. */
  capability?: string;
  /** InvalidRange: the object's size, when known. */
  size?: number;
  /** The provider's own status and error name, for logs only (never match on them). */
  status?: number;
  native?: string;
}

const RETRYABLE_CODES: ReadonlySet<StoreErrorCode> = new Set(['Retryable']);

export class StoreError extends Error {
  readonly code: StoreErrorCode;
  readonly details: StoreErrorDetails;

  constructor(code: StoreErrorCode, message: string, details: StoreErrorDetails = {}, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = `StoreError(${code})`;
    this.code = code;
    this.details = details;
  }

  /** Whether trying the same call again may succeed. */
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }

  toJSON(): { code: StoreErrorCode; message: string; details: StoreErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromJSON(v: { code: StoreErrorCode; message: string; details?: StoreErrorDetails }): StoreError {
    return new StoreError(v.code, v.message, v.details ?? {});
  }
}

export function isStoreError(e: unknown, code?: StoreErrorCode): e is StoreError {
  return e instanceof StoreError && (code === undefined || e.code === code);
}

// Constructors, so messages read the same on every provider.
export const storeErrors = {
  notFound: (path: string, cause?: unknown) => new StoreError('NotFound', `object ${path} not found`, { path }, cause),
  versionNotFound: (path: string, versionId: string, cause?: unknown) =>
    new StoreError('NotFound', `version ${versionId} of object ${path} not found`, { path }, cause),
  alreadyExists: (path: string, cause?: unknown) =>
    new StoreError('AlreadyExists', `object ${path} already exists (create-only put)`, { path }, cause),
  preconditionFailed: (path: string, expected: string, current: string | null, cause?: unknown) =>
    new StoreError(
      'PreconditionFailed',
      current === null
        ? `object ${path}: ifMatch ${expected} but the object does not exist`
        : `object ${path}: ifMatch ${expected} but the current ETag is ${current}`,
      { path },
      cause,
    ),
  preconditionFailedUnknownCurrent: (path: string, expected: string, cause?: unknown) =>
    new StoreError('PreconditionFailed', `object ${path}: ifMatch ${expected} does not match`, { path }, cause),
  retryable: (reason: string, message: string, details: Omit<StoreErrorDetails, 'reason'> = {}, cause?: unknown) =>
    new StoreError('Retryable', message, { ...details, reason }, cause),
  invalidRange: (path: string, why: string, size?: number) =>
    new StoreError('InvalidRange', `object ${path}: invalid range: ${why}`, size === undefined ? { path } : { path, size }),
  invalid: (field: string, why: string) => new StoreError('InvalidArgument', `${field}: ${why}`, { field }),
  unsupported: (provider: string, capability: string) =>
    new StoreError('Unsupported', `the ${provider} store does not support ${capability}`, { capability }),
  permissionDenied: (path: string | undefined, message: string, cause?: unknown) =>
    new StoreError('PermissionDenied', message, path === undefined ? {} : { path }, cause),
  internal: (message: string, details: StoreErrorDetails = {}, cause?: unknown) =>
    new StoreError('Internal', message, details, cause),
};

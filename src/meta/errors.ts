// Typed metastore errors (DESIGN §2.4). Backends map their native errors into these;
// callers match on `code`, never on message text. Every error is plain data plus a
// message, so it crosses gRPC unchanged (spec §8).

export type MetaErrorCode =
  | 'NotFound'
  | 'AlreadyExists'
  | 'VersionMismatch'
  | 'FenceMismatch'
  | 'LeaseHeld'
  | 'Claimed'
  | 'StaleCommit'
  | 'NamespaceMoved'
  | 'LimitExceeded'
  | 'InvalidArgument'
  | 'Retryable'
  | 'Unknown';

/** Extra facts an error carries, so callers need no second read. */
export interface MetaErrorDetails {
  /** AlreadyExists: the id of the existing entity (a retry after a lost ack learns its first id). */
  existingId?: number;
  /** VersionMismatch: the current version (null when the entity does not exist yet). */
  currentVersion?: number | null;
  /** FenceMismatch / LeaseHeld: the lease's current epoch and holder. */
  currentEpoch?: number;
  holder?: string | null;
  deadline?: number;
  /** InvalidArgument: the field to fix. */
  field?: string;
  /** LimitExceeded: the named limit and its value. */
  limit?: string;
  max?: number;
  /** Claimed: the object path under a GC claim. */
  path?: string;
  /** Unknown: an earlier attempt of the same call had an unknown outcome (spec §4.2). */
  earlierUnknown?: boolean;
  /**
   * Retryable: the attempt was refused before it was proposed (so it certainly did not
   * apply). The retry policy uses this for the earlierUnknown rule (spec §4.2).
   */
  beforeSend?: boolean;
  /** Retryable: what kind of transient failure (conflict, throttle, busy, claimed, namespace-fenced…). */
  reason?: string;
  /** Retryable('namespace-fenced') / NamespaceMoved: the namespace and its move epoch (spec §5.5). */
  ns?: number;
  moveEpoch?: number;
}

const RETRYABLE_CODES: ReadonlySet<MetaErrorCode> = new Set(['Retryable', 'Claimed', 'Unknown']);

export class MetaError extends Error {
  readonly code: MetaErrorCode;
  readonly details: MetaErrorDetails;

  constructor(code: MetaErrorCode, message: string, details: MetaErrorDetails = {}) {
    super(message);
    this.name = `MetaError(${code})`;
    this.code = code;
    this.details = details;
  }

  /** Whether trying the same call again may succeed. Unknown is retryable only with the same requestId. */
  get retryable(): boolean {
    return RETRYABLE_CODES.has(this.code);
  }

  toJSON(): { code: MetaErrorCode; message: string; details: MetaErrorDetails } {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromJSON(v: { code: MetaErrorCode; message: string; details?: MetaErrorDetails }): MetaError {
    return new MetaError(v.code, v.message, v.details ?? {});
  }
}

export function isMetaError(e: unknown, code?: MetaErrorCode): e is MetaError {
  return e instanceof MetaError && (code === undefined || e.code === code);
}

/**
 * A remote metastore refused the client's own credentials (its agent key, cluster or
 * certificate) before anything ran: Retryable with beforeSend, since nothing was applied, but
 * trying again is pointless until an operator fixes them — retry loops stop at it.
 */
export function isCredentialRefusal(e: unknown): boolean {
  return isMetaError(e, 'Retryable') && (e.details.reason === 'unauthenticated' || e.details.reason === 'permission_denied');
}

// Constructors, so messages read the same on every backend.
export const errors = {
  notFound: (what: string) => new MetaError('NotFound', `${what} not found`),
  alreadyExists: (what: string, existingId: number) =>
    new MetaError('AlreadyExists', `${what} already exists (id ${existingId})`, { existingId }),
  versionMismatch: (what: string, expected: number | null, current: number | null) =>
    new MetaError(
      'VersionMismatch',
      `${what}: expected version ${expected ?? 'none (create)'}, current is ${current ?? 'none'}`,
      { currentVersion: current },
    ),
  fenceMismatch: (what: string, expected: number, current: number, holder: string | null) =>
    new MetaError('FenceMismatch', `${what}: fence epoch ${expected} is stale, the lease is at epoch ${current}`, {
      currentEpoch: current,
      holder,
    }),
  leaseHeld: (key: string, holder: string, epoch: number, deadline: number) =>
    new MetaError('LeaseHeld', `lease ${key} is held by ${holder} (epoch ${epoch}) until stamp ${deadline}`, {
      holder,
      currentEpoch: epoch,
      deadline,
    }),
  claimed: (path: string) =>
    new MetaError('Claimed', `object ${path} is claimed by GC; it cannot be referenced again`, { path }),
  staleCommit: (object: string, ageMs: number, windowMs: number) =>
    new MetaError(
      'StaleCommit',
      `WAL object ${object} is ${ageMs} ms old, past the ${windowMs} ms commit window, and was never committed`,
    ),
  limitExceeded: (limit: string, max: number, got: number) =>
    new MetaError('LimitExceeded', `${limit} is ${max}; got ${got}`, { limit, max }),
  invalid: (field: string, why: string) => new MetaError('InvalidArgument', `${field}: ${why}`, { field }),
  retryable: (reason: string, message: string, beforeSend = false) =>
    new MetaError('Retryable', message, { reason, beforeSend }),
  unknown: (message: string, earlierUnknown = false) => new MetaError('Unknown', message, { earlierUnknown }),
  /** A write to a namespace fenced for a move (spec §5.5): nothing was written; retry once the move has flipped. */
  namespaceFenced: (ns: number, epoch: number) =>
    new MetaError('Retryable', `namespace ${ns} is being moved (fence epoch ${epoch}); nothing was written, retry shortly`, {
      reason: 'namespace-fenced',
      beforeSend: true,
      ns,
      moveEpoch: epoch,
    }),
  /** This shard's copy of the namespace was removed after a move (spec §3.5): refresh the directory and retry. */
  namespaceMoved: (ns: number, epoch: number) =>
    new MetaError('NamespaceMoved', `namespace ${ns} has moved to another metastore shard (move epoch ${epoch}); refresh the directory and retry`, {
      ns,
      moveEpoch: epoch,
    }),
};

/** Whether `e` refused a write because its namespace is fenced for a move. */
export function isNamespaceFenced(e: unknown): boolean {
  return isMetaError(e, 'Retryable') && e.details.reason === 'namespace-fenced';
}

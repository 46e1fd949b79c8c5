// Commit tokens and pruning (contract: WriteContext.requestId; spec §2.2, §3.2.2), once.
//
// A write with a requestId stores its result under that id in the same transaction, so a
// retry of a call whose outcome was unknown returns the first result and applies nothing
// twice. Calls that are idempotent by their own condition need no token row: a retry of one
// that applied finds its own effect and gives the same answer. They are the frequent ones,
// so an idle node no longer grows the token table (issue 12):
//   commitWal       its (object, group) commit record is the idempotency key (spec §3.1)
//   trimPartition   logStart only moves forward; a repeat is a no-op returning the head
//                   (unfenced only: a fenced one keeps its token, see tokenFor)
//   acquireLease    the owner acquiring again extends at the same epoch
//   renewLease      owner and epoch still match; the deadline only grows
//   releaseLease    releasing a released lease at its epoch is fine
//   janitor         resumable: a repeat finds what is left and reports what it removed
// Everything else keeps its token row (creates, drops, casPointer, swapSegment, tags,
// claims, aliases, schema, retention): a retry of those could not tell its own effect from
// another caller's.
//
// Pruning keeps up with insertion: after every PRUNE_EVERY_WRITES writes a handle deletes up
// to PRUNE_EVERY_WRITES × PRUNE_RATIO expired rows of each kind, so at most one row is
// added per write while up to PRUNE_RATIO are removed, in bounded batches.
import { errors } from '../errors.js';
import { MAX_CLOCK_SKEW_MS, REQUEST_TOKEN_TTL_MS, WAL_COMMIT_RECORD_TTL_MS } from '../limits.js';
import { DEFAULT_RETRY_POLICY } from '../retry.js';
import type { Stamp } from '../types.js';

/** The contract writes that store no commit-token row (see above). */
export const TOKEN_FREE_OPS: ReadonlySet<string> = new Set([
  'commitWal',
  'trimPartition',
  'acquireLease',
  'renewLease',
  'releaseLease',
  'janitor',
]);

/**
 * The requestId under which `op` stores its result, or undefined when it stores none. A
 * fenced trimPartition keeps its token: a retry after its lease moved on would otherwise be
 * refused (FenceMismatch) although the first attempt applied.
 */
export function tokenFor(op: string, requestId: string | undefined, fenced = false): string | undefined {
  if (requestId === undefined) return undefined;
  return TOKEN_FREE_OPS.has(op) && !(fenced && op === 'trimPartition') ? undefined : requestId;
}

/**
 * A requestId names one call: a token stored by another call is InvalidArgument, never that
 * call's result (spec §2.2). `storedOp` is the op the stored token row records.
 */
export function checkTokenOp(storedOp: string, op: string): void {
  if (storedOp !== op) throw errors.invalid('requestId', `was already used for ${storedOp}; use a fresh requestId per call`);
}

/** Every call on a closed handle is refused, on every backend. */
export function checkOpenHandle(closed: boolean): void {
  if (closed) throw errors.invalid('store', 'this metastore handle is closed');
}

/** A handle prunes once every this many of its writes. */
export const PRUNE_EVERY_WRITES = 16;
/** Expired rows removed per write, at most, of each kind: above 1, so pruning outruns insertion. */
export const PRUNE_RATIO = 4;
/** Rows one prune pass removes per kind, at most: a short transaction. */
export const PRUNE_BATCH = PRUNE_EVERY_WRITES * PRUNE_RATIO;

/**
 * The shortest token TTL a backend accepts: a token's stamp may lag the backend's clock by
 * maxClockSkew, and every retry of its call arrives within the retry budget.
 */
export const MIN_REQUEST_TOKEN_TTL_MS = MAX_CLOCK_SKEW_MS + DEFAULT_RETRY_POLICY.budgetMs;

/** A backend's token TTL option: absent means REQUEST_TOKEN_TTL_MS. */
export function requestTokenTtl(v: unknown): number {
  if (v === undefined) return REQUEST_TOKEN_TTL_MS;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < MIN_REQUEST_TOKEN_TTL_MS || v > REQUEST_TOKEN_TTL_MS) {
    throw errors.invalid('requestTokenTtlMs', `must be an integer in ${MIN_REQUEST_TOKEN_TTL_MS}..${REQUEST_TOKEN_TTL_MS} ms, got ${String(v)}`);
  }
  return v;
}

/** What one prune pass may remove: rows stamped below these cutoffs. */
export interface PruneCutoffs {
  /** Commit tokens: older than the token TTL by the backend's clock. */
  tokens: Stamp;
  /**
   * WAL commit records and GC tombstones: older than 2·window + maxClockSkew, judged on the
   * backend's clock minus the skew bound — never on a proposer's stamp, which may run ahead by
   * maxClockSkew and would eat the margin (spec §3.2.2).
   */
  records: Stamp;
}

export function pruneCutoffs(backendNow: number, tokenTtlMs: number = REQUEST_TOKEN_TTL_MS): PruneCutoffs {
  return { tokens: backendNow - tokenTtlMs, records: backendNow - MAX_CLOCK_SKEW_MS - WAL_COMMIT_RECORD_TTL_MS };
}

/**
 * When a row stamped `stamp` becomes prunable by the backend's clock: the inverse of
 * pruneCutoffs, for stores that index rows by that time (DynamoDB's expiry index, its TTL).
 * A token goes after the token TTL; a WAL commit record or GC tombstone only after
 * 2·window + maxClockSkew plus the skew bound (spec §3.2.2).
 */
export function prunableAt(kind: 'token' | 'record', stamp: Stamp, tokenTtlMs: number = REQUEST_TOKEN_TTL_MS): number {
  return kind === 'token' ? stamp + tokenTtlMs : stamp + WAL_COMMIT_RECORD_TTL_MS + MAX_CLOCK_SKEW_MS;
}

// When the client tries a request again, and how long it waits first.
//
// 429 and 503 are retried honouring Retry-After, with jitter, within a bounded number of
// attempts and a bounded total time. A request that may change something (a write, a create,
// a delete) is retried only when the server cannot have acted on it: a 429 (refused at
// admission, nothing written) or a connection that was never made. The HTTP API offers no
// idempotency key for writes, so a 503, a reset connection or a timeout after a write was
// sent is reported, never retried: the write may have been committed.

/** Attempts per request, the first included. */
export const DEFAULT_MAX_ATTEMPTS = 5;
/** No retry starts later than this after the first attempt started. */
export const DEFAULT_MAX_RETRY_TIME_MS = 30_000;
/** Backoff without a Retry-After: full jitter over BASE × 2^retry, capped at MAX. */
export const BACKOFF_BASE_MS = 100;
export const BACKOFF_MAX_MS = 5_000;
/** Added on top of a Retry-After, as a fraction of it, so clients told the same wait spread out. */
export const RETRY_AFTER_JITTER = 0.2;
/** A Retry-After longer than this is not waited for (the error is reported instead). */
export const MAX_RETRY_AFTER_MS = 60_000;

export interface RetryPolicy {
  maxAttempts: number;
  maxRetryTimeMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: DEFAULT_MAX_ATTEMPTS, maxRetryTimeMs: DEFAULT_MAX_RETRY_TIME_MS };

/**
 * Whether the request may be sent again: `safe` requests change nothing (reads, queries) or
 * set a value (PUT); `unsafe` ones (writes, creates, deletes) only when nothing was done.
 */
export type Idempotence = 'safe' | 'unsafe';

/** What came of one attempt, for the decision. */
export type Outcome =
  | { kind: 'answer'; status: number; retryAfterMs?: number }
  | { kind: 'not_connected' }
  | { kind: 'lost' };

/** A Retry-After header (delta seconds or an HTTP date) in ms; undefined when absent or unreadable. */
export function parseRetryAfter(v: string | null, now = Date.now()): number | undefined {
  if (v === null || v.trim() === '') return undefined;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** True when an attempt with this outcome may be repeated. */
export function retryable(o: Outcome, idem: Idempotence): boolean {
  if (o.kind === 'not_connected') return true;
  if (o.kind === 'lost') return idem === 'safe';
  if (o.status === 429) return true;
  return o.status === 503 && idem === 'safe';
}

/** How long to wait before retry number `retry` (1 for the first), jittered. */
export function delayMs(o: Outcome, retry: number, random = Math.random): number {
  if (o.kind === 'answer' && o.retryAfterMs !== undefined) return o.retryAfterMs * (1 + RETRY_AFTER_JITTER * random());
  return random() * Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** (retry - 1));
}

/**
 * The wait before the next attempt, or null to give up: attempts spent, a Retry-After beyond
 * MAX_RETRY_AFTER_MS, or a wait that would end past the total budget.
 */
export function nextDelay(o: Outcome, idem: Idempotence, attempt: number, startedAt: number, policy: RetryPolicy, now = Date.now(), random = Math.random): number | null {
  if (!retryable(o, idem) || attempt >= policy.maxAttempts) return null;
  if (o.kind === 'answer' && o.retryAfterMs !== undefined && o.retryAfterMs > MAX_RETRY_AFTER_MS) return null;
  const d = delayMs(o, attempt, random);
  return now + d - startedAt > policy.maxRetryTimeMs ? null : d;
}

// The client retry policy every metastore caller uses (spec §4.2).
//
// - Bounded: at most `maxAttempts` attempts and `budgetMs` of wall time; jittered
//   exponential backoff between attempts.
// - Retries only what is retryable: Retryable (conflict, throttle, busy, refused) and
//   Unknown. Claimed is not retried here: a claimed path stays claimed, so the caller must
//   write a new object instead. Every other typed error is surfaced at once.
// - Every attempt of one logical call carries the same requestId, so the backend's
//   idempotency mechanism (commit-token rows, ClientRequestToken, (object, group) records)
//   turns an earlier unknown outcome into a known one: a retry of a call that applied
//   returns the first attempt's result and applies nothing twice.
// - earlierUnknown: an attempt refused before it was proposed (details.beforeSend) never
//   sets it; every other retryable failure does. When the attempts run out after such a
//   failure, the call surfaces Unknown with earlierUnknown = true, never success and never
//   a plain "not applied".
// - The budget bounds a hanging attempt too: one still unanswered when the budget ends is
//   abandoned and the call surfaces Unknown with earlierUnknown = true (spec §4.2: "Timeout
//   after the retry budget"), since the abandoned attempt may still apply.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { MetaError, errors, isCredentialRefusal, isMetaError } from './errors.js';

export interface RetryPolicy {
  maxAttempts: number;
  /** Total time for all attempts and backoffs of one call. */
  budgetMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Replaced by tests for determinism. */
  random?: () => number;
}

/** Defaults: five attempts within ten seconds, 10 ms doubling to at most 1 s, full jitter. */
export const DEFAULT_RETRY_POLICY: Readonly<RetryPolicy> = Object.freeze({
  maxAttempts: 5,
  budgetMs: 10_000,
  baseDelayMs: 10,
  maxDelayMs: 1_000,
});

export interface RetryReport {
  attempts: number;
  /** Whether some attempt's outcome was unknown (it may have applied). */
  earlierUnknown: boolean;
}

/**
 * Runs `attempt(requestId, n)` under the policy. The same requestId is passed to every
 * attempt. Returns the result, or throws the surfaced error (see the rules above).
 */
export async function withRetry<T>(
  attempt: (requestId: string, n: number) => Promise<T>,
  policy: RetryPolicy = DEFAULT_RETRY_POLICY,
  report?: (r: RetryReport) => void,
): Promise<T> {
  const requestId = randomUUID();
  const random = policy.random ?? Math.random;
  const deadline = Date.now() + policy.budgetMs;
  let earlierUnknown = false;
  let last: unknown;
  for (let n = 1; n <= policy.maxAttempts; n++) {
    try {
      const r = await withinBudget(attempt(requestId, n), deadline, n);
      report?.({ attempts: n, earlierUnknown });
      return r;
    } catch (e) {
      last = e;
      if (!isMetaError(e) || !retryable(e)) {
        report?.({ attempts: n, earlierUnknown });
        throw e;
      }
      if (!(e.code === 'Retryable' && e.details.beforeSend)) earlierUnknown = true;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (n - 1)) * random();
      if (n === policy.maxAttempts || Date.now() + backoff >= deadline) {
        report?.({ attempts: n, earlierUnknown });
        break;
      }
      await sleep(backoff);
    }
  }
  const err = last as MetaError;
  if (earlierUnknown) {
    throw errors.unknown(`outcome unknown after retries: ${err.message}`, true);
  }
  throw err;
}

/** `p`, or Unknown once the deadline passes first (the attempt goes on, unobserved). */
async function withinBudget<T>(p: Promise<T>, deadline: number, n: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(errors.unknown(`attempt ${n} had no answer within the retry budget; it may still apply`, true)),
      Math.max(0, deadline - Date.now()),
    );
  });
  const q = Promise.resolve(p);
  q.catch(() => undefined); // an abandoned attempt's late failure is nobody's to handle
  try {
    return await Promise.race([q, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function retryable(e: MetaError): boolean {
  return (e.code === 'Retryable' || e.code === 'Unknown') && !isCredentialRefusal(e);
}

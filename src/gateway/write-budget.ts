// The in-flight write budget (issue 14 item 9, docs/operations.md "Sizing a node's memory"):
// a write request's body is read, parsed, encoded into records and held in the log writer's
// batch until its WAL object is committed, and what a node holds for its writes grows with the
// number of requests in flight — measured at 200 clients, 150–250 MiB of the main thread's
// heap and buffers, against 60–110 at 32 clients. So a node admits write bodies up to
// `write_inflight_bytes` (their Content-Length) before reading them; a request beyond it waits,
// first come first served, in a bounded queue with a deadline, and its body stays in the
// socket meanwhile (Node stops reading a request whose body nobody reads). A request that
// cannot be admitted in time, or finds the queue full, is answered 503 with Retry-After before
// its body was read: nothing of it was written.
//
// A body larger than the whole budget is charged the whole budget: it runs alone, never
// refused for its size (that is the body limit's job).

/**
 * Bytes of write request bodies admitted and not yet answered, by default: about 40 requests
 * of 100 documents of 1 KiB, more than the 32 clients that saturate a 2-core node hold. At
 * 200 clients a node peaked at 575–614 MiB with 8 MiB (over 512 MiB + cache_bytes), 505 with
 * this (bench ingest).
 */
export const DEFAULT_WRITE_INFLIGHT_BYTES = 4 * 1024 * 1024;
/** How long a write may wait for the budget, by default, before it is refused (503). */
export const DEFAULT_WRITE_QUEUE_TIMEOUT_MS = 5_000;
/**
 * Write requests waiting for the budget at most; more are refused at once. A waiting request
 * holds its socket and what the socket buffered of its body (tens of KiB).
 */
export const MAX_QUEUED_WRITES = 256;
/** Retry-After (seconds) of a write refused by the budget. */
export const WRITE_BUDGET_RETRY_AFTER_S = 1;

/** Why a write was not admitted: the queue was full, or its wait passed the deadline. */
export class WriteBudgetRefusal extends Error {
  readonly retryAfterS = WRITE_BUDGET_RETRY_AFTER_S;
  constructor(
    readonly reason: 'queue_full' | 'timeout',
    message: string,
  ) {
    super(message);
  }
}

interface Waiter {
  charge: number;
  grant: () => void;
}

export interface WriteBudgetStats {
  /** Bytes admitted now (their charges), and requests admitted now. */
  inflightBytes: number;
  inflight: number;
  /** Requests waiting now. */
  queued: number;
  /** The most bytes admitted at once so far. */
  peakBytes: number;
}

export class WriteBudget {
  private inflightBytes = 0;
  private inflight = 0;
  private peakBytes = 0;
  private readonly queue: Waiter[] = [];

  constructor(
    readonly limitBytes = DEFAULT_WRITE_INFLIGHT_BYTES,
    readonly timeoutMs = DEFAULT_WRITE_QUEUE_TIMEOUT_MS,
    readonly maxQueued = MAX_QUEUED_WRITES,
  ) {
    if (!(limitBytes >= 1) || !(timeoutMs >= 0) || !(maxQueued >= 0)) throw new RangeError('limitBytes >= 1, timeoutMs >= 0 and maxQueued >= 0 are required');
  }

  /**
   * Admits a body of `bytes`: a release function at once when it fits (no promise on the hot
   * path), else a promise of one, or a WriteBudgetRefusal (thrown or rejected). `signal`
   * aborted while waiting (the client went away) leaves the queue and rejects with its reason.
   * Call the release exactly once, when the request is answered.
   */
  acquire(bytes: number, signal?: AbortSignal): (() => void) | Promise<() => void> {
    const charge = Math.min(Math.max(0, bytes), this.limitBytes);
    // First come, first served: nobody overtakes a waiting request (a large one would starve).
    if (this.queue.length === 0 && this.fits(charge)) return this.take(charge);
    if (this.queue.length >= this.maxQueued) {
      throw new WriteBudgetRefusal(
        'queue_full',
        `this node has ${this.inflightBytes} bytes of writes in flight (write_inflight_bytes is ${this.limitBytes}) and ${this.queue.length} writes waiting, the most it queues; nothing was written, retry in ${WRITE_BUDGET_RETRY_AFTER_S} s`,
      );
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.queue.indexOf(w);
        if (at >= 0) this.queue.splice(at, 1);
        // The head may have been what held the others back.
        this.grantWaiting();
      };
      const onAbort = () => {
        leave();
        reject(signal!.reason);
      };
      const w: Waiter = {
        charge,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(charge));
        },
      };
      timer = setTimeout(() => {
        leave();
        reject(
          new WriteBudgetRefusal(
            'timeout',
            `this write waited ${this.timeoutMs} ms for the node's write budget (write_inflight_bytes is ${this.limitBytes}; ${this.inflightBytes} bytes in flight, ${this.queue.length} writes waiting); nothing was written, retry in ${WRITE_BUDGET_RETRY_AFTER_S} s`,
          ),
        );
      }, this.timeoutMs);
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.push(w);
    });
  }

  stats(): WriteBudgetStats {
    return { inflightBytes: this.inflightBytes, inflight: this.inflight, queued: this.queue.length, peakBytes: this.peakBytes };
  }

  /** Within what is left (a charge is at most the whole budget, so with nothing in flight it fits). */
  private fits(charge: number): boolean {
    return this.inflightBytes + charge <= this.limitBytes;
  }

  private take(charge: number): () => void {
    this.inflightBytes += charge;
    this.inflight++;
    this.peakBytes = Math.max(this.peakBytes, this.inflightBytes);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inflightBytes -= charge;
      this.inflight--;
      this.grantWaiting();
    };
  }

  private grantWaiting(): void {
    while (this.queue.length > 0 && this.fits(this.queue[0]!.charge)) this.queue.shift()!.grant();
  }
}

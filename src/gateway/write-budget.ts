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
//
// Tenants share the budget, and a body holds its charge until the last byte arrives: one
// org sending slow bodies would hold the whole budget and every other org's writes would
// wait, then be refused. So an owner (the request's org) holds at most OWNER_SHARE of the
// budget and of the queue, a body larger than that is charged the share, and a waiting write
// whose owner is at its share does not hold back another owner's write behind it.

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
/** The most of the budget, and of the queue, that one owner (an org) holds: another org always finds the rest. */
export const OWNER_SHARE = 0.5;
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
  owner: string | undefined;
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
  /** Bytes held and writes queued per owner (owners with none are not kept). */
  private readonly held = new Map<string, number>();
  private readonly queuedBy = new Map<string, number>();

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
  acquire(bytes: number, signal?: AbortSignal, owner?: string): (() => void) | Promise<() => void> {
    const charge = Math.min(Math.max(0, bytes), this.ownerLimit(owner));
    // First come, first served: nobody overtakes a waiting request (a large one would starve).
    if (this.queue.length === 0 && this.fits(charge, owner)) return this.take(charge, owner);
    if (this.queue.length >= this.maxQueued) {
      throw new WriteBudgetRefusal(
        'queue_full',
        `this node has ${this.inflightBytes} bytes of writes in flight (write_inflight_bytes is ${this.limitBytes}) and ${this.queue.length} writes waiting, the most it queues; nothing was written, retry in ${WRITE_BUDGET_RETRY_AFTER_S} s`,
      );
    }
    if (owner !== undefined && (this.queuedBy.get(owner) ?? 0) >= this.ownerQueueLimit()) {
      throw new WriteBudgetRefusal(
        'queue_full',
        `org "${owner}" has ${this.held.get(owner) ?? 0} bytes of writes in flight on this node and ${this.queuedBy.get(owner)} waiting, the most one org queues (${this.ownerQueueLimit()} of the node's ${this.maxQueued}); nothing was written, retry in ${WRITE_BUDGET_RETRY_AFTER_S} s`,
      );
    }
    return new Promise((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const leave = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        const at = this.queue.indexOf(w);
        if (at >= 0) this.dequeue(at);
        // The head may have been what held the others back.
        this.grantWaiting();
      };
      const onAbort = () => {
        leave();
        reject(signal!.reason);
      };
      const w: Waiter = {
        charge,
        owner,
        grant: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve(this.take(charge, owner));
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
      if (owner !== undefined) count(this.queuedBy, owner, 1);
      // Those ahead may be waiting only for their own owner's share.
      this.grantWaiting();
    });
  }

  stats(): WriteBudgetStats {
    return { inflightBytes: this.inflightBytes, inflight: this.inflight, queued: this.queue.length, peakBytes: this.peakBytes };
  }

  /** What one owner's writes may hold at once (no owner: the whole budget). */
  private ownerLimit(owner: string | undefined): number {
    return owner === undefined ? this.limitBytes : Math.max(1, Math.floor(this.limitBytes * OWNER_SHARE));
  }

  private ownerQueueLimit(): number {
    return Math.max(1, Math.floor(this.maxQueued * OWNER_SHARE));
  }

  /** Within what is left, and within the owner's share (a charge is at most the share, so with nothing in flight it fits). */
  private fits(charge: number, owner: string | undefined): boolean {
    return this.inflightBytes + charge <= this.limitBytes && this.ownerFits(charge, owner);
  }

  private ownerFits(charge: number, owner: string | undefined): boolean {
    return owner === undefined || (this.held.get(owner) ?? 0) + charge <= this.ownerLimit(owner);
  }

  private take(charge: number, owner: string | undefined): () => void {
    this.inflightBytes += charge;
    this.inflight++;
    this.peakBytes = Math.max(this.peakBytes, this.inflightBytes);
    if (owner !== undefined) count(this.held, owner, charge);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.inflightBytes -= charge;
      this.inflight--;
      if (owner !== undefined) count(this.held, owner, -charge);
      this.grantWaiting();
    };
  }

  private dequeue(at: number): Waiter {
    const w = this.queue.splice(at, 1)[0]!;
    if (w.owner !== undefined) count(this.queuedBy, w.owner, -1);
    return w;
  }

  /**
   * Grants waiting writes in order. One whose owner is at its share is passed over (it waits
   * for its own org's writes, not for room); the first other one that does not fit stops the
   * scan, so a large write is never overtaken for room (bounded: the queue is).
   */
  private grantWaiting(): void {
    for (let i = 0; i < this.queue.length; ) {
      const w = this.queue[i]!;
      if (!this.ownerFits(w.charge, w.owner)) {
        i++;
        continue;
      }
      if (this.inflightBytes + w.charge > this.limitBytes) return;
      this.dequeue(i).grant();
    }
  }
}

/** Adds `by` to an owner's count; an owner at zero is not kept. */
function count(m: Map<string, number>, owner: string, by: number): void {
  const n = (m.get(owner) ?? 0) + by;
  if (n > 0) m.set(owner, n);
  else m.delete(owner);
}

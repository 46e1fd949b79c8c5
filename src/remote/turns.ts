// When calls arrive together, the server hands them to its backend one event-loop turn at a
// time for as long as a backend call blocks the loop.
//
// Why: the embedded backend runs a call synchronously (better-sqlite3: a commit with
// synchronous=FULL blocks the loop for its fsync), and Node's HTTP/2 session puts a response
// on the socket only when the loop next turns. Calls that arrive in one socket read would all
// run back to back before the first response leaves, and the client would then turn the whole
// batch around while the server idles: traced on loopback, 8 concurrent commitWal calls gave
// 8 fsyncs, then 8 responses, then a wait for the next 8 requests. One call per turn lets each
// response leave while the next call runs, so client and server overlap.
//
// Only while calls block: when the last turn was short (an asynchronous backend such as
// PostgreSQL or DynamoDB, or cheap synchronous calls), everything waiting is let through at
// once, so no call waits more than one turn and concurrency is what it would be without the
// gate. A call that finds the turn free starts at once. What waits is bounded by the calls in
// flight (one entry per call the transport accepted); nothing else is queued here.

/** A turn that held the loop this long counts as blocking: the next turn lets one call through. */
export const BLOCKING_TURN_MS = 1;

export class TurnGate {
  private readonly waiting: (() => void)[] = [];
  /** A call was let through in the current turn; when (performance.now()). */
  private takenAt: number | null = null;

  /** Resolves when the caller may start its backend call. */
  turn(): Promise<void> {
    if (this.takenAt === null) {
      this.takenAt = performance.now();
      setImmediate(this.next);
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** The check phase: the responses written in the turn before have been flushed. */
  private readonly next = (): void => {
    const now = performance.now();
    const blocked = now - this.takenAt! >= BLOCKING_TURN_MS;
    if (this.waiting.length === 0) {
      this.takenAt = null;
      return;
    }
    this.takenAt = now;
    if (blocked) this.waiting.shift()!();
    else for (const release of this.waiting.splice(0)) release();
    setImmediate(this.next);
  };

  /** Calls waiting for their turn. */
  get queued(): number {
    return this.waiting.length;
  }
}

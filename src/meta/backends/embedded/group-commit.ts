// Group commit for the embedded backend's commitWal (docs/operations.md, "Embedded"): the calls
// queued in one turn of the event loop run in one `BEGIN IMMEDIATE … COMMIT`, so they share one
// fsync instead of paying one each. Each call runs in its own SAVEPOINT: a call that fails (a
// typed refusal — fence, stale commit, claimed object, different chunks — or a fault hook's
// throw) is rolled back to its savepoint and fails alone; the others commit. Nobody is answered
// before the COMMIT that holds their write (durability unchanged), and a COMMIT that fails fails
// every call of its group, as it would each call alone.
//
// A transaction's body is synchronous on SQLite, so a group runs start to end in one turn and
// nothing can join it meanwhile; calls made while it runs (the answers' callbacks) form the next.

/** Calls one group transaction carries at most; the rest of the queue forms the next group. */
export const MAX_GROUP_COMMIT_CALLS = 64;
/**
 * How long a group waits for another user of the connection (the ControlStore, whose
 * transactions span awaits) to end its transaction before it begins anyway and is refused busy.
 */
export const OPEN_TX_WAIT_MS = 5_000;

/** The transaction statements a group runs, on the backend's one handle. */
export interface GroupTx {
  begin(): void;
  commit(): void;
  rollback(): void;
  savepoint(): void;
  release(): void;
  rollbackToSavepoint(): void;
  /** Whether a transaction is still open (SQLite rolls the whole one back on some errors: I/O, full disk, busy). */
  inTransaction(): boolean;
  /** The contract's error for a thrown one; `beforeBegin` says nothing was started. */
  mapError(e: unknown, beforeBegin: boolean): unknown;
  /** After a group's COMMIT (wake the watchers of what it changed), or its rollback. */
  settled(committed: boolean): void;
}

interface Queued {
  run(): unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
}

export class GroupCommit {
  private readonly queue: Queued[] = [];
  private scheduled = false;
  /** Since when a flush has found another transaction open on the connection (null: it did not). */
  private openSince: number | null = null;
  /** Group transactions committed, and the calls they carried (the backend's own counters). */
  readonly stats = { groups: 0, calls: 0 };

  constructor(private readonly tx: GroupTx) {}

  /** Runs `body` (synchronous, inside the transaction) in the next group: its result once that group has committed. */
  add<T>(body: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: body, resolve: resolve as (v: unknown) => void, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      // After this turn's microtasks: every caller woken by the last group's answers has queued.
      setImmediate(() => this.flush());
    });
  }

  /** Rejects what is queued (the handle closed before its group ran). */
  failQueued(e: unknown): void {
    for (const q of this.queue.splice(0)) q.reject(e);
  }

  private flush(): void {
    this.scheduled = false;
    if (this.tx.inTransaction()) {
      // Not this handle's (its groups run start to end in one turn): wait a turn for its end.
      this.openSince ??= performance.now();
      if (performance.now() - this.openSince < OPEN_TX_WAIT_MS) {
        this.scheduled = true;
        setImmediate(() => this.flush());
        return;
      }
    }
    this.openSince = null;
    // Bounded: nothing joins the queue while groups run (they are synchronous), and each takes at least one call.
    while (this.queue.length > 0) {
      const calls = this.queue.splice(0, MAX_GROUP_COMMIT_CALLS);
      try {
        this.runGroup(calls);
      } catch (e) {
        // A statement of the group's own (SAVEPOINT, ROLLBACK TO) failed: nothing of it is committed.
        if (this.tx.inTransaction()) this.tx.rollback();
        this.tx.settled(false);
        const err = this.tx.mapError(e, false);
        for (const c of calls) c.reject(err); // a settled promise ignores a second settlement
      }
    }
  }

  private runGroup(calls: Queued[]): void {
    const tx = this.tx;
    try {
      tx.begin();
    } catch (e) {
      const err = tx.mapError(e, true);
      for (const c of calls) c.reject(err);
      return;
    }
    // Alone, a call needs no savepoint: its failure rolls the transaction back.
    const own = calls.length > 1;
    const ok: boolean[] = new Array(calls.length).fill(false);
    const out: unknown[] = new Array(calls.length);
    let applied = 0;
    for (let i = 0; i < calls.length; i++) {
      try {
        if (own) tx.savepoint();
        out[i] = calls[i]!.run();
        if (own) tx.release();
        ok[i] = true;
        applied++;
      } catch (e) {
        out[i] = tx.mapError(e, false);
        if (!tx.inTransaction()) {
          // SQLite ended the whole transaction: no call of the group is committed.
          tx.settled(false);
          calls.forEach((c, k) => c.reject(k < i && ok[k] ? out[i] : (out[k] ?? out[i])));
          return;
        }
        if (own) {
          tx.rollbackToSavepoint();
          tx.release();
        }
      }
    }
    try {
      if (applied > 0) tx.commit();
      else tx.rollback();
    } catch (e) {
      if (tx.inTransaction()) tx.rollback();
      tx.settled(false);
      const err = tx.mapError(e, false);
      calls.forEach((c, k) => c.reject(ok[k] ? err : out[k]));
      return;
    }
    tx.settled(applied > 0);
    if (applied > 0) {
      this.stats.groups++;
      this.stats.calls += applied;
    }
    calls.forEach((c, k) => (ok[k] ? c.resolve(out[k]) : c.reject(out[k])));
  }
}

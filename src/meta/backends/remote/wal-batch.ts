// Batched commitWal (spec §8, docs/remote.md "Batched commitWal"): concurrent commitWal calls
// of one client travel in one batch — a message of the client's commitWal stream
// (./wal-stream.ts), or without it one CommitWalBatch RPC — so a node's writers pay one HTTP/2 stream,
// one set of headers and one authentication per batch instead of per call. No linger in time:
// the calls made in one turn of the event loop leave together at its end (setImmediate), and
// the calls that queue while a batch is in flight leave together when it returns. Each call keeps its own idempotency key, deadline and outcome — the server
// runs every call of a batch as if it came alone (src/remote/wal-batch.ts) — so a retry of a
// batch after a cut connection replays each call's own first outcome.
import { MetaError } from '../../errors.js';
import type { RemoteChannel } from './channel.js';
import type { CommitWalRequest } from './gen/loam/remote/v1/CommitWalRequest.js';
import type { WalCommitResult__Output } from './gen/loam/remote/v1/WalCommitResult.js';
import type { CommitWalOutcome__Output } from './gen/loam/remote/v1/CommitWalOutcome.js';
import { metaErrorFromDetail } from './wire-errors.js';
import { WalStream } from './wal-stream.js';

/** Calls one batch carries at most; the server refuses a batch of more (LimitExceeded). */
export const MAX_WAL_BATCH_CALLS = 64;
/**
 * Bytes of calls one batch carries at most, by each call's encoded-size bound: far below
 * MAX_MESSAGE_BYTES, so a batch is never refused for its size. A call over it travels alone.
 */
export const MAX_WAL_BATCH_BYTES = 1024 * 1024;
/** Batches of one client in flight at once: the next leaves when the previous returns, with what queued meanwhile. */
export const MAX_WAL_BATCHES_IN_FLIGHT = 1;

/**
 * An upper bound of a call's encoded size in a batch: per chunk six varints (≤ 10 bytes each)
 * with their tags and the chunk's own tag and length; strings at 3 bytes per UTF-16 unit; the
 * stamps, timeout and framing in the constant.
 */
export function walCallBytesBound(req: CommitWalRequest): number {
  const chunks = req.commit?.chunks?.length ?? 0;
  return 64 + 3 * ((req.commit?.object?.length ?? 0) + (req.w?.requestId?.length ?? 0)) + 72 * chunks;
}

interface Pending {
  req: CommitWalRequest;
  bytes: number;
  deadline: number;
  sent: boolean;
  settled: boolean;
  resolve(r: WalCommitResult__Output): void;
  reject(e: unknown): void;
}

export class WalBatcher {
  private readonly queue: Pending[] = [];
  private inFlight = 0;
  private scheduled = false;
  /** The calls not yet settled, queued or in flight: the deadline timer's to expire. */
  private readonly live = new Set<Pending>();
  /**
   * One timer for all of them, at the earliest deadline (a timer per call cost a set and a
   * clear per commit); it is cleared when none is left, so an idle client keeps no timer.
   */
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  /** The commitWal stream the batches travel on (./wal-stream.ts); null: one CommitWalBatch RPC each. */
  private readonly stream: WalStream | null;

  constructor(
    private readonly ch: RemoteChannel,
    useStream = true,
  ) {
    this.stream = useStream ? new WalStream(ch) : null;
  }

  /** Cancels the stream (the client closes). */
  close(): void {
    this.stream?.close();
  }

  /** One commitWal call: its result, or its own MetaError, whichever batch it travels in. */
  commit(req: CommitWalRequest): Promise<WalCommitResult__Output> {
    return new Promise((resolve, reject) => {
      const ms = this.ch.timeoutMs;
      const p: Pending = { req, bytes: walCallBytesBound(req), deadline: Date.now() + ms, sent: false, settled: false, resolve, reject };
      // Its own deadline, whatever the batch's (the latest of its calls').
      this.live.add(p);
      this.arm(p.deadline);
      this.queue.push(p);
      this.schedule();
    });
  }

  /** Sends at the end of this turn of the event loop: the calls its callbacks make go together (writers woken by one batch's answers). */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_WAL_BATCHES_IN_FLIGHT) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private settle(p: Pending, f: () => void): void {
    if (p.settled) return;
    p.settled = true;
    this.live.delete(p);
    if (this.live.size === 0 && this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.timerAt = Infinity;
    }
    f();
  }

  /** The deadline timer fires by `at` (or earlier, for an earlier deadline already armed). */
  private arm(at: number): void {
    if (this.timer && this.timerAt <= at) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, at - Date.now()));
  }

  /** Expires every call whose deadline passed, then arms the timer for the earliest left. */
  private sweep(): void {
    this.timer = null;
    this.timerAt = Infinity;
    const now = Date.now();
    let next = Infinity;
    // Bounded: a copy of the live calls (expiring one removes it from the set).
    for (const p of [...this.live]) {
      if (p.deadline <= now) this.expire(p);
      else next = Math.min(next, p.deadline);
    }
    if (next < Infinity) this.arm(next);
  }

  private expire(p: Pending): void {
    if (p.sent) {
      this.settle(p, () => p.reject(new MetaError('Unknown', 'CommitWal over gRPC: its deadline passed while its batch was in flight; the write may have applied', { earlierUnknown: false })));
      return;
    }
    const i = this.queue.indexOf(p);
    if (i >= 0) this.queue.splice(i, 1);
    this.settle(p, () => p.reject(new MetaError('Retryable', 'CommitWal: its deadline passed while it waited for the batch before it; nothing was sent', { reason: 'deadline', beforeSend: true })));
  }

  private pump(): void {
    // Bounded: each round takes at least one queued call.
    while (this.inFlight < MAX_WAL_BATCHES_IN_FLIGHT && this.queue.length > 0) {
      const batch: Pending[] = [];
      let bytes = 0;
      while (this.queue.length > 0 && batch.length < MAX_WAL_BATCH_CALLS) {
        const next = this.queue[0]!;
        if (batch.length > 0 && bytes + next.bytes > MAX_WAL_BATCH_BYTES) break;
        this.queue.shift();
        next.sent = true;
        batch.push(next);
        bytes += next.bytes;
      }
      this.inFlight++;
      void this.send(batch).finally(() => {
        this.inFlight--;
        this.schedule();
      });
    }
  }

  private async send(batch: Pending[]): Promise<void> {
    // Alone and over the batch size (it could not share a batch), or with no stream: the unary rpc, with the call's own deadline.
    if (batch.length === 1 && (!this.stream || this.stream.unsupported || batch[0]!.bytes > MAX_WAL_BATCH_BYTES)) {
      const p = batch[0]!;
      await this.ch.callMeta('CommitWal', true, p.req, p.deadline).then(
        (r) => this.settle(p, () => p.resolve(r)),
        (e: unknown) => this.settle(p, () => p.reject(e)),
      );
      return;
    }
    const deadline = Math.max(...batch.map((p) => p.deadline));
    this.ch.metrics.batched.inc({ method: 'CommitWal' }, batch.length);
    // Made again for each transport attempt: each call carries what is left of its own deadline.
    const calls = () => {
      const now = Date.now();
      return batch.map((p) => ({ call: p.req, timeoutMs: Math.max(0, p.deadline - now) }));
    };
    try {
      let outcomes: CommitWalOutcome__Output[] | null = null;
      if (this.stream && !this.stream.unsupported) {
        try {
          const r = await this.stream.send(calls, deadline);
          // The whole batch refused (nothing of it applied): every call has that error.
          if (r.error) throw metaErrorFromDetail(r.error);
          outcomes = r.outcomes;
        } catch (e) {
          // A server that predates the stream ran nothing of it: the batch goes as an RPC (below), and so do the next ones.
          if (!this.stream.unsupported) throw e;
        }
      }
      outcomes ??= (await this.ch.callMetaEach('CommitWalBatch', true, () => ({ calls: calls() }), deadline)).outcomes;
      if (outcomes.length !== batch.length) {
        throw new MetaError('Unknown', `CommitWal batch: the server answered ${outcomes.length} outcomes for ${batch.length} calls; the writes may have applied`, { earlierUnknown: false });
      }
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        if (o.outcome === 'result' && o.result) this.settle(p, () => p.resolve(o.result!));
        else if (o.error) this.settle(p, () => p.reject(metaErrorFromDetail(o.error!)));
        else this.settle(p, () => p.reject(new MetaError('Unknown', 'CommitWal batch: the server answered an empty outcome; the write may have applied', { earlierUnknown: false })));
      });
    } catch (e) {
      // The whole batch failed (the transport, an authentication refusal, a refusal of the batch): every call has its error.
      for (const p of batch) this.settle(p, () => p.reject(e));
    }
  }
}

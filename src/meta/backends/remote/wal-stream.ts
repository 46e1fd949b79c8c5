// commitWal on one stream (docs/remote.md "commitWal on one stream"): the batches of
// ./wal-batch.ts travel as messages of one long-lived CommitWalStream per channel instead of
// one CommitWalBatch RPC each, so a batch pays no call setup, HTTP/2 stream, headers or
// trailers on either side. Only the transport differs: each call keeps its own idempotency key,
// deadline and outcome, and the server runs a batch exactly as CommitWalBatch does
// (src/remote/wal-batch.ts). The stream opens with the first batch and is kept; when it
// breaks, the batches it carried fail as a cut unary call does (and are tried again on a new
// stream within RemoteChannel's bounded transport attempts, with the same keys, so a batch
// that did apply replays its first outcomes).
import * as grpc from '@grpc/grpc-js';
import type { RemoteChannel } from './channel.js';
import type { BatchedCommitWal } from './gen/loam/remote/v1/BatchedCommitWal.js';
import type { CommitWalStreamRequest } from './gen/loam/remote/v1/CommitWalStreamRequest.js';
import type { CommitWalStreamResult__Output } from './gen/loam/remote/v1/CommitWalStreamResult.js';
import { walStreamMethod } from './wal-wire.js';

/**
 * A client ends its stream (half-close: what it carries is still answered) and opens a new one
 * once the stream is this old, so the server authenticates the caller again; half the server's
 * MAX_WAL_STREAM_MS, after which the server refuses new batches on it.
 */
export const WAL_STREAM_ROTATE_MS = 5 * 60_000;
/** The metrics name of a batch sent on the stream (client and server). */
export const WAL_STREAM_METHOD = 'CommitWalStream';

type Duplex = grpc.ClientDuplexStream<CommitWalStreamRequest, CommitWalStreamResult__Output>;

interface Waiting {
  resolve(r: CommitWalStreamResult__Output): void;
  reject(e: Partial<grpc.ServiceError>): void;
}

interface Open {
  call: Duplex;
  opened: number;
  /** Batches sent on it and not answered, by batch id. */
  pending: Map<number, Waiting>;
  done: boolean;
}

/** A transport failure as grpc-js reports one (the status a cut unary call ends with). */
const cut = (code: grpc.status, details: string): Partial<grpc.ServiceError> => Object.assign(new Error(details), { code, details, metadata: new grpc.Metadata() });

export class WalStream {
  private cur: Open | null = null;
  private nextId = 1;
  /**
   * The server answered the stream UNIMPLEMENTED (it predates CommitWalStream): it ran nothing
   * of it, so its batches can be sent as CommitWalBatch RPCs instead (./wal-batch.ts does).
   */
  unsupported = false;

  constructor(private readonly ch: RemoteChannel) {}

  /** One batch: its answer (outcomes, or the refusal of the whole batch); a transport failure is a MetaError as for a unary call. */
  send(calls: () => BatchedCommitWal[], deadline: number): Promise<CommitWalStreamResult__Output> {
    return this.ch.retrying(WAL_STREAM_METHOD, true, deadline, () => this.once(calls(), deadline)) as Promise<CommitWalStreamResult__Output>;
  }

  /** Cancels the stream (the client closes): the server refuses what it has not yet handed to its backend. */
  close(): void {
    const o = this.cur;
    this.cur = null;
    if (o) this.fail(o, cut(grpc.status.CANCELLED, 'the remote metastore client closed its commitWal stream'), true);
  }

  private once(calls: BatchedCommitWal[], deadline: number): Promise<CommitWalStreamResult__Output> {
    return new Promise((resolve, reject) => {
      const o = this.stream();
      const id = this.nextId++;
      // Its own deadline: the answer did not come in time (the batch may have applied).
      const timer = setTimeout(() => {
        if (o.pending.delete(id)) reject(cut(grpc.status.DEADLINE_EXCEEDED, 'the batch was not answered on the commitWal stream before its deadline'));
      }, Math.max(0, deadline - Date.now()));
      o.pending.set(id, {
        resolve: (r) => {
          clearTimeout(timer);
          resolve(r);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      o.call.write({ batchId: id, calls });
    });
  }

  /** The open stream, or a new one: opened lazily, kept, replaced once broken or old. */
  private stream(): Open {
    const o = this.cur;
    if (o && !o.done && Date.now() - o.opened < WAL_STREAM_ROTATE_MS) return o;
    // Old: half-closed, so the batches it carries are still answered; it ends when they are.
    if (o && !o.done) o.call.end();
    // The stream's messages are written and read by ./wal-wire.ts (the same bytes, fewer copies).
    const def = walStreamMethod();
    const call: Duplex = this.ch.meta.makeBidiStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, this.ch.metadata());
    const next: Open = { call, opened: Date.now(), pending: new Map(), done: false };
    call.on('data', (r: CommitWalStreamResult__Output) => {
      const w = next.pending.get(r.batchId);
      if (!w) return;
      next.pending.delete(r.batchId);
      w.resolve(r);
    });
    // A failed stream: every batch it carried fails with its status, as a cut unary call would.
    call.on('error', (e: grpc.ServiceError) => {
      if (e.code === grpc.status.UNIMPLEMENTED) this.unsupported = true;
      this.fail(next, e, false);
    });
    // Ended OK with batches unanswered (the server shut down): they fail as cut.
    call.on('status', (s: grpc.StatusObject) => {
      if (s.code === grpc.status.OK) this.fail(next, cut(grpc.status.UNAVAILABLE, 'the commitWal stream ended before it answered the batch; the batch may have applied'), false);
    });
    this.cur = next;
    return next;
  }

  private fail(o: Open, e: Partial<grpc.ServiceError>, cancel: boolean): void {
    if (this.cur === o) this.cur = null;
    const first = !o.done;
    o.done = true;
    const waiting = [...o.pending.values()];
    o.pending.clear();
    for (const w of waiting) w.reject(e);
    if (first && cancel) o.call.cancel();
  }
}

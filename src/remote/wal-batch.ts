// CommitWalBatch (docs/remote.md "Batched commitWal"): several concurrent commitWal calls of
// one client in one RPC (src/meta/backends/remote/wal-batch.ts). The RPC is authenticated and
// its cluster resolved once; then every call runs as a unary CommitWal would — its own
// idempotency key and record, its own deadline (checked on arrival and again right before the
// backend call), its own outcome — and all are handed to the backend at once, so a backend
// that groups concurrent commits groups them. One refused call fails alone: its ErrorDetail
// is its outcome and the RPC still ends OK.
import * as grpc from '@grpc/grpc-js';
import { errors, MetaError } from '../meta/errors.js';
import { metaErrorToDetail, metaErrorToStatus } from '../meta/backends/remote/wire-errors.js';
import { MAX_WAL_BATCH_CALLS } from '../meta/backends/remote/wal-batch.js';
import type { BatchedCommitWal__Output } from '../meta/backends/remote/gen/loam/remote/v1/BatchedCommitWal.js';
import type { CommitWalBatchRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalBatchRequest.js';
import type { CommitWalBatchResult } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalBatchResult.js';
import type { CommitWalOutcome } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalOutcome.js';
import type { CommitWalStreamRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalStreamRequest.js';
import type { CommitWalStreamResult } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalStreamResult.js';
import type { CommitWalRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalRequest.js';
import type { WalCommitResult } from '../meta/backends/remote/gen/loam/remote/v1/WalCommitResult.js';
import { answer, deadlineOf, errorCode, refusedLate, runWrite, statusOf, typedError, type CallContext } from './handlers.js';
import type { ServerCall, ServerCore } from './core.js';
import { isMalformed } from './malformed.js';

/** The method name of each call in a batch: its metrics, and its fingerprint (a call retried alone or in a batch is the same call). */
const CALL = 'CommitWal';
const METHOD = 'CommitWalBatch';

type CommitWal = (ctx: CallContext, req: CommitWalRequest__Output) => Promise<WalCommitResult>;

/**
 * One batch's work, whichever transport it came on (CommitWalBatch, CommitWalStream): the
 * batch's bounds, then every call as a unary CommitWal would run — its own idempotency key and
 * record, its own deadline (`arrived` + its timeout_ms, within `deadline`), its own outcome —
 * all handed to the backend at once, so a backend that groups concurrent commits groups them.
 * Throws only for a refusal of the whole batch (nothing of it applied).
 */
async function runBatch(core: ServerCore, call: ServerCall, ctx: CallContext, calls: BatchedCommitWal__Output[], deadline: number, arrived: number, commitWal: CommitWal): Promise<CommitWalOutcome[]> {
  if (calls.length === 0) throw errors.invalid('calls', 'a CommitWal batch carries at least one call');
  if (calls.length > MAX_WAL_BATCH_CALLS) {
    throw new MetaError('LimitExceeded', `a CommitWal batch carries at most MAX_WAL_BATCH_CALLS (${MAX_WAL_BATCH_CALLS}) calls; got ${calls.length}: send the rest in another batch`, {
      limit: 'MAX_WAL_BATCH_CALLS',
      max: MAX_WAL_BATCH_CALLS,
    });
  }
  core.metrics.batched.inc({ method: CALL }, calls.length);
  // All at once: the backend sees them as concurrent calls.
  return Promise.all(
    calls.map(async (b): Promise<CommitWalOutcome> => {
      try {
        if (!b.call) throw errors.invalid('calls.call', 'every call of a CommitWal batch needs its CommitWalRequest');
        const own = Math.min(deadline, arrived + b.timeoutMs);
        const gone = refusedLate(call, own);
        if (gone) throw gone;
        return { result: await runWrite(core, call, ctx, CALL, b.call.w?.requestId, b.call, own, commitWal) };
      } catch (e) {
        const err = typedError(e, true);
        core.metrics.errors.inc({ method: CALL, code: err.code });
        return { error: metaErrorToDetail(err) };
      }
    }),
  );
}

export function commitWalBatch(
  core: ServerCore,
  commitWal: CommitWal,
): grpc.handleUnaryCall<CommitWalBatchRequest__Output, CommitWalBatchResult> {
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const finish = (status: grpc.status, e?: unknown) => {
      core.metrics.calls.inc({ method: METHOD, status: grpc.status[status] ?? String(status) });
      if (status !== grpc.status.OK) core.metrics.errors.inc({ method: METHOD, code: errorCode(e, status) });
      core.metrics.latency.observe({ method: METHOD }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const deadline = deadlineOf(call);
    // Each call's own deadline counts from here: its timeout_ms is what was left when the batch was sent.
    const arrived = Date.now();
    const late = refusedLate(call, deadline);
    if (late) {
      const s = { ...metaErrorToStatus(late), code: call.cancelled ? grpc.status.CANCELLED : grpc.status.DEADLINE_EXCEEDED };
      finish(s.code, late);
      callback(s);
      return;
    }
    answer(
      (async () => {
        // Authenticated first: a caller of no cluster, or of another, learns nothing of the batch.
        const ctx = await core.resolve(call);
        if (isMalformed(call.request)) throw call.request.error();
        return { outcomes: await runBatch(core, call, ctx, call.request.calls, deadline, arrived, commitWal) };
      })(),
      true,
      finish,
      callback,
    );
  };
}

/** Batches of one CommitWalStream the server runs at once; past it the stream is not read until one is answered (HTTP/2 flow control holds the client). */
export const MAX_WAL_STREAM_BATCHES_IN_FLIGHT = 4;
/**
 * Age after which a CommitWalStream takes no new batch (each is refused with Retryable, nothing
 * applied): the caller's credentials are checked once per stream, so a stream must not outlive
 * a revoked key by more than this. Clients open a new one at half of it (WAL_STREAM_ROTATE_MS).
 */
export const MAX_WAL_STREAM_MS = 10 * 60_000;
const STREAM = 'CommitWalStream';

/**
 * CommitWalStream (docs/remote.md "commitWal on one stream"): the caller is authenticated and
 * its cluster resolved once, when the stream opens; then each message is a batch run by
 * runBatch — as a CommitWalBatch would run it — and answered by one message with its batch id.
 * A refusal of a whole batch is that answer's error; the stream goes on. When the client
 * half-closes, the stream ends once its batches are answered; when it cancels, the calls not
 * yet handed to the backend are refused (refusedLate sees the cancelled call).
 */
export function commitWalStream(core: ServerCore, commitWal: CommitWal): grpc.handleBidiStreamingCall<CommitWalStreamRequest__Output, CommitWalStreamResult> {
  return (call) => void serveStream(core, call, commitWal);
}

async function serveStream(core: ServerCore, call: grpc.ServerDuplexStream<CommitWalStreamRequest__Output, CommitWalStreamResult>, commitWal: CommitWal): Promise<void> {
  const opened = Date.now();
  const end = (status: grpc.status, e?: unknown) => {
    core.metrics.calls.inc({ method: STREAM, status: grpc.status[status] ?? String(status) });
    if (status !== grpc.status.OK) core.metrics.errors.inc({ method: STREAM, code: errorCode(e, status) });
  };
  let ctx: CallContext;
  let release: () => void;
  try {
    // Authenticated first: a caller of no cluster, or of another, gets its refusal and no message.
    ctx = await core.resolve(call);
    release = core.streams.take(ctx.cluster);
  } catch (e) {
    const s = statusOf(e, true);
    end(s.code ?? grpc.status.UNKNOWN, e);
    // emit('error'), not destroy(): grpc-js sends the status from the 'error' handler.
    call.emit('error', Object.assign(new Error(s.details ?? 'refused'), s));
    return;
  }
  core.metrics.walStreams.inc();
  let inFlight = 0;
  let halfClosed = false;
  let closed = false;
  let draining = false;
  /** The caller was refused on a check before a batch: no batch more is run; the stream ends with it once the batches it ran are answered. */
  let refused: { status: Partial<grpc.StatusObject>; error: unknown } | null = null;
  const close = (status: grpc.status, e?: unknown) => {
    if (closed) return;
    closed = true;
    release();
    core.metrics.walStreams.dec();
    end(status, e);
  };
  const maybeEnd = () => {
    if (inFlight > 0 || closed) return;
    if (refused) {
      const r = refused;
      close(r.status.code ?? grpc.status.UNAUTHENTICATED, r.error);
      call.emit('error', Object.assign(new Error(r.status.details ?? 'refused'), r.status));
      return;
    }
    if (!halfClosed) return;
    close(grpc.status.OK);
    call.end();
  };
  call.on('cancelled', () => close(grpc.status.CANCELLED));
  call.on('error', () => close(grpc.status.UNKNOWN));
  call.on('end', () => {
    halfClosed = true;
    maybeEnd();
  });
  call.on('data', (m: CommitWalStreamRequest__Output) => {
    // Refused: what comes after is not run (the client learns it from the stream's status).
    if (refused) return;
    // Undecodable: its batch id is unknown, so it cannot be answered alone; the stream ends
    // with the refusal once the batches before it are answered.
    if (isMalformed(m)) {
      const err = m.error();
      refused = { status: statusOf(err, true), error: err };
      call.pause();
      maybeEnd();
      return;
    }
    const started = process.hrtime.bigint();
    const arrived = Date.now();
    inFlight++;
    if (inFlight >= MAX_WAL_STREAM_BATCHES_IN_FLIGHT) call.pause();
    const run = async (): Promise<CommitWalStreamResult | null> => {
      if (arrived - opened > MAX_WAL_STREAM_MS) {
        throw errors.retryable('stream_expired', `the CommitWalStream is older than MAX_WAL_STREAM_MS (${MAX_WAL_STREAM_MS} ms); nothing of the batch was applied: send it on a new stream`, true);
      }
      // The caller again before each batch, as for a unary call (the authenticator caches what it reads).
      try {
        ctx = await core.resolve(call);
      } catch (e) {
        refused ??= { status: statusOf(e, true), error: e };
        call.pause();
        return null;
      }
      // Refused while this batch waited for the check: it is not run either.
      if (refused) return null;
      return { batchId: m.batchId, outcomes: await runBatch(core, call, ctx, m.calls, deadlineOf(call), arrived, commitWal) };
    };
    void run()
      .catch((e: unknown) => {
        const err = typedError(e, true);
        core.metrics.errors.inc({ method: STREAM, code: err.code });
        return { batchId: m.batchId, outcomes: [], error: metaErrorToDetail(err) };
      })
      .then((r) => {
        const took = Number(process.hrtime.bigint() - started) / 1e9;
        inFlight--;
        if (r === null) {
          // Not run (the caller was refused): no answer; the stream's status is its refusal.
          maybeEnd();
          return;
        }
        // A client that does not read its answers is not read either: the answers it has not taken stay bounded.
        if (!closed && !call.write(r) && !draining) {
          draining = true;
          call.pause();
          call.once('drain', () => {
            draining = false;
            if (inFlight < MAX_WAL_STREAM_BATCHES_IN_FLIGHT) call.resume();
          });
        }
        if (call.isPaused() && !draining && inFlight < MAX_WAL_STREAM_BATCHES_IN_FLIGHT) call.resume();
        // Counted once the answer is on its way (issue 16 benchmark: off the path to the client's next batch).
        core.metrics.streamMessages.inc({ method: STREAM });
        core.metrics.latency.observe({ method: STREAM }, took);
        maybeEnd();
      });
  });
}

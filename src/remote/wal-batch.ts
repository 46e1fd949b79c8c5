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
import type { CommitWalBatchRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalBatchRequest.js';
import type { CommitWalBatchResult } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalBatchResult.js';
import type { CommitWalOutcome } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalOutcome.js';
import type { CommitWalRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalRequest.js';
import type { WalCommitResult } from '../meta/backends/remote/gen/loam/remote/v1/WalCommitResult.js';
import { answer, deadlineOf, errorCode, refusedLate, runWrite, typedError, type CallContext } from './handlers.js';
import type { ServerCore } from './core.js';

/** The method name of each call in a batch: its metrics, and its fingerprint (a call retried alone or in a batch is the same call). */
const CALL = 'CommitWal';
const METHOD = 'CommitWalBatch';

export function commitWalBatch(
  core: ServerCore,
  commitWal: (ctx: CallContext, req: CommitWalRequest__Output) => Promise<WalCommitResult>,
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
      const calls = call.request.calls;
      if (calls.length === 0) throw errors.invalid('calls', 'a CommitWalBatch carries at least one call');
      if (calls.length > MAX_WAL_BATCH_CALLS) {
        throw new MetaError('LimitExceeded', `a CommitWalBatch carries at most MAX_WAL_BATCH_CALLS (${MAX_WAL_BATCH_CALLS}) calls; got ${calls.length}: send the rest in another batch`, {
          limit: 'MAX_WAL_BATCH_CALLS',
          max: MAX_WAL_BATCH_CALLS,
        });
      }
      core.metrics.batched.inc({ method: CALL }, calls.length);
      // All at once: the backend sees them as concurrent calls.
      const outcomes = await Promise.all(
        calls.map(async (b): Promise<CommitWalOutcome> => {
          try {
            if (!b.call) throw errors.invalid('calls.call', 'every call of a CommitWalBatch needs its CommitWalRequest');
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
      return { outcomes };
      })(),
      true,
      finish,
      callback,
    );
  };
}

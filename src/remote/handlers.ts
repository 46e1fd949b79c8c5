// What every RPC handler does around its own work, written once: authenticate and resolve the
// cluster (server.ts), refuse a call whose deadline already passed or whose caller is gone
// before anything is applied, run a write at most once per idempotency key (idempotency.ts),
// map a MetaError to its status (wire-errors.ts), and count it.
import * as grpc from '@grpc/grpc-js';
import { MetaError, errors, isMetaError } from '../meta/errors.js';
import { metaErrorToStatus } from '../meta/backends/remote/wire-errors.js';
import { MAX_TOKEN_STRING_LENGTH } from '../meta/limits.js';
import { isMalformed } from './malformed.js';
import { RemoteAuthError, type ClusterStores, type ServerCall, type ServerCore } from './core.js';

export interface CallContext {
  cluster: string;
  stores: ClusterStores;
}

/** A write's idempotency key from its request; missing or malformed keys are refused. */
export type KeyOf<Req> = (req: Req) => string | undefined;

export function deadlineOf(call: ServerCall): number {
  const d = call.getDeadline();
  return d instanceof Date ? d.getTime() : d;
}

/** An AbortSignal for the call: the caller cancelling, or its deadline passing. */
export function callSignal(call: grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>, deadline: number): { signal: AbortSignal; done(): void } {
  const ac = new AbortController();
  const onCancel = () => ac.abort(new Error('the caller cancelled the call'));
  call.on('cancelled', onCancel);
  const timer = Number.isFinite(deadline) ? setTimeout(() => ac.abort(new Error('the call deadline passed')), Math.max(0, deadline - Date.now())) : undefined;
  timer?.unref();
  return {
    signal: ac.signal,
    done: () => {
      clearTimeout(timer);
      call.removeListener('cancelled', onCancel);
    },
  };
}

/** The status a thrown error ends the call with. */
export function statusOf(e: unknown, write: boolean): grpc.StatusObject | Partial<grpc.StatusObject> {
  if (e instanceof RemoteAuthError) return { code: e.status, details: e.message };
  if (isMetaError(e)) return metaErrorToStatus(e);
  return { ...metaErrorToStatus(typedError(e, write)), code: grpc.status.INTERNAL };
}

/** The MetaError a thrown error is: itself, or for a defect — no typed refusal — a write's unknown outcome (it may have applied) or a read's Retryable. */
export function typedError(e: unknown, write: boolean): MetaError {
  if (isMetaError(e)) return e;
  const message = `internal error: ${(e as Error)?.message ?? String(e)}`;
  return write ? errors.unknown(message) : new MetaError('Retryable', message, { reason: 'internal' });
}

/** Ends a unary call with a handler's outcome: the value, or the status its error maps to (and the metrics' finish either way). */
export function answer<T>(outcome: Promise<T>, write: boolean, finish: (status: grpc.status, e?: unknown) => void, callback: (e: Partial<grpc.StatusObject> | null, value?: T) => void): void {
  outcome.then(
    (value) => {
      finish(grpc.status.OK);
      callback(null, value);
    },
    (e: unknown) => {
      const s = statusOf(e, write);
      finish(s.code ?? grpc.status.UNKNOWN, e);
      callback(s);
    },
  );
}

/** The code of the errors metric: the MetaError's code, or the status of a refusal that is none (an auth refusal, a defect). */
export function errorCode(e: unknown, status: grpc.status): string {
  return isMetaError(e) ? e.code : (grpc.status[status] ?? String(status));
}

/** Refused before anything ran: the deadline had passed on arrival, or the caller went away. */
export function refusedLate(call: ServerCall, deadline: number): MetaError | null {
  if (call.cancelled) return errors.retryable('cancelled', 'the caller cancelled the call before the server took it up; nothing was applied', true);
  if (deadline <= Date.now()) {
    return errors.retryable(
      'deadline',
      'the call reached the server with its deadline already passed; nothing was applied: give the call a deadline that leaves time for the round trip',
      true,
    );
  }
  return null;
}

/**
 * A write, at most once per idempotency key (idempotency.ts): the key is checked, a retry gets
 * the first outcome, and the backend is called only if the caller is still there and within
 * `deadline` at that moment (after any wait for an earlier call with the same key).
 */
export async function runWrite<Req, Res>(
  core: ServerCore,
  call: ServerCall,
  ctx: CallContext,
  method: string,
  key: string | undefined,
  req: Req,
  deadline: number,
  run: (ctx: CallContext, req: Req) => Promise<Res>,
): Promise<Res> {
  if (!key) throw errors.invalid('requestId', 'every write needs an idempotency key (WriteContext.request_id / request_id) on the wire');
  if (key.length > MAX_TOKEN_STRING_LENGTH) throw errors.invalid('requestId', `at most ${MAX_TOKEN_STRING_LENGTH} characters`);
  const out = await core.idempotency.run(ctx.cluster, key, method, req, () => {
    const gone = refusedLate(call, deadline);
    return gone ? Promise.reject(gone) : run(ctx, req);
  });
  if (out.replayed) core.metrics.replays.inc({ method });
  return out.value;
}

export function unary<Req, Res>(
  core: ServerCore,
  method: string,
  run: (ctx: CallContext, req: NoInfer<Req>) => Promise<NoInfer<Res>>,
  keyOf?: KeyOf<NoInfer<Req>>,
): grpc.handleUnaryCall<Req, Res> {
  const write = keyOf !== undefined;
  return (call, callback) => {
    const started = process.hrtime.bigint();
    const finish = (status: grpc.status, e?: unknown) => {
      core.metrics.calls.inc({ method, status: grpc.status[status] ?? String(status) });
      if (status !== grpc.status.OK) core.metrics.errors.inc({ method, code: errorCode(e, status) });
      core.metrics.latency.observe({ method }, Number(process.hrtime.bigint() - started) / 1e9);
    };
    const deadline = deadlineOf(call);
    const late = refusedLate(call, deadline);
    if (late) {
      const s = { ...metaErrorToStatus(late), code: call.cancelled ? grpc.status.CANCELLED : grpc.status.DEADLINE_EXCEEDED };
      finish(s.code, late);
      callback(s);
      return;
    }
    // A unary call needs no AbortSignal: no backend call takes one, and a caller that left or
    // ran out of time is refused before the backend is called (below), which is all a signal would do.
    answer(
      (async () => {
        const { cluster, stores } = await core.resolve(call);
        const ctx: CallContext = { cluster, stores };
        if (isMalformed(call.request)) throw call.request.error();
        if (!write) return run(ctx, call.request);
        return runWrite(core, call, ctx, method, keyOf(call.request), call.request, deadline, run);
      })(),
      write,
      finish,
      callback,
    );
  };
}

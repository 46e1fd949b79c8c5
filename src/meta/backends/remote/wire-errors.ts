// Typed errors across the wire (spec §8, DESIGN §2.4): a MetaError travels as a gRPC status
// whose code follows from its MetaErrorCode, with the error itself (code, message, every
// detail) as an ErrorDetail message in the trailing metadata. The client rebuilds the same
// MetaError; a status without an ErrorDetail is the transport's own (a cut connection, a
// deadline, a message over MAX_MESSAGE_BYTES) and becomes the MetaError it means for the call.
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { MetaError, type MetaErrorCode, type MetaErrorDetails } from '../../errors.js';
import { enumCodec } from './enums.js';
import type { ErrorCode__Output as WErrorCode } from './gen/loam/remote/v1/ErrorCode.js';
import type { ErrorDetail as WErrorDetail, ErrorDetail__Output as RErrorDetail } from './gen/loam/remote/v1/ErrorDetail.js';
import { ERROR_METADATA_KEY, LOADER_OPTIONS, MAX_MESSAGE_BYTES, PROTO_PATH } from './proto.js';

export const ERROR_CODE = enumCodec<MetaErrorCode, WErrorCode>('ERROR_CODE', [
  'NotFound',
  'AlreadyExists',
  'VersionMismatch',
  'FenceMismatch',
  'LeaseHeld',
  'Claimed',
  'StaleCommit',
  'NamespaceMoved',
  'LimitExceeded',
  'InvalidArgument',
  'Retryable',
  'Unknown',
]);

/** The gRPC status of each error code (docs/remote.md lists it). */
export const STATUS_OF: Record<MetaErrorCode, grpc.status> = {
  NotFound: grpc.status.NOT_FOUND,
  AlreadyExists: grpc.status.ALREADY_EXISTS,
  VersionMismatch: grpc.status.ABORTED,
  FenceMismatch: grpc.status.ABORTED,
  LeaseHeld: grpc.status.ABORTED,
  Claimed: grpc.status.FAILED_PRECONDITION,
  StaleCommit: grpc.status.FAILED_PRECONDITION,
  NamespaceMoved: grpc.status.FAILED_PRECONDITION,
  LimitExceeded: grpc.status.RESOURCE_EXHAUSTED,
  InvalidArgument: grpc.status.INVALID_ARGUMENT,
  Retryable: grpc.status.UNAVAILABLE,
  Unknown: grpc.status.UNKNOWN,
};

let detailType: protobuf.Type | undefined;
function errorDetailType(): protobuf.Type {
  detailType ??= protobuf.loadSync(PROTO_PATH).lookupType('loam.remote.v1.ErrorDetail');
  return detailType;
}

// ErrorCode keys in MetaErrorDetails order; null-able ones have a *Null flag on the wire.
function detailsToWire(d: MetaErrorDetails): NonNullable<WErrorDetail['details']> {
  const w: NonNullable<WErrorDetail['details']> = {};
  if (d.existingId !== undefined) w.existingId = d.existingId;
  if (d.currentVersion === null) w.currentVersionNull = true;
  else if (d.currentVersion !== undefined) w.currentVersion = d.currentVersion;
  if (d.currentEpoch !== undefined) w.currentEpoch = d.currentEpoch;
  if (d.holder === null) w.holderNull = true;
  else if (d.holder !== undefined) w.holder = d.holder;
  if (d.deadline !== undefined) w.deadline = d.deadline;
  if (d.field !== undefined) w.field = d.field;
  if (d.limit !== undefined) w.limit = d.limit;
  if (d.max !== undefined) w.max = d.max;
  if (d.path !== undefined) w.path = d.path;
  if (d.earlierUnknown !== undefined) w.earlierUnknown = d.earlierUnknown;
  if (d.beforeSend !== undefined) w.beforeSend = d.beforeSend;
  if (d.reason !== undefined) w.reason = d.reason;
  return w;
}

function detailsFromWire(w: RErrorDetail['details']): MetaErrorDetails {
  const d: MetaErrorDetails = {};
  if (!w) return d;
  if (w.existingId !== undefined) d.existingId = w.existingId;
  if (w.currentVersionNull) d.currentVersion = null;
  else if (w.currentVersion !== undefined) d.currentVersion = w.currentVersion;
  if (w.currentEpoch !== undefined) d.currentEpoch = w.currentEpoch;
  if (w.holderNull) d.holder = null;
  else if (w.holder !== undefined) d.holder = w.holder;
  if (w.deadline !== undefined) d.deadline = w.deadline;
  if (w.field !== undefined) d.field = w.field;
  if (w.limit !== undefined) d.limit = w.limit;
  if (w.max !== undefined) d.max = w.max;
  if (w.path !== undefined) d.path = w.path;
  if (w.earlierUnknown !== undefined) d.earlierUnknown = w.earlierUnknown;
  if (w.beforeSend !== undefined) d.beforeSend = w.beforeSend;
  if (w.reason !== undefined) d.reason = w.reason;
  return d;
}

/** A MetaError as an ErrorDetail message (a status's trailing metadata, or one outcome of a batch). */
export function metaErrorToDetail(e: MetaError): WErrorDetail {
  return { code: ERROR_CODE.toWire(e.code), message: e.message, details: detailsToWire(e.details) };
}

/** The MetaError an ErrorDetail carries; a code this version does not know is Unknown. */
export function metaErrorFromDetail(d: RErrorDetail): MetaError {
  let code: MetaErrorCode;
  try {
    code = ERROR_CODE.fromWire(d.code, 'code');
  } catch {
    code = 'Unknown';
  }
  return new MetaError(code, d.message, detailsFromWire(d.details));
}

/** The status a server ends a refused call with: the MetaError in its trailing metadata. */
export function metaErrorToStatus(e: MetaError): grpc.StatusObject {
  const t = errorDetailType();
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_METADATA_KEY, Buffer.from(t.encode(t.fromObject(metaErrorToDetail(e))).finish()));
  return { code: STATUS_OF[e.code], details: e.message, metadata };
}

/** The MetaError a status carries, if it carries one. */
export function metaErrorFromStatus(e: { metadata?: grpc.Metadata }): MetaError | null {
  const raw = e.metadata?.get(ERROR_METADATA_KEY)[0];
  if (!Buffer.isBuffer(raw)) return null;
  const t = errorDetailType();
  return metaErrorFromDetail(t.toObject(t.decode(raw), LOADER_OPTIONS) as RErrorDetail);
}

/**
 * The MetaError a failed call surfaces as. A transport failure of a write may have applied it
 * (the request was sent, the answer lost): Unknown, which the retry policy resolves through
 * the same idempotency key. A read, or a call the channel never sent, is Retryable.
 */
export function callError(e: grpc.ServiceError, write: boolean, method: string): MetaError {
  const typed = metaErrorFromStatus(e);
  if (typed) return typed;
  const what = `${method} over gRPC: ${grpc.status[e.code] ?? e.code}: ${e.details}`;
  switch (e.code) {
    case grpc.status.RESOURCE_EXHAUSTED:
      // grpc-js refuses a message over the limit before it is sent (or the server before it is decoded).
      return new MetaError('LimitExceeded', `${what} (MAX_MESSAGE_BYTES is ${MAX_MESSAGE_BYTES}: send smaller calls)`, { limit: 'MAX_MESSAGE_BYTES', max: MAX_MESSAGE_BYTES });
    case grpc.status.UNIMPLEMENTED:
      return new MetaError('InvalidArgument', `${what} (the server does not serve this call: is it an older version?)`, { field: 'method' });
    case grpc.status.UNAUTHENTICATED:
    case grpc.status.PERMISSION_DENIED:
      // This client's own credentials (its agent key, cluster or certificate), refused before
      // anything ran: the metastore is unavailable to it until an operator fixes them — not a
      // refusal of the caller's arguments (a node answered a tenant 404 "namespace not found").
      return new MetaError('Retryable', `${what} (the metastore refused this client's credentials: fix its agent key, LOAM_AGENT_KEY, or its cluster; nothing was applied)`, {
        reason: grpc.status[e.code]!.toLowerCase(),
        beforeSend: true,
      });
    case grpc.status.UNAVAILABLE:
    case grpc.status.DEADLINE_EXCEEDED:
    case grpc.status.CANCELLED:
    case grpc.status.INTERNAL:
    case grpc.status.UNKNOWN:
    default: {
      // "No connection established": the channel never reached the server, so nothing was sent.
      const neverSent = e.code === grpc.status.UNAVAILABLE && /No connection established|failed to connect/i.test(e.details);
      if (write && !neverSent) return new MetaError('Unknown', `${what}; the write may have applied`, { earlierUnknown: false });
      return new MetaError('Retryable', what, { reason: grpc.status[e.code]?.toLowerCase() ?? 'transport', beforeSend: neverSent });
    }
  }
}

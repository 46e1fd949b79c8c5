// What the server's parts share (server.ts, handlers.ts, the services): the cluster seam's
// types, the refusal of an unauthenticated call, and the handlers' common state.
import * as grpc from '@grpc/grpc-js';
import type { MetaStore } from '../meta/contract.js';
import type { ControlStore } from '../control/types.js';
import { CLUSTER_METADATA_KEY } from '../meta/backends/remote/proto.js';
import type { IdempotencyRecord } from './idempotency.js';
import type { RemoteServerMetrics } from './metrics.js';

/** The cluster a server without a control plane serves. */
export const DEFAULT_CLUSTER = 'default';

export interface ClusterStores {
  meta: MetaStore;
  /** Absent: the ControlStore calls of this cluster are NotFound ("serves no ControlStore"). */
  control?: ControlStore;
}

/**
 * A long-lived stream's caller is authenticated again once its last check is this old, before
 * the stream serves anything more (a WatchChanges event, a CommitWalStream batch): a revoked
 * agent key, or a cluster no longer registered, ends its open streams within this plus the
 * authenticator's own cache (AGENT_KEY_CACHE_MS), not at the stream's limit ten minutes on.
 */
export const STREAM_REAUTH_MS = 5_000;

/** Refuses a call before it reaches any store. */
export class RemoteAuthError extends Error {
  constructor(
    readonly status: grpc.status.UNAUTHENTICATED | grpc.status.PERMISSION_DENIED,
    message: string,
  ) {
    super(message);
  }
}

/** A call as authenticate sees it: its metadata, peer and TLS auth context (grpc-js's ServerSurfaceCall). */
export type ServerCall = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown> | grpc.ServerDuplexStream<unknown, unknown>;

export type Authenticate = (call: ServerCall) => string | Promise<string>;

/** What every handler shares. */
export interface ServerCore {
  resolve(call: ServerCall): Promise<{ cluster: string; stores: ClusterStores }>;
  readonly idempotency: IdempotencyRecord;
  readonly metrics: RemoteServerMetrics;
}

/** The cluster a call names in its `loam-cluster` metadata (a test harness's and a control plane's authenticate may start from it). */
export function clusterFromMetadata(call: ServerCall): string {
  const v = call.metadata.get(CLUSTER_METADATA_KEY)[0];
  if (typeof v !== 'string' || v === '') throw new RemoteAuthError(grpc.status.UNAUTHENTICATED, `the call names no cluster: set the ${CLUSTER_METADATA_KEY} metadata`);
  return v;
}


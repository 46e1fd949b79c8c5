// What the server's parts share (server.ts, handlers.ts, the services): the cluster seam's
// types, the refusal of an unauthenticated call, and the handlers' common state.
import * as grpc from '@grpc/grpc-js';
import { MetaError } from '../meta/errors.js';
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
 * A long-lived stream's caller is authenticated again before each thing it is served (each
 * CommitWalStream batch, each WatchChanges event), as a unary call is, and an idle watch at
 * least this often: a revoked agent key, or a cluster no longer registered, ends its open
 * streams when it would refuse its calls (within the authenticator's AGENT_KEY_CACHE_MS), not
 * at the stream's own limit ten minutes on.
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

/**
 * Long-lived streams (WatchChanges, CommitWalStream) one cluster may hold open on a server at
 * once; past it a new one is refused (LimitExceeded: RESOURCE_EXHAUSTED), so no data plane can
 * take a control plane's memory from the other clusters. A data plane holds a few: its cache's
 * watch, a commitWal stream per channel, one per watch() call in progress.
 */
export const MAX_STREAMS_PER_CLUSTER = 1_024;

/** The streams each cluster holds open, bounded per cluster (MAX_STREAMS_PER_CLUSTER). */
export class StreamSlots {
  private readonly open = new Map<string, number>();

  constructor(readonly max = MAX_STREAMS_PER_CLUSTER) {}

  /** Open streams of a cluster. */
  of(cluster: string): number {
    return this.open.get(cluster) ?? 0;
  }

  /** A slot for one stream of the cluster, or LimitExceeded; returns its release (once is enough, more do nothing). */
  take(cluster: string): () => void {
    const n = this.of(cluster);
    if (n >= this.max) {
      throw new MetaError('LimitExceeded', `cluster ${JSON.stringify(cluster)} has MAX_STREAMS_PER_CLUSTER (${this.max}) streams open on this server: close streams it no longer reads (watches, commitWal streams) before opening more`, {
        limit: 'MAX_STREAMS_PER_CLUSTER',
        max: this.max,
      });
    }
    this.open.set(cluster, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.of(cluster) - 1;
      if (left > 0) this.open.set(cluster, left);
      else this.open.delete(cluster);
    };
  }
}

/** What every handler shares. */
export interface ServerCore {
  resolve(call: ServerCall): Promise<{ cluster: string; stores: ClusterStores }>;
  readonly idempotency: IdempotencyRecord;
  readonly metrics: RemoteServerMetrics;
  readonly streams: StreamSlots;
}

/** The cluster a call names in its `loam-cluster` metadata (a test harness's and a control plane's authenticate may start from it). */
export function clusterFromMetadata(call: ServerCall): string {
  const v = call.metadata.get(CLUSTER_METADATA_KEY)[0];
  if (typeof v !== 'string' || v === '') throw new RemoteAuthError(grpc.status.UNAUTHENTICATED, `the call names no cluster: set the ${CLUSTER_METADATA_KEY} metadata`);
  return v;
}


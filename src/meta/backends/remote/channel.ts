// One gRPC channel to a remote metastore server, shared by the MetaStore client (./client.ts)
// and the ControlStore client (src/control/remote.ts): every call gets a deadline, the
// caller's credentials and cluster in its metadata, and — for a transport failure, never for
// a typed refusal — a bounded retry with the same idempotency key, so a response lost with
// its connection becomes the first outcome on retry (the server's idempotency record).
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import type { MethodDefinition } from '@grpc/proto-loader';
import { MetaError } from '../../errors.js';
import type { ControlStoreClient, ControlStoreDefinition } from './gen/loam/remote/v1/ControlStore.js';
import type { MetaStoreClient, MetaStoreDefinition } from './gen/loam/remote/v1/MetaStore.js';
import { CHANNEL_OPTIONS, CLUSTER_METADATA_KEY, remoteProto } from './proto.js';
import { callError } from './wire-errors.js';
import { RemoteClientMetrics } from './metrics.js';

/** A call's deadline unless the caller chose another: longer than any one backend transaction. */
export const REMOTE_CALL_TIMEOUT_MS = 10_000;
/** Attempts of one call over a failing transport (same idempotency key each time). */
export const REMOTE_TRANSPORT_ATTEMPTS = 3;
/** Backoff between those attempts: doubling from this. */
export const REMOTE_RETRY_BASE_MS = 25;

export interface RemoteTls {
  /** PEM: the CA that signed the server's certificate (default: the system's roots). */
  ca?: Buffer;
  /** PEM: a client certificate and key (mTLS, per cluster). */
  cert?: Buffer;
  key?: Buffer;
}

export interface RemoteOptions {
  /** host:port of the server. */
  target: string;
  /** TLS (grpcs://); absent: plaintext (remote://). */
  tls?: RemoteTls;
  /** The virtual cluster the calls are for (the `loam-cluster` metadata); absent: the server's only one. */
  cluster?: string;
  /** An agent key (`loam_agent_…`), sent as `authorization: Bearer …`. */
  agentKey?: string;
  /** Each call's deadline. Default REMOTE_CALL_TIMEOUT_MS. */
  callTimeoutMs?: number;
  /** Serve catalog reads from the per-namespace cache (./cache.ts). Default off. */
  cache?: boolean;
  /**
   * Send commitWal batches as messages of one long-lived CommitWalStream (./wal-stream.ts).
   * Default true; false: one CommitWalBatch RPC per batch (a server that predates the stream).
   */
  walStream?: boolean;
  /** Where the client's metrics go; default a registry of its own (RemoteChannel.metrics.registry). */
  metrics?: RemoteClientMetrics;
}

/** The service's methods by name (without the ServiceDefinition's index signature), each with its request and decoded response type. */
type Def<D> = { [K in keyof D as string extends K ? never : number extends K ? never : K]: D[K] extends MethodDefinition<infer Q, infer _S, infer _T, infer R> ? { req: Q; res: R } : never };
export type MetaMethods = Def<MetaStoreDefinition>;
export type ControlMethods = Def<ControlStoreDefinition>;

export class RemoteChannel {
  readonly meta: MetaStoreClient;
  readonly control: ControlStoreClient;
  readonly metrics: RemoteClientMetrics;
  readonly timeoutMs: number;
  private closed = false;
  private readonly common: grpc.Metadata;

  constructor(readonly opts: RemoteOptions) {
    const proto = remoteProto().loam.remote.v1;
    const creds = opts.tls ? grpc.credentials.createSsl(opts.tls.ca ?? null, opts.tls.key ?? null, opts.tls.cert ?? null) : grpc.credentials.createInsecure();
    this.meta = new proto.MetaStore(opts.target, creds, CHANNEL_OPTIONS);
    this.control = new proto.ControlStore(opts.target, creds, { ...CHANNEL_OPTIONS, channelOverride: this.meta.getChannel() });
    this.metrics = opts.metrics ?? new RemoteClientMetrics();
    this.timeoutMs = opts.callTimeoutMs ?? REMOTE_CALL_TIMEOUT_MS;
    this.common = new grpc.Metadata();
    if (opts.cluster) this.common.set(CLUSTER_METADATA_KEY, opts.cluster);
    if (opts.agentKey) this.common.set('authorization', `Bearer ${opts.agentKey}`);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /**
   * A call's metadata: the cluster and credentials, and `extra`. Without extras it is one object
   * made once per channel (grpc-js copies a call's metadata when the call starts, so sharing
   * it is safe, and a call does not rebuild its headers); callers must not change it.
   */
  metadata(extra: Record<string, string> = {}): grpc.Metadata {
    const keys = Object.keys(extra);
    if (keys.length === 0) return this.common;
    const md = this.common.clone();
    for (const k of keys) md.set(k, extra[k]!);
    return md;
  }


  /**
   * One MetaStore RPC with its deadline (default: timeoutMs from now) and transport retries; a
   * refusal is its MetaError.
   */
  callMeta<K extends keyof MetaMethods & string>(method: K, write: boolean, req: MetaMethods[K]['req'], deadline?: number): Promise<MetaMethods[K]['res']> {
    return this.invoke(this.meta, method, write, () => req, deadline) as Promise<MetaMethods[K]['res']>;
  }

  /** callMeta with the request made again for each attempt (a batch's calls carry the time left of their own deadlines). */
  callMetaEach<K extends keyof MetaMethods & string>(method: K, write: boolean, build: () => MetaMethods[K]['req'], deadline: number): Promise<MetaMethods[K]['res']> {
    return this.invoke(this.meta, method, write, build, deadline) as Promise<MetaMethods[K]['res']>;
  }

  callControl<K extends keyof ControlMethods & string>(method: K, write: boolean, req: ControlMethods[K]['req']): Promise<ControlMethods[K]['res']> {
    return this.invoke(this.control, method, write, () => req, undefined, 'control.') as Promise<ControlMethods[K]['res']>;
  }

  private invoke(client: grpc.Client, method: string, write: boolean, build: () => unknown, at?: number, prefix = ''): Promise<unknown> {
    const deadline = at ?? Date.now() + this.timeoutMs;
    return this.retrying(`${prefix}${method}`, write, deadline, () => this.once(client, method, build(), deadline));
  }

  /**
   * One call by `attempt` (a unary RPC, or a batch on the commitWal stream), counted under
   * `name`: a refusal is its MetaError; a transport failure (UNAVAILABLE with no typed error) is
   * tried again, at most REMOTE_TRANSPORT_ATTEMPTS times and within the deadline, with the same
   * idempotency keys.
   */
  async retrying(name: string, write: boolean, deadline: number, attempt: () => Promise<unknown>): Promise<unknown> {
    const started = process.hrtime.bigint();
    let outcome = 'ok';
    try {
      for (let n = 1; ; n++) {
        if (this.closed) throw new MetaError('Retryable', 'the remote metastore client is closed', { reason: 'closed', beforeSend: true });
        try {
          return await attempt();
        } catch (e) {
          const err = callError(e as grpc.ServiceError, write, name);
          const typed = (e as grpc.ServiceError).metadata?.get('loam-error-bin').length;
          const transport = !typed && (e as grpc.ServiceError).code === grpc.status.UNAVAILABLE;
          const backoff = REMOTE_RETRY_BASE_MS * 2 ** (n - 1);
          if (!transport || n >= REMOTE_TRANSPORT_ATTEMPTS || Date.now() + backoff >= deadline || this.closed) {
            outcome = err.code;
            throw err;
          }
          this.metrics.retries.inc({ method: name });
          await sleep(backoff);
        }
      }
    } finally {
      this.metrics.calls.inc({ method: name, outcome });
      this.metrics.latency.observe({ method: name }, Number(process.hrtime.bigint() - started) / 1e9);
    }
  }

  private once(client: grpc.Client, method: string, req: unknown, deadline: number): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const fn = (client as unknown as Record<string, (r: unknown, md: grpc.Metadata, o: grpc.CallOptions, cb: grpc.requestCallback<unknown>) => grpc.ClientUnaryCall>)[method]!;
      fn.call(client, req, this.metadata(), { deadline }, (err, res) => (err ? reject(err) : resolve(res)));
    });
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.control.close();
    this.meta.close();
  }
}

// Who is calling the control plane (spec §8): every call carries an agent key
// (`authorization: Bearer loam_agent_<key_id>_<secret>`) and the cluster it is for
// (`loam-cluster: <cluster_id>`, optional: the key's own cluster by default); with mTLS on, the connection's client certificate names the
// cluster too (subject CN). The call is served only for the cluster the verified key belongs
// to: a key is never a pass to another cluster, whatever the call names.
//
// - Unknown key id, wrong secret: the same path (a dummy hash stands in, compared in constant
//   time, ./keys.ts verifySecret), answered UNAUTHENTICATED "invalid agent key".
// - A revoked key: UNAUTHENTICATED, naming the key id (only a holder of its secret learns it).
// - A cluster no key can be for (not registered): UNAUTHENTICATED.
// - Another registered cluster than the key's: PERMISSION_DENIED; nothing of it is read.
// Messages name key ids and cluster ids, never a secret or a hash.
import { parseAgentKey, CLUSTER_ID_PATTERN, type AgentKeyRecord, type ClusterRegistry } from '../control/clusters.js';
import { verifySecret } from '../control/keys.js';
import { isMetaError } from '../meta/errors.js';
import { CLUSTER_METADATA_KEY } from '../meta/backends/remote/proto.js';

/** Agent key records are trusted this long: a key revoked by `loam clusters keys revoke` (another process) is refused within it. */
export const AGENT_KEY_CACHE_MS = 5_000;
/** Records (and unknown ids) remembered, at most; past it the cache starts over. */
export const AGENT_KEY_CACHE_ENTRIES = 10_000;
/** The request metadata a data plane names its cluster in (the remote client sends it). */
export const CLUSTER_HEADER = CLUSTER_METADATA_KEY;

/** gRPC status codes of refusals (grpc/status.h; the same numbers in every gRPC library). */
export const GRPC_UNAUTHENTICATED = 16;
export const GRPC_PERMISSION_DENIED = 7;

export type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'revoked' | 'unknown_cluster' | 'certificate' | 'other_cluster';

/** A refused call: a gRPC status (`code`, `details`, as grpc-js serves an error) and why, for the metrics. */
export class CallRefused extends Error {
  readonly details: string;
  constructor(
    readonly code: typeof GRPC_UNAUTHENTICATED | typeof GRPC_PERMISSION_DENIED,
    readonly reason: AuthFailure,
    message: string,
  ) {
    super(message);
    this.name = 'CallRefused';
    this.details = message;
  }
}

const unauthenticated = (reason: AuthFailure, m: string) => new CallRefused(GRPC_UNAUTHENTICATED, reason, m);

/** What a call presents, as plain data (the gRPC seam extracts it from metadata and the TLS session). */
export interface Presented {
  authorization: string | undefined;
  cluster: string | undefined;
  /** mTLS: the verified client certificate's subject CN; undefined without mTLS. */
  certificateCluster?: string | undefined;
}

export interface Caller {
  cluster: string;
  keyId: string;
}

export interface AgentAuthOptions {
  /** mTLS is on: every call's connection must carry a client certificate naming the key's cluster. */
  requireCertificate: boolean;
  now?: () => number;
}

export class AgentAuthenticator {
  private readonly keys = new Map<string, { at: number; rec: Promise<AgentKeyRecord | null> }>();
  private readonly clusters = new Map<string, { at: number; known: Promise<boolean> }>();
  private readonly now: () => number;

  constructor(
    private readonly registry: ClusterRegistry,
    private readonly opts: AgentAuthOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  /** Forgets a key (this process revoked it): the next call reads its record again. */
  forget(keyId: string): void {
    this.keys.delete(keyId);
  }

  private lookup(keyId: string): Promise<AgentKeyRecord | null> {
    const e = this.keys.get(keyId);
    if (e && this.now() - e.at < AGENT_KEY_CACHE_MS) return e.rec;
    if (this.keys.size >= AGENT_KEY_CACHE_ENTRIES) this.keys.clear();
    // Unknown ids are cached too, so an unknown id and a wrong secret cost the same.
    const rec = this.registry.agentKey(keyId).catch((err: unknown) => {
      if (isMetaError(err, 'NotFound')) return null;
      this.keys.delete(keyId);
      throw err;
    });
    this.keys.set(keyId, { at: this.now(), rec });
    return rec;
  }

  private registered(cluster: string): Promise<boolean> {
    const e = this.clusters.get(cluster);
    if (e && this.now() - e.at < AGENT_KEY_CACHE_MS) return e.known;
    if (this.clusters.size >= AGENT_KEY_CACHE_ENTRIES) this.clusters.clear();
    const known = this.registry.cluster(cluster).then(
      () => true,
      (err: unknown) => {
        if (isMetaError(err, 'NotFound')) return false;
        this.clusters.delete(cluster);
        throw err;
      },
    );
    this.clusters.set(cluster, { at: this.now(), known });
    return known;
  }

  /** The caller's cluster and key, or a CallRefused saying what to fix. */
  async authenticate(p: Presented): Promise<Caller> {
    if (!p.authorization) throw unauthenticated('missing', 'missing agent key: send metadata authorization: Bearer loam_agent_<key_id>_<secret> (`loam clusters keys create <cluster>` makes one)');
    const m = /^Bearer\s+(\S+)$/i.exec(p.authorization.trim());
    const parsed = m ? parseAgentKey(m[1]!) : null;
    if (!parsed) throw unauthenticated('malformed', 'malformed agent key: expected authorization: Bearer loam_agent_<key_id>_<secret>');
    const rec = await this.lookup(parsed.keyId);
    // Constant time whether or not the key id exists (a dummy hash stands in).
    if (!verifySecret(parsed.secret, rec?.secretHash ?? null) || !rec) throw unauthenticated('invalid', 'invalid agent key');
    if (rec.revoked !== null) throw unauthenticated('revoked', `agent key ${rec.keyId} was revoked: give the data plane a new one (loam clusters keys create ${rec.cluster})`);
    if (this.opts.requireCertificate && p.certificateCluster !== rec.cluster) {
      throw unauthenticated(
        'certificate',
        p.certificateCluster === undefined
          ? 'this control plane requires a client certificate (mTLS) whose subject CN is the cluster_id'
          : `the client certificate is for cluster "${p.certificateCluster}" but the agent key is for cluster "${rec.cluster}": use the certificate and key of one cluster`,
      );
    }
    // Without the header the key's own cluster is meant: the key decides either way.
    const named = p.cluster;
    if (named !== undefined && named !== rec.cluster) {
      if (!CLUSTER_ID_PATTERN.test(named) || !(await this.registered(named))) {
        throw unauthenticated('unknown_cluster', `unknown cluster "${named.slice(0, 64)}": set the data plane's cluster_id to its cluster's id ("${rec.cluster}" for this agent key)`);
      }
      throw new CallRefused(GRPC_PERMISSION_DENIED, 'other_cluster', `this agent key is for cluster "${rec.cluster}"; it cannot call for cluster "${named}"`);
    }
    return { cluster: rec.cluster, keyId: rec.keyId };
  }
}

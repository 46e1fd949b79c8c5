// The hosted control plane's cluster registry (spec §8): the BYOC data-plane clusters it
// serves, each a virtual cluster keyed by its cluster_id, and their agent keys.
//
// Agent keys are `loam_agent_<key_id>_<secret>`, made and checked like API keys (spec §6,
// ./keys.ts): the secret is shown once, only sha256(secret) is stored, and verification
// compares hashes in constant time whether or not the key id exists.
//
// The registry lives in the control plane's own database (config `registry`), never in a
// cluster's: a data plane's calls reach only its cluster's stores (src/controlplane),
// and no RPC reaches this registry.
import { randomBytes } from 'node:crypto';
import { MetaError, errors } from '../meta/errors.js';
import { hashSecret, KEY_ID_BYTES, SECRET_BYTES } from './keys.js';
import type { Page, PageRequest } from './types.js';

/**
 * cluster_id: 3-40 characters of a-z 0-9 -, starting with a letter. Lower case only, so one
 * id names one file, one Postgres database and one DynamoDB table on every filesystem and
 * service (a case-insensitive filesystem cannot fold two ids into one file).
 */
export const CLUSTER_ID_PATTERN = /^[a-z][a-z0-9-]{2,39}$/;
export const CLUSTER_ID_RULE = '3-40 characters of a-z 0-9 -, starting with a letter';
export const AGENT_KEY_PATTERN = /^loam_agent_([0-9a-f]{16})_([0-9a-f]{64})$/;
/** Agent keys of one cluster, at most (every list a bound): enough for a rotation per node. */
export const MAX_AGENT_KEYS_PER_CLUSTER = 100;

export interface Cluster {
  id: string;
  created: number;
  createdBy: string;
}

/** An agent key as stored: never the secret, only sha256(secret) (hex). */
export interface AgentKeyRecord {
  keyId: string;
  cluster: string;
  secretHash: string;
  created: number;
  createdBy: string;
  /** Epoch ms of revocation; a revoked key is refused at once by the control plane that revoked it, within AGENT_KEY_CACHE_MS by others. */
  revoked: number | null;
}

/** An agent key as listed: everything but the hash. */
export type AgentKeyInfo = Omit<AgentKeyRecord, 'secretHash'>;

export interface ClusterRegistry {
  /** Creates the tables it needs (idempotent). */
  init(): Promise<void>;
  /** Releases what this handle opened itself (a shared connection is left open). */
  close(): Promise<void>;

  /** Registers a cluster (AlreadyExists if the id is taken). */
  createCluster(id: string, createdBy: string, at?: number): Promise<Cluster>;
  /** NotFound if unknown. */
  cluster(id: string): Promise<Cluster>;
  listClusters(page?: PageRequest): Promise<Page<Cluster>>;

  /** Stores an agent key record (NotFound if the cluster is unknown, LimitExceeded past MAX_AGENT_KEYS_PER_CLUSTER). */
  createAgentKey(rec: Omit<AgentKeyRecord, 'revoked'>): Promise<AgentKeyInfo>;
  /** The record including the hash, for verification; NotFound if unknown. */
  agentKey(keyId: string): Promise<AgentKeyRecord>;
  /** A cluster's keys, revoked ones included, never their hashes (at most MAX_AGENT_KEYS_PER_CLUSTER). */
  listAgentKeys(cluster: string): Promise<AgentKeyInfo[]>;
  /** Marks the key revoked (idempotent: the first time stands); NotFound if it is not the cluster's. */
  revokeAgentKey(cluster: string, keyId: string, at?: number): Promise<void>;
}

export interface NewAgentKey {
  keyId: string;
  /** The whole key as the data plane sends it; shown once. */
  token: string;
  secretHash: string;
}

export function newAgentKey(): NewAgentKey {
  const keyId = randomBytes(KEY_ID_BYTES).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('hex');
  return { keyId, token: `loam_agent_${keyId}_${secret}`, secretHash: hashSecret(secret) };
}

/** The key id and secret of a well-formed agent key, or null. */
export function parseAgentKey(token: string): { keyId: string; secret: string } | null {
  const m = AGENT_KEY_PATTERN.exec(token);
  return m ? { keyId: m[1]!, secret: m[2]! } : null;
}

export function checkClusterId(id: unknown, field = 'cluster_id'): asserts id is string {
  if (typeof id !== 'string' || !CLUSTER_ID_PATTERN.test(id)) throw errors.invalid(field, `must be ${CLUSTER_ID_RULE}; got ${JSON.stringify(id)}`);
}

export function agentKeyInfo(k: AgentKeyRecord): AgentKeyInfo {
  const { secretHash: _h, ...info } = k;
  return info;
}

export function checkAgentKeyRecord(rec: Omit<AgentKeyRecord, 'revoked'>): void {
  checkClusterId(rec.cluster);
  if (!/^[0-9a-f]{16}$/.test(rec.keyId)) throw errors.invalid('keyId', 'must be 16 hex digits');
  if (!/^[0-9a-f]{64}$/.test(rec.secretHash)) throw errors.invalid('secretHash', 'must be a hex sha256');
  checkCreatedBy(rec.createdBy);
  if (!Number.isSafeInteger(rec.created)) throw errors.invalid('created', 'must be epoch ms');
}

export function checkCreatedBy(by: unknown): void {
  if (typeof by !== 'string' || by.length === 0 || by.length > 128) throw errors.invalid('createdBy', 'must be 1-128 characters');
}

/** A second create of a cluster id (clusters have no numeric id to report). */
export function clusterExists(id: string): MetaError {
  return new MetaError('AlreadyExists', `cluster "${id}" already exists (\`loam clusters list\` shows the registered ones)`);
}

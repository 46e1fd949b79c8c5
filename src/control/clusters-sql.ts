// The cluster registry (./clusters.ts) on SQL: embedded SQLite and PostgreSQL, in the
// control plane's registry database, beside (not inside) any cluster's tables.
import { pageLimit } from './rules.js';
import { MetaError, errors } from '../meta/errors.js';
import {
  agentKeyInfo,
  checkAgentKeyRecord,
  checkClusterId,
  checkCreatedBy,
  clusterExists,
  MAX_AGENT_KEYS_PER_CLUSTER,
  type AgentKeyInfo,
  type AgentKeyRecord,
  type Cluster,
  type ClusterRegistry,
} from './clusters.js';
import type { Row, SqlDriver } from './sql.js';
import type { Page, PageRequest } from './types.js';

export const REGISTRY_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS cp_clusters (id TEXT PRIMARY KEY, created BIGINT NOT NULL, created_by TEXT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS cp_agent_keys (key_id TEXT PRIMARY KEY, cluster TEXT NOT NULL, secret_hash TEXT NOT NULL,
     created BIGINT NOT NULL, created_by TEXT NOT NULL, revoked BIGINT)`,
  `CREATE INDEX IF NOT EXISTS cp_agent_keys_cluster ON cp_agent_keys (cluster, key_id)`,
];

const n = (v: unknown): number => Number(v);

function clusterRow(r: Row): Cluster {
  return { id: String(r.id), created: n(r.created), createdBy: String(r.created_by) };
}

function agentKeyRow(r: Row): AgentKeyRecord {
  return {
    keyId: String(r.key_id),
    cluster: String(r.cluster),
    secretHash: String(r.secret_hash),
    created: n(r.created),
    createdBy: String(r.created_by),
    revoked: r.revoked === null || r.revoked === undefined ? null : n(r.revoked),
  };
}

export class SqlClusterRegistry implements ClusterRegistry {
  constructor(private readonly d: SqlDriver) {}

  async init(): Promise<void> {
    await this.d.tx(async (q) => {
      // Two control-plane processes starting at once must not race CREATE TABLE IF NOT EXISTS (Postgres).
      if (this.d.dialect === 'postgres') await q(`SELECT pg_advisory_xact_lock(hashtext('loam:cluster-registry-migrate'))`);
      for (const s of REGISTRY_DDL) await q(s);
    });
  }

  async close(): Promise<void> {
    await this.d.close();
  }

  async createCluster(id: string, createdBy: string, at = Date.now()): Promise<Cluster> {
    checkClusterId(id);
    checkCreatedBy(createdBy);
    try {
      await this.d.tx(async (q) => {
        await q(`INSERT INTO cp_clusters (id, created, created_by) VALUES ($1, $2, $3)`, [id, at, createdBy]);
      });
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw clusterExists(id);
      throw e;
    }
    return { id, created: at, createdBy };
  }

  async cluster(id: string): Promise<Cluster> {
    checkClusterId(id);
    const [r] = await this.d.query(`SELECT * FROM cp_clusters WHERE id = $1`, [id]);
    if (!r) throw errors.notFound(`cluster "${id}"`);
    return clusterRow(r);
  }

  async listClusters(p?: PageRequest): Promise<Page<Cluster>> {
    const limit = pageLimit(p);
    const rows = await this.d.query(`SELECT * FROM cp_clusters WHERE id > $1 ORDER BY id LIMIT $2`, [p?.after ?? '', limit + 1]);
    const items = rows.slice(0, limit).map(clusterRow);
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  async createAgentKey(rec: Omit<AgentKeyRecord, 'revoked'>): Promise<AgentKeyInfo> {
    checkAgentKeyRecord(rec);
    try {
      await this.d.tx(async (q) => {
        const [c] = await q(`SELECT id FROM cp_clusters WHERE id = $1`, [rec.cluster]);
        if (!c) throw errors.notFound(`cluster "${rec.cluster}"`);
        const [k] = await q(`SELECT COUNT(*) AS n FROM cp_agent_keys WHERE cluster = $1`, [rec.cluster]);
        if (n(k!.n) >= MAX_AGENT_KEYS_PER_CLUSTER) throw errors.limitExceeded('MAX_AGENT_KEYS_PER_CLUSTER', MAX_AGENT_KEYS_PER_CLUSTER, n(k!.n) + 1);
        await q(`INSERT INTO cp_agent_keys (key_id, cluster, secret_hash, created, created_by, revoked) VALUES ($1, $2, $3, $4, $5, NULL)`, [
          rec.keyId,
          rec.cluster,
          rec.secretHash,
          rec.created,
          rec.createdBy,
        ]);
      });
    } catch (e) {
      if (this.d.isUniqueViolation(e)) throw new MetaError('AlreadyExists', `agent key ${rec.keyId} already exists`);
      throw e;
    }
    return agentKeyInfo({ ...rec, revoked: null });
  }

  async agentKey(keyId: string): Promise<AgentKeyRecord> {
    const [r] = await this.d.query(`SELECT * FROM cp_agent_keys WHERE key_id = $1`, [keyId]);
    if (!r) throw errors.notFound(`agent key ${keyId}`);
    return agentKeyRow(r);
  }

  async listAgentKeys(cluster: string): Promise<AgentKeyInfo[]> {
    checkClusterId(cluster);
    const rows = await this.d.query(`SELECT * FROM cp_agent_keys WHERE cluster = $1 ORDER BY key_id LIMIT $2`, [cluster, MAX_AGENT_KEYS_PER_CLUSTER]);
    return rows.map((r) => agentKeyInfo(agentKeyRow(r)));
  }

  async revokeAgentKey(cluster: string, keyId: string, at = Date.now()): Promise<void> {
    checkClusterId(cluster);
    await this.d.tx(async (q) => {
      const [r] = await q(`SELECT revoked FROM cp_agent_keys WHERE key_id = $1 AND cluster = $2`, [keyId, cluster]);
      if (!r) throw errors.notFound(`agent key ${keyId} of cluster "${cluster}"`);
      if (r.revoked !== null && r.revoked !== undefined) return;
      await q(`UPDATE cp_agent_keys SET revoked = $1 WHERE key_id = $2`, [at, keyId]);
    });
  }
}

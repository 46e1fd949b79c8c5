// The cluster registry (./clusters.ts) on DynamoDB: its own item kinds in the control plane's
// registry table, never in a cluster's table.
//
//   pk cp#cluster   sk <cluster_id>   created, createdBy
//   pk cp#akey      sk <key_id>       cluster, hash, created, createdBy, revoked
//
// Every write is one conditional single-item write, so both profiles (dynamodb, alternator)
// behave alike. Keys live in one partition: a lookup is one GetItem by id; listing a
// cluster's keys filters that partition (keys are few; lookups are cached by the server).
import { pageLimit } from './rules.js';
import {
  ConditionalCheckFailedException,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { MetaError, errors, isMetaError } from '../meta/errors.js';
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
import type { Page, PageRequest } from './types.js';
import { dec, enc, type Obj } from './dynamodb/codec.js';

/** Query pages followed per call, at most (every loop over input a bound). */
export const MAX_REGISTRY_QUERY_PAGES = 100;

function mapError(e: unknown): unknown {
  if (isMetaError(e) || e instanceof ConditionalCheckFailedException) return e;
  const name = (e as { name?: string }).name ?? '';
  if (/Throttl|ProvisionedThroughput|RequestLimit|InternalServer|ServiceUnavailable|TimeoutError|ECONN/.test(name + String((e as Error).message)))
    return errors.retryable('throttle', `dynamodb: ${name}`);
  return e;
}

const keyOf = (it: Obj): AgentKeyRecord => ({
  keyId: String(it.sk),
  cluster: String(it.cluster),
  secretHash: String(it.hash),
  created: Number(it.created),
  createdBy: String(it.createdBy),
  revoked: it.revoked === null || it.revoked === undefined ? null : Number(it.revoked),
});

export class DynamoClusterRegistry implements ClusterRegistry {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
  ) {}

  async init(): Promise<void> {}
  async close(): Promise<void> {}

  private async send<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw mapError(e);
    }
  }

  private async get(pk: string, sk: string): Promise<Obj | undefined> {
    const r = await this.send(() => this.client.send(new GetItemCommand({ TableName: this.table, Key: enc({ pk, sk }), ConsistentRead: true })));
    return r.Item ? dec(r.Item) : undefined;
  }

  /** Items of one partition with sk > after, until `max` pass `keep`. */
  private async query(pk: string, o: { after: string; max: number; keep?: (it: Obj) => boolean }): Promise<Obj[]> {
    const out: Obj[] = [];
    let start: Record<string, AttributeValue> | undefined;
    const cond = o.after ? 'pk = :pk AND sk > :after' : 'pk = :pk';
    const vals: Obj = o.after ? { ':pk': pk, ':after': o.after } : { ':pk': pk };
    for (let page = 0; page < MAX_REGISTRY_QUERY_PAGES; page++) {
      const r = await this.send(() =>
        this.client.send(
          new QueryCommand({ TableName: this.table, KeyConditionExpression: cond, ExpressionAttributeValues: enc(vals), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
        ),
      );
      for (const w of r.Items ?? []) {
        const it = dec(w);
        if (!o.keep || o.keep(it)) out.push(it);
        if (out.length >= o.max) return out;
      }
      start = r.LastEvaluatedKey;
      if (!start) return out;
    }
    return out;
  }

  async createCluster(id: string, createdBy: string, at = Date.now()): Promise<Cluster> {
    checkClusterId(id);
    checkCreatedBy(createdBy);
    try {
      await this.send(() =>
        this.client.send(
          new PutItemCommand({ TableName: this.table, Item: enc({ pk: 'cp#cluster', sk: id, created: at, createdBy }), ConditionExpression: 'attribute_not_exists(pk)' }),
        ),
      );
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw clusterExists(id);
      throw e;
    }
    return { id, created: at, createdBy };
  }

  async cluster(id: string): Promise<Cluster> {
    checkClusterId(id);
    const it = await this.get('cp#cluster', id);
    if (!it) throw errors.notFound(`cluster "${id}"`);
    return { id, created: Number(it.created), createdBy: String(it.createdBy) };
  }

  async listClusters(p?: PageRequest): Promise<Page<Cluster>> {
    const limit = pageLimit(p);
    const rows = await this.query('cp#cluster', { after: p?.after ?? '', max: limit + 1 });
    const items = rows.slice(0, limit).map((r) => ({ id: String(r.sk), created: Number(r.created), createdBy: String(r.createdBy) }));
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  async createAgentKey(rec: Omit<AgentKeyRecord, 'revoked'>): Promise<AgentKeyInfo> {
    checkAgentKeyRecord(rec);
    await this.cluster(rec.cluster);
    // Single-item writes: two creates racing past the count may both land (the bound is a
    // guard against runaway scripts, not an invariant any read depends on).
    const existing = await this.listAgentKeys(rec.cluster);
    if (existing.length >= MAX_AGENT_KEYS_PER_CLUSTER) throw errors.limitExceeded('MAX_AGENT_KEYS_PER_CLUSTER', MAX_AGENT_KEYS_PER_CLUSTER, existing.length + 1);
    try {
      await this.send(() =>
        this.client.send(
          new PutItemCommand({
            TableName: this.table,
            Item: enc({ pk: 'cp#akey', sk: rec.keyId, cluster: rec.cluster, hash: rec.secretHash, created: rec.created, createdBy: rec.createdBy, revoked: null }),
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
        ),
      );
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw new MetaError('AlreadyExists', `agent key ${rec.keyId} already exists`);
      throw e;
    }
    return agentKeyInfo({ ...rec, revoked: null });
  }

  async agentKey(keyId: string): Promise<AgentKeyRecord> {
    const it = await this.get('cp#akey', keyId);
    if (!it) throw errors.notFound(`agent key ${keyId}`);
    return keyOf(it);
  }

  async listAgentKeys(cluster: string): Promise<AgentKeyInfo[]> {
    checkClusterId(cluster);
    const rows = await this.query('cp#akey', { after: '', max: MAX_AGENT_KEYS_PER_CLUSTER, keep: (it) => it.cluster === cluster });
    return rows.map((r) => agentKeyInfo(keyOf(r)));
  }

  async revokeAgentKey(cluster: string, keyId: string, at = Date.now()): Promise<void> {
    checkClusterId(cluster);
    try {
      await this.send(() =>
        this.client.send(
          new UpdateItemCommand({
            TableName: this.table,
            Key: enc({ pk: 'cp#akey', sk: keyId }),
            UpdateExpression: 'SET revoked = :at',
            ConditionExpression: 'attribute_exists(pk) AND #c = :c AND (attribute_not_exists(revoked) OR attribute_type(revoked, :nullType))',
            ExpressionAttributeNames: { '#c': 'cluster' },
            ExpressionAttributeValues: enc({ ':at': at, ':c': cluster, ':nullType': 'NULL' }),
          }),
        ),
      );
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      // Either not this cluster's key (NotFound) or already revoked (idempotent).
      const it = await this.get('cp#akey', keyId);
      if (!it || it.cluster !== cluster) throw errors.notFound(`agent key ${keyId} of cluster "${cluster}"`);
    }
  }
}

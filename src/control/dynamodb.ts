// The ControlStore on the DynamoDB backend: its own item kinds (pk prefix `ctl#`) in the
// metastore's table, on the metastore's client.
//
//   pk ctl#org          sk <org>                         created
//   pk ctl#key          sk <key_id>                      org, hash, scopes (JSON), expiry, createdBy, created, lastUsed, revoked
//   pk ctl#bind#<org>   sk <subject>#<target>#<role>     subject, target, role, created
//   pk ctl#quota#<org>  sk <ns|->#<name>                  ns, name, value
//   pk ctl#usage#<org>  sk <ns|->#<metric>#<window>       ns, metric, win, value, updated
//   pk ctl#member       sk <node>                        expires (gateway membership; no feed entry)
//   pk ctl#ctr          sk ver                           v (the change feed's counter, ADD 1)
//   pk ctl#chg          sk <version, 16 digits>          kind, org, id, at
//   pk ctl#ctr          sk outbox                        v (the outbox's counter, ADD 1)
//   pk ctl#outbox       sk <seq, 16 digits>              org, subject, relation, target, at (opened with outbox: true)
//   pk ctl#job          sk <job>                         position, at (where a background job stopped)
//   pk ctl#nskey#<ns>   sk <version, 16 digits>          provider, keyRef, wrapped, state, created, destroyed (spec §9.8)
//
// A change takes its version from the counter (one atomic ADD), then the dynamodb profile
// writes the entity and its feed entry in one TransactWriteItems; the alternator profile
// (single-item, spec §4.1) writes them one after the other. Either way two writers may
// publish versions out of order for a moment, so the feed declares feedOrder 'gaps' and
// watchers wait a gap out (CHANGE_GAP_WAIT_MS) before they skip it.
// Keys live in one partition (ctl#key): a key lookup is one GetItem by id; listing an org's
// keys filters that partition (keys are few, and lookups are cached by the gateways).
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { errors, isMetaError } from '../meta/errors.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../meta/limits.js';
import { keyInfo, parseTarget, targetKey } from './sql.js';
import {
  MAX_CHANGES_PAGE,
  MAX_ERASURE_PAGE,
  MAX_MEMBERS,
  MAX_NAMESPACE_KEY_VERSIONS,
  MAX_OUTBOX_PAGE,
  MAX_TOUCH_BATCH,
  MAX_USAGE_ROWS,
  type ApiKeyInfo,
  type ApiKeyRecord,
  type ControlCapabilities,
  type ControlChange,
  type ControlChangeKind,
  type ControlOptions,
  type ControlStore,
  type ErasureKeyRecord,
  type ErasureRow,
  type Member,
  type NamespaceKeyRecord,
  type Org,
  type OutboxEntry,
  type Page,
  type PageRequest,
  type QuotaName,
  type QuotaOverride,
  type RoleBinding,
  type RoleName,
  type UsageDelta,
  type UsageRollup,
} from './types.js';
import { checkBinding, checkErasureData, checkErasureKey, checkErasureRow, checkHeartbeat, checkJob, checkJobPosition, checkKey, checkNamespaceKey, checkNode, checkOrg, checkQuota, checkUsageDelta } from './validate.js';

/** Query pages followed per call, at most (every loop over input has a bound). */
export const MAX_CONTROL_QUERY_PAGES = 100;
/** Expired members one heartbeat deletes, at most. */
export const MAX_EXPIRED_PER_BEAT = 10;
/** Parallel last_used updates. */
const TOUCH_PARALLEL = 10;

type V = string | number | null;
type Obj = Record<string, V>;
const P16 = (x: number) => String(x).padStart(16, '0');

function enc(o: Obj): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [k, v] of Object.entries(o)) out[k] = v === null ? { NULL: true } : typeof v === 'number' ? { N: String(v) } : { S: v };
  return out;
}
function dec(w: Record<string, AttributeValue> | undefined): Obj | undefined {
  if (!w) return undefined;
  const out: Obj = {};
  for (const [k, a] of Object.entries(w)) out[k] = a.S !== undefined ? a.S : a.N !== undefined ? Number(a.N) : null;
  return out;
}
const num = (v: V | undefined): number | null => (v === null || v === undefined ? null : Number(v));

function mapError(e: unknown): unknown {
  if (isMetaError(e)) return e;
  const name = (e as { name?: string }).name ?? '';
  if (/Throttl|ProvisionedThroughput|RequestLimit|InternalServer|ServiceUnavailable|TransactionConflict|TimeoutError|ECONN/.test(name + String((e as Error).message)))
    return errors.retryable('throttle', `dynamodb: ${name}`);
  return e;
}

export class DynamoControlStore implements ControlStore {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
    private readonly profile: 'dynamodb' | 'alternator',
    private readonly opts: ControlOptions = {},
  ) {}

  capabilities(): ControlCapabilities {
    return { transactions: this.profile === 'dynamodb' ? 'multi-item' : 'single-item', feedOrder: 'gaps' };
  }

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
    return dec(r.Item);
  }

  /** Items of one partition with sk > after (and a prefix), until `max` pass `keep`. */
  private async query(pk: string, o: { after?: string; prefix?: string; max: number; keep?: (it: Obj) => boolean }): Promise<Obj[]> {
    const out: Obj[] = [];
    let start: Record<string, AttributeValue> | undefined;
    // An empty string cannot appear in a key condition: no `after` means the whole partition.
    const cond = o.prefix !== undefined ? 'pk = :pk AND begins_with(sk, :pre)' : o.after ? 'pk = :pk AND sk > :after' : 'pk = :pk';
    const vals: Obj = o.prefix !== undefined ? { ':pk': pk, ':pre': o.prefix } : o.after ? { ':pk': pk, ':after': o.after } : { ':pk': pk };
    for (let page = 0; page < MAX_CONTROL_QUERY_PAGES; page++) {
      const r = await this.send(() =>
        this.client.send(
          new QueryCommand({ TableName: this.table, KeyConditionExpression: cond, ExpressionAttributeValues: enc(vals), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
        ),
      );
      for (const w of r.Items ?? []) {
        const it = dec(w)!;
        if (o.prefix !== undefined && o.after !== undefined && String(it.sk) <= o.after) continue;
        if (!o.keep || o.keep(it)) out.push(it);
        if (out.length >= o.max) return out;
      }
      start = r.LastEvaluatedKey;
      if (!start) return out;
    }
    return out;
  }

  /** Writes `items` (the entity's writes) and the change-feed entry for them. */
  /** The outbox entry for a key or binding change (spec §7), its seq from its own counter; null when the outbox is off. */
  private async outboxItem(e: Omit<OutboxEntry, 'seq'> | undefined): Promise<TransactWriteItem | null> {
    if (!e || !this.opts.outbox) return null;
    const r = await this.send(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: enc({ pk: 'ctl#ctr', sk: 'outbox' }),
          UpdateExpression: 'ADD v :one',
          ExpressionAttributeValues: enc({ ':one': 1 }),
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    const seq = Number(r.Attributes!.v!.N);
    return { Put: { TableName: this.table, Item: enc({ pk: 'ctl#outbox', sk: P16(seq), seq, org: e.org, subject: e.subject, relation: e.relation, target: e.target, at: e.at }) } };
  }

  async outbox(limit = MAX_OUTBOX_PAGE): Promise<OutboxEntry[]> {
    const rows = await this.query('ctl#outbox', { after: '', max: Math.min(Math.max(1, limit), MAX_OUTBOX_PAGE) });
    return rows.map((r) => ({ seq: Number(r.seq), org: String(r.org), subject: String(r.subject), relation: String(r.relation), target: String(r.target), at: Number(r.at) }));
  }

  async ackOutbox(seqs: number[]): Promise<void> {
    if (seqs.length > MAX_OUTBOX_PAGE) throw errors.limitExceeded('MAX_OUTBOX_PAGE', MAX_OUTBOX_PAGE, seqs.length);
    for (let i = 0; i < seqs.length; i += TOUCH_PARALLEL) {
      await Promise.all(seqs.slice(i, i + TOUCH_PARALLEL).map((seq) => this.one({ Delete: { TableName: this.table, Key: enc({ pk: 'ctl#outbox', sk: P16(seq) }) } })));
    }
  }

  async jobPosition(job: string): Promise<string | null> {
    checkJob(job);
    const it = await this.get('ctl#job', job);
    return it ? String(it.position) : null;
  }

  async saveJobPosition(job: string, position: string | null, at = Date.now()): Promise<void> {
    checkJob(job);
    checkJobPosition(position);
    if (position === null) await this.one({ Delete: { TableName: this.table, Key: enc({ pk: 'ctl#job', sk: job }) } });
    else await this.one({ Put: { TableName: this.table, Item: enc({ pk: 'ctl#job', sk: job, position, at }) } });
  }

  private async write(
    items: TransactWriteItem[],
    change: { kind: ControlChangeKind; org: string; id: string; at: number } | null,
    outboxed?: Omit<OutboxEntry, 'seq'>,
  ): Promise<void> {
    const ob = await this.outboxItem(outboxed);
    let feed: TransactWriteItem | null = null;
    if (change) {
      const r = await this.send(() =>
        this.client.send(
          new UpdateItemCommand({
            TableName: this.table,
            Key: enc({ pk: 'ctl#ctr', sk: 'ver' }),
            UpdateExpression: 'ADD v :one',
            ExpressionAttributeValues: enc({ ':one': 1 }),
            ReturnValues: 'UPDATED_NEW',
          }),
        ),
      );
      const v = Number(r.Attributes!.v!.N);
      feed = { Put: { TableName: this.table, Item: enc({ pk: 'ctl#chg', sk: P16(v), version: v, kind: change.kind, org: change.org, id: change.id, at: change.at }) } };
    }
    if (this.profile === 'dynamodb') {
      const all = [...items, ...(feed ? [feed] : []), ...(ob ? [ob] : [])];
      try {
        if (all.length === 1) await this.one(all[0]!);
        else await this.client.send(new TransactWriteItemsCommand({ TransactItems: all }));
      } catch (e) {
        const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
        if (reasons?.some((x) => x.Code === 'ConditionalCheckFailed')) throw new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
        throw mapError(e);
      }
    } else {
      for (const it of items) await this.one(it);
      if (feed) await this.one(feed);
      if (ob) await this.one(ob);
    }
  }

  private async one(it: TransactWriteItem): Promise<void> {
    try {
      if (it.Put) await this.client.send(new PutItemCommand({ ...it.Put, TableName: this.table }));
      else if (it.Update) await this.client.send(new UpdateItemCommand({ ...it.Update, TableName: this.table }));
      else if (it.Delete) await this.client.send(new DeleteItemCommand({ ...it.Delete, TableName: this.table }));
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw e;
      throw mapError(e);
    }
  }

  async createOrg(id: string, at = Date.now()): Promise<Org> {
    checkOrg(id);
    try {
      await this.write([{ Put: { TableName: this.table, Item: enc({ pk: 'ctl#org', sk: id, created: at }), ConditionExpression: 'attribute_not_exists(pk)' } }], { kind: 'org', org: id, id: '', at });
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`org "${id}"`, 0);
      throw e;
    }
    return { id, created: at };
  }

  async org(id: string): Promise<Org> {
    const it = await this.get('ctl#org', id);
    if (!it) throw errors.notFound(`org "${id}"`);
    return { id, created: Number(it.created) };
  }

  async listOrgs(p?: PageRequest): Promise<Page<Org>> {
    const limit = Math.min(p?.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
    const rows = await this.query('ctl#org', { after: p?.after ?? '', max: limit + 1 });
    const items = rows.slice(0, limit).map((r) => ({ id: String(r.sk), created: Number(r.created) }));
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  // Erasure (spec §9.6): pk ctl#ekey#<org> sk <version, 16 digits>; pk ctl#erasure sk <id>.
  async putErasureKey(k: ErasureKeyRecord): Promise<void> {
    checkErasureKey(k);
    try {
      await this.one({
        Put: { TableName: this.table, Item: enc({ pk: `ctl#ekey#${k.org}`, sk: P16(k.version), org: k.org, version: k.version, wrapped: k.wrapped, created: k.created, destroyed: null }), ConditionExpression: 'attribute_not_exists(pk)' },
      });
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`erasure-log key version ${k.version} of org "${k.org}"`, k.version);
      throw e;
    }
  }

  async erasureKeys(org: string): Promise<ErasureKeyRecord[]> {
    const rows = await this.query(`ctl#ekey#${org}`, { after: '', max: MAX_PAGE_LIMIT });
    return rows.map((r) => ({ org, version: Number(r.version), wrapped: String(r.wrapped ?? ''), created: Number(r.created), destroyed: num(r.destroyed) }));
  }

  async destroyErasureKeys(org: string, at = Date.now()): Promise<number> {
    let n = 0;
    for (const k of await this.erasureKeys(org)) {
      if (k.destroyed !== null) continue;
      await this.one({
        Update: {
          TableName: this.table,
          Key: enc({ pk: `ctl#ekey#${org}`, sk: P16(k.version) }),
          UpdateExpression: 'SET wrapped = :e, destroyed = :at',
          ExpressionAttributeValues: enc({ ':e': '', ':at': at }),
        },
      });
      n++;
    }
    return n;
  }

  private erasureOf(it: Obj): ErasureRow {
    return {
      id: String(it.sk),
      org: String(it.org),
      ns: Number(it.ns),
      collection: Number(it.collection),
      phase: String(it.phase),
      requested: Number(it.requested),
      completed: num(it.completed),
      version: Number(it.version),
      data: String(it.data),
    };
  }

  async createErasure(row: Omit<ErasureRow, 'version'>): Promise<ErasureRow> {
    checkErasureRow(row);
    const { id, ...rest } = row;
    try {
      await this.one({ Put: { TableName: this.table, Item: enc({ pk: 'ctl#erasure', sk: id, ...rest, version: 1 }), ConditionExpression: 'attribute_not_exists(pk)' } });
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      const had = await this.erasure(row.id);
      if (had.org !== row.org || had.ns !== row.ns || had.collection !== row.collection) throw errors.alreadyExists(`erasure ${row.id}`, 0);
      return had;
    }
    return { ...row, version: 1 };
  }

  async erasure(id: string): Promise<ErasureRow> {
    const it = await this.get('ctl#erasure', id);
    if (!it) throw errors.notFound(`erasure ${id}`);
    return this.erasureOf(it);
  }

  async updateErasure(id: string, expectedVersion: number, next: Pick<ErasureRow, 'phase' | 'completed' | 'data'>): Promise<ErasureRow> {
    checkErasureData(next.data);
    const cur = await this.erasure(id);
    if (cur.version !== expectedVersion) throw errors.versionMismatch(`erasure ${id}`, expectedVersion, cur.version);
    try {
      await this.one({
        Update: {
          TableName: this.table,
          Key: enc({ pk: 'ctl#erasure', sk: id }),
          UpdateExpression: 'SET phase = :p, completed = :c, #d = :d, version = :nv',
          ConditionExpression: 'version = :v',
          ExpressionAttributeNames: { '#d': 'data' },
          ExpressionAttributeValues: enc({ ':p': next.phase, ':c': next.completed, ':d': next.data, ':nv': expectedVersion + 1, ':v': expectedVersion }),
        },
      });
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw errors.versionMismatch(`erasure ${id}`, expectedVersion, null);
      throw e;
    }
    return { ...cur, ...next, version: expectedVersion + 1 };
  }

  async listErasures(o: { org?: string; active?: boolean; after?: string; limit?: number }): Promise<Page<ErasureRow>> {
    const limit = Math.min(Math.max(1, o.limit ?? MAX_ERASURE_PAGE), MAX_ERASURE_PAGE);
    const rows = await this.query('ctl#erasure', {
      after: o.after ?? '',
      max: limit + 1,
      keep: (it) => (o.org === undefined || String(it.org) === o.org) && (!o.active || num(it.completed) === null),
    });
    const items = rows.slice(0, limit).map((r) => this.erasureOf(r));
    return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
  }

  private keyOf(it: Obj): ApiKeyRecord {
    return {
      keyId: String(it.sk),
      org: String(it.org),
      secretHash: String(it.hash),
      scopes: JSON.parse(String(it.scopes)) as string[],
      expiry: num(it.expiry),
      createdBy: String(it.createdBy),
      created: Number(it.created),
      lastUsed: num(it.lastUsed),
      revoked: num(it.revoked),
    };
  }

  async createKey(rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): Promise<ApiKeyInfo> {
    checkKey(rec);
    await this.org(rec.org);
    const item = enc({
      pk: 'ctl#key',
      sk: rec.keyId,
      org: rec.org,
      hash: rec.secretHash,
      scopes: JSON.stringify(rec.scopes),
      expiry: rec.expiry,
      createdBy: rec.createdBy,
      created: rec.created,
      lastUsed: null,
      revoked: null,
    });
    try {
      await this.write([{ Put: { TableName: this.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }], { kind: 'key', org: rec.org, id: rec.keyId, at: rec.created }, {
        org: rec.org,
        subject: `key:${rec.keyId}`,
        relation: 'member',
        target: 'org',
        at: rec.created,
      });
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`key ${rec.keyId}`, 0);
      throw e;
    }
    return keyInfo({ ...rec, lastUsed: null, revoked: null });
  }

  async key(keyId: string): Promise<ApiKeyRecord> {
    const it = await this.get('ctl#key', keyId);
    if (!it) throw errors.notFound(`key ${keyId}`);
    return this.keyOf(it);
  }

  async listKeys(org: string, p?: PageRequest): Promise<Page<ApiKeyInfo>> {
    const limit = Math.min(p?.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
    const rows = await this.query('ctl#key', { after: p?.after ?? '', max: limit + 1, keep: (it) => it.org === org });
    const items = rows.slice(0, limit).map((r) => keyInfo(this.keyOf(r)));
    return rows.length > limit ? { items, next: items[items.length - 1]!.keyId } : { items };
  }

  async revokeKey(org: string, keyId: string, at = Date.now()): Promise<void> {
    const k = await this.key(keyId).catch(() => null);
    if (!k || k.org !== org) throw errors.notFound(`key ${keyId}`);
    if (k.revoked !== null) return;
    await this.write(
      [{ Update: { TableName: this.table, Key: enc({ pk: 'ctl#key', sk: keyId }), UpdateExpression: 'SET revoked = :at', ExpressionAttributeValues: enc({ ':at': at }) } }],
      { kind: 'key', org, id: keyId, at },
      { org, subject: `key:${keyId}`, relation: 'member', target: 'org', at },
    );
  }

  async touchKeys(touches: { keyId: string; at: number }[]): Promise<void> {
    if (touches.length > MAX_TOUCH_BATCH) throw errors.limitExceeded('MAX_TOUCH_BATCH', MAX_TOUCH_BATCH, touches.length);
    for (let i = 0; i < touches.length; i += TOUCH_PARALLEL) {
      await Promise.all(
        touches.slice(i, i + TOUCH_PARALLEL).map((t) =>
          this.client
            .send(
              new UpdateItemCommand({
                TableName: this.table,
                Key: enc({ pk: 'ctl#key', sk: t.keyId }),
                UpdateExpression: 'SET lastUsed = :at',
                ConditionExpression: 'attribute_exists(pk) AND (attribute_type(lastUsed, :null) OR lastUsed < :at)',
                ExpressionAttributeValues: enc({ ':at': t.at, ':null': 'NULL' }),
              }),
            )
            .catch((e: unknown) => {
              if (!(e instanceof ConditionalCheckFailedException)) throw mapError(e);
            }),
        ),
      );
    }
  }

  private bindSk(b: Omit<RoleBinding, 'created'>): string {
    return `${b.subject}#${targetKey(b.target)}#${b.role}`;
  }

  private bindingOf(org: string, it: Obj): RoleBinding {
    return { org, subject: String(it.subject), role: String(it.role) as RoleName, target: parseTarget(String(it.target)), created: Number(it.created) };
  }

  async grant(b: Omit<RoleBinding, 'created'>): Promise<RoleBinding> {
    checkBinding(b);
    await this.org(b.org);
    const at = Date.now();
    try {
      await this.write(
        [
          {
            Put: {
              TableName: this.table,
              Item: enc({ pk: `ctl#bind#${b.org}`, sk: this.bindSk(b), subject: b.subject, target: targetKey(b.target), role: b.role, created: at }),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
        { kind: 'binding', org: b.org, id: b.subject, at },
        { org: b.org, subject: b.subject, relation: b.role, target: targetKey(b.target), at },
      );
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
    }
    return { ...b, created: at };
  }

  async revokeGrant(b: Omit<RoleBinding, 'created'>): Promise<void> {
    checkBinding(b);
    const at = Date.now();
    await this.write([{ Delete: { TableName: this.table, Key: enc({ pk: `ctl#bind#${b.org}`, sk: this.bindSk(b) }) } }], { kind: 'binding', org: b.org, id: b.subject, at }, {
      org: b.org,
      subject: b.subject,
      relation: b.role,
      target: targetKey(b.target),
      at,
    });
  }

  async bindings(org: string, subject: string): Promise<RoleBinding[]> {
    const rows = await this.query(`ctl#bind#${org}`, { prefix: `${subject}#`, max: MAX_PAGE_LIMIT });
    return rows.map((r) => this.bindingOf(org, r));
  }

  async listBindings(org: string, p?: PageRequest): Promise<Page<RoleBinding>> {
    const limit = Math.min(p?.limit ?? DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT);
    const rows = await this.query(`ctl#bind#${org}`, { after: p?.after ?? '', max: limit + 1 });
    const items = rows.slice(0, limit).map((r) => this.bindingOf(org, r));
    return rows.length > limit ? { items, next: String(rows[limit - 1]!.sk) } : { items };
  }

  async dropNamespaceBindings(org: string, ns: number): Promise<void> {
    const t = `ns:${ns}`;
    const rows = await this.query(`ctl#bind#${org}`, { after: '', max: MAX_PAGE_LIMIT, keep: (it) => it.target === t });
    for (const r of rows) {
      const at = Date.now();
      await this.write([{ Delete: { TableName: this.table, Key: enc({ pk: `ctl#bind#${org}`, sk: String(r.sk) }) } }], { kind: 'binding', org, id: String(r.subject), at }, {
        org,
        subject: String(r.subject),
        relation: String(r.role),
        target: t,
        at,
      });
    }
  }

  async setQuota(org: string, ns: number | null, name: QuotaName, value: number | null): Promise<void> {
    checkQuota(org, ns, name, value);
    const key = { pk: `ctl#quota#${org}`, sk: `${ns === null ? '-' : P16(ns)}#${name}` };
    const it: TransactWriteItem =
      value === null
        ? { Delete: { TableName: this.table, Key: enc(key) } }
        : { Put: { TableName: this.table, Item: enc({ ...key, ns, name, value }) } };
    await this.write([it], { kind: 'quota', org, id: '', at: Date.now() });
  }

  async quotas(org: string): Promise<QuotaOverride[]> {
    const rows = await this.query(`ctl#quota#${org}`, { after: '', max: MAX_PAGE_LIMIT });
    return rows.map((r) => ({ org, ns: num(r.ns), name: String(r.name) as QuotaName, value: Number(r.value) }));
  }

  async putUsage(rows: Omit<UsageRollup, 'updated'>[], at = Date.now()): Promise<void> {
    if (rows.length > MAX_USAGE_ROWS) throw errors.limitExceeded('MAX_USAGE_ROWS', MAX_USAGE_ROWS, rows.length);
    for (let i = 0; i < rows.length; i += TOUCH_PARALLEL) {
      await Promise.all(
        rows.slice(i, i + TOUCH_PARALLEL).map((u) =>
          this.one({
            Put: {
              TableName: this.table,
              Item: enc({ pk: `ctl#usage#${u.org}`, sk: `${u.ns === null ? '-' : P16(u.ns)}#${u.metric}#${P16(u.window)}`, ns: u.ns, metric: u.metric, win: u.window, value: u.value, updated: at }),
            },
          }),
        ),
      );
    }
  }

  async addUsage(rows: UsageDelta[], at = Date.now()): Promise<void> {
    if (rows.length > MAX_USAGE_ROWS) throw errors.limitExceeded('MAX_USAGE_ROWS', MAX_USAGE_ROWS, rows.length);
    for (const u of rows) checkUsageDelta(u);
    for (let i = 0; i < rows.length; i += TOUCH_PARALLEL) {
      await Promise.all(
        rows.slice(i, i + TOUCH_PARALLEL).map((u) =>
          // ADD is atomic on the item: gateways counting into one window never lose an increment.
          this.one({
            Update: {
              TableName: this.table,
              Key: enc({ pk: `ctl#usage#${u.org}`, sk: `${u.ns === null ? '-' : P16(u.ns)}#${u.metric}#${P16(u.window)}` }),
              UpdateExpression: 'SET ns = :ns, metric = :m, win = :w, updated = :u ADD #v :d',
              ExpressionAttributeNames: { '#v': 'value' },
              ExpressionAttributeValues: enc({ ':ns': u.ns, ':m': u.metric, ':w': u.window, ':u': at, ':d': u.delta }),
            },
          }),
        ),
      );
    }
  }

  async usage(org: string, o: { metric?: string; since?: number; limit?: number } = {}): Promise<UsageRollup[]> {
    const max = Math.min(o.limit ?? MAX_USAGE_ROWS, MAX_USAGE_ROWS);
    const rows = await this.query(`ctl#usage#${org}`, { after: '', max, keep: (r) => (!o.metric || r.metric === o.metric) && Number(r.win) >= (o.since ?? 0) });
    return rows.map((r) => ({ org, ns: num(r.ns), metric: String(r.metric), window: Number(r.win), value: Number(r.value), updated: Number(r.updated) }));
  }

  async heartbeat(node: string, ttlMs: number, at = Date.now(), info?: string): Promise<void> {
    checkHeartbeat(node, ttlMs, at, info);
    const expires = at + ttlMs;
    try {
      // Never backwards: a late, older heartbeat leaves a newer one standing. An update, so a
      // heartbeat without info keeps the item's.
      await this.one({
        Update: {
          TableName: this.table,
          Key: enc({ pk: 'ctl#member', sk: node }),
          UpdateExpression: info === undefined ? 'SET expires = :e' : 'SET expires = :e, info = :i',
          ConditionExpression: 'attribute_not_exists(pk) OR expires < :e',
          ExpressionAttributeValues: enc(info === undefined ? { ':e': expires } : { ':e': expires, ':i': info }),
        },
      });
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e;
      if (info !== undefined) {
        // A newer heartbeat stands; the info is still this node's latest word about itself.
        await this.one({
          Update: {
            TableName: this.table,
            Key: enc({ pk: 'ctl#member', sk: node }),
            UpdateExpression: 'SET info = :i',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: enc({ ':i': info }),
          },
        }).catch((e2: unknown) => {
          if (!(e2 instanceof ConditionalCheckFailedException)) throw e2;
        });
      }
    }
    // Expired members are nobody's: whoever beats next clears them (bounded per beat).
    const expired = await this.query('ctl#member', { max: MAX_EXPIRED_PER_BEAT, keep: (it) => Number(it.expires) <= at });
    for (const it of expired) {
      try {
        await this.one({ Delete: { TableName: this.table, Key: enc({ pk: 'ctl#member', sk: String(it.sk) }), ConditionExpression: 'expires <= :at', ExpressionAttributeValues: enc({ ':at': at }) } });
      } catch (e) {
        if (!(e instanceof ConditionalCheckFailedException)) throw e; // it beat meanwhile
      }
    }
  }

  async members(at = Date.now()): Promise<Member[]> {
    const items = await this.query('ctl#member', { max: MAX_MEMBERS, keep: (it) => Number(it.expires) > at });
    return items.map((it) => ({ node: String(it.sk), expires: Number(it.expires), info: typeof it.info === 'string' ? it.info : '' }));
  }

  async leave(node: string): Promise<void> {
    checkNode(node);
    await this.one({ Delete: { TableName: this.table, Key: enc({ pk: 'ctl#member', sk: node }) } });
  }

  async createNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord> {
    checkNamespaceKey(rec);
    const item = { pk: `ctl#nskey#${rec.ns}`, sk: P16(rec.version), ns: rec.ns, version: rec.version, provider: rec.provider, keyRef: rec.keyRef, wrapped: rec.wrapped, state: 'active', created: rec.created };
    try {
      await this.one({ Put: { TableName: this.table, Item: enc(item), ConditionExpression: 'attribute_not_exists(pk)' } });
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`key version ${rec.version} of namespace ${rec.ns}`, rec.ns);
      throw e;
    }
    return { ...rec, state: 'active', destroyed: null };
  }

  async namespaceKeys(ns: number): Promise<NamespaceKeyRecord[]> {
    const items = await this.query(`ctl#nskey#${ns}`, { max: MAX_NAMESPACE_KEY_VERSIONS });
    return items.map((it) => ({
      ns: Number(it.ns),
      version: Number(it.version),
      provider: String(it.provider) as NamespaceKeyRecord['provider'],
      keyRef: String(it.keyRef),
      wrapped: String(it.wrapped ?? ''),
      state: String(it.state) as NamespaceKeyRecord['state'],
      created: Number(it.created),
      destroyed: it.destroyed === undefined || it.destroyed === null ? null : Number(it.destroyed),
    }));
  }

  async destroyNamespaceKeys(ns: number, at = Date.now()): Promise<void> {
    // Each version on its own (a namespace may have more than a transaction holds), then the
    // feed entry: a crash between them leaves the keys destroyed and nodes notice at their refresh.
    for (const it of await this.query(`ctl#nskey#${ns}`, { max: MAX_NAMESPACE_KEY_VERSIONS })) {
      await this.one({
        Update: {
          TableName: this.table,
          Key: enc({ pk: String(it.pk), sk: String(it.sk) }),
          // wrapped, state and destroyed are DynamoDB reserved words: named through placeholders.
          UpdateExpression: 'SET #w = :e, #s = :d, #d = if_not_exists(#d, :at)',
          ExpressionAttributeNames: { '#w': 'wrapped', '#s': 'state', '#d': 'destroyed' },
          ExpressionAttributeValues: enc({ ':e': '', ':d': 'destroyed', ':at': at }),
        },
      });
    }
    await this.write([], { kind: 'nskey', org: '', id: String(ns), at });
  }

  async controlVersion(): Promise<number> {
    const it = await this.get('ctl#ctr', 'ver');
    return it ? Number(it.v) : 0;
  }

  async changesSince(after: number, limit = MAX_CHANGES_PAGE): Promise<ControlChange[]> {
    const rows = await this.query('ctl#chg', { after: P16(after), max: Math.min(limit, MAX_CHANGES_PAGE) });
    return rows.map((r) => ({ version: Number(r.version), kind: String(r.kind) as ControlChangeKind, org: String(r.org), id: String(r.id), at: Number(r.at) }));
  }
}

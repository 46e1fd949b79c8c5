// The DynamoDB backend (DESIGN §3, spec §2.3) and its single-item Alternator profile (spec §4.1).
//
// One table with string keys pk/sk (item layout: ./keys.ts and ./README.md). Every lookup
// that must be linearizable reads the base table with ConsistentRead. Every multi-item write
// is one TransactWriteItems (commitWal: one per partition group of at most 32 chunks, spec
// §3.1); conditions make each one correct against concurrent writers, and ALL_OLD on a failed
// condition tells the call what it lost to without a second read. Composite reads follow the
// documented read orders of the contract (snapshotReads: false, spec §3.3).
//
// Unknown outcomes (spec §2.3, §4.2): every transaction of a call with a requestId carries a
// commit-token item (req#) and a ClientRequestToken derived from the requestId and the body;
// commitWal's groups carry their (object, group) commit records; single-item writes (leases,
// the Alternator profile's pointers) store the writer's nonce in the item. A retry therefore
// learns that an earlier attempt applied and returns its result, never applying twice.
//
// The 'alternator' profile is the same backend with capabilities().transactions =
// 'single-item': it sends no transaction at all. Leases, casPointer without a fence on a key
// that is not a collection's link, createNamespace (name uniqueness by attribute_not_exists
// + ALL_OLD) and every read work; every call that needs a transaction answers InvalidArgument
// naming `transactions`, after its arguments are validated.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { CreateCollection, CreateNamespace, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import { linkPointerKey, parseLinkPointerKey } from '../../contract.js';
import { errors, isMetaError } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { planGroups } from '../../groups.js';
import {
  DEFAULT_MANIFEST_RETENTION_MS,
  MAX_ALIASES,
  MAX_CLOCK_SKEW_MS,
  MAX_INDEX_PAGE,
  MAX_PAGE_LIMIT,
  MAX_WATCH_MS,
  REQUEST_TOKEN_TTL_MS,
  WAL_COMMIT_RECORD_TTL_MS,
  WAL_COMMIT_WINDOW_MS,
} from '../../limits.js';
import type {
  AliasAction,
  Aliases,
  AssignedRange,
  Capabilities,
  CatalogChange,
  ChangeKind,
  ChangesPage,
  ClaimResult,
  Collection,
  CollectionHead,
  CollectionSchema,
  Fence,
  IndexEntry,
  Lease,
  LeaseScope,
  Namespace,
  ObjectRef,
  Page,
  PageRequest,
  PartitionHead,
  PartitionIndex,
  Pointer,
  Retention,
  SegmentSwap,
  Stamp,
  Stream,
  StreamState,
  Tag,
  WalChunk,
  WalCommit,
  WalCommitResult,
  WatchResult,
  WatchScope,
  WriteContext,
} from '../../types.js';
import * as v from '../../validate.js';
import type { Item } from './codec.js';
import { Expr, single, txCheck, txDelete, txPut, txUpdate, type Build } from './expr.js';
import { K, OBJ_SHARDS, RETIRED_INDEX, byteCompare, nameRange, type Key } from './keys.js';
import { Sdk, jitter, mapError, type Cancelled, type TxItem } from './sdk.js';

export { K, OBJ_SHARDS, RETIRED_INDEX } from './keys.js';

/** Chunks one partition group commits in one transaction: 2 items per chunk + streams + 2 ≤ 100 (spec §3.1). */
export const MAX_CHUNKS_PER_GROUP = 32;
/** Entries one swapSegment replaces: n entries + ≤ n object counts + 5 ≤ 100 items (spec §2.3: ~45). */
export const MAX_SWAP_ENTRIES = 45;
/** Entries one trim (or janitor) chunk deletes: 2 items each + the head. */
export const TRIM_CHUNK_ENTRIES = 30;
/** Internal attempts of one call against contention (failed conditions, TransactionConflict). */
export const MAX_INTERNAL_ATTEMPTS = 12;
/** watch() polls between these intervals (spec §2.3: 100–500 ms), waking at once on own writes. */
export const WATCH_POLL_MIN_MS = 100;
export const WATCH_POLL_MAX_MS = 500;
/** Sort keys hold object paths: DynamoDB allows 1,024 bytes. */
export const MAX_KEY_PATH_BYTES = 1_024;
/** Cached partition heads and stream shapes per handle, at most (cleared when exceeded). */
const MAX_CACHE_ENTRIES = 100_000;
/** Requests to DynamoDB: connect and whole-request deadlines. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;
export const DEFAULT_CONNECT_TIMEOUT_MS = 3_000;

export type DynamoProfile = 'dynamodb' | 'alternator';

export interface DynamoOptions {
  /** The table (one per metastore). */
  table: string;
  region?: string;
  /** An endpoint URL (DynamoDB Local, Alternator); the AWS regional endpoint when absent. */
  endpoint?: string;
  /** 'dynamodb' (default): multi-item transactions. 'alternator': single-item writes only. */
  profile?: DynamoProfile;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  requestTimeoutMs?: number;
  connectTimeoutMs?: number;
  /** Chunks per commit group, 1..32 (tests use smaller groups so commits span groups). */
  maxChunksPerGroup?: number;
  /** Fault injection for the fault matrix (spec §4.2); never set in production. */
  faults?: FaultHook;
  /** The backend's clock, for validating stamps; tests may replace it. */
  clock?: () => number;
}

/**
 * Options from a metastore URL, so a node can be wired with one setting:
 *   dynamodb://[host:port]/<table>?region=eu-west-1&profile=alternator&tls=false
 * An empty host means AWS's regional endpoint; tls defaults to true unless the host is
 * loopback. Credentials come from the SDK's default provider chain.
 */
export function dynamoOptionsFromUrl(url: string): DynamoOptions {
  const u = new URL(url);
  if (u.protocol !== 'dynamodb:') throw errors.invalid('url', `must start with dynamodb://, got ${u.protocol}`);
  const table = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z0-9_.-]{3,255}$/.test(table)) throw errors.invalid('url', `names no valid table (3-255 of A-Z a-z 0-9 _ . -): ${table}`);
  const profile = u.searchParams.get('profile') ?? 'dynamodb';
  if (profile !== 'dynamodb' && profile !== 'alternator') throw errors.invalid('url', `profile must be dynamodb or alternator, got ${profile}`);
  const opts: DynamoOptions = { table, region: u.searchParams.get('region') ?? 'us-east-1', profile };
  if (u.host) {
    const loopback = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/.test(u.hostname);
    const tls = (u.searchParams.get('tls') ?? (loopback ? 'false' : 'true')) !== 'false';
    opts.endpoint = `${tls ? 'https' : 'http'}://${u.host}`;
  }
  return opts;
}

export function openDynamo(opts: DynamoOptions): DynamoMetaStore {
  return new DynamoMetaStore(opts);
}

/** Per-call context of a write. */
interface Ctx {
  op: string;
  stamp: Stamp;
  requestId: string | undefined;
  /** Base of every ClientRequestToken of this call. */
  tokenBase: string;
}

/** Returned by an attempt that lost a race and must re-read and try again. */
const AGAIN = Symbol('again');
type Again = typeof AGAIN;

const LIVE = 'live';
const DROPPING = 'dropping';

export class DynamoMetaStore implements MetaStore {
  readonly table: string;
  readonly profile: DynamoProfile;
  readonly sdk: Sdk;
  private readonly caps: Capabilities;
  private readonly clock: () => number;
  private readonly changed = new EventEmitter();
  private closed = false;
  /** ns/stream → partitions (immutable once created). */
  private readonly streamParts = new Map<string, number>();
  /** ns/stream/partition → the next offset last seen (a hint: conditions check it). */
  private readonly headNext = new Map<string, number>();
  /** ns/link → { collection, manifestRetentionMs } (immutable). */
  private readonly links = new Map<string, { collection: number; retentionMs: number }>();
  /** The highest catalog version this handle has seen (a hint for the next change's version). */
  private chgHint: number | null = null;

  constructor(opts: DynamoOptions) {
    if (!opts || typeof opts.table !== 'string' || !/^[A-Za-z0-9_.-]{3,255}$/.test(opts.table)) {
      throw errors.invalid('table', 'must be a DynamoDB table name (3-255 of A-Z a-z 0-9 _ . -)');
    }
    this.table = opts.table;
    this.profile = opts.profile ?? 'dynamodb';
    if (this.profile !== 'dynamodb' && this.profile !== 'alternator') throw errors.invalid('profile', 'must be dynamodb or alternator');
    this.sdk = new Sdk({
      table: opts.table,
      region: opts.region ?? 'us-east-1',
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      requestTimeoutMs: opts.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      connectTimeoutMs: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      ...(opts.faults ? { faults: opts.faults } : {}),
    });
    this.caps = {
      transactions: this.profile === 'dynamodb' ? 'multi-item' : 'single-item',
      snapshotReads: false,
      maxChunksPerGroup: opts.maxChunksPerGroup === undefined ? MAX_CHUNKS_PER_GROUP : v.nonNegInt('maxChunksPerGroup', opts.maxChunksPerGroup, MAX_CHUNKS_PER_GROUP),
      maxSwapEntries: MAX_SWAP_ENTRIES,
      changeFeed: 'poll',
    };
    if (this.caps.maxChunksPerGroup < 1) throw errors.invalid('maxChunksPerGroup', `must be in 1..${MAX_CHUNKS_PER_GROUP}`);
    this.clock = opts.clock ?? Date.now;
    this.changed.setMaxListeners(0);
  }

  capabilities(): Capabilities {
    return { ...this.caps };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.changed.emit('change');
    this.sdk.destroy();
  }

  // ------------------------------------------------------------ table

  /**
   * Creates the table (pk, sk; the `retired` local secondary index; TTL on `ttl`) if it does
   * not exist, and waits until it is active. Operators may create it themselves instead.
   */
  async createTable(): Promise<void> {
    const c = this.sdk.client;
    try {
      await c.send(
        new CreateTableCommand({
          TableName: this.table,
          BillingMode: 'PAY_PER_REQUEST',
          AttributeDefinitions: [
            { AttributeName: 'pk', AttributeType: 'S' },
            { AttributeName: 'sk', AttributeType: 'S' },
            { AttributeName: 'rk', AttributeType: 'S' },
          ],
          KeySchema: [
            { AttributeName: 'pk', KeyType: 'HASH' },
            { AttributeName: 'sk', KeyType: 'RANGE' },
          ],
          LocalSecondaryIndexes: [
            {
              IndexName: RETIRED_INDEX,
              KeySchema: [
                { AttributeName: 'pk', KeyType: 'HASH' },
                { AttributeName: 'rk', KeyType: 'RANGE' },
              ],
              Projection: { ProjectionType: 'ALL' },
            },
          ],
        }),
      );
    } catch (e) {
      if ((e as { name?: string }).name !== 'ResourceInUseException') throw mapError(e, 'write');
    }
    const deadline = Date.now() + 60_000;
    for (;;) {
      const d = await c.send(new DescribeTableCommand({ TableName: this.table }));
      if (d.Table?.TableStatus === 'ACTIVE') break;
      if (Date.now() > deadline) throw new Error(`dynamodb: table ${this.table} did not become ACTIVE within 60 s`);
      await sleep(200);
    }
    try {
      await c.send(new UpdateTimeToLiveCommand({ TableName: this.table, TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } }));
    } catch (e) {
      // Already enabled is fine; TTL only prunes expired commit records and tokens (best effort).
      if (!/already enabled|TimeToLive is already/i.test((e as Error).message ?? '')) throw mapError(e, 'write');
    }
  }

  /** Deletes the table (tests only). */
  async deleteTable(): Promise<void> {
    try {
      await this.sdk.client.send(new DeleteTableCommand({ TableName: this.table }));
    } catch (e) {
      if ((e as { name?: string }).name !== 'ResourceNotFoundException') throw e;
    }
  }

  // ------------------------------------------------------------ helpers

  private checkOpen(): void {
    if (this.closed) throw errors.invalid('store', 'this metastore handle is closed');
  }

  /** The Alternator profile sends no transaction: such calls are refused by capability. */
  private needTx(op: string): void {
    if (this.profile === 'alternator') {
      throw errors.invalid(
        'transactions',
        `${op} needs a multi-item transaction, and this metastore's capabilities are transactions: 'single-item' (spec §4.1)`,
      );
    }
  }

  /**
   * The frame of every write: stamp and requestId checks, then `fn`. A call with a requestId
   * whose attempt is refused in a way a retry of an applied call would be (the name exists,
   * the version moved…) looks up its commit token first: if an earlier attempt applied, its
   * result is returned instead of the refusal.
   */
  private async write<T>(op: string, w: WriteContext | undefined, fn: (c: Ctx) => Promise<T>): Promise<T> {
    this.checkOpen();
    const stamp = v.stamp(w?.stamp, this.clock());
    const requestId = w?.requestId === undefined ? undefined : v.tokenString('requestId', w.requestId);
    const ctx: Ctx = { op, stamp, requestId, tokenBase: requestId !== undefined ? `${requestId}\u0000${op}` : randomUUID() };
    try {
      return await fn(ctx);
    } catch (e) {
      if (requestId !== undefined && this.profile === 'dynamodb' && isMetaError(e) && LAZY_TOKEN_CHECK.has(e.code)) {
        const prior = await this.sdk.get(K.req(requestId));
        if (prior) return this.priorResult<T>(op, prior);
      }
      throw e;
    }
  }

  private priorResult<T>(op: string, item: Item): T {
    if (item.op !== op) throw errors.invalid('requestId', `was already used for ${String(item.op)}; use a fresh requestId per call`);
    return JSON.parse(String(item.result)) as T;
  }

  /** The commit-token item of a write with a requestId: its result, in the same transaction. */
  private reqItem(ctx: Ctx, result: unknown): TxItem {
    return txPut(
      'req',
      K.req(ctx.requestId!),
      { op: ctx.op, result: JSON.stringify(result ?? null), stamp: ctx.stamp, ttl: ttlAt(ctx.stamp + REQUEST_TOKEN_TTL_MS) },
      (e) => `attribute_not_exists(${e.a('pk')})`,
    );
  }

  /**
   * Sends one transaction of the call (with its commit token). Success → { result };
   * an earlier attempt of the same requestId applied → its result; otherwise the reasons.
   */
  private async submit<T>(ctx: Ctx, items: TxItem[], result: T, tokenExtra = ''): Promise<{ result: T } | Cancelled> {
    const all = ctx.requestId !== undefined ? [...items, this.reqItem(ctx, result)] : items;
    const out = await this.sdk.transact(ctx.op, all, ctx.tokenBase + tokenExtra);
    if (out.ok) return { result };
    const prior = out.failed.get('req');
    if (prior) return { result: this.priorResult<T>(ctx.op, prior) };
    return out;
  }

  /** Runs attempts until one returns a value; AGAIN re-reads after a jittered pause (bounded). */
  private async attempts<T>(op: string, fn: (n: number) => Promise<T | Again>): Promise<T> {
    for (let n = 0; n < MAX_INTERNAL_ATTEMPTS; n++) {
      this.checkOpen();
      const r = await fn(n);
      if (r !== AGAIN) return r as T;
      await jitter(n);
    }
    throw errors.retryable('conflict', `${op}: concurrent writers kept winning for ${MAX_INTERNAL_ATTEMPTS} attempts; nothing was applied`);
  }

  /** Ids from the counters: one UpdateItem, outside the call's transaction (spec §2.3). */
  private async nextIds<K extends string>(kinds: readonly K[]): Promise<Record<K, number>> {
    const r = await this.sdk.update({
      ...single(K.counters(), (e) => `ADD ${kinds.map((k) => `${e.a(k)} ${e.v(1)}`).join(', ')}`),
      ReturnValues: 'UPDATED_NEW',
    });
    const out = {} as Record<K, number>;
    for (const k of kinds) out[k] = Number(r?.[k]);
    return out;
  }

  // ---- the change feed's next version

  private async chgVersion(): Promise<number> {
    if (this.chgHint === null) this.chgHint = await this.currentVersion();
    return this.chgHint + 1;
  }

  private chgItem(version: number, ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): TxItem {
    return txPut('chg', K.chg(version), { version, ns, kind, id, stamp }, (e) => `attribute_not_exists(${e.a('pk')})`);
  }

  /** Another writer took the version: learn the current one and try again. */
  private async chgLost(): Promise<Again> {
    this.chgHint = await this.currentVersion();
    return AGAIN;
  }

  private chgDone(version: number): void {
    this.chgHint = Math.max(this.chgHint ?? 0, version);
    this.changed.emit('change');
  }

  private async currentVersion(): Promise<number> {
    const last = await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.chgPk() } }, ScanIndexForward: false }, 1);
    return last[0] ? Number(last[0].version) : 0;
  }

  /** Conflict (nothing applied) or a lost optimistic condition: both mean "try again". */
  private static lost(c: Cancelled, ...roles: string[]): boolean {
    return c.conflict || roles.some((r) => c.failed.has(r));
  }

  // ------------------------------------------------------------ loaders

  private async liveNamespace(ns: number): Promise<Item> {
    const r = await this.sdk.get(K.ns(ns));
    if (!r || r.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
    return r;
  }

  private async liveCollectionItem(ns: number, id: number): Promise<Item> {
    const r = await this.sdk.get(K.coll(ns, id));
    if (!r || r.state !== LIVE) throw errors.notFound(`collection ${id} in namespace ${ns}`);
    return r;
  }

  private async liveStreamItem(ns: number, id: number): Promise<Item> {
    const r = await this.sdk.get(K.stream(ns, id));
    if (!r || r.state !== LIVE) throw errors.notFound(`stream ${id} in namespace ${ns}`);
    this.cacheParts(ns, id, Number(r.partitions));
    return r;
  }

  private cacheParts(ns: number, stream: number, parts: number): void {
    if (this.streamParts.size > MAX_CACHE_ENTRIES) this.streamParts.clear();
    this.streamParts.set(`${ns}/${stream}`, parts);
  }

  private cacheHead(ns: number, stream: number, p: number, next: number): void {
    if (this.headNext.size > MAX_CACHE_ENTRIES) this.headNext.clear();
    const k = `${ns}/${stream}/${p}`;
    if ((this.headNext.get(k) ?? -1) < next) this.headNext.set(k, next);
  }

  private async readHeads(ns: number, stream: number, partitions: number): Promise<PartitionHead[]> {
    const rows = await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.headPk(ns, stream) } } });
    const out: PartitionHead[] = [];
    for (let p = 0; p < partitions; p++) out.push({ partition: p, next: 0, logStart: 0, bytes: 0 });
    for (const r of rows) {
      const p = Number(r.sk);
      if (p < partitions) out[p] = toHead(p, r);
    }
    return out;
  }

  /** Object-reference change for `path` (one item per transaction: callers aggregate per path). */
  private refUp(role: string, path: string, kind: 'wal' | 'segment' | 'manifest', n: number, index?: { stream: string }): TxItem {
    return txUpdate(
      role,
      K.obj(path),
      (e) =>
        `SET ${e.a('path')} = ${e.v(path)}, ${e.a('kind')} = if_not_exists(${e.a('kind')}, ${e.v(kind)})` +
        (index ? `, ${e.a('stream')} = ${e.v(index.stream)}` : '') +
        ` ADD ${e.a('refs')} ${e.v(n)}${index ? `, ${e.a('irefs')} ${e.v(n)}` : ''} REMOVE ${e.a('rk')}, ${e.a('retired')}`,
      // Claimed if GC claimed the path (or deleted it): a claim and a new reference serialise (spec §3.2.3).
      (e) => `attribute_not_exists(${e.a('claimOwner')}) AND attribute_not_exists(${e.a('deleted')})`,
    );
  }

  /**
   * Releases `n` references of `path` whose item read `cur`. The condition pins what was read
   * where it matters: reaching zero retires a WAL object (listed by the `retired` index), so
   * that case requires refs to be exactly what was read; otherwise only that enough remain.
   */
  private refDown(role: string, path: string, n: number, cur: Item | undefined, stamp: Stamp, index: boolean): TxItem {
    const refs = Number(cur?.refs ?? 0);
    if (refs - n < 0) throw new Error(`dynamodb metastore invariant violated: object ${path} would have ${refs - n} references`);
    const ir = index ? (e: Expr) => `, ${e.a('irefs')} = if_not_exists(${e.a('irefs')}, ${e.v(0)}) - ${e.v(n)}` : () => '';
    if (refs - n === 0) {
      const retire = cur?.kind === 'wal' && cur.claimOwner === undefined && cur.deleted === undefined;
      return txUpdate(
        role,
        K.obj(path),
        (e) =>
          `SET ${e.a('refs')} = ${e.v(0)}${ir(e)}` +
          (retire ? `, ${e.a('retired')} = ${e.v(stamp)}, ${e.a('rk')} = ${e.v(path)}` : cur?.kind === 'wal' ? `, ${e.a('retired')} = ${e.v(stamp)}` : ''),
        (e) => `${e.a('refs')} = ${e.v(refs)}`,
      );
    }
    return txUpdate(
      role,
      K.obj(path),
      (e) => `SET ${e.a('refs')} = ${e.a('refs')} - ${e.v(n)}${ir(e)}`,
      (e) => `${e.a('refs')} > ${e.v(n)}`,
    );
  }

  // ------------------------------------------------------------ catalog: namespaces

  async createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    const org = v.name('org', req?.org);
    const name = v.name('name', req?.name);
    if (this.profile === 'alternator') return this.createNamespaceSingle(org, name, w);
    return this.write('createNamespace', w, async (ctx) => {
      const { namespace: id } = await this.nextIds(['namespace'] as const);
      const ns: Namespace = { id, org, name, state: 'live', created: ctx.stamp };
      return this.attempts(ctx.op, async () => {
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txPut('name', K.nsName(org, name), { ...ns }, (e) => `attribute_not_exists(${e.a('pk')})`),
          txPut('ns', K.ns(id), { ...ns, colls: 0, streams: 0 }, (e) => `attribute_not_exists(${e.a('pk')})`),
          this.chgItem(version, id, 'namespace.created', null, ctx.stamp),
        ], ns);
        if ('result' in out) {
          this.chgDone(version);
          return out.result;
        }
        const existing = out.failed.get('name');
        if (existing) throw errors.alreadyExists(`namespace ${org}/${name}`, Number(existing.id));
        if (out.failed.has('chg')) return this.chgLost();
        if (out.conflict) return AGAIN;
        throw unexpected(ctx.op, out);
      });
    });
  }

  /**
   * The single-item profile's create: the name item is the commit point (attribute_not_exists
   * with ALL_OLD: AlreadyExists carries the existing id; a retry with the same requestId finds
   * its own nonce there and finishes the call). The record by id and the catalog change follow
   * as idempotent single-item writes; README.md says what a crash between them leaves.
   */
  private async createNamespaceSingle(org: string, name: string, w?: WriteContext): Promise<Namespace> {
    return this.write('createNamespace', w, async (ctx) => {
      const { namespace: id } = await this.nextIds(['namespace'] as const);
      let ns: Namespace = { id, org, name, state: 'live', created: ctx.stamp };
      const nameKey = K.nsName(org, name);
      const r = await this.attempts(ctx.op, async () => {
        const w1 = await this.sdk.writeOne(ctx.op, {
          put: {
            Item: { ...toWire({ ...ns, nonce: ctx.requestId ?? null }), pk: { S: nameKey.pk }, sk: { S: nameKey.sk } },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        });
        return !w1.ok && w1.conflict ? AGAIN : w1;
      });
      let chg: number | null = null;
      if (!r.ok) {
        const old = r.old;
        if (!old) throw new Error('dynamodb metastore: a failed name condition returned no item');
        if (ctx.requestId === undefined || old.nonce !== ctx.requestId) throw errors.alreadyExists(`namespace ${org}/${name}`, Number(old.id));
        ns = toNamespace(old);
        chg = old.chg === undefined ? null : Number(old.chg);
      }
      await this.sdk.update({ ...single(K.ns(ns.id), (e) => setAll(e, { ...ns, colls: 0, streams: 0 })) });
      if (chg === null) await this.appendChangeSingle(nameKey, ns.id, 'namespace.created', null, ctx.stamp);
      return ns;
    });
  }

  /** Records a catalog change with single-item writes: the first free version, then a mark on `owner`. */
  private async appendChangeSingle(owner: Key, ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): Promise<void> {
    await this.attempts('catalogChange', async () => {
      const version = await this.chgVersion();
      const k = K.chg(version);
      const r = await this.sdk.writeOne('catalogChange', {
        put: { Item: { ...toWire({ version, ns, kind, id, stamp }), pk: { S: k.pk }, sk: { S: k.sk } }, ConditionExpression: 'attribute_not_exists(pk)' },
      });
      if (!r.ok) return this.chgLost();
      this.chgDone(version);
      await this.sdk.update(single(owner, (e) => `SET ${e.a('chg')} = ${e.v(version)}`));
      return undefined;
    });
  }

  async dropNamespace(ns: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    this.needTx('dropNamespace');
    return this.write('dropNamespace', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const cur = await this.liveNamespace(ns);
        const c = Number(cur.colls ?? 0);
        const s = Number(cur.streams ?? 0);
        if (c > 0 || s > 0) throw errors.invalid('ns', `namespace ${ns} still has ${c} collection(s) and ${s} stream(s); drop them first`);
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txUpdate('ns', K.ns(ns), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) =>
            `${e.a('state')} = ${e.v(LIVE)} AND ${e.a('colls')} = ${e.v(0)} AND ${e.a('streams')} = ${e.v(0)}`),
          txDelete('name', K.nsName(String(cur.org), String(cur.name)), (e) => `${e.a('id')} = ${e.v(ns)}`),
          this.chgItem(version, ns, 'namespace.dropped', null, ctx.stamp),
        ], null);
        if ('result' in out) {
          this.chgDone(version);
          return undefined;
        }
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'ns', 'name')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    ) as Promise<void>;
  }

  async namespace(ns: number, opts?: ReadOptions): Promise<Namespace> {
    v.id('ns', ns);
    this.checkOpen();
    const r = await this.sdk.get(K.ns(ns));
    if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
    return toNamespace(r);
  }

  async namespaceByName(org: string, name: string): Promise<Namespace> {
    v.name('org', org);
    v.name('name', name);
    this.checkOpen();
    const r = await this.sdk.get(K.nsName(org, name));
    if (!r) throw errors.notFound(`namespace ${org}/${name}`);
    return toNamespace({ ...r, state: LIVE });
  }

  async listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    v.name('org', org);
    const p = v.page(page);
    this.checkOpen();
    const rows = await this.listNames(K.nsNamePk(org), '', p);
    return paged(rows.map((r) => toNamespace({ ...r, state: LIVE })), p.limit, (n) => n.name);
  }

  /** Name items under `pk` whose sort key is keyPrefix + name: the page's names, in order. */
  private async listNames(pk: string, keyPrefix: string, p: { prefix: string; after: string | null; limit: number }): Promise<Item[]> {
    const range = nameRange(keyPrefix, p.prefix, p.after);
    if (!range) return [];
    const rows = await this.sdk.query(
      range.lo === ''
        ? { KeyConditionExpression: 'pk = :p AND sk <= :hi', ExpressionAttributeValues: { ':p': { S: pk }, ':hi': { S: range.hi } } }
        : {
            KeyConditionExpression: 'pk = :p AND sk BETWEEN :lo AND :hi',
            ExpressionAttributeValues: { ':p': { S: pk }, ':lo': { S: range.lo }, ':hi': { S: range.hi } },
          },
      p.limit + 2,
    );
    return rows
      .filter((r) => {
        const n = String(r.sk).slice(keyPrefix.length);
        return n.startsWith(p.prefix) && (p.after === null || byteCompare(n, p.after) > 0);
      })
      .slice(0, p.limit + 1);
  }

  // ------------------------------------------------------------ catalog: collections

  async createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const schema = v.schema('schema', req.schema);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    const mret = v.manifestRetention(req.manifestRetentionMs);
    this.needTx('createCollection');
    return this.write('createCollection', w, async (ctx) => {
      const ids = await this.nextIds(['collection', 'stream', 'link'] as const);
      const coll: Collection = {
        ns,
        id: ids.collection,
        name,
        schema,
        schemaVersion: 1,
        streamId: ids.stream,
        linkId: ids.link,
        partitions,
        manifestRetentionMs: mret,
        state: 'live',
        created: ctx.stamp,
      };
      const sname = implicitStreamName(name);
      const notExists: Build = (e) => `attribute_not_exists(${e.a('pk')})`;
      return this.attempts(ctx.op, async () => {
        const version = await this.chgVersion();
        // One transaction of 7 items (spec §2.3); partition heads are lazy.
        const out = await this.submit(ctx, [
          txUpdate('ns', K.ns(ns), (e) => `ADD ${e.a('colls')} ${e.v(1)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          txPut('name', K.collName(ns, name), { id: coll.id }, notExists),
          txPut('coll', K.coll(ns, coll.id), collItem(coll), notExists),
          txPut('sname', K.streamName(ns, sname), { id: coll.streamId }, notExists),
          txPut('stream', K.stream(ns, coll.streamId), streamItem({ ns, id: coll.streamId, name: sname, partitions, retention, implicit: true, state: 'live', created: ctx.stamp }), notExists),
          txPut('link', K.link(ns, coll.linkId), { ns, id: coll.linkId, streamId: coll.streamId, collectionId: coll.id, state: LIVE }, notExists),
          this.chgItem(version, ns, 'collection.created', coll.id, ctx.stamp),
        ], coll);
        if ('result' in out) {
          this.chgDone(version);
          this.cacheParts(ns, coll.streamId, partitions);
          return out.result;
        }
        if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
        const existing = out.failed.get('name');
        if (existing) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, Number(existing.id));
        if (out.failed.has('chg')) return this.chgLost();
        if (out.conflict) return AGAIN;
        throw unexpected(ctx.op, out);
      });
    });
  }

  async dropCollection(ns: number, collection: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    this.needTx('dropCollection');
    return this.write('dropCollection', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const c = toCollection(await this.liveCollectionItem(ns, collection));
        const key = linkPointerKey(c.linkId);
        // Aliases are read first: updateAliases' transaction is conditioned on their `gen`,
        // which every drop bumps, so no alias can be set to this collection after this read.
        const [a, p, sItem] = await this.sdk.batchGet([K.aliases(ns), K.ptr(ns, key), K.stream(ns, c.streamId)]);
        const items: TxItem[] = [
          txUpdate('coll', K.coll(ns, collection), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          txDelete('name', K.collName(ns, c.name), (e) => `${e.a('id')} = ${e.v(collection)}`),
          txUpdate('stream', K.stream(ns, c.streamId), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`),
          txDelete('sname', K.streamName(ns, String(sItem?.name ?? implicitStreamName(c.name))), (e) => `${e.a('id')} = ${e.v(c.streamId)}`),
          txUpdate('link', K.link(ns, c.linkId), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`),
          txUpdate('nsc', K.ns(ns), (e) => `ADD ${e.a('colls')} ${e.v(-1)}`),
        ];
        if (p) {
          items.push(txDelete('ptr', K.ptr(ns, key), (e) => `${e.a('version')} = ${e.v(Number(p.version))}`));
          items.push(txUpdate('pobj', K.obj(String(p.value)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`));
        } else {
          items.push(txCheck('ptr', K.ptr(ns, key), (e) => `attribute_not_exists(${e.a('pk')})`));
        }
        const map = a ? (JSON.parse(String(a.map)) as Record<string, number>) : {};
        const kept = Object.fromEntries(Object.entries(map).filter(([, id]) => id !== collection));
        const changedMap = Object.keys(kept).length !== Object.keys(map).length;
        const aver = Number(a?.version ?? 0);
        items.push(
          txUpdate(
            'aliases',
            K.aliases(ns),
            (e) =>
              `SET ${e.a('version')} = ${e.v(changedMap ? aver + 1 : aver)}, ${e.a('map')} = ${e.v(JSON.stringify(kept))} ADD ${e.a('gen')} ${e.v(1)}`,
            (e) => (a ? `${e.a('version')} = ${e.v(aver)}` : `attribute_not_exists(${e.a('pk')})`),
          ),
        );
        const version = await this.chgVersion();
        items.push(this.chgItem(version, ns, 'collection.dropped', collection, ctx.stamp));
        const out = await this.submit(ctx, items, null);
        if ('result' in out) {
          this.chgDone(version);
          return undefined;
        }
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'coll', 'ptr', 'pobj', 'aliases', 'name', 'sname')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    ) as Promise<void>;
  }

  async collection(ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
    v.id('ns', ns);
    v.id('collection', collection);
    this.checkOpen();
    const r = await this.sdk.get(K.coll(ns, collection));
    if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    return toCollection(r);
  }

  async collectionByName(ns: number, name: string): Promise<Collection> {
    v.id('ns', ns);
    v.name('name', name);
    this.checkOpen();
    const n = await this.sdk.get(K.collName(ns, name));
    const r = n ? await this.sdk.get(K.coll(ns, Number(n.id))) : undefined;
    if (!r || r.state !== LIVE) throw errors.notFound(`collection ${name} in namespace ${ns}`);
    return toCollection(r);
  }

  async listCollections(ns: number, page?: PageRequest): Promise<Page<Collection>> {
    v.id('ns', ns);
    const p = v.page(page);
    this.checkOpen();
    await this.liveNamespace(ns);
    const names = await this.listNames(K.nsPk(ns), 'collname#', p);
    const recs = await this.sdk.batchGet(names.map((r) => K.coll(ns, Number(r.id))));
    const live = recs.filter((r): r is Item => r !== undefined && r.state === LIVE).map(toCollection);
    return paged(live, p.limit, (c) => c.name);
  }

  async updateCollectionSchema(
    ns: number,
    collection: number,
    expectedVersion: number,
    schema: CollectionSchema,
    w?: WriteContext,
  ): Promise<Collection> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.id('expectedVersion', expectedVersion);
    const s = v.schema('schema', schema);
    this.needTx('updateCollectionSchema');
    return this.write('updateCollectionSchema', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const c = toCollection(await this.liveCollectionItem(ns, collection));
        if (c.schemaVersion !== expectedVersion) {
          throw errors.versionMismatch(`schema of collection ${collection}`, expectedVersion, c.schemaVersion);
        }
        if (s.primaryKey !== c.schema.primaryKey) {
          throw errors.invalid('schema.primaryKey', `cannot change from ${c.schema.primaryKey} to ${s.primaryKey}`);
        }
        const next: Collection = { ...c, schema: s, schemaVersion: c.schemaVersion + 1 };
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txUpdate(
            'coll',
            K.coll(ns, collection),
            (e) => `SET ${e.a('schema')} = ${e.v(JSON.stringify(s))}, ${e.a('schemaVersion')} = ${e.v(next.schemaVersion)}`,
            (e) => `${e.a('state')} = ${e.v(LIVE)} AND ${e.a('schemaVersion')} = ${e.v(c.schemaVersion)}`,
          ),
          this.chgItem(version, ns, 'collection.schema', collection, ctx.stamp),
        ], next);
        if ('result' in out) {
          this.chgDone(version);
          return out.result;
        }
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'coll')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    );
  }

  async updateAliases(ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
    v.id('ns', ns);
    v.aliasActions(actions);
    if (expectedVersion !== undefined) v.nonNegInt('expectedVersion', expectedVersion);
    this.needTx('updateAliases');
    return this.write('updateAliases', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        // The alias item first (its version and gen), then the collections it will name.
        const [nsItem, a] = await this.sdk.batchGet([K.ns(ns), K.aliases(ns)]);
        if (!nsItem || nsItem.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
        const version = Number(a?.version ?? 0);
        if (expectedVersion !== undefined && expectedVersion !== version) {
          throw errors.versionMismatch(`aliases of namespace ${ns}`, expectedVersion, version);
        }
        const targets = [...new Set(actions.flatMap((x) => (x.op === 'set' ? [x.collection] : [])))];
        const recs = await this.sdk.batchGet(targets.map((id) => K.coll(ns, id)));
        const map = a ? (JSON.parse(String(a.map)) as Record<string, number>) : {};
        for (const act of actions) {
          if (act.op === 'set') {
            const r = recs[targets.indexOf(act.collection)];
            if (!r || r.state !== LIVE) throw errors.notFound(`collection ${act.collection} in namespace ${ns}`);
            map[act.alias] = act.collection;
          } else {
            delete map[act.alias];
          }
        }
        const n = Object.keys(map).length;
        if (n > MAX_ALIASES) throw errors.limitExceeded('MAX_ALIASES per namespace', MAX_ALIASES, n);
        const result: Aliases = { ns, version: version + 1, aliases: map };
        const cv = await this.chgVersion();
        const gen = Number(a?.gen ?? 0);
        const out = await this.submit(ctx, [
          // A collection named here was live when read after this item; any drop since bumped gen.
          txPut('aliases', K.aliases(ns), { version: version + 1, map: JSON.stringify(map), gen }, (e) =>
            a ? `${e.a('version')} = ${e.v(version)} AND ${e.a('gen')} = ${e.v(gen)}` : `attribute_not_exists(${e.a('pk')})`),
          txCheck('ns', K.ns(ns), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          this.chgItem(cv, ns, 'aliases', null, ctx.stamp),
        ], result);
        if ('result' in out) {
          this.chgDone(cv);
          return out.result;
        }
        if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'aliases')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    );
  }

  async aliases(ns: number): Promise<Aliases> {
    v.id('ns', ns);
    this.checkOpen();
    const [nsItem, a] = await this.sdk.batchGet([K.ns(ns), K.aliases(ns)]);
    if (!nsItem || nsItem.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
    return { ns, version: Number(a?.version ?? 0), aliases: a ? (JSON.parse(String(a.map)) as Record<string, number>) : {} };
  }

  // ------------------------------------------------------------ catalog: streams

  async createStream(req: CreateStream, w?: WriteContext): Promise<Stream> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    this.needTx('createStream');
    return this.write('createStream', w, async (ctx) => {
      const { stream: id } = await this.nextIds(['stream'] as const);
      const s: Stream = { ns, id, name, partitions, retention, implicit: false, state: 'live', created: ctx.stamp };
      const notExists: Build = (e) => `attribute_not_exists(${e.a('pk')})`;
      return this.attempts(ctx.op, async () => {
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txUpdate('ns', K.ns(ns), (e) => `ADD ${e.a('streams')} ${e.v(1)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          txPut('name', K.streamName(ns, name), { id }, notExists),
          txPut('stream', K.stream(ns, id), streamItem(s), notExists),
          this.chgItem(version, ns, 'stream.created', id, ctx.stamp),
        ], s);
        if ('result' in out) {
          this.chgDone(version);
          this.cacheParts(ns, id, partitions);
          return out.result;
        }
        if (out.failed.has('ns')) throw errors.notFound(`namespace ${ns}`);
        const existing = out.failed.get('name');
        if (existing) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, Number(existing.id));
        if (out.failed.has('chg')) return this.chgLost();
        if (out.conflict) return AGAIN;
        throw unexpected(ctx.op, out);
      });
    });
  }

  async dropStream(ns: number, stream: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('stream', stream);
    this.needTx('dropStream');
    return this.write('dropStream', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const s = toStream(await this.liveStreamItem(ns, stream));
        if (s.implicit) throw errors.invalid('stream', `stream ${stream} belongs to a collection; drop the collection instead`);
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txUpdate('stream', K.stream(ns, stream), (e) => `SET ${e.a('state')} = ${e.v(DROPPING)}`, (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          txDelete('name', K.streamName(ns, s.name), (e) => `${e.a('id')} = ${e.v(stream)}`),
          txUpdate('nsc', K.ns(ns), (e) => `ADD ${e.a('streams')} ${e.v(-1)}`),
          this.chgItem(version, ns, 'stream.dropped', stream, ctx.stamp),
        ], null);
        if ('result' in out) {
          this.chgDone(version);
          return undefined;
        }
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'stream', 'name')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    ) as Promise<void>;
  }

  async stream(ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    this.checkOpen();
    const r = await this.sdk.get(K.stream(ns, stream));
    if (!r || (r.state !== LIVE && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    return toStream(r);
  }

  async listStreams(ns: number, page?: PageRequest): Promise<Page<Stream>> {
    v.id('ns', ns);
    const p = v.page(page);
    this.checkOpen();
    await this.liveNamespace(ns);
    const names = await this.listNames(K.nsPk(ns), 'streamname#', p);
    const recs = await this.sdk.batchGet(names.map((r) => K.stream(ns, Number(r.id))));
    const live = recs.filter((r): r is Item => r !== undefined && r.state === LIVE).map(toStream);
    return paged(live, p.limit, (s) => s.name);
  }

  async setRetention(ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    const r = v.retention('retention', retention);
    this.needTx('setRetention');
    return this.write('setRetention', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const s = toStream(await this.liveStreamItem(ns, stream));
        const version = await this.chgVersion();
        const out = await this.submit(ctx, [
          txUpdate(
            'stream',
            K.stream(ns, stream),
            (e) => `SET ${e.a('retMs')} = ${e.v(r.ms)}, ${e.a('retBytes')} = ${e.v(r.bytes)}`,
            (e) => `${e.a('state')} = ${e.v(LIVE)}`,
          ),
          this.chgItem(version, ns, 'stream.retention', stream, ctx.stamp),
        ], { ...s, retention: r });
        if ('result' in out) {
          this.chgDone(version);
          return out.result;
        }
        if (out.failed.has('chg')) return this.chgLost();
        if (DynamoMetaStore.lost(out, 'stream')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    );
  }

  // ------------------------------------------------------------ log: commitWal

  async commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
    v.walCommit(commit);
    keyPath('object', commit.object);
    this.needTx('commitWal');
    this.checkOpen();
    const stamp = v.stamp(w?.stamp, this.clock());
    const requestId = w?.requestId === undefined ? undefined : v.tokenString('requestId', w.requestId);
    const { groupOf, groups } = planGroups(commit.chunks, this.caps.maxChunksPerGroup);
    // Every stream is checked before any group commits: unknown or dropped → NotFound, a
    // partition out of range → InvalidArgument (nothing may be half-written by bad input).
    await this.checkChunkStreams(commit.chunks);
    const assigned: AssignedRange[] = new Array(commit.chunks.length);
    // One transaction per partition group, each with its own commit record (spec §3.1); the
    // (object, group) record is the idempotency key, so no commit-token item is needed.
    for (let g = 0; g < groups; g++) {
      const idx: number[] = [];
      groupOf.forEach((gg, i) => gg === g && idx.push(i));
      const ranges = await this.commitGroup(commit, g, idx, stamp, `${requestId ?? commit.object}\u0000commitWal\u0000${g}`);
      idx.forEach((i, k) => (assigned[i] = ranges[k]!));
    }
    return { object: commit.object, assigned, groups };
  }

  private async checkChunkStreams(chunks: readonly WalChunk[]): Promise<void> {
    const unknown = [...new Set(chunks.map((c) => `${c.ns}/${c.stream}`))].filter((k) => !this.streamParts.has(k));
    if (unknown.length > 0) {
      const keys = unknown.map((k) => k.split('/').map(Number) as [number, number]);
      const recs = await this.sdk.batchGet(keys.map(([ns, s]) => K.stream(ns, s)));
      recs.forEach((r, i) => {
        const [ns, s] = keys[i]!;
        if (!r || r.state !== LIVE) throw errors.notFound(`stream ${s} in namespace ${ns}`);
        this.cacheParts(ns, s, Number(r.partitions));
      });
    }
    for (const c of chunks) {
      const parts = this.streamParts.get(`${c.ns}/${c.stream}`)!;
      if (c.partition >= parts) {
        throw errors.invalid('partition', `stream ${c.stream} has ${parts} partitions; partition ${c.partition} is out of range`);
      }
    }
  }

  private async commitGroup(commit: WalCommit, g: number, idx: number[], stamp: Stamp, tokenBase: string): Promise<AssignedRange[]> {
    const chunks = idx.map((i) => commit.chunks[i]!);
    const age = stamp - commit.objectStamp;
    if (age > WAL_COMMIT_WINDOW_MS) {
      const rec = await this.sdk.get(K.walc(commit.object, g));
      if (rec) return sameRanges(rec, chunks, commit.object, g);
      throw errors.staleCommit(commit.object, age, WAL_COMMIT_WINDOW_MS);
    }
    const streams = [...new Set(chunks.map((c) => `${c.ns}/${c.stream}`))];
    const hk = (c: WalChunk) => `${c.ns}/${c.stream}/${c.partition}`;
    return this.attempts('commitWal', async () => {
      const missing = chunks.filter((c) => !this.headNext.has(hk(c)));
      if (missing.length > 0) {
        const heads = await this.sdk.batchGet(missing.map((c) => K.head(c.ns, c.stream, c.partition)));
        missing.forEach((c, i) => this.cacheHead(c.ns, c.stream, c.partition, Number(heads[i]?.next ?? 0)));
      }
      const ranges: AssignedRange[] = chunks.map((c) => {
        const start = this.headNext.get(hk(c))!;
        return { ns: c.ns, stream: c.stream, partition: c.partition, start, end: start + c.records, group: g };
      });
      const items: TxItem[] = [
        txPut(
          'walc',
          K.walc(commit.object, g),
          { object: commit.object, group: g, ranges: JSON.stringify(ranges), stamp, ttl: ttlAt(stamp + WAL_COMMIT_RECORD_TTL_MS) },
          (e) => `attribute_not_exists(${e.a('pk')})`,
        ),
        // The WAL object's live count: chunks not yet segmented or trimmed (one item per transaction).
        this.refUp('obj', commit.object, 'wal', chunks.length, { stream: streams.length === 1 ? streams[0]! : '*' }),
        ...streams.map((s) => {
          const [ns, id] = s.split('/').map(Number) as [number, number];
          return txCheck(`stream:${s}`, K.stream(ns, id), (e) => `${e.a('state')} = ${e.v(LIVE)}`);
        }),
      ];
      chunks.forEach((c, i) => {
        const r = ranges[i]!;
        items.push(
          txUpdate(
            `head:${i}`,
            K.head(c.ns, c.stream, c.partition),
            (e) =>
              `SET ${e.a('next')} = ${e.v(r.end)}, ${e.a('logStart')} = if_not_exists(${e.a('logStart')}, ${e.v(0)}) ADD ${e.a('bytes')} ${e.v(c.byteEnd - c.byteStart)}`,
            (e) => (r.start === 0 ? `attribute_not_exists(${e.a('next')})` : `${e.a('next')} = ${e.v(r.start)}`),
          ),
          txPut(`entry:${i}`, K.entry(c.ns, c.stream, c.partition, r.start), {
            start: r.start,
            end: r.end,
            kind: 'wal',
            path: commit.object,
            byteStart: c.byteStart,
            byteEnd: c.byteEnd,
            records: c.records,
            group: g,
          }),
        );
      });
      let out;
      try {
        out = await this.sdk.transact('commitWal', items, tokenBase);
      } catch (e) {
        // The outcome is unknown: forget the heads, so a retry reads them again.
        for (const c of chunks) this.headNext.delete(hk(c));
        throw e;
      }
      if (out.ok) {
        chunks.forEach((c, i) => this.cacheHead(c.ns, c.stream, c.partition, ranges[i]!.end));
        return ranges;
      }
      const rec = out.failed.get('walc');
      if (rec) return sameRanges(rec, chunks, commit.object, g);
      if (out.failed.has('obj')) throw errors.claimed(commit.object);
      for (const s of streams) {
        if (out.failed.has(`stream:${s}`)) {
          this.streamParts.delete(s);
          const [ns, id] = s.split('/');
          throw errors.notFound(`stream ${id} in namespace ${ns}`);
        }
      }
      let moved = false;
      chunks.forEach((c, i) => {
        if (out.failed.has(`head:${i}`)) {
          moved = true;
          const old = out.failed.get(`head:${i}`);
          this.headNext.delete(hk(c));
          this.cacheHead(c.ns, c.stream, c.partition, Number(old?.next ?? 0));
        }
      });
      if (moved || out.conflict) return AGAIN;
      throw unexpected('commitWal', out);
    });
  }

  // ------------------------------------------------------------ log: reads

  async partitionIndex(ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    const from = opts?.from === undefined ? 0 : v.nonNegInt('from', opts.from);
    const limit = opts?.limit === undefined ? MAX_INDEX_PAGE : v.nonNegInt('limit', opts.limit, MAX_INDEX_PAGE);
    if (limit < 1) throw errors.invalid('limit', `must be in 1..${MAX_INDEX_PAGE}`);
    this.checkOpen();
    const pk = K.entryPk(ns, stream, partition);
    for (let attempt = 0; attempt < MAX_INTERNAL_ATTEMPTS; attempt++) {
      // Read order (spec §3.3): the head (with the stream), then the entries.
      const [s, hItem] = await this.sdk.batchGet([K.stream(ns, stream), K.head(ns, stream, partition)]);
      if (!s || s.state !== LIVE) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      if (partition >= Number(s.partitions)) throw errors.invalid('partition', `stream ${stream} has ${String(s.partitions)} partitions`);
      const h = toHead(partition, hItem);
      const lo = Math.max(from, h.logStart);
      if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] };
      // The entry covering lo: the last one starting at or below it.
      const below = await this.sdk.query(
        { KeyConditionExpression: 'pk = :p AND sk <= :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(lo) } }, ScanIndexForward: false },
        1,
      );
      const first = below[0] ? toEntry(partition, below[0]) : undefined;
      if (!first || first.end <= lo) {
        // A concurrent trim or swap moved entries under us (Query is read-committed).
        await jitter(attempt);
        continue;
      }
      // Covered entries (a swap still deleting them) are skipped, so fetch a little extra.
      const rows = await this.sdk.query(
        { KeyConditionExpression: 'pk = :p AND sk >= :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(first.start) } } },
        limit + 1 + MAX_SWAP_ENTRIES,
      );
      const entries: IndexEntry[] = [];
      let at = first.start;
      let ok = true;
      for (const r of rows) {
        const e = toEntry(partition, r);
        if (e.start >= h.next || entries.length === limit) break;
        if (e.end <= at) continue; // covered by an entry already taken
        if (e.start !== at) {
          ok = false; // a gap or a partial overlap: the index changed under the read
          break;
        }
        entries.push(e);
        at = e.end;
      }
      if (!ok || (at < h.next && entries.length < limit)) {
        await jitter(attempt);
        continue;
      }
      const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
      if (at < h.next) out.nextFrom = at;
      return out;
    }
    throw errors.retryable('conflict', `partitionIndex: partition ${partition} kept changing under the read`);
  }

  async streamState(ns: number, stream: number): Promise<StreamState> {
    v.id('ns', ns);
    v.id('stream', stream);
    this.checkOpen();
    const s = toStream(await this.liveStreamItem(ns, stream));
    return { stream: s, heads: await this.readHeads(ns, stream, s.partitions) };
  }

  async collectionHead(ns: number, collection: number): Promise<CollectionHead> {
    v.id('ns', ns);
    v.id('collection', collection);
    this.checkOpen();
    const c = toCollection(await this.liveCollectionItem(ns, collection));
    // Read order (spec §3.3): the pointer, then the heads (which only grow).
    const p = await this.sdk.get(K.ptr(ns, linkPointerKey(c.linkId)));
    const heads = await this.readHeads(ns, c.streamId, c.partitions);
    return { collection: c, pointer: p ? toPointer(p) : null, heads };
  }

  // ------------------------------------------------------------ log: swaps, trims, GC reads

  async swapSegment(swap: SegmentSwap, w?: WriteContext): Promise<{ entry: IndexEntry }> {
    v.segmentSwap(swap);
    keyPath('path', swap.path);
    this.needTx('swapSegment');
    const { ns, stream, partition } = swap;
    return this.write('swapSegment', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const [s, hItem] = await this.sdk.batchGet([K.stream(ns, stream), K.head(ns, stream, partition)]);
        if (!s || s.state !== LIVE) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
        if (partition >= Number(s.partitions)) throw errors.invalid('partition', `stream ${stream} has ${String(s.partitions)} partitions`);
        const rows = (
          await this.sdk.query(
            {
              KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
              ExpressionAttributeValues: {
                ':p': { S: K.entryPk(ns, stream, partition) },
                ':a': { S: K.entrySk(swap.start) },
                ':b': { S: K.entrySk(swap.end - 1) },
              },
            },
            this.caps.maxSwapEntries + 1,
          )
        ).map((r) => toEntry(partition, r));
        const first = rows[0];
        if (first && first.kind === 'segment' && first.path === swap.path && first.start === swap.start && first.end === swap.end) {
          return { entry: first }; // a retry of a swap that applied
        }
        if (rows.length > this.caps.maxSwapEntries) throw errors.limitExceeded('maxSwapEntries', this.caps.maxSwapEntries, rows.length);
        const h = toHead(partition, hItem);
        if (swap.start < h.logStart) throw errors.notFound(`offsets from ${swap.start} of partition ${partition} (trimmed to ${h.logStart})`);
        if (swap.end > h.next) throw errors.invalid('end', `is past the partition's head (${h.next})`);
        const last = rows[rows.length - 1];
        let contiguous = !!first && first.start === swap.start && !!last && last.end === swap.end;
        for (let i = 1; contiguous && i < rows.length; i++) contiguous = rows[i - 1]!.end === rows[i]!.start;
        if (!contiguous) throw errors.invalid('start', `[${swap.start}, ${swap.end}) does not start and end on index entry boundaries`);
        if (rows.some((e) => e.path === swap.path)) throw errors.invalid('path', `${swap.path} is already indexed in [${swap.start}, ${swap.end})`);
        let records = 0;
        let oldBytes = 0;
        const perPath = new Map<string, number>();
        for (const e of rows) {
          records += e.records;
          oldBytes += e.byteEnd - e.byteStart;
          perPath.set(e.path, (perPath.get(e.path) ?? 0) + 1);
        }
        const paths = [...perPath.keys()];
        const objs = await this.sdk.batchGet(paths.map((p) => K.obj(p)));
        const entry: IndexEntry = {
          partition,
          start: swap.start,
          end: swap.end,
          kind: 'segment',
          path: swap.path,
          byteStart: swap.byteStart,
          byteEnd: swap.byteEnd,
          records,
        };
        const items: TxItem[] = [
          txUpdate('head', K.head(ns, stream, partition), (e) => `ADD ${e.a('bytes')} ${e.v(swap.byteEnd - swap.byteStart - oldBytes)}`, (e) =>
            `${e.a('logStart')} <= ${e.v(swap.start)} AND ${e.a('next')} >= ${e.v(swap.end)}`),
          txCheck('stream', K.stream(ns, stream), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          // The segment entry takes the first replaced entry's key: one item, overwritten.
          txPut('e:0', K.entry(ns, stream, partition, swap.start), entryItem(entry), (e) =>
            `${e.a('path')} = ${e.v(first!.path)} AND ${e.a('end')} = ${e.v(first!.end)}`),
          ...rows.slice(1).map((r, i) =>
            txDelete(`e:${i + 1}`, K.entry(ns, stream, partition, r.start), (e) => `${e.a('path')} = ${e.v(r.path)} AND ${e.a('end')} = ${e.v(r.end)}`),
          ),
          ...paths.map((p, i) => this.refDown(`o:${i}`, p, perPath.get(p)!, objs[i], ctx.stamp, true)),
          this.refUp('seg', swap.path, 'segment', 1, { stream: `${ns}/${stream}` }),
        ];
        const out = await this.submit(ctx, items, { entry });
        if ('result' in out) return out.result;
        if (out.failed.has('seg')) throw errors.claimed(swap.path);
        if (out.failed.has('stream')) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
        if (out.conflict || out.failed.size > 0) return AGAIN; // the head or entries moved: re-read
        throw unexpected(ctx.op, out);
      }),
    );
  }

  async trimPartition(ns: number, stream: number, partition: number, logStart: number, w?: WriteContext): Promise<PartitionHead> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    v.nonNegInt('logStart', logStart);
    this.needTx('trimPartition');
    return this.write('trimPartition', w, async (ctx) => {
      const s = toStream(await this.liveStreamItem(ns, stream));
      if (partition >= s.partitions) throw errors.invalid('partition', `stream ${stream} has ${s.partitions} partitions`);
      // 1. Move logStart forward (one conditional write): readers stop at once at the new start.
      //    The call's result is the head as that write left it: the trim's linearization point.
      const head = await this.attempts(ctx.op, async () => {
        const h = toHead(partition, await this.sdk.get(K.head(ns, stream, partition)));
        if (logStart > h.next) throw errors.invalid('logStart', `${logStart} is past the partition's head (${h.next})`);
        if (logStart <= h.logStart) return h; // never backward; a repeat is a no-op
        const r = await this.sdk.writeOne(ctx.op, {
          update: single(
            K.head(ns, stream, partition),
            (e) => `SET ${e.a('logStart')} = ${e.v(logStart)}`,
            (e) => `${e.a('logStart')} < ${e.v(logStart)} AND ${e.a('next')} >= ${e.v(logStart)}`,
          ),
        });
        return r.ok ? toHead(partition, r.item) : AGAIN;
      });
      // 2. Delete the entries that end at or below it, in idempotent chunks; their bytes leave
      //    the head as they go (as if with the move: concurrent commits only add later offsets).
      const swept = await this.sweep(ctx, ns, stream, partition, head.logStart);
      return { ...head, bytes: head.bytes - swept };
    });
  }

  /** Deletes a partition's entries ending at or below `upTo`, releasing their objects' counts. */
  private async sweep(ctx: Ctx, ns: number, stream: number, partition: number, upTo: number): Promise<number> {
    const pk = K.entryPk(ns, stream, partition);
    let swept = 0;
    // Bounded: every round deletes at least one entry or ends; a partition holds finitely many.
    for (let round = 0; round < 1_000_000; round++) {
      const done = await this.attempts(ctx.op, async () => {
        const rows = (
          await this.sdk.query(
            { KeyConditionExpression: 'pk = :p AND sk < :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(upTo) } } },
            TRIM_CHUNK_ENTRIES,
          )
        )
          .map((r) => toEntry(partition, r))
          .filter((e) => e.end <= upTo);
        if (rows.length === 0) return true;
        const perPath = new Map<string, number>();
        let bytes = 0;
        for (const e of rows) {
          perPath.set(e.path, (perPath.get(e.path) ?? 0) + 1);
          bytes += e.byteEnd - e.byteStart;
        }
        const paths = [...perPath.keys()];
        const objs = await this.sdk.batchGet(paths.map((p) => K.obj(p)));
        const items: TxItem[] = [
          ...rows.map((r, i) => txDelete(`e:${i}`, K.entry(ns, stream, partition, r.start), (e) => `${e.a('path')} = ${e.v(r.path)}`)),
          ...paths.map((p, i) => this.refDown(`o:${i}`, p, perPath.get(p)!, objs[i], ctx.stamp, true)),
          txUpdate('head', K.head(ns, stream, partition), (e) => `ADD ${e.a('bytes')} ${e.v(-bytes)}`, (e) => `attribute_exists(${e.a('pk')})`),
        ];
        const out = await this.sdk.transact(ctx.op, items, `${ctx.tokenBase}\u0000sweep\u0000${rows[0]!.start}`);
        if (!out.ok) return AGAIN; // another sweep or swap got there first: read again
        swept += bytes;
        return rows.length < TRIM_CHUNK_ENTRIES;
      });
      if (done) return swept;
    }
    return swept;
  }

  async segmentReferenced(ns: number, stream: number, path: string): Promise<boolean> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.path('path', path);
    this.checkOpen();
    if (Buffer.byteLength(path) > MAX_KEY_PATH_BYTES) return false;
    // The object's index-reference count, kept in the transactions that change entries (spec §2.3).
    const o = await this.sdk.get(K.obj(path));
    return Number(o?.irefs ?? 0) > 0 && (o?.stream === `${ns}/${stream}` || o?.stream === '*');
  }

  async retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    const p = v.page(page);
    this.checkOpen();
    const range = nameRange('', p.prefix, p.after);
    if (!range) return { items: [] };
    // Each shard's retired, unclaimed WAL objects, by path, from the `retired` index (an LSI:
    // consistent reads); merged across shards in path order.
    const all: Item[] = [];
    for (let shard = 0; shard < OBJ_SHARDS; shard++) {
      all.push(
        ...(await this.sdk.query(
          {
            IndexName: RETIRED_INDEX,
            ...(range.lo === ''
              ? { KeyConditionExpression: 'pk = :p AND rk <= :hi', ExpressionAttributeValues: { ':p': { S: K.objPk(shard) }, ':hi': { S: range.hi } } }
              : {
                  KeyConditionExpression: 'pk = :p AND rk BETWEEN :lo AND :hi',
                  ExpressionAttributeValues: { ':p': { S: K.objPk(shard) }, ':lo': { S: range.lo }, ':hi': { S: range.hi } },
                }),
          },
          p.limit + 2,
        )),
      );
    }
    const rows = all
      .filter((r) => {
        const path = String(r.path);
        return (
          path.startsWith(p.prefix) &&
          (p.after === null || byteCompare(path, p.after) > 0) &&
          Number(r.refs ?? 0) === 0 &&
          r.claimOwner === undefined &&
          r.deleted === undefined
        );
      })
      .sort((a, b) => byteCompare(String(a.path), String(b.path)))
      .map((r) => ({ path: String(r.path), retired: Number(r.retired) }));
    return paged(rows, p.limit, (r) => r.path);
  }

  // ------------------------------------------------------------ pointers

  async casPointer(
    ns: number,
    key: string,
    expectedVersion: number | null,
    value: string,
    opts?: { fence?: Fence } & WriteContext,
  ): Promise<Pointer> {
    v.id('ns', ns);
    v.key('key', key);
    if (expectedVersion !== null) v.id('expectedVersion', expectedVersion);
    v.path('value', value);
    keyPath('value', value);
    const fence = opts?.fence;
    if (fence) {
      v.leaseScope(fence.scope);
      v.key('fence.key', fence.key);
      v.id('fence.epoch', fence.epoch);
    }
    const link = parseLinkPointerKey(key);
    if (this.profile === 'alternator') {
      if (fence || link !== null) this.needTx('casPointer with a fence or on a link key');
      return this.casPointerSingle(ns, key, expectedVersion, value, opts);
    }
    return this.write('casPointer', opts, (ctx) =>
      this.attempts(ctx.op, async () => {
        const keys: Key[] = [K.ptr(ns, key), link !== null ? K.link(ns, link) : K.ns(ns)];
        if (fence) keys.push(K.lease(fence.scope, fence.key));
        const [cur, owner, l] = await this.sdk.batchGet(keys);
        if (link !== null) {
          if (!owner || owner.state !== LIVE) throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
        } else if (!owner || owner.state !== LIVE) {
          throw errors.notFound(`namespace ${ns}`);
        }
        if (fence && (!l || Number(l.epoch) !== fence.epoch)) {
          throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, Number(l?.epoch ?? 0), (l?.owner as string | undefined) ?? null);
        }
        const curVersion = cur ? Number(cur.version) : null;
        if (curVersion !== expectedVersion) throw errors.versionMismatch(`pointer ${key}`, expectedVersion, curVersion);
        const version = (curVersion ?? 0) + 1;
        const p: Pointer = { ns, key, version, value, stamp: ctx.stamp };
        const items: TxItem[] = [
          txPut('ptr', K.ptr(ns, key), { ns, key, version, value, stamp: ctx.stamp }, (e) =>
            cur ? `${e.a('version')} = ${e.v(curVersion!)}` : `attribute_not_exists(${e.a('pk')})`),
          link !== null
            ? txCheck('owner', K.link(ns, link), (e) => `${e.a('state')} = ${e.v(LIVE)}`)
            : txCheck('owner', K.ns(ns), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        ];
        if (fence) items.push(txCheck('lease', K.lease(fence.scope, fence.key), (e) => `${e.a('epoch')} = ${e.v(fence.epoch)}`));
        const oldValue = cur ? String(cur.value) : null;
        if (oldValue !== value) {
          items.push(this.refUp('newobj', value, 'manifest', 1));
          if (oldValue !== null) {
            items.push(txUpdate('oldobj', K.obj(oldValue), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`));
          }
        }
        if (link !== null) {
          // Pointer history, so tags can name any retained manifest (contract: createTag).
          const retentionMs = (await this.linkInfo(ns, link, Number(owner.collectionId))).retentionMs;
          items.push(txPut('hnew', K.ptrHist(ns, key, version), { version, value }));
          if (cur) {
            items.push(
              txUpdate('hold', K.ptrHist(ns, key, curVersion!), (e) =>
                `SET ${e.a('version')} = ${e.v(curVersion!)}, ${e.a('value')} = ${e.v(String(cur.value))}, ${e.a('superseded')} = ${e.v(ctx.stamp)}, ${e.a('ttl')} = ${e.v(ttlAt(ctx.stamp + retentionMs + MAX_CLOCK_SKEW_MS))}`),
            );
          }
        }
        const out = await this.submit(ctx, items, p);
        if ('result' in out) return out.result;
        if (out.failed.has('owner')) {
          throw link !== null ? errors.notFound(`collection of link ${link} in namespace ${ns}`) : errors.notFound(`namespace ${ns}`);
        }
        const lostLease = out.failed.get('lease');
        if (out.failed.has('lease')) {
          throw errors.fenceMismatch(`pointer ${key}`, fence!.epoch, Number(lostLease?.epoch ?? 0), (lostLease?.owner as string | undefined) ?? null);
        }
        if (out.failed.has('newobj')) throw errors.claimed(value);
        if (out.failed.has('ptr')) {
          const now = out.failed.get('ptr');
          throw errors.versionMismatch(`pointer ${key}`, expectedVersion, now ? Number(now.version) : null);
        }
        if (DynamoMetaStore.lost(out, 'oldobj')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    );
  }

  private async linkInfo(ns: number, link: number, collection: number): Promise<{ collection: number; retentionMs: number }> {
    const k = `${ns}/${link}`;
    let info = this.links.get(k);
    if (!info) {
      const c = await this.sdk.get(K.coll(ns, collection));
      info = { collection, retentionMs: Number(c?.mret ?? DEFAULT_MANIFEST_RETENTION_MS) };
      if (this.links.size > MAX_CACHE_ENTRIES) this.links.clear();
      this.links.set(k, info);
    }
    return info;
  }

  /** The single-item profile: one conditional UpdateItem; the writer's nonce resolves retries. */
  private async casPointerSingle(ns: number, key: string, expectedVersion: number | null, value: string, w?: WriteContext): Promise<Pointer> {
    return this.write('casPointer', w, async (ctx) => {
      const version = (expectedVersion ?? 0) + 1;
      const nonce = ctx.requestId ?? randomUUID();
      const r = await this.attempts(ctx.op, async () => {
        const w1 = await this.sdk.writeOne(ctx.op, {
          update: single(
            K.ptr(ns, key),
            (e) => setAll(e, { ns, key, version, value, stamp: ctx.stamp, nonce }),
            (e) => (expectedVersion === null ? `attribute_not_exists(${e.a('pk')})` : `${e.a('version')} = ${e.v(expectedVersion)}`),
          ),
        });
        return !w1.ok && w1.conflict ? AGAIN : w1;
      });
      if (r.ok) return { ns, key, version, value, stamp: ctx.stamp };
      // Our own earlier attempt applied if the item carries our nonce (spec §2.3).
      if (r.old && ctx.requestId !== undefined && r.old.nonce === ctx.requestId) return toPointer(r.old);
      throw errors.versionMismatch(`pointer ${key}`, expectedVersion, r.old ? Number(r.old.version) : null);
    });
  }

  async pointer(ns: number, key: string): Promise<Pointer | null> {
    v.id('ns', ns);
    v.key('key', key);
    this.checkOpen();
    const r = await this.sdk.get(K.ptr(ns, key));
    return r ? toPointer(r) : null;
  }

  // ------------------------------------------------------------ leases (one conditional UpdateItem each)

  /**
   * Reads the lease, decides, and writes with a condition on exactly what was read (owner,
   * epoch and deadline, spec §2.3). A lost race returns the item as it is now (ALL_OLD) and
   * the decision is made again. The writer's nonce in the item resolves a retry after an
   * unknown outcome.
   */
  private async leaseWrite<T>(
    op: string,
    scope: LeaseScope,
    key: string,
    w: WriteContext | undefined,
    decide: (cur: Lease | null, stamp: Stamp) => { set: Lease } | { result: T },
    done: (l: Lease) => T,
  ): Promise<T> {
    return this.write(op, w, async (ctx) => {
      let item: Item | null | undefined;
      return this.attempts(op, async () => {
        if (item === undefined) item = (await this.sdk.get(K.lease(scope, key))) ?? null;
        const cur = item ? toLease(scope, key, item) : null;
        if (item && ctx.requestId !== undefined && item.nonce === ctx.requestId && item.nonceOp === op) return done(cur!);
        const d = decide(cur, ctx.stamp);
        if ('result' in d) return d.result;
        const l = d.set;
        const nonce = ctx.requestId ?? randomUUID();
        const r = await this.sdk.writeOne(op, {
          update: single(
            K.lease(scope, key),
            (e) =>
              `SET ${e.a('epoch')} = ${e.v(l.epoch)}, ${e.a('deadline')} = ${e.v(l.deadline)}, ${e.a('nonce')} = ${e.v(nonce)}, ${e.a('nonceOp')} = ${e.v(op)}` +
              (l.owner === null ? ` REMOVE ${e.a('owner')}` : `, ${e.a('owner')} = ${e.v(l.owner)}`),
            (e) =>
              cur === null
                ? `attribute_not_exists(${e.a('pk')})`
                : `${e.a('epoch')} = ${e.v(cur.epoch)} AND ${e.a('deadline')} = ${e.v(cur.deadline)} AND ` +
                  (cur.owner === null ? `attribute_not_exists(${e.a('owner')})` : `${e.a('owner')} = ${e.v(cur.owner)}`),
          ),
        });
        if (r.ok) return done(l);
        item = r.conflict ? undefined : r.old;
        return AGAIN;
      });
    });
  }

  async acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.ttl(ttlMs);
    return this.leaseWrite(
      'acquireLease',
      scope,
      key,
      w,
      (cur, stamp) => {
        const alive = cur !== null && cur.owner !== null && cur.deadline >= stamp;
        if (alive && cur.owner === owner) return { set: { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) } };
        if (alive) throw errors.leaseHeld(key, cur.owner!, cur.epoch, cur.deadline);
        // Free, released or expired (judged on the proposer's stamp, spec §3.2): take over.
        return { set: { scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs } };
      },
      (l) => l,
    );
  }

  async renewLease(scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    v.ttl(ttlMs);
    return this.leaseWrite(
      'renewLease',
      scope,
      key,
      w,
      (cur, stamp) => {
        if (!cur || cur.owner !== owner || cur.epoch !== epoch || cur.deadline < stamp) {
          throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
        }
        return { set: { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) } };
      },
      (l) => l,
    );
  }

  async releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    return this.leaseWrite<void>(
      'releaseLease',
      scope,
      key,
      w,
      (cur) => {
        if (!cur || cur.epoch !== epoch || (cur.owner !== owner && cur.owner !== null)) {
          throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
        }
        if (cur.owner === null) return { result: undefined }; // already released: idempotent
        return { set: { ...cur, owner: null, deadline: 0 } };
      },
      () => undefined,
    );
  }

  async lease(scope: LeaseScope, key: string): Promise<Lease | null> {
    v.leaseScope(scope);
    v.key('key', key);
    this.checkOpen();
    const r = await this.sdk.get(K.lease(scope, key));
    return r ? toLease(scope, key, r) : null;
  }

  // ------------------------------------------------------------ tags

  async createTag(ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    v.id('manifestVersion', manifestVersion);
    this.needTx('createTag');
    return this.write('createTag', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const c = toCollection(await this.liveCollectionItem(ns, collection));
        const key = linkPointerKey(c.linkId);
        const hist = await this.sdk.get(K.ptrHist(ns, key, manifestVersion));
        const cutoff = ctx.stamp - c.manifestRetentionMs;
        // Retained: the current manifest, or one superseded less than manifestRetentionMs ago (judged on the stamp).
        if (!hist || (hist.superseded !== undefined && Number(hist.superseded) < cutoff)) {
          throw errors.notFound(`retained manifest version ${manifestVersion} of collection ${collection}`);
        }
        const tag: Tag = { ns, collection, name, manifestVersion, manifestPath: String(hist.value), created: ctx.stamp, rewrittenBy: null };
        const out = await this.submit(ctx, [
          txCheck('coll', K.coll(ns, collection), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
          txCheck('hist', K.ptrHist(ns, key, manifestVersion), (e) =>
            `attribute_exists(${e.a('pk')}) AND (attribute_not_exists(${e.a('superseded')}) OR ${e.a('superseded')} >= ${e.v(cutoff)})`),
          txPut('tag', K.tag(ns, collection, name), { ns, collection, name, version: manifestVersion, path: tag.manifestPath, created: ctx.stamp, rewrittenBy: null }, (e) =>
            `attribute_not_exists(${e.a('pk')})`),
          this.refUp('obj', tag.manifestPath, 'manifest', 1),
        ], tag);
        if ('result' in out) return out.result;
        const existing = out.failed.get('tag');
        if (existing) throw errors.alreadyExists(`tag ${name} of collection ${collection}`, Number(existing.version));
        if (out.failed.has('obj')) throw errors.claimed(tag.manifestPath);
        if (DynamoMetaStore.lost(out, 'coll', 'hist')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    );
  }

  async dropTag(ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    this.needTx('dropTag');
    return this.write('dropTag', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        await this.liveCollectionItem(ns, collection);
        const t = await this.sdk.get(K.tag(ns, collection, name));
        if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
        const out = await this.submit(ctx, [
          txDelete('tag', K.tag(ns, collection, name), (e) => `${e.a('path')} = ${e.v(String(t.path))}`),
          txUpdate('obj', K.obj(String(t.path)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
          txCheck('coll', K.coll(ns, collection), (e) => `${e.a('state')} = ${e.v(LIVE)}`),
        ], null);
        if ('result' in out) return undefined;
        if (DynamoMetaStore.lost(out, 'tag', 'obj', 'coll')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    ) as Promise<void>;
  }

  async listTags(ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
    v.id('ns', ns);
    v.id('collection', collection);
    const p = v.page(page);
    this.checkOpen();
    await this.liveCollectionItem(ns, collection);
    const rows = await this.listNames(K.tagPk(ns, collection), '', p);
    return paged(rows.map(toTag), p.limit, (t) => t.name);
  }

  // ------------------------------------------------------------ GC (spec §3.2.3)

  async claimObject(path: string, owner: string, w?: WriteContext): Promise<ClaimResult> {
    v.path('path', path);
    v.tokenString('owner', owner);
    keyPath('path', path);
    this.needTx('claimObject');
    return this.write('claimObject', w, async (ctx) => {
      const result: ClaimResult = { claimed: true, path, owner, stamp: ctx.stamp };
      // The claim is the object's reference item itself: set only while nothing references it,
      // and every reference addition requires it absent, so the two serialise (spec §3.2.3).
      const claim = txUpdate(
        'obj',
        K.obj(path),
        (e) =>
          `SET ${e.a('path')} = ${e.v(path)}, ${e.a('claimOwner')} = ${e.v(owner)}, ${e.a('claimStamp')} = ${e.v(ctx.stamp)}, ` +
          // No kind: the path's first real reference sets it (a WAL object must still retire).
          `${e.a('refs')} = if_not_exists(${e.a('refs')}, ${e.v(0)}) REMOVE ${e.a('rk')}`,
        (e) =>
          `(attribute_not_exists(${e.a('refs')}) OR ${e.a('refs')} = ${e.v(0)}) AND attribute_not_exists(${e.a('claimOwner')}) AND attribute_not_exists(${e.a('deleted')})`,
      );
      return this.attempts(ctx.op, async () => {
        const out = await this.submit(ctx, [claim], result);
        if ('result' in out) return out.result;
        if (out.failed.has('obj')) {
          const old = out.failed.get('obj');
          const refs = Number(old?.refs ?? 0);
          if (refs > 0) return { claimed: false, path, reason: 'referenced', refs } satisfies ClaimResult;
          return { claimed: false, path, reason: 'claimed', refs: 0 } satisfies ClaimResult;
        }
        if (out.conflict) return AGAIN;
        throw unexpected(ctx.op, out);
      });
    });
  }

  async releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
    v.path('path', path);
    v.tokenString('owner', owner);
    if (typeof opts?.deleted !== 'boolean') throw errors.invalid('deleted', 'must be true or false');
    keyPath('path', path);
    this.needTx('releaseClaim');
    return this.write('releaseClaim', w, (ctx) =>
      this.attempts(ctx.op, async () => {
        const r = await this.sdk.get(K.obj(path));
        if (r && r.deleted !== undefined && opts.deleted) return undefined; // a repeat
        if (!r || r.claimOwner !== owner) throw errors.notFound(`claim by ${owner} on ${path}`);
        const relist = !opts.deleted && r.kind === 'wal' && r.retired !== undefined && Number(r.refs ?? 0) === 0;
        const out = await this.submit(ctx, [
          txUpdate(
            'obj',
            K.obj(path),
            (e) =>
              opts.deleted
                ? // A tombstone: the path stays unreferenceable until TTL removes it (after the commit-record TTL).
                  `SET ${e.a('deleted')} = ${e.v(true)}, ${e.a('claimStamp')} = ${e.v(ctx.stamp)}, ${e.a('ttl')} = ${e.v(ttlAt(ctx.stamp + WAL_COMMIT_RECORD_TTL_MS))} REMOVE ${e.a('claimOwner')}, ${e.a('rk')}, ${e.a('retired')}`
                : `REMOVE ${e.a('claimOwner')}, ${e.a('claimStamp')}` + (relist ? ` SET ${e.a('rk')} = ${e.v(path)}` : ''),
            (e) => `${e.a('claimOwner')} = ${e.v(owner)}`,
          ),
        ], null);
        if ('result' in out) return undefined;
        if (DynamoMetaStore.lost(out, 'obj')) return AGAIN;
        throw unexpected(ctx.op, out);
      }),
    ) as Promise<void>;
  }

  async objectRef(path: string): Promise<ObjectRef | null> {
    v.path('path', path);
    this.checkOpen();
    if (Buffer.byteLength(path) > MAX_KEY_PATH_BYTES) return null;
    const r = await this.sdk.get(K.obj(path));
    if (!r) return null;
    return {
      path,
      refs: Number(r.refs ?? 0),
      claim: r.claimOwner === undefined ? null : { owner: String(r.claimOwner), stamp: Number(r.claimStamp ?? 0) },
    };
  }

  // ------------------------------------------------------------ change feed

  async catalogVersion(): Promise<number> {
    this.checkOpen();
    const version = await this.currentVersion();
    this.chgHint = Math.max(this.chgHint ?? 0, version);
    return version;
  }

  async changesSince(version: number, limit?: number): Promise<ChangesPage> {
    v.nonNegInt('version', version);
    const lim = limit === undefined ? MAX_PAGE_LIMIT : v.nonNegInt('limit', limit, MAX_PAGE_LIMIT);
    if (lim < 1) throw errors.invalid('limit', `must be in 1..${MAX_PAGE_LIMIT}`);
    this.checkOpen();
    const rows = await this.changesAfter(version, lim + 1);
    const changes = rows.slice(0, lim).map(toChange);
    const more = rows.length > lim;
    const last = changes[changes.length - 1];
    return { changes, version: last ? last.version : Math.max(version, await this.catalogVersion()), more };
  }

  private changesAfter(version: number, max: number): Promise<Item[]> {
    return this.sdk.query(
      { KeyConditionExpression: 'pk = :p AND sk > :v', ExpressionAttributeValues: { ':p': { S: K.chgPk() }, ':v': { S: K.chg(version).sk } } },
      max,
    );
  }

  async watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    if (scope !== 'catalog') v.id('scope.ns', scope?.ns);
    v.nonNegInt('since', since);
    const timeoutMs = v.nonNegInt('timeoutMs', opts?.timeoutMs, MAX_WATCH_MS);
    const deadline = Date.now() + timeoutMs;
    // No native primitive (spec §2.3): wake on this handle's own writes, otherwise poll,
    // starting at WATCH_POLL_MIN_MS and backing off to WATCH_POLL_MAX_MS. Each probe reads
    // only the changes after the last one it saw (versions are dense and commit in order),
    // so the scan is bounded by what is new.
    let seen = since;
    let pause = WATCH_POLL_MIN_MS;
    for (;;) {
      if (this.closed || opts.signal?.aborted) return { version: this.closed ? seen : await this.catalogVersion(), changed: false };
      const rows = await this.changesAfter(seen, MAX_PAGE_LIMIT);
      if (rows.some((r) => scope === 'catalog' || Number(r.ns) === scope.ns)) return { version: await this.catalogVersion(), changed: true };
      if (rows.length > 0) seen = Number(rows[rows.length - 1]!.version);
      if (rows.length === MAX_PAGE_LIMIT) continue; // more to read before waiting
      const left = deadline - Date.now();
      if (left <= 0) return { version: await this.catalogVersion(), changed: false };
      await this.waitForChange(Math.min(left, pause), opts.signal);
      pause = Math.min(WATCH_POLL_MAX_MS, pause * 2);
    }
  }

  private async waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    const ac = new AbortController();
    const wake = () => ac.abort();
    this.changed.once('change', wake);
    signal?.addEventListener('abort', wake, { once: true });
    try {
      await sleep(ms, undefined, { signal: ac.signal });
    } catch {
      // woken early
    } finally {
      this.changed.off('change', wake);
      signal?.removeEventListener('abort', wake);
    }
  }

  // ------------------------------------------------------------ janitor

  /**
   * Deletes what dropped collections and streams of a namespace leave behind (spec §2.3):
   * index entries (releasing their objects' counts), heads, tags, pointer history, then the
   * records themselves. Idempotent and resumable: run it again after any failure.
   */
  async janitor(ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
    v.id('ns', ns);
    this.needTx('janitor');
    return this.write('janitor', w, async (ctx) => {
      const rows = await this.sdk.query({
        KeyConditionExpression: 'pk = :p',
        FilterExpression: '#s = :d',
        ExpressionAttributeNames: { '#s': 'state' },
        ExpressionAttributeValues: { ':p': { S: K.nsPk(ns) }, ':d': { S: DROPPING } },
      });
      let collections = 0;
      let streams = 0;
      for (const r of rows.filter((x) => String(x.sk).startsWith('stream#'))) {
        const s = toStream(r);
        for (let p = 0; p < s.partitions; p++) {
          await this.sweep(ctx, ns, s.id, p, Number.MAX_SAFE_INTEGER);
        }
        const heads = await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.headPk(ns, s.id) } } });
        await this.deleteAll(heads.map((h) => ({ pk: String(h.pk), sk: String(h.sk) })));
        streams++;
      }
      for (const r of rows.filter((x) => String(x.sk).startsWith('coll#'))) {
        const c = toCollection(r);
        for (const t of await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.tagPk(ns, c.id) } } })) {
          const out = await this.sdk.transact(ctx.op, [
            txDelete('tag', K.tag(ns, c.id, String(t.sk)), (e) => `attribute_exists(${e.a('pk')})`),
            txUpdate('obj', K.obj(String(t.path)), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`),
          ], `${ctx.tokenBase}\u0000tag\u0000${c.id}\u0000${String(t.sk)}`);
          if (!out.ok && !out.failed.has('tag')) throw errors.retryable('conflict', 'janitor: a tag changed under it; run it again');
        }
        const ptrPk = K.ptr(ns, linkPointerKey(c.linkId)).pk;
        const hist = await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: ptrPk } } });
        await this.deleteAll(hist.map((h) => ({ pk: String(h.pk), sk: String(h.sk) })));
        await this.deleteAll([K.link(ns, c.linkId)]);
        collections++;
      }
      // Records last, so a janitor that stops half-way finds its work again.
      await this.deleteAll(rows.filter((x) => /^(stream|coll)#/.test(String(x.sk))).map((x) => ({ pk: String(x.pk), sk: String(x.sk) })));
      // Sweeps run in idempotent chunks until done, so one call finishes the namespace.
      return { collections, streams, done: true };
    });
  }

  private async deleteAll(keys: Key[]): Promise<void> {
    for (const k of keys) {
      await this.sdk.writeOne('janitor', { delete: { Key: { pk: { S: k.pk }, sk: { S: k.sk } } } });
    }
  }
}

// ------------------------------------------------------------ mapping helpers

/** Calls whose typed refusal may mean "an earlier attempt of this requestId applied". */
const LAZY_TOKEN_CHECK: ReadonlySet<string> = new Set([
  'NotFound',
  'AlreadyExists',
  'VersionMismatch',
  'FenceMismatch',
  'LeaseHeld',
  'Claimed',
  'InvalidArgument',
]);

function unexpected(op: string, c: Cancelled): Error {
  return new Error(`dynamodb metastore: ${op} was cancelled for an unexpected reason: ${JSON.stringify([...c.failed.keys()])}`);
}

function ttlAt(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** Object paths are sort keys: DynamoDB allows 1,024 bytes (checked before sending). */
function keyPath(field: string, path: string): void {
  const n = Buffer.byteLength(path, 'utf8');
  if (n > MAX_KEY_PATH_BYTES) throw errors.limitExceeded(`${field}: DynamoDB key bytes`, MAX_KEY_PATH_BYTES, n);
}

function implicitStreamName(collection: string): string {
  // '_' cannot start a user-chosen name (NAME_PATTERN), so implicit names never collide.
  return `_c_${collection}`;
}

function paged<T>(rows: T[], limit: number, cursor: (t: T) => string): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: cursor(items[items.length - 1]!) };
}

function setAll(e: Expr, fields: Record<string, string | number | boolean | null>): string {
  return 'SET ' + Object.entries(fields).map(([k, x]) => `${e.a(k)} = ${e.v(x)}`).join(', ');
}

function toWire(fields: Record<string, string | number | boolean | null>) {
  const out: Record<string, import('@aws-sdk/client-dynamodb').AttributeValue> = {};
  for (const [k, x] of Object.entries(fields)) {
    out[k] = x === null ? { NULL: true } : typeof x === 'string' ? { S: x } : typeof x === 'number' ? { N: String(x) } : { BOOL: x };
  }
  return out;
}

function sameRanges(rec: Item, chunks: WalChunk[], object: string, g: number): AssignedRange[] {
  const ranges = JSON.parse(String(rec.ranges)) as AssignedRange[];
  const same =
    ranges.length === chunks.length &&
    ranges.every((r, k) => {
      const c = chunks[k]!;
      return r.ns === c.ns && r.stream === c.stream && r.partition === c.partition && r.end - r.start === c.records;
    });
  if (!same) throw errors.invalid('chunks', `WAL object ${object} group ${g} was committed with different chunks`);
  return ranges;
}

function collItem(c: Collection): Item {
  return {
    ns: c.ns,
    id: c.id,
    name: c.name,
    schema: JSON.stringify(c.schema),
    schemaVersion: c.schemaVersion,
    streamId: c.streamId,
    linkId: c.linkId,
    partitions: c.partitions,
    mret: c.manifestRetentionMs,
    state: c.state,
    created: c.created,
  };
}

function streamItem(s: Stream): Item {
  return {
    ns: s.ns,
    id: s.id,
    name: s.name,
    partitions: s.partitions,
    retMs: s.retention.ms,
    retBytes: s.retention.bytes,
    implicit: s.implicit,
    state: s.state,
    created: s.created,
  };
}

function entryItem(e: IndexEntry): Item {
  return { start: e.start, end: e.end, kind: e.kind, path: e.path, byteStart: e.byteStart, byteEnd: e.byteEnd, records: e.records };
}

function toNamespace(r: Item): Namespace {
  return { id: Number(r.id), org: String(r.org), name: String(r.name), state: r.state as Namespace['state'], created: Number(r.created) };
}

function toCollection(r: Item): Collection {
  return {
    ns: Number(r.ns),
    id: Number(r.id),
    name: String(r.name),
    schema: JSON.parse(String(r.schema)) as CollectionSchema,
    schemaVersion: Number(r.schemaVersion),
    streamId: Number(r.streamId),
    linkId: Number(r.linkId),
    partitions: Number(r.partitions),
    manifestRetentionMs: Number(r.mret),
    state: r.state as Collection['state'],
    created: Number(r.created),
  };
}

function toStream(r: Item): Stream {
  return {
    ns: Number(r.ns),
    id: Number(r.id),
    name: String(r.name),
    partitions: Number(r.partitions),
    retention: { ms: r.retMs === null || r.retMs === undefined ? null : Number(r.retMs), bytes: r.retBytes === null || r.retBytes === undefined ? null : Number(r.retBytes) },
    implicit: r.implicit === true,
    state: r.state as Stream['state'],
    created: Number(r.created),
  };
}

function toHead(partition: number, r: Item | undefined): PartitionHead {
  return { partition, next: Number(r?.next ?? 0), logStart: Number(r?.logStart ?? 0), bytes: Number(r?.bytes ?? 0) };
}

function toEntry(partition: number, r: Item): IndexEntry {
  return {
    partition,
    start: Number(r.start),
    end: Number(r.end),
    kind: r.kind as IndexEntry['kind'],
    path: String(r.path),
    byteStart: Number(r.byteStart),
    byteEnd: Number(r.byteEnd),
    records: Number(r.records),
  };
}

function toPointer(r: Item): Pointer {
  return { ns: Number(r.ns), key: String(r.key), version: Number(r.version), value: String(r.value), stamp: Number(r.stamp) };
}

function toLease(scope: LeaseScope, key: string, r: Item): Lease {
  return { scope, key, owner: r.owner === undefined || r.owner === null ? null : String(r.owner), epoch: Number(r.epoch), deadline: Number(r.deadline) };
}

function toTag(r: Item): Tag {
  return {
    ns: Number(r.ns),
    collection: Number(r.collection),
    name: String(r.name),
    manifestVersion: Number(r.version),
    manifestPath: String(r.path),
    created: Number(r.created),
    rewrittenBy: r.rewrittenBy === null || r.rewrittenBy === undefined ? null : String(r.rewrittenBy),
  };
}

function toChange(r: Item): CatalogChange {
  return { version: Number(r.version), ns: Number(r.ns), kind: r.kind as ChangeKind, id: r.id === null || r.id === undefined ? null : Number(r.id), stamp: Number(r.stamp) };
}


// The shared context of the DynamoDB backend's modules: the SDK handle, the profile and its
// capabilities, the per-handle caches (stream shapes, partition-head hints, link retention),
// and the frame every write runs in (spec §2.3):
//
// - `write` validates the stamp and requestId, runs the call, and on a refusal that an
//   applied earlier attempt would explain looks up the call's commit token (req#);
// - `submit` sends one TransactWriteItems with the commit token, and maps "the token already
//   exists" to the first attempt's result (ALL_OLD carries it);
// - `attempts` re-runs an attempt that lost an optimistic race (bounded, with jitter);
// - the catalog change feed's next version (`chgVersion` … `chgDone`): versions are dense,
//   each catalog write puts `chg#<v+1>` with attribute_not_exists in its transaction;
// - loaders of live records and the object-reference updates (`refUp`/`refDown`) that the
//   log, pointer, tag and GC modules put into their transactions.
import { EventEmitter } from 'node:events';
import { randomUUID } from 'node:crypto';
import { errors, isMetaError } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { feedPruneBounds, feedRetention, type FeedRetention } from '../../core/feed.js';
import { PRUNE_BATCH, PRUNE_EVERY_WRITES, checkOpenHandle, checkTokenOp, prunableAt, requestTokenTtl } from '../../core/tokens.js';
import type { Capabilities, ChangeKind, PartitionHead, Stamp, WriteContext } from '../../types.js';
import * as v from '../../validate.js';
import type { Item } from './codec.js';
import { single, txPut, txUpdate, type Expr } from './expr.js';
import { AGAIN, LIVE, toHead, ttlAt, type Again } from './items.js';
import { EXPIRY_INDEX, EXPIRY_SHARDS, K, expiryAttrs, expiryPk, expirySk, retiredShard, type Key } from './keys.js';
import { Sdk, jitter, type Cancelled, type TxItem } from './sdk.js';

/** Chunks one partition group commits in one transaction: 2 items per chunk + streams + 2 ≤ 100 (spec §3.1). */
export const MAX_CHUNKS_PER_GROUP = 32;
/** Entries one swapSegment replaces: n entries + ≤ n object counts + 5 ≤ 100 items (spec §2.3: ~45). */
export const MAX_SWAP_ENTRIES = 45;
/** Internal attempts of one call against contention (failed conditions, TransactionConflict). */
export const MAX_INTERNAL_ATTEMPTS = 12;
/** Cached partition heads and stream shapes per handle, at most (cleared when exceeded). */
export const MAX_CACHE_ENTRIES = 100_000;
/**
 * Expiry shards one prune pass visits, at most: a pass runs every PRUNE_EVERY_WRITES writes
 * that listed an expiring item, so every shard is visited once per
 * EXPIRY_SHARDS / PRUNE_SHARDS_PER_PASS passes and removal (PRUNE_BATCH per pass) outruns
 * insertion (PRUNE_EVERY_WRITES per pass) by PRUNE_RATIO.
 */
export const PRUNE_SHARDS_PER_PASS = 4;
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
  /**
   * How long commit tokens live (validated: core/tokens.ts requestTokenTtl); tests shorten it
   * to see pruning keep up.
   */
  requestTokenTtlMs?: number;
  /** The backend's clock, for validating stamps and judging expiry; tests may replace it. */
  clock?: () => number;
  /** How much of the catalog change feed is kept (core/feed.ts; tests shorten it to see the horizon). */
  feedRetention?: Partial<FeedRetention>;
}

/** Per-call context of a write. */
export interface Ctx {
  op: string;
  stamp: Stamp;
  requestId: string | undefined;
  /** Base of every ClientRequestToken of this call. */
  tokenBase: string;
}

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

export class DynamoContext {
  readonly table: string;
  readonly profile: DynamoProfile;
  readonly sdk: Sdk;
  readonly caps: Capabilities;
  readonly clock: () => number;
  /** Emitted on this handle's catalog writes and on close: wakes watch() at once. */
  readonly changed = new EventEmitter();
  /** ns/stream → partitions (immutable once created). */
  readonly streamParts = new Map<string, number>();
  /** ns/stream/partition → the next offset last seen (a hint: conditions check it). */
  readonly headNext = new Map<string, number>();
  /** ns/link → { collection, manifestRetentionMs } (immutable). */
  readonly links = new Map<string, { collection: number; retentionMs: number }>();
  /** The highest catalog version this handle has seen (a hint for the next change's version). */
  chgHint: number | null = null;
  /** How far the feed is kept (core/feed.ts): changes behind it may be pruned. */
  readonly feed: FeedRetention;
  /** Catalog writes since the last prune pass, and where the next pass starts reading. */
  private catalogWrites = 0;
  private pruneFrom = 0;
  /** How long commit tokens live (core/tokens.ts). */
  readonly tokenTtlMs: number;
  /** Writes that listed an expiring item since the last expiry prune pass, the next shard it visits, the pass in flight. */
  private expiringWrites = 0;
  private expiryShard = 0;
  private expiryPass: Promise<number> | null = null;
  private isClosed = false;

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
    this.feed = feedRetention(opts.feedRetention);
    this.tokenTtlMs = requestTokenTtl(opts.requestTokenTtlMs);
    this.changed.setMaxListeners(0);
  }


  get closed(): boolean {
    return this.isClosed;
  }

  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    await this.expiryPass;
    this.changed.emit('change');
    this.sdk.destroy();
  }

  checkOpen(): void {
    checkOpenHandle(this.closed);
  }

  /** The Alternator profile sends no transaction: such calls are refused by capability. */
  needTx(op: string): void {
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
  async write<T>(op: string, w: WriteContext | undefined, fn: (c: Ctx) => Promise<T>): Promise<T> {
    this.checkOpen();
    // The stamp and requestId were checked by the validating wrapper (core/validating.ts).
    const stamp = w?.stamp ?? this.clock();
    const requestId = w?.requestId;
    const ctx: Ctx = { op, stamp, requestId, tokenBase: requestId !== undefined ? `${requestId}\u0000${op}` : randomUUID() };
    try {
      const out = await fn(ctx);
      this.afterWrite();
      if (this.catalogWrites >= PRUNE_EVERY_WRITES) {
        this.catalogWrites = 0;
        // Pruning never fails the write it follows (it is acknowledged); the next pass retries.
        await this.pruneFeed().catch(() => 0);
      }
      return out;
    } catch (e) {
      if (requestId !== undefined && this.profile === 'dynamodb' && isMetaError(e) && LAZY_TOKEN_CHECK.has(e.code)) {
        const prior = await this.sdk.get(K.req(requestId));
        if (prior) return this.priorResult<T>(op, prior);
      }
      throw e;
    }
  }

  /**
   * A refusal the call returns as a result (claimObject's { claimed: false }): with a
   * requestId, an earlier attempt that applied is answered by its result instead, as a
   * refusal thrown is in write().
   */
  async refusedUnlessApplied<T>(ctx: Ctx, refusal: T): Promise<T> {
    if (ctx.requestId === undefined || this.profile !== 'dynamodb') return refusal;
    const prior = await this.sdk.get(K.req(ctx.requestId));
    return prior ? this.priorResult<T>(ctx.op, prior) : refusal;
  }

  priorResult<T>(op: string, item: Item): T {
    checkTokenOp(String(item.op), op);
    return JSON.parse(String(item.result)) as T;
  }

  /** The commit-token item of a write with a requestId: its result, in the same transaction. */
  reqItem(ctx: Ctx, result: unknown): TxItem {
    const key = K.req(ctx.requestId!);
    return txPut(
      'req',
      key,
      { op: ctx.op, result: JSON.stringify(result ?? null), stamp: ctx.stamp, ...this.expiring(key, prunableAt('token', ctx.stamp, this.tokenTtlMs)) },
      (e) => `attribute_not_exists(${e.a('pk')})`,
    );
  }

  /**
   * The attributes of an item that expires at `at` (backend clock): its TTL (a backstop) and
   * its listing in the expiry index, which the prune passes read. Counts toward the next pass.
   */
  expiring(key: Key, at: number): { ttl: number; xs: string; xk: string } {
    this.expiringWrites++;
    return { ttl: ttlAt(at), ...expiryAttrs(key.pk, at) };
  }

  /**
   * After a write: every PRUNE_EVERY_WRITES expiring items listed, one bounded prune pass, in
   * the background (one at a time per handle; it never fails or delays the write).
   */
  afterWrite(): void {
    if (this.expiringWrites < PRUNE_EVERY_WRITES || this.expiryPass !== null || this.isClosed) return;
    this.expiringWrites = 0;
    this.expiryPass = this.pruneExpired()
      .catch(() => 0)
      .finally(() => {
        this.expiryPass = null;
      });
  }

  /** Waits for the prune pass in flight, if any (tests; close waits for it too). */
  async pruneIdle(): Promise<void> {
    await this.expiryPass;
  }

  /**
   * One bounded, resumable prune pass over the expiry index (spec §3.2.2, core/tokens.ts):
   * visits up to PRUNE_SHARDS_PER_PASS shards from where the last pass stopped, reads the
   * items whose prunable-at time has passed by the backend's clock, oldest first, and deletes
   * up to PRUNE_BATCH of them by key. The work left is the items still listed, so a pass
   * stopped anywhere (or another handle's pass) loses nothing; deleting one twice is harmless.
   */
  async pruneExpired(): Promise<number> {
    const before = expirySk(this.clock());
    let removed = 0;
    for (let visited = 0; visited < PRUNE_SHARDS_PER_PASS && removed < PRUNE_BATCH && !this.isClosed; visited++) {
      const shard = this.expiryShard;
      this.expiryShard = (shard + 1) % EXPIRY_SHARDS;
      const rows = await this.sdk.query(
        {
          IndexName: EXPIRY_INDEX,
          KeyConditionExpression: 'xs = :s AND xk < :t',
          ExpressionAttributeValues: { ':s': { S: expiryPk(shard) }, ':t': { S: before } },
        },
        PRUNE_BATCH - removed,
        { consistent: false },
      );
      if (rows.length === 0) continue;
      await this.sdk.batchDelete('pruneExpired', rows.map((r) => ({ pk: String(r.pk), sk: String(r.sk) })));
      removed += rows.length;
    }
    return removed;
  }

  /**
   * Sends one transaction of the call (with its commit token). Success → { result };
   * an earlier attempt of the same requestId applied → its result; otherwise the reasons.
   */
  async submit<T>(ctx: Ctx, items: TxItem[], result: T, tokenExtra = ''): Promise<{ result: T } | Cancelled> {
    const all = ctx.requestId !== undefined ? [...items, this.reqItem(ctx, result)] : items;
    const out = await this.sdk.transact(ctx.op, all, ctx.tokenBase + tokenExtra);
    if (out.ok) return { result };
    const prior = out.failed.get('req');
    if (prior) return { result: this.priorResult<T>(ctx.op, prior) };
    return out;
  }

  /** Runs attempts until one returns a value; AGAIN re-reads after a jittered pause (bounded). */
  async attempts<T>(op: string, fn: (n: number) => Promise<T | Again>): Promise<T> {
    for (let n = 0; n < MAX_INTERNAL_ATTEMPTS; n++) {
      this.checkOpen();
      const r = await fn(n);
      if (r !== AGAIN) return r as T;
      await jitter(n);
    }
    throw errors.retryable('conflict', `${op}: concurrent writers kept winning for ${MAX_INTERNAL_ATTEMPTS} attempts; nothing was applied`);
  }

  /** Ids from the counters: one UpdateItem, outside the call's transaction (spec §2.3). */
  async nextIds<K extends string>(kinds: readonly K[]): Promise<Record<K, number>> {
    const r = await this.sdk.update({
      ...single(K.counters(), (e) => `ADD ${kinds.map((k) => `${e.a(k)} ${e.v(1)}`).join(', ')}`),
      ReturnValues: 'UPDATED_NEW',
    });
    const out = {} as Record<K, number>;
    for (const k of kinds) out[k] = Number(r?.[k]);
    return out;
  }

  // ---- the change feed's next version

  async chgVersion(): Promise<number> {
    if (this.chgHint === null) this.chgHint = await this.currentVersion();
    return this.chgHint + 1;
  }

  /** The change item (its version free) and the namespace's newest-change mark, for the call's transaction. */
  chgItems(version: number, ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): TxItem[] {
    return [
      txPut('chg', K.chg(version), { version, ns, kind, id, stamp }, (e) => `attribute_not_exists(${e.a('pk')})`),
      txPut('chgns', K.chgNs(ns), { version }),
    ];
  }

  /** Another writer took the version: learn the current one and try again. */
  async chgLost(): Promise<Again> {
    this.chgHint = await this.currentVersion();
    return AGAIN;
  }

  chgDone(version: number): void {
    this.chgHint = Math.max(this.chgHint ?? 0, version);
    this.catalogWrites++;
    this.changed.emit('change');
  }

  /**
   * One bounded prune pass of the feed (core/feed.ts): reads PRUNE_BATCH changes from where
   * the last pass stopped (wrapping to the start), and deletes those past the retention
   * (feedPruneBounds, on this backend's clock) that are not their namespace's newest. The
   * horizon is raised first, so a reader below it is told to resync before anything it
   * would miss is gone. Returns the changes removed.
   */
  async pruneFeed(): Promise<number> {
    const newest = this.chgHint ?? (await this.currentVersion());
    const b = feedPruneBounds(newest, this.clock(), this.feed);
    if (b.maxVersion < 1) return 0;
    if (this.pruneFrom >= b.maxVersion) this.pruneFrom = 0;
    const rows = await this.sdk.query(
      {
        KeyConditionExpression: 'pk = :p AND sk BETWEEN :a AND :b',
        ExpressionAttributeValues: { ':p': { S: K.chgPk() }, ':a': { S: K.chg(this.pruneFrom + 1).sk }, ':b': { S: K.chg(b.maxVersion).sk } },
      },
      PRUNE_BATCH,
    );
    this.pruneFrom = rows.length < PRUNE_BATCH ? 0 : Number(rows[rows.length - 1]!.version);
    const old = rows.filter((r) => Number(r.stamp) < b.before);
    if (old.length === 0) return 0;
    const nss = [...new Set(old.map((r) => Number(r.ns)))];
    const marks = await this.sdk.batchGet(nss.map((n) => K.chgNs(n)));
    const newestOf = new Map(nss.map((n, i) => [n, Number(marks[i]?.version ?? Number.MAX_SAFE_INTEGER)]));
    const gone = old.filter((r) => Number(r.version) < newestOf.get(Number(r.ns))!);
    if (gone.length === 0) return 0;
    const top = Number(gone[gone.length - 1]!.version);
    try {
      await this.sdk.update(
        single(K.chgHorizon(), (e) => `SET ${e.a('version')} = ${e.v(top)}`, (e) => `attribute_not_exists(${e.a('version')}) OR ${e.a('version')} < ${e.v(top)}`),
      );
    } catch (e) {
      // Already at or above it (another handle pruned further): that horizon covers ours.
      if ((e as { name?: string }).name !== 'ConditionalCheckFailedException') throw e;
    }
    await this.sdk.batchDelete('pruneFeed', gone.map((r) => K.chg(Number(r.version))));
    return gone.length;
  }

  /** The feed's horizon: the highest pruned version (0: nothing pruned). */
  async feedHorizon(): Promise<number> {
    return Number((await this.sdk.get(K.chgHorizon()))?.version ?? 0);
  }

  async currentVersion(): Promise<number> {
    const last = await this.sdk.query({ KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: K.chgPk() } }, ScanIndexForward: false }, 1);
    return last[0] ? Number(last[0].version) : 0;
  }

  /** Conflict (nothing applied) or a lost optimistic condition: both mean "try again". */
  // ------------------------------------------------------------ loaders

  async liveNamespace(ns: number): Promise<Item> {
    const r = await this.sdk.get(K.ns(ns));
    if (!r || r.state !== LIVE) throw errors.notFound(`namespace ${ns}`);
    return r;
  }

  async liveCollectionItem(ns: number, id: number): Promise<Item> {
    const r = await this.sdk.get(K.coll(ns, id));
    if (!r || r.state !== LIVE) throw errors.notFound(`collection ${id} in namespace ${ns}`);
    return r;
  }

  async liveStreamItem(ns: number, id: number): Promise<Item> {
    const r = await this.sdk.get(K.stream(ns, id));
    if (!r || r.state !== LIVE) throw errors.notFound(`stream ${id} in namespace ${ns}`);
    this.cacheParts(ns, id, Number(r.partitions));
    return r;
  }

  cacheParts(ns: number, stream: number, parts: number): void {
    if (this.streamParts.size > MAX_CACHE_ENTRIES) this.streamParts.clear();
    this.streamParts.set(`${ns}/${stream}`, parts);
  }

  cacheHead(ns: number, stream: number, p: number, next: number): void {
    if (this.headNext.size > MAX_CACHE_ENTRIES) this.headNext.clear();
    const k = `${ns}/${stream}/${p}`;
    if ((this.headNext.get(k) ?? -1) < next) this.headNext.set(k, next);
  }

  async readHeads(ns: number, stream: number, partitions: number): Promise<PartitionHead[]> {
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
  refUp(role: string, path: string, kind: 'wal' | 'segment' | 'manifest', n: number, index?: { stream: string }): TxItem {
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
  refDown(role: string, path: string, n: number, cur: Item | undefined, stamp: Stamp, index: boolean): TxItem {
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
          (retire ? `, ${e.a('retired')} = ${e.v(stamp)}, ${e.a('rk')} = ${e.v(path)}, ${e.a('rs')} = ${e.v(retiredShard(path))}` : cur?.kind === 'wal' ? `, ${e.a('retired')} = ${e.v(stamp)}` : ''),
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

}

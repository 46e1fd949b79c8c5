// The PostgreSQL backend (DESIGN §3, spec §2.2: Lakekeeper's patterns), on node-postgres.
//
// - Isolation: READ COMMITTED, the Postgres default; no SERIALIZABLE. One call is one
//   transaction (commitWal: one per partition group, spec §3.1). Every write transaction
//   first does plain reads (validation, early typed errors), then — after the Race point —
//   its writes, each conditional: compare-and-swap by `UPDATE … WHERE version = $n` and its
//   row count, upserts with `ON CONFLICT … DO NOTHING/WHERE`, and explicit row locks only
//   where a decision needs a stable row, always in one order:
//     collection or namespace row (FOR SHARE / FOR UPDATE when dropped) → lease (FOR SHARE)
//     → partition heads (FOR UPDATE, in key order) → pointer → object refs (upsert, in path
//     order) → aliases → id counters → the catalog-version row.
// - Unknown outcomes: every write transaction inserts a commit-token row (keyed by the
//   WriteContext requestId, or a fresh one) holding its result, and records
//   pg_current_xact_id() before COMMIT; commitWal's (object, group) record is its token. A
//   retry with the same requestId returns the stored result. A connection lost after COMMIT
//   was sent is resolved by pg_xact_status(xid) (or the token row) inside the call (tx.ts).
// - Pools: a write pool, and a read pool for reads (readUrl; the primary by default — point it
//   at a replica only with synchronous_commit = remote_apply, since the contract forbids
//   reads that go backwards). Idempotency reads run inside the write transaction.
// - Composite reads (partitionIndex, streamState, collectionHead, list calls) are one
//   statement each: one snapshot (snapshotReads: true, spec §3.3).
// - Change feed: catalog changes take the catalog-version row's lock (versions dense and in
//   commit order) and NOTIFY; watch LISTENs (listener.ts). No clock row: stamps come from the
//   callers (spec §3.2).
// - Migrations at startup under an advisory lock (migrations.ts); expired tokens, commit
//   records and GC tombstones are pruned in bounded batches by one node at a time (an
//   advisory lock: a cluster singleton, advisory.ts).
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { CreateCollection, CreateNamespace, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import { implicitStreamName, linkPointerKey, parseLinkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { planGroups } from '../../groups.js';
import {
  DEFAULT_MANIFEST_RETENTION_MS,
  JANITOR_BATCH_ENTRIES,
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
import { paged, scopeKey, toChange, toCollection, toEntry, toHeads, toNamespace, toPointer, toStream, toTag, type Row } from '../sql/rows.js';
import { tryAdvisoryLock, tryAdvisoryXactLock, withSingleton, type AdvisoryLock } from './advisory.js';
import { mapPgError } from './errors.js';
import { CatalogListener } from './listener.js';
import { migrate, schemaVersion, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
import { SQL } from './sql.js';
import { TYPES, WriteTx, acquire, commit, isConnectionError, newStats, resolveOutcome, type Stats } from './tx.js';

export { tryAdvisoryLock, withSingleton, type AdvisoryLock } from './advisory.js';
export { migrate, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
export type { Stats } from './tx.js';

/** Connections per pool: enough for a node's concurrent calls; Postgres' default max is 100. */
export const DEFAULT_POOL_SIZE = 10;
/** Waiting for a pooled connection (or a new one) longer than this is Retryable(beforeSend). */
export const DEFAULT_CONNECT_TIMEOUT_MS = 5_000;
/** Idle pooled connections close after this. */
export const DEFAULT_IDLE_TIMEOUT_MS = 10_000;
/** A row lock waited for longer than this is 55P03 → Retryable('lock_timeout'). */
export const DEFAULT_LOCK_TIMEOUT_MS = 5_000;
/** A statement running longer than this is cancelled (57014 → Retryable('timeout')). */
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
/** A session idle inside a transaction this long is ended by the server (its locks freed). */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 60_000;
/** Expired commit tokens, WAL commit records and GC tombstones removed per prune pass, per table. */
export const PRUNE_BATCH = 256;
/** A prune pass starts once every this many writes of a handle (in the background). */
export const PRUNE_EVERY_WRITES = 256;
/** The advisory lock that makes pruning a cluster singleton. */
export const PRUNE_LOCK = 'loam:prune';
/** Default chunks per commit group: large enough that one flush is usually one group. */
export const DEFAULT_MAX_CHUNKS_PER_GROUP = 256;
/** Default entries one swapSegment may replace. */
export const DEFAULT_MAX_SWAP_ENTRIES = 1_000;
/** How often a watcher re-reads even without a notification (a missed NOTIFY costs at most this). */
export const WATCH_POLL_MS = 1_000;
/** …and while the LISTEN connection is down. */
export const WATCH_POLL_NO_LISTENER_MS = 200;
/** Restarts of one commit group that lost a race to the same (object, group) record. */
const MAX_GROUP_RESTARTS = 3;
/** Re-decisions of a lease write whose row changed under it. */
const MAX_LEASE_ROUNDS = 3;

export interface PostgresOptions {
  /** The primary: postgres://user:password@host:port/database (any libpq-style URL). */
  url: string;
  /** Reads that do not decide idempotency. Default: `url`. A replica only with remote_apply. */
  readUrl?: string;
  poolSize?: number;
  readPoolSize?: number;
  idleTimeoutMs?: number;
  connectTimeoutMs?: number;
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** Apply missing migrations at startup (default). false: refuse a database that is behind. */
  migrate?: boolean;
  maxChunksPerGroup?: number;
  maxSwapEntries?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Fault injection for the fault matrix (spec §4.2); never set in production. */
  faults?: FaultHook;
  /** The backend's clock, for validating stamps; tests may replace it. */
  clock?: () => number;
}

/**
 * Opens a handle on a Postgres metastore. Synchronous: connections are made and migrations
 * applied at the first call (or `await store.ready()`, which a node should do at startup so a
 * bad URL or a too-new schema stops it there).
 */

export function openPostgres(opts: PostgresOptions): PostgresMetaStore {
  return new PostgresMetaStore(opts);
}

/** openPostgres, then ready(): connected and migrated, or the reason it cannot be. */
export async function connectPostgres(opts: PostgresOptions): Promise<PostgresMetaStore> {
  const s = openPostgres(opts);
  try {
    await s.ready();
  } catch (e) {
    await s.close();
    throw e;
  }
  return s;
}


export class PostgresMetaStore implements MetaStore {
  readonly writePool: pg.Pool;
  readonly readPool: pg.Pool;
  private readonly caps: Capabilities;
  private readonly faults: FaultHook | undefined;
  private readonly clock: () => number;
  private readonly listener: CatalogListener;
  private readonly migrateAtStart: boolean;
  private readonly stats_: Stats = newStats();
  private readyP: Promise<void> | undefined;
  private writes = 0;
  private pruning = false;
  private closed = false;
  private readonly closing = new AbortController();

  constructor(opts: PostgresOptions) {
    if (typeof opts?.url !== 'string' || opts.url.length === 0) throw errors.invalid('url', 'must be a postgres:// URL');
    const base = (url: string, max: number): pg.PoolConfig => ({
      connectionString: url,
      max,
      idleTimeoutMillis: opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      lock_timeout: opts.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS,
      statement_timeout: opts.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
      idle_in_transaction_session_timeout: IDLE_IN_TRANSACTION_TIMEOUT_MS,
      application_name: opts.applicationName ?? 'loam-meta',
      types: TYPES,
      allowExitOnIdle: true,
    });
    this.writePool = new pg.Pool(base(opts.url, opts.poolSize ?? DEFAULT_POOL_SIZE));
    this.readPool = new pg.Pool(base(opts.readUrl ?? opts.url, opts.readPoolSize ?? DEFAULT_POOL_SIZE));
    // An idle pooled connection that dies is dropped by the pool; the event needs a listener.
    this.writePool.on('error', () => undefined);
    this.readPool.on('error', () => undefined);
    // NOTIFY reaches only sessions on the primary.
    this.listener = new CatalogListener({
      connectionString: opts.url,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
      application_name: `${opts.applicationName ?? 'loam-meta'}-listen`,
    });
    this.caps = {
      transactions: 'multi-item',
      snapshotReads: true,
      maxChunksPerGroup: opts.maxChunksPerGroup ?? DEFAULT_MAX_CHUNKS_PER_GROUP,
      maxSwapEntries: opts.maxSwapEntries ?? DEFAULT_MAX_SWAP_ENTRIES,
      changeFeed: 'push',
    };
    this.faults = opts.faults;
    this.clock = opts.clock ?? Date.now;
    this.migrateAtStart = opts.migrate ?? true;
  }

  capabilities(): Capabilities {
    return { ...this.caps };
  }

  /** Counters of lost-COMMIT resolution and pruning (for metrics and the fault matrix). */
  stats(): Stats {
    return { ...this.stats_ };
  }

  /**
   * Connects and applies missing migrations (or, with migrate: false, checks the schema).
   * Refuses a database whose schema is newer than this Loam. A failure to connect is retried
   * by the next call; a too-new schema is final.
   */
  ready(): Promise<void> {
    if (!this.readyP) {
      const p = this.init();
      this.readyP = p;
      p.catch((e) => {
        if (!(e instanceof SchemaTooNewError) && this.readyP === p) this.readyP = undefined;
      });
    }
    return this.readyP;
  }

  private async init(): Promise<void> {
    const client = await acquire(this.writePool);
    try {
      if (this.migrateAtStart) {
        await migrate(client);
      } else {
        const found = await schemaVersion(client);
        if (found > SCHEMA_VERSION) throw new SchemaTooNewError(found, SCHEMA_VERSION);
        if (found < SCHEMA_VERSION) {
          throw new Error(`metastore schema version ${found} is behind this Loam (${SCHEMA_VERSION}); run the migrations (loam migrate)`);
        }
      }
      client.release();
    } catch (e) {
      client.release(true);
      throw e;
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.closing.abort();
    await this.listener.close();
    await Promise.all([this.writePool.end().catch(() => undefined), this.readPool.end().catch(() => undefined)]);
  }

  /**
   * Takes a cluster-wide singleton lock (pg_try_advisory_lock) for maintenance no metastore
   * lease covers; null if another node holds it. Release it when done.
   */
  async trySingleton(name: string): Promise<AdvisoryLock | null> {
    v.key('name', name);
    this.checkOpen();
    await this.ready();
    try {
      return await tryAdvisoryLock(this.writePool, name);
    } catch (e) {
      throw mapPgError(e, true);
    }
  }

  // ------------------------------------------------------------ transaction helpers

  private checkOpen(): void {
    if (this.closed) throw errors.invalid('store', 'this metastore handle is closed');
  }

  /**
   * The one write-transaction helper: stamp check, fault points, BEGIN, commit-token lookup,
   * `fn`, the token row (with the xid), COMMIT — resolving a COMMIT whose reply was lost.
   * With token: false (commitWal), `fn` writes its own token record and sets tx.xid.
   */
  private async write<T>(
    op: string,
    w: WriteContext | undefined,
    fn: (tx: WriteTx) => Promise<T>,
    opts: { token?: boolean; resolveToken?: () => Promise<boolean> } = {},
  ): Promise<T> {
    this.checkOpen();
    const stamp = v.stamp(w?.stamp, this.clock());
    const requestId = w?.requestId === undefined ? undefined : v.tokenString('requestId', w.requestId);
    const useToken = opts.token !== false;
    const tokenId = requestId ?? randomUUID();
    await this.ready().catch((e) => {
      throw mapPgError(e, true);
    });
    if (this.faults) await this.faults('BeforeBegin', op);
    this.checkOpen();
    const client = await acquire(this.writePool);
    let sent = false; // COMMIT sent: from here on, a failure may have applied
    let broken = false;
    let result: T;
    try {
      await client.query('BEGIN');
      const tx = new WriteTx(client, stamp, op, this.faults);
      let prior: { op: string; result: unknown } | undefined;
      if (requestId !== undefined && useToken) {
        prior = await tx.one<{ op: string; result: unknown }>('SELECT op, result FROM request_tokens WHERE id = $1', [requestId]);
      }
      if (prior) {
        result = this.priorResult<T>(prior, op);
        await client.query('COMMIT');
      } else {
        result = await fn(tx);
        if (useToken) {
          const r = await tx.one<{ xid: string }>(SQL.TOKEN_INSERT, [tokenId, op, JSON.stringify(result ?? null), stamp]);
          if (!r) {
            // A concurrent attempt with this requestId committed first: its result stands.
            await client.query('ROLLBACK');
            const p = await tx.one<{ op: string; result: unknown }>('SELECT op, result FROM request_tokens WHERE id = $1', [tokenId]);
            if (!p) throw errors.retryable('conflict', `${op}: a concurrent attempt with the same requestId was rolled back`);
            result = this.priorResult<T>(p, op);
            client.release();
            return result;
          }
          tx.xid = r.xid;
        }
        if (this.faults) {
          const f = this.faults('BeforeCommit', op);
          if (f instanceof Promise) await f;
        }
        sent = true;
        const resolver = (xid: string | undefined) =>
          resolveOutcome(this.writePool, xid, opts.resolveToken ?? (() => this.tokenExists(tokenId)));
        broken = (await commit(client, tx, op, this.faults, resolver, this.stats_)).discard;
      }
    } catch (e) {
      // Before COMMIT was sent, a live connection is rolled back and reused; after, or when
      // the connection itself failed, it is discarded.
      broken = broken || sent || isConnectionError(e);
      if (!broken) await client.query('ROLLBACK').catch(() => (broken = true));
      client.release(broken ? true : undefined);
      throw mapPgError(e, !sent);
    }
    client.release(broken ? true : undefined);
    if (++this.writes % PRUNE_EVERY_WRITES === 0) void this.prune();
    if (this.faults) await this.faults('AfterCommit', op);
    return result;
  }

  private priorResult<T>(prior: { op: string; result: unknown }, op: string): T {
    if (prior.op !== op) throw errors.invalid('requestId', `was already used for ${prior.op}; use a fresh requestId per call`);
    return prior.result as T;
  }

  private async tokenExists(id: string): Promise<boolean> {
    const r = await this.writePool.query('SELECT 1 FROM request_tokens WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  /** A read: one statement (one snapshot) on the read pool. */
  private async read<R = Row>(text: string, values: unknown[] = []): Promise<R[]> {
    this.checkOpen();
    await this.ready().catch((e) => {
      throw mapPgError(e, true);
    });
    try {
      const r = await this.readPool.query({ text, values });
      return r.rows as R[];
    } catch (e) {
      throw mapPgError(e, true);
    }
  }

  private async readOne<R = Row>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.read<R>(text, values))[0];
  }

  /**
   * Bounded pruning of expired commit tokens, WAL commit records and GC tombstones, in its own
   * transaction, by one node at a time (a transaction advisory lock). Judged on this
   * backend's clock minus the skew bound, so nothing is pruned early under skew (spec §3.2.2).
   */
  private async prune(): Promise<void> {
    if (this.pruning || this.closed) return;
    this.pruning = true;
    let client: pg.PoolClient | undefined;
    try {
      client = await acquire(this.writePool);
      await client.query('BEGIN');
      if (await tryAdvisoryXactLock(client, PRUNE_LOCK)) {
        const now = this.clock() - MAX_CLOCK_SKEW_MS;
        let n = 0;
        n += (await client.query(
          'DELETE FROM request_tokens WHERE id IN (SELECT id FROM request_tokens WHERE stamp < $1 ORDER BY stamp LIMIT $2)',
          [now - REQUEST_TOKEN_TTL_MS, PRUNE_BATCH],
        )).rowCount ?? 0;
        n += (await client.query(
          'DELETE FROM wal_commits WHERE (object, grp) IN (SELECT object, grp FROM wal_commits WHERE stamp < $1 ORDER BY stamp LIMIT $2)',
          [now - WAL_COMMIT_RECORD_TTL_MS, PRUNE_BATCH],
        )).rowCount ?? 0;
        n += (await client.query(
          'DELETE FROM object_refs WHERE path IN (SELECT path FROM object_refs WHERE deleted AND claim_stamp < $1 ORDER BY claim_stamp LIMIT $2)',
          [now - WAL_COMMIT_RECORD_TTL_MS, PRUNE_BATCH],
        )).rowCount ?? 0;
        this.stats_.prunes++;
        this.stats_.pruned += n;
      }
      await client.query('COMMIT');
      client.release();
    } catch {
      // Pruning is best effort: the next pass catches up. A broken connection is discarded.
      client?.release(true);
    } finally {
      this.pruning = false;
    }
  }

  /** Prunes now (operators, tests); returns the rows removed, or null if another node is pruning. */
  async pruneNow(): Promise<number | null> {
    const before = this.stats_.pruned;
    const passes = this.stats_.prunes;
    await this.prune();
    return this.stats_.prunes > passes ? this.stats_.pruned - before : null;
  }

  private async nextIds(tx: WriteTx, kinds: Array<'namespace' | 'stream' | 'collection' | 'link'>): Promise<Record<string, number>> {
    const rows = await tx.q<{ kind: string; value: number }>(SQL.NEXT_IDS, [kinds]);
    return Object.fromEntries(rows.map((r) => [r.kind, r.value]));
  }

  /** A catalog change: the next catalog version (its row lock orders catalog commits) and a NOTIFY. */
  private async recordChange(tx: WriteTx, ns: number, kind: ChangeKind, id: number | null): Promise<void> {
    await tx.q(SQL.RECORD_CHANGE, [ns, kind, id, tx.stamp, String(ns)]);
  }

  /**
   * Changes reference counts in path order, in one upsert (spec §3.2.3). A positive delta
   * takes references and fails with Claimed if GC claimed or deleted the path; a negative one
   * releases them (a missing row is left alone), retiring a WAL object that reaches zero.
   */
  private async adjustRefs(tx: WriteTx, changes: Array<{ path: string; kind: string; delta: number }>): Promise<void> {
    const byPath = new Map<string, { kind: string; delta: number; adds: boolean }>();
    for (const c of changes) {
      const cur = byPath.get(c.path) ?? { kind: 'unknown', delta: 0, adds: false };
      cur.delta += c.delta;
      if (c.delta > 0) {
        cur.adds = true;
        cur.kind = c.kind;
      }
      byPath.set(c.path, cur);
    }
    const paths = [...byPath.keys()].sort();
    if (paths.length === 0) return;
    for (const p of paths) {
      const c = byPath.get(p)!;
      // An add is never outweighed by a release of the same path in one call; if it were,
      // the claim check below would not run for it.
      if (c.adds && c.delta < 0) throw new Error(`postgres metastore invariant violated: ${p} both referenced and released below zero`);
    }
    // Releases update existing rows; takes upsert (a CHECK on refs >= 0 is evaluated on an
    // upsert's proposed row before its conflict, so the two cannot share one INSERT).
    const adds = paths.filter((p) => byPath.get(p)!.delta >= 0);
    const drops = paths.filter((p) => byPath.get(p)!.delta < 0);
    const rows = await tx.q<{ path: string }>(
      SQL.ADJUST_REFS,
      [
        adds,
        adds.map((p) => byPath.get(p)!.kind),
        adds.map((p) => byPath.get(p)!.delta),
        drops,
        drops.map((p) => byPath.get(p)!.delta),
        tx.stamp,
      ],
    );
    const done = new Set(rows.map((r) => r.path));
    for (const p of paths) {
      if (byPath.get(p)!.delta >= 0 && !done.has(p)) throw errors.claimed(p);
    }
  }

  // ------------------------------------------------------------ catalog

  async createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    const org = v.name('org', req?.org);
    const name = v.name('name', req?.name);
    return this.write('createNamespace', w, async (tx) => {
      const existing = await tx.one<{ id: number }>("SELECT id FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
      if (existing) throw errors.alreadyExists(`namespace ${org}/${name}`, existing.id);
      await tx.beforeWrite();
      const { namespace: id } = await this.nextIds(tx, ['namespace']);
      const ins = await tx.one(
        `INSERT INTO namespaces (id, org, name, state, created) VALUES ($1, $2, $3, 'live', $4)
         ON CONFLICT (org, name) WHERE state = 'live' DO NOTHING RETURNING id`,
        [id, org, name, tx.stamp],
      );
      if (!ins) {
        // A concurrent create won the name; this statement sees its committed row.
        const won = await tx.one<{ id: number }>("SELECT id FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
        if (won) throw errors.alreadyExists(`namespace ${org}/${name}`, won.id);
        throw errors.retryable('conflict', `namespace ${org}/${name} was created and dropped concurrently`);
      }
      await this.recordChange(tx, id!, 'namespace.created', null);
      return { id: id!, org, name, state: 'live', created: tx.stamp } satisfies Namespace;
    });
  }

  async dropNamespace(ns: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    return this.write('dropNamespace', w, async (tx) => {
      await tx.beforeWrite();
      // The namespace row is locked: creates in it hold FOR SHARE, so none is in flight now,
      // and every one committed before is visible to the counts below.
      const r = await tx.one<{ state: string }>('SELECT state FROM namespaces WHERE id = $1 FOR UPDATE', [ns]);
      if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
      const n = (await tx.one<{ c: number; s: number }>(
        `SELECT (SELECT count(*) FROM collections WHERE ns = $1 AND state = 'live') AS c,
                (SELECT count(*) FROM streams WHERE ns = $1 AND state = 'live') AS s`,
        [ns],
      ))!;
      if (n.c > 0 || n.s > 0) {
        throw errors.invalid('ns', `namespace ${ns} still has ${n.c} collection(s) and ${n.s} stream(s); drop them first`);
      }
      await tx.q("UPDATE namespaces SET state = 'dropping' WHERE id = $1", [ns]);
      await this.recordChange(tx, ns, 'namespace.dropped', null);
    });
  }

  async namespace(ns: number, opts?: ReadOptions): Promise<Namespace> {
    v.id('ns', ns);
    const r = await this.readOne('SELECT * FROM namespaces WHERE id = $1', [ns]);
    if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
    return toNamespace(r);
  }

  async namespaceByName(org: string, name: string): Promise<Namespace> {
    v.name('org', org);
    v.name('name', name);
    const r = await this.readOne("SELECT * FROM namespaces WHERE org = $1 AND name = $2 AND state = 'live'", [org, name]);
    if (!r) throw errors.notFound(`namespace ${org}/${name}`);
    return toNamespace(r);
  }

  async listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    v.name('org', org);
    const p = v.page(page);
    const rows = await this.read(
      `SELECT * FROM namespaces WHERE org = $1 AND state = 'live' AND starts_with(name, $2) AND name > $3
       ORDER BY name LIMIT $4`,
      [org, p.prefix, p.after ?? '', p.limit + 1],
    );
    return paged(rows.map(toNamespace), p.limit, (n) => n.name);
  }

  /** Locks a live namespace against a concurrent drop (FOR SHARE); NotFound if absent or dropping. */
  private async shareNamespace(tx: WriteTx, ns: number): Promise<void> {
    const r = await tx.one<{ state: string }>(SQL.SHARE_NAMESPACE, [ns]);
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
  }

  private async liveNamespace(tx: WriteTx, ns: number): Promise<void> {
    const r = await tx.one<{ state: string }>('SELECT state FROM namespaces WHERE id = $1', [ns]);
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
  }

  async createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const schema = v.schema('schema', req.schema);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    const mret = v.manifestRetention(req.manifestRetentionMs);
    return this.write('createCollection', w, async (tx) => {
      const pre = (await tx.one<{ ns_state: string | null; existing: number | null }>(SQL.CREATE_COLLECTION_PRE, [ns, name]))!;
      if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
      if (pre.existing !== null) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, pre.existing);
      await tx.beforeWrite();
      await this.shareNamespace(tx, ns);
      const ids = await this.nextIds(tx, ['collection', 'stream', 'link']);
      const id = ids.collection!;
      const streamId = ids.stream!;
      const linkId = ids.link!;
      const ins = await tx.one(SQL.INSERT_COLLECTION, [
        ns,
        id,
        name,
        JSON.stringify(schema),
        streamId,
        linkId,
        partitions,
        mret,
        tx.stamp,
      ]);
      if (!ins) {
        const won = await tx.one<{ id: number }>("SELECT id FROM collections WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
        if (won) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, won.id);
        throw errors.retryable('conflict', `collection ${name} was created and dropped concurrently`);
      }
      await tx.q(SQL.INSERT_IMPLICIT_STREAM, [
        ns,
        streamId,
        implicitStreamName(name),
        partitions,
        retention.ms,
        retention.bytes,
        tx.stamp,
        linkId,
        id,
      ]);
      await this.recordChange(tx, ns, 'collection.created', id);
      return {
        ns,
        id,
        name,
        schema,
        schemaVersion: 1,
        streamId,
        linkId,
        partitions,
        manifestRetentionMs: mret,
        state: 'live',
        created: tx.stamp,
      } satisfies Collection;
    });
  }

  async dropCollection(ns: number, collection: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    return this.write('dropCollection', w, async (tx) => {
      await tx.beforeWrite();
      const r = await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2 FOR UPDATE', [ns, collection]);
      if (!r || r.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
      const c = toCollection(r);
      await tx.q(
        `WITH c AS (UPDATE collections SET state = 'dropping' WHERE ns = $1 AND id = $2),
              s AS (UPDATE streams SET state = 'dropping' WHERE ns = $1 AND id = $3)
         UPDATE links SET state = 'dropping' WHERE ns = $1 AND id = $4`,
        [ns, collection, c.streamId, c.linkId],
      );
      const p = await tx.one<{ value: string }>('DELETE FROM pointers WHERE ns = $1 AND key = $2 RETURNING value', [ns, linkPointerKey(c.linkId)]);
      if (p) await this.adjustRefs(tx, [{ path: p.value, kind: 'manifest', delta: -1 }]);
      const a = await tx.one<{ version: number; map: Record<string, number> }>('SELECT version, map FROM aliases WHERE ns = $1 FOR UPDATE', [ns]);
      if (a) {
        const kept = Object.fromEntries(Object.entries(a.map).filter(([, cid]) => cid !== collection));
        if (Object.keys(kept).length !== Object.keys(a.map).length) {
          await tx.q('UPDATE aliases SET version = $1, map = $2 WHERE ns = $3', [a.version + 1, JSON.stringify(kept), ns]);
        }
      }
      await this.recordChange(tx, ns, 'collection.dropped', collection);
    });
  }

  async collection(ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
    v.id('ns', ns);
    v.id('collection', collection);
    const r = await this.readOne('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection]);
    if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    return toCollection(r);
  }

  async collectionByName(ns: number, name: string): Promise<Collection> {
    v.id('ns', ns);
    v.name('name', name);
    const r = await this.readOne("SELECT * FROM collections WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
    if (!r) throw errors.notFound(`collection ${name} in namespace ${ns}`);
    return toCollection(r);
  }

  /** One statement: the namespace's state and a page of its live rows of `table`, by name. */
  private async listInNamespace(table: 'collections' | 'streams', ns: number, page: PageRequest | undefined): Promise<Row[]> {
    const p = v.page(page);
    const rows = await this.read<{ ns_state: string; r: Row | null }>(
      `SELECT n.state AS ns_state, row_to_json(t) AS r FROM namespaces n
       LEFT JOIN LATERAL (SELECT * FROM ${table} WHERE ns = n.id AND state = 'live' AND starts_with(name, $2) AND name > $3
                          ORDER BY name LIMIT $4) t ON true
       WHERE n.id = $1 ORDER BY t.name`,
      [ns, p.prefix, p.after ?? '', p.limit + 1],
    );
    if (rows.length === 0 || rows[0]!.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
    return rows.flatMap((x) => (x.r ? [x.r] : []));
  }

  async listCollections(ns: number, page?: PageRequest): Promise<Page<Collection>> {
    v.id('ns', ns);
    const p = v.page(page);
    const rows = await this.listInNamespace('collections', ns, page);
    return paged(rows.map(toCollection), p.limit, (c) => c.name);
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
    return this.write('updateCollectionSchema', w, async (tx) => {
      const check = (r: Row | undefined): Collection => {
        if (!r || r.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
        const c = toCollection(r);
        if (c.schemaVersion !== expectedVersion) {
          throw errors.versionMismatch(`schema of collection ${collection}`, expectedVersion, c.schemaVersion);
        }
        if (s.primaryKey !== c.schema.primaryKey) {
          throw errors.invalid('schema.primaryKey', `cannot change from ${c.schema.primaryKey} to ${s.primaryKey}`);
        }
        return c;
      };
      const c = check(await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection]));
      await tx.beforeWrite();
      const up = await tx.one(
        `UPDATE collections SET schema = $1, schema_version = schema_version + 1
         WHERE ns = $2 AND id = $3 AND state = 'live' AND schema_version = $4 RETURNING schema_version`,
        [JSON.stringify(s), ns, collection, expectedVersion],
      );
      if (!up) check(await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2', [ns, collection])); // throws the current reason
      await this.recordChange(tx, ns, 'collection.schema', collection);
      return { ...c, schema: s, schemaVersion: c.schemaVersion + 1 };
    });
  }

  async updateAliases(ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
    v.id('ns', ns);
    v.aliasActions(actions);
    if (expectedVersion !== undefined) v.nonNegInt('expectedVersion', expectedVersion);
    return this.write('updateAliases', w, async (tx) => {
      await this.liveNamespace(tx, ns);
      const cur = await tx.one<{ version: number }>('SELECT version FROM aliases WHERE ns = $1', [ns]);
      if (expectedVersion !== undefined && expectedVersion !== (cur?.version ?? 0)) {
        throw errors.versionMismatch(`aliases of namespace ${ns}`, expectedVersion, cur?.version ?? 0);
      }
      await tx.beforeWrite();
      // Targets of 'set' are locked FOR SHARE: a concurrent dropCollection (which also removes
      // the collection from the aliases) waits for this call, or this call sees it dropped.
      const targets = [...new Set(actions.flatMap((a) => (a.op === 'set' ? [a.collection] : [])))].sort((x, y) => x - y);
      if (targets.length > 0) {
        const live = await tx.q<{ id: number }>(
          "SELECT id FROM collections WHERE ns = $1 AND id = ANY($2::bigint[]) AND state = 'live' ORDER BY id FOR SHARE",
          [ns, targets],
        );
        const ok = new Set(live.map((r) => r.id));
        for (const act of actions) {
          if (act.op === 'set' && !ok.has(act.collection)) throw errors.notFound(`collection ${act.collection} in namespace ${ns}`);
        }
      }
      await tx.q("INSERT INTO aliases (ns, version, map) VALUES ($1, 0, '{}') ON CONFLICT (ns) DO NOTHING", [ns]);
      const a = (await tx.one<{ version: number; map: Record<string, number> }>('SELECT version, map FROM aliases WHERE ns = $1 FOR UPDATE', [ns]))!;
      if (expectedVersion !== undefined && expectedVersion !== a.version) {
        throw errors.versionMismatch(`aliases of namespace ${ns}`, expectedVersion, a.version);
      }
      const map = { ...a.map };
      for (const act of actions) {
        if (act.op === 'set') map[act.alias] = act.collection;
        else delete map[act.alias]; // removing an absent alias is a no-op, like deleting a missing key
      }
      const n = Object.keys(map).length;
      if (n > MAX_ALIASES) throw errors.limitExceeded('MAX_ALIASES per namespace', MAX_ALIASES, n);
      await tx.q('UPDATE aliases SET version = $1, map = $2 WHERE ns = $3', [a.version + 1, JSON.stringify(map), ns]);
      await this.recordChange(tx, ns, 'aliases', null);
      return { ns, version: a.version + 1, aliases: map };
    });
  }

  async aliases(ns: number): Promise<Aliases> {
    v.id('ns', ns);
    const r = await this.readOne<{ state: string | null; version: number | null; map: Record<string, number> | null }>(
      'SELECT n.state, a.version, a.map FROM namespaces n LEFT JOIN aliases a ON a.ns = n.id WHERE n.id = $1',
      [ns],
    );
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
    return { ns, version: r.version ?? 0, aliases: r.map ?? {} };
  }

  async createStream(req: CreateStream, w?: WriteContext): Promise<Stream> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    return this.write('createStream', w, async (tx) => {
      const pre = (await tx.one<{ ns_state: string | null; existing: number | null }>(
        `SELECT (SELECT state FROM namespaces WHERE id = $1) AS ns_state,
                (SELECT id FROM streams WHERE ns = $1 AND name = $2 AND state = 'live') AS existing`,
        [ns, name],
      ))!;
      if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
      if (pre.existing !== null) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, pre.existing);
      await tx.beforeWrite();
      await this.shareNamespace(tx, ns);
      const { stream: id } = await this.nextIds(tx, ['stream']);
      const ins = await tx.one(
        `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
         VALUES ($1, $2, $3, $4, $5, $6, false, 'live', $7)
         ON CONFLICT (ns, name) WHERE state = 'live' DO NOTHING RETURNING id`,
        [ns, id, name, partitions, retention.ms, retention.bytes, tx.stamp],
      );
      if (!ins) {
        const won = await tx.one<{ id: number }>("SELECT id FROM streams WHERE ns = $1 AND name = $2 AND state = 'live'", [ns, name]);
        if (won) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, won.id);
        throw errors.retryable('conflict', `stream ${name} was created and dropped concurrently`);
      }
      await this.recordChange(tx, ns, 'stream.created', id!);
      return { ns, id: id!, name, partitions, retention, implicit: false, state: 'live', created: tx.stamp } satisfies Stream;
    });
  }

  async dropStream(ns: number, stream: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('stream', stream);
    return this.write('dropStream', w, async (tx) => {
      await tx.beforeWrite();
      const r = await tx.one('SELECT * FROM streams WHERE ns = $1 AND id = $2 FOR UPDATE', [ns, stream]);
      if (!r || r.state !== 'live') throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      if (r.implicit) throw errors.invalid('stream', `stream ${stream} belongs to a collection; drop the collection instead`);
      await tx.q("UPDATE streams SET state = 'dropping' WHERE ns = $1 AND id = $2", [ns, stream]);
      await this.recordChange(tx, ns, 'stream.dropped', stream);
    });
  }

  async stream(ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    const r = await this.readOne('SELECT * FROM streams WHERE ns = $1 AND id = $2', [ns, stream]);
    if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    return toStream(r);
  }

  async listStreams(ns: number, page?: PageRequest): Promise<Page<Stream>> {
    v.id('ns', ns);
    const p = v.page(page);
    const rows = await this.listInNamespace('streams', ns, page);
    return paged(rows.map(toStream), p.limit, (s) => s.name);
  }

  async setRetention(ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    const r = v.retention('retention', retention);
    return this.write('setRetention', w, async (tx) => {
      await tx.beforeWrite();
      const s = await tx.one(
        `UPDATE streams SET retention_ms = $1, retention_bytes = $2 WHERE ns = $3 AND id = $4 AND state = 'live' RETURNING *`,
        [r.ms, r.bytes, ns, stream],
      );
      if (!s) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      await this.recordChange(tx, ns, 'stream.retention', stream);
      return toStream(s);
    });
  }

  // ------------------------------------------------------------ log

  async commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
    v.walCommit(commit);
    const { groupOf, groups } = planGroups(commit.chunks, this.caps.maxChunksPerGroup);
    if (groups > 1) {
      // Input checks that depend on stored state (streams, partition counts) run before the
      // first group commits, so a commit that can never succeed writes nothing. A stream
      // dropped between groups still fails only its own and later groups (spec §3.1).
      checkChunks(commit.chunks, await this.livePartitions(commit.chunks));
    }
    const assigned: AssignedRange[] = new Array(commit.chunks.length);
    // One transaction per partition group, each with its own commit record (spec §3.1).
    // The requestId is not used: (object, group) is the idempotency key and the commit token.
    const ctx: WriteContext = w?.stamp === undefined ? {} : { stamp: w.stamp };
    for (let g = 0; g < groups; g++) {
      const idx: number[] = [];
      groupOf.forEach((gg, i) => gg === g && idx.push(i));
      const chunks = idx.map((i) => commit.chunks[i]!);
      let ranges: AssignedRange[] | undefined;
      for (let round = 1; ranges === undefined; round++) {
        try {
          ranges = await this.write('commitWal', ctx, (tx) => this.commitGroup(tx, commit, g, chunks), {
            token: false,
            resolveToken: async () =>
              (await this.writePool.query('SELECT 1 FROM wal_commits WHERE object = $1 AND grp = $2', [commit.object, g])).rowCount === 1,
          });
        } catch (e) {
          if (!(e instanceof RestartGroup)) throw e;
          if (round >= MAX_GROUP_RESTARTS) {
            throw errors.retryable('conflict', `WAL object ${commit.object} group ${g}: concurrent commits of the same group`);
          }
        }
      }
      idx.forEach((i, k) => (assigned[i] = ranges[k]!));
    }
    return { object: commit.object, assigned, groups };
  }

  /** Partition counts of the live streams among the chunks', keyed `ns/stream`. */
  private async livePartitions(chunks: WalChunk[]): Promise<Map<string, number>> {
    const keys = [...new Map(chunks.map((c) => [`${c.ns}/${c.stream}`, c])).values()];
    const rows = await this.read<{ ns: number; id: number; partitions: number }>(
      `SELECT s.ns, s.id, s.partitions FROM streams s JOIN unnest($1::bigint[], $2::bigint[]) AS k(ns, id)
         ON s.ns = k.ns AND s.id = k.id WHERE s.state = 'live'`,
      [keys.map((c) => c.ns), keys.map((c) => c.stream)],
    );
    return new Map(rows.map((r) => [`${r.ns}/${r.id}`, r.partitions]));
  }

  /** One group's transaction. Throws RestartGroup if another attempt of the same group committed first. */
  private async commitGroup(tx: WriteTx, commit: WalCommit, g: number, chunks: WalChunk[]): Promise<AssignedRange[]> {
    const streamKeys = [...new Map(chunks.map((c) => [`${c.ns}/${c.stream}`, c])).values()];
    type Pre = { rec: AssignedRange[] | null; claimed: boolean; streams: Array<[number, number, number]> | null };
    const pre = (await tx.one<Pre>(SQL.WAL_PRE, [commit.object, g, streamKeys.map((c) => c.ns), streamKeys.map((c) => c.stream)]))!;
    if (pre.rec) {
      const ranges = pre.rec;
      const same =
        ranges.length === chunks.length &&
        ranges.every((r, k) => {
          const c = chunks[k]!;
          return r.ns === c.ns && r.stream === c.stream && r.partition === c.partition && r.end - r.start === c.records;
        });
      if (!same) throw errors.invalid('chunks', `WAL object ${commit.object} group ${g} was committed with different chunks`);
      return ranges;
    }
    const age = tx.stamp - commit.objectStamp;
    if (age > WAL_COMMIT_WINDOW_MS) throw errors.staleCommit(commit.object, age, WAL_COMMIT_WINDOW_MS);
    checkChunks(chunks, new Map((pre.streams ?? []).map(([ns, id, parts]) => [`${ns}/${id}`, parts])));
    if (pre.claimed) throw errors.claimed(commit.object);
    await tx.beforeWrite();
    // The WAL object's reference first (Claimed if GC claimed it meanwhile): its row belongs
    // to this object alone, so taking it before the heads keeps the hot head locks short.
    // (No cycle with swapSegment/trimPartition, which lock a head and then the refs of objects
    // already committed there: one object has one chunk per partition.)
    await this.adjustRefs(tx, [{ path: commit.object, kind: 'wal', delta: chunks.length }]);
    // Lock the group's partition heads in key order (spec §2.2); create missing ones first
    // (heads are lazy) — ON CONFLICT DO NOTHING waits for a concurrent creator.
    const order = chunks
      .map((c, k) => ({ c, k }))
      .sort((a, b) => a.c.ns - b.c.ns || a.c.stream - b.c.stream || a.c.partition - b.c.partition);
    const keyNs = order.map((o) => o.c.ns);
    const keyStream = order.map((o) => o.c.stream);
    const keyPart = order.map((o) => o.c.partition);
    let heads = await tx.q<{ ns: number; stream: number; partition: number; next: number }>(SQL.HEADS_LOCK, [keyNs, keyStream, keyPart]);
    if (heads.length < chunks.length) {
      await tx.q(SQL.HEADS_CREATE, [keyNs, keyStream, keyPart]);
      heads = await tx.q(SQL.HEADS_LOCK, [keyNs, keyStream, keyPart]);
    }
    const nextOf = new Map(heads.map((h) => [`${h.ns}/${h.stream}/${h.partition}`, h.next]));
    const ranges: AssignedRange[] = chunks.map((c) => {
      const start = nextOf.get(`${c.ns}/${c.stream}/${c.partition}`)!;
      return { ns: c.ns, stream: c.stream, partition: c.partition, start, end: start + c.records, group: g };
    });
    // Heads, index entries and the commit record in one statement; it returns the xid, which
    // is recorded before COMMIT (the commit record is this transaction's commit token).
    const rec = await tx.one<{ recorded: number; xid: string }>(
      SQL.WAL_APPLY,
      [
        ranges.map((r) => r.ns),
        ranges.map((r) => r.stream),
        ranges.map((r) => r.partition),
        ranges.map((r) => r.start),
        ranges.map((r) => r.end),
        chunks.map((c) => c.byteStart),
        chunks.map((c) => c.byteEnd),
        chunks.map((c) => c.records),
        commit.object,
        g,
        JSON.stringify(ranges),
        tx.stamp,
      ],
    );
    if (!rec || rec.recorded !== 1) {
      // Another attempt of this (object, group) committed while we waited for the heads:
      // roll back and restart, which finds its record and returns its offsets.
      throw new RestartGroup();
    }
    tx.xid = rec.xid;
    return ranges;
  }

  async partitionIndex(ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    const from = opts?.from === undefined ? 0 : v.nonNegInt('from', opts.from);
    const limit = opts?.limit === undefined ? MAX_INDEX_PAGE : v.nonNegInt('limit', opts.limit, MAX_INDEX_PAGE);
    if (limit < 1) throw errors.invalid('limit', `must be in 1..${MAX_INDEX_PAGE}`);
    // One statement, one snapshot (spec §3.3): the head, then the entries from the one
    // covering max(from, logStart) up to the head.
    const r = await this.readOne<{ partitions: number | null; next: number; log_start: number; entries: Row[] | null }>(
      `WITH s AS (SELECT partitions FROM streams WHERE ns = $1 AND id = $2 AND state = 'live'),
            h AS (SELECT coalesce(max(next), 0) AS next, coalesce(max(log_start), 0) AS log_start
                  FROM heads WHERE ns = $1 AND stream = $2 AND partition = $3),
            lo AS (SELECT greatest($4::bigint, h.log_start) AS lo, h.next FROM h)
       SELECT (SELECT partitions FROM s) AS partitions, h.next, h.log_start,
         (SELECT json_agg(e ORDER BY e.start) FROM (
            SELECT i.partition, i.start, i."end", i.kind, i.path, i.byte_start, i.byte_end, i.records
            FROM index_entries i, lo
            WHERE i.ns = $1 AND i.stream = $2 AND i.partition = $3 AND lo.lo < lo.next
              AND i.start >= coalesce((SELECT max(start) FROM index_entries
                                        WHERE ns = $1 AND stream = $2 AND partition = $3 AND start <= lo.lo), 0)
            ORDER BY i.start LIMIT $5) e) AS entries
       FROM h`,
      [ns, stream, partition, from, limit + 1],
    );
    if (!r || r.partitions === null) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    if (partition >= r.partitions) throw errors.invalid('partition', `stream ${stream} has ${r.partitions} partitions`);
    const h = { logStart: r.log_start, next: r.next };
    const lo = Math.max(from, h.logStart);
    if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] };
    const rows = r.entries ?? [];
    const entries = rows.slice(0, limit).map(toEntry);
    // Invariant: a contiguous run covering lo onward, never past the head.
    assert(entries.length > 0 && entries[0]!.start <= lo && entries[0]!.end > lo, `partition ${partition}: no entry covers offset ${lo}`);
    for (let i = 1; i < entries.length; i++) {
      assert(entries[i - 1]!.end === entries[i]!.start, `partition ${partition}: gap at offset ${entries[i - 1]!.end}`);
    }
    const last = entries[entries.length - 1]!;
    assert(last.end <= h.next, `partition ${partition}: entry ends past the head`);
    const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
    if (rows.length > limit) out.nextFrom = last.end;
    return out;
  }

  async streamState(ns: number, stream: number): Promise<StreamState> {
    v.id('ns', ns);
    v.id('stream', stream);
    // One statement: the stream and its heads from one snapshot.
    const r = await this.readOne<{ s: Row; heads: Row[] | null }>(
      `SELECT row_to_json(s) AS s,
              (SELECT json_agg(json_build_object('partition', h.partition, 'next', h.next, 'log_start', h.log_start, 'bytes', h.bytes))
                 FROM heads h WHERE h.ns = s.ns AND h.stream = s.id) AS heads
       FROM streams s WHERE s.ns = $1 AND s.id = $2 AND s.state = 'live'`,
      [ns, stream],
    );
    if (!r) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    const s = toStream(r.s);
    return { stream: s, heads: toHeads(r.heads, s.partitions) };
  }

  async collectionHead(ns: number, collection: number): Promise<CollectionHead> {
    v.id('ns', ns);
    v.id('collection', collection);
    // One statement (one snapshot), which also satisfies the documented order (spec §3.3):
    // the pointer, then the heads.
    const r = await this.readOne<{ c: Row; p: Row | null; heads: Row[] | null }>(
      `SELECT row_to_json(c) AS c,
              (SELECT row_to_json(p) FROM pointers p WHERE p.ns = c.ns AND p.key = 'link/' || c.link_id) AS p,
              (SELECT json_agg(json_build_object('partition', h.partition, 'next', h.next, 'log_start', h.log_start, 'bytes', h.bytes))
                 FROM heads h WHERE h.ns = c.ns AND h.stream = c.stream_id) AS heads
       FROM collections c WHERE c.ns = $1 AND c.id = $2 AND c.state = 'live'`,
      [ns, collection],
    );
    if (!r) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    const c = toCollection(r.c);
    return { collection: c, pointer: r.p ? toPointer(r.p) : null, heads: toHeads(r.heads, c.partitions) };
  }

  /** Locks a live stream's partition head (FOR UPDATE) and returns it; a missing head reads as zero. */
  private async lockHead(tx: WriteTx, ns: number, stream: number, partition: number): Promise<PartitionHead> {
    const s = await tx.one<{ partitions: number }>("SELECT partitions FROM streams WHERE ns = $1 AND id = $2 AND state = 'live'", [ns, stream]);
    if (!s) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    if (partition >= s.partitions) throw errors.invalid('partition', `stream ${stream} has ${s.partitions} partitions`);
    // A missing head (nothing committed yet) has nothing to lock: it reads as zero.
    const r = await tx.one<{ next: number; log_start: number; bytes: number }>(
      'SELECT next, log_start, bytes FROM heads WHERE ns = $1 AND stream = $2 AND partition = $3 FOR UPDATE',
      [ns, stream, partition],
    );
    return { partition, next: r?.next ?? 0, logStart: r?.log_start ?? 0, bytes: r?.bytes ?? 0 };
  }

  async swapSegment(swap: SegmentSwap, w?: WriteContext): Promise<{ entry: IndexEntry }> {
    v.segmentSwap(swap);
    return this.write('swapSegment', w, async (tx) => {
      const { ns, stream, partition } = swap;
      await tx.beforeWrite();
      // The head's lock orders this swap with commits and trims of the partition: the entries
      // read below cannot change until COMMIT.
      const h = await this.lockHead(tx, ns, stream, partition);
      const rows = (
        await tx.q(
          `SELECT partition, start, "end", kind, path, byte_start, byte_end, records FROM index_entries
           WHERE ns = $1 AND stream = $2 AND partition = $3 AND start >= $4 AND start < $5 ORDER BY start LIMIT $6`,
          [ns, stream, partition, swap.start, swap.end, this.caps.maxSwapEntries + 1],
        )
      ).map(toEntry);
      const first = rows[0];
      if (first && first.kind === 'segment' && first.path === swap.path && first.start === swap.start && first.end === swap.end) {
        return { entry: first }; // a retry of a swap that applied
      }
      if (rows.length > this.caps.maxSwapEntries) throw errors.limitExceeded('maxSwapEntries', this.caps.maxSwapEntries, rows.length);
      if (swap.start < h.logStart) throw errors.notFound(`offsets from ${swap.start} of partition ${partition} (trimmed to ${h.logStart})`);
      if (swap.end > h.next) throw errors.invalid('end', `is past the partition's head (${h.next})`);
      const last = rows[rows.length - 1];
      if (!first || first.start !== swap.start || !last || last.end !== swap.end) {
        throw errors.invalid('start', `[${swap.start}, ${swap.end}) does not start and end on index entry boundaries`);
      }
      let records = 0;
      let oldBytes = 0;
      for (const e of rows) {
        records += e.records;
        oldBytes += e.byteEnd - e.byteStart;
      }
      await this.adjustRefs(tx, [
        { path: swap.path, kind: 'segment', delta: 1 },
        ...rows.map((e) => ({ path: e.path, kind: e.kind, delta: -1 })),
      ]);
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
      await tx.q(
        `WITH h AS (UPDATE heads SET bytes = bytes + $6 WHERE ns = $1 AND stream = $2 AND partition = $3)
         DELETE FROM index_entries WHERE ns = $1 AND stream = $2 AND partition = $3 AND start >= $4 AND start < $5`,
        [ns, stream, partition, swap.start, swap.end, swap.byteEnd - swap.byteStart - oldBytes],
      );
      await tx.q(
        `INSERT INTO index_entries (ns, stream, partition, start, "end", kind, path, byte_start, byte_end, records)
         VALUES ($1, $2, $3, $4, $5, 'segment', $6, $7, $8, $9)`,
        [ns, stream, partition, swap.start, swap.end, swap.path, swap.byteStart, swap.byteEnd, records],
      );
      return { entry };
    });
  }

  async trimPartition(ns: number, stream: number, partition: number, logStart: number, w?: WriteContext): Promise<PartitionHead> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    v.nonNegInt('logStart', logStart);
    return this.write('trimPartition', w, async (tx) => {
      await tx.beforeWrite();
      const h = await this.lockHead(tx, ns, stream, partition);
      if (logStart > h.next) throw errors.invalid('logStart', `${logStart} is past the partition's head (${h.next})`);
      if (logStart <= h.logStart) return h; // never backward; a repeat is a no-op
      const gone = await tx.q<{ path: string; bytes: number }>(
        `DELETE FROM index_entries WHERE ns = $1 AND stream = $2 AND partition = $3 AND "end" <= $4
         RETURNING path, byte_end - byte_start AS bytes`,
        [ns, stream, partition, logStart],
      );
      let bytes = 0;
      for (const e of gone) bytes += e.bytes;
      await this.adjustRefs(tx, gone.map((e) => ({ path: e.path, kind: 'unknown', delta: -1 })));
      await tx.q('UPDATE heads SET log_start = $1, bytes = bytes - $2 WHERE ns = $3 AND stream = $4 AND partition = $5', [
        logStart,
        bytes,
        ns,
        stream,
        partition,
      ]);
      return { ...h, logStart, bytes: h.bytes - bytes };
    });
  }

  async janitor(ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
    v.id('ns', ns);
    return this.write('janitor', w, async (tx) => {
      await tx.beforeWrite();
      let budget = JANITOR_BATCH_ENTRIES;
      let streams = 0;
      const dropping = await tx.q<{ id: number }>("SELECT id FROM streams WHERE ns = $1 AND state = 'dropping' ORDER BY id FOR UPDATE", [ns]);
      for (const { id } of dropping) {
        const gone = await tx.q<{ path: string }>(
          `DELETE FROM index_entries WHERE (ns, stream, partition, start) IN (
             SELECT ns, stream, partition, start FROM index_entries WHERE ns = $1 AND stream = $2
             ORDER BY partition, start LIMIT $3) RETURNING path`,
          [ns, id, budget],
        );
        await this.adjustRefs(tx, gone.map((e) => ({ path: e.path, kind: 'unknown', delta: -1 })));
        budget -= gone.length;
        if (budget === 0) {
          const more = await tx.one('SELECT 1 FROM index_entries WHERE ns = $1 AND stream = $2 LIMIT 1', [ns, id]);
          if (more) return { collections: 0, streams, done: false };
        }
        await tx.q('DELETE FROM heads WHERE ns = $1 AND stream = $2', [ns, id]);
        await tx.q('DELETE FROM streams WHERE ns = $1 AND id = $2', [ns, id]);
        streams++;
      }
      // Collections last: their implicit streams are gone by now, so a janitor stopped
      // half-way finds its work again.
      let collections = 0;
      const colls = await tx.q<{ id: number; link_id: number }>(
        "SELECT id, link_id FROM collections WHERE ns = $1 AND state = 'dropping' ORDER BY id FOR UPDATE",
        [ns],
      );
      for (const c of colls) {
        const tags = await tx.q<{ path: string }>('DELETE FROM tags WHERE ns = $1 AND collection = $2 RETURNING path', [ns, c.id]);
        await this.adjustRefs(tx, tags.map((t) => ({ path: t.path, kind: 'manifest', delta: -1 })));
        await tx.q('DELETE FROM pointer_history WHERE ns = $1 AND key = $2', [ns, linkPointerKey(c.link_id)]);
        await tx.q('DELETE FROM links WHERE ns = $1 AND id = $2', [ns, c.link_id]);
        await tx.q('DELETE FROM collections WHERE ns = $1 AND id = $2', [ns, c.id]);
        collections++;
      }
      return { collections, streams, done: true };
    });
  }

  async segmentReferenced(ns: number, stream: number, path: string): Promise<boolean> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.path('path', path);
    const r = await this.read('SELECT 1 FROM index_entries WHERE path = $1 AND ns = $2 AND stream = $3 LIMIT 1', [path, ns, stream]);
    return r.length > 0;
  }

  async retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    const p = v.page(page);
    const rows = await this.read<{ path: string; retired: number }>(
      `SELECT path, retired FROM object_refs WHERE kind = 'wal' AND retired IS NOT NULL AND refs = 0
         AND claim_owner IS NULL AND NOT deleted AND starts_with(path, $1) AND path > $2 ORDER BY path LIMIT $3`,
      [p.prefix, p.after ?? '', p.limit + 1],
    );
    return paged(
      rows.map((r) => ({ path: r.path, retired: r.retired })),
      p.limit,
      (r) => r.path,
    );
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
    const fence = opts?.fence;
    if (fence) {
      v.leaseScope(fence.scope);
      v.key('fence.key', fence.key);
      v.id('fence.epoch', fence.epoch);
    }
    const link = parseLinkPointerKey(key);
    return this.write('casPointer', opts, async (tx) => {
      // Plain reads: early typed errors, in the embedded backend's order.
      const pre = (await tx.one<{
        ns_state: string | null;
        link_state: string | null;
        coll_id: number | null;
        coll_state: string | null;
        lease_epoch: number | null;
        lease_owner: string | null;
        version: number | null;
        value: string | null;
      }>(SQL.CAS_PRE, [ns, key, link ?? 0, fence ? scopeKey(fence.scope) : '', fence?.key ?? '']))!;
      if (pre.ns_state !== 'live') throw errors.notFound(`namespace ${ns}`);
      if (link !== null && (pre.link_state !== 'live' || pre.coll_state !== 'live')) {
        throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
      }
      if (fence && pre.lease_epoch !== fence.epoch) {
        throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, pre.lease_epoch ?? 0, pre.lease_owner ?? null);
      }
      if (pre.version !== expectedVersion) throw errors.versionMismatch(`pointer ${key}`, expectedVersion, pre.version);
      await tx.beforeWrite();
      // Locks that make the checks hold until COMMIT: the collection (FOR SHARE: a drop waits,
      // or is seen) and the fence's lease (FOR SHARE: a takeover waits, or is seen).
      let retentionMs = DEFAULT_MANIFEST_RETENTION_MS;
      if (link !== null || fence) {
        type Locked = { coll_state: string | null; retention: number | null; epoch: number | null; owner: string | null };
        const l = (await tx.one<Locked>(SQL.CAS_LOCKS, [
          ns,
          link !== null ? pre.coll_id : 0,
          fence ? scopeKey(fence.scope) : '',
          fence?.key ?? '',
        ]))!;
        if (link !== null) {
          if (l.coll_state !== 'live') throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
          retentionMs = l.retention!;
        }
        if (fence && l.epoch !== fence.epoch) throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, l.epoch ?? 0, l.owner ?? null);
      }
      // The compare-and-swap: one conditional statement and its row count.
      const version = (expectedVersion ?? 0) + 1;
      const cas =
        expectedVersion === null
          ? await tx.one(SQL.CAS_CREATE, [ns, key, value, tx.stamp])
          : await tx.one(SQL.CAS_UPDATE, [value, tx.stamp, ns, key, expectedVersion]);
      if (!cas) {
        const cur = await tx.one<{ version: number }>('SELECT version FROM pointers WHERE ns = $1 AND key = $2', [ns, key]);
        throw errors.versionMismatch(`pointer ${key}`, expectedVersion, cur?.version ?? null);
      }
      // (ns, key, version) names one value forever (versions are dense and never reused), so
      // the value the plain read saw at expectedVersion is the one replaced.
      await this.adjustRefs(tx, [
        { path: value, kind: 'manifest', delta: 1 },
        ...(pre.value !== null ? [{ path: pre.value, kind: 'manifest', delta: -1 }] : []),
      ]);
      await tx.q(SQL.POINTER_HISTORY, [ns, key, version, value, tx.stamp, tx.stamp - retentionMs]);
      return { ns, key, version, value, stamp: tx.stamp } satisfies Pointer;
    });
  }

  async pointer(ns: number, key: string): Promise<Pointer | null> {
    v.id('ns', ns);
    v.key('key', key);
    const r = await this.readOne('SELECT * FROM pointers WHERE ns = $1 AND key = $2', [ns, key]);
    return r ? toPointer(r) : null;
  }

  // ------------------------------------------------------------ leases

  private async checkScope(tx: WriteTx, scope: LeaseScope): Promise<void> {
    if (scope !== 'cluster') await this.liveNamespace(tx, scope);
  }

  private async leaseRow(tx: WriteTx, scope: LeaseScope, key: string, lock: boolean): Promise<Lease | null> {
    const r = await tx.one<{ owner: string | null; epoch: number; deadline: number }>(
      `SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2${lock ? ' FOR UPDATE' : ''}`,
      [scopeKey(scope), key],
    );
    return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
  }

  async acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.ttl(ttlMs);
    return this.write('acquireLease', w, async (tx) => {
      const stamp = tx.stamp;
      await this.checkScope(tx, scope);
      // Read, decide, write conditionally on the row being as read; if it changed under us,
      // decide again on the row locked (bounded).
      for (let round = 0; round < MAX_LEASE_ROUNDS; round++) {
        const cur = await this.leaseRow(tx, scope, key, round > 0);
        if (round === 0) await tx.beforeWrite();
        const alive = cur !== null && cur.owner !== null && cur.deadline >= stamp;
        if (alive && cur.owner !== owner) throw errors.leaseHeld(key, cur.owner!, cur.epoch, cur.deadline);
        // The current owner extends at the same epoch; anyone else takes over free, released
        // or expired leases (judged on the proposer's stamp, spec §3.2) at the next epoch.
        const next: Lease = alive
          ? { ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) }
          : { scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs };
        const done = cur === null
          ? await tx.one(
              `INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES ($1, $2, $3, $4, $5)
               ON CONFLICT (scope, key) DO NOTHING RETURNING epoch`,
              [scopeKey(scope), key, next.owner, next.epoch, next.deadline],
            )
          : await tx.one(
              `UPDATE leases SET owner = $3, epoch = $4, deadline = $5
               WHERE scope = $1 AND key = $2 AND epoch = $6 AND owner IS NOT DISTINCT FROM $7 AND deadline = $8 RETURNING epoch`,
              [scopeKey(scope), key, next.owner, next.epoch, next.deadline, cur.epoch, cur.owner, cur.deadline],
            );
        if (done) return next;
      }
      throw errors.retryable('conflict', `lease ${key} kept changing under acquireLease`);
    });
  }

  async renewLease(scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    v.ttl(ttlMs);
    return this.write('renewLease', w, async (tx) => {
      await this.checkScope(tx, scope);
      await tx.beforeWrite();
      const r = await tx.one<{ deadline: number }>(
        `UPDATE leases SET deadline = greatest(deadline, $5::bigint + $6::bigint)
         WHERE scope = $1 AND key = $2 AND owner = $3 AND epoch = $4 AND deadline >= $5 RETURNING deadline`,
        [scopeKey(scope), key, owner, epoch, tx.stamp, ttlMs],
      );
      if (!r) {
        const cur = await this.leaseRow(tx, scope, key, false);
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
      return { scope, key, owner, epoch, deadline: r.deadline };
    });
  }

  async releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    return this.write('releaseLease', w, async (tx) => {
      await this.checkScope(tx, scope);
      await tx.beforeWrite();
      const r = await tx.one(
        `UPDATE leases SET owner = NULL, deadline = 0
         WHERE scope = $1 AND key = $2 AND epoch = $3 AND (owner = $4 OR owner IS NULL) RETURNING epoch`,
        [scopeKey(scope), key, epoch, owner],
      );
      if (!r) {
        const cur = await this.leaseRow(tx, scope, key, false);
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
    });
  }

  async lease(scope: LeaseScope, key: string): Promise<Lease | null> {
    v.leaseScope(scope);
    v.key('key', key);
    const r = await this.readOne<{ owner: string | null; epoch: number; deadline: number }>(
      'SELECT owner, epoch, deadline FROM leases WHERE scope = $1 AND key = $2',
      [scopeKey(scope), key],
    );
    return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
  }

  // ------------------------------------------------------------ tags

  async createTag(ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    v.id('manifestVersion', manifestVersion);
    return this.write('createTag', w, async (tx) => {
      await tx.beforeWrite();
      // The collection FOR SHARE (a drop waits or is seen), then its pointer FOR SHARE: a
      // concurrent casPointer (which supersedes and prunes history) waits, so the history row
      // read below stays as read until COMMIT. Same lock order as casPointer.
      const c = await tx.one('SELECT * FROM collections WHERE ns = $1 AND id = $2 FOR SHARE', [ns, collection]);
      if (!c || c.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
      const coll = toCollection(c);
      const key = linkPointerKey(coll.linkId);
      const hRow = await tx.one<{ value: string; superseded: number | null }>(
        `SELECT h.value, h.superseded FROM pointer_history h
         WHERE h.ns = $1 AND h.key = $2 AND h.version = $3
           AND EXISTS (SELECT 1 FROM pointers p WHERE p.ns = $1 AND p.key = $2 FOR SHARE)`,
        [ns, key, manifestVersion],
      );
      // Retained: the current manifest, or one superseded less than manifestRetentionMs ago (spec §3.3).
      if (!hRow || (hRow.superseded !== null && hRow.superseded + coll.manifestRetentionMs < tx.stamp)) {
        throw errors.notFound(`retained manifest version ${manifestVersion} of collection ${collection}`);
      }
      const ins = await tx.one(
        `INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES ($1, $2, $3, $4, $5, $6, NULL)
         ON CONFLICT (ns, collection, name) DO NOTHING RETURNING 1`,
        [ns, collection, name, manifestVersion, hRow.value, tx.stamp],
      );
      if (!ins) {
        const existing = await tx.one<{ version: number }>('SELECT version FROM tags WHERE ns = $1 AND collection = $2 AND name = $3', [ns, collection, name]);
        throw errors.alreadyExists(`tag ${name} of collection ${collection}`, existing?.version ?? 0);
      }
      await this.adjustRefs(tx, [{ path: hRow.value, kind: 'manifest', delta: 1 }]);
      return { ns, collection, name, manifestVersion, manifestPath: hRow.value, created: tx.stamp, rewrittenBy: null } satisfies Tag;
    });
  }

  async dropTag(ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    return this.write('dropTag', w, async (tx) => {
      const c = await tx.one<{ state: string }>('SELECT state FROM collections WHERE ns = $1 AND id = $2', [ns, collection]);
      if (!c || c.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
      await tx.beforeWrite();
      const t = await tx.one<{ path: string }>('DELETE FROM tags WHERE ns = $1 AND collection = $2 AND name = $3 RETURNING path', [ns, collection, name]);
      if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
      await this.adjustRefs(tx, [{ path: t.path, kind: 'manifest', delta: -1 }]);
    });
  }

  async listTags(ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
    v.id('ns', ns);
    v.id('collection', collection);
    const p = v.page(page);
    const rows = await this.read<{ state: string; t: Row | null }>(
      `SELECT c.state, row_to_json(t) AS t FROM collections c
       LEFT JOIN LATERAL (SELECT * FROM tags WHERE ns = c.ns AND collection = c.id AND starts_with(name, $3) AND name > $4
                          ORDER BY name LIMIT $5) t ON true
       WHERE c.ns = $1 AND c.id = $2 ORDER BY t.name`,
      [ns, collection, p.prefix, p.after ?? '', p.limit + 1],
    );
    if (rows.length === 0 || rows[0]!.state !== 'live') throw errors.notFound(`collection ${collection} in namespace ${ns}`);
    return paged(
      rows.flatMap((r) => (r.t ? [toTag(r.t)] : [])),
      p.limit,
      (t) => t.name,
    );
  }

  // ------------------------------------------------------------ GC

  async claimObject(path: string, owner: string, w?: WriteContext): Promise<ClaimResult> {
    v.path('path', path);
    v.tokenString('owner', owner);
    return this.write('claimObject', w, async (tx) => {
      await tx.beforeWrite();
      // Atomic with "still unreferenced": the upsert locks the row, and its condition is
      // evaluated on the newest version. A reference added concurrently either committed
      // first (refs > 0 here) or waits and then sees the claim (Claimed).
      const ok = await tx.one(
        `INSERT INTO object_refs AS o (path, kind, refs, claim_owner, claim_stamp) VALUES ($1, 'unknown', 0, $2, $3)
         ON CONFLICT (path) DO UPDATE SET claim_owner = excluded.claim_owner, claim_stamp = excluded.claim_stamp
         WHERE o.refs = 0 AND o.claim_owner IS NULL AND NOT o.deleted RETURNING 1`,
        [path, owner, tx.stamp],
      );
      if (ok) return { claimed: true, path, owner, stamp: tx.stamp } satisfies ClaimResult;
      const r = (await tx.one<{ refs: number }>('SELECT refs FROM object_refs WHERE path = $1', [path]))!;
      if (r.refs > 0) return { claimed: false, path, reason: 'referenced', refs: r.refs } satisfies ClaimResult;
      return { claimed: false, path, reason: 'claimed', refs: 0 } satisfies ClaimResult;
    });
  }

  async releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
    v.path('path', path);
    v.tokenString('owner', owner);
    if (typeof opts?.deleted !== 'boolean') throw errors.invalid('deleted', 'must be true or false');
    return this.write('releaseClaim', w, async (tx) => {
      await tx.beforeWrite();
      const r = await tx.one<{ claim_owner: string | null; deleted: boolean }>('SELECT claim_owner, deleted FROM object_refs WHERE path = $1 FOR UPDATE', [path]);
      if (r && r.deleted && opts.deleted) return; // a repeat
      if (!r || r.claim_owner !== owner) throw errors.notFound(`claim by ${owner} on ${path}`);
      if (opts.deleted) {
        // A tombstone: the path stays unreferenceable until it is pruned (after the commit-record TTL).
        await tx.q('UPDATE object_refs SET claim_owner = NULL, claim_stamp = $1, deleted = true, retired = NULL WHERE path = $2', [tx.stamp, path]);
      } else {
        await tx.q('UPDATE object_refs SET claim_owner = NULL, claim_stamp = NULL WHERE path = $1', [path]);
      }
    });
  }

  async objectRef(path: string): Promise<ObjectRef | null> {
    v.path('path', path);
    const r = await this.readOne<{ refs: number; claim_owner: string | null; claim_stamp: number | null }>(
      'SELECT refs, claim_owner, claim_stamp FROM object_refs WHERE path = $1',
      [path],
    );
    if (!r) return null;
    return { path, refs: r.refs, claim: r.claim_owner === null ? null : { owner: r.claim_owner, stamp: r.claim_stamp ?? 0 } };
  }

  // ------------------------------------------------------------ change feed

  async catalogVersion(): Promise<number> {
    const r = await this.readOne<{ version: number }>('SELECT version FROM catalog_counter');
    return r?.version ?? 0;
  }

  async changesSince(version: number, limit?: number): Promise<ChangesPage> {
    v.nonNegInt('version', version);
    const lim = limit === undefined ? MAX_PAGE_LIMIT : v.nonNegInt('limit', limit, MAX_PAGE_LIMIT);
    if (lim < 1) throw errors.invalid('limit', `must be in 1..${MAX_PAGE_LIMIT}`);
    const r = (await this.readOne<{ current: number; changes: Row[] | null }>(
      `SELECT (SELECT version FROM catalog_counter) AS current,
              (SELECT json_agg(c ORDER BY c.version) FROM
                 (SELECT version, ns, kind, id, stamp FROM catalog_changes WHERE version > $1 ORDER BY version LIMIT $2) c) AS changes`,
      [version, lim + 1],
    ))!;
    const rows = r.changes ?? [];
    const changes = rows.slice(0, lim).map(toChange);
    const last = changes[changes.length - 1];
    return { changes, version: last ? last.version : Math.max(version, r.current), more: rows.length > lim };
  }

  async watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    if (scope !== 'catalog') v.id('scope.ns', scope?.ns);
    v.nonNegInt('since', since);
    const timeoutMs = v.nonNegInt('timeoutMs', opts?.timeoutMs, MAX_WATCH_MS);
    if (this.closed) return { version: since, changed: false };
    const deadline = Date.now() + timeoutMs;
    const ns = scope === 'catalog' ? null : scope.ns;
    let woken: () => void = () => undefined;
    let wake = new Promise<void>((r) => (woken = r));
    const unsubscribe = await this.listener.subscribe(ns, () => woken());
    const probe = () =>
      this.readOne<{ v: number; hit: boolean }>(
        `SELECT (SELECT version FROM catalog_counter) AS v,
                EXISTS (SELECT 1 FROM catalog_changes WHERE version > $1 AND ($2::bigint IS NULL OR ns = $2)) AS hit`,
        [since, ns],
      );
    try {
      // Bounded: at most timeoutMs / WATCH_POLL_NO_LISTENER_MS + 1 probes, plus one per wake.
      for (;;) {
        if (this.closed) return { version: since, changed: false };
        if (opts.signal?.aborted) return { version: await this.catalogVersion().catch(() => since), changed: false };
        const r = (await probe())!;
        if (r.hit) return { version: r.v, changed: true };
        const left = deadline - Date.now();
        if (left <= 0) return { version: r.v, changed: false };
        const poll = this.listener.live ? WATCH_POLL_MS : WATCH_POLL_NO_LISTENER_MS;
        await waitFor(wake, Math.min(left, poll), [opts.signal, this.closing.signal]);
        wake = new Promise<void>((res) => (woken = res));
      }
    } catch (e) {
      if (this.closed) return { version: since, changed: false };
      throw e;
    } finally {
      unsubscribe();
    }
  }
}

/** Thrown inside a commit group's transaction to roll it back and run it again. */
class RestartGroup extends Error {
  constructor() {
    super('restart the commit group');
  }
}

/** Every chunk's stream is live (NotFound) and its partition in range (InvalidArgument), in request order. */
function checkChunks(chunks: WalChunk[], partitionsOf: Map<string, number>): void {
  for (const c of chunks) {
    const parts = partitionsOf.get(`${c.ns}/${c.stream}`);
    if (parts === undefined) throw errors.notFound(`stream ${c.stream} in namespace ${c.ns}`);
    if (c.partition >= parts) {
      throw errors.invalid('partition', `stream ${c.stream} has ${parts} partitions; partition ${c.partition} is out of range`);
    }
  }
}

/** Waits for `p`, `ms`, or any signal to abort. */
async function waitFor(p: Promise<void>, ms: number, signals: Array<AbortSignal | undefined>): Promise<void> {
  const ac = new AbortController();
  const onAbort = () => ac.abort();
  for (const s of signals) s?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.race([p, sleep(ms, undefined, { signal: ac.signal }).catch(() => undefined)]);
  } finally {
    ac.abort();
    for (const s of signals) s?.removeEventListener('abort', onAbort);
  }
}

// ------------------------------------------------------------ mapping helpers











/** A broken invariant is a bug in this backend, never the caller's input. */
function assert(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`postgres metastore invariant violated: ${what}`);
}

// The shared context of the PostgreSQL backend's modules: the pools, the LISTEN connection,
// and the one write-transaction and read helpers every concern goes through (spec §2.2, §4.2).
//
// - write(): stamp check, fault points, BEGIN, the commit-token lookup (a retry with the same
//   requestId returns the stored result), the concern's statements, the token row holding the
//   result and pg_current_xact_id(), COMMIT — a COMMIT whose reply was lost is resolved inside
//   the call (tx.ts). commitWal passes token: false and writes its own (object, group) record.
// - read(): one statement, one snapshot, on the read pool (readUrl; the primary by default).
// - prune(): expired commit tokens, WAL commit records and GC tombstones, in bounded batches,
//   by one node at a time (a transaction advisory lock), every PRUNE_EVERY_WRITES writes; and
//   catalog changes past the feed's retention (core/feed.ts), keeping each namespace's newest.
// Which calls store a token, the cadence, the batch and the cutoffs are the core's
// (core/tokens.ts); arguments were validated by the wrapper (core/validating.ts).
import pg from 'pg';
import { errors } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { PRUNE_FEED_SCAN, feedPruneBounds, feedPruneChoice, feedRetention, type FeedRetention } from '../../core/feed.js';
import { PRUNE_BATCH, PRUNE_EVERY_WRITES, checkOpenHandle, checkTokenOp, pruneCutoffs, requestTokenTtl, tokenFor } from '../../core/tokens.js';
import type { Capabilities, Fence, WriteContext } from '../../types.js';
import type { Row } from '../sql/rows.js';
import { tryAdvisoryXactLock } from './advisory.js';
import { mapPgError } from './errors.js';
import { CatalogListener } from './listener.js';
import { migrate, schemaVersion, SCHEMA_VERSION, SchemaTooNewError } from './migrations.js';
import { SQL } from './sql.js';
import { TYPES, WriteTx, acquire, commit, isConnectionError, newStats, resolveOutcome, type Stats } from './tx.js';

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
export { PRUNE_BATCH, PRUNE_EVERY_WRITES };
/** The advisory lock that makes pruning a cluster singleton. */
export const PRUNE_LOCK = 'loam:prune';

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
  /** How long commit tokens live (validated: core/tokens.ts requestTokenTtl); tests shorten it. */
  requestTokenTtlMs?: number;
  /** How much of the change feed is kept (validated: core/feed.ts feedRetention). */
  feedRetention?: Partial<FeedRetention>;
}

/** What every concern module works with: one per store handle. */
export class PgContext {
  readonly writePool: pg.Pool;
  readonly readPool: pg.Pool;
  readonly caps: Capabilities;
  readonly faults: FaultHook | undefined;
  readonly clock: () => number;
  readonly listener: CatalogListener;
  readonly stats: Stats = newStats();
  private readonly migrateAtStart: boolean;
  private readonly tokenTtlMs: number;
  private readonly feed: FeedRetention;
  private readyP: Promise<void> | undefined;
  private writes = 0;
  /** The version the feed's next prune pass reads on from (pruneFeed). */
  private feedCursor = 0;
  private pruning = false;
  closed = false;
  readonly closing = new AbortController();

  constructor(opts: PostgresOptions, caps: Capabilities) {
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
    this.caps = caps;
    this.faults = opts.faults;
    this.clock = opts.clock ?? Date.now;
    this.migrateAtStart = opts.migrate ?? true;
    this.tokenTtlMs = requestTokenTtl(opts.requestTokenTtlMs);
    this.feed = feedRetention(opts.feedRetention);
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

  checkOpen(): void {
    checkOpenHandle(this.closed);
  }

  /**
   * The one write-transaction helper: stamp check, fault points, BEGIN, commit-token lookup,
   * `fn`, the token row (with the xid), COMMIT — resolving a COMMIT whose reply was lost.
   * Calls idempotent by their own condition store no token (core/tokens.ts tokenFor); their
   * xid is read before COMMIT all the same, so a lost COMMIT is still resolved. commitWal's
   * `fn` writes its own (object, group) record, sets tx.xid, and says how to find the record.
   */
  async write<T>(
    op: string,
    w: (WriteContext & { fence?: Fence }) | undefined,
    fn: (tx: WriteTx) => Promise<T>,
    opts: { resolveToken?: () => Promise<boolean>; weight?: number } = {},
  ): Promise<T> {
    this.checkOpen();
    const stamp = w?.stamp ?? this.clock();
    const requestId = tokenFor(op, w?.requestId, w?.fence !== undefined);
    const useToken = requestId !== undefined;
    const tokenId = requestId ?? '';
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
          // The token moves with its namespace (src/meta/moves.ts): a retry on the target finds it.
          const ns = tx.namespaces.size === 1 ? [...tx.namespaces][0]! : null;
          const r = await tx.one<{ xid: string }>(SQL.TOKEN_INSERT, [tokenId, op, JSON.stringify(result ?? null), stamp, ns]);
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
        } else if (tx.xid === undefined) {
          tx.xid = (await tx.one<{ xid: string }>('SELECT pg_current_xact_id()::text AS xid'))!.xid;
        }
        if (this.faults) {
          const f = this.faults('BeforeCommit', op);
          if (f instanceof Promise) await f;
        }
        sent = true;
        const byToken = useToken ? () => this.tokenExists(tokenId) : opts.resolveToken;
        const resolver = (xid: string | undefined) => resolveOutcome(this.writePool, xid, byToken, this.stats);
        broken = (await commit(client, tx, op, this.faults, resolver, this.stats)).discard;
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
    // Counted in rows a write can add (a commitWal batch adds one record per group), so pruning
    // keeps up with insertion (core/tokens.ts).
    this.writes += opts.weight ?? 1;
    if (this.writes >= PRUNE_EVERY_WRITES) {
      this.writes -= PRUNE_EVERY_WRITES;
      void this.prune();
    }
    if (this.faults) await this.faults('AfterCommit', op);
    return result;
  }

  private priorResult<T>(prior: { op: string; result: unknown }, op: string): T {
    checkTokenOp(prior.op, op);
    return prior.result as T;
  }

  private async tokenExists(id: string): Promise<boolean> {
    const r = await this.writePool.query('SELECT 1 FROM request_tokens WHERE id = $1', [id]);
    return r.rowCount === 1;
  }

  /** A read: one statement (one snapshot) on the read pool. */
  async read<R = Row>(text: string, values: unknown[] = []): Promise<R[]> {
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

  async readOne<R = Row>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.read<R>(text, values))[0];
  }

  /**
   * One bounded prune pass (core/tokens.ts, core/feed.ts) in its own transaction, by one node
   * at a time (a transaction advisory lock): expired commit tokens, WAL commit records, GC
   * tombstones, and catalog changes past retention. Judged on this backend's clock, never a
   * proposer's stamp (spec §3.2.2).
   */
  private async prune(): Promise<void> {
    if (this.pruning || this.closed) return;
    this.pruning = true;
    let client: pg.PoolClient | undefined;
    try {
      client = await acquire(this.writePool);
      await client.query('BEGIN');
      if (await tryAdvisoryXactLock(client, PRUNE_LOCK)) {
        const now = this.clock();
        const cut = pruneCutoffs(now, this.tokenTtlMs);
        const n = async (text: string, values: unknown[]) => (await client!.query(text, values)).rowCount ?? 0;
        let removed = 0;
        removed += await n(
          'DELETE FROM request_tokens WHERE id IN (SELECT id FROM request_tokens WHERE stamp < $1 ORDER BY stamp LIMIT $2)',
          [cut.tokens, PRUNE_BATCH],
        );
        removed += await n(
          'DELETE FROM wal_commits WHERE (object, grp) IN (SELECT object, grp FROM wal_commits WHERE stamp < $1 ORDER BY stamp LIMIT $2)',
          [cut.records, PRUNE_BATCH],
        );
        removed += await n(
          'DELETE FROM object_refs WHERE path IN (SELECT path FROM object_refs WHERE deleted AND claim_stamp < $1 ORDER BY claim_stamp LIMIT $2)',
          [cut.records, PRUNE_BATCH],
        );
        removed += await this.pruneFeed(client, now);
        this.stats.prunes++;
        this.stats.pruned += removed;
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

  /**
   * Catalog changes past the feed's retention, keeping the newest change of each namespace: a
   * pass looks at the next PRUNE_FEED_SCAN changes after the last pass's (core/feed.ts decides
   * what goes and where the next pass reads on) — not a search that would read every kept
   * change. The highest version removed becomes the horizon (catalog_counter.horizon), below
   * which readers are told to resync.
   */
  private async pruneFeed(client: pg.PoolClient, now: number): Promise<number> {
    const top = await client.query<{ version: number }>('SELECT version FROM catalog_counter');
    const b = feedPruneBounds(top.rows[0]?.version ?? 0, now, this.feed);
    if (b.maxVersion < 1) return 0;
    const window = await client.query<{ version: string; old: boolean; superseded: boolean }>(
      `SELECT c.version, c.stamp < $1 AS old,
         EXISTS (SELECT 1 FROM catalog_changes d WHERE d.ns = c.ns AND d.version > c.version) AS superseded
       FROM catalog_changes c WHERE c.version > $2 AND c.version <= $3 ORDER BY c.version LIMIT $4`,
      [b.before, this.feedCursor, b.maxVersion, PRUNE_FEED_SCAN],
    );
    const { gone, cursor } = feedPruneChoice(window.rows.map((r) => ({ version: Number(r.version), old: r.old, superseded: r.superseded })));
    this.feedCursor = cursor;
    if (gone.length === 0) return 0;
    const r = await client.query('DELETE FROM catalog_changes WHERE version = ANY($1::bigint[])', [gone]);
    await client.query('UPDATE catalog_counter SET horizon = greatest(horizon, $1)', [gone[gone.length - 1]]);
    return r.rowCount ?? 0;
  }

  /** Prunes now (operators, tests); returns the rows removed, or null if another node is pruning. */
  async pruneNow(): Promise<number | null> {
    const before = this.stats.pruned;
    const passes = this.stats.prunes;
    await this.prune();
    return this.stats.prunes > passes ? this.stats.pruned - before : null;
  }
}

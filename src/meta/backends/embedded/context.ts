// The embedded backend's context: one SQLite handle (better-sqlite3) and the parts every
// concern module maps onto it — the one write-transaction helper, snapshot reads, the
// commit-token rows and their pruning (core/tokens.ts), the row loaders the rules read, and
// object references. The concern modules (catalog, log, pointers, leases, tags-gc, feed)
// hold only their SQL and call the core's rules.
//
// - One call is one `BEGIN IMMEDIATE` transaction (commitWal: one per partition group,
//   spec §3.1), except that the commitWal groups queued together share one, each in its own
//   savepoint (group commit, ./group-commit.ts). Reads run in a deferred transaction, which
//   in WAL mode is a snapshot.
// - A transaction's body is synchronous: nothing else runs on this handle until COMMIT, so
//   two calls of one handle cannot interleave inside one transaction.
// - The ControlStore and the directory may share this connection (src/control/embedded.ts),
//   and their transactions span awaits: a call that finds one open waits for its end.
// - Several handles (threads, processes) may open one file; writers serialise on SQLite's
//   write lock and wait up to BUSY_TIMEOUT_MS before Retryable('busy').
import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { errors, isMetaError } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { checkFence } from '../../core/leases.js';
import { checkReferenceable, type ClaimState } from '../../core/pointers.js';
import { PRUNE_BATCH, PRUNE_EVERY_WRITES, checkOpenHandle, checkTokenOp, pruneCutoffs, tokenFor } from '../../core/tokens.js';
import { PRUNE_FEED_SCAN, feedPruneBounds, feedPruneChoice, type FeedRetention } from '../../core/feed.js';
import { checkWritable, namespaceOfPath, type FenceRow } from '../../core/moves.js';
import type { ChangeKind, Collection, Fence, Namespace, PartitionHead, Stamp, Stream, WriteContext } from '../../types.js';
import { scopeKey, toCollection, toHeads, toNamespace, toStream, type Row } from '../sql/rows.js';
import { GroupCommit, type GroupTx } from './group-commit.js';
import { migrate } from './migrations.js';

/** How long a writer waits for another handle's write lock before Retryable('busy'). */
export const BUSY_TIMEOUT_MS = 5_000;
/**
 * The writes of a namespace move that writers wait on (src/meta/moves.ts: the fence, the delta,
 * the retirement, the unfence; and the tracking and catch-up before them). They wait for the
 * write lock by trying it every PROMPT_POLL_MS instead of in SQLite's busy handler, whose
 * sleeps grow to 100 ms: against a busy writer in another process (the namespace's own
 * writers, which take the lock again within microseconds of each commit) that handler can
 * lose for seconds, and every change meanwhile lands in the fenced delta.
 */
export const PROMPT_OPS: ReadonlySet<string> = new Set([
  'trackNamespace',
  'takeNamespaceChanges',
  'fenceNamespace',
  'importNamespaceChanges',
  'retireNamespace',
  'unfenceNamespace',
]);
/**
 * The writes that go through group commit (./group-commit.ts): a node's hottest, called
 * concurrently by its writers. The others run one transaction per call.
 */
export const GROUPED_OPS: ReadonlySet<string> = new Set(['commitWal']);
/** How often a prompt write tries the write lock. */
export const PROMPT_POLL_MS = 1;
/** Pause between tries to switch a fresh file to WAL mode while another process holds it (doubling up to this). */
const WAL_SWITCH_MAX_PAUSE_MS = 50;

/**
 * journal_mode=WAL, waiting up to BUSY_TIMEOUT_MS for other processes opening the same fresh
 * file at once: SQLite answers the switch SQLITE_BUSY at once, without its busy handler, while
 * another connection holds the file (nodes of one host starting together; CI saw one of six
 * fail so under load). The constructor is synchronous, so the pause is a blocking sleep.
 */
function enterWal(db: Database.Database): void {
  const deadline = performance.now() + BUSY_TIMEOUT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (let ms = 1; ; ms = Math.min(ms * 2, WAL_SWITCH_MAX_PAUSE_MS)) {
    try {
      db.pragma('journal_mode = WAL');
      return;
    } catch (e) {
      if (!((e as { code?: string }).code ?? '').startsWith('SQLITE_BUSY') || performance.now() + ms > deadline) throw e;
      Atomics.wait(pause, 0, 0, ms);
    }
  }
}
/**
 * Page cache per SQLite connection, KiB (better-sqlite3's build defaults to 16 MB each; a node
 * opens one in its main thread and one in its worker thread). The metastore's hot pages are
 * partition heads and recent index rows, far less than this; the rest is the OS page cache's.
 */
export const SQLITE_CACHE_KIB = 8 * 1024;

/**
 * The statements of one prune pass. Each reads through an index and reads or touches at most
 * its batch of rows, so a pass costs the same whatever the size of the tables it prunes
 * (test/unit/embedded-prune.test.ts checks their query plans).
 */
export const PRUNE_SQL = {
  tokensDue: 'SELECT 1 FROM request_tokens WHERE stamp < ? LIMIT 1',
  walCommitsDue: 'SELECT 1 FROM wal_commits WHERE stamp < ? LIMIT 1',
  tombstonesDue: 'SELECT 1 FROM object_refs WHERE deleted = 1 AND claim_stamp < ? LIMIT 1',
  tokens: 'DELETE FROM request_tokens WHERE id IN (SELECT id FROM request_tokens WHERE stamp < ? ORDER BY stamp LIMIT ?)',
  walCommits: 'DELETE FROM wal_commits WHERE (object, grp) IN (SELECT object, grp FROM wal_commits WHERE stamp < ? ORDER BY stamp LIMIT ?)',
  tombstones: 'DELETE FROM object_refs WHERE path IN (SELECT path FROM object_refs WHERE deleted = 1 AND claim_stamp < ? ORDER BY claim_stamp LIMIT ?)',
  // A window of the feed after the cursor, each change with whether it is past retention and
  // superseded (a newer change of its namespace exists): the LIMIT bounds the rows read.
  feedWindow: `SELECT c.version AS version, c.stamp < ? AS old,
      EXISTS (SELECT 1 FROM catalog_changes d WHERE d.ns = c.ns AND d.version > c.version) AS superseded
    FROM catalog_changes c WHERE c.version > ? AND c.version <= ? ORDER BY c.version LIMIT ?`,
  feedDelete: 'DELETE FROM catalog_changes WHERE version IN (SELECT value FROM json_each(?))',
} as const;

export interface ContextOptions {
  path: string;
  synchronous: 'FULL' | 'NORMAL';
  faults: FaultHook | undefined;
  clock: () => number;
  tokenTtlMs: number;
  feed: FeedRetention;
}

export class SqliteContext {
  readonly db: Database.Database;
  readonly clock: () => number;
  /** Emitted after a commit that recorded a catalog change, and at close: wakes this handle's watchers. */
  readonly changed = new EventEmitter();
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly faults: FaultHook | undefined;
  private readonly tokenTtlMs: number;
  private readonly feed: FeedRetention;
  private writes = 0;
  /** The version the feed's next prune pass reads on from (pruneFeed). */
  private feedCursor = 0;
  private pendingWake = false;
  /** The namespaces the current write checked (writable): its commit token names the one it wrote to. */
  private readonly txNamespaces = new Set<number>();
  /** commitWal's group commit (./group-commit.ts). */
  readonly groups: GroupCommit;
  closed = false;

  constructor(o: ContextOptions) {
    this.db = new Database(o.path, { timeout: BUSY_TIMEOUT_MS });
    enterWal(this.db);
    this.db.pragma(`synchronous = ${o.synchronous}`);
    this.db.pragma('foreign_keys = OFF');
    this.db.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    migrate(this.db);
    this.faults = o.faults;
    this.clock = o.clock;
    this.tokenTtlMs = o.tokenTtlMs;
    this.feed = o.feed;
    this.changed.setMaxListeners(0);
    this.groups = new GroupCommit(this.groupTx());
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      checkOpenHandle(true);
    } catch (e) {
      this.groups.failQueued(e);
    }
    this.changed.emit('change');
    this.db.close();
  }

  // ------------------------------------------------------------ statements

  /** The handle's prepared statement for `sql`, prepared on first use and reused. */
  statement(sql: string): Database.Statement {
    return this.q(sql);
  }

  private q(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  get<T = Row>(sql: string, ...args: unknown[]): T | undefined {
    return this.q(sql).get(...args) as T | undefined;
  }

  all<T = Row>(sql: string, ...args: unknown[]): T[] {
    return this.q(sql).all(...args) as T[];
  }

  /** Rows as arrays of column values (no object per row: for long pages). */
  rows<T extends unknown[]>(sql: string, ...args: unknown[]): T[] {
    const key = `raw:${sql}`;
    let s = this.stmts.get(key);
    if (!s) {
      s = this.db.prepare(sql).raw(true);
      this.stmts.set(key, s);
    }
    return s.all(...args) as T[];
  }

  run(sql: string, ...args: unknown[]): Database.RunResult {
    return this.q(sql).run(...args);
  }

  checkOpen(): void {
    checkOpenHandle(this.closed);
  }

  // ------------------------------------------------------------ transactions

  /**
   * The one write-transaction helper: fault points (spec §4.2), BEGIN IMMEDIATE, the call's
   * body (below), COMMIT; commitWal's calls go through group commit instead, one savepoint
   * each. Arguments were validated by the wrapper; `fn` runs synchronously.
   */
  async write<T>(op: string, w: (WriteContext & { fence?: Fence }) | undefined, fn: (stamp: Stamp) => T): Promise<T> {
    this.checkOpen();
    const stamp = w?.stamp ?? this.clock();
    const token = tokenFor(op, w?.requestId, w?.fence !== undefined);
    if (this.faults) await this.faults('BeforeBegin', op);
    this.checkOpen();
    if (GROUPED_OPS.has(op)) {
      // Group commit (./group-commit.ts): answered once the group's COMMIT holds this write.
      const result = await this.groups.add(() => this.body(op, token, stamp, fn));
      if (this.faults) await this.faults('AfterCommit', op);
      return result;
    }
    try {
      if (PROMPT_OPS.has(op)) {
        // No await between a BEGIN that succeeded and the body: the body must run in the same tick.
        const deadline = performance.now() + BUSY_TIMEOUT_MS;
        while (this.db.inTransaction || !this.tryBegin()) {
          if (performance.now() + PROMPT_POLL_MS > deadline) throw errors.retryable('busy', `the metastore file is locked by another writer (waited ${BUSY_TIMEOUT_MS} ms)`, true);
          await new Promise((r) => setTimeout(r, PROMPT_POLL_MS));
          this.checkOpen();
        }
      } else {
        if (this.db.inTransaction) await this.connectionIdle();
        this.db.exec('BEGIN IMMEDIATE');
      }
    } catch (e) {
      throw mapSqliteError(e, true);
    }
    let result: T;
    try {
      result = this.body(op, token, stamp, fn);
      this.db.exec('COMMIT');
    } catch (e) {
      this.pendingWake = false;
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw mapSqliteError(e, false);
    }
    this.wake();
    if (this.faults) await this.faults('AfterCommit', op);
    return result;
  }

  /**
   * One call's part of a write transaction, synchronous: the commit-token lookup and record
   * (only for calls that need one, core/tokens.ts), the call's statements, bounded pruning,
   * and the BeforeCommit fault point. A throw rolls back this call's writes (its transaction,
   * or in a group its savepoint).
   */
  private body<T>(op: string, token: string | undefined, stamp: Stamp, fn: (stamp: Stamp) => T): T {
    let result: T;
    const prior = token ? this.get<{ op: string; result: string }>('SELECT op, result FROM request_tokens WHERE id = ?', token) : undefined;
    if (prior) {
      checkTokenOp(prior.op, op);
      result = JSON.parse(prior.result) as T;
    } else {
      this.txNamespaces.clear();
      result = fn(stamp);
      if (token) {
        // The token moves with its namespace (src/meta/moves.ts): a retry on the target finds it.
        const ns = this.txNamespaces.size === 1 ? [...this.txNamespaces][0]! : null;
        this.run('INSERT INTO request_tokens (id, op, result, stamp, ns) VALUES (?, ?, ?, ?, ?)', token, op, JSON.stringify(result ?? null), stamp, ns);
      }
      if (++this.writes % PRUNE_EVERY_WRITES === 0) this.prune();
    }
    if (this.faults) {
      const r = this.faults('BeforeCommit', op);
      if (r instanceof Promise) throw new Error('a BeforeCommit fault hook must be synchronous');
    }
    return result;
  }

  /** After a COMMIT: wakes this handle's watchers if it recorded a catalog change. */
  private wake(): void {
    if (!this.pendingWake) return;
    this.pendingWake = false;
    this.changed.emit('change');
  }

  /** The statements of a group transaction (./group-commit.ts), prepared once. */
  private groupTx(): GroupTx {
    const st = (sql: string) => this.db.prepare(sql);
    const [begin, commit, rollback, savepoint, release, rollbackTo] = [
      st('BEGIN IMMEDIATE'),
      st('COMMIT'),
      st('ROLLBACK'),
      st('SAVEPOINT group_call'),
      st('RELEASE group_call'),
      st('ROLLBACK TO group_call'),
    ];
    return {
      begin: () => {
        this.checkOpen();
        if (this.db.inTransaction) throw errors.retryable('busy', `another transaction on the metastore's connection stayed open (waited ${BUSY_TIMEOUT_MS} ms)`, true);
        begin.run();
      },
      commit: () => commit.run(),
      rollback: () => rollback.run(),
      savepoint: () => savepoint.run(),
      release: () => release.run(),
      rollbackToSavepoint: () => rollbackTo.run(),
      inTransaction: () => this.db.inTransaction,
      mapError: mapSqliteError,
      settled: (committed) => {
        if (committed) this.wake();
        else this.pendingWake = false;
      },
    };
  }

  /** BEGIN IMMEDIATE without waiting: false if another handle holds the write lock. */
  private tryBegin(): boolean {
    this.db.pragma('busy_timeout = 0');
    try {
      this.db.exec('BEGIN IMMEDIATE');
      return true;
    } catch (e) {
      if (((e as { code?: string }).code ?? '').startsWith('SQLITE_BUSY')) return false;
      throw e;
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  /**
   * Waits until no transaction is open on the connection. This handle's own never span an
   * await, so one open now belongs to the ControlStore or the directory, which share the
   * connection (src/control/embedded.ts) and keep a transaction across awaits: a BEGIN now
   * would fail with "cannot start a transaction within a transaction". Bounded by
   * BUSY_TIMEOUT_MS, then Retryable('busy') (nothing was started).
   */
  private async connectionIdle(): Promise<void> {
    const deadline = performance.now() + BUSY_TIMEOUT_MS;
    while (this.db.inTransaction) {
      if (performance.now() > deadline) throw errors.retryable('busy', `another transaction on the metastore's connection stayed open (waited ${BUSY_TIMEOUT_MS} ms)`, true);
      await new Promise((r) => setImmediate(r));
      this.checkOpen();
    }
  }

  /** A read in a deferred transaction: a snapshot in WAL mode. */
  async read<T>(fn: () => T): Promise<T> {
    this.checkOpen();
    if (this.db.inTransaction) await this.connectionIdle();
    try {
      this.db.exec('BEGIN');
      try {
        return fn();
      } finally {
        if (this.db.inTransaction) this.db.exec('COMMIT');
      }
    } catch (e) {
      throw mapSqliteError(e, true);
    }
  }

  /**
   * One bounded prune pass inside the current write (core/tokens.ts, core/feed.ts): expired
   * commit tokens, WAL commit records and GC tombstones, and catalog changes past the feed's
   * retention. Judged on this backend's clock, never on the proposer's stamp. Returns the rows removed.
   */
  prune(): number {
    const now = this.clock();
    const cut = pruneCutoffs(now, this.tokenTtlMs);
    let n = 0;
    // A DELETE … IN (subquery) costs ten times its probe even when nothing is due, and most
    // passes find nothing: probe first.
    if (this.get(PRUNE_SQL.tokensDue, cut.tokens)) n += this.run(PRUNE_SQL.tokens, cut.tokens, PRUNE_BATCH).changes;
    if (this.get(PRUNE_SQL.walCommitsDue, cut.records)) n += this.run(PRUNE_SQL.walCommits, cut.records, PRUNE_BATCH).changes;
    if (this.get(PRUNE_SQL.tombstonesDue, cut.records)) n += this.run(PRUNE_SQL.tombstones, cut.records, PRUNE_BATCH).changes;
    n += this.pruneFeed(now);
    return n;
  }

  /**
   * Catalog changes past retention, keeping the newest change of each namespace: each pass
   * looks at the next PRUNE_FEED_SCAN changes after the last pass's (back to the oldest at the
   * end of the prunable range) and removes at most PRUNE_BATCH of them.
   */
  private pruneFeed(now: number): number {
    const newest = this.currentVersion();
    const b = feedPruneBounds(newest, now, this.feed);
    if (b.maxVersion < 1) return 0;
    const rows = this.all<{ version: number; old: number; superseded: number }>(PRUNE_SQL.feedWindow, b.before, this.feedCursor, b.maxVersion, PRUNE_FEED_SCAN);
    const { gone, cursor } = feedPruneChoice(rows);
    this.feedCursor = cursor;
    if (gone.length === 0) return 0;
    const top = gone[gone.length - 1]!;
    const n = this.run(PRUNE_SQL.feedDelete, JSON.stringify(gone)).changes;
    this.run("UPDATE counters SET value = max(value, ?) WHERE kind = 'feed_horizon'", top);
    return n;
  }

  /** Runs one prune pass now (operators, tests): the rows removed. */
  async pruneNow(): Promise<number> {
    this.checkOpen();
    if (this.db.inTransaction) await this.connectionIdle();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const n = this.prune();
      this.db.exec('COMMIT');
      return n;
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw mapSqliteError(e, false);
    }
  }

  // ------------------------------------------------------------ shared row access

  nextId(kind: 'namespace' | 'stream' | 'collection' | 'link'): number {
    return this.get<{ value: number }>('UPDATE counters SET value = value + 1 WHERE kind = ? RETURNING value', kind)!.value;
  }

  /** A catalog change, in the current write; this handle's watchers wake after COMMIT. */
  recordChange(ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): void {
    this.run('INSERT INTO catalog_changes (ns, kind, id, stamp) VALUES (?, ?, ?, ?)', ns, kind, id, stamp);
    this.pendingWake = true;
  }

  currentVersion(): number {
    return this.get<{ v: number | null }>('SELECT max(version) AS v FROM catalog_changes')!.v ?? 0;
  }

  feedHorizon(): number {
    return this.get<{ value: number }>("SELECT value FROM counters WHERE kind = 'feed_horizon'")?.value ?? 0;
  }

  namespaceState(ns: number): Namespace['state'] | null {
    return (this.get<{ state: Namespace['state'] }>('SELECT state FROM namespaces WHERE id = ?', ns)?.state ?? null);
  }

  /** The namespace row as the move rules read it (core/moves.ts); null if absent. */
  fenceRow(ns: number): FenceRow | null {
    const r = this.get<{ state: string; move_state: string | null; move_epoch: number }>('SELECT state, move_state, move_epoch FROM namespaces WHERE id = ?', ns);
    return r ? { state: r.state, moveState: r.move_state, moveEpoch: r.move_epoch } : null;
  }

  /** The move fence every write to a namespace checks in its transaction (spec §5.5). */
  writable(ns: number): void {
    this.txNamespaces.add(ns);
    checkWritable(ns, this.fenceRow(ns));
  }

  /** The fence of the namespace owning an object path (ns/<id>/…); WAL objects are cluster-level. */
  writablePath(path: string): void {
    const ns = namespaceOfPath(path);
    if (ns !== null) this.writable(ns);
  }

  liveNamespace(ns: number): Namespace {
    const r = this.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns);
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
    return toNamespace(r);
  }

  liveCollection(ns: number, id: number): Collection {
    const r = this.get<Row>('SELECT * FROM collections WHERE ns = ? AND id = ?', ns, id);
    if (!r || r.state !== 'live') throw errors.notFound(`collection ${id} in namespace ${ns}`);
    return toCollection(r);
  }

  liveStream(ns: number, id: number): Stream {
    const r = this.get<Row>('SELECT * FROM streams WHERE ns = ? AND id = ?', ns, id);
    if (!r || r.state !== 'live') throw streamNotFound(ns, id);
    return toStream(r);
  }

  /** A live stream's partition count (the one column commitWal needs); NotFound as liveStream. */
  livePartitions(ns: number, id: number): number {
    const r = this.get<{ partitions: number; state: string }>('SELECT partitions, state FROM streams WHERE ns = ? AND id = ?', ns, id);
    if (!r || r.state !== 'live') throw streamNotFound(ns, id);
    return r.partitions;
  }

  head(ns: number, stream: number, partition: number): PartitionHead {
    const r = this.get<{ next: number; log_start: number; bytes: number }>(
      'SELECT next, log_start, bytes FROM heads WHERE ns = ? AND stream = ? AND partition = ?',
      ns,
      stream,
      partition,
    );
    return { partition, next: r?.next ?? 0, logStart: r?.log_start ?? 0, bytes: r?.bytes ?? 0 };
  }

  heads(ns: number, stream: number, partitions: number): PartitionHead[] {
    return toHeads(this.all<Row>('SELECT partition, next, log_start, bytes FROM heads WHERE ns = ? AND stream = ? ORDER BY partition', ns, stream), partitions);
  }

  // ------------------------------------------------------------ object references (spec §3.2.3)

  refState(path: string): ClaimState | null {
    const r = this.get<{ refs: number; claim_owner: string | null; claim_epoch: number | null; deleted: number }>(
      'SELECT refs, claim_owner, claim_epoch, deleted FROM object_refs WHERE path = ?',
      path,
    );
    return r ? { refs: r.refs, claimOwner: r.claim_owner, claimEpoch: r.claim_epoch, deleted: r.deleted === 1 } : null;
  }

  /** FenceMismatch unless the fence's lease is at its epoch, read in the current transaction. */
  checkFence(fence: Fence | undefined, what: string): void {
    if (!fence) return;
    const l = this.get<{ epoch: number; owner: string | null }>('SELECT epoch, owner FROM leases WHERE scope = ? AND key = ?', scopeKey(fence.scope), fence.key);
    checkFence(what, l ?? null, fence.epoch);
  }

  /** Takes n references on a path; Claimed if GC claimed or deleted it. */
  addRef(path: string, kind: 'wal' | 'segment' | 'manifest', n: number): void {
    checkReferenceable(path, this.refState(path));
    this.run(
      `INSERT INTO object_refs (path, kind, refs) VALUES (?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET refs = refs + excluded.refs, retired = NULL,
         kind = CASE WHEN kind = 'unknown' THEN excluded.kind ELSE kind END`,
      path,
      kind,
      n,
    );
  }

  /** Releases n references; a WAL object at zero is retired (its live count, spec §5.2). */
  dropRef(path: string, n: number, stamp: Stamp): void {
    const r = this.get<{ refs: number; kind: string }>('SELECT refs, kind FROM object_refs WHERE path = ?', path);
    if (!r) return;
    const refs = r.refs - n;
    invariant(refs >= 0, `object ${path}: reference count would go negative`);
    this.run('UPDATE object_refs SET refs = ?, retired = ? WHERE path = ?', refs, refs === 0 && r.kind === 'wal' ? stamp : null, path);
  }
}

function streamNotFound(ns: number, id: number) {
  return errors.notFound(`stream ${id} in namespace ${ns}`);
}

/** A broken invariant is a bug in this backend, never the caller's input. */
export function invariant(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`embedded metastore invariant violated: ${what}`);
}

/** Maps SQLite's errors into the contract's (typed errors pass through). */
function mapSqliteError(e: unknown, beforeBegin: boolean): unknown {
  if (isMetaError(e)) return e;
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_')) {
    return errors.retryable('busy', `the metastore file is locked by another writer (waited ${BUSY_TIMEOUT_MS} ms)`, beforeBegin);
  }
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) {
    return errors.unknown(`metastore I/O error (${code}): ${(e as Error).message}`);
  }
  return e;
}

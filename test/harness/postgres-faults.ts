// The faults the PostgreSQL fault matrix has the real server produce (spec §4.2), instead of
// throwing a typed error from the hook, so the SQLSTATE → typed-error map (errors.ts) and the
// lost-COMMIT resolution (tx.ts) are what the cells exercise:
//
//   BeforeSend    pool exhaustion: every connection of the store's write pool is checked out,
//                 so acquiring one times out (connectTimeoutMs, short for the cell) before BEGIN.
//   Throttle      53300 too_many_connections: on a cluster of its own with a small
//                 max_connections, filler sessions take every slot and the store's pool must
//                 open a new connection, which the server refuses.
//   Conflict      40P01 deadlock_detected: a competing transaction takes EXCLUSIVE locks on the
//                 tables the call writes after its Race point (request_tokens, wal_commits,
//                 leases, heads), then asks for ACCESS EXCLUSIVE on the tables the call's plain
//                 reads hold, which waits for the call; the call's
//                 next write waits for the EXCLUSIVE locks: a cycle, which the call's deadlock
//                 check finds (its deadlock_timeout is short, the competitor's long), so the
//                 server aborts the call's transaction.
//   Undetermined  the session killed during COMMIT: at BeforeCommit its server process is
//                 stopped (SIGSTOP) and pg_terminate_backend'ed; at CommitSent the client cuts
//                 its socket. The backend then finds pg_xact_status 'in progress' (the stopped
//                 process still holds the transaction) and, once the process is continued and
//                 dies, 'aborted'.
//   Delay         a hang past the retry budget: the competing transaction's EXCLUSIVE locks are
//                 held until the call has given up; the budget ends the call (SurfacedUnknown).
//                 settle() lets the abandoned attempt finish before the cell's checks.
//
// Stopping a server process needs the cluster on this machine (the one test/run.ts or the
// harness started); a remote LOAM_TEST_PG_URL fails the Undetermined cells with that reason.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import type { PostgresMetaStore, PostgresOptions } from '../../src/meta/backends/postgres/index.js';
import type { RealFault } from '../faults/matrix.js';
import type { Cluster, ClusterOptions } from './postgres.js';

/** What the producers need from the factory. */
export interface FaultFactoryHooks {
  /** A fresh migrated database on `server` (default: the test server), opened with `extra`. */
  openWith(faults: FaultHook, opts: { server?: string; extra?: Partial<PostgresOptions>; settings?: Record<string, string> }): Promise<PostgresMetaStore>;
  /** The database URL of a store the factory opened. */
  urlOf(store: MetaStore): string;
  /** Starts a throwaway cluster (stopped when the process exits). */
  startCluster(opts: ClusterOptions): Promise<Cluster>;
}

/** The throttle cluster's max_connections: a store's pools, the race handle and a few fillers. */
const THROTTLE_MAX_CONNECTIONS = 20;
/** Upper bound on filler sessions (the server refuses long before). */
const MAX_FILLERS = 100;
/**
 * How long an attempt of the pool-exhaustion cell waits for a connection while every one is
 * held. Set on the write pool only while the fault holds it (pg-pool reads the option at each
 * wait), so the cell's own setup and checks connect with the store's usual timeout: a loaded
 * machine's real connect outran 250 ms ("Connection terminated due to connection timeout").
 */
const EXHAUSTED_CONNECT_TIMEOUT_MS = 250;
/** The deadlock cell's deadlock_timeout for the call's sessions (the competitor's is far longer). */
const CALL_DEADLOCK_TIMEOUT = '50ms';
const COMPETITOR_DEADLOCK_TIMEOUT = '30s';
/** The Delay cell's retry budget, which the hang outlasts. */
const HANG_BUDGET_MS = 400;
/**
 * Bound on every wait of a producer (a session to appear waiting, an attempt to finish). A
 * bound, not a measure: at a load of 30 on two cores these waits took several seconds.
 */
const PRODUCER_WAIT_MS = 60_000;
/**
 * Tables every matrix call writes or row-locks after its Race point: its commit token,
 * commitWal's (object, group) record, a lease, or a partition head.
 */
const WRITTEN_TABLES = 'request_tokens, wal_commits, leases, heads';

async function until(what: string, cond: () => Promise<boolean> | boolean): Promise<void> {
  const deadline = Date.now() + PRODUCER_WAIT_MS;
  for (let delay = 2; !(await cond()); delay = Math.min(delay * 2, 50)) {
    if (Date.now() > deadline) throw new Error(`fault producer: ${what} did not happen within ${PRODUCER_WAIT_MS} ms`);
    await sleep(delay);
  }
}

/**
 * Checks that every attempt a producer fired on failed with the error the server was to
 * produce (its message names the SQLSTATE or the mechanism), so a cell cannot pass by accident.
 */
class Expect {
  private fired = 0;
  private seen = 0;
  constructor(private readonly what: string, private readonly pattern: RegExp) {}
  fire(): void {
    this.fired++;
  }
  observe(e: unknown): void {
    if (this.pattern.test(String((e as Error)?.message ?? e))) this.seen++;
  }
  check(): void {
    const [fired, seen] = [this.fired, this.seen];
    this.fired = this.seen = 0;
    if (seen < fired) throw new Error(`fault producer: ${this.what} was set up ${fired} time(s) but the call failed with it ${seen} time(s)`);
  }
}

/** Waits until no connection of the store's write pool is checked out (its calls have ended). */
async function quiesce(store: MetaStore, url: string): Promise<void> {
  const pool = (store as PostgresMetaStore).writePool;
  await until('the abandoned attempt to end', () => pool.totalCount === pool.idleCount);
  // The client may have let go of a connection whose transaction the server is still running
  // (it gave up on it): wait until no other session of the database is mid-statement or
  // mid-transaction, so the cell's invariant check reads a settled database.
  const c = new pg.Client({ connectionString: url, application_name: 'loam-fault-quiesce' });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await until('the server to end the abandoned transaction', async () => {
      const r = await c.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()
            AND backend_type = 'client backend' AND state IS DISTINCT FROM 'idle'`,
      );
      return (r.rows[0] as { n: number }).n === 0;
    });
  } finally {
    await c.end().catch(() => undefined);
  }
}

/** A competing transaction holding EXCLUSIVE locks on LAST_TABLES in the store's database. */
class Competitor {
  private client: pg.Client | undefined;
  private upgrade: Promise<unknown> | undefined;

  async lock(url: string): Promise<void> {
    const c = new pg.Client({ connectionString: url, application_name: 'loam-fault-competitor' });
    c.on('error', () => undefined);
    await c.connect();
    this.client = c;
    await c.query(`SET deadlock_timeout = '${COMPETITOR_DEADLOCK_TIMEOUT}'`);
    await c.query('BEGIN');
    await c.query(`LOCK TABLE ${WRITTEN_TABLES} IN EXCLUSIVE MODE`);
  }

  /**
   * Closes the cycle before the call goes on: asks for ACCESS EXCLUSIVE, which waits for the
   * call's reads, and returns once the server shows it waiting. The call's next write then
   * waits for our EXCLUSIVE locks, and its deadlock check (deadlock_timeout after it began
   * waiting) finds the cycle.
   */
  async closeCycle(url: string): Promise<void> {
    const c = this.client!;
    const pid = (await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const probe = new pg.Client({ connectionString: url });
    probe.on('error', () => undefined);
    await probe.connect();
    try {
      // The tables the call's plain reads hold (ACCESS SHARE): the call's session is the one
      // idle inside a transaction at its Race point.
      const read = await probe.query<{ t: string }>(
        `SELECT DISTINCT quote_ident(c.relname) AS t FROM pg_locks l JOIN pg_class c ON c.oid = l.relation
           JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE a.datname = current_database() AND a.state = 'idle in transaction' AND a.pid NOT IN ($1, pg_backend_pid())
            AND l.mode = 'AccessShareLock' AND l.granted AND c.relkind = 'r'`,
        [pid],
      );
      if (read.rows.length === 0) throw new Error('fault producer: the call holds no table from its reads, so no lock cycle can be made');
      this.upgrade = c.query(`LOCK TABLE ${read.rows.map((r) => r.t).join(', ')} IN ACCESS EXCLUSIVE MODE`).catch((e: unknown) => e);
      await until('the competitor to wait for the call', async () => {
        const r = await probe.query('SELECT 1 FROM pg_locks WHERE pid = $1 AND NOT granted', [pid]);
        return (r.rowCount ?? 0) > 0;
      });
    } finally {
      await probe.end().catch(() => undefined);
    }
  }

  async end(): Promise<void> {
    const c = this.client;
    if (!c) return;
    this.client = undefined;
    const failed = await this.upgrade;
    this.upgrade = undefined;
    await c.query('ROLLBACK').catch(() => undefined);
    await c.end().catch(() => undefined);
    if (failed instanceof Error) throw new Error(`the competing transaction failed: ${failed.message}`, { cause: failed });
  }
}

/** The server process behind the one session of the store's database that is inside a write transaction. */
async function writingBackend(url: string): Promise<number> {
  const c = new pg.Client({ connectionString: url });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
         AND state = 'idle in transaction' AND backend_xid IS NOT NULL`,
    );
    if (r.rows.length !== 1) throw new Error(`fault producer: expected one session inside a write transaction, found ${r.rows.length}`);
    const pid = r.rows[0]!.pid;
    // Only a process of the cluster on this machine may be signalled: its parent is the postmaster.
    const dir = (await c.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'data_directory'")).rows[0]!.setting;
    let postmaster = NaN;
    let parent = NaN;
    try {
      postmaster = Number(readFileSync(`${dir}/postmaster.pid`, 'utf8').split('\n')[0]);
      parent = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[1]);
    } catch {
      // not on this machine
    }
    if (!(postmaster > 0) || parent !== postmaster) {
      throw new Error('the Undetermined cells stop a server process: they need the PostgreSQL cluster on this machine (unset LOAM_TEST_PG_URL)');
    }
    return pid;
  } finally {
    await c.end().catch(() => undefined);
  }
}

export function postgresRealFaults(f: FaultFactoryHooks): {
  produce: Record<'BeforeSend' | 'Throttle' | 'Conflict' | 'Undetermined' | 'Delay', RealFault>;
  /** Settles whatever a cell left (sessions, held connections, a stopped process). */
  stop(): Promise<void>;
} {
  // Pool exhaustion.
  let held: pg.PoolClient[] = [];
  /** The write pool's own connect timeout, put back when the fault lets go. */
  let heldTimeout: { options: { connectionTimeoutMillis: number }; usual: number } | undefined;
  const exhausted = new Expect('pool exhaustion', /connection pool exhausted/);
  const beforeSend: RealFault = {
    point: 'BeforeBegin',
    how: 'real pool exhaustion: every pooled connection is checked out, so none is had within connectTimeoutMs',
    observe: (e) => exhausted.observe(e),
    async fire(store) {
      exhausted.fire();
      const pool = (store as PostgresMetaStore).writePool;
      const options = (pool as unknown as { options: { max: number; connectionTimeoutMillis: number } }).options;
      while (held.length < options.max) held.push(await pool.connect());
      heldTimeout ??= { options, usual: options.connectionTimeoutMillis };
      options.connectionTimeoutMillis = EXHAUSTED_CONNECT_TIMEOUT_MS;
    },
    async settle() {
      if (heldTimeout) heldTimeout.options.connectionTimeoutMillis = heldTimeout.usual;
      heldTimeout = undefined;
      for (const c of held.splice(0)) c.release();
      exhausted.check();
    },
  };

  // 53300 from max_connections, on a cluster of its own.
  let throttleCluster: Promise<Cluster> | undefined;
  let fillers: pg.Client[] = [];
  const refused = new Expect('SQLSTATE 53300', /SQLSTATE 53300/);
  const throttle: RealFault = {
    point: 'BeforeBegin',
    how: `real SQLSTATE 53300: filler sessions take every slot of a cluster with max_connections ${THROTTLE_MAX_CONNECTIONS}, and the pool's new connection is refused`,
    async open(faults) {
      // One per process (stopped at exit with it); each cell gets a fresh database on it.
      throttleCluster ??= f.startCluster({ maxConnections: THROTTLE_MAX_CONNECTIONS });
      const server = (await throttleCluster).url;
      return f.openWith(faults, { server, extra: { poolSize: 4, readPoolSize: 2 } });
    },
    observe: (e) => refused.observe(e),
    async fire(store) {
      refused.fire();
      const pool = (store as PostgresMetaStore).writePool;
      // The pool's idle connections are closed, so the attempt must open a new one.
      const idle: pg.PoolClient[] = [];
      for (let n = pool.idleCount; n > 0; n--) idle.push(await pool.connect());
      for (const c of idle) c.release(true);
      const url = f.urlOf(store);
      while (fillers.length < MAX_FILLERS) {
        const c = new pg.Client({ connectionString: url, application_name: 'loam-fault-filler' });
        c.on('error', () => undefined);
        try {
          await c.connect();
        } catch (e) {
          if ((e as { code?: string }).code === '53300') return; // the server is full
          throw e;
        }
        fillers.push(c);
      }
      throw new Error(`fault producer: ${MAX_FILLERS} sessions and the server still accepts more`);
    },
    async settle() {
      await Promise.all(fillers.splice(0).map((c) => c.end().catch(() => undefined)));
      refused.check();
    },
  };

  // 40P01 from a lock cycle with a competing transaction.
  let competitor: Competitor | undefined;
  const deadlock = new Expect('SQLSTATE 40P01', /SQLSTATE 40P01/);
  const conflict: RealFault = {
    point: 'BeforeWrite',
    how: 'real SQLSTATE 40P01: a competing transaction\'s table locks and the call\'s reads form a cycle the server breaks by aborting the call',
    open: (faults) => f.openWith(faults, { settings: { deadlock_timeout: CALL_DEADLOCK_TIMEOUT } }),
    observe: (e) => deadlock.observe(e),
    async fire(store) {
      deadlock.fire();
      competitor = new Competitor();
      await competitor.lock(f.urlOf(store));
      await competitor.closeCycle(f.urlOf(store));
    },
    async settle() {
      const c = competitor;
      competitor = undefined;
      await c?.end();
      deadlock.check();
    },
  };

  // pg_terminate_backend during COMMIT.
  let stopped: { pid: number; continued: Promise<void>; store: PostgresMetaStore; before: { inProgress: number; aborted: number } } | undefined;
  const killed = new Expect('a session killed during COMMIT', /connection lost during COMMIT; the server rolled the transaction back/);
  const cont = (pid: number) => {
    try {
      process.kill(pid, 'SIGCONT');
    } catch {
      // already gone
    }
  };
  const undetermined: RealFault = {
    point: ['BeforeCommit', 'CommitSent'],
    observe: (e) => killed.observe(e),
    how: 'the session killed during COMMIT: its server process stopped and pg_terminate_backend\'ed, the client\'s socket cut; the backend resolves it by pg_xact_status (in progress, then aborted)',
    async fire(store, _op, point) {
      if (point === 'CommitSent') throw new Error('cut the connection'); // the backend cuts its socket
      killed.fire();
      const s = store as PostgresMetaStore;
      const url = f.urlOf(store);
      const pid = await writingBackend(url);
      const polled = s.stats().resolveInProgress;
      process.kill(pid, 'SIGSTOP');
      const admin = new pg.Client({ connectionString: url });
      admin.on('error', () => undefined);
      try {
        await admin.connect();
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      } catch (e) {
        cont(pid);
        throw e;
      } finally {
        await admin.end().catch(() => undefined);
      }
      // Continued once the backend has seen the transaction in progress (or at the bound).
      const continued = until('pg_xact_status to answer in progress', () => s.stats().resolveInProgress > polled)
        .catch(() => undefined)
        .finally(() => cont(pid));
      stopped = { pid, continued, store: s, before: { inProgress: polled, aborted: s.stats().resolvedAborted } };
    },
    async settle() {
      const st = stopped;
      stopped = undefined;
      if (st) {
        await st.continued;
        cont(st.pid);
        const now = st.store.stats();
        if (!(now.resolveInProgress > st.before.inProgress && now.resolvedAborted > st.before.aborted)) {
          throw new Error('fault producer: the killed COMMIT was not resolved through pg_xact_status in progress, then aborted');
        }
      }
      killed.check();
    },
  };

  // A hang past the retry budget.
  let hanging: { competitor: Competitor; store: MetaStore } | undefined;
  const delay: RealFault = {
    point: 'BeforeWrite',
    how: `a hang past the retry budget (${HANG_BUDGET_MS} ms): a competing transaction's table locks keep the call waiting until it has given up`,
    policy: { budgetMs: HANG_BUDGET_MS },
    async fire(store) {
      const c = new Competitor();
      await c.lock(f.urlOf(store));
      hanging = { competitor: c, store };
    },
    async settle() {
      const h = hanging;
      hanging = undefined;
      if (!h) return;
      await h.competitor.end();
      await quiesce(h.store, f.urlOf(h.store));
    },
  };

  return {
    produce: { BeforeSend: beforeSend, Throttle: throttle, Conflict: conflict, Undetermined: undetermined, Delay: delay },
    async stop() {
      await Promise.all([beforeSend, throttle, conflict, undetermined, delay].map((p) => p.settle?.().catch(() => undefined)));
    },
  };
}

// Connections, transactions and unknown-outcome resolution of the PostgreSQL backend
// (spec §2.2, §4.2). Everything here is about *how* a statement reaches the server; what the
// statements are lives in the concern modules (index.ts lists them).
import { createHash } from 'node:crypto';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { errors } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import type { Stamp } from '../../types.js';
import { isConnectionError, isServerError, mapPgError } from './errors.js';

/** After a connection is lost during COMMIT, how long we keep asking the server what happened. */
export const RESOLVE_TIMEOUT_MS = 5_000;

/** bigint columns come back as numbers: every id, offset and stamp fits in 2^53 (validate.ts). */
function parseBigint(s: string): number {
  const n = Number(s);
  if (!Number.isSafeInteger(n)) throw new Error(`metastore value ${s} is outside the safe integer range`);
  return n;
}

/** Per-pool type parsers (never the process-global pg.types, which other code may share). */
export const TYPES: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? parseBigint : pg.types.getTypeParser(oid, format as 'text')) as pg.CustomTypesConfig['getTypeParser'],
};

const statementNames = new Map<string, string>();
/** Hot statements run as named prepared statements: parsed and planned once per connection. */
function named(text: string): string {
  let n = statementNames.get(text);
  if (!n) {
    n = `loam_${createHash('sha1').update(text).digest('hex').slice(0, 20)}`;
    statementNames.set(text, n);
  }
  return n;
}

const guarded = new WeakSet<object>();
/**
 * pg-pool removes its error listener from a client while it is checked out; an 'error' event
 * then (a socket dying mid-call) would crash the process. The call sees the failure through
 * its query's rejection, so the event itself is ignored.
 */
export function guard(client: pg.PoolClient): pg.PoolClient {
  if (!guarded.has(client)) {
    guarded.add(client);
    client.on('error', () => undefined);
  }
  return client;
}

/** Takes a connection; failing to get one is BeforeSend: nothing was sent. */
export async function acquire(pool: pg.Pool): Promise<pg.PoolClient> {
  try {
    return guard(await pool.connect());
  } catch (e) {
    if (/timeout exceeded when trying to connect/i.test((e as Error)?.message ?? '')) {
      // Every pooled connection stayed busy (or the server did not answer) for connectTimeoutMs.
      throw errors.retryable('throttle', `metastore connection pool exhausted: ${(e as Error).message}`, true);
    }
    throw mapPgError(e, true);
  }
}

export interface Stats {
  /** Connections cut on purpose after COMMIT was sent (fault injection only). */
  commitCuts: number;
  /** Lost COMMITs resolved as committed / rolled back / not resolved in time. */
  resolvedCommitted: number;
  resolvedAborted: number;
  unresolved: number;
  /** pg_xact_status answers 'in progress' while resolving (the server still held the transaction). */
  resolveInProgress: number;
  /** Prune passes that ran (they hold the prune advisory lock) and rows they removed. */
  prunes: number;
  pruned: number;
  /** commitWal batch transactions committed (wal-batch.ts), and the commit groups they carried. */
  walBatches: number;
  walBatchGroups: number;
}

export function newStats(): Stats {
  return { commitCuts: 0, resolvedCommitted: 0, resolvedAborted: 0, unresolved: 0, resolveInProgress: 0, prunes: 0, pruned: 0, walBatches: 0, walBatchGroups: 0 };
}

/** One write transaction: statements, the Race point, and the xid recorded before COMMIT. */
export class WriteTx {
  /** pg_current_xact_id() of this transaction, recorded before COMMIT is sent. */
  xid: string | undefined;
  /** The namespaces this write checked (shared.ts writable): its commit token names the one it wrote to. */
  readonly namespaces = new Set<number>();
  private raced = false;

  constructor(
    readonly client: pg.PoolClient,
    readonly stamp: Stamp,
    private readonly op: string,
    private readonly faults: FaultHook | undefined,
  ) {}

  async q<R = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R[]> {
    const r = await this.client.query({ name: named(text), text, values });
    return r.rows as R[];
  }

  async one<R = Record<string, unknown>>(text: string, values: unknown[] = []): Promise<R | undefined> {
    return (await this.q<R>(text, values))[0];
  }

  /**
   * The Race point (spec §4.2): after the transaction's plain reads, before its first write
   * or row lock. Nothing is locked yet, so a competing write may land here, and the
   * conditional writes that follow must notice it (row counts, locked re-reads).
   */
  async beforeWrite(): Promise<void> {
    if (this.raced) return;
    this.raced = true;
    if (this.faults) await this.faults('BeforeWrite', this.op);
  }
}

export type Outcome = 'committed' | 'aborted' | 'unknown';

/**
 * Sends COMMIT; `discard`: the connection is unusable afterwards. If the connection is lost
 * after COMMIT was sent, the client cannot know
 * whether it applied: asks the server (pg_xact_status of the recorded xid, else the
 * commit-token row) and returns only a known outcome, or throws Unknown.
 * A server error on COMMIT itself (e.g. 40001) means it rolled back: thrown as mapped.
 */
export async function commit(
  client: pg.PoolClient,
  tx: WriteTx,
  op: string,
  faults: FaultHook | undefined,
  resolver: (xid: string | undefined) => Promise<Outcome>,
  stats: Stats,
): Promise<{ discard: boolean }> {
  // query() hands COMMIT to the socket synchronously when the client is idle (it is: every
  // earlier statement was awaited), so after this line the bytes are on their way.
  const sent = client.query('COMMIT');
  let cut = false;
  if (faults) {
    try {
      const r = faults('CommitSent', op);
      if (r instanceof Promise) await r;
    } catch {
      // Undetermined, for real: cut the connection before the reply can be read.
      await cutConnection(client);
      cut = true;
      stats.commitCuts++;
    }
  }
  try {
    await sent;
    return { discard: cut }; // the reply won the race with the cut: known, but the socket is gone
  } catch (e) {
    if (!isConnectionError(e) && isServerError(e)) throw mapPgError(e, true);
    const outcome = await resolver(tx.xid);
    if (outcome === 'committed') {
      stats.resolvedCommitted++;
      return { discard: true };
    }
    if (outcome === 'aborted') {
      stats.resolvedAborted++;
      throw errors.retryable('aborted', `${op}: connection lost during COMMIT; the server rolled the transaction back`, true);
    }
    stats.unresolved++;
    throw errors.unknown(`${op}: connection lost during COMMIT and the outcome could not be resolved within ${RESOLVE_TIMEOUT_MS} ms`);
  }
}

/** Destroys the client's socket once COMMIT has left the process. */
async function cutConnection(client: pg.PoolClient): Promise<void> {
  const sock = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  if (!sock) throw new Error('cannot cut the connection: no socket');
  if (sock.writableLength > 0) await new Promise<void>((res) => sock.once('drain', () => res()));
  sock.destroy();
}

/**
 * Resolves a lost COMMIT: pg_xact_status(xid) until it is no longer in progress (the server
 * may still be finishing the COMMIT it received), else the commit-token row. Bounded by
 * RESOLVE_TIMEOUT_MS; connection errors while asking are retried within it.
 */
export async function resolveOutcome(
  pool: pg.Pool,
  xid: string | undefined,
  tokenExists: (() => Promise<boolean>) | undefined,
  stats?: Stats,
): Promise<Outcome> {
  if (xid === undefined) return 'unknown'; // every write records its xid; without one, nothing to ask
  const deadline = Date.now() + RESOLVE_TIMEOUT_MS;
  for (let delay = 5; Date.now() < deadline; delay = Math.min(delay * 2, 200)) {
    try {
      const r = await pool.query<{ s: string | null }>('SELECT pg_xact_status($1::xid8) AS s', [xid]);
      const s = r.rows[0]?.s ?? null;
      if (s === 'committed') return 'committed';
      if (s === 'aborted') return 'aborted';
      if (s === 'in progress' && stats) stats.resolveInProgress++;
      // null: the xid is older than the commit log keeps; the token row is then authoritative
      // (the transaction is certainly no longer in progress).
      // (A call without a token or record cannot tell then: unknown.)
      if (s === null) return tokenExists ? ((await tokenExists()) ? 'committed' : 'aborted') : 'unknown';
    } catch {
      // still unreachable: ask again until the deadline
    }
    await sleep(delay);
  }
  return 'unknown';
}

export { isConnectionError };

// The peer of `bench ingest` (issue 20): the obvious alternative a user would pick for durable,
// strongly consistent JSON documents on one machine — PostgreSQL with a JSONB table — loaded
// with the same documents, batch size and number of clients, in the same run.
//
// A throwaway cluster on the durable defaults (fsync, synchronous_commit and full_page_writes
// on, as bench/_meta_postgres.ts starts it), one table `docs(id text primary key, doc jsonb)`,
// and per client one connection that upserts its batches with one statement each:
// `INSERT … SELECT FROM unnest($1::text[], $2::jsonb[]) ON CONFLICT (id) DO UPDATE`. A batch is
// acknowledged when its COMMIT returned, i.e. when it is durable — the same promise Loam's
// acknowledgement makes.
import pg from 'pg';
import { startCluster } from '../test/harness/postgres.js';

/** How long one peer statement may take before the benchmark gives up. */
export const PEER_STATEMENT_DEADLINE_MS = 30_000;

export interface PeerResult {
  docsPerS: number;
  ackMs: number[];
  /** The Postgres server's CPU seconds over the measured window (every backend process). */
  serverCpuS: number;
  clientCpuS: number;
}

export interface PeerLoad {
  clients: number;
  batch: number;
  /** The documents of batch `i` of client `c`, as [ids, JSON texts]. */
  makeBatch(c: number, i: number): [string[], string[]];
  warmupMs: number;
  seconds: number;
}

export async function runPeer(load: PeerLoad, cpuOfPids: (pids: number[]) => number): Promise<PeerResult> {
  const cluster = await startCluster({ durable: true, maxConnections: load.clients + 10 });
  // One connection per client plus one for the benchmark's own queries; no wait is unbounded.
  const pool = new pg.Pool({
    connectionString: cluster.url, max: load.clients + 1,
    statement_timeout: PEER_STATEMENT_DEADLINE_MS, connectionTimeoutMillis: PEER_STATEMENT_DEADLINE_MS,
  });
  try {
    await pool.query('CREATE TABLE docs (id text PRIMARY KEY, doc jsonb NOT NULL)');
    const sql =
      'INSERT INTO docs (id, doc) SELECT * FROM unnest($1::text[], $2::jsonb[]) ' +
      'ON CONFLICT (id) DO UPDATE SET doc = EXCLUDED.doc';
    let measuring = false;
    let stop = false;
    let docs = 0;
    const ack: number[] = [];
    const clients = await Promise.all(Array.from({ length: load.clients }, () => pool.connect()));
    // Every server process: the clients' backends and the WAL writer, checkpointer and the rest.
    const pids = (await pool.query<{ pid: number }>('SELECT pid FROM pg_stat_activity')).rows.map((r) => r.pid);
    const worker = async (c: number) => {
      const conn = clients[c]!;
      for (let i = 0; !stop; i++) {
        const [ids, texts] = load.makeBatch(c, i);
        const t = performance.now();
        await conn.query(sql, [ids, texts]);
        if (measuring) {
          docs += ids.length;
          ack.push(performance.now() - t);
        }
      }
    };
    const running = clients.map((_, c) => worker(c));
    await new Promise((r) => setTimeout(r, load.warmupMs));
    const server0 = cpuOfPids(pids);
    const client0 = process.cpuUsage();
    measuring = true;
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, load.seconds * 1000));
    measuring = false;
    const elapsed = (performance.now() - t0) / 1000;
    const server1 = cpuOfPids(pids);
    const client = process.cpuUsage(client0);
    stop = true;
    await Promise.all(running);
    for (const c of clients) c.release();
    return { docsPerS: docs / elapsed, ackMs: ack, serverCpuS: server1 - server0, clientCpuS: (client.user + client.system) / 1e6 };
  } finally {
    await pool.end().catch(() => undefined);
    await cluster.stop();
  }
}

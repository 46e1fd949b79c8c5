// `npm run bench -- meta --backend postgres [--seconds N]` (dispatched from bench/meta.ts).
//
// Loam's postgres backend against two baselines measured in the same run, at 1 and 8
// concurrent writers:
//   baseline        the same SQL statements (src/meta/backends/postgres/sql.ts) in bare `pg`
//                   transactions, without Loam's layer (validation, commit-token rows, token
//                   lookups, group planning, fault points, typed errors), one call per
//                   transaction as a plain client would run them; ratio = Loam ÷ baseline.
//                   Loam's commitWal group-commits concurrent calls (postgres/wal-batch.ts:
//                   one transaction, one head lock and one COMMIT for the calls queued
//                   together), which the baseline does not: at 8 writers the ratio measures it.
//   update_baseline a pgbench-style single-row UPDATE transaction (autocommit, random rows of a
//                   100,000-row table): the ceiling of one commit per round trip on this server.
// And spec Q17, whether NOTIFY limits the commit rate: the commitWal statements of 8 writers
// on 8 different streams, with and without a pg_notify in each transaction; and catalog
// changes (createCollection's statements) with and without their NOTIFY.
//
// The server: LOAM_BENCH_PG_URL, else a throwaway cluster started here with the durable
// defaults (fsync on, synchronous_commit on), like production. Target: commitWal ratio ≥ 0.7.
import { Command } from 'commander';
import pg from 'pg';
import { openPostgres, type PostgresMetaStore } from '../src/meta/backends/postgres/index.js';
import { migrate } from '../src/meta/backends/postgres/migrations.js';
import { SQL } from '../src/meta/backends/postgres/sql.js';
import { TYPES } from '../src/meta/backends/postgres/tx.js';
import { startCluster, withDatabase, type Cluster } from '../test/harness/postgres.js';
import { median, medianOf, pct, round, timed, type Sample } from './_stats.js';

/**
 * Alternating Loam/baseline rounds per metric: rates are the median rounds, the ratio is the
 * median of the rounds' ratios (each Loam round against the baseline round right after it, so
 * both saw about the same background load: a shared 2-core machine is noisy).
 */
const ROUNDS = 7;
const PARTITIONS = 4;
const WRITERS = [1, 8] as const;
/** Connections per pool: one per writer and a few spare, the same for Loam and the baseline. */
const POOL = 10;
const ACCOUNTS = 100_000;
const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };







/** One bare transaction on a pooled connection. */
async function bare(pool: pg.Pool, fn: (q: (text: string, values?: unknown[]) => Promise<pg.QueryResult>) => Promise<void>): Promise<void> {
  const c = await pool.connect();
  try {
    await c.query('BEGIN');
    await fn((text, values) => c.query({ name: named(text), text, values }));
    await c.query('COMMIT');
  } catch (e) {
    await c.query('ROLLBACK').catch(() => undefined);
    throw e;
  } finally {
    c.release();
  }
}

const names = new Map<string, string>();
/** Named prepared statements, as the backend uses (parsed once per connection). */
function named(text: string): string {
  let n = names.get(text);
  if (!n) names.set(text, (n = `bench_${names.size}`));
  return n;
}

/** The statements Loam's commitWal runs for one group of PARTITIONS chunks of one stream. */
function rawCommitWal(pool: pg.Pool, ns: number, stream: (w: number) => number, notify = false) {
  const parts = Array.from({ length: PARTITIONS }, (_, p) => p);
  return (i: number, w: number) =>
    bare(pool, async (q) => {
      const object = `raw/wal/${i}-${Math.random().toString(36).slice(2, 8)}`;
      const s = stream(w);
      const stamp = Date.now();
      await q(SQL.WAL_PRE, [[object], [0], [ns], [s], [ns]]);
      await q(SQL.ADJUST_REFS, [[object], ['wal'], [PARTITIONS], [], [], stamp]);
      const heads = (await q(SQL.HEADS_LOCK, [parts.map(() => ns), parts.map(() => s), parts])).rows as Array<{ partition: number; next: number }>;
      const next = new Map(heads.map((h) => [h.partition, h.next]));
      const ranges = parts.map((p) => ({ ns, stream: s, partition: p, start: next.get(p)!, end: next.get(p)! + 10, group: 0 }));
      await q(SQL.WAL_APPLY, [
        ranges.map((r) => r.ns),
        ranges.map((r) => r.stream),
        parts,
        ranges.map((r) => r.start),
        ranges.map((r) => r.end),
        parts.map((p) => p * 100),
        parts.map((p) => p * 100 + 100),
        parts.map(() => 10),
        parts.map(() => object),
        [object],
        [0],
        [JSON.stringify(ranges)],
        [stamp],
      ]);
      if (notify) await q('SELECT pg_notify($1, $2)', ['loam_bench', String(s)]);
    });
}

/** The statements of casPointer on a plain key (no fence, no link), one key per writer. */
function rawCasPointer(pool: pg.Pool, ns: number) {
  const versions = new Map<number, { version: number; value: string } | null>();
  return (i: number, w: number) =>
    bare(pool, async (q) => {
      const key = `bench/ptr/${w}`;
      const value = `raw/m/${w}/${i}`;
      const stamp = Date.now();
      const pre = (await q(SQL.CAS_PRE, [ns, key, 0, '', ''])).rows[0] as { version: number | null; value: string | null };
      const cur = versions.get(w) ?? null;
      if (pre.version !== (cur?.version ?? null)) throw new Error('bench: pointer moved');
      if (cur === null) await q(SQL.CAS_CREATE, [ns, key, value, stamp]);
      else await q(SQL.CAS_UPDATE, [value, stamp, ns, key, cur.version]);
      await q(SQL.ADJUST_REFS, [[value], ['manifest'], [1], cur ? [cur.value] : [], cur ? [-1] : [], stamp]);
      const version = (cur?.version ?? 0) + 1;
      await q(SQL.POINTER_HISTORY, [ns, key, version, value, stamp, stamp - 86_400_000]);
      versions.set(w, { version, value });
    });
}

/** Q17: the catalog change without its NOTIFY. */
const RECORD_CHANGE_SILENT = SQL.RECORD_CHANGE.replace(/RETURNING pg_notify\([^)]*\)$/, 'RETURNING version');

/** The statements of createCollection (notify = false: its catalog change sends no NOTIFY). */
function rawCreateCollection(pool: pg.Pool, ns: number, notify = true) {
  if (RECORD_CHANGE_SILENT === SQL.RECORD_CHANGE) throw new Error('bench: RECORD_CHANGE no longer ends in its pg_notify');
  const schema = JSON.stringify(SCHEMA);
  return (i: number) =>
    bare(pool, async (q) => {
      const name = `raw${i}x${Math.floor(Math.random() * 1e9)}`;
      const stamp = Date.now();
      await q(SQL.CREATE_COLLECTION_PRE, [ns, name]);
      await q(SQL.SHARE_NAMESPACE, [ns]);
      const ids = Object.fromEntries(
        ((await q(SQL.NEXT_IDS, [['collection', 'stream', 'link']])).rows as Array<{ kind: string; value: number }>).map((r) => [r.kind, r.value]),
      );
      await q(SQL.INSERT_COLLECTION, [ns, ids.collection, name, schema, ids.stream, ids.link, PARTITIONS, 86_400_000, stamp]);
      await q(SQL.INSERT_IMPLICIT_STREAM, [ns, ids.stream, `_c_${name}`, PARTITIONS, null, null, stamp, ids.link, ids.collection]);
      if (notify) await q(SQL.RECORD_CHANGE, [ns, 'collection.created', ids.collection, stamp, String(ns)]);
      else await q(RECORD_CHANGE_SILENT, [ns, 'collection.created', ids.collection, stamp]);
    });
}

export async function main(argv: string[]): Promise<void> {
  const opts = new Command('bench meta')
    .option('--backend <name>', 'metastore backend', 'postgres')
    .option('--synchronous <mode>', '(embedded only)')
    .option('--seconds <n>', 'time budget per round', '0.75')
    .parse(argv, { from: 'user' })
    .opts<{ seconds: string }>();
  const seconds = Number(opts.seconds);
  if (!(seconds > 0 && seconds <= 60)) throw new Error('--seconds must be in (0, 60]');

  let cluster: Cluster | undefined;
  let server = process.env.LOAM_BENCH_PG_URL;
  if (!server) {
    cluster = await startCluster({ durable: true });
    server = cluster.url;
  }
  const admin = new pg.Pool({ connectionString: server, max: 1 });
  const dbs = ['loam_bench', 'loam_bench_raw'];
  for (const db of dbs) {
    await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${db}`);
  }
  const loam: PostgresMetaStore = openPostgres({ url: withDatabase(server, dbs[0]!), poolSize: POOL, readPoolSize: POOL });
  const raw = new pg.Pool({ connectionString: withDatabase(server, dbs[1]!), max: POOL, types: TYPES });
  raw.on('error', () => undefined);
  try {
    await loam.ready();
    const setup = await raw.connect();
    try {
      await migrate(setup);
      await setup.query(`
        INSERT INTO namespaces (id, org, name, state, created) VALUES (1, 'bench', 'ns', 'live', 0);
        INSERT INTO streams (ns, id, name, partitions, implicit, state, created)
          SELECT 1, s, 's' || s, ${PARTITIONS}, true, 'live', 0 FROM generate_series(1, 9) s;
        INSERT INTO heads (ns, stream, partition, next, log_start, bytes)
          SELECT 1, s, p, 0, 0, 0 FROM generate_series(1, 9) s, generate_series(0, ${PARTITIONS - 1}) p;
        UPDATE counters SET value = 1 WHERE kind = 'namespace';
        UPDATE counters SET value = 9 WHERE kind = 'stream';
        CREATE TABLE bench_accounts (aid integer PRIMARY KEY, abalance integer NOT NULL);
        INSERT INTO bench_accounts SELECT a, 0 FROM generate_series(1, ${ACCOUNTS}) a;`);
      await setup.query('VACUUM ANALYZE');
    } finally {
      setup.release();
    }
    const ns = await loam.createNamespace({ org: 'bench', name: 'ns' });
    const coll = await loam.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: PARTITIONS });
    // A first commit creates the heads, as the baseline's setup did.
    await loam.commitWal({
      object: 'wal/warm',
      objectStamp: Date.now(),
      chunks: Array.from({ length: PARTITIONS }, (_, p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 1, byteStart: p, byteEnd: p + 1 })),
    });

    const backend = 'postgres';
    const print = (metric: string, writers: number, value: number, unit: string, extra: Record<string, number> = {}) =>
      console.log(JSON.stringify({ bench: 'meta', backend, metric, writers, value: round(value), unit, ...extra }));

    // The single-row UPDATE ceiling, per writer count.
    const update = new Map<number, number>();
    for (const writers of WRITERS) {
      const rs: Sample[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        rs.push(
          await timed(seconds, () =>
            raw.query({ name: 'bench_update', text: 'UPDATE bench_accounts SET abalance = abalance + $1 WHERE aid = $2', values: [1, 1 + Math.floor(Math.random() * ACCOUNTS)] }), writers),
        );
      }
      const b = median(rs);
      update.set(writers, b.rate);
      print('update_per_s', writers, b.rate, 'ops/s');
      print('update_p50_ms', writers, pct(b.lat, 50), 'ms');
    }

    const objectStamp = Date.now();
    const versions = new Map<number, number | null>();
    const cases: Array<{ metric: string; loam: (i: number, w: number) => Promise<unknown>; raw: (i: number, w: number) => Promise<unknown> }> = [
      {
        metric: 'commitWal',
        loam: (i) =>
          loam.commitWal({
            object: `wal/${i}-${Math.random().toString(36).slice(2, 8)}`,
            objectStamp,
            chunks: Array.from({ length: PARTITIONS }, (_, p) => ({
              ns: ns.id,
              stream: coll.streamId,
              partition: p,
              records: 10,
              byteStart: p * 100,
              byteEnd: p * 100 + 100,
            })),
          }),
        raw: rawCommitWal(raw, 1, () => 1),
      },
      {
        metric: 'casPointer',
        loam: async (i, w) => {
          const p = await loam.casPointer(ns.id, `bench/ptr/${w}`, versions.get(w) ?? null, `m/${w}/${i}`);
          versions.set(w, p.version);
        },
        raw: rawCasPointer(raw, 1),
      },
      {
        metric: 'createCollection',
        loam: (i) => loam.createCollection({ ns: ns.id, name: `c${i}x${Math.floor(Math.random() * 1e9)}`, schema: SCHEMA, partitions: PARTITIONS }),
        raw: rawCreateCollection(raw, 1),
      },
    ];
    for (const c of cases) {
      for (const writers of WRITERS) {
        const ls: Sample[] = [];
        const rs: Sample[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          ls.push(await timed(seconds, c.loam, writers));
          rs.push(await timed(seconds, c.raw, writers));
        }
        const l = median(ls);
        const b = median(rs);
        const u = update.get(writers)!;
        print(`${c.metric}_per_s`, writers, l.rate, 'ops/s', {
          baseline: round(b.rate),
          ratio: round(medianOf(ls.map((x, k) => x.rate / rs[k]!.rate)), 3),
          update_baseline: round(u),
          update_ratio: round(l.rate / u, 3),
        });
        print(`${c.metric}_p50_ms`, writers, pct(l.lat, 50), 'ms', { baseline: round(pct(b.lat, 50)) });
        print(`${c.metric}_p99_ms`, writers, pct(l.lat, 99), 'ms', { baseline: round(pct(b.lat, 99)) });
      }
    }

    // Q17: does NOTIFY limit the commit rate? The commitWal statements, 8 writers on 8
    // different streams (no row contention), without and with one pg_notify per transaction.
    const listener = new pg.Client({ connectionString: withDatabase(server, dbs[1]!) });
    await listener.connect();
    await listener.query('LISTEN loam_bench'); // a listener, so notifications are queued as in production
    try {
      const writers = 8;
      const plain: Sample[] = [];
      const notified: Sample[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        plain.push(await timed(seconds, rawCommitWal(raw, 1, (w) => 2 + w), writers));
        notified.push(await timed(seconds, rawCommitWal(raw, 1, (w) => 2 + w, true), writers));
      }
      const p = median(plain);
      const n = median(notified);
      print('q17_commit_distinct_rows_per_s', writers, p.rate, 'ops/s');
      print('q17_commit_distinct_rows_with_notify_per_s', writers, n.rate, 'ops/s', {
        baseline: round(p.rate),
        ratio: round(medianOf(notified.map((x, k) => x.rate / plain[k]!.rate)), 3),
      });
      // Catalog changes already serialize on the catalog-version row: does their NOTIFY add to it?
      const silent: Sample[] = [];
      const loud: Sample[] = [];
      for (let r = 0; r < ROUNDS; r++) {
        silent.push(await timed(seconds, rawCreateCollection(raw, 1, false), writers));
        loud.push(await timed(seconds, rawCreateCollection(raw, 1, true), writers));
      }
      print('q17_catalog_change_per_s', writers, median(silent).rate, 'ops/s');
      print('q17_catalog_change_with_notify_per_s', writers, median(loud).rate, 'ops/s', {
        baseline: round(median(silent).rate),
        ratio: round(medianOf(loud.map((x, k) => x.rate / silent[k]!.rate)), 3),
      });
    } finally {
      await listener.end();
    }
  } finally {
    await loam.close();
    await raw.end();
    for (const db of dbs) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`).catch(() => undefined);
    await admin.end();
    await cluster?.stop();
  }
}

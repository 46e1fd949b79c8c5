// `npm run bench -- meta --backend embedded [--synchronous FULL|NORMAL] [--seconds N]`
//
// Measures Loam's metastore calls against a raw baseline measured in the same run: the same
// SQL statements in a bare better-sqlite3 transaction, without Loam's layer (validation,
// commit-token lookup, group planning, async wrapper, typed errors). ratio = Loam ÷ baseline,
// equally durable (one synchronous setting for both files). Target: commitWal_per_s ratio
// ≥ 0.9 (issue 12). The baseline leaves out two things Loam's commitWal must do: the move
// fence's read (spec §5.5) and the bounded prune pass every PRUNE_EVERY_WRITES writes.
// `_user_cpu_us` lines give each side's user CPU time per call: with synchronous=FULL the rate
// is mostly the disk's fsync, which other processes on a shared machine move a lot; the user
// CPU (Loam's layer and SQLite's own work, not the kernel's) much less.
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { openEmbedded, type EmbeddedMetaStore } from '../src/meta/backends/embedded/index.js';
import { migrate } from '../src/meta/backends/embedded/migrations.js';
import { compareCases, type Case } from './_stats.js';

/** Alternating Loam/baseline rounds per metric; the median round is reported. */
const ROUNDS = 3;
const PARTITIONS = 4;





function openRaw(path: string, synchronous: string): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  migrate(db);
  return db;
}

/** The statements Loam's commitWal runs for one group of 4 chunks, without Loam around them. */
function rawCommitWal(db: Database.Database, ns: number, stream: number) {
  const selCommit = db.prepare('SELECT result FROM wal_commits WHERE object = ? AND grp = ?');
  const selStream = db.prepare('SELECT * FROM streams WHERE ns = ? AND id = ?');
  const selHead = db.prepare('SELECT next, log_start, bytes FROM heads WHERE ns = ? AND stream = ? AND partition = ?');
  // The head's dirty-set columns (spec §5.4) are part of the contract's commit, so of the baseline too.
  const upHead = db.prepare(`INSERT INTO heads (ns, stream, partition, next, log_start, bytes, mark, due) VALUES (?, ?, ?, ?, 0, ?, 1, 0)
    ON CONFLICT (ns, stream, partition) DO UPDATE SET next = excluded.next, bytes = bytes + excluded.bytes, mark = mark + 1, due = 0`);
  const insEntry = db.prepare(`INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
    VALUES (?, ?, ?, ?, ?, 'wal', ?, ?, ?, ?)`);
  const selRef = db.prepare('SELECT claim_owner, deleted FROM object_refs WHERE path = ?');
  const upRef = db.prepare(`INSERT INTO object_refs (path, kind, refs) VALUES (?, ?, ?)
    ON CONFLICT (path) DO UPDATE SET refs = refs + excluded.refs, retired = NULL`);
  const insCommit = db.prepare('INSERT INTO wal_commits (object, grp, result, stamp) VALUES (?, ?, ?, ?)');
  return (i: number) => {
    const object = `raw/wal/${i}`;
    db.exec('BEGIN IMMEDIATE');
    selCommit.get(object, 0);
    selStream.get(ns, stream);
    const ranges: number[] = [];
    for (let p = 0; p < PARTITIONS; p++) {
      const h = selHead.get(ns, stream, p) as { next: number } | undefined;
      const start = h?.next ?? 0;
      upHead.run(ns, stream, p, start + 10, 100);
      insEntry.run(ns, stream, p, start, start + 10, object, p * 100, p * 100 + 100, 10);
      ranges.push(start);
    }
    selRef.get(object);
    upRef.run(object, 'wal', PARTITIONS);
    insCommit.run(object, 0, JSON.stringify(ranges), Date.now());
    db.exec('COMMIT');
  };
}

/** The statements of casPointer on a plain key (no fence, no link). */
function rawCasPointer(db: Database.Database, ns: number) {
  const selNs = db.prepare('SELECT * FROM namespaces WHERE id = ?');
  const selPtr = db.prepare('SELECT version, value FROM pointers WHERE ns = ? AND key = ?');
  const selRef = db.prepare('SELECT claim_owner, deleted FROM object_refs WHERE path = ?');
  const upRef = db.prepare(`INSERT INTO object_refs (path, kind, refs) VALUES (?, ?, ?)
    ON CONFLICT (path) DO UPDATE SET refs = refs + excluded.refs, retired = NULL`);
  const selRef2 = db.prepare('SELECT refs, kind FROM object_refs WHERE path = ?');
  const updRef = db.prepare('UPDATE object_refs SET refs = ?, retired = ? WHERE path = ?');
  const supHist = db.prepare('UPDATE pointer_history SET superseded = ? WHERE ns = ? AND key = ? AND version = ?');
  const delHist = db.prepare('DELETE FROM pointer_history WHERE ns = ? AND key = ? AND superseded < ?');
  const insHist = db.prepare('INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES (?, ?, ?, ?, NULL)');
  const upPtr = db.prepare(`INSERT INTO pointers (ns, key, version, value, stamp) VALUES (?, ?, ?, ?, ?)
    ON CONFLICT (ns, key) DO UPDATE SET version = excluded.version, value = excluded.value, stamp = excluded.stamp`);
  return (i: number) => {
    const key = 'bench/ptr';
    const value = `raw/m/${i}`;
    const now = Date.now();
    db.exec('BEGIN IMMEDIATE');
    selNs.get(ns);
    const cur = selPtr.get(ns, key) as { version: number; value: string } | undefined;
    selRef.get(value);
    upRef.run(value, 'manifest', 1);
    const version = (cur?.version ?? 0) + 1;
    if (cur) {
      const r = selRef2.get(cur.value) as { refs: number };
      updRef.run(r.refs - 1, null, cur.value);
      supHist.run(now, ns, key, cur.version);
      delHist.run(ns, key, now - 86_400_000);
    }
    insHist.run(ns, key, version, value);
    upPtr.run(ns, key, version, value, now);
    db.exec('COMMIT');
  };
}

/** The statements of createCollection. */
function rawCreateCollection(db: Database.Database, ns: number) {
  const selNs = db.prepare('SELECT * FROM namespaces WHERE id = ?');
  const selName = db.prepare("SELECT id FROM collections WHERE ns = ? AND name = ? AND state = 'live'");
  const next = db.prepare('UPDATE counters SET value = value + 1 WHERE kind = ? RETURNING value');
  const insStream = db.prepare(`INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
    VALUES (?, ?, ?, ?, ?, ?, 1, 'live', ?)`);
  const insColl = db.prepare(`INSERT INTO collections (ns, id, name, schema, schema_version, stream_id, link_id, partitions,
    manifest_retention_ms, state, created) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, 'live', ?)`);
  const insLink = db.prepare("INSERT INTO links (ns, id, stream_id, collection_id, state) VALUES (?, ?, ?, ?, 'live')");
  const insChange = db.prepare('INSERT INTO catalog_changes (ns, kind, id, stamp) VALUES (?, ?, ?, ?)');
  const schema = JSON.stringify({ primaryKey: 'id', fields: { id: 'string' } });
  return (i: number) => {
    const name = `raw${i}`;
    const now = Date.now();
    db.exec('BEGIN IMMEDIATE');
    selNs.get(ns);
    selName.get(ns, name);
    const id = (next.get('collection') as { value: number }).value;
    const sid = (next.get('stream') as { value: number }).value;
    const lid = (next.get('link') as { value: number }).value;
    insStream.run(ns, sid, `_c_${name}`, PARTITIONS, null, null, now);
    insColl.run(ns, id, name, schema, sid, lid, PARTITIONS, 86_400_000, now);
    insLink.run(ns, lid, sid, id);
    insChange.run(ns, 'collection.created', id, now);
    db.exec('COMMIT');
  };
}

export async function main(argv: string[]): Promise<void> {
  if (argv.includes('--backend=dynamodb') || argv[argv.indexOf('--backend') + 1] === 'dynamodb') {
    // Its own options and baseline (bare TransactWriteItems of the same items): bench/_meta_dynamodb.ts.
    const { main: dynamo } = await import('./_meta_dynamodb.js');
    return dynamo(argv);
  }
  const opts = new Command('bench meta')
    .description('metastore call rates and latencies, with a raw SQL baseline from the same run')
    .option('--backend <name>', 'metastore backend', 'embedded')
    .option('--synchronous <mode>', 'SQLite synchronous setting: FULL (default, durable) or NORMAL', 'FULL')
    .option('--seconds <n>', 'time budget per round', '1.5')
    .parse(argv, { from: 'user' })
    .opts<{ backend: string; synchronous: string; seconds: string }>();
  if (opts.backend === 'postgres') {
    // Its own baselines (the same SQL in bare pg transactions; a single-row UPDATE rate): bench/_meta_postgres.ts.
    const { main: postgres } = await import('./_meta_postgres.js');
    return postgres(argv);
  }
  if (opts.backend !== 'embedded') throw new Error(`bench meta: backend "${opts.backend}" is not available yet (embedded)`);
  if (!['FULL', 'NORMAL'].includes(opts.synchronous)) throw new Error('--synchronous must be FULL or NORMAL');
  const seconds = Number(opts.seconds);
  if (!(seconds > 0 && seconds <= 60)) throw new Error('--seconds must be in (0, 60]');

  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-'));
  const sync = opts.synchronous as 'FULL' | 'NORMAL';
  const loam: EmbeddedMetaStore = openEmbedded({ path: join(dir, 'loam.db'), synchronous: sync });
  const raw = openRaw(join(dir, 'raw.db'), sync);
  try {
    const ns = await loam.createNamespace({ org: 'bench', name: 'ns' });
    const coll = await loam.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: PARTITIONS });
    raw.prepare("INSERT INTO namespaces (id, org, name, state, created) VALUES (1, 'bench', 'ns', 'live', 0)").run();
    raw.prepare("INSERT INTO streams (ns, id, name, partitions, implicit, state, created) VALUES (1, 1, 's', ?, 1, 'live', 0)").run(PARTITIONS);
    raw.prepare("UPDATE counters SET value = 1 WHERE kind IN ('namespace', 'stream')").run();

    const objectStamp = Date.now();
    let ptrVersion: number | null = null;
    const cases: Case[] = [
      {
        metric: 'commitWal',
        loam: (i) =>
          loam.commitWal({
            object: `wal/${i}`,
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
        raw: rawCommitWal(raw, 1, 1),
      },
      {
        metric: 'casPointer',
        loam: async (i) => {
          const p = await loam.casPointer(ns.id, 'bench/ptr', ptrVersion, `m/${i}`);
          ptrVersion = p.version;
        },
        raw: rawCasPointer(raw, 1),
      },
      {
        metric: 'createCollection',
        loam: (i) => loam.createCollection({ ns: ns.id, name: `c${i}x${Math.floor(Math.random() * 1e9)}`, schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: PARTITIONS }),
        raw: rawCreateCollection(raw, 1),
      },
    ];
    await compareCases(cases, { bench: 'meta', backend: `embedded(synchronous=${sync})`, rounds: ROUNDS, seconds, cpu: true });
  } finally {
    await loam.close();
    raw.close();
    rmSync(dir, { recursive: true, force: true });
  }
}


// The PostgreSQL backend's own failure paths, produced by the real server, beside the shared
// fault matrix (whose Postgres cells are made by test/harness/postgres-faults.ts): a COMMIT
// whose reply is lost after the server applied it, and the LISTEN connection dropped by the
// server while a watch waits; commitWal's group commit (wal-batch.ts) when GC claims an object
// of a batch mid-way; and the bookkeeping tables that must stay bounded (commit tokens
// under a steady write load, the change feed past its retention). This file registers its cases in the postgres stage only: they
// test that backend's mapping, which the other backends do not have.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { linkPointerKey, type MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import { openPostgres, type PostgresMetaStore } from '../../src/meta/backends/postgres/index.js';
import { MIN_REQUEST_TOKEN_TTL_MS, PRUNE_BATCH, PRUNE_EVERY_WRITES } from '../../src/meta/core/tokens.js';
import { PRUNE_FEED_SCAN } from '../../src/meta/core/feed.js';
import { backendName } from '../harness/backends.js';
import { postgresFactory } from '../harness/postgres.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };
/** Bound on waiting for a session to appear in pg_stat_activity. */
const SESSION_WAIT_MS = 5_000;

async function sessions(url: string, applicationName: string): Promise<number[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const r = await c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()', [applicationName]);
    return r.rows.map((x) => x.pid);
  } finally {
    await c.end();
  }
}

async function untilSession(url: string, applicationName: string, not: number[] = []): Promise<number> {
  const deadline = Date.now() + SESSION_WAIT_MS;
  for (;;) {
    const pid = (await sessions(url, applicationName)).find((p) => !not.includes(p));
    if (pid !== undefined) return pid;
    if (Date.now() > deadline) throw new Error(`no session ${applicationName} (other than ${not.join(', ') || 'none'}) within ${SESSION_WAIT_MS} ms`);
    await sleep(25);
  }
}

if (backendName() === 'postgres') {
  describe('postgres: real-server failure paths', () => {
    const factory = postgresFactory();
    const extra: PostgresMetaStore[] = [];
    after(async () => {
      for (const s of extra) await s.close();
      await factory.cleanup();
    });

    /** Another handle on the database of `store`, with its own settings. */
    const handleOn = (
      store: MetaStore,
      opts: { applicationName?: string; faults?: FaultHook; clock?: () => number; requestTokenTtlMs?: number; feedRetention?: { changes?: number; ms?: number } },
    ): PostgresMetaStore => {
      const s = openPostgres({ url: factory.location(store).path, poolSize: 4, readPoolSize: 2, ...opts });
      extra.push(s);
      return s;
    };

    test('a COMMIT the server applied but whose reply was lost (the connection cut after it was sent) is resolved as committed inside the call', async () => {
      const base = await factory.open();
      const ns = await base.createNamespace({ org: 'pg', name: 'ns' });
      const c = await base.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 });
      const key = linkPointerKey(c.linkId);
      await base.casPointer(ns.id, key, null, 'm/1');
      let armed = true;
      const cut: FaultHook = (point, op) => {
        if (armed && point === 'CommitSent' && op === 'casPointer') {
          armed = false;
          throw new Error('cut the connection after COMMIT was sent');
        }
      };
      const s = handleOn(base, { faults: cut });
      const p = await s.casPointer(ns.id, key, 1, 'm/2');
      assert.equal(p.version, 2, 'the call returns the applied result, not an error');
      const st = s.stats();
      assert.equal(st.commitCuts, 1, 'the connection was cut after COMMIT was sent');
      assert.equal(st.resolvedCommitted, 1, 'the outcome was resolved (pg_xact_status: committed)');
      assert.equal((await base.pointer(ns.id, key))?.value, 'm/2', 'and it is there, once');
    });

    test('concurrent commitWal calls share batch transactions; an object GC claims while its batch runs is Claimed alone, the rest commit', async () => {
      const base = await factory.open();
      const ns = await base.createNamespace({ org: 'pg', name: 'batch' });
      const c = await base.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 });
      const chunk = { ns: ns.id, stream: c.streamId, partition: 0, records: 2, byteStart: 0, byteEnd: 10 };
      const commits = Array.from({ length: 16 }, (_, i) => ({ object: `wal/batch-${process.pid}-${i}`, objectStamp: Date.now(), chunks: [chunk] }));
      const victim = commits[15]!.object;
      // The first call starts alone (an idle handle does not wait) and is held at its Race
      // point (after its reads, before its writes) while the other 15 queue and form the next
      // batch; at that batch's Race point GC claims one of its objects through another handle,
      // so the batch's reference upsert skips it. Then the first call goes on.
      let races = 0;
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const hook: FaultHook = async (point, op) => {
        if (point !== 'BeforeWrite' || op !== 'commitWal') return;
        if (++races === 1) await Promise.race([held, sleep(SESSION_WAIT_MS)]);
        else if (races === 2) {
          assert.equal((await base.claimObject(victim, 'gc-test')).claimed, true);
          release();
        }
      };
      const s = handleOn(base, { faults: hook });
      const settled = await Promise.allSettled(commits.map((w) => s.commitWal(w)));
      const st = s.stats();
      assert.equal(races, 3, 'the first call alone, then the other 15, rolled back at the claim and run again without it');
      assert.equal(st.walBatches, 2, `16 concurrent calls took ${st.walBatches} batch transactions`);
      assert.equal(st.walBatchGroups, 15, 'carrying every call but the claimed one, once');
      const ranges: Array<[number, number]> = [];
      settled.forEach((r, i) => {
        if (commits[i]!.object === victim) {
          assert.equal(r.status, 'rejected');
          assert.equal((r as PromiseRejectedResult).reason.code, 'Claimed');
          return;
        }
        assert.equal(r.status, 'fulfilled', `commit ${i}: ${r.status === 'rejected' ? (r as PromiseRejectedResult).reason.message : ''}`);
        const a = (r as PromiseFulfilledResult<Awaited<ReturnType<MetaStore['commitWal']>>>).value.assigned[0]!;
        ranges.push([a.start, a.end]);
      });
      ranges.sort((x, y) => x[0] - y[0]);
      ranges.forEach(([start, end], k) => assert.deepEqual([start, end], [2 * k, 2 * k + 2], 'dense, no gap for the claimed one'));
      const idx = await base.partitionIndex(ns.id, c.streamId, 0);
      assert.equal(idx.next, 2 * (commits.length - 1));
      assert.ok(!idx.entries.some((e) => e.path === victim), 'the claimed object is not indexed');
      assert.equal((await base.objectRef(victim))?.refs ?? 0, 0, 'and holds no reference');
    });

    test('the LISTEN connection terminated by the server reconnects while a watch waits, and the watch wakes on the next change', async () => {
      const base = await factory.open();
      const url = factory.location(base).path;
      const app = `loam-listen-${process.pid}`;
      const s = handleOn(base, { applicationName: app });
      const since = await s.catalogVersion();
      const watching = s.watch('catalog', since, { timeoutMs: 15_000 });
      const first = await untilSession(url, `${app}-listen`);
      // The server drops the listener (an administrator, a failover, idle_session_timeout…).
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        assert.equal((await admin.query('SELECT pg_terminate_backend($1) AS ok', [first])).rows[0].ok, true);
      } finally {
        await admin.end();
      }
      // Notifications flow again without waiting for a new watch call: the listener comes back.
      const second = await untilSession(url, `${app}-listen`, [first]);
      assert.notEqual(second, first);
      const t0 = Date.now();
      await base.createNamespace({ org: 'pg', name: 'after-drop' });
      const r = await watching;
      assert.equal(r.changed, true, 'the waiting watch saw the change');
      assert.ok(r.version > since);
      assert.ok(Date.now() - t0 < 5_000, 'woken by the change, long before its timeout');
    });

    test('commit tokens stay bounded under a steady write load past their TTL (shortened, validated)', async () => {
      const base = await factory.open();
      assert.throws(() => handleOn(base, { requestTokenTtlMs: 1_000 }), /requestTokenTtlMs/, 'a TTL below the minimum is refused');
      let offset = 0;
      const ttl = MIN_REQUEST_TOKEN_TTL_MS;
      const s = handleOn(base, { clock: () => Date.now() + offset, requestTokenTtlMs: ttl });
      const ns = await s.createNamespace({ org: 'pg', name: 'tokens' });
      const WRITES = 600;
      const PER_TTL = 10; // the backend's clock passes one TTL every PER_TTL writes
      const count = async () => Number((await s.writePool.query('SELECT count(*) AS n FROM request_tokens')).rows[0].n);
      let most = 0;
      for (let i = 0; i < WRITES; i++) {
        // casPointer keeps its token row (core/tokens.ts): each write adds one.
        await s.casPointer(ns.id, 'roots/main', i === 0 ? null : i, `m/${i}`, { requestId: `cas-${i}` });
        offset += Math.ceil(ttl / PER_TTL);
        if (i % 25 === 24) most = Math.max(most, await count());
      }
      // Live tokens (one TTL's writes), what a prune pass may not have reached yet, one batch of slack.
      const bound = PER_TTL + PRUNE_EVERY_WRITES + PRUNE_BATCH;
      assert.ok(most <= bound, `the token table peaked at ${most} rows over ${WRITES} writes; bound ${bound}`);
      // And a retry inside the TTL still finds its token.
      const again = await s.casPointer(ns.id, 'roots/main', WRITES - 1, `m/${WRITES - 1}`, { requestId: `cas-${WRITES - 1}` });
      assert.equal(again.version, WRITES, 'the retry returns the stored result');
    });

    test('the change feed is pruned past its retention; a reader behind the horizon is told to resync, the newest change of every namespace stays', async () => {
      const base = await factory.open();
      let offset = 0;
      const s = handleOn(base, { clock: () => Date.now() + offset, feedRetention: { changes: 1, ms: 0 } });
      const a = await s.createNamespace({ org: 'pg', name: 'a' });
      const b = await s.createNamespace({ org: 'pg', name: 'b' });
      await s.createCollection({ ns: a.id, name: 'c1', schema: SCHEMA, partitions: 1 });
      await s.createCollection({ ns: a.id, name: 'c2', schema: SCHEMA, partitions: 1 });
      offset += 10 * 60_000; // past maxClockSkew: the changes are old by the backend's clock
      assert.ok(((await s.pruneNow()) ?? 0) >= 1, 'a prune pass removed changes');
      const all = await s.changesSince(0);
      assert.equal(all.resync, true, 'a reader from version 0 is below the horizon');
      const newest = new Map<number, number>();
      for (const c of all.changes) newest.set(c.ns, c.version);
      assert.ok(newest.has(a.id) && newest.has(b.id), 'the newest change of each namespace is kept');
      const fresh = await s.changesSince(all.version);
      assert.equal(fresh.resync, undefined, 'a reader at the current version needs no resync');
      const w = await s.watch('catalog', 0, { timeoutMs: 1_000 });
      assert.deepEqual([w.changed, w.resync], [true, true], 'a watch from below the horizon wakes with resync');
    });

    test('a prune pass reads a bounded window of the feed: changes behind many kept ones are still pruned', async () => {
      const base = await factory.open();
      let offset = 0;
      const s = handleOn(base, { clock: () => Date.now() + offset, feedRetention: { changes: 5, ms: 0 } });
      // Quiet namespaces (their one change is kept for good) fill two windows before the busy one's changes.
      const QUIET = 2 * PRUNE_FEED_SCAN;
      for (let i = 0; i < QUIET; i++) await s.createNamespace({ org: 'pg', name: `q${i}` });
      const busy = await s.createNamespace({ org: 'pg', name: 'busy' });
      for (let i = 0; i < 40; i++) await s.createStream({ ns: busy.id, name: `s${i}`, partitions: 1 });
      offset += 10 * 60_000; // past maxClockSkew: every change is old by the backend's clock
      for (let pass = 0; pass < Math.ceil((QUIET + 41) / PRUNE_FEED_SCAN) + 1; pass++) await s.pruneNow();
      const first = await s.changesSince(0);
      assert.equal(first.resync, true, 'a reader from version 0 is below the horizon');
      const changes = [...first.changes];
      for (let page = first, pages = 0; page.more && pages < 10; pages++) {
        page = await s.changesSince(page.version);
        changes.push(...page.changes);
      }
      const busyLeft = changes.filter((c) => c.ns === busy.id).length;
      assert.ok(busyLeft <= 5 + 1, `the busy namespace keeps ${busyLeft} of its 41 changes (the newest, and those within the last 5 versions)`);
      assert.equal(new Set(changes.filter((c) => c.ns !== busy.id).map((c) => c.ns)).size, QUIET, 'every quiet namespace keeps its newest change');
    });
  });
}

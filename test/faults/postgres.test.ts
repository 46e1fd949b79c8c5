// The PostgreSQL backend's own failure paths, produced by the real server, beside the shared
// fault matrix (whose Postgres cells are made by test/harness/postgres-faults.ts): a COMMIT
// whose reply is lost after the server applied it, and the LISTEN connection dropped by the
// server while a watch waits. This file registers its cases in the postgres stage only: they
// test that backend's mapping, which the other backends do not have.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, test } from 'node:test';
import pg from 'pg';
import { linkPointerKey, type MetaStore } from '../../src/meta/index.js';
import type { FaultHook } from '../../src/meta/faults.js';
import { openPostgres, type PostgresMetaStore } from '../../src/meta/backends/postgres/index.js';
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
    const handleOn = (store: MetaStore, opts: { applicationName?: string; faults?: FaultHook }): PostgresMetaStore => {
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
  });
}

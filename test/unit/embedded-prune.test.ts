// Pruning on the embedded backend (core/tokens.ts, core/feed.ts): WAL commit records keep
// their skew margin (spec §3.2.2), the commit-token table stays bounded under a steady write
// load, the change feed is pruned past its horizon with a typed resync answer, and a prune
// pass reads through indexes only (its cost does not grow with the tables it prunes).
// The backend's clock is a test clock, so minutes pass in milliseconds.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEmbedded, type EmbeddedOptions } from '../../src/meta/backends/embedded/index.js';
import { PRUNE_SQL } from '../../src/meta/backends/embedded/context.js';
import { PRUNE_FEED_SCAN } from '../../src/meta/core/feed.js';
import { MIN_REQUEST_TOKEN_TTL_MS, PRUNE_BATCH, PRUNE_EVERY_WRITES } from '../../src/meta/core/tokens.js';
import { MAX_CLOCK_SKEW_MS, WAL_COMMIT_RECORD_TTL_MS, isMetaError } from '../../src/meta/index.js';

const MIN = 60_000;
const dirs: string[] = [];
function open(o: Partial<EmbeddedOptions>) {
  const dir = mkdtempSync(join(tmpdir(), 'loam-prune-'));
  dirs.push(dir);
  return openEmbedded({ path: join(dir, 'meta.db'), synchronous: 'NORMAL', ...o });
}
const count = (s: ReturnType<typeof open>, table: string) => (s.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;

describe('embedded pruning', () => {
  after(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  test('a proposer ahead of the backend (within maxClockSkew) does not shorten a WAL commit record\'s life', async () => {
    let now = Date.now();
    const s = open({ clock: () => now });
    const ns = await s.createNamespace({ org: 'o', name: 'n' });
    const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
    const old = now - 36 * MIN; // committed 36 minutes ago by the backend's clock
    const commit = { object: 'wal/old', objectStamp: old, chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] };
    const first = await s.commitWal(commit, { stamp: old });
    // A proposer 4 minutes ahead writes enough to run several prune passes.
    for (let i = 0; i < 2 * 256 + 1; i++) await s.casPointer(ns.id, 'k', i === 0 ? null : i, `m/${i}`, { stamp: now + 4 * MIN });
    // 36 min < 2·window + maxClockSkew (35 min) + the skew bound: the record is still there,
    // so a retry of the same object is answered with the first offsets, not committed again.
    const retry = await s.commitWal(commit, { stamp: old + MIN });
    assert.deepEqual(retry.assigned, first.assigned, 'the retry returns the first offsets (the object is not committed twice)');
    assert.equal((await s.partitionIndex(ns.id, c.streamId, 0)).next, 1);
    // Past 2·window + maxClockSkew + the skew bound by the backend's clock, it goes.
    now = old + WAL_COMMIT_RECORD_TTL_MS + MAX_CLOCK_SKEW_MS + 1;
    await s.pruneNow();
    assert.equal(count(s, 'wal_commits'), 0, 'the record is pruned once its margin has passed');
    await s.close();
  });

  test('the commit-token table stays bounded under a steady write load past the token TTL', async () => {
    assert.throws(() => open({ requestTokenTtlMs: 1_000 }), (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'requestTokenTtlMs');
    let now = Date.now();
    const ttl = MIN_REQUEST_TOKEN_TTL_MS;
    const s = open({ clock: () => now, requestTokenTtlMs: ttl });
    const ns = await s.createNamespace({ org: 'o', name: 'n' });
    const stepMs = 1_000; // one write with a requestId per second of the backend's clock
    const writes = Math.ceil((10 * ttl) / stepMs);
    const bound = ttl / stepMs + PRUNE_BATCH + PRUNE_EVERY_WRITES;
    let max = 0;
    for (let i = 0; i < writes; i++) {
      now += stepMs;
      await s.casPointer(ns.id, 'k', i === 0 ? null : i, `m/${i}`, { requestId: `req-${i}` });
      if (i % 100 === 0) max = Math.max(max, count(s, 'request_tokens'));
    }
    max = Math.max(max, count(s, 'request_tokens'));
    assert.ok(max <= bound, `the token table peaked at ${max} rows for ${writes} writes; bound ${bound} (one TTL of writes and a batch)`);
    // Calls idempotent by their own condition store no token at all.
    const before = count(s, 'request_tokens');
    const l = await s.acquireLease(ns.id, 'applier', 'node-a', 60_000, { requestId: 'lease-0' });
    for (let i = 0; i < 200; i++) await s.renewLease(ns.id, 'applier', 'node-a', l.epoch, 60_000, { requestId: `renew-${i}` });
    assert.ok(count(s, 'request_tokens') <= before, 'lease renewals add no commit-token rows');
    await s.close();
  });

  test('every prune statement reads through an index: no pass scans a whole table', async () => {
    const s = open({});
    for (const [name, sql] of Object.entries(PRUNE_SQL)) {
      const args = Array.from({ length: sql.split('?').length - 1 }, () => 1);
      const plan = (s.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...args) as { detail: string }[]).map((r) => r.detail);
      // "SCAN json_each" walks the statement's own argument, not a table.
      const scans = plan.filter((d) => /^SCAN /.test(d) && !/^SCAN json_each/.test(d));
      assert.deepEqual(scans, [], `${name} scans a table: ${plan.join('; ')}`);
    }
    await s.close();
  });

  test('GC tombstones past their margin are pruned among many live references', async () => {
    let now = Date.now();
    const s = open({ clock: () => now });
    const ins = s.db.prepare("INSERT INTO object_refs (path, kind, refs, claim_stamp, deleted) VALUES (?, 'segment', ?, ?, ?)");
    s.db.transaction(() => {
      for (let i = 0; i < 2_000; i++) ins.run(`ns/1/live/${i}`, 1, null, 0);
      for (let i = 0; i < 10; i++) ins.run(`ns/1/gone/${i}`, 0, now, 1);
    })();
    now += WAL_COMMIT_RECORD_TTL_MS + MAX_CLOCK_SKEW_MS + 1;
    assert.equal(await s.pruneNow(), 10);
    assert.equal(count(s, 'object_refs'), 2_000, 'the live references stay');
    await s.close();
  });

  test('the change feed is pruned past its horizon; a reader behind it is told to resync and still sees every namespace that changed', async () => {
    const s = open({ feedRetention: { changes: 5, ms: 0 } });
    const past = Date.now() - MAX_CLOCK_SKEW_MS - MIN; // older than the retention by the backend's clock
    const quiet = await s.createNamespace({ org: 'o', name: 'quiet' }, { stamp: past });
    const busy = await s.createNamespace({ org: 'o', name: 'busy' }, { stamp: past });
    for (let i = 0; i < 40; i++) await s.createStream({ ns: busy.id, name: `s${i}`, partitions: 1 }, { stamp: past });
    await s.pruneNow();
    const rows = count(s, 'catalog_changes');
    assert.ok(rows <= 5 + 2 + PRUNE_EVERY_WRITES, `the feed keeps ${rows} rows of 42 changes`);
    const version = await s.catalogVersion();
    assert.equal(version, 42, 'pruning never lowers the catalog version');
    const behind = await s.changesSince(0);
    assert.equal(behind.resync, true, 'a reader behind the horizon gets resync: true');
    assert.ok(behind.changes.some((ch) => ch.ns === quiet.id), 'the newest change of a quiet namespace outlives the horizon');
    assert.equal(behind.version, version);
    const current = await s.changesSince(version - 3);
    assert.equal(current.resync, undefined, 'a reader at or above the horizon reads every change, as before');
    assert.equal(current.changes.length, 3);
    const w = await s.watch({ ns: quiet.id }, 0, { timeoutMs: 1_000 });
    assert.deepEqual(w, { version, changed: true, resync: true }, 'a watcher behind the horizon is woken with resync');
    const idle = await s.watch({ ns: quiet.id }, version, { timeoutMs: 50 });
    assert.deepEqual(idle, { version, changed: false });
    await s.close();
  });

  test('a pass reads a bounded window of the feed: changes behind many kept ones are still pruned, a window a pass', async () => {
    const s = open({ feedRetention: { changes: 5, ms: 0 } });
    const past = Date.now() - MAX_CLOCK_SKEW_MS - MIN;
    // Quiet namespaces (their one change is kept for good) fill two windows before the busy one's changes.
    const QUIET = 2 * PRUNE_FEED_SCAN;
    for (let i = 0; i < QUIET; i++) await s.createNamespace({ org: 'o', name: `q${i}` }, { stamp: past });
    const busy = await s.createNamespace({ org: 'o', name: 'busy' }, { stamp: past });
    for (let i = 0; i < 40; i++) await s.createStream({ ns: busy.id, name: `s${i}`, partitions: 1 }, { stamp: past });
    // Every write so far ran its own passes; a few more reach the busy namespace's changes.
    for (let pass = 0; pass < Math.ceil((QUIET + 41) / PRUNE_FEED_SCAN) + 1; pass++) await s.pruneNow();
    const left = (s.db.prepare('SELECT count(*) AS n FROM catalog_changes WHERE ns = ?').get(busy.id) as { n: number }).n;
    assert.ok(left <= 5 + 1, `the busy namespace keeps ${left} of its 41 changes (the newest, and those within the last 5 versions)`);
    assert.equal((s.db.prepare('SELECT count(*) AS n FROM catalog_changes WHERE ns <> ?').get(busy.id) as { n: number }).n, QUIET, 'every quiet namespace keeps its newest change');
    assert.equal((await s.changesSince(0)).resync, true);
    await s.close();
  });
});

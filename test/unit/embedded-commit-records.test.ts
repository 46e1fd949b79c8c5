// The embedded backend's commitWal: its WAL commit records (spec §3.1: the (object, group)
// idempotency record), stored compactly — a file written by an earlier Loam holds them as the
// ranges' JSON objects, and a retry of such a commit must still be answered from its record —
// and its group commit (src/meta/backends/embedded/group-commit.ts): concurrent calls share one
// transaction, counted as commit frames in SQLite's WAL file (what each COMMIT and its fsync
// append), and each call's failure is its own: its writes are rolled back, the others commit,
// and what was answered is durable across a reopen.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MAX_GROUP_COMMIT_CALLS } from '../../src/meta/backends/embedded/group-commit.js';
import { WAL_COMMIT_WINDOW_MS } from '../../src/meta/limits.js';
import { isMetaError, type WalCommit } from '../../src/meta/index.js';
import { controlStoreFor } from '../../src/control/index.js';

const dir = mkdtempSync(join(tmpdir(), 'loam-records-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a retry is answered from its commit record after a reopen, and from a record in the earlier format', async () => {
  const path = join(dir, 'meta.db');
  let s = openEmbedded({ path, synchronous: 'NORMAL' });
  const ns = await s.createNamespace({ org: 'o', name: 'n' });
  const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 3 });
  const chunks = [2, 0].map((p) => ({ ns: ns.id, stream: c.streamId, partition: p, records: 5 + p, byteStart: p * 10, byteEnd: p * 10 + 10 }));
  const commit = { object: 'wal/a', objectStamp: Date.now(), chunks };
  const first = await s.commitWal(commit);
  await s.close();

  s = openEmbedded({ path, synchronous: 'NORMAL' });
  assert.deepEqual(await s.commitWal(commit), first, 'the retry gets the first offsets');
  assert.equal((await s.partitionIndex(ns.id, c.streamId, 2)).next, 7, 'and commits nothing twice');

  // A record as an earlier Loam wrote it: the ranges' objects.
  const old = [{ ns: ns.id, stream: c.streamId, partition: 1, start: 40, end: 44, group: 0 }];
  s.db.prepare('INSERT INTO wal_commits (object, grp, result, stamp) VALUES (?, 0, ?, ?)').run('wal/old', JSON.stringify(old), Date.now());
  const oldCommit = { object: 'wal/old', objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: c.streamId, partition: 1, records: 4, byteStart: 0, byteEnd: 8 }] };
  const replay = await s.commitWal(oldCommit);
  assert.deepEqual(replay.assigned, old);
  assert.equal((await s.partitionIndex(ns.id, c.streamId, 1)).next, 0, 'the replay wrote nothing');
  await assert.rejects(
    s.commitWal({ ...oldCommit, chunks: [{ ...oldCommit.chunks[0]!, records: 5 }] }),
    (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'chunks',
    'a retry with other chunks is refused',
  );
  await s.close();
});

/**
 * Transactions committed into a WAL file: frames whose header carries the database size (a
 * commit frame) and the header's salts (not a stale frame of an earlier WAL generation).
 */
function walCommits(walPath: string): number {
  const fd = openSync(walPath, 'r');
  try {
    const head = Buffer.alloc(32);
    if (readSync(fd, head, 0, 32, 0) < 32) return 0;
    const pageSize = head.readUInt32BE(8);
    const salts = [head.readUInt32BE(16), head.readUInt32BE(20)];
    const frame = Buffer.alloc(24);
    let commits = 0;
    for (let at = 32; readSync(fd, frame, 0, 24, at) === 24; at += 24 + pageSize) {
      if (frame.readUInt32BE(8) !== salts[0] || frame.readUInt32BE(12) !== salts[1]) break;
      if (frame.readUInt32BE(4) !== 0) commits++;
    }
    return commits;
  } finally {
    closeSync(fd);
  }
}

test('concurrent commitWal calls share one COMMIT; a refused call fails alone and leaves no write', async () => {
  const path = join(dir, 'group.db');
  let s = openEmbedded({ path, synchronous: 'FULL' });
  const ns = await s.createNamespace({ org: 'o', name: 'n' });
  const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
  const commit = (object: string, records = 3, objectStamp = Date.now()): WalCommit => ({
    object,
    objectStamp,
    chunks: [0, 1].map((p) => ({ ns: ns.id, stream: c.streamId, partition: p, records, byteStart: p * 10, byteEnd: p * 10 + 10 })),
  });
  await s.commitWal(commit('wal/earlier'));
  // A GC claim on an object makes its commit fail after its heads and index rows were written (Claimed).
  assert.equal((await s.claimObject('wal/claimed', 'gc')).claimed, true);

  const before = walCommits(`${path}-wal`);
  const good = Array.from({ length: 5 }, (_, i) => `wal/good-${i}`);
  const calls = [
    ...good.slice(0, 2).map((o) => s.commitWal(commit(o))),
    s.commitWal(commit('wal/claimed')),
    s.commitWal(commit('wal/stale', 3, Date.now() - WAL_COMMIT_WINDOW_MS - 60_000)),
    s.commitWal(commit('wal/earlier', 4)), // the same object with other chunks
    ...good.slice(2).map((o) => s.commitWal(commit(o))),
  ];
  const out = await Promise.allSettled(calls);
  const codeOf = (r: PromiseSettledResult<unknown>) => (r.status === 'fulfilled' ? 'ok' : isMetaError(r.reason) ? r.reason.code : String(r.reason));
  assert.deepEqual(out.map(codeOf), ['ok', 'ok', 'Claimed', 'StaleCommit', 'InvalidArgument', 'ok', 'ok', 'ok']);
  assert.equal(walCommits(`${path}-wal`) - before, 1, `${calls.length} concurrent calls, one COMMIT`);
  assert.deepEqual(s.groupCommits(), { groups: 2, calls: 6 }, 'the setup commit alone, then the five that applied in one group');

  // Offsets follow the queue order of the calls that committed, with no gap left by the refused ones.
  const starts = out.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<{ assigned: { start: number }[] }>).value.assigned[0]!.start);
  assert.deepEqual(starts, [3, 6, 9, 12, 15]);
  await s.close();

  // Durable as answered, and nothing of the refused calls: not their index rows, not the claimed object's reference.
  s = openEmbedded({ path, synchronous: 'FULL' });
  for (const p of [0, 1]) {
    const idx = await s.partitionIndex(ns.id, c.streamId, p);
    assert.equal(idx.next, 18);
    assert.deepEqual(
      idx.entries.map((e) => e.path),
      ['wal/earlier', ...good],
    );
  }
  assert.equal((await s.objectRef('wal/claimed'))?.refs ?? 0, 0);
  await s.close();
});

test('a group carries at most MAX_GROUP_COMMIT_CALLS calls; the rest form the next', async () => {
  const s = openEmbedded({ path: join(dir, 'bound.db'), synchronous: 'NORMAL' });
  const ns = await s.createNamespace({ org: 'o', name: 'n' });
  const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
  const g0 = s.groupCommits();
  const n = MAX_GROUP_COMMIT_CALLS + 1;
  await Promise.all(
    Array.from({ length: n }, (_, i) =>
      s.commitWal({ object: `wal/${i}`, objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 1 }] }),
    ),
  );
  const g1 = s.groupCommits();
  assert.deepEqual({ groups: g1.groups - g0.groups, calls: g1.calls - g0.calls }, { groups: 2, calls: n });
  assert.equal((await s.partitionIndex(ns.id, c.streamId, 0)).next, n);
  await s.close();
});

test('metastore calls made while a ControlStore write is open on the same connection all succeed', async () => {
  // The ControlStore runs on this backend's own connection (src/control/embedded.ts) and its
  // transactions span awaits: a metastore call started in between answered SQLITE_ERROR
  // "cannot start a transaction within a transaction" (6% of first writes to new namespaces).
  const meta = openEmbedded({ path: join(dir, 'shared.db'), synchronous: 'NORMAL' });
  const cs = await controlStoreFor(meta);
  const hops = (n: number) => Array.from({ length: n }).reduce<Promise<void>>((p) => p.then(() => undefined), Promise.resolve());
  const ns = await meta.createNamespace({ org: 'shared-log', name: 'n' });
  const c = await meta.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
  const commit = (object: string) => meta.commitWal({ object, objectStamp: Date.now(), chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 8 }] });
  const calls: Promise<unknown>[] = [];
  for (let round = 0; round < 4; round++) {
    calls.push(cs.putUsage([{ org: 'shared-conn', ns: 7, metric: 'storage_bytes', window: 0, value: round }]));
    for (let h = 0; h < 24; h++) {
      calls.push(hops(h).then(() => meta.listNamespaces('shared-conn')));
      calls.push(hops(h).then(() => meta.createNamespace({ org: 'shared-conn', name: `r${round}h${h}` })));
      calls.push(hops(h).then(() => commit(`wal/shared-${round}-${h}`)));
    }
  }
  const failed = (await Promise.allSettled(calls)).flatMap((r) => (r.status === 'rejected' ? [String((r.reason as Error).message)] : []));
  assert.deepEqual([...new Set(failed)], [], `${failed.length} of ${calls.length} calls failed`);
  assert.equal((await meta.listNamespaces('shared-conn', { limit: 1000 })).items.length, 4 * 24);
  assert.equal((await meta.partitionIndex(ns.id, c.streamId, 0)).next, 4 * 24, 'every commit appended once');
  await cs.close();
  await meta.close();
});

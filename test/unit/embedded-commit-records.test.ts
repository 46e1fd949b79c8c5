// The embedded backend's WAL commit records (spec §3.1: the (object, group) idempotency
// record). They are stored compactly; a file written by an earlier Loam holds them as the
// ranges' JSON objects, and a retry of such a commit must still be answered from its record.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { isMetaError } from '../../src/meta/index.js';

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

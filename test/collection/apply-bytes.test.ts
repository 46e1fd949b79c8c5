// An apply round reads at most BOUND of log (src/workers/applier.ts, issue 14 item 9), and a
// segment is built from at most its byte bound of WAL chunks (src/workers/segmenter.ts):
// what a round holds at once is bounded by bytes, not only by a record count, so a burst of
// large documents does not make the worker hold tens of MiB per round. Checked with a bound of
// BOUND (the deps' maxApplyBytes) to keep the test small.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openMetastore } from '../../src/node/backends.js';
import { MemoryStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { LogWriter } from '../../src/log/writer.js';
import { LogReader } from '../../src/log/reader.js';
import { encodeRecord, OP_UPSERT } from '../../src/log/format.js';
import { DataFiles } from '../../src/collection/datafile.js';
import { Manifests } from '../../src/collection/manifest.js';
import { applyOnce, MAX_APPLY_RECORDS } from '../../src/workers/applier.js';
import { segmentPartition } from '../../src/workers/segmenter.js';

const BOUND = 512 * 1024;
/** WAL objects of this size: a chunk (half an object, two partitions) is well under BOUND. */
const FLUSH_BYTES = 128 * 1024;

test('an apply round reads at most BOUND of log (plus one chunk), and later rounds apply the rest', async () => {
  const { meta } = await openMetastore('sqlite::memory:');
  const raw = new MemoryStore();
  const ns = await meta.createNamespace({ org: 'default', name: 'b' });
  const c = await meta.createCollection({ ns: ns.id, name: 'big', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
  // 2.5 × BOUND in 1 KiB documents: far under MAX_APPLY_RECORDS, so only the byte bound cuts a round.
  const body = JSON.stringify({ pad: 'x'.repeat(1024) });
  const perWrite = 20;
  const writes = Math.ceil((2.5 * BOUND) / (perWrite * body.length));
  assert.ok(writes * perWrite < MAX_APPLY_RECORDS);
  const writer = new LogWriter({ meta, store: raw, nodeId: 'n', flushBytes: FLUSH_BYTES });
  // A few at a time (within the writer's buffer bound): it packs them into objects of about FLUSH_BYTES.
  const AT_ONCE = 4;
  for (let w0 = 0; w0 < writes; w0 += AT_ONCE) {
    await Promise.all(
      Array.from({ length: Math.min(AT_ONCE, writes - w0) }, (_, k) => {
        const w = w0 + k;
        const recs = (p: number) => Array.from({ length: perWrite / 2 }, (_, i) => encodeRecord({ op: OP_UPSERT, key: `p${p}-${w}-${i}`, body }));
        return writer.append([0, 1].map((p) => ({ ns: ns.id, stream: c.streamId, partition: p, records: recs(p) })));
      }),
    );
  }
  await writer.close();
  // The bytes every get returns (the log chunks a round reads, and its manifest).
  let bytesRead = 0;
  const store = new Proxy(raw, {
    get(t, k) {
      if (k === 'get') return async (...a: Parameters<Store['get']>) => {
        const r = await t.get(...a);
        bytesRead += r.bytes.length;
        return r;
      };
      const v = (t as unknown as Record<string | symbol, unknown>)[k];
      return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(t) : v;
    },
  });
  const d = { meta, store, log: new LogReader(meta, store, 0), manifests: new Manifests(store), files: new DataFiles(store, 0), roundDeadlineMs: 60_000, maxApplyBytes: BOUND };
  const lease = await meta.acquireLease(ns.id, `applier/${c.id}`, 'test', 60_000);
  const fence = { scope: ns.id, key: `applier/${c.id}`, epoch: lease.epoch };
  let applied = 0;
  for (let round = 0; round < 10; round++) {
    const before = bytesRead;
    const r = await applyOnce(d, c, fence);
    const read = bytesRead - before;
    applied += r.applied;
    if (r.applied === 0) break;
    // One chunk over the bound at most, and the manifest.
    assert.ok(read <= BOUND + FLUSH_BYTES + 64 * 1024, `round ${round} read ${read} bytes; the bound is ${BOUND}`);
    assert.ok(r.applied < writes * perWrite, `round ${round} applied ${r.applied} of ${writes * perWrite}: cut by bytes`);
  }
  assert.equal(applied, writes * perWrite, 'every record applied, over several rounds');
  await meta.close();
});

test('a segment is built from at most maxSegmentBytes of WAL chunks (plus one), and every record stays in order', async () => {
  const { meta } = await openMetastore('sqlite::memory:');
  const store = new MemoryStore();
  const ns = await meta.createNamespace({ org: 'default', name: 's' });
  const c = await meta.createCollection({ ns: ns.id, name: 'seg', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
  const SEG_BOUND = 256 * 1024;
  const CHUNK_BYTES = 32 * 1024;
  const body = JSON.stringify({ pad: 'x'.repeat(1024) });
  const perWrite = 8;
  // 3 × SEG_BOUND in all, in WAL objects of about CHUNK_BYTES (one chunk each: one partition).
  const writes = Math.ceil((3 * SEG_BOUND) / (perWrite * body.length));
  const writer = new LogWriter({ meta, store, nodeId: 'n', flushBytes: CHUNK_BYTES });
  for (let w0 = 0; w0 < writes; w0 += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, writes - w0) }, (_, k) => {
        const w = w0 + k;
        const records = Array.from({ length: perWrite }, (_, i) => encodeRecord({ op: OP_UPSERT, key: `k${String(w * perWrite + i).padStart(6, '0')}`, body }));
        return writer.append([{ ns: ns.id, stream: c.streamId, partition: 0, records }]);
      }),
    );
  }
  await writer.close();
  const log = new LogReader(meta, store, 0);
  const walEntries = (await log.entries(ns.id, c.streamId, 0, 0, Number.MAX_SAFE_INTEGER)).entries;
  assert.ok(walEntries.every((e) => e.kind === 'wal' && e.byteEnd - e.byteStart <= 2 * CHUNK_BYTES));
  const lease = await meta.acquireLease(ns.id, `segmenter/${c.streamId}`, 'test', 60_000);
  const fence = { scope: ns.id, key: `segmenter/${c.streamId}`, epoch: lease.epoch };
  const s = await meta.stream(ns.id, c.streamId);
  for (let pass = 0; pass < 10; pass++) {
    if ((await segmentPartition({ meta, store, log, maxSegmentBytes: SEG_BOUND }, s, 0, fence, Date.now(), 0)) === 0) break;
  }
  const after = (await log.entries(ns.id, c.streamId, 0, 0, Number.MAX_SAFE_INTEGER)).entries;
  const segments = after.filter((e) => e.kind === 'segment');
  assert.ok(segments.length >= 3, `${segments.length} segments of ${walEntries.length} WAL chunks`);
  const recordBytes = encodeRecord({ op: OP_UPSERT, key: 'k000000', body }).length;
  for (const e of segments) {
    // What the segment was built from: its records' bytes, at most one chunk over the bound.
    const built = (e.end - e.start) * recordBytes;
    assert.ok(built <= SEG_BOUND + 2 * CHUNK_BYTES, `a segment of ${e.end - e.start} records (${built} bytes) is over the bound of ${SEG_BOUND}`);
  }
  const keys = (await Promise.all(after.map((e) => log.entryRecords(e)))).flat().map((r) => r.key);
  assert.deepEqual(keys, Array.from({ length: writes * perWrite }, (_, i) => `k${String(i).padStart(6, '0')}`));
  await meta.close();
});

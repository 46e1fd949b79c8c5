// An apply round reads at most BOUND of log (src/workers/applier.ts, issue 14 item 9):
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

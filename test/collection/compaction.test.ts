import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compactionRun, COMPACT_BASE_BYTES, COMPACT_MAX_FILES, COMPACT_RUN } from '../../src/workers/applier.js';
import { buildDataFile, decodeBlock, DataFiles, DATA_BLOCK_BYTES } from '../../src/collection/datafile.js';
import { MemoryStore } from '../../src/store/index.js';
import { inflateRawSync } from 'node:zlib';

const f = (mb: number) => ({ path: `p${mb}`, bytes: Math.round(mb * COMPACT_BASE_BYTES), entries: 1, tombstones: 0, minKey: 'a', maxKey: 'z', indexStart: 0, indexEnd: 0 });

test('size-tiered compaction picks a run of one tier, adjacent in recency order', () => {
  assert.equal(compactionRun([f(1), f(1), f(1)]), null);
  assert.deepEqual(compactionRun([f(1), f(1), f(1), f(1)]), [0, 4]);
  // A newer small file does not block a run of older same-tier files behind it.
  assert.deepEqual(compactionRun([f(0.5), f(20), f(20), f(20), f(20), f(300)]), [1, 5]);
  assert.equal(compactionRun([f(1), f(5), f(20), f(90), f(400)]), null);
  assert.deepEqual(compactionRun(Array.from({ length: COMPACT_MAX_FILES + 1 }, (_, i) => f(4 ** (i % 3)))), [0, Math.ceil((COMPACT_MAX_FILES + 1) / 2)]);
  assert.ok(COMPACT_RUN >= 2);
});

test('data files: sorted blocks, footer index, point reads and scans from a cursor', async () => {
  const entries = Array.from({ length: 3000 }, (_, i) => ({ key: `k${String(i).padStart(5, '0')}`, tombstone: i % 10 === 0, body: i % 10 === 0 ? '' : JSON.stringify({ i, pad: 'x'.repeat(100) }) }));
  const built = buildDataFile('ns/1/c/1/data/x.ldf', entries);
  assert.ok(built.meta.indexEnd > built.meta.indexStart);
  assert.ok((built.meta.index?.length ?? 0) > 1, 'several blocks');
  assert.ok(built.meta.index!.every((b) => b.l <= DATA_BLOCK_BYTES + 200));
  const str = (e: { key: string; tombstone: boolean; body: Buffer } | undefined) => e && { ...e, body: e.body.toString() };
  const b0 = built.meta.index![0]!;
  assert.equal(b0.z, 1, 'JSON blocks are stored deflated');
  const raw0 = inflateRawSync(built.bytes.subarray(b0.o, b0.o + b0.l));
  assert.deepEqual(str(decodeBlock(raw0, 'x')[1]), entries[1]);
  const store = new MemoryStore();
  await store.put(built.meta.path, built.bytes);
  const files = new DataFiles(store);
  // Without the inlined index, the footer index is fetched by range.
  const meta = { ...built.meta, index: undefined };
  assert.deepEqual(str(await files.get(meta, 'k01234')), entries[1234]);
  assert.equal((await files.get(meta, 'k01230'))?.tombstone, true);
  assert.equal(await files.get(meta, 'k99999'), undefined);
  assert.equal(await files.get(meta, 'a'), undefined);
  const after: string[] = [];
  for await (const e of files.scan(meta, 'k02995')) after.push(e.key);
  assert.deepEqual(after, ['k02996', 'k02997', 'k02998', 'k02999']);
  assert.throws(() => buildDataFile('x', [entries[1]!, entries[0]!]), /sorted/);
});

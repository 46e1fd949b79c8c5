// A node's memory is bounded by its settings (docs/operations.md, sizing): the caches hold at
// most their budget of decoded bytes, whatever the stored (deflated) size, and a compaction
// streams its merge instead of holding the files it merges.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildDataFile, DataFiles, DataFileBuilder, type DataEntryInput } from '../../src/collection/datafile.js';
import { MemoryStore } from '../../src/store/index.js';

/** Documents that deflate about 100×, as padded or repetitive JSON does. */
function entries(n: number, prefix: string): DataEntryInput[] {
  const body = JSON.stringify({ pad: 'x'.repeat(1000) });
  return Array.from({ length: n }, (_, i) => ({ key: `${prefix}${String(i).padStart(6, '0')}`, tombstone: false, body }));
}

test('the block cache holds at most its budget of decoded bytes, however well the blocks deflate', async () => {
  const store = new MemoryStore();
  const f = buildDataFile('ns/1/c/1/data/a.df', entries(5_000, 'k'));
  await store.put(f.meta.path, f.bytes);
  assert.ok(f.meta.bytes < 512 * 1024, `the file deflates well (${f.meta.bytes} bytes stored)`);
  const budget = 1024 * 1024;
  const files = new DataFiles(store, budget);
  let seen = 0;
  for await (const e of files.scan(f.meta)) seen += e.body.byteLength;
  assert.ok(seen > 4 * budget, `the scan read ${seen} decoded bytes`);
  const held = files.cachedBodyBytes();
  assert.ok(held <= budget, `the cache holds ${held} decoded body bytes, over its budget of ${budget}`);
  assert.ok(held > 0, 'the cache keeps what fits');
});

test('the block cache holds at most its budget in memory, not only in charged bytes: small blocks keep no larger buffer alive', async () => {
  // A small block's entries were views into zlib's 16 KiB output buffer: the cache charged a
  // few hundred bytes a block and kept 16 KiB each (15,531 cached blocks held 254 MB).
  const store = new MemoryStore();
  const FILES = 200;
  const metas = [];
  for (let i = 0; i < FILES; i++) {
    const f = buildDataFile(`ns/1/c/1/data/s${i}.df`, [
      { key: 'a', tombstone: false, body: JSON.stringify({ v: i, pad: 'y'.repeat(40) }) },
      { key: 'b', tombstone: false, body: JSON.stringify({ v: i, pad: 'y'.repeat(40) }) },
    ]);
    await store.put(f.meta.path, f.bytes);
    metas.push(f.meta);
  }
  const budget = 1024 * 1024;
  const files = new DataFiles(store, budget);
  for (const m of metas) assert.ok(await files.get(m, 'a'));
  assert.equal(files.cachedBlocks(), FILES, 'every block fits the budget by its charge');
  const held = files.cachedRetainedBytes();
  assert.ok(held <= budget, `the cached blocks keep ${held} bytes of buffers alive, over the budget of ${budget}`);
});

test('DataFileBuilder writes the same file as buildDataFile, block by block', () => {
  const input = entries(3_000, 'b');
  const whole = buildDataFile('p', input);
  const w = new DataFileBuilder('p');
  const parts: Buffer[] = [];
  for (const e of input) parts.push(...w.add(e));
  const { tail, meta } = w.finish();
  parts.push(...tail);
  assert.ok(parts.length > 3, 'blocks come out as they close');
  assert.deepEqual(Buffer.concat(parts), whole.bytes);
  assert.deepEqual(meta, whole.meta);
});

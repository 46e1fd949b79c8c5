// The WAL/segment build buffers (src/log/build-buffers.ts, issue 14 item 9): objects built in
// reused buffers are the same bytes, the pool keeps at most its bound, and lets go when idle.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BuildBuffers } from '../../src/log/build-buffers.js';
import { CODEC_GZIP, encodeObject, encodeRecord, OP_DELETE, OP_UPSERT, readObject, type ChunkInput } from '../../src/log/format.js';

const chunks = (n: number): ChunkInput[] => [
  { ns: 1, stream: 2, partition: 0, records: Array.from({ length: n }, (_, i) => encodeRecord({ op: OP_UPSERT, key: `k${i}`, body: JSON.stringify({ i, pad: 'x'.repeat(i % 50) }) })) },
  { ns: 1, stream: 2, partition: 1, records: [encodeRecord({ op: OP_DELETE, key: 'gone', body: '' })], codec: CODEC_GZIP },
];

test('an object built in a pooled buffer is byte for byte the unpooled one, and decodes', () => {
  const pool = new BuildBuffers(2, 1 << 20, 60_000);
  const plain = encodeObject(7, chunks(300));
  for (let round = 0; round < 3; round++) {
    const pooled = encodeObject(7, chunks(300), pool);
    assert.ok(pooled.bytes.equals(plain.bytes));
    assert.deepEqual(pooled.ranges, plain.ranges);
    const back = readObject(pooled.bytes, 'p').chunks.map((c) => c.decode().map((r) => r.key));
    assert.equal(back[0]!.length, 300);
    assert.deepEqual(back[1], ['gone']);
    pool.release(pooled.bytes);
  }
  const s = pool.stats();
  assert.ok(s.reused >= 4, `reused ${s.reused} times`);
  assert.ok(s.kept <= 2);
  pool.clear();
});

test('the pool keeps at most its bound, never an oversized buffer, and frees what it keeps when idle', async () => {
  const pool = new BuildBuffers(2, 4 << 20, 50);
  const lent = [pool.acquire(1000), pool.acquire(2 << 20), pool.acquire(3 << 20), pool.acquire(5 << 20)];
  assert.equal(lent[3]!.length, 5 << 20);
  for (const b of lent) pool.release(b);
  assert.equal(pool.stats().kept, 2, 'at most two kept');
  assert.equal(pool.stats().keptBytes, (2 << 20) + (3 << 20), 'the two largest that fit the bound');
  const again = pool.acquire(1 << 20);
  assert.equal(pool.stats().reused, 1);
  pool.release(again);
  await new Promise((r) => setTimeout(r, 300));
  assert.equal(pool.stats().kept, 0, 'idle: nothing kept');
});

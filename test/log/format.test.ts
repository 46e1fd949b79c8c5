import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crc32c } from '@node-rs/crc32';
import {
  CorruptObject,
  encodeObject,
  encodeRecord,
  OBJECT_HEADER_BYTES,
  OP_DELETE,
  OP_UPSERT,
  readChunk,
  readObject,
  CODEC_GZIP,
} from '../../src/log/format.js';
import { canonicalKey, partitionOf } from '../../src/log/keys.js';

test('crc32c is the Castagnoli polynomial', () => {
  assert.equal(crc32c(Buffer.from('123456789')), 0xe3069283);
});

test('a WAL object round-trips: chunks per (ns, stream, partition), each decodable from its byte range', () => {
  const a = [encodeRecord({ op: OP_UPSERT, key: 'k1', body: '{"id":"k1","n":1}' }), encodeRecord({ op: OP_DELETE, key: 'k2', body: '' })];
  const b = [encodeRecord({ op: OP_UPSERT, key: 'é€😀', body: '{"id":"é€😀"}' })];
  const obj = encodeObject(1234, [
    { ns: 1, stream: 2, partition: 0, records: a },
    { ns: 7, stream: 9, partition: 3, records: b, codec: CODEC_GZIP, keyMeta: Buffer.from('wrapped-key') },
  ]);
  const all = readObject(obj.bytes, 'x');
  assert.equal(all.header.objectStamp, 1234);
  assert.equal(all.chunks.length, 2);
  assert.equal(obj.ranges[0]!.byteStart, OBJECT_HEADER_BYTES);
  const c1 = readChunk(obj.bytes.subarray(obj.ranges[1]!.byteStart, obj.ranges[1]!.byteEnd), 'x');
  assert.deepEqual([c1.ns, c1.stream, c1.partition, c1.records, c1.codec], [7, 9, 3, 1, CODEC_GZIP]);
  assert.equal(c1.keyMeta.toString(), 'wrapped-key');
  // Key metadata marks a sealed chunk (spec §9.8): it decodes only through an opener, which gets the metadata.
  assert.throws(() => c1.decode(), /encrypted/);
  const opener = (m: Buffer, stored: Buffer) => (assert.equal(m.toString(), 'wrapped-key'), stored);
  assert.deepEqual(c1.decode(opener).map((r) => ({ ...r, body: r.body.toString() })), [{ op: OP_UPSERT, key: 'é€😀', body: '{"id":"é€😀"}' }]);
  const c0 = readChunk(obj.bytes.subarray(obj.ranges[0]!.byteStart, obj.ranges[0]!.byteEnd), 'x');
  assert.deepEqual(c0.decode().map((r) => [r.op, r.key]), [
    [OP_UPSERT, 'k1'],
    [OP_DELETE, 'k2'],
  ]);
});

test('a flipped byte anywhere in a chunk is CorruptObject, never a wrong read', () => {
  const obj = encodeObject(1, [{ ns: 1, stream: 1, partition: 0, records: [encodeRecord({ op: OP_UPSERT, key: 'a', body: '{"id":"a"}' })] }]);
  const chunk = obj.bytes.subarray(obj.ranges[0]!.byteStart);
  for (let i = 0; i < chunk.length; i++) {
    const bad = Buffer.from(chunk);
    bad[i] = bad[i]! ^ 0x01;
    assert.throws(() => readChunk(bad, 'p').decode(), CorruptObject, `byte ${i}`);
  }
});

test('keys: strings and finite numbers; partition is a stable hash', () => {
  assert.deepEqual(canonicalKey(7), { ok: true, key: '7' });
  assert.deepEqual(canonicalKey('a'), { ok: true, key: 'a' });
  for (const bad of [undefined, null, {}, [], true, NaN, '']) assert.equal(canonicalKey(bad).ok, false);
  assert.equal(partitionOf('abc', 1), 0);
  const p = partitionOf('user-42', 16);
  assert.ok(p >= 0 && p < 16);
  assert.equal(partitionOf('user-42', 16), p);
  // Stable across versions: xxh3-64("user-42") mod 16 (a change here breaks every stored partition).
  assert.equal(p, 13);
});

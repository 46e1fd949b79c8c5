// Envelope encryption (spec §9.8) at the log and store level, with the local provider: WAL
// chunks of two namespaces in one object, objects under ns/<id>/ with range reads, and
// crypto-shredding one namespace while the other stays readable.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { metaClient } from '../../src/meta/client.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { LogWriter } from '../../src/log/writer.js';
import { LogReader } from '../../src/log/reader.js';
import { encodeRecord, OP_UPSERT, readObject } from '../../src/log/format.js';
import { isDataError } from '../../src/log/errors.js';
import { LocalKeyProvider, parseMasterKey } from '../../src/crypto/local.js';
import { KeyRing } from '../../src/crypto/keyring.js';
import { EncryptingStore, FRAME_BYTES } from '../../src/crypto/encrypting-store.js';
import { aadOf, DecryptFailed, open, seal } from '../../src/crypto/envelope.js';
import { KeyDestroyedError } from '../../src/crypto/provider.js';

async function setup() {
  const meta = metaClient(openEmbedded({ path: ':memory:' }));
  const control = openEmbeddedControl(':memory:');
  await control.init();
  const nsA = await meta.createNamespace({ org: 'o', name: 'a' });
  const nsB = await meta.createNamespace({ org: 'o', name: 'b' });
  const schema = { primaryKey: 'id', fields: { id: 'string' } } as const;
  const a = await meta.createCollection({ ns: nsA.id, name: 'c', schema, partitions: 1 });
  const b = await meta.createCollection({ ns: nsB.id, name: 'c', schema, partitions: 1 });
  const ring = new KeyRing({ control, provider: new LocalKeyProvider(randomBytes(32)), encryptNewNamespaces: true });
  return { meta, control, ring, a, b };
}

const rec = (k: string, v: string) => encodeRecord({ op: OP_UPSERT, key: k, body: JSON.stringify({ id: k, v }) });

test('the master key setting is validated by name and its value never appears in the error', () => {
  const secret = 'not-a-key-but-secret';
  assert.throws(() => parseMasterKey(secret, 'encryption.master_key'), (e: Error) => /encryption\.master_key/.test(e.message) && !e.message.includes(secret));
  assert.equal(parseMasterKey(randomBytes(32).toString('base64'), 'x').length, 32);
});

test('two namespaces in ONE WAL object: each chunk sealed under its own data key; shredding A leaves B readable', async () => {
  const { meta, control, ring, a, b } = await setup();
  const store = new MemoryStore();
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 30, keys: ring });
  const [ra, rb] = await Promise.all([
    w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: [rec('a1', 'MARKER-A-1'), rec('a2', 'MARKER-A-2')] }]),
    w.append([{ ns: b.ns, stream: b.streamId, partition: 0, records: [rec('b1', 'MARKER-B-1')] }]),
  ]);
  assert.equal(ra.object, rb.object, 'both namespaces share one WAL object');
  const raw = (await store.get(ra.object)).bytes;
  assert.equal(raw.indexOf('MARKER'), -1, 'no plaintext in the WAL object');
  const parsed = readObject(raw, ra.object);
  assert.equal(parsed.chunks.length, 2);
  for (const c of parsed.chunks) assert.ok(c.keyMeta.length > 0, 'each chunk carries its wrapped data key');
  assert.notDeepEqual(parsed.chunks[0]!.keyMeta, parsed.chunks[1]!.keyMeta);
  assert.equal((await control.namespaceKeys(a.ns))[0]!.version, 1, 'the namespace records its key version');

  const reader = new LogReader(meta, store, undefined, ring);
  assert.deepEqual((await reader.read(a.ns, a.streamId, 0, 0, 2)).map((r) => r.key), ['a1', 'a2']);
  assert.deepEqual((await reader.read(b.ns, b.streamId, 0, 0, 1)).map((r) => JSON.parse(r.body.toString()).v), ['MARKER-B-1']);

  const cached = ring.cachedKeks(a.ns);
  assert.equal(cached.length, 1);
  await ring.destroy(a.ns);
  assert.ok(cached[0]!.every((x) => x === 0), 'the cached KEK was zeroized');

  // Through the reader: a typed error, not garbage (the decoded-chunk cache was dropped too).
  await assert.rejects(reader.read(a.ns, a.streamId, 0, 0, 2), (e) => isDataError(e, 'KeyDestroyed'));
  // A fresh node (no cache at all) cannot read A either, and reads B.
  const ring2 = new KeyRing({ control, provider: new LocalKeyProvider(randomBytes(32)), encryptNewNamespaces: true });
  const reader2 = new LogReader(meta, store, undefined, ring2);
  await assert.rejects(reader2.read(a.ns, a.streamId, 0, 0, 2), (e) => isDataError(e, 'KeyDestroyed'));
  // New writes to a shredded namespace are refused; B's writes in the same flush go through.
  const [wa, wb] = await Promise.allSettled([
    w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: [rec('a3', 'x')] }]),
    w.append([{ ns: b.ns, stream: b.streamId, partition: 0, records: [rec('b2', 'MARKER-B-2')] }]),
  ]);
  assert.equal(wa.status, 'rejected');
  assert.ok(isDataError((wa as PromiseRejectedResult).reason, 'KeyDestroyed'));
  assert.equal(wb.status, 'fulfilled');
  assert.deepEqual((await reader.read(b.ns, b.streamId, 0, 0, 2)).map((r) => r.key), ['b1', 'b2']);
  await w.close();
  ring.close();
  ring2.close();
});

test('objects under ns/<id>/ are sealed in frames: whole and range reads work; a shredded namespace fails to decrypt, its neighbour does not', async () => {
  const { ring, a, b } = await setup();
  const inner = new MemoryStore();
  const store = new EncryptingStore(inner, ring);
  const big = Buffer.alloc(FRAME_BYTES * 3 + 1234);
  for (let i = 0; i < big.length; i++) big[i] = (i * 7) & 0xff;
  big.write('MARKER-A-DATA', FRAME_BYTES - 5); // straddles a frame boundary
  const pa = `ns/${a.ns}/c/${a.id}/data/x.ldf`;
  const pb = `ns/${b.ns}/c/${b.id}/data/y.ldf`;
  await store.put(pa, big);
  await store.put(pb, Buffer.from('MARKER-B-DATA'));
  await store.put('wal/plain-elsewhere', Buffer.from('MARKER-untouched'));
  assert.equal((await inner.get(pa)).bytes.indexOf('MARKER'), -1);
  assert.equal((await inner.get(pb)).bytes.indexOf('MARKER'), -1);
  assert.equal((await inner.get('wal/plain-elsewhere')).bytes.toString(), 'MARKER-untouched', 'paths outside ns/ pass through');
  assert.deepEqual((await store.get(pa)).bytes, big);
  assert.equal((await store.head(pa)).size, big.length);
  for (const [s, e] of [[0, 10], [FRAME_BYTES - 5, FRAME_BYTES + 8], [FRAME_BYTES * 2 + 17, FRAME_BYTES * 3 + 1000], [big.length - 3, big.length + 50]] as const) {
    const got = await store.get(pa, { range: { start: s, end: e } });
    assert.deepEqual(got.bytes, big.subarray(s, Math.min(e, big.length)), `range ${s}..${e}`);
    assert.equal(got.size, big.length);
  }
  assert.deepEqual((await store.get(pa, { range: { suffix: 24 } })).bytes, big.subarray(big.length - 24));
  await assert.rejects(store.get(pa, { range: { start: big.length } }), (e: { code?: string }) => e.code === 'InvalidRange');
  // Plaintext objects written before encryption stay readable.
  await inner.put(`ns/${a.ns}/c/${a.id}/data/old.ldf`, Buffer.from('legacy bytes'));
  assert.equal((await store.get(`ns/${a.ns}/c/${a.id}/data/old.ldf`)).bytes.toString(), 'legacy bytes');
  assert.equal((await store.get(`ns/${a.ns}/c/${a.id}/data/old.ldf`, { range: { start: 7, end: 12 } })).bytes.toString(), 'bytes');

  // A sealed object moved to another path does not open (the AAD binds the path).
  await inner.put(`ns/${a.ns}/c/${a.id}/data/moved.ldf`, (await inner.get(pa)).bytes);
  await assert.rejects(store.get(`ns/${a.ns}/c/${a.id}/data/moved.ldf`), DecryptFailed);

  await ring.destroy(a.ns);
  await assert.rejects(store.get(pa), KeyDestroyedError);
  await assert.rejects(store.get(pa, { range: { start: 0, end: 10 } }), KeyDestroyedError);
  assert.equal((await store.get(pb)).bytes.toString(), 'MARKER-B-DATA');
  ring.close();
});

test('a streamed object is sealed as it comes, a frame at a time: every size reads back whole and by range; a truncated or extended one fails to open', async () => {
  const { ring, a } = await setup();
  /** Counts what the inner store has taken of a putStream so far. */
  let received = 0;
  class Watching extends MemoryStore {
    override putStream(path: string, source: AsyncIterable<Uint8Array>, cond?: Parameters<MemoryStore['putStream']>[2]) {
      async function* counted() {
        for await (const c of source) {
          received += c.byteLength;
          yield c;
        }
      }
      return super.putStream(path, counted(), cond);
    }
  }
  const inner = new Watching();
  const store = new EncryptingStore(inner, ring);
  const pattern = (n: number) => {
    const b = Buffer.alloc(n);
    for (let i = 0; i < n; i++) b[i] = (i * 31 + 7) & 0xff;
    return b;
  };
  async function* chunked(b: Buffer, size: number) {
    for (let o = 0; o < b.length; o += size) yield b.subarray(o, o + size);
  }
  const sizes = [0, 1, FRAME_BYTES - 1, FRAME_BYTES, FRAME_BYTES + 1, 3 * FRAME_BYTES, 3 * FRAME_BYTES + 1234];
  for (const [k, n] of sizes.entries()) {
    const want = pattern(n);
    const path = `ns/${a.ns}/c/${a.id}/data/s${k}.ldf`;
    await store.putStream(path, chunked(want, [1000, 100_000, 4096][k % 3]!));
    assert.ok(EncryptingStore.isSealed((await inner.get(path)).bytes), `${n} bytes: sealed`);
    // Read through this store and through a fresh one (a node with no cached header: the cold range path).
    for (const s of [store, new EncryptingStore(inner, ring)]) {
      assert.deepEqual((await s.get(path)).bytes, want, `${n} bytes: whole`);
      assert.equal((await s.head(path)).size, n);
      if (n === 0) continue;
      for (const [x, y] of [[0, 1], [Math.max(0, n - 5), n], [Math.floor(n / 2), Math.min(n, Math.floor(n / 2) + FRAME_BYTES + 3)]] as const) {
        const got = await s.get(path, { range: { start: x, end: y } });
        assert.deepEqual(got.bytes, want.subarray(x, y), `${n} bytes: range ${x}..${y}`);
        assert.equal(got.size, n);
      }
    }
  }
  // Sealed as it comes: the inner store has the header and the first frame before the source ends.
  received = 0;
  let seenMidway = -1;
  async function* watched() {
    for (let i = 0; i < 4; i++) {
      if (i === 2) seenMidway = received;
      yield pattern(FRAME_BYTES);
    }
  }
  await store.putStream(`ns/${a.ns}/c/${a.id}/data/w.ldf`, watched());
  assert.ok(seenMidway >= FRAME_BYTES, `the inner store had taken ${seenMidway} bytes when half the source was read`);
  // Frames cannot be dropped off the end, cut, or added: the last frame is sealed as the last.
  const path = `ns/${a.ns}/c/${a.id}/data/s6.ldf`;
  const sealed = (await inner.get(path)).bytes;
  const frame = FRAME_BYTES + 16;
  const tail = 1234 + 16; // the last (partial) frame of s6
  const cuts = [sealed.subarray(0, sealed.length - tail), sealed.subarray(0, sealed.length - tail - frame), sealed.subarray(0, sealed.length - 7), Buffer.concat([sealed, sealed.subarray(sealed.length - tail - frame, sealed.length - tail)])];
  for (const bad of cuts) {
    await inner.put(path, bad);
    await assert.rejects(new EncryptingStore(inner, ring).get(path), DecryptFailed, `${bad.length} of ${sealed.length} bytes`);
  }
  ring.close();
});

test("an opened key or payload owns its memory: a cached 32-byte key keeps no 8 KiB pool slab alive", async () => {
  // open() answered small plaintexts as views into Node's shared 8 KiB buffer pool, so each
  // KEK or data key a cache held (up to MAX_CACHED_NAMESPACE_KEYS, MAX_CACHED_OBJECT_KEYS)
  // kept a whole slab alive: 3,668 slabs (30 MB) on a node that had touched 15,000 namespaces.
  const key = randomBytes(32);
  const iv = randomBytes(12);
  const aad = aadOf('kek', 7, '', 1);
  for (const size of [32, 100, 3_000]) {
    const opened = open(key, iv, aad, seal(key, iv, aad, randomBytes(size)), 'test');
    assert.equal(opened.length, size);
    assert.equal(opened.buffer.byteLength, size, `a ${size}-byte plaintext is held in ${opened.buffer.byteLength} bytes`);
  }
  const ring = new KeyRing({ control: await (async () => {
    const c = openEmbeddedControl(':memory:');
    await c.init();
    return c;
  })(), provider: new LocalKeyProvider(randomBytes(32)), encryptNewNamespaces: true });
  const w = await ring.writeKey(42);
  assert.ok(w);
  assert.equal(w.kek.buffer.byteLength, w.kek.length, 'the KEK the ring caches holds only itself');
});

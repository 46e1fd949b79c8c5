// Consistency tokens (spec §3.5): {(stream, partition, offset)} with the same meaning on every
// backend. The codec is shared; the store-backed cases check that a token built from a
// commitWal's offsets is covered by the heads every later read sees.
import assert from 'node:assert/strict';
import { crc32 } from 'node:zlib';
import { after, describe, test } from 'node:test';
import {
  MAX_LEGACY_TOKEN_LENGTH,
  MAX_TOKEN_LENGTH,
  TOKEN_MAGIC,
  TOKEN_VERSION,
  TOKEN_VERSION_COMPACT,
  decodeToken,
  encodeToken,
  mergeTokens,
  type ConsistencyToken,
} from '../../src/meta/index.js';
import { factory, multiItem, needs, rejectsInvalid, wal, world } from './helpers.js';

/** Wire bytes with a valid checksum, for crafting foreign, versioned or malformed tokens. */
function craft(body: number[]): string {
  const b = Buffer.from(body);
  const out = Buffer.alloc(b.length + 4);
  b.copy(out);
  out.writeUInt32BE(crc32(b), b.length);
  return out.toString('base64url');
}

function rejectsToken(s: string): Promise<void> {
  return rejectsInvalid(async () => decodeToken(s), 'token');
}

describe('consistency tokens', () => {
  after(() => factory.cleanup());

  test('encode then decode round-trips, sorted and unique per partition', () => {
    const t: ConsistencyToken = {
      entries: [
        { ns: 2, stream: 1, partition: 0, offset: 5 },
        { ns: 1, stream: 9, partition: 3, offset: 2 ** 40 },
        { ns: 1, stream: 9, partition: 1, offset: 0 },
      ],
    };
    const s = encodeToken(t);
    assert.match(s, /^[A-Za-z0-9_-]+$/, 'URL-safe');
    assert.deepEqual(decodeToken(s).entries, [
      { ns: 1, stream: 9, partition: 1, offset: 0 },
      { ns: 1, stream: 9, partition: 3, offset: 2 ** 40 },
      { ns: 2, stream: 1, partition: 0, offset: 5 },
    ]);
    assert.equal(encodeToken(decodeToken(s)), s, 'a decoded token re-encodes to the same string');
    assert.deepEqual(decodeToken(encodeToken({ entries: [] })).entries, []);
  });

  test('mergeTokens keeps the highest offset per partition', () => {
    const a: ConsistencyToken = { entries: [{ ns: 1, stream: 1, partition: 0, offset: 10 }, { ns: 1, stream: 1, partition: 1, offset: 3 }] };
    const b: ConsistencyToken = { entries: [{ ns: 1, stream: 1, partition: 0, offset: 7 }, { ns: 1, stream: 2, partition: 0, offset: 4 }] };
    const c: ConsistencyToken = { entries: [{ ns: 1, stream: 1, partition: 1, offset: 9 }] };
    assert.deepEqual(mergeTokens(a, b, c).entries, [
      { ns: 1, stream: 1, partition: 0, offset: 10 },
      { ns: 1, stream: 1, partition: 1, offset: 9 },
      { ns: 1, stream: 2, partition: 0, offset: 4 },
    ]);
    assert.deepEqual(mergeTokens(b, a).entries, mergeTokens(a, b).entries, 'order does not matter');
    assert.deepEqual(decodeToken(encodeToken(mergeTokens(a, c))), mergeTokens(c, a));
  });

  test('a token whose exact form is over MAX_TOKEN_LENGTH is compact: the highest entry and the high-water sum per stream', () => {
    const wide: ConsistencyToken = {
      entries: [
        ...Array.from({ length: 10_000 }, (_, p) => ({ ns: 1, stream: 2, partition: p, offset: p + 1 })),
        { ns: 3, stream: 4, partition: 0, offset: 9 },
      ],
    };
    const s = encodeToken(wide);
    assert.ok(s.length <= MAX_TOKEN_LENGTH, `${s.length} characters`);
    assert.equal(Buffer.from(s, 'base64url')[1], TOKEN_VERSION_COMPACT);
    const t = decodeToken(s);
    assert.deepEqual(t.entries, [
      { ns: 1, stream: 2, partition: 9_999, offset: 10_000 },
      { ns: 3, stream: 4, partition: 0, offset: 9 },
    ]);
    assert.deepEqual(t.streams, [
      { ns: 1, stream: 2, partitions: 10_000, sum: 50_005_000 },
      { ns: 3, stream: 4, partitions: 1, sum: 9 },
    ]);
    assert.equal(encodeToken(t), s, 'a decoded compact token re-encodes to the same string');
    // Merged with an exact token, the higher requirement of each wins.
    const m = decodeToken(encodeToken(mergeTokens(t, { entries: [{ ns: 1, stream: 2, partition: 5, offset: 3 }] })));
    assert.deepEqual(m.streams?.[0], { ns: 1, stream: 2, partitions: 10_000, sum: 50_005_000 });
    assert.deepEqual(m.entries[0], { ns: 1, stream: 2, partition: 9_999, offset: 10_000 });
    // Small tokens stay exact.
    assert.equal(Buffer.from(encodeToken({ entries: [{ ns: 1, stream: 1, partition: 0, offset: 1 }] }), 'base64url')[1], TOKEN_VERSION);
  });

  test("a token from commitWal's offsets is covered by the heads of every later read", { skip: needs(multiItem, "transactions 'multi-item' (commitWal)") }, async () => {
    const { store, ns, coll } = await world(3);
    const r1 = await store.commitWal(
      wal([
        { ns: ns.id, stream: coll.streamId, partition: 0, records: 4 },
        { ns: ns.id, stream: coll.streamId, partition: 2, records: 1 },
      ]),
    );
    const r2 = await store.commitWal(wal([{ ns: ns.id, stream: coll.streamId, partition: 0, records: 2 }]));
    const tok = (r: typeof r1): ConsistencyToken => ({
      entries: r.assigned.map((a) => ({ ns: a.ns, stream: a.stream, partition: a.partition, offset: a.end })),
    });
    const s = encodeToken(mergeTokens(tok(r1), tok(r2)));
    const t = decodeToken(s);
    assert.deepEqual(t.entries, [
      { ns: ns.id, stream: coll.streamId, partition: 0, offset: 6 },
      { ns: ns.id, stream: coll.streamId, partition: 2, offset: 1 },
    ]);
    const st = await store.streamState(ns.id, coll.streamId);
    const head = await store.collectionHead(ns.id, coll.id);
    for (const e of t.entries) {
      assert.ok(st.heads[e.partition]!.next >= e.offset, `streamState head of ${e.partition} covers the token`);
      assert.ok(head.heads[e.partition]!.next >= e.offset, `collectionHead head of ${e.partition} covers the token`);
      const idx = await store.partitionIndex(ns.id, coll.streamId, e.partition);
      assert.ok(idx.next >= e.offset);
      assert.equal(idx.entries[idx.entries.length - 1]!.end, idx.next, 'every offset below the token is indexed');
    }
  });

  test('malformed tokens are InvalidArgument naming `token`: empty, not base64url, too long', async () => {
    await rejectsToken('');
    await rejectsToken('not a token!');
    await rejectsToken('abc+/=');
    await rejectsToken('A'.repeat(MAX_LEGACY_TOKEN_LENGTH + 1));
  });

  test('a foreign token (wrong magic) is InvalidArgument naming `token`', async () => {
    await rejectsToken(Buffer.from('{"stream":1,"offset":5}').toString('base64url'));
    await rejectsToken(craft([0x00, TOKEN_VERSION, 0]));
    await rejectsToken(Buffer.from('eyJhbGciOiJIUzI1NiJ9').toString('base64url'));
  });

  test('a damaged token (any changed character) is InvalidArgument naming `token`', async () => {
    const s = encodeToken({ entries: [{ ns: 3, stream: 4, partition: 5, offset: 123456 }] });
    // Every character but the last changes whole bits of the wire bytes (the last may carry
    // only padding bits, so a change there may decode to the same token; it must not decode to another).
    for (let i = 0; i < s.length; i++) {
      const damaged = s.slice(0, i) + (s[i] === 'A' ? 'B' : 'A') + s.slice(i + 1);
      if (i < s.length - 1) {
        await rejectsToken(damaged);
        continue;
      }
      let decoded: ConsistencyToken | null = null;
      try {
        decoded = decodeToken(damaged);
      } catch {
        continue;
      }
      assert.deepEqual(decoded, decodeToken(s), 'damage in the last character changed the token unnoticed');
    }
    await rejectsToken(s.slice(0, -2));
  });

  test('a token of another format version is InvalidArgument naming `token`', async () => {
    await rejectsToken(craft([TOKEN_MAGIC, TOKEN_VERSION + 1, 1, 1, 1, 0, 5]));
    await rejectsToken(craft([TOKEN_MAGIC, 0, 0]));
  });

  test('a token whose checksum holds but whose body is truncated or has trailing bytes is InvalidArgument', async () => {
    await rejectsToken(craft([TOKEN_MAGIC, TOKEN_VERSION, 2, 1, 1, 0, 5]));
    await rejectsToken(craft([TOKEN_MAGIC, TOKEN_VERSION, 1, 1, 1, 0, 5, 9]));
    assert.deepEqual(decodeToken(craft([TOKEN_MAGIC, TOKEN_VERSION, 1, 1, 1, 0, 5])).entries, [
      { ns: 1, stream: 1, partition: 0, offset: 5 },
    ]);
  });
});

// The commitWal stream's hand-sized codec (src/meta/backends/remote/wal-wire.ts) writes the
// bytes proto-loader writes and reads the objects proto-loader reads — key order included,
// since the server's idempotency fingerprint is the JSON of a decoded call — for every shape,
// including the ones it hands to proto-loader (ErrorDetails, int64s past 2^53, negative
// numbers, lone surrogates, unknown fields, truncated input).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { remoteProto } from '../../src/meta/backends/remote/proto.js';
import { walStreamDefinition } from '../../src/meta/backends/remote/wal-wire.js';
import { metaErrorToDetail } from '../../src/meta/backends/remote/wire-errors.js';
import { MetaError } from '../../src/meta/index.js';

const plain = remoteProto().loam.remote.v1.MetaStore.service.CommitWalStream;
const fast = walStreamDefinition(plain);
const ROUNDS = 100;

/** A seeded PRNG (mulberry32): the same cases every run. */
function rng(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const STRINGS = ['', 'wal/1', 'é/ü/日本', '😀 emoji', 'a'.repeat(300), 'lone \ud800 surrogate'];

function gen(r: () => number) {
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const maybe = <T>(v: () => T): T | undefined => (r() < 0.15 ? undefined : v());
  const int = () => pick([0, 1, 127, 128, 16_383, 16_384, 2 ** 31, 2 ** 32 - 1, 2 ** 32, Date.now(), Number.MAX_SAFE_INTEGER, Math.floor(r() * 1e9)]);
  const u32 = () => pick([0, 1, 3, 127, 128, 65_535, 2 ** 32 - 1, Math.floor(r() * 1e6)]);
  const rare = () => (r() < 0.03 ? pick([-1, -(2 ** 40), 2 ** 60]) : int());
  return { pick, maybe, int, u32, rare, str: () => (r() < 0.05 ? STRINGS[5]! : pick(STRINGS.slice(0, 5))) };
}

function request(r: () => number) {
  const g = gen(r);
  const chunk = () => ({ ns: g.maybe(g.rare), stream: g.maybe(g.int), partition: g.maybe(g.u32), records: g.maybe(g.int), byteStart: g.maybe(g.int), byteEnd: g.maybe(g.int) });
  const call = () => ({
    call: g.maybe(() => ({
      commit: g.maybe(() => ({ object: g.maybe(g.str), objectStamp: g.maybe(g.int), chunks: Array.from({ length: Math.floor(r() * 5) }, chunk) })),
      w: g.maybe(() => ({ stamp: g.maybe(g.int), requestId: g.maybe(g.str) })),
    })),
    timeoutMs: g.maybe(g.u32),
  });
  return { batchId: g.maybe(g.int), calls: Array.from({ length: Math.floor(r() * 9) }, call) };
}

function result(r: () => number) {
  const g = gen(r);
  const range = () => ({ ns: g.maybe(g.rare), stream: g.maybe(g.int), partition: g.maybe(g.u32), start: g.maybe(g.int), end: g.maybe(g.int), group: g.maybe(g.u32) });
  const err = () => metaErrorToDetail(new MetaError('VersionMismatch', 'stale', { currentVersion: null }));
  const outcome = () =>
    r() < 0.05 ? { error: err() } : { result: g.maybe(() => ({ object: g.maybe(g.str), assigned: Array.from({ length: Math.floor(r() * 5) }, range), groups: g.maybe(g.u32) })) };
  return { batchId: g.maybe(g.int), outcomes: Array.from({ length: Math.floor(r() * 9) }, outcome), ...(r() < 0.03 ? { error: err() } : {}) };
}

/** Equal as values and as JSON (key order: the fingerprint's); `what` names the case only when it fails. */
function same(a: unknown, b: unknown, what: () => string) {
  if (JSON.stringify(a) === JSON.stringify(b)) {
    assert.deepStrictEqual(a, b);
    return;
  }
  assert.deepStrictEqual(a, b, what());
  assert.fail(`${what()}: key order`);
}

/** The outcome of a decode: the value, or that it threw. */
function outcome(f: () => unknown): unknown {
  try {
    return { ok: f() };
  } catch {
    return { threw: true };
  }
}

describe('remote: the commitWal stream codec', () => {
  test('a request: the same bytes as proto-loader, read back as proto-loader reads them', () => {
    const r = rng(16);
    for (let i = 0; i < ROUNDS; i++) {
      const m = request(r);
      const want = plain.requestSerialize(m);
      const got = fast.requestSerialize(m);
      if (!want.equals(got)) assert.fail(`bytes of ${JSON.stringify(m)}`);
      same(fast.requestDeserialize(want), plain.requestDeserialize(want), () => `decoded ${JSON.stringify(m)}`);
    }
  });

  test('a result: the same bytes as proto-loader, read back as proto-loader reads them (error details too)', () => {
    const r = rng(61);
    for (let i = 0; i < ROUNDS; i++) {
      const m = result(r);
      const want = plain.responseSerialize(m);
      if (!want.equals(fast.responseSerialize(m))) assert.fail(`bytes of ${JSON.stringify(m)}`);
      same(fast.responseDeserialize(want), plain.responseDeserialize(want), () => `decoded ${JSON.stringify(m)}`);
    }
  });

  test('unknown fields, truncated and corrupted input: read exactly as proto-loader reads them, or refused as it refuses them', () => {
    const r = rng(7);
    // Unknown fields of each wire type after a valid message: field 15 varint, 14 fixed64, 13 bytes, 12 fixed32.
    const unknown = Buffer.from([0x78, 0x96, 0x01, 0x71, 1, 2, 3, 4, 5, 6, 7, 8, 0x6a, 2, 0x41, 0x42, 0x65, 9, 9, 9, 9]);
    for (let i = 0; i < ROUNDS; i++) {
      const req = plain.requestSerialize(request(r));
      const res = plain.responseSerialize(result(r));
      for (const [buf, dec] of [
        [Buffer.concat([req, unknown]), 'request'],
        [Buffer.concat([res, unknown]), 'result'],
        [req.subarray(0, Math.floor(r() * req.length)), 'request'],
        [res.subarray(0, Math.floor(r() * res.length)), 'result'],
        [Buffer.from(req.map((b) => (r() < 0.02 ? Math.floor(r() * 256) : b))), 'request'],
        [Buffer.from(res.map((b) => (r() < 0.02 ? Math.floor(r() * 256) : b))), 'result'],
      ] as const) {
        const [f, p] = dec === 'request' ? [fast.requestDeserialize, plain.requestDeserialize] : [fast.responseDeserialize, plain.responseDeserialize];
        const a = outcome(() => f(buf));
        const b = outcome(() => p(buf));
        same(a, b, () => `${dec} ${buf.toString('hex')}`);
      }
    }
  });
});

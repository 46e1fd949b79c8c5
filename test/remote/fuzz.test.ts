// Hostile input over the wire (spec §8, "Bad input"): every RPC of both services is
// called with seeded random requests — ids, offsets and stamps at the int64 extremes, strings
// empty, huge, with NULs and lone surrogates, enums out of range, repeated fields long and
// short — and with the bytes of such requests mutated. The server must answer every one with a
// typed status (never an "internal error", its defect path), stay up, and keep its store whole.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { PROTO_PATH } from '../../src/meta/backends/remote/proto.js';
import { served, type Served } from './helpers.js';
import { mulberry32 } from '../../src/check/prng.js';

const root = protobuf.loadSync(PROTO_PATH);
/** Requests per RPC: encoded from random values, and the same bytes mutated. */
const PER_METHOD = Number(process.env.LOAM_FUZZ_PER_METHOD ?? 24);
const SEED = Number(process.env.LOAM_FUZZ_SEED ?? 1);
/** Nesting generated at most. */
const MAX_DEPTH = 4;

const INT64S = ['0', '1', '2', '3', '-1', '2147483647', '4294967296', '9007199254740991', '9007199254740993', '9223372036854775807', '-9223372036854775808', '1796000000000'];
const UINT64S = ['0', '1', '2', '4294967295', '9007199254740993', '18446744073709551615'];
const INT32S = [0, 1, 2, 3, -1, 7, 255, 65_536, 2_147_483_647, -2_147_483_648];
const STRINGS = ['', 'a', 'default', 'n', 'c', 'wal/1', 'roots/a', '..', '../../etc/passwd', 'x'.repeat(5_000), 'a\u0000b', '\ud800', 'é\u202e', '{"a":1}', '__proto__', 'loam_agent_x_y'];

function valueFor(f: protobuf.Field, rnd: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  f.resolve();
  if (f.resolvedType instanceof protobuf.Enum) {
    const ids = Object.values(f.resolvedType.values);
    return rnd() < 0.8 ? pick(ids) : pick([99, -5, 1_000_000]);
  }
  if (f.resolvedType instanceof protobuf.Type) return depth >= MAX_DEPTH ? {} : messageFor(f.resolvedType, rnd, depth + 1);
  switch (f.type) {
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return pick(INT64S);
    case 'uint64':
    case 'fixed64':
      return pick(UINT64S);
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return pick(INT32S);
    case 'uint32':
    case 'fixed32':
      return pick([0, 1, 2, 4, 4_294_967_295]);
    case 'bool':
      return rnd() < 0.5;
    case 'double':
    case 'float':
      return pick([0, 1, -1, 0.5, 1e308, Number.NaN, Infinity]);
    case 'bytes':
      return Buffer.from(pick(STRINGS));
    default:
      return pick(STRINGS);
  }
}

function messageFor(t: protobuf.Type, rnd: () => number, depth = 0): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  for (const f of t.fieldsArray) {
    if (rnd() < 0.25) continue; // absent
    if (f.repeated) {
      const n = rnd() < 0.1 ? 300 : Math.floor(rnd() * 4);
      o[f.name] = Array.from({ length: depth >= MAX_DEPTH ? 0 : n }, () => valueFor(f, rnd, depth));
    } else if (f.map) {
      o[f.name] = {};
    } else {
      o[f.name] = valueFor(f, rnd, depth);
    }
  }
  // One of each oneof at most: protobufjs writes every set member otherwise.
  for (const one of t.oneofsArray) {
    const set = one.fieldsArray.filter((f) => o[f.name] !== undefined);
    for (const f of set.slice(1)) delete o[f.name];
  }
  return o;
}

function mutate(b: Uint8Array, rnd: () => number): Buffer {
  const out = Buffer.from(b);
  if (out.length === 0) return Buffer.from([Math.floor(rnd() * 256)]);
  const flips = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < flips; i++) out[Math.floor(rnd() * out.length)] = Math.floor(rnd() * 256);
  return rnd() < 0.3 ? out.subarray(0, Math.floor(rnd() * out.length)) : out;
}

const id = (b: Buffer) => b;

describe('remote: fuzzed requests', () => {
  let s: Served;
  after(() => s?.close());

  test(`every RPC (unary and streaming) answers ${PER_METHOD} random and mutated requests each with a typed status, and the server stays whole (seed ${SEED})`, async () => {
    s = await served();
    // Something for fuzzed small ids to find.
    const c = await s.client();
    const ns = await c.createNamespace({ org: 'default', name: 'n' });
    await c.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
    const raw = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 64 * 1024 * 1024 });
    const call = (path: string, body: Buffer) =>
      new Promise<grpc.ServiceError | null>((resolve) => raw.makeUnaryRequest(path, id, id, body, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (e) => resolve(e)));
    /** A stream's status: its first event is enough (then it is cancelled), or its refusal. */
    const ended = (st: grpc.ClientReadableStream<Buffer> | grpc.ClientDuplexStream<Buffer, Buffer>, answered: () => boolean) =>
      new Promise<grpc.ServiceError | null>((resolve) => {
        st.on('data', () => {
          if (answered()) st.cancel();
        });
        st.on('error', (err: grpc.ServiceError) => resolve(err.code === grpc.status.CANCELLED ? null : err));
        st.on('status', (s) => {
          if (s.code === grpc.status.OK) resolve(null);
        });
      });
    const serverStream = (path: string, body: Buffer) => ended(raw.makeServerStreamRequest(path, id, id, body, new grpc.Metadata(), { deadline: Date.now() + 10_000 }), () => true);
    const bidi = (path: string, body: Buffer) => {
      const st = raw.makeBidiStreamRequest(path, id, id, new grpc.Metadata(), { deadline: Date.now() + 10_000 });
      const done = ended(st, () => true);
      st.write(body);
      st.end();
      return done;
    };
    const rnd = mulberry32(SEED);
    const defects: string[] = [];
    let calls = 0;
    for (const svcName of ['MetaStore', 'ControlStore']) {
      const svc = root.lookupService(`loam.remote.v1.${svcName}`);
      for (const m of svc.methodsArray) {
        m.resolve();
        const reqType = m.resolvedRequestType!;
        for (let i = 0; i < PER_METHOD; i++) {
          const obj = messageFor(reqType, rnd);
          let bytes: Uint8Array;
          try {
            bytes = reqType.encode(reqType.fromObject(obj)).finish();
          } catch {
            continue; // a value protobufjs itself cannot write
          }
          const body = i % 2 === 0 ? Buffer.from(bytes) : mutate(bytes, rnd);
          const path = `/loam.remote.v1.${svcName}/${m.name}`;
          const e = m.requestStream ? await bidi(path, body) : m.responseStream ? await serverStream(path, body) : await call(path, body);
          calls++;
          if (e && (e.code === grpc.status.INTERNAL || /internal error/i.test(e.details))) {
            defects.push(`${svcName}/${m.name} #${i} ${grpc.status[e.code]}: ${e.details.slice(0, 300)} — request ${JSON.stringify(obj).slice(0, 300)}`);
          }
        }
      }
    }
    raw.close();
    assert.deepEqual(defects, [], `${defects.length} of ${calls} fuzzed calls hit the server's defect path`);
    // Still serving, and its store whole.
    assert.equal((await c.namespaceByName('default', 'n'))?.id, ns.id);
    assert.equal(s.inner.db.pragma('integrity_check', { simple: true }), 'ok');
  });

  test('an undecodable request is refused INVALID_ARGUMENT naming its method, on a unary call and on the commitWal stream; nothing is applied', async () => {
    const raw = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure());
    const v = await s.inner.catalogVersion();
    // Field 15 (no request has it) with wire type 7, which protobuf does not have: a decoder cannot skip it.
    const garbage = Buffer.from([0x7f, 0x00]);
    const e = await new Promise<grpc.ServiceError | null>((resolve) =>
      raw.makeUnaryRequest('/loam.remote.v1.MetaStore/CreateNamespace', id, id, garbage, new grpc.Metadata(), { deadline: Date.now() + 10_000 }, (err) => resolve(err)),
    );
    assert.equal(e?.code, grpc.status.INVALID_ARGUMENT, e?.message);
    assert.match(e!.details, /not a valid message for \/loam\.remote\.v1\.MetaStore\/CreateNamespace.*nothing was applied/);
    const stream = raw.makeBidiStreamRequest('/loam.remote.v1.MetaStore/CommitWalStream', id, id, new grpc.Metadata(), { deadline: Date.now() + 10_000 });
    const status = new Promise<grpc.StatusObject>((resolve) => stream.on('status', resolve));
    stream.on('error', () => undefined);
    stream.on('data', () => undefined);
    stream.write(garbage);
    const st = await status;
    assert.equal(st.code, grpc.status.INVALID_ARGUMENT, st.details);
    assert.match(st.details, /CommitWalStream/);
    assert.equal(await s.inner.catalogVersion(), v, 'nothing applied');
    raw.close();
  });
});

// Wire fuzzing of the remote metastore server (spec §8, "Bad input"): every RPC of both
// services called with seeded random requests — ids, offsets and stamps at the int64
// extremes, strings empty, huge, with NULs and lone surrogates, enums out of range, repeated
// fields long and short — and with the bytes of such requests mutated. A call that ends
// INTERNAL, or whose message is the server's "internal error" (its defect path), is a defect.
// Used by test/remote (the embedded backend) and test/control (every backend).
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { PROTO_PATH } from '../../src/meta/backends/remote/proto.js';
import { mulberry32 } from '../../src/check/prng.js';

const root = protobuf.loadSync(PROTO_PATH);
/** Nesting generated at most. */
const MAX_DEPTH = 4;
/** Each call's deadline. */
const CALL_DEADLINE_MS = 10_000;

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

export function messageFor(t: protobuf.Type, rnd: () => number, depth = 0): Record<string, unknown> {
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

export function mutate(b: Uint8Array, rnd: () => number): Buffer {
  const out = Buffer.from(b);
  if (out.length === 0) return Buffer.from([Math.floor(rnd() * 256)]);
  const flips = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < flips; i++) out[Math.floor(rnd() * out.length)] = Math.floor(rnd() * 256);
  return rnd() < 0.3 ? out.subarray(0, Math.floor(rnd() * out.length)) : out;
}

const id = (b: Buffer) => b;

export interface FuzzReport {
  calls: number;
  /** One line per call that took the defect path: the RPC, its status and the request. */
  defects: string[];
}

/** Calls every RPC of both services on the server at `port`, `perMethod` times each (half of them mutated bytes). */
export async function fuzzServer(port: number, perMethod: number, seed: number): Promise<FuzzReport> {
    const raw = new grpc.Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 64 * 1024 * 1024 });
    const call = (path: string, body: Buffer) =>
      new Promise<grpc.ServiceError | null>((resolve) => raw.makeUnaryRequest(path, id, id, body, new grpc.Metadata(), { deadline: Date.now() + CALL_DEADLINE_MS }, (e) => resolve(e)));
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
    const serverStream = (path: string, body: Buffer) => ended(raw.makeServerStreamRequest(path, id, id, body, new grpc.Metadata(), { deadline: Date.now() + CALL_DEADLINE_MS }), () => true);
    const bidi = (path: string, body: Buffer) => {
      const st = raw.makeBidiStreamRequest(path, id, id, new grpc.Metadata(), { deadline: Date.now() + CALL_DEADLINE_MS });
      const done = ended(st, () => true);
      st.write(body);
      st.end();
      return done;
    };
    const rnd = mulberry32(seed);
    const defects: string[] = [];
    let calls = 0;
    for (const svcName of ['MetaStore', 'ControlStore']) {
      const svc = root.lookupService(`loam.remote.v1.${svcName}`);
      for (const m of svc.methodsArray) {
        m.resolve();
        const reqType = m.resolvedRequestType!;
        for (let i = 0; i < perMethod; i++) {
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
  return { calls, defects };
}

// The commitWal stream's messages (CommitWalStreamRequest, CommitWalStreamResult) written and
// read by hand (docs/remote.md "commitWal on one stream"): the stream carries a node's hottest
// write, and proto-loader's serializers build a protobufjs message from the plain object
// before encoding (fromObject) and convert the decoded message to a plain object after
// decoding (toObject, int64s through Long objects) — a third of a batch's encode and decode.
// These write the same bytes and read the same objects (key order included: the server's
// idempotency fingerprint is the JSON of the decoded call, so a call retried as a unary
// CommitWal, which proto-loader decodes, must read the same), on the common shapes only:
// anything else — an ErrorDetail (enum codes, many optional details), an int64 that is not a
// non-negative safe integer, a string that is not well-formed UTF-16, a field of an
// unexpected wire type — goes through proto-loader's own serializer for the whole message, so
// what crosses the wire is always exactly what the .proto says. test/remote/wal-wire.test.ts
// checks both directions against proto-loader's.
import type { MethodDefinition } from '@grpc/proto-loader';
import { remoteProto } from './proto.js';
import type { BatchedCommitWal } from './gen/loam/remote/v1/BatchedCommitWal.js';
import type { CommitWalStreamRequest, CommitWalStreamRequest__Output } from './gen/loam/remote/v1/CommitWalStreamRequest.js';
import type { CommitWalStreamResult, CommitWalStreamResult__Output } from './gen/loam/remote/v1/CommitWalStreamResult.js';
import type { WalChunk__Output } from './gen/loam/remote/v1/WalChunk.js';
import type { AssignedRange__Output } from './gen/loam/remote/v1/AssignedRange.js';
import type { CommitWalOutcome__Output } from './gen/loam/remote/v1/CommitWalOutcome.js';

type StreamDef = MethodDefinition<CommitWalStreamRequest, CommitWalStreamResult, CommitWalStreamRequest__Output, CommitWalStreamResult__Output>;

/** The shape is not one this codec handles: the whole message goes through proto-loader's serializer. */
class Fallback extends Error {}
const FALLBACK = new Fallback();

/** Largest value written as a uint32 field. */
const UINT32_MAX = 0xffff_ffff;

// ------------------------------------------------------------------ writing

const u = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const varintSize = (n: number): number => {
  let s = 1;
  while (n >= 128) {
    n = Math.floor(n / 128);
    s++;
  }
  return s;
};
/** Any surrogate (a lone one is written differently by protobufjs's UTF-8 writer and Buffer's): the fallback. */
const SURROGATE = /[\ud800-\udfff]/;
const strBytes = (s: unknown): number => {
  if (typeof s !== 'string' || SURROGATE.test(s)) throw FALLBACK;
  return Buffer.byteLength(s, 'utf8');
};
/** A scalar field's bytes (tag + varint) when set, as protobufjs writes it: every present field, zero included. */
const num = (n: unknown, max = Number.MAX_SAFE_INTEGER): number => {
  if (n === undefined || n === null) return 0;
  if (!u(n) || n > max) throw FALLBACK;
  return 1 + varintSize(n);
};
const str = (s: unknown): number => (s === undefined || s === null ? 0 : lenField(strBytes(s)));
const lenField = (bytes: number): number => 1 + varintSize(bytes) + bytes;
/** A sub-message as given: absent, or an object (anything else is the fallback's to refuse). */
const present = (o: unknown): boolean => {
  if (o === undefined || o === null) return false;
  if (typeof o !== 'object') throw FALLBACK;
  return true;
};

class Out {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  varint(n: number): void {
    const b = this.buf;
    while (n >= 128) {
      b[this.pos++] = (n % 128) | 128;
      n = Math.floor(n / 128);
    }
    b[this.pos++] = n;
  }
  num(tag: number, n: number | undefined | null): void {
    if (n === undefined || n === null) return;
    this.buf[this.pos++] = tag;
    this.varint(n);
  }
  str(tag: number, s: string | undefined | null): void {
    if (s === undefined || s === null) return;
    this.buf[this.pos++] = tag;
    this.varint(Buffer.byteLength(s, 'utf8'));
    this.pos += this.buf.write(s, this.pos, 'utf8');
  }
  head(tag: number, bytes: number): void {
    this.buf[this.pos++] = tag;
    this.varint(bytes);
  }
}

// Tags: field number << 3 | wire type (0 varint, 2 length-delimited).
type Chunk = { ns?: unknown; stream?: unknown; partition?: unknown; records?: unknown; byteStart?: unknown; byteEnd?: unknown };
const chunkSize = (c: Chunk) => {
  if (!present(c)) throw FALLBACK;
  return num(c.ns) + num(c.stream) + num(c.partition, UINT32_MAX) + num(c.records) + num(c.byteStart) + num(c.byteEnd);
};

/** Sizes of one BatchedCommitWal and its parts, computed once and used to write it. */
interface CallSizes {
  total: number;
  call: number;
  commit: number;
  chunks: number[];
  w: number;
}

function callSizes(b: BatchedCommitWal): CallSizes {
  if (!present(b)) throw FALLBACK;
  const r = b.call;
  let call = 0;
  let commit = 0;
  let w = 0;
  const chunks: number[] = [];
  if (present(r)) {
    const c = r!.commit;
    if (present(c)) {
      commit = str(c!.object) + num(c!.objectStamp);
      for (const ch of c!.chunks ?? []) {
        const s = chunkSize(ch as Chunk);
        chunks.push(s);
        commit += lenField(s);
      }
      call += lenField(commit);
    }
    const wc = r!.w;
    if (present(wc)) {
      w = num(wc!.stamp) + str(wc!.requestId);
      call += lenField(w);
    }
  }
  const total = (present(r) ? lenField(call) : 0) + num(b.timeoutMs, UINT32_MAX);
  return { total, call, commit, chunks, w };
}

function writeRequest(m: CommitWalStreamRequest): Buffer {
  const calls = m.calls ?? [];
  const sizes = calls.map(callSizes);
  let total = num(m.batchId);
  for (const s of sizes) total += lenField(s.total);
  const o = new Out(Buffer.allocUnsafe(total));
  o.num(0x08, m.batchId as number | undefined);
  calls.forEach((b, i) => {
    const s = sizes[i]!;
    o.head(0x12, s.total);
    const r = b.call;
    if (r !== undefined && r !== null) {
      o.head(0x0a, s.call);
      const c = r.commit;
      if (c !== undefined && c !== null) {
        o.head(0x0a, s.commit);
        o.str(0x0a, c.object);
        o.num(0x10, c.objectStamp as number | undefined);
        (c.chunks ?? []).forEach((ch, k) => {
          o.head(0x1a, s.chunks[k]!);
          o.num(0x08, ch.ns as number | undefined);
          o.num(0x10, ch.stream as number | undefined);
          o.num(0x18, ch.partition);
          o.num(0x20, ch.records as number | undefined);
          o.num(0x28, ch.byteStart as number | undefined);
          o.num(0x30, ch.byteEnd as number | undefined);
        });
      }
      const wc = r.w;
      if (wc !== undefined && wc !== null) {
        o.head(0x12, s.w);
        o.num(0x08, wc.stamp as number | undefined);
        o.str(0x12, wc.requestId);
      }
    }
    o.num(0x10, b.timeoutMs);
  });
  return o.buf;
}

type Range = { ns?: unknown; stream?: unknown; partition?: unknown; start?: unknown; end?: unknown; group?: unknown };
const rangeSize = (a: Range) => {
  if (!present(a)) throw FALLBACK;
  return num(a.ns) + num(a.stream) + num(a.partition, UINT32_MAX) + num(a.start) + num(a.end) + num(a.group, UINT32_MAX);
};

function writeResult(m: CommitWalStreamResult): Buffer {
  // An ErrorDetail anywhere (a refused call, a refused batch): proto-loader's serializer.
  if (m.error !== undefined && m.error !== null) throw FALLBACK;
  const outcomes = m.outcomes ?? [];
  const sizes: { outcome: number; result: number; ranges: number[] }[] = [];
  let total = num(m.batchId);
  for (const oc of outcomes) {
    if ((oc.error !== undefined && oc.error !== null) || oc.outcome === 'error') throw FALLBACK;
    if (!present(oc)) throw FALLBACK;
    const r = oc.result;
    let result = 0;
    const ranges: number[] = [];
    let outcome = 0;
    if (present(r)) {
      result = str(r!.object) + num(r!.groups, UINT32_MAX);
      for (const a of r!.assigned ?? []) {
        const s = rangeSize(a as Range);
        ranges.push(s);
        result += lenField(s);
      }
      outcome = lenField(result);
    }
    sizes.push({ outcome, result, ranges });
    total += lenField(outcome);
  }
  const o = new Out(Buffer.allocUnsafe(total));
  o.num(0x08, m.batchId as number | undefined);
  outcomes.forEach((oc, i) => {
    const s = sizes[i]!;
    o.head(0x12, s.outcome);
    const r = oc.result;
    if (r === undefined || r === null) return;
    o.head(0x0a, s.result);
    o.str(0x0a, r.object);
    (r.assigned ?? []).forEach((a, k) => {
      o.head(0x12, s.ranges[k]!);
      o.num(0x08, a.ns as number | undefined);
      o.num(0x10, a.stream as number | undefined);
      o.num(0x18, a.partition);
      o.num(0x20, a.start as number | undefined);
      o.num(0x28, a.end as number | undefined);
      o.num(0x30, a.group);
    });
    o.num(0x18, r.groups);
  });
  return o.buf;
}

// ------------------------------------------------------------------ reading

class In {
  pos: number;
  constructor(
    readonly buf: Buffer,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
  }
  /** A varint as a non-negative safe integer (anything larger: the fallback, which reads it as Long does). */
  varint(): number {
    const b = this.buf;
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 8; i++) {
      if (this.pos >= this.end) throw FALLBACK;
      const byte = b[this.pos++]!;
      n += (byte & 127) * mul;
      if (byte < 128) return n;
      mul *= 128;
    }
    throw FALLBACK; // 8 × 7 bits = 56 bits and more: past Number.MAX_SAFE_INTEGER's range
  }
  /**
   * A tag, a length or a uint32 field: at most 5 bytes and below 2^32 — protobufjs reads
   * longer ones by its own rules (it truncates them), so those are the fallback's.
   */
  uint32(): number {
    const b = this.buf;
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.end) throw FALLBACK;
      const byte = b[this.pos++]!;
      n += (byte & 127) * mul;
      if (byte < 128) {
        if (n > UINT32_MAX) throw FALLBACK;
        return n;
      }
      mul *= 128;
    }
    throw FALLBACK;
  }
  safe(): number {
    const n = this.varint();
    if (n > Number.MAX_SAFE_INTEGER) throw FALLBACK;
    return n;
  }
  /** A length-delimited field's end. */
  len(): number {
    const n = this.uint32();
    const e = this.pos + n;
    if (e > this.end) throw FALLBACK;
    return e;
  }
  str(): string {
    const e = this.len();
    const s = this.buf.toString('utf8', this.pos, e);
    this.pos = e;
    return s;
  }
  /** Skips a field this codec does not know, of a simple wire type (groups: the fallback). */
  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 2) this.pos = this.len();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw FALLBACK;
    if (this.pos > this.end) throw FALLBACK;
  }
}

/** A field's tag: its number and wire type; a known field of another wire type is the fallback's. */
function tag(r: In): number {
  return r.uint32();
}
const expect = (t: number, wire: number) => {
  if ((t & 7) !== wire) throw FALLBACK;
};

function readChunk(r: In, end: number): WalChunk__Output {
  // proto-loader's key order: every field's default, then what was read.
  const c: WalChunk__Output = { ns: 0, stream: 0, partition: 0, records: 0, byteStart: 0, byteEnd: 0 };
  while (r.pos < end) {
    const t = tag(r);
    const f = t >>> 3;
    if (f >= 1 && f <= 6) expect(t, 0);
    if (f === 1) c.ns = r.safe();
    else if (f === 2) c.stream = r.safe();
    else if (f === 3) c.partition = r.uint32();
    else if (f === 4) c.records = r.safe();
    else if (f === 5) c.byteStart = r.safe();
    else if (f === 6) c.byteEnd = r.safe();
    else r.skip(t & 7);
  }
  if (r.pos !== end) throw FALLBACK;
  return c;
}

function readRequest(buf: Buffer): CommitWalStreamRequest__Output {
  const r = new In(buf, 0, buf.length);
  const m: CommitWalStreamRequest__Output = { calls: [], batchId: 0 };
  while (r.pos < r.end) {
    const t = tag(r);
    const f = t >>> 3;
    if (f === 1) {
      expect(t, 0);
      m.batchId = r.safe();
    } else if (f === 2) {
      expect(t, 2);
      m.calls.push(readBatched(r, r.len()));
    } else r.skip(t & 7);
  }
  return m;
}

function readBatched(r: In, end: number): CommitWalStreamRequest__Output['calls'][number] {
  const b: CommitWalStreamRequest__Output['calls'][number] = { call: null, timeoutMs: 0 };
  while (r.pos < end) {
    const t = tag(r);
    const f = t >>> 3;
    if (f === 1) {
      expect(t, 2);
      const e = r.len();
      const call: NonNullable<typeof b.call> = { commit: null, w: null };
      while (r.pos < e) {
        const t2 = tag(r);
        const f2 = t2 >>> 3;
        if (f2 === 1) {
          expect(t2, 2);
          const ce = r.len();
          const commit: NonNullable<typeof call.commit> = { chunks: [], object: '', objectStamp: 0 };
          while (r.pos < ce) {
            const t3 = tag(r);
            const f3 = t3 >>> 3;
            if (f3 === 1) {
              expect(t3, 2);
              commit.object = r.str();
            } else if (f3 === 2) {
              expect(t3, 0);
              commit.objectStamp = r.safe();
            } else if (f3 === 3) {
              expect(t3, 2);
              commit.chunks.push(readChunk(r, r.len()));
            } else r.skip(t3 & 7);
          }
          if (r.pos !== ce) throw FALLBACK;
          call.commit = commit;
        } else if (f2 === 2) {
          expect(t2, 2);
          const we = r.len();
          // stamp is proto3 `optional`: no default, and the synthetic oneof's name when present.
          const w: NonNullable<typeof call.w> = { requestId: '' };
          while (r.pos < we) {
            const t3 = tag(r);
            const f3 = t3 >>> 3;
            if (f3 === 1) {
              expect(t3, 0);
              w.stamp = r.safe();
            } else if (f3 === 2) {
              expect(t3, 2);
              w.requestId = r.str();
            } else r.skip(t3 & 7);
          }
          if (r.pos !== we) throw FALLBACK;
          if (w.stamp !== undefined) w._stamp = 'stamp';
          call.w = w;
        } else r.skip(t2 & 7);
      }
      if (r.pos !== e) throw FALLBACK;
      b.call = call;
    } else if (f === 2) {
      expect(t, 0);
      b.timeoutMs = r.uint32();
    } else r.skip(t & 7);
  }
  if (r.pos !== end) throw FALLBACK;
  return b;
}

function readRange(r: In, end: number): AssignedRange__Output {
  const a: AssignedRange__Output = { ns: 0, stream: 0, partition: 0, start: 0, end: 0, group: 0 };
  while (r.pos < end) {
    const t = tag(r);
    const f = t >>> 3;
    if (f >= 1 && f <= 6) expect(t, 0);
    if (f === 1) a.ns = r.safe();
    else if (f === 2) a.stream = r.safe();
    else if (f === 3) a.partition = r.uint32();
    else if (f === 4) a.start = r.safe();
    else if (f === 5) a.end = r.safe();
    else if (f === 6) a.group = r.uint32();
    else r.skip(t & 7);
  }
  if (r.pos !== end) throw FALLBACK;
  return a;
}

function readResult(buf: Buffer): CommitWalStreamResult__Output {
  const r = new In(buf, 0, buf.length);
  const m: CommitWalStreamResult__Output = { outcomes: [], batchId: 0, error: null };
  while (r.pos < r.end) {
    const t = tag(r);
    const f = t >>> 3;
    if (f === 1) {
      expect(t, 0);
      m.batchId = r.safe();
    } else if (f === 2) {
      expect(t, 2);
      const e = r.len();
      const oc: CommitWalOutcome__Output = {};
      while (r.pos < e) {
        const t2 = tag(r);
        const f2 = t2 >>> 3;
        if (f2 === 1) {
          expect(t2, 2);
          const re = r.len();
          const res: NonNullable<CommitWalOutcome__Output['result']> = { assigned: [], object: '', groups: 0 };
          while (r.pos < re) {
            const t3 = tag(r);
            const f3 = t3 >>> 3;
            if (f3 === 1) {
              expect(t3, 2);
              res.object = r.str();
            } else if (f3 === 2) {
              expect(t3, 2);
              res.assigned.push(readRange(r, r.len()));
            } else if (f3 === 3) {
              expect(t3, 0);
              res.groups = r.uint32();
            } else r.skip(t3 & 7);
          }
          if (r.pos !== re) throw FALLBACK;
          oc.result = res;
          oc.outcome = 'result';
        } else if (f2 === 2) throw FALLBACK; // an ErrorDetail
        else r.skip(t2 & 7);
      }
      if (r.pos !== e) throw FALLBACK;
      m.outcomes.push(oc);
    } else if (f === 3) throw FALLBACK; // an ErrorDetail
    else r.skip(t & 7);
  }
  return m;
}

/** Each of `fast`, or proto-loader's `slow` for a shape it does not handle (and for what it cannot read). */
const either =
  <A, B>(fast: (a: A) => B, slow: (a: A) => B) =>
  (a: A): B => {
    try {
      return fast(a);
    } catch (e) {
      if (e === FALLBACK) return slow(a);
      throw e;
    }
  };

/** The stream's method definition with the hand-sized serializers, for the client (makeBidiStreamRequest) and the server (addService). */
export function walStreamDefinition(def: StreamDef): StreamDef {
  return {
    ...def,
    requestSerialize: either(writeRequest, def.requestSerialize),
    requestDeserialize: either(readRequest, def.requestDeserialize),
    responseSerialize: either(writeResult, def.responseSerialize),
    responseDeserialize: either(readResult, def.responseDeserialize),
  };
}

let method: StreamDef | undefined;

/** CommitWalStream's definition with the hand-sized serializers (made once per process). */
export function walStreamMethod(): StreamDef {
  method ??= walStreamDefinition(remoteProto().loam.remote.v1.MetaStore.service.CommitWalStream);
  return method;
}

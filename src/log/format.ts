// The WAL object format (DESIGN §1, issue 5 §1). Versioned, binary, self-checking.
//
// A WAL object holds the records of many namespaces: one CHUNK per (ns, stream,
// partition). Each chunk is self-contained, so an index entry's byte range
// [byteStart, byteEnd) decodes alone with one ranged GET. Segments (the segmenter's output)
// use the same format with a single chunk.
//
//   object  := objectHeader chunk*
//   objectHeader (OBJECT_HEADER_BYTES = 24):
//     magic "LOAMWAL" (7) | formatVersion u8 (1) | objectStamp u64 BE | chunkCount u32 BE | reserved u32
//   chunk := chunkHeader payload
//   chunkHeader (CHUNK_FIXED_HEADER_BYTES + keyMetaLen + 4):
//     magic u32 'LCHK' | headerLen u16 (whole header incl. key metadata and header CRC)
//     | chunkVersion u8 (1) | codec u8 | ns u64 | stream u64 | partition u32 | records u32
//     | storedLen u32 (payload bytes as stored) | rawLen u32 (payload bytes before the codec)
//     | payloadCrc u32 (CRC32C of the stored payload)
//     | keyMetaLen u16 | keyMeta bytes — empty for a plaintext chunk; for an encrypted one the
//       wrapped data key, KEK version and IV (src/crypto/chunk.ts, spec §9.8); the payload
//       is then sealed after the codec, and the CRC covers the sealed bytes
//     | headerCrc u32 (CRC32C of every header byte before it)
//   payload (after the codec) := record*
//   record := op u8 (1 upsert, 2 delete) | keyLen uvarint | key UTF-8 | bodyLen uvarint | body UTF-8 (JSON; empty for delete)
//
// Integers are big-endian. A reader refuses an unknown magic, version or codec and any
// CRC mismatch (CorruptObject), so a damaged byte never becomes a silently wrong read.
import { crc32c } from '@node-rs/crc32';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import type { BuildBuffers } from './build-buffers.js';

export const WAL_MAGIC = Buffer.from('LOAMWAL', 'latin1');
export const WAL_FORMAT_VERSION = 1;
export const OBJECT_HEADER_BYTES = 24;
export const CHUNK_MAGIC = 0x4c43484b; // 'LCHK'
export const CHUNK_VERSION = 1;
/** Header bytes before the key metadata (magic .. payloadCrc, then keyMetaLen). */
export const CHUNK_FIXED_HEADER_BYTES = 4 + 2 + 1 + 1 + 8 + 8 + 4 + 4 + 4 + 4 + 4 + 2;
/** Key metadata per chunk (spec §9.8: a wrapped data key, its key id and nonce fit easily). */
export const MAX_KEY_META_BYTES = 1024;
/** A chunk's payload: one partition's records of one flush (flush size is 8 MiB by default). */
export const MAX_CHUNK_PAYLOAD_BYTES = 256 * 1024 * 1024;
/** Records per chunk: bounds every decode loop. */
export const MAX_CHUNK_RECORDS = 10_000_000;

/**
 * zlib's settings wherever Loam compresses (segments here, data-file blocks in
 * src/collection/datafile.ts). Level 1: most of the saving on JSON for a fraction of the CPU.
 * A 16 KiB window and memLevel 7 make a compressor's state about 128 KiB instead of 256 KiB,
 * for the same size on JSON blocks of 64 KiB (measured: within 1 %); any inflater reads them.
 */
export const DEFLATE_OPTIONS = Object.freeze({ level: 1, windowBits: 14, memLevel: 7 });
/** zlib's output pieces for a segment: large ones, so a big payload is not many small buffers joined. */
export const ZLIB_SEGMENT_CHUNK_BYTES = 1024 * 1024;

export const CODEC_NONE = 0;
export const CODEC_GZIP = 1;
export type Codec = typeof CODEC_NONE | typeof CODEC_GZIP;
const CODECS = new Set<number>([CODEC_NONE, CODEC_GZIP]);

export const OP_UPSERT = 1;
export const OP_DELETE = 2;

/** A log record: an upsert carries the document's JSON text; a delete only the key. */
export interface WalRecord {
  op: typeof OP_UPSERT | typeof OP_DELETE;
  /** The primary key in its canonical string form (see src/log/keys.ts). */
  key: string;
  /**
   * UTF-8 JSON text of the document (upsert), empty for a delete. Decoded records hold a
   * view into the chunk's bytes: bodies are moved into data files without being decoded.
   */
  body: Buffer;
}

/** A record to encode: the body may be a string or bytes. */
export interface RecordInput {
  op: typeof OP_UPSERT | typeof OP_DELETE;
  key: string;
  body: string | Uint8Array;
}

export interface ChunkHeader {
  ns: number;
  stream: number;
  partition: number;
  records: number;
  codec: Codec;
  keyMeta: Buffer;
}

export class CorruptObject extends Error {
  constructor(
    readonly path: string,
    why: string,
  ) {
    super(`object ${path} is corrupt or not a Loam WAL object: ${why}`);
    this.name = 'CorruptObject';
  }
}

// ------------------------------------------------------------------ records

/** Bytes of `v` as an unsigned LEB128 varint (the length prefix of WAL records and data-file entries). */
export function uvarintLen(v: number): number {
  let n = 1;
  while (v >= 0x80) {
    v = Math.floor(v / 0x80);
    n++;
  }
  return n;
}

/** Writes `v` as an unsigned LEB128 varint at `pos`; returns the position after it. */
export function putUvarint(b: Buffer, pos: number, v: number): number {
  while (v >= 0x80) {
    b[pos++] = (v & 0x7f) | 0x80;
    v = Math.floor(v / 0x80);
  }
  b[pos++] = v;
  return pos;
}

/** Encodes one record; the writer keeps these buffers and concatenates them per chunk. */
export function encodeRecord(r: RecordInput): Buffer {
  const klen = Buffer.byteLength(r.key);
  const blen = typeof r.body === 'string' ? Buffer.byteLength(r.body) : r.body.byteLength;
  const b = Buffer.allocUnsafe(1 + uvarintLen(klen) + klen + uvarintLen(blen) + blen);
  b[0] = r.op;
  let pos = putUvarint(b, 1, klen);
  pos += b.write(r.key, pos);
  pos = putUvarint(b, pos, blen);
  if (typeof r.body === 'string') pos += b.write(r.body, pos);
  else b.set(r.body, pos);
  return b;
}

const MAX_VARINT_BYTES = 5; // lengths are below 2^32

function getUvarint(b: Buffer, r: { pos: number }, path: string): number {
  let v = 0;
  let mul = 1;
  for (let i = 0; i < MAX_VARINT_BYTES; i++) {
    if (r.pos >= b.length) throw new CorruptObject(path, 'truncated record');
    const x = b[r.pos++]!;
    v += (x & 0x7f) * mul;
    if ((x & 0x80) === 0) return v;
    mul *= 0x80;
  }
  throw new CorruptObject(path, 'malformed length');
}

export function decodeRecords(payload: Buffer, count: number, path: string): WalRecord[] {
  if (count > MAX_CHUNK_RECORDS) throw new CorruptObject(path, `record count ${count} over ${MAX_CHUNK_RECORDS}`);
  const out: WalRecord[] = new Array(count);
  const r = { pos: 0 };
  for (let i = 0; i < count; i++) {
    if (r.pos >= payload.length) throw new CorruptObject(path, `expected ${count} records, found ${i}`);
    const op = payload[r.pos++]!;
    if (op !== OP_UPSERT && op !== OP_DELETE) throw new CorruptObject(path, `unknown record op ${op}`);
    const klen = getUvarint(payload, r, path);
    if (r.pos + klen > payload.length) throw new CorruptObject(path, 'truncated key');
    const key = payload.toString('utf8', r.pos, r.pos + klen);
    r.pos += klen;
    const blen = getUvarint(payload, r, path);
    if (r.pos + blen > payload.length) throw new CorruptObject(path, 'truncated body');
    const body = payload.subarray(r.pos, r.pos + blen);
    r.pos += blen;
    out[i] = { op, key, body };
  }
  if (r.pos !== payload.length) throw new CorruptObject(path, 'trailing bytes after the last record');
  return out;
}

// ------------------------------------------------------------------ chunks

export interface ChunkInput {
  ns: number;
  stream: number;
  partition: number;
  /** Encoded records (encodeRecord), in log order. */
  records: Buffer[];
  codec?: Codec;
  keyMeta?: Buffer;
  /**
   * Envelope encryption of the stored payload (spec §9.8), applied after the codec: returns
   * the key metadata for the chunk header and the sealed payload.
   */
  seal?: (stored: Buffer) => { keyMeta: Buffer; sealed: Buffer };
}

/** Opens an encrypted chunk's stored payload with its key metadata (see ChunkInput.seal). */
export type ChunkOpener = (keyMeta: Buffer, sealed: Buffer) => Buffer;

/** A chunk's payload as stored (after the codec and the seal) and its key metadata. */
interface StoredPayload {
  stored: Buffer;
  keyMeta: Buffer;
  rawLen: number;
}

/** A coded or sealed chunk's payload, built on its own (a plain chunk's is copied straight into its object). */
function storedPayload(c: ChunkInput, pool?: BuildBuffers): StoredPayload {
  const codec = c.codec ?? CODEC_NONE;
  let keyMeta = c.keyMeta ?? Buffer.alloc(0);
  let rawLen = 0;
  for (const r of c.records) rawLen += r.length;
  const raw = pool ? pool.acquire(rawLen) : Buffer.allocUnsafe(rawLen);
  try {
    let pos = 0;
    for (const r of c.records) pos += r.copy(raw, pos);
    let stored: Buffer = codec === CODEC_GZIP ? gzipSync(raw, { ...DEFLATE_OPTIONS, chunkSize: ZLIB_SEGMENT_CHUNK_BYTES }) : raw;
    if (c.seal) ({ keyMeta, sealed: stored } = c.seal(stored));
    // Here only for a codec or a seal, each of which made new bytes: the scratch can go back.
    if (stored === raw) stored = Buffer.from(raw);
    return { stored, keyMeta, rawLen };
  } finally {
    if (pool) pool.release(raw);
  }
}

/** Writes a chunk's header at `at`, for a payload already in place after it; returns the header's length. */
function writeChunkHeader(h: Buffer, at: number, c: ChunkInput, codec: Codec, keyMeta: Buffer, payload: Buffer, rawLen: number): number {
  if (keyMeta.length > MAX_KEY_META_BYTES) throw new RangeError(`key metadata over ${MAX_KEY_META_BYTES} bytes`);
  if (payload.length > MAX_CHUNK_PAYLOAD_BYTES) throw new RangeError(`chunk payload over ${MAX_CHUNK_PAYLOAD_BYTES} bytes`);
  const headerLen = chunkHeaderLen(keyMeta);
  let p = at;
  p = h.writeUInt32BE(CHUNK_MAGIC, p);
  p = h.writeUInt16BE(headerLen, p);
  p = h.writeUInt8(CHUNK_VERSION, p);
  p = h.writeUInt8(codec, p);
  p = h.writeBigUInt64BE(BigInt(c.ns), p);
  p = h.writeBigUInt64BE(BigInt(c.stream), p);
  p = h.writeUInt32BE(c.partition, p);
  p = h.writeUInt32BE(c.records.length, p);
  p = h.writeUInt32BE(payload.length, p);
  p = h.writeUInt32BE(rawLen, p);
  p = h.writeUInt32BE(crc32c(payload), p);
  p = h.writeUInt16BE(keyMeta.length, p);
  p += keyMeta.copy(h, p);
  h.writeUInt32BE(crc32c(h.subarray(at, p)), p);
  return headerLen;
}

function chunkHeaderLen(keyMeta: Buffer): number {
  return CHUNK_FIXED_HEADER_BYTES + keyMeta.length + 4;
}

/** Encodes one chunk (header + payload). */
export function encodeChunk(c: ChunkInput): Buffer[] {
  return [encodeObject(0, [c]).bytes.subarray(OBJECT_HEADER_BYTES)];
}

export interface DecodedChunk extends ChunkHeader {
  /** Bytes the chunk occupies (header + payload). */
  size: number;
  records: number;
  /** The records; an encrypted chunk (key metadata present) needs its opener. */
  decode(opener?: ChunkOpener): WalRecord[];
}

/** Decodes the chunk at the start of `buf` (an index entry's byte range, or an offset into an object). */
export function readChunk(buf: Buffer, path: string): DecodedChunk {
  if (buf.length < CHUNK_FIXED_HEADER_BYTES + 4) throw new CorruptObject(path, 'chunk shorter than its header');
  let p = 0;
  if (buf.readUInt32BE(p) !== CHUNK_MAGIC) throw new CorruptObject(path, 'bad chunk magic');
  p += 4;
  const headerLen = buf.readUInt16BE(p);
  p += 2;
  if (headerLen < CHUNK_FIXED_HEADER_BYTES + 4 || headerLen > buf.length) throw new CorruptObject(path, 'bad chunk header length');
  const hcrc = buf.readUInt32BE(headerLen - 4);
  if (crc32c(buf.subarray(0, headerLen - 4)) !== hcrc) throw new CorruptObject(path, 'chunk header CRC32C mismatch');
  const version = buf.readUInt8(p++);
  if (version !== CHUNK_VERSION) throw new CorruptObject(path, `chunk version ${version} is not ${CHUNK_VERSION}`);
  const codec = buf.readUInt8(p++);
  if (!CODECS.has(codec)) throw new CorruptObject(path, `unknown codec ${codec}`);
  const ns = Number(buf.readBigUInt64BE(p));
  p += 8;
  const stream = Number(buf.readBigUInt64BE(p));
  p += 8;
  const partition = buf.readUInt32BE(p);
  p += 4;
  const records = buf.readUInt32BE(p);
  p += 4;
  const storedLen = buf.readUInt32BE(p);
  p += 4;
  const rawLen = buf.readUInt32BE(p);
  p += 4;
  const pcrc = buf.readUInt32BE(p);
  p += 4;
  const kmLen = buf.readUInt16BE(p);
  p += 2;
  if (p + kmLen + 4 !== headerLen) throw new CorruptObject(path, 'key metadata length disagrees with the header length');
  const keyMeta = Buffer.from(buf.subarray(p, p + kmLen));
  if (headerLen + storedLen > buf.length) throw new CorruptObject(path, 'chunk payload truncated');
  const stored = buf.subarray(headerLen, headerLen + storedLen);
  return {
    ns,
    stream,
    partition,
    records,
    codec: codec as Codec,
    keyMeta,
    size: headerLen + storedLen,
    decode(opener?: ChunkOpener) {
      if (crc32c(stored) !== pcrc) throw new CorruptObject(path, 'chunk payload CRC32C mismatch');
      let plain = stored;
      if (keyMeta.length > 0) {
        if (!opener) throw new CorruptObject(path, 'the chunk is encrypted and no key ring is configured to open it');
        plain = opener(keyMeta, stored);
      }
      if (rawLen > MAX_CHUNK_PAYLOAD_BYTES) throw new CorruptObject(path, `chunk payload of ${rawLen} bytes over ${MAX_CHUNK_PAYLOAD_BYTES}`);
      // The output in one piece of the size the header states (one byte over, so zlib ends
      // in it rather than asking for another).
      const raw = codec === CODEC_GZIP ? gunzipSync(plain, { chunkSize: Math.max(zlibConstants.Z_MIN_CHUNK, rawLen + 1) }) : plain;
      if (raw.length !== rawLen) throw new CorruptObject(path, 'chunk payload length mismatch after decoding');
      return decodeRecords(raw, records, path);
    },
  };
}

// ------------------------------------------------------------------ objects

export interface EncodedObject {
  /** The object; from `pool` when one was given (hand it back with pool.release). */
  bytes: Buffer;
  /** Per input chunk, its byte range in the object. */
  ranges: { byteStart: number; byteEnd: number }[];
}

/**
 * Encodes a whole object into one buffer: a plain chunk's records are copied once, straight
 * to their place (no per-chunk then per-object concatenation). With `pool`, the object's
 * buffer (and a coded chunk's scratch) come from it.
 */
export function encodeObject(objectStamp: number, chunks: ChunkInput[], pool?: BuildBuffers): EncodedObject {
  const built = chunks.map((c) => ((c.codec ?? CODEC_NONE) === CODEC_NONE && !c.seal ? null : storedPayload(c, pool)));
  let total = OBJECT_HEADER_BYTES;
  const rawLens = chunks.map((c, i) => {
    const b = built[i];
    if (b) {
      total += chunkHeaderLen(b.keyMeta) + b.stored.length;
      return b.rawLen;
    }
    let n = 0;
    for (const r of c.records) n += r.length;
    total += chunkHeaderLen(c.keyMeta ?? EMPTY) + n;
    return n;
  });
  const bytes = pool ? pool.acquire(total) : Buffer.allocUnsafe(total);
  try {
    bytes.fill(0, 0, OBJECT_HEADER_BYTES);
    WAL_MAGIC.copy(bytes, 0);
    bytes.writeUInt8(WAL_FORMAT_VERSION, 7);
    bytes.writeBigUInt64BE(BigInt(objectStamp), 8);
    bytes.writeUInt32BE(chunks.length, 16);
    const ranges: { byteStart: number; byteEnd: number }[] = [];
    let pos = OBJECT_HEADER_BYTES;
    chunks.forEach((c, i) => {
      const b = built[i];
      const keyMeta = b ? b.keyMeta : (c.keyMeta ?? EMPTY);
      const start = pos;
      const payloadAt = start + chunkHeaderLen(keyMeta);
      let end = payloadAt;
      if (b) end += b.stored.copy(bytes, payloadAt);
      else for (const r of c.records) end += r.copy(bytes, end);
      writeChunkHeader(bytes, start, c, c.codec ?? CODEC_NONE, keyMeta, bytes.subarray(payloadAt, end), rawLens[i]!);
      ranges.push({ byteStart: start, byteEnd: end });
      pos = end;
    });
    return { bytes, ranges };
  } catch (e) {
    if (pool) pool.release(bytes);
    throw e;
  }
}

const EMPTY = Buffer.alloc(0);

export interface ObjectHeader {
  version: number;
  objectStamp: number;
  chunkCount: number;
}

export function readObjectHeader(buf: Buffer, path: string): ObjectHeader {
  if (buf.length < OBJECT_HEADER_BYTES || !buf.subarray(0, 7).equals(WAL_MAGIC)) throw new CorruptObject(path, 'bad object magic');
  const version = buf.readUInt8(7);
  if (version !== WAL_FORMAT_VERSION) throw new CorruptObject(path, `format version ${version} is not ${WAL_FORMAT_VERSION}`);
  return { version, objectStamp: Number(buf.readBigUInt64BE(8)), chunkCount: buf.readUInt32BE(16) };
}

/** Decodes every chunk of a whole object (tools and tests; readers use index byte ranges). */
export function readObject(buf: Buffer, path: string): { header: ObjectHeader; chunks: DecodedChunk[] } {
  const header = readObjectHeader(buf, path);
  const chunks: DecodedChunk[] = [];
  let pos = OBJECT_HEADER_BYTES;
  for (let i = 0; i < header.chunkCount; i++) {
    const c = readChunk(buf.subarray(pos), path);
    chunks.push(c);
    pos += c.size;
  }
  if (pos !== buf.length) throw new CorruptObject(path, 'trailing bytes after the last chunk');
  return { header, chunks };
}

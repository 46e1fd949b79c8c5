// EncryptingStore: a Store wrapper that seals every object under ns/<id>/ (segments, data
// files, manifests) with the namespace's key (spec §9.8), and passes every other path through.
//
// Range reads must keep working (data files are read one block at a time), so an object is
// sealed in frames: AES-256-GCM per FRAME_BYTES of plaintext, each with its own tag, under one
// fresh data key per object. A range read fetches only the frames it overlaps.
//
//   object := header (HEADER_BYTES) | frame*      frame i := ciphertext (≤ FRAME_BYTES) | tag (16)
//   header := magic "LOAMENC1" | format u8 (1 or 2) | ns u64 | kekVersion u32 | frameBytes u32 | plainSize u64
//             | baseIv (12) | wrapped data key (WRAPPED_DATA_KEY_BYTES)
//
// Frame i's IV is baseIv with its last 4 bytes XOR i; its AAD binds the namespace, the path,
// the key version and i, so frames cannot be moved, dropped or truncated:
//  - format 1 (put: the size is known first): and the frame count and the plaintext size;
//  - format 2 (putStream, issue 14 item 9): and whether the frame is the last. A stream is
//    sealed as it comes, a frame at a time, instead of being held whole to learn its size
//    first (a compaction's merged data file held 2-3 copies of itself in the worker); its
//    header's plainSize is 0 and the size follows from the stored size. Dropping frames off
//    the end leaves a last frame sealed as not last, so a truncation fails to open. The header has a fixed size, so a cold range read fetches the header
// and its frames in parallel (one round trip). Objects without the magic (written before
// encryption, or while it is off) are served as they are.
import { aadOf, DecryptFailed, freshIv, freshKey, IV_BYTES, open, seal, TAG_BYTES } from './envelope.js';
import { unwrapDataKey, wrapDataKey, WRAPPED_DATA_KEY_BYTES, type KeyRing } from './keyring.js';
import {
  resolveRange,
  type ByteSource,
  type GetOptions,
  type GetResult,
  type HeadResult,
  type ListOptions,
  type ListPage,
  type ListVersionsOptions,
  type ObjectInfo,
  type ObjectVersion,
  type PutCondition,
  type PutResult,
  type Store,
  type StoreCapabilities,
} from '../store/index.js';

export const ENC_MAGIC = Buffer.from('LOAMENC1', 'latin1');
/** The format of an object sealed whole (put), and of one sealed as it streams (putStream). */
export const ENC_VERSION = 1;
export const ENC_VERSION_STREAMED = 2;
/** Plaintext bytes per frame: the data file block size, so a block read costs at most two frames. */
export const FRAME_BYTES = 64 * 1024;
export const HEADER_BYTES = 8 + 1 + 8 + 4 + 4 + 8 + IV_BYTES + WRAPPED_DATA_KEY_BYTES;
/** Unwrapped per-object data keys kept (zeroized on eviction and on a namespace's shredding). */
export const MAX_CACHED_OBJECT_KEYS = 4_096;
/** The most a sealed object under ns/ may hold (frame indexes stay far below 2^32). */
export const MAX_SEALED_STREAM_BYTES = 1024 * 1024 * 1024;

const NS_PATH = /^ns\/(\d+)\//;

interface Header {
  format: typeof ENC_VERSION | typeof ENC_VERSION_STREAMED;
  ns: number;
  version: number;
  frameBytes: number;
  plainSize: number;
  baseIv: Buffer;
  wrapped: Buffer;
}

function frameCount(plainSize: number, frameBytes: number): number {
  return Math.max(1, Math.ceil(plainSize / frameBytes));
}

function frameIv(base: Buffer, i: number): Buffer {
  const iv = Buffer.from(base);
  iv.writeUInt32BE((iv.readUInt32BE(IV_BYTES - 4) ^ i) >>> 0, IV_BYTES - 4);
  return iv;
}

function frameAad(h: Header, path: string, i: number): Buffer {
  if (h.format === ENC_VERSION_STREAMED) return streamedFrameAad(h, path, i, i === frameCount(h.plainSize, h.frameBytes) - 1);
  return aadOf('object', h.ns, path, h.version, `frame=${i}\0of=${frameCount(h.plainSize, h.frameBytes)}\0size=${h.plainSize}\0fb=${h.frameBytes}`);
}

function streamedFrameAad(h: Header, path: string, i: number, last: boolean): Buffer {
  return aadOf('object', h.ns, path, h.version, `stream\0frame=${i}\0last=${last ? 1 : 0}\0fb=${h.frameBytes}`);
}

function headerBytes(h: Header): Buffer {
  const head = Buffer.alloc(HEADER_BYTES);
  let p = ENC_MAGIC.copy(head, 0);
  p = head.writeUInt8(h.format, p);
  p = head.writeBigUInt64BE(BigInt(h.ns), p);
  p = head.writeUInt32BE(h.version, p);
  p = head.writeUInt32BE(h.frameBytes, p);
  p = head.writeBigUInt64BE(BigInt(h.format === ENC_VERSION_STREAMED ? 0 : h.plainSize), p);
  p += h.baseIv.copy(head, p);
  h.wrapped.copy(head, p);
  return head;
}

/**
 * The header of a sealed object, or null for an object written unencrypted. `storedSize` (the
 * whole stored object's) gives a streamed object's plaintext size: every frame but the last
 * is full, and each carries a tag.
 */
function parseHeader(b: Buffer, path: string, storedSize: number): Header | null {
  if (b.length < HEADER_BYTES || !b.subarray(0, 8).equals(ENC_MAGIC)) return null;
  const format = b.readUInt8(8);
  if (format !== ENC_VERSION && format !== ENC_VERSION_STREAMED) throw new DecryptFailed(`${path} (unknown encryption version ${format})`);
  let p = 9;
  const ns = Number(b.readBigUInt64BE(p));
  p += 8;
  const version = b.readUInt32BE(p);
  p += 4;
  const frameBytes = b.readUInt32BE(p);
  p += 4;
  const plainSize = Number(b.readBigUInt64BE(p));
  p += 8;
  const baseIv = Buffer.from(b.subarray(p, p + IV_BYTES));
  p += IV_BYTES;
  const wrapped = Buffer.from(b.subarray(p, p + WRAPPED_DATA_KEY_BYTES));
  if (frameBytes < 1) throw new DecryptFailed(`${path} (bad frame size)`);
  if (format === ENC_VERSION) return { format, ns, version, frameBytes, plainSize, baseIv, wrapped };
  const body = storedSize - HEADER_BYTES;
  const frames = Math.ceil(body / (frameBytes + TAG_BYTES));
  const lastSealed = body - (frames - 1) * (frameBytes + TAG_BYTES);
  if (body < TAG_BYTES || lastSealed < TAG_BYTES) throw new DecryptFailed(`${path} (truncated: ${storedSize} bytes is no whole number of frames)`);
  return { format, ns, version, frameBytes, plainSize: body - frames * TAG_BYTES, baseIv, wrapped };
}

export class EncryptingStore implements Store {
  /** path → the object's unwrapped data key, tagged by namespace (LRU by re-insertion). */
  private readonly deks = new Map<string, { ns: number; dek: Buffer; header: Header }>();

  constructor(
    readonly inner: Store,
    private readonly keys: KeyRing,
  ) {
    keys.onShred((ns) => {
      for (const [p, e] of [...this.deks]) {
        if (e.ns !== ns) continue;
        e.dek.fill(0);
        this.deks.delete(p);
      }
    });
  }

  capabilities(): StoreCapabilities {
    return this.inner.capabilities();
  }

  /** The plaintext of a whole object, for tests and tools that check what a stored object holds. */
  static isSealed(bytes: Buffer): boolean {
    return bytes.length >= HEADER_BYTES && bytes.subarray(0, 8).equals(ENC_MAGIC);
  }

  private async sealObject(path: string, ns: number, plain: Uint8Array): Promise<Buffer | null> {
    const k = await this.keys.writeKey(ns);
    if (!k) return null; // an unencrypted namespace
    const dek = freshKey();
    try {
      const h: Header = { format: ENC_VERSION, ns, version: k.version, frameBytes: FRAME_BYTES, plainSize: plain.byteLength, baseIv: freshIv(), wrapped: wrapDataKey(k, dek, path, 'object') };
      const head = headerBytes(h);
      const n = frameCount(h.plainSize, h.frameBytes);
      const parts: Buffer[] = [head];
      for (let i = 0; i < n; i++) {
        const slice = plain.subarray(i * h.frameBytes, Math.min(plain.byteLength, (i + 1) * h.frameBytes));
        parts.push(seal(dek, frameIv(h.baseIv, i), frameAad(h, path, i), slice));
      }
      return Buffer.concat(parts);
    } finally {
      dek.fill(0);
    }
  }

  private async dekOf(path: string, h: Header): Promise<Buffer> {
    const hit = this.deks.get(path);
    if (hit && hit.header.wrapped.equals(h.wrapped)) {
      this.deks.delete(path);
      this.deks.set(path, hit);
      return hit.dek;
    }
    const kek = await this.keys.readKek(h.ns, h.version);
    const dek = unwrapDataKey(kek, h.ns, h.version, h.wrapped, path, 'object');
    this.deks.set(path, { ns: h.ns, dek, header: h });
    for (const [p, e] of this.deks) {
      if (this.deks.size <= MAX_CACHED_OBJECT_KEYS) break;
      e.dek.fill(0);
      this.deks.delete(p);
    }
    return dek;
  }

  /** Opens frames [a, b] from `bytes` (which start at frame a's offset). */
  private openFrames(path: string, h: Header, dek: Buffer, a: number, b: number, bytes: Buffer): Buffer {
    const out: Buffer[] = [];
    let pos = 0;
    for (let i = a; i <= b; i++) {
      const len = Math.min(h.frameBytes, h.plainSize - i * h.frameBytes);
      const sealed = bytes.subarray(pos, pos + Math.max(0, len) + TAG_BYTES);
      if (sealed.length < Math.max(0, len) + TAG_BYTES) throw new DecryptFailed(`${path} (truncated frame ${i})`);
      out.push(open(dek, frameIv(h.baseIv, i), frameAad(h, path, i), sealed, `${path} (frame ${i})`));
      pos += sealed.length;
    }
    return Buffer.concat(out);
  }

  private frameOffset(h: Header, i: number): number {
    return HEADER_BYTES + i * (h.frameBytes + TAG_BYTES);
  }

  async get(path: string, opts?: GetOptions): Promise<GetResult> {
    const m = NS_PATH.exec(path);
    if (!m) return this.inner.get(path, opts);
    if (!opts?.range) {
      const got = await this.inner.get(path);
      const h = parseHeader(got.bytes, path, got.bytes.length);
      if (!h) return got; // written unencrypted
      const dek = await this.dekOf(path, h);
      const n = frameCount(h.plainSize, h.frameBytes);
      const bytes = this.openFrames(path, h, dek, 0, n - 1, got.bytes.subarray(HEADER_BYTES));
      if (bytes.length !== h.plainSize) throw new DecryptFailed(`${path} (size mismatch)`);
      return { bytes, etag: got.etag, size: h.plainSize };
    }
    const range = opts.range;
    const cached = this.deks.get(path)?.header;
    let h: Header | null;
    let etag: string;
    let early: { bytes: Buffer; a: number; b: number } | undefined;
    if (cached) {
      h = cached;
      etag = '';
    } else if (!('suffix' in range) && range.end !== undefined) {
      // Cold: the header and the frames (at the default frame size) in parallel.
      const a = Math.floor(range.start / FRAME_BYTES);
      const b = Math.floor((range.end - 1) / FRAME_BYTES);
      const [head, frames] = await Promise.all([
        this.inner.get(path, { range: { start: 0, end: HEADER_BYTES } }),
        this.inner.get(path, { range: { start: HEADER_BYTES + a * (FRAME_BYTES + TAG_BYTES), end: HEADER_BYTES + (b + 1) * (FRAME_BYTES + TAG_BYTES) } }).catch(() => null),
      ]);
      h = parseHeader(head.bytes, path, head.size);
      etag = head.etag;
      if (!h) return this.inner.get(path, opts);
      if (frames && h.frameBytes === FRAME_BYTES) early = { bytes: frames.bytes, a, b };
    } else {
      const head = await this.inner.get(path, { range: { start: 0, end: HEADER_BYTES } });
      h = parseHeader(head.bytes, path, head.size);
      etag = head.etag;
      if (!h) return this.inner.get(path, opts);
    }
    const r = resolveRange(path, range, h.plainSize);
    const a = Math.floor(r.start / h.frameBytes);
    const b = Math.floor((r.end - 1) / h.frameBytes);
    const dek = await this.dekOf(path, h);
    let bytes: Buffer;
    if (early && early.a === a && early.b >= b) {
      bytes = this.openFrames(path, h, dek, a, b, early.bytes);
    } else {
      const got = await this.inner.get(path, { range: { start: this.frameOffset(h, a), end: this.frameOffset(h, b + 1) } });
      etag ||= got.etag;
      bytes = this.openFrames(path, h, dek, a, b, got.bytes);
    }
    if (!etag) etag = (await this.inner.head(path)).etag;
    const off = r.start - a * h.frameBytes;
    return { bytes: bytes.subarray(off, off + (r.end - r.start)), etag, size: h.plainSize, range: r };
  }

  async head(path: string): Promise<HeadResult> {
    if (!NS_PATH.test(path)) return this.inner.head(path);
    const hd = await this.inner.head(path);
    if (hd.size < HEADER_BYTES) return hd;
    const got = await this.inner.get(path, { range: { start: 0, end: HEADER_BYTES } });
    const h = parseHeader(got.bytes, path, hd.size);
    return h ? { etag: hd.etag, size: h.plainSize } : hd;
  }

  /** A path written again: its cached data key is the old object's. */
  private forget(path: string): void {
    const old = this.deks.get(path);
    if (old) {
      old.dek.fill(0);
      this.deks.delete(path);
    }
  }

  async put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    const m = NS_PATH.exec(path);
    this.forget(path);
    const sealed = m ? await this.sealObject(path, Number(m[1]), bytes) : null;
    return this.inner.put(path, sealed ?? bytes, cond);
  }

  /** Sealed as it streams (format 2): the object is never held whole, one frame at a time is. */
  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    const m = NS_PATH.exec(path);
    if (!m) return this.inner.putStream(path, source, cond);
    this.forget(path);
    const ns = Number(m[1]);
    const k = await this.keys.writeKey(ns);
    if (!k) return this.inner.putStream(path, source, cond); // an unencrypted namespace
    return this.inner.putStream(path, this.sealStream(path, ns, k, source), cond);
  }

  private async *sealStream(path: string, ns: number, k: Parameters<typeof wrapDataKey>[0], source: ByteSource): AsyncGenerator<Uint8Array> {
    const dek = freshKey();
    try {
      const h: Header = { format: ENC_VERSION_STREAMED, ns, version: k.version, frameBytes: FRAME_BYTES, plainSize: 0, baseIv: freshIv(), wrapped: wrapDataKey(k, dek, path, 'object') };
      yield headerBytes(h);
      let i = 0;
      const sealFrame = (plain: Uint8Array | readonly Uint8Array[], last: boolean) => seal(dek, frameIv(h.baseIv, i), streamedFrameAad(h, path, i++, last), plain);
      // The frame being filled, and a full one held until it is known whether it is the last.
      let filling: Buffer[] = [];
      let filled = 0;
      let full: Buffer | null = null;
      let total = 0;
      for await (const c of source) {
        total += c.byteLength;
        if (total > MAX_SEALED_STREAM_BYTES) throw new RangeError(`${path}: over ${MAX_SEALED_STREAM_BYTES} bytes, the most an encrypted object may hold`);
        // Bounded: each pass takes at least one byte of the chunk.
        for (let off = 0; off < c.byteLength; ) {
          const take = Math.min(h.frameBytes - filled, c.byteLength - off);
          filling.push(Buffer.from(c.subarray(off, off + take))); // a copy: the source may reuse its chunk
          filled += take;
          off += take;
          if (filled === h.frameBytes) {
            if (full) yield sealFrame(full, false);
            full = Buffer.concat(filling, filled);
            filling = [];
            filled = 0;
          }
        }
      }
      // The last frame: what is being filled, or the held full one when nothing follows it.
      if (full && filled === 0) {
        yield sealFrame(full, true);
      } else {
        if (full) yield sealFrame(full, false);
        yield sealFrame(filling, true);
      }
    } finally {
      dek.fill(0);
    }
  }

  versioning(): Promise<boolean> {
    return this.inner.versioning();
  }
  delete(path: string): Promise<void> {
    const e = this.deks.get(path);
    if (e) {
      e.dek.fill(0);
      this.deks.delete(path);
    }
    return this.inner.delete(path);
  }
  /** Sizes are the stored (sealed) sizes. */
  list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    return this.inner.list(prefix, opts);
  }
  listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>> {
    return this.inner.listVersions(prefix, opts);
  }
  deleteVersion(path: string, versionId: string): Promise<void> {
    return this.inner.deleteVersion(path, versionId);
  }
  async close(): Promise<void> {
    for (const e of this.deks.values()) e.dek.fill(0);
    this.deks.clear();
    await this.inner.close();
  }
}

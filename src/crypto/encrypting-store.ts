// EncryptingStore: a Store wrapper that seals every object under ns/<id>/ (segments, data
// files, manifests) with the namespace's key (spec §9.8), and passes every other path through.
//
// Range reads must keep working (data files are read one block at a time), so an object is
// sealed in frames: AES-256-GCM per FRAME_BYTES of plaintext, each with its own tag, under one
// fresh data key per object. A range read fetches only the frames it overlaps.
//
//   object := header (HEADER_BYTES) | frame*      frame i := ciphertext (≤ FRAME_BYTES) | tag (16)
//   header := magic "LOAMENC1" | version u8 (1) | ns u64 | kekVersion u32 | frameBytes u32 | plainSize u64
//             | baseIv (12) | wrapped data key (WRAPPED_DATA_KEY_BYTES)
//
// Frame i's IV is baseIv with its last 4 bytes XOR i; its AAD binds the namespace, the path,
// the key version, i, the frame count and the plaintext size, so frames cannot be moved,
// dropped or truncated. The header has a fixed size, so a cold range read fetches the header
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
export const ENC_VERSION = 1;
/** Plaintext bytes per frame: the data file block size, so a block read costs at most two frames. */
export const FRAME_BYTES = 64 * 1024;
export const HEADER_BYTES = 8 + 1 + 8 + 4 + 4 + 8 + IV_BYTES + WRAPPED_DATA_KEY_BYTES;
/** Unwrapped per-object data keys kept (zeroized on eviction and on a namespace's shredding). */
export const MAX_CACHED_OBJECT_KEYS = 4_096;
/** putStream buffers the whole object to seal it: objects under ns/ are bounded by this. */
export const MAX_SEALED_STREAM_BYTES = 1024 * 1024 * 1024;

const NS_PATH = /^ns\/(\d+)\//;

interface Header {
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
  return aadOf('object', h.ns, path, h.version, `frame=${i}\0of=${frameCount(h.plainSize, h.frameBytes)}\0size=${h.plainSize}\0fb=${h.frameBytes}`);
}

function parseHeader(b: Buffer, path: string): Header | null {
  if (b.length < HEADER_BYTES || !b.subarray(0, 8).equals(ENC_MAGIC)) return null;
  if (b.readUInt8(8) !== ENC_VERSION) throw new DecryptFailed(`${path} (unknown encryption version ${b.readUInt8(8)})`);
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
  return { ns, version, frameBytes, plainSize, baseIv, wrapped };
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
      const h: Header = { ns, version: k.version, frameBytes: FRAME_BYTES, plainSize: plain.byteLength, baseIv: freshIv(), wrapped: wrapDataKey(k, dek, path, 'object') };
      const head = Buffer.alloc(HEADER_BYTES);
      let p = ENC_MAGIC.copy(head, 0);
      p = head.writeUInt8(ENC_VERSION, p);
      p = head.writeBigUInt64BE(BigInt(ns), p);
      p = head.writeUInt32BE(h.version, p);
      p = head.writeUInt32BE(h.frameBytes, p);
      p = head.writeBigUInt64BE(BigInt(h.plainSize), p);
      p += h.baseIv.copy(head, p);
      h.wrapped.copy(head, p);
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
      const h = parseHeader(got.bytes, path);
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
      h = parseHeader(head.bytes, path);
      etag = head.etag;
      if (!h) return this.inner.get(path, opts);
      if (frames && h.frameBytes === FRAME_BYTES) early = { bytes: frames.bytes, a, b };
    } else {
      const head = await this.inner.get(path, { range: { start: 0, end: HEADER_BYTES } });
      h = parseHeader(head.bytes, path);
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
    const h = parseHeader(got.bytes, path);
    return h ? { etag: hd.etag, size: h.plainSize } : hd;
  }

  async put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    const m = NS_PATH.exec(path);
    const old = this.deks.get(path);
    if (old) {
      old.dek.fill(0);
      this.deks.delete(path);
    }
    const sealed = m ? await this.sealObject(path, Number(m[1]), bytes) : null;
    return this.inner.put(path, sealed ?? bytes, cond);
  }

  async putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    if (!NS_PATH.test(path)) return this.inner.putStream(path, source, cond);
    const parts: Uint8Array[] = [];
    let n = 0;
    for await (const c of source) {
      n += c.byteLength;
      if (n > MAX_SEALED_STREAM_BYTES) throw new RangeError(`${path}: over ${MAX_SEALED_STREAM_BYTES} bytes, the most an encrypted object may hold`);
      parts.push(c);
    }
    return this.put(path, Buffer.concat(parts), cond);
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

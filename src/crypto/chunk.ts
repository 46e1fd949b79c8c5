// Envelope encryption of WAL chunks (spec §9.8). A WAL object holds many namespaces' chunks,
// so each chunk has its own fresh data key, wrapped by its namespace's KEK: destroying one
// namespace's KEK leaves every other chunk in the same object readable.
//
//   keyMeta := metaVersion u8 (1) | kekVersion u32 BE | iv (12) | wrapped data key (WRAPPED_DATA_KEY_BYTES)
//
// AAD (payload and data key): namespace, WAL object path, KEK version, stream and partition.
import { aadOf, DecryptFailed, freshIv, freshKey, IV_BYTES, open, seal } from './envelope.js';
import { unwrapDataKey, wrapDataKey, WRAPPED_DATA_KEY_BYTES, type KeyRing, type WriteKey } from './keyring.js';

export const CHUNK_KEY_META_VERSION = 1;
export const CHUNK_KEY_META_BYTES = 1 + 4 + IV_BYTES + WRAPPED_DATA_KEY_BYTES;

const bindingOf = (stream: number, partition: number) => `stream=${stream}\0partition=${partition}`;

/** A chunk sealer for ChunkInput.seal: a fresh data key and IV each call. */
export function chunkSealer(k: WriteKey, path: string, stream: number, partition: number): (stored: Buffer) => { keyMeta: Buffer; sealed: Buffer } {
  return (stored) => {
    const dek = freshKey();
    const iv = freshIv();
    const extra = bindingOf(stream, partition);
    const sealed = seal(dek, iv, aadOf('wal-chunk', k.ns, path, k.version, extra), stored);
    const meta = Buffer.alloc(CHUNK_KEY_META_BYTES);
    meta.writeUInt8(CHUNK_KEY_META_VERSION, 0);
    meta.writeUInt32BE(k.version, 1);
    iv.copy(meta, 5);
    wrapDataKey(k, dek, path, extra).copy(meta, 5 + IV_BYTES);
    dek.fill(0);
    return { keyMeta: meta, sealed };
  };
}

/** The KEK version an encrypted chunk's key metadata names (to fetch the KEK before opening). */
export function chunkKeyVersion(keyMeta: Buffer, path: string): number {
  if (keyMeta.length !== CHUNK_KEY_META_BYTES || keyMeta.readUInt8(0) !== CHUNK_KEY_META_VERSION) throw new DecryptFailed(`a chunk of ${path} (unknown key metadata)`);
  return keyMeta.readUInt32BE(1);
}

/** Opens a chunk of namespace `ns` with the KEK of its version. */
export function openChunk(kek: Buffer, ns: number, path: string, stream: number, partition: number, keyMeta: Buffer, sealed: Buffer): Buffer {
  const version = chunkKeyVersion(keyMeta, path);
  const extra = bindingOf(stream, partition);
  const iv = keyMeta.subarray(5, 5 + IV_BYTES);
  const dek = unwrapDataKey(kek, ns, version, keyMeta.subarray(5 + IV_BYTES), path, extra);
  try {
    return open(dek, iv, aadOf('wal-chunk', ns, path, version, extra), sealed, `chunk of namespace ${ns} in ${path}`);
  } finally {
    dek.fill(0);
  }
}

/** Fetches the KEK and returns a ChunkOpener for one chunk (reads). */
export async function chunkOpener(ring: KeyRing, ns: number, path: string, stream: number, partition: number, keyMeta: Buffer): Promise<(m: Buffer, s: Buffer) => Buffer> {
  const kek = await ring.readKek(ns, chunkKeyVersion(keyMeta, path));
  return (m, s) => openChunk(kek, ns, path, stream, partition, m, s);
}

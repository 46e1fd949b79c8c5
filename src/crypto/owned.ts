// Bytes in memory of their own, never a view into a larger buffer: what a cache keeps must
// keep alive no more than it charges (zlib answers a small block as a view into its 16 KiB
// output buffer, Node's small buffers are views into a shared 8 KiB pool slab, and a key beside
// others' data in such a slab outlives its own use).

/** A copy of `parts`, one after another, in memory of its own. */
export function ownedBytes(...parts: readonly Uint8Array[]): Buffer {
  let n = 0;
  for (const p of parts) n += p.byteLength;
  const out = Buffer.allocUnsafeSlow(n);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/** `b`, or a copy in memory of its own when `b` is a view into a larger buffer. */
export function ownBuffer(b: Buffer): Buffer {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : ownedBytes(b);
}

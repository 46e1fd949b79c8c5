// Deterministic object contents for the crash checks: a torn or mixed-up object cannot
// pass for object i, because every byte depends on i and the position.
import { createHash } from 'node:crypto';

/** Sizes vary from 1 byte to about 200 KiB, so some writes span several filesystem blocks. */
export function contentFor(i: number): Buffer {
  const size = 1 + ((i * 7919) % 200_000);
  const seed = createHash('sha256').update(`loam-${i}`).digest();
  const buf = Buffer.allocUnsafe(size);
  for (let p = 0; p < size; p++) buf[p] = seed[p % seed.length]! ^ (p & 0xff);
  return buf;
}

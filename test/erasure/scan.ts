// The gate's byte scan (spec §9 gate): counts a marker in bytes as stored and in the forms
// the formats compress them to — data-file blocks (deflate-raw), WAL and segment chunks
// (gzip), and any gzip stream found anywhere — so a compressed copy cannot hide it.
import { gunzipSync, inflateRawSync } from 'node:zlib';
import { readObject } from '../../src/log/format.js';
import { TRAILER_BYTES, TRAILER_MAGIC, type BlockRef } from '../../src/collection/datafile.js';

function count(hay: Buffer, needle: Buffer): number {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
}

/** The decoded forms of one object's bytes (its plain bytes first). */
export function decodedForms(bytes: Buffer): Buffer[] {
  const out: Buffer[] = [bytes];
  try {
    const { chunks } = readObject(bytes, 'scan');
    for (const c of chunks) for (const r of c.decode()) out.push(Buffer.from(`${r.key}\u0000${r.body.toString('utf8')}`));
  } catch {
    /* not a WAL object or segment */
  }
  if (bytes.length > TRAILER_BYTES && bytes.subarray(bytes.length - 8).equals(TRAILER_MAGIC)) {
    try {
      const t = bytes.subarray(bytes.length - TRAILER_BYTES);
      const io = Number(t.readBigUInt64BE(0));
      const il = t.readUInt32BE(8);
      const idx = JSON.parse(bytes.subarray(io, io + il).toString('utf8')) as BlockRef[];
      for (const b of idx) {
        const raw = bytes.subarray(b.o, b.o + b.l);
        out.push(b.z ? inflateRawSync(raw) : raw);
      }
    } catch {
      /* not a data file after all */
    }
  }
  // Any gzip member, wherever it starts.
  for (let i = bytes.indexOf(Buffer.from([0x1f, 0x8b, 0x08])); i >= 0; i = bytes.indexOf(Buffer.from([0x1f, 0x8b, 0x08]), i + 1)) {
    try {
      out.push(gunzipSync(bytes.subarray(i)));
    } catch {
      /* not a whole gzip stream from here */
    }
  }
  return out;
}

/** How often `marker` occurs in `bytes` and in its decoded forms. */
export function markerCount(bytes: Buffer, marker: string): number {
  const m = Buffer.from(marker);
  return decodedForms(bytes).reduce((n, b) => n + count(b, m), 0);
}

// Segmenter and retention of one stream's partitions (DESIGN §1), under the stream's lease.
//
// Segmenter: a run of consecutive WAL chunks of a partition → one segment object (the WAL
//   format with one chunk) → swapSegment. A WAL object is retired by the metastore when no
//   live chunk of it remains; GC deletes it after the grace period. Runs are capped at
//   capabilities().maxSwapEntries (DynamoDB: ~45) and MAX_SEGMENT_RECORDS.
// Retention: trimPartition up to what every retained manifest has applied (the retention
//   floor's manifest, gc/retained.ts), and only as far as the stream's retention (age,
//   bytes) allows: never past that, so no reader holding any retained manifest loses its
//   tail. Fenced by the stream's lease like the segmenter.
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Fence, IndexEntry, Stream } from '../meta/types.js';
import type { Store } from '../store/index.js';
import { CODEC_GZIP, encodeObject, encodeRecord, OBJECT_HEADER_BYTES } from '../log/format.js';
import type { LogReader } from '../log/reader.js';
import { putCreateOnly } from '../collection/manifest.js';
import { BuildBuffers } from '../log/build-buffers.js';
import { segmentPath, stampOf } from '../collection/paths.js';

/**
 * Only WAL chunks older than this are segmented: the tail is read (and applied) while it is
 * fresh, and rewriting it at once would double the disk traffic of ingest.
 */
export const DEFAULT_SEGMENT_MIN_AGE_MS = 10_000;
/** A run of old-enough chunks is segmented once it has this many WAL chunks… */
export const SEGMENT_MIN_ENTRIES = 8;
/** …or its oldest chunk is this old. */
export const SEGMENT_MAX_AGE_MS = 30_000;
/** Segments are gzip-compressed (level 1): cold data, read rarely, JSON compresses well. */
export const SEGMENT_CODEC = CODEC_GZIP;
/** Records in one segment at most (bounds memory of one swap). */
export const MAX_SEGMENT_RECORDS = 500_000;
/**
 * Stored bytes of the WAL chunks one segment is built from, at most (a run's first chunk is
 * taken whatever its size). A segment is built whole in memory — the chunks read, each record
 * re-encoded, the payload and its compressed form, the object — about four times these bytes,
 * in the worker thread: bounded by records alone, a run of 1 KiB documents written at
 * 20,000–50,000 a second made segments of 100–150 MiB and held 600–760 MiB at once (issue 14
 * item 9). A WAL object's default size (flush_bytes).
 */
export const MAX_SEGMENT_BYTES = 8 * 1024 * 1024;
/** Segments one pass writes per partition at most (bounds a pass). */
export const MAX_SEGMENTS_PER_PASS = 4;
/** A segment needs two build buffers (its object, and the scratch its payload is compressed from). */
const segmentBuffers = new BuildBuffers(2);

export interface SegmenterDeps {
  meta: MetaStore;
  store: Store;
  log: LogReader;
  /** MAX_SEGMENT_BYTES unless set (tests). */
  maxSegmentBytes?: number;
}

/**
 * Segments the WAL runs of one partition, fenced by the stream's segmenter lease (a
 * segmenter that lost it can replace nothing). Returns the segments written.
 */
export async function segmentPartition(
  d: SegmenterDeps,
  s: Stream,
  partition: number,
  fence: Fence,
  now = Date.now(),
  minAgeMs = DEFAULT_SEGMENT_MIN_AGE_MS,
): Promise<number> {
  const maxEntries = Math.max(1, d.meta.capabilities().maxSwapEntries);
  const maxBytes = d.maxSegmentBytes ?? MAX_SEGMENT_BYTES;
  const { entries } = await d.log.entries(s.ns, s.id, partition, 0, Number.MAX_SAFE_INTEGER);
  let written = 0;
  let i = 0;
  while (i < entries.length && written < MAX_SEGMENTS_PER_PASS) {
    if (entries[i]!.kind !== 'wal') {
      i++;
      continue;
    }
    const run: IndexEntry[] = [];
    let records = 0;
    let bytes = 0;
    /** The run stopped at a size bound: it is as big as a segment gets, so it is written now. */
    let full = false;
    const oldEnough = (e: IndexEntry) => now - (stampOf(e.path) ?? now) >= minAgeMs;
    while (i < entries.length && entries[i]!.kind === 'wal' && oldEnough(entries[i]!) && records + entries[i]!.records <= MAX_SEGMENT_RECORDS) {
      const size = entries[i]!.byteEnd - entries[i]!.byteStart;
      if (run.length >= maxEntries || (run.length > 0 && bytes + size > maxBytes)) {
        full = true;
        break;
      }
      records += entries[i]!.records;
      bytes += size;
      run.push(entries[i++]!);
    }
    if (run.length === 0) {
      if (!oldEnough(entries[i]!)) break; // the rest of the partition is younger still
      i++; // a single chunk bigger than MAX_SEGMENT_RECORDS stays a WAL chunk
      continue;
    }
    const oldest = stampOf(run[0]!.path) ?? now;
    if (!full && run.length < SEGMENT_MIN_ENTRIES && now - oldest < SEGMENT_MAX_AGE_MS) break; // the tail is still young
    const recs = (await Promise.all(run.map((e) => d.log.entryRecords(e)))).flat();
    const start = run[0]!.start;
    const end = run[run.length - 1]!.end;
    const stamp = Date.now();
    const path = segmentPath(s.ns, s.id, partition, start, end, stamp);
    const obj = encodeObject(stamp, [{ ns: s.ns, stream: s.id, partition, records: recs.map(encodeRecord), codec: SEGMENT_CODEC }], segmentBuffers);
    const byteEnd = obj.bytes.length;
    try {
      await putCreateOnly(d.store, path, obj.bytes);
    } finally {
      segmentBuffers.release(obj.bytes);
    }
    try {
      await d.meta.swapSegment({ ns: s.ns, stream: s.id, partition, start, end, path, byteStart: OBJECT_HEADER_BYTES, byteEnd }, { fence });
      written++;
    } catch (e) {
      // Trimmed meanwhile, or another segmenter swapped first: the segment is garbage (GC).
      if (isMetaError(e, 'NotFound') || isMetaError(e, 'InvalidArgument') || isMetaError(e, 'Claimed')) break;
      throw e;
    }
  }
  return written;
}

/**
 * Trims a partition as far as retention allows, never past `applied` (what every retained
 * manifest has applied). Returns the new logStart, or null when nothing was trimmed.
 */
export async function retainPartition(d: SegmenterDeps, s: Stream, partition: number, applied: number, fence: Fence, now = Date.now()): Promise<number | null> {
  const r = s.retention;
  if (r.ms === null && r.bytes === null) return null;
  const { entries, logStart } = await d.log.entries(s.ns, s.id, partition, 0, Number.MAX_SAFE_INTEGER);
  let cut = logStart;
  if (r.ms !== null) {
    for (const e of entries) {
      const t = stampOf(e.path);
      if (t === null || now - t <= r.ms) break;
      cut = e.end;
    }
  }
  if (r.bytes !== null) {
    let kept = 0;
    for (let k = entries.length - 1; k >= 0; k--) {
      kept += entries[k]!.byteEnd - entries[k]!.byteStart;
      if (kept > r.bytes) {
        cut = Math.max(cut, entries[k]!.end);
        break;
      }
    }
  }
  cut = Math.min(cut, applied);
  if (cut <= logStart) return null;
  const h = await d.meta.trimPartition(s.ns, s.id, partition, cut, { fence });
  return h.logStart;
}

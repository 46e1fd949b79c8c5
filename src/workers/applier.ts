// Applier and compaction of one collection (DESIGN §1), under the collection's lease.
//
// Applier: tail (applied offsets → heads) → a new data file (latest record per key, deletes
//   as tombstones) + a new manifest → casPointer(expected version, fence).
// Compaction: size-tiered (see COMPACT_*): merges a run of adjacent files of one tier into
//   one; a merge that includes the oldest file materialises the deletes (drops tombstones).
//   It runs beside the applier (a long merge must not hold up applying): both publish
//   through `publishRebased`, one at a time (the lock), on top of whatever manifest is
//   current — the applier prepends its file, compaction replaces its run if the run is still
//   there unchanged (else it gives up and the merged file is garbage for GC).
// Freshness (spec §3.2.4): objects reachable only through a manifest are protected by the
// GC grace period, so a round that took longer than its deadline (well below the grace)
// publishes nothing.
import type { MetaStore } from '../meta/contract.js';
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection, Fence } from '../meta/types.js';
import { isStoreError, type Store } from '../store/index.js';
import { OP_DELETE } from '../log/format.js';
import { compareKeys } from '../log/keys.js';
import type { LogReader, LogRecord } from '../log/reader.js';
import { buildDataFile, DataFileBuilder, type DataEntry, type DataFiles, type DataFileMeta } from '../collection/datafile.js';
import { MANIFEST_FORMAT, putCreateOnly, type Manifest, type Manifests, emptyManifest } from '../collection/manifest.js';
import { dataPath, manifestPath } from '../collection/paths.js';

const EMPTY = Buffer.alloc(0);

/** Records one apply round reads at most (all partitions together): bounds memory and time. */
export const MAX_APPLY_RECORDS = 64_000;
/**
 * Log bytes (stored chunk sizes) one apply round reads at most, all partitions together; at
 * least one chunk is read so a round always makes progress. A round holds what it read and
 * the data file it builds at once, so this bounds the worker's memory (64,000 records of
 * 1 KiB were 64 MiB read plus the file built from them).
 */
export const MAX_APPLY_BYTES = 16 * 1024 * 1024;
/**
 * Size-tiered compaction: a file's tier is floor(log_COMPACT_TIER_RATIO(bytes / COMPACT_BASE_BYTES));
 * a run of COMPACT_RUN adjacent files (in recency order) of one tier is merged into one file
 * of the next tier. Each byte is rewritten about once per tier (log₄ of the data size),
 * instead of the whole collection on every merge.
 */
export const COMPACT_BASE_BYTES = 1024 * 1024;
export const COMPACT_TIER_RATIO = 4;
export const COMPACT_RUN = 4;
/** Past this many files the newest half is merged whatever their tiers (bounds point-read fan-out). */
export const COMPACT_MAX_FILES = 24;
/** Entries one compaction reads at most (bounds a round's work; memory is bounded by the streaming merge). */
export const MAX_COMPACT_ENTRIES = 2_000_000;

export interface ApplyResult {
  /** Records applied in this round. */
  applied: number;
  /** Records still unapplied after it (the lag). */
  lag: number;
  compacted: boolean;
  /** The new pointer version, when one was published. */
  version?: number;
}

export interface ApplierDeps {
  meta: MetaStore;
  store: Store;
  log: LogReader;
  manifests: Manifests;
  files: DataFiles;
  /** A round older than this publishes nothing (must stay well below the GC grace). */
  roundDeadlineMs: number;
  /** MAX_APPLY_BYTES unless given (tests). */
  maxApplyBytes?: number;
}

/** Serialises the publishes of one collection's applier and compaction (same node, same lease). */
export type PublishLock = <T>(fn: () => Promise<T>) => Promise<T>;

export const noLock: PublishLock = (fn) => fn();

export class FenceLost extends Error {
  constructor(what: string) {
    super(`${what}: the lease moved to a newer epoch; this node stops the task`);
  }
}

export async function applyOnce(d: ApplierDeps, c: Collection, fence: Fence, lock: PublishLock = noLock): Promise<ApplyResult> {
  const started = Date.now();
  const h = await d.meta.collectionHead(c.ns, c.id);
  const m = h.pointer ? await d.manifests.load(h.pointer.value) : emptyManifest(c.ns, c.id, c.partitions);

  let budget = MAX_APPLY_RECORDS;
  const applied = [...m.applied];
  while (applied.length < c.partitions) applied.push(0);
  const latest = new Map<string, LogRecord>();
  let count = 0;
  let lag = 0;
  // Plan every partition's range within the budgets, then read them all at once.
  const ranges: { partition: number; from: number; to: number }[] = [];
  let bytes = d.maxApplyBytes ?? MAX_APPLY_BYTES;
  for (const x of h.heads) {
    const from = applied[x.partition] ?? 0;
    let to = Math.min(x.next, from + Math.max(0, budget));
    lag += x.next - from;
    if (to <= from) continue;
    if (bytes <= 0) continue;
    ({ to, bytes } = await withinBytes(d.log, c, x.partition, from, to, bytes, ranges.length === 0));
    if (to <= from) continue;
    ranges.push({ partition: x.partition, from, to });
    budget -= to - from;
  }
  if (ranges.length === 0) return { applied: 0, lag, compacted: false };
  const read = await Promise.all(ranges.map((r) => d.log.read(c.ns, c.streamId, r.partition, r.from, r.to)));
  ranges.forEach((r, i) => {
    for (const rec of read[i]!) latest.set(rec.key, rec); // keys are partition-exclusive; offset order
    applied[r.partition] = r.to;
    count += r.to - r.from;
  });

  const entries: DataEntry[] = [...latest.values()]
    .sort((a, b) => compareKeys(a.key, b.key))
    .map((r) => ({ key: r.key, tombstone: r.op === OP_DELETE, body: r.op === OP_DELETE ? EMPTY : r.body }));
  // A tombstone matters only if an older file may hold the key.
  const kept = m.files.length === 0 ? entries.filter((e) => !e.tombstone) : entries;
  let file: DataFileMeta | null = null;
  if (kept.length > 0) {
    const path = dataPath(c.ns, c.id, Date.now());
    const f = buildDataFile(path, kept);
    await putCreateOnly(d.store, path, f.bytes);
    file = f.meta;
  }
  const p = await publishRebased(d, c, fence, started, lock, (cur) => {
    // Only this task moves `applied` (under the lease): anything else means we were overtaken.
    if (cur.applied.some((a, i) => a !== (m.applied[i] ?? 0))) return null;
    return { applied, files: file ? [file, ...cur.files] : cur.files };
  });
  if (p === null) return { applied: 0, lag, compacted: false };
  return { applied: count, lag: lag - count, compacted: false, version: p.version };
}

/**
 * How far from `from` (up to `to`) a round reads within `bytes` of log, whole index entries
 * at a time; the first partition of a round gets at least one entry. Returns the new end and
 * the bytes left.
 */
async function withinBytes(log: LogReader, c: Collection, partition: number, from: number, to: number, bytes: number, first: boolean): Promise<{ to: number; bytes: number }> {
  const { entries, logStart } = await log.entries(c.ns, c.streamId, partition, from, to);
  // Nothing to plan with (trimmed past `from`): read() reports that.
  if (entries.length === 0 || logStart > from) return { to, bytes };
  let end = from;
  for (const e of entries) {
    const size = e.byteEnd - e.byteStart;
    if (size > bytes && !(first && end === from)) break;
    bytes -= size;
    end = Math.min(to, e.end);
    if (end >= to) break;
  }
  return { to: end, bytes };
}

/**
 * One compaction of the current manifest, if it has a run to merge (compactionRun).
 * True when a merged manifest was published.
 */
export async function compactOnce(d: ApplierDeps, c: Collection, fence: Fence, lock: PublishLock = noLock): Promise<boolean> {
  const started = Date.now();
  const ptr = await d.meta.pointer(c.ns, linkPointerKey(c.linkId));
  if (!ptr) return false;
  const m = await d.manifests.load(ptr.value);
  const run = compactionRun(m.files);
  if (!run) return false;
  const [start, end] = run;
  const merging = m.files.slice(start, end);
  const includesOldest = end === m.files.length;
  const merged = await mergeFiles(d, c, merging, includesOldest);
  if (merged === undefined) return false;
  const p = await publishRebased(d, c, fence, started, lock, (cur) => {
    // The applier only prepends files, so the run is still there, in order, unless another
    // compaction replaced it; and the oldest file stays the oldest.
    const at = cur.files.findIndex((f) => f.path === merging[0]!.path);
    if (at < 0 || merging.some((f, i) => cur.files[at + i]?.path !== f.path)) return null;
    if (includesOldest && at + merging.length !== cur.files.length) return null;
    return { applied: cur.applied, files: [...cur.files.slice(0, at), ...(merged ? [merged] : []), ...cur.files.slice(at + merging.length)] };
  });
  return p !== null;
}

/**
 * Under the lock: reads the current pointer and manifest, lets `next` derive the new
 * applied offsets and files from it (null: give up), writes the manifest and swings the
 * pointer under the fence.
 */
async function publishRebased(
  d: ApplierDeps,
  c: Collection,
  fence: Fence,
  started: number,
  lock: PublishLock,
  next: (cur: Manifest) => { applied: number[]; files: DataFileMeta[] } | null,
): Promise<{ version: number; path: string } | null> {
  return lock(async () => {
    // Too slow: our new objects may be past GC's grace by the time they are referenced.
    if (Date.now() - started > d.roundDeadlineMs) return null;
    const ptr = await d.meta.pointer(c.ns, linkPointerKey(c.linkId));
    const cur = ptr ? await d.manifests.load(ptr.value) : emptyManifest(c.ns, c.id, c.partitions);
    const n = next(cur);
    if (n === null) return null;
    const expected = ptr?.version ?? null;
    const version = (expected ?? 0) + 1;
    const manifest: Manifest = {
      format: MANIFEST_FORMAT,
      ns: c.ns,
      collection: c.id,
      version,
      created: Date.now(),
      partitions: c.partitions,
      applied: n.applied,
      files: n.files,
      parent: ptr?.value ?? null,
    };
    const path = manifestPath(c.ns, c.id, version, manifest.created);
    await d.manifests.write(path, manifest);
    try {
      await d.meta.casPointer(c.ns, linkPointerKey(c.linkId), expected, path, { fence });
    } catch (e) {
      if (isMetaError(e, 'FenceMismatch')) throw new FenceLost(`applier of collection ${c.id}`);
      if (isMetaError(e, 'VersionMismatch')) return null; // another node won; the next round re-reads
      throw e;
    }
    return { version, path };
  });
}

function tierOf(bytes: number): number {
  return Math.max(0, Math.floor(Math.log(Math.max(1, bytes / COMPACT_BASE_BYTES)) / Math.log(COMPACT_TIER_RATIO)));
}

/** The run [start, end) of files to merge, or null. Files are newest first; runs are adjacent, so recency order holds. */
export function compactionRun(files: DataFileMeta[]): [number, number] | null {
  if (files.length > COMPACT_MAX_FILES) return [0, Math.ceil(files.length / 2)];
  let start = 0;
  for (let i = 1; i <= files.length; i++) {
    if (i === files.length || tierOf(files[i]!.bytes) !== tierOf(files[start]!.bytes)) {
      if (i - start >= COMPACT_RUN) return [start, i];
      start = i;
    }
  }
  return null;
}

/**
 * Merges files (newest first) into one new data file, streaming: a k-way merge of the files'
 * scans (each in key order; on equal keys the newest file's entry wins) feeds a
 * DataFileBuilder whose blocks go straight to the store, so a merge holds about one block per
 * input file, never the files themselves. null when nothing is left (every entry was a
 * materialised delete); undefined when the merge is too big for one round, or the store
 * failed mid-write (the partial object is unreferenced: GC's to delete; the next round
 * tries again).
 */
async function mergeFiles(d: ApplierDeps, c: Collection, merging: DataFileMeta[], includesOldest: boolean): Promise<DataFileMeta | null | undefined> {
  const scans = merging.map((f) => d.files.scan(f)[Symbol.asyncIterator]());
  const heads: (DataEntry | undefined)[] = await Promise.all(scans.map(async (it) => (await it.next()).value as DataEntry | undefined));
  let read = 0;
  let tooBig = false;
  async function* merged(): AsyncGenerator<DataEntry> {
    for (;;) {
      let min: string | undefined;
      for (const h of heads) if (h && (min === undefined || compareKeys(h.key, min) < 0)) min = h.key;
      if (min === undefined) return;
      let winner: DataEntry | undefined;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i];
        if (!h || h.key !== min) continue;
        winner ??= h; // newest first: the first holder of the key wins
        if (++read > MAX_COMPACT_ENTRIES) {
          tooBig = true;
          return;
        }
        heads[i] = (await scans[i]!.next()).value as DataEntry | undefined;
      }
      if (includesOldest && winner!.tombstone) continue; // deletes materialised
      yield winner!;
    }
  }
  const entries = merged();
  const first = await entries.next();
  if (tooBig) return undefined;
  if (first.done) return null;
  const path = dataPath(c.ns, c.id, Date.now());
  const builder = new DataFileBuilder(path);
  let meta: DataFileMeta | undefined;
  async function* bytes(): AsyncGenerator<Uint8Array> {
    yield* builder.add(first.value);
    for await (const e of entries) yield* builder.add(e);
    if (tooBig) throw new MergeTooBig();
    const done = builder.finish();
    meta = done.meta;
    yield* done.tail;
  }
  try {
    await d.store.putStream(path, bytes(), { ifNoneMatch: '*' });
  } catch (e) {
    if (e instanceof MergeTooBig || (isStoreError(e) && e.retryable)) return undefined;
    throw e;
  }
  return meta;
}

class MergeTooBig extends Error {}

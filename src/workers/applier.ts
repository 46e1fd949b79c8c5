// Applier and compaction of one collection (DESIGN §1), under the collection's lease.
//
// Applier: tail (applied offsets → heads) → a new data file (latest record per key, deletes
//   as tombstones) + a new manifest → casPointer(expected version, fence).
// Compaction: when a manifest lists more than COMPACT_MAX_FILES files, merges the newest
//   files (size-tiered) into one; a merge that includes the oldest file materialises the
//   deletes (drops tombstones).
// Freshness (spec §3.2.4): objects reachable only through a manifest are protected by the
// GC grace period, so a round that took longer than its deadline (well below the grace)
// publishes nothing.
import type { MetaStore } from '../meta/contract.js';
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection, Fence } from '../meta/types.js';
import type { Store } from '../store/index.js';
import { OP_DELETE } from '../log/format.js';
import { compareKeys } from '../log/keys.js';
import type { LogReader, LogRecord } from '../log/reader.js';
import { buildDataFile, type DataEntry, type DataFiles, type DataFileMeta } from '../collection/datafile.js';
import { MANIFEST_FORMAT, putCreateOnly, type Manifest, type Manifests, emptyManifest } from '../collection/manifest.js';
import { dataPath, manifestPath } from '../collection/paths.js';

/** Records one apply round reads at most (all partitions together): bounds memory and time. */
export const MAX_APPLY_RECORDS = 200_000;
/** Compaction starts when a manifest lists more files than this. */
export const COMPACT_MAX_FILES = 8;
/** Size-tiering: an older file bigger than this × the newer files together is left out of a merge. */
export const COMPACT_SIZE_RATIO = 4;
/** Entries one compaction merges at most (bounds memory; larger merges wait for a streaming merge). */
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
}

export class FenceLost extends Error {
  constructor(what: string) {
    super(`${what}: the lease moved to a newer epoch; this node stops the task`);
  }
}

export async function applyOnce(d: ApplierDeps, c: Collection, fence: Fence): Promise<ApplyResult> {
  const started = Date.now();
  const h = await d.meta.collectionHead(c.ns, c.id);
  const m = h.pointer ? await d.manifests.load(h.pointer.value) : emptyManifest(c.ns, c.id, c.partitions);
  const expected = h.pointer?.version ?? null;
  const version = (expected ?? 0) + 1;

  let budget = MAX_APPLY_RECORDS;
  const applied = [...m.applied];
  while (applied.length < c.partitions) applied.push(0);
  const latest = new Map<string, LogRecord>();
  let count = 0;
  let lag = 0;
  for (const x of h.heads) {
    const from = applied[x.partition] ?? 0;
    const to = Math.min(x.next, from + Math.max(0, budget));
    lag += x.next - from;
    if (to <= from) continue;
    const recs = await d.log.read(c.ns, c.streamId, x.partition, from, to);
    for (const r of recs) latest.set(r.key, r); // keys are partition-exclusive; offset order
    applied[x.partition] = to;
    budget -= to - from;
    count += to - from;
  }

  let files = m.files;
  let compacted = false;
  if (count > 0) {
    const entries: DataEntry[] = [...latest.values()]
      .sort((a, b) => compareKeys(a.key, b.key))
      .map((r) => ({ key: r.key, tombstone: r.op === OP_DELETE, body: r.op === OP_DELETE ? '' : r.body }));
    // A tombstone matters only if an older file may hold the key.
    const kept = m.files.length === 0 ? entries.filter((e) => !e.tombstone) : entries;
    if (kept.length > 0) {
      const path = dataPath(c.ns, c.id, Date.now());
      const f = buildDataFile(path, kept);
      await putCreateOnly(d.store, path, f.bytes);
      files = [f.meta, ...files];
    }
  }
  if (files.length > COMPACT_MAX_FILES) {
    files = await compact(d, c, files);
    compacted = true;
  }
  if (count === 0 && !compacted) return { applied: 0, lag, compacted: false };

  if (Date.now() - started > d.roundDeadlineMs) {
    // Too slow: our new objects may be past GC's grace by the time they are referenced.
    return { applied: 0, lag, compacted: false };
  }
  const next: Manifest = {
    format: MANIFEST_FORMAT,
    ns: c.ns,
    collection: c.id,
    version,
    created: Date.now(),
    partitions: c.partitions,
    applied,
    files,
    parent: h.pointer?.value ?? null,
  };
  const path = manifestPath(c.ns, c.id, version, next.created);
  await d.manifests.write(path, next);
  try {
    await d.meta.casPointer(c.ns, linkPointerKey(c.linkId), expected, path, { fence });
  } catch (e) {
    if (isMetaError(e, 'FenceMismatch')) throw new FenceLost(`applier of collection ${c.id}`);
    if (isMetaError(e, 'VersionMismatch')) return { applied: 0, lag, compacted: false }; // another writer won; next round re-reads
    throw e;
  }
  return { applied: count, lag: lag - count, compacted, version };
}

/** Size-tiered merge of the newest files; returns the new file list (newest first). */
async function compact(d: ApplierDeps, c: Collection, files: DataFileMeta[]): Promise<DataFileMeta[]> {
  let j = files.length;
  const newer = (n: number) => files.slice(0, n).reduce((s, f) => s + f.bytes, 0);
  while (j > 2 && files[j - 1]!.bytes > COMPACT_SIZE_RATIO * newer(j - 1)) j--;
  const merging = files.slice(0, j);
  const includesOldest = j === files.length;
  const merged = new Map<string, DataEntry>();
  let total = 0;
  // Oldest first, so newer entries overwrite older ones.
  for (let i = merging.length - 1; i >= 0; i--) {
    for await (const e of d.files.scan(merging[i]!)) {
      merged.set(e.key, e);
      if (++total > MAX_COMPACT_ENTRIES) return files; // too big for an in-memory merge: leave as is
    }
  }
  let entries = [...merged.values()].sort((a, b) => compareKeys(a.key, b.key));
  if (includesOldest) entries = entries.filter((e) => !e.tombstone); // deletes materialised
  const rest = files.slice(j);
  if (entries.length === 0) return rest;
  const path = dataPath(c.ns, c.id, Date.now());
  const f = buildDataFile(path, entries);
  await putCreateOnly(d.store, path, f.bytes);
  return [f.meta, ...rest];
}

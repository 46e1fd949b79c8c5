// What a collection keeps in the bucket, for the storage quota (spec §6: "computed periodically
// from partition bytes and manifest sizes, including bytes held only by tags", §17 §4.3):
// the log its partitions retain, the data files and object of its current manifest, and the
// manifests and data files that only tags keep alive.
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import type { Manifest, Manifests } from './manifest.js';
import { unappliedBacklog } from './backlog.js';

/** Tags looked at per collection, at most (every loop a bound); more are not counted. */
export const MAX_MEASURED_TAGS = 1_000;

export interface StoredBytes {
  /** Log bytes the partitions retain (their heads). */
  log: number;
  /** Data files of the current manifest. */
  files: number;
  /** The current manifest object. */
  manifest: number;
  /** Tagged manifests other than the current one, and data files only they reference. */
  tagOnly: number;
  total: number;
  /** Records the log holds that the current manifest has not applied (from the same head and manifest). */
  unappliedRecords: number;
}

/** A manifest's object size: manifests are written as exactly this JSON (Manifests.write). */
function manifestBytes(m: Manifest): number {
  return Buffer.byteLength(JSON.stringify(m));
}

export async function storedBytes(meta: MetaStore, manifests: Manifests, c: Collection): Promise<StoredBytes> {
  const head = await meta.collectionHead(c.ns, c.id);
  let log = 0;
  for (const h of head.heads) log += h.bytes;
  let files = 0;
  let manifest = 0;
  let tagOnly = 0;
  const counted = new Set<string>();
  const current = head.pointer ? await manifests.load(head.pointer.value) : null;
  const unappliedRecords = unappliedBacklog(head.heads, current?.applied ?? []).records;
  if (head.pointer && current) {
    const m = current;
    counted.add(head.pointer.value);
    manifest = manifestBytes(m);
    for (const f of m.files) {
      counted.add(f.path);
      files += f.bytes;
    }
  }
  const tags = await meta.listTags(c.ns, c.id, { limit: MAX_MEASURED_TAGS });
  for (const t of tags.items) {
    if (counted.has(t.manifestPath)) continue;
    counted.add(t.manifestPath);
    const m = await manifests.load(t.manifestPath);
    tagOnly += manifestBytes(m);
    for (const f of m.files) {
      if (counted.has(f.path)) continue;
      counted.add(f.path);
      tagOnly += f.bytes;
    }
  }
  return { log, files, manifest, tagOnly, total: log + files + manifest + tagOnly, unappliedRecords };
}

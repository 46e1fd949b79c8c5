// The forced purge of one collection (spec §9.2, §9.5): every data file that holds an erased
// key is rewritten without it (the deletes materialised), a purged manifest replaces the
// current one, and every tagged manifest is rewritten onto a purged copy (the tag records
// the erasure). Keys are recognised by their keyed hash (the request holds nothing else), so
// every key of the manifest's files is hashed once per purge.
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection, Tag } from '../meta/types.js';
import type { MetaStore } from '../meta/contract.js';
import type { Store } from '../store/index.js';
import { DataFileBuilder, type DataEntry, type DataFileMeta, type DataFiles } from '../collection/datafile.js';
import { MANIFEST_FORMAT, type Manifest, type Manifests } from '../collection/manifest.js';
import { dataPath, manifestPath } from '../collection/paths.js';
import { keyHash } from './keys.js';
import type { RewrittenFile, RewrittenTag } from './record.js';

/** Tag pages one purge reads (pages of 1,000): more tags than this and the purge waits for a later pass. */
export const MAX_PURGE_TAG_PAGES = 10;

export interface PurgeDeps {
  meta: MetaStore;
  store: Store;
  manifests: Manifests;
  files: DataFiles;
}

/** What a set of key hashes matches: hashes every key it is asked about once. */
export class ErasedKeys {
  private readonly hashes: Set<string>;
  private readonly seen = new Map<string, boolean>();
  constructor(
    private readonly logKey: Buffer,
    hashes: readonly string[],
  ) {
    this.hashes = new Set(hashes);
  }
  has(key: string): boolean {
    let v = this.seen.get(key);
    if (v === undefined) {
      v = this.hashes.has(keyHash(this.logKey, key));
      if (this.seen.size < 1_000_000) this.seen.set(key, v);
    }
    return v;
  }
}

/**
 * A manifest's files with the erased keys purged. `keepReinserted` (the current manifest):
 * a key whose newest entry is a document was written again after the erasure's delete
 * (the manifest has applied the delete), so that newest document stays; every older entry
 * of it, and every entry of the other erased keys (documents and tombstones alike: keys may
 * be personal data), goes. `done` shares rewrites between manifests.
 */
export async function purgeFiles(
  d: PurgeDeps,
  c: Collection,
  files: readonly DataFileMeta[],
  erased: ErasedKeys,
  keepReinserted: boolean,
  done: Map<string, DataFileMeta | null>,
): Promise<{ files: DataFileMeta[]; rewritten: RewrittenFile[] }> {
  const newest = new Map<string, { file: number; tombstone: boolean }>();
  const holds = new Set<number>();
  for (let i = 0; i < files.length; i++) {
    if (done.has(`${files[i]!.path}|${keepReinserted}`)) {
      holds.add(i);
      continue;
    }
    for await (const e of d.files.scan(files[i]!)) {
      if (!erased.has(e.key)) continue;
      holds.add(i);
      if (!newest.has(e.key)) newest.set(e.key, { file: i, tombstone: e.tombstone });
    }
  }
  const out: DataFileMeta[] = [];
  const rewritten: RewrittenFile[] = [];
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    if (!holds.has(i)) {
      out.push(f);
      continue;
    }
    const k = `${f.path}|${keepReinserted}`;
    let to = done.get(k);
    if (to === undefined) {
      const keep = (e: DataEntry) => {
        if (!erased.has(e.key)) return true;
        const n = newest.get(e.key);
        return keepReinserted && n !== undefined && n.file === i && !n.tombstone;
      };
      to = await rewriteFile(d, c, f, keep);
      done.set(k, to);
    }
    rewritten.push({ from: f.path, to: to?.path ?? null });
    if (to) out.push(to);
  }
  return { files: out, rewritten };
}

/** A new data file of the entries `keep` accepts (streamed, like compaction's merge); null when none is left. */
async function rewriteFile(d: PurgeDeps, c: Collection, f: DataFileMeta, keep: (e: DataEntry) => boolean): Promise<DataFileMeta | null> {
  const it = d.files.scan(f)[Symbol.asyncIterator]();
  let first: DataEntry | undefined;
  for (;;) {
    const n = await it.next();
    if (n.done) break;
    if (keep(n.value)) {
      first = n.value;
      break;
    }
  }
  if (!first) return null;
  const path = dataPath(c.ns, c.id, Date.now());
  const builder = new DataFileBuilder(path);
  let meta: DataFileMeta | undefined;
  const start = first;
  async function* bytes(): AsyncGenerator<Uint8Array> {
    yield* builder.add(start);
    for (;;) {
      const n = await it.next();
      if (n.done) break;
      if (keep(n.value)) yield* builder.add(n.value);
    }
    const end = builder.finish();
    meta = end.meta;
    yield* end.tail;
  }
  await d.store.putStream(path, bytes(), { ifNoneMatch: '*' });
  return meta!;
}

/**
 * Publishes the purged manifest over the current one (a compare-and-swap on the pointer: an
 * applier or compaction that published meanwhile makes it VersionMismatch, and the next pass
 * purges again on top of theirs). null when it lost that race.
 */
export async function publishPurged(
  d: PurgeDeps,
  c: Collection,
  erased: ErasedKeys,
  done: Map<string, DataFileMeta | null>,
): Promise<{ version: number; path: string; replaced: string; rewritten: RewrittenFile[] } | null> {
  const key = linkPointerKey(c.linkId);
  const ptr = await d.meta.pointer(c.ns, key);
  if (!ptr) return null;
  const cur = await d.manifests.load(ptr.value);
  const p = await purgeFiles(d, c, cur.files, erased, true, done);
  const version = ptr.version + 1;
  const m: Manifest = { format: MANIFEST_FORMAT, ns: c.ns, collection: c.id, version, created: Date.now(), partitions: cur.partitions, applied: cur.applied, files: p.files, parent: ptr.value };
  const path = manifestPath(c.ns, c.id, version, m.created);
  await d.manifests.write(path, m);
  try {
    await d.meta.casPointer(c.ns, key, ptr.version, path);
  } catch (e) {
    if (isMetaError(e, 'VersionMismatch')) return null;
    throw e;
  }
  return { version, path, replaced: ptr.value, rewritten: p.rewritten };
}

/** The collection's tags (bounded; null when there are more than one purge reads). */
export async function allTags(meta: MetaStore, c: Collection): Promise<Tag[] | null> {
  const out: Tag[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_PURGE_TAG_PAGES; page++) {
    const t = await meta.listTags(c.ns, c.id, { limit: 1_000, ...(after !== undefined ? { after } : {}) });
    out.push(...t.items);
    if (!t.next) return out;
    after = t.next;
  }
  return null;
}

/**
 * Rewrites one tagged manifest onto a purged copy and moves the tag to it (spec §9.5),
 * recording the erasure on the tag. A tag whose manifest holds no erased key stays.
 */
export async function rewriteTagged(d: PurgeDeps, c: Collection, tag: Tag, erasureId: string, erased: ErasedKeys, done: Map<string, DataFileMeta | null>): Promise<RewrittenTag | null> {
  const m = await d.manifests.load(tag.manifestPath);
  const p = await purgeFiles(d, c, m.files, erased, false, done);
  if (p.rewritten.length === 0) return null;
  const copy: Manifest = { ...m, files: p.files, created: Date.now() };
  const path = manifestPath(c.ns, c.id, tag.manifestVersion, copy.created);
  await d.manifests.write(path, copy);
  await d.meta.rewriteTag(c.ns, c.id, tag.name, tag.manifestPath, path, erasureId);
  return { name: tag.name, fromVersion: tag.manifestVersion, fromPath: tag.manifestPath, toPath: path };
}

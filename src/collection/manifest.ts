// Manifests: one immutable object per version of a collection. It lists the collection's
// data files (newest first: a newer file's entry for a key hides older ones) and the
// applied offset per partition (exclusive: every log record below it is in the files).
// The collection's link pointer names the current manifest (DESIGN §1, casPointer).
import { isStoreError, type Store } from '../store/index.js';
import { dataErrors } from '../log/errors.js';
import { getWithRetry, Lru } from '../log/reader.js';
import type { DataFileMeta } from './datafile.js';

export const MANIFEST_FORMAT = 1;
/** Decoded manifests kept in memory (they are immutable, so a cache is always right). */
export const MANIFEST_CACHE_ENTRIES = 4_096;
/** A manifest's data files: compaction keeps far fewer; this bounds every loop over them. */
export const MAX_MANIFEST_FILES = 4_096;

export interface Manifest {
  format: typeof MANIFEST_FORMAT;
  ns: number;
  collection: number;
  /** The pointer version this manifest was written for. */
  version: number;
  /** When it was written (ms since the epoch). */
  created: number;
  partitions: number;
  /** Per partition: offsets below this are in the data files. */
  applied: number[];
  /** Newest first. */
  files: DataFileMeta[];
  /** The manifest this one replaced (null for the first). */
  parent: string | null;
}

export function emptyManifest(ns: number, collection: number, partitions: number): Manifest {
  return { format: MANIFEST_FORMAT, ns, collection, version: 0, created: 0, partitions, applied: new Array(partitions).fill(0), files: [], parent: null };
}

export class Manifests {
  private readonly cache = new Lru<Manifest>(MANIFEST_CACHE_ENTRIES);
  /** Drops a namespace's cached manifests (its key was destroyed, spec §9.8). */
  dropNamespace(ns: number): void {
    this.cache.deletePrefix(`ns/${ns}/`);
  }
  constructor(private readonly store: Store) {}

  async load(path: string): Promise<Manifest> {
    const hit = this.cache.get(path);
    if (hit) return hit;
    const got = await getWithRetry(this.store, path);
    let m: Manifest;
    try {
      m = JSON.parse(got.bytes.toString('utf8')) as Manifest;
    } catch {
      throw dataErrors.unavailable(`manifest ${path} is not valid JSON`);
    }
    if (m.format !== MANIFEST_FORMAT || !Array.isArray(m.applied) || !Array.isArray(m.files) || m.files.length > MAX_MANIFEST_FILES) {
      throw dataErrors.unavailable(`manifest ${path} has an unknown format`);
    }
    this.cache.set(path, m, 1);
    return m;
  }

  /** Drops these manifests from the cache (spec §9.4). */
  evict(paths: ReadonlySet<string>): number {
    return this.cache.evictPaths(paths);
  }

  /** Writes a manifest create-only (its path is unique) and caches it. */
  async write(path: string, m: Manifest): Promise<void> {
    await putCreateOnly(this.store, path, Buffer.from(JSON.stringify(m)));
    this.cache.set(path, m, 1);
  }
}

/** Create-only PUT with bounded retries; AlreadyExists after an unknown outcome is our own write. */
export async function putCreateOnly(store: Store, path: string, bytes: Buffer): Promise<void> {
  let unknown = false;
  const deadline = Date.now() + PUT_RETRY_DEADLINE_MS;
  for (let attempt = 0; ; attempt++) {
    try {
      await store.put(path, bytes, { ifNoneMatch: '*' });
      return;
    } catch (e) {
      if (isStoreError(e, 'AlreadyExists') && unknown) return;
      if (!isStoreError(e) || !e.retryable) throw e;
      unknown ||= e.details.outcomeUnknown !== false;
      const ms = Math.min(1_000, 20 * 2 ** attempt) * (0.5 + Math.random() / 2);
      if (Date.now() + ms >= deadline) throw dataErrors.unavailable(`writing ${path}: ${e.message}`);
      await new Promise((r) => setTimeout(r, ms));
    }
  }
}

/** How long a data-plane object PUT is retried. */
export const PUT_RETRY_DEADLINE_MS = 30_000;

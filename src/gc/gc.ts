// Garbage collection (spec §3.2.3, §3.2.4), under the cluster lease "gc".
//
// Every deletion is claimObject (atomic with "nothing references it", fenced by GC's lease)
// → purge (every version, on a versioned bucket: spec §9.9) → releaseClaim({ deleted: true }),
// after the object's grace period; a claimed path can never be referenced again, so a claim
// and a new reference serialise (whichever commits first makes the other fail). A GC that
// dies between claim and release leaves a claim at its epoch; the next GC's fenced claim
// takes it over and finishes the delete (contract: claimObject). A delete that fails with a
// retryable store error (a 503, a timeout) is tried again at once, a bounded number of times:
// a claimed WAL object leaves the retired list, so only the never-committed pass (past the
// commit window) would see it again. One that still fails keeps its claim for a later pass,
// never gives it back. What is collected:
//   - retired WAL objects (every chunk segmented or trimmed), and WAL objects that were
//     never committed once they are past the commit window (StaleCommit makes them dead);
//   - segments no index entry references (replaced or trimmed, or a lost swap);
//   - manifests below the retention floor (retained.ts) that no tag pins;
//   - data files below the floor that neither the floor's, the current nor a tagged
//     manifest lists.
// Retention is read before tags (spec §3.3): the pointer and the floor, then the tags.
import type { MetaStore } from '../meta/contract.js';
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import { MAX_CLOCK_SKEW_MS, WAL_COMMIT_WINDOW_MS } from '../meta/limits.js';
import type { Collection, Fence } from '../meta/types.js';
import { isStoreError, purge, type Store } from '../store/index.js';
import type { Manifests } from '../collection/manifest.js';
import { dataPrefix, manifestPrefix, manifestVersionOf, segmentPrefix, stampOf, WAL_PREFIX } from '../collection/paths.js';
import { liveRetentionFloor } from './retained.js';

/** Default grace: objects younger than this are never deleted (covers slow readers and writers). */
export const DEFAULT_GC_GRACE_MS = 10 * 60_000;
/** Listing pages one GC pass reads per prefix (bounds a pass; the next pass continues). */
export const MAX_GC_LIST_PAGES = 20;
export const GC_LIST_PAGE = 1_000;
/** Deletions one pass makes at most. */
export const MAX_GC_DELETES_PER_PASS = 5_000;
/** Janitor calls per dropped collection per pass (each deletes a bounded batch of entries). */
export const MAX_JANITOR_CALLS_PER_PASS = 50;
/** The shortest apply round deadline (see applyRoundDeadlineMs). */
export const MIN_APPLY_ROUND_DEADLINE_MS = 1_000;
/** Attempts of one claimed object's purge on retryable store errors, and the backoff cap between them. */
export const GC_PURGE_ATTEMPTS = 4;
const GC_PURGE_BACKOFF_MS = 200;

/**
 * How long an apply or compaction round may take before it publishes nothing: well below
 * the grace, so a data file is referenced, if ever, while it is younger than the grace
 * (spec §3.2.4), and never published later than this after it was written.
 */
export function applyRoundDeadlineMs(graceMs: number): number {
  return Math.max(MIN_APPLY_ROUND_DEADLINE_MS, graceMs / 2);
}

export interface GcDeps {
  meta: MetaStore;
  store: Store;
  manifests: Manifests;
  /** The claim owner: unique per GC epoch (gcOwner), so an older GC's release is refused. */
  owner: string;
  graceMs: number;
  /** GC's lease: every claim is fenced by it (contract: claimObject). */
  fence: Fence;
}

/** A claim owner for GC at one lease epoch. */
export function gcOwner(node: string, fence: Fence): string {
  return `${node}/gc@${fence.epoch}`;
}

export interface GcReport {
  deleted: string[];
  skipped: number;
  /**
   * Objects seen that are not collectable yet (younger than the grace, or at or above the
   * retention floor) but may become so: a later pass over the collection has work (the
   * dirty-driven scheduler re-checks it then, instead of every collection on a timer).
   */
  pending?: number;
}

/**
 * claim → purge → release(deleted). False when the object is referenced or claimed by a GC
 * of this epoch. A failure after the claim leaves the claim in place, to be resumed by this
 * epoch's next pass or taken over by the next epoch: never given back, since the purge
 * may have deleted some of the object (or a paused older GC may still delete it).
 */
export async function collect(d: GcDeps, path: string): Promise<boolean> {
  const c = await d.meta.claimObject(path, d.owner, { fence: d.fence });
  if (!c.claimed) return false;
  for (let attempt = 1; ; attempt++) {
    try {
      await purge(d.store, path);
      break;
    } catch (e) {
      if (!isStoreError(e) || !e.retryable || attempt >= GC_PURGE_ATTEMPTS) throw e;
      await new Promise((r) => setTimeout(r, Math.min(GC_PURGE_BACKOFF_MS, 20 * 2 ** attempt)));
    }
  }
  await d.meta.releaseClaim(path, d.owner, { deleted: true });
  return true;
}

async function* listAll(store: Store, prefix: string): AsyncGenerator<string> {
  let after: string | undefined;
  for (let page = 0; page < MAX_GC_LIST_PAGES; page++) {
    const r = await store.list(prefix, { limit: GC_LIST_PAGE, ...(after !== undefined ? { after } : {}) });
    for (const o of r.items) yield o.path;
    if (!r.next) return;
    after = r.next;
  }
}

function old(d: GcDeps, path: string, now: number, extra = 0): boolean {
  const t = stampOf(path);
  return t !== null && now - t > d.graceMs + extra;
}

/** WAL objects: retired ones after the grace; never-committed ones after the commit window. */
export async function gcWal(d: GcDeps, r: GcReport, now = Date.now()): Promise<void> {
  let after: string | undefined;
  for (let page = 0; page < MAX_GC_LIST_PAGES && r.deleted.length < MAX_GC_DELETES_PER_PASS; page++) {
    const p = await d.meta.retiredWalObjects({ limit: GC_LIST_PAGE, ...(after !== undefined ? { after } : {}) });
    for (const o of p.items) {
      if (now - o.retired <= d.graceMs) continue;
      if (await collect(d, o.path)) r.deleted.push(o.path);
      else r.skipped++;
    }
    if (!p.next) break;
    after = p.next;
  }
  // Never committed (a writer gave up): dead once no commit can succeed any more (D27).
  for await (const path of listAll(d.store, WAL_PREFIX)) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) break;
    if (!old(d, path, now, WAL_COMMIT_WINDOW_MS + MAX_CLOCK_SKEW_MS)) continue;
    // A claimed one is offered to collect too: a claim a dead GC left is taken over.
    const ref = await d.meta.objectRef(path);
    if (ref && ref.refs > 0) continue;
    if (await collect(d, path)) r.deleted.push(path);
  }
}

/** A collection's manifests, data files and its stream's segments. */
export async function gcCollection(d: GcDeps, c: Collection, r: GcReport, now = Date.now()): Promise<void> {
  // Retention first: the pointer and the floor (at the clock less the skew), then the tags (spec §3.3).
  const pointer = await d.meta.pointer(c.ns, linkPointerKey(c.linkId));
  const floor = pointer ? await liveRetentionFloor(d.meta, d.manifests, c, pointer, now) : null;
  const tagged = new Set<string>();
  let allTags = false;
  let after: string | undefined;
  for (let page = 0; page < MAX_GC_LIST_PAGES; page++) {
    const t = await d.meta.listTags(c.ns, c.id, { limit: GC_LIST_PAGE, ...(after !== undefined ? { after } : {}) });
    for (const tag of t.items) tagged.add(tag.manifestPath);
    if (!t.next) {
      allTags = true;
      break;
    }
    after = t.next;
  }
  if (allTags) await gcManifestsAndFiles(d, c, r, now, pointer?.value ?? null, floor, tagged);
  else r.skipped++; // more tags than one pass reads: deleting without all of them could drop a tagged file
  for await (const path of listAll(d.store, segmentPrefix(c.ns, c.streamId))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    if (!old(d, path, now)) {
      r.pending = (r.pending ?? 0) + 1;
      continue;
    }
    if (await d.meta.segmentReferenced(c.ns, c.streamId, path).catch((e) => (isMetaError(e, 'NotFound') ? false : Promise.reject(e)))) continue;
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
}

/**
 * Manifests below the floor that no tag names, and data files that no retained manifest can
 * list. A data file that a manifest at or above the floor lists is in the floor's manifest
 * or was published after it, so written at most one apply round deadline before that (plus
 * the skew between the two writers' clocks): files older than that and in none of the
 * floor's, the current or a tagged manifest are referenced by no retained manifest.
 */
async function gcManifestsAndFiles(
  d: GcDeps,
  c: Collection,
  r: GcReport,
  now: number,
  current: string | null,
  floor: { version: number; path: string } | null,
  tagged: Set<string>,
): Promise<void> {
  const referenced = new Set<string>();
  let filesBefore = Number.POSITIVE_INFINITY; // no pointer: only never-published files exist
  for (const m of [...new Set([current, floor?.path, ...tagged])]) {
    if (m === null || m === undefined) continue;
    const man = await d.manifests.load(m);
    for (const f of man.files) referenced.add(f.path);
    if (m === floor?.path) filesBefore = man.created - applyRoundDeadlineMs(d.graceMs) - 2 * MAX_CLOCK_SKEW_MS;
  }
  for await (const path of listAll(d.store, manifestPrefix(c.ns, c.id))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    if (tagged.has(path) || path === current) continue;
    if (!old(d, path, now)) {
      r.pending = (r.pending ?? 0) + 1;
      continue;
    }
    const version = manifestVersionOf(path);
    // At or above the floor: retained (or an attempt that lost its casPointer, kept until the floor passes it).
    if (version === null) continue;
    if (floor !== null && version >= floor.version) {
      r.pending = (r.pending ?? 0) + 1;
      continue;
    }
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
  for await (const path of listAll(d.store, dataPrefix(c.ns, c.id))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    const t = stampOf(path);
    if (referenced.has(path) || t === null) continue;
    if (!old(d, path, now) || t >= filesBefore) {
      r.pending = (r.pending ?? 0) + 1;
      continue;
    }
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
}

/**
 * A dropped collection: every manifest, data file and segment under its prefixes once past
 * the grace (claims refuse anything still referenced). True when nothing is left.
 */
export async function gcDropped(d: GcDeps, c: Pick<Collection, 'ns' | 'id' | 'streamId'>, r: GcReport, now = Date.now()): Promise<boolean> {
  // First the metastore's janitor: it deletes the dropped stream's index entries, releasing
  // their objects (WAL objects retire, segments become claimable), then the records.
  if (d.meta.capabilities().transactions === 'multi-item') {
    let done = false;
    for (let i = 0; i < MAX_JANITOR_CALLS_PER_PASS && !done; i++) done = (await d.meta.janitor(c.ns)).done;
    if (!done) return false;
  }
  let left = 0;
  for (const prefix of [manifestPrefix(c.ns, c.id), dataPrefix(c.ns, c.id), segmentPrefix(c.ns, c.streamId)]) {
    for await (const path of listAll(d.store, prefix)) {
      if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return false;
      if (!old(d, path, now)) {
        left++;
        continue;
      }
      if (await collect(d, path)) r.deleted.push(path);
      else left++;
    }
  }
  return left === 0;
}

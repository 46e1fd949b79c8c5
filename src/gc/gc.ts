// Garbage collection (spec §3.2.3, §3.2.4), under the cluster lease "gc".
//
// Every deletion is claimObject (atomic with "nothing references it") → delete → 
// releaseClaim({ deleted: true }), after the object's grace period; a claimed path can never
// be referenced again, so a claim and a new reference serialise (whichever commits first
// makes the other fail). What is collected:
//   - retired WAL objects (every chunk segmented or trimmed), and WAL objects that were
//     never committed once they are past the commit window (StaleCommit makes them dead);
//   - segments no index entry references (replaced or trimmed, or a lost swap);
//   - manifests past the time-travel retention that no tag pins, and manifests that never
//     became current;
//   - data files no retained (or tagged) manifest references.
// Retention is read before tags (spec §3.3): the pointer, then the tags.
import type { MetaStore } from '../meta/contract.js';
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import { MAX_CLOCK_SKEW_MS, WAL_COMMIT_WINDOW_MS } from '../meta/limits.js';
import type { Collection } from '../meta/types.js';
import type { Store } from '../store/index.js';
import type { Manifests } from '../collection/manifest.js';
import { dataPrefix, manifestPrefix, segmentPrefix, stampOf, WAL_PREFIX } from '../collection/paths.js';

/** Default grace: objects younger than this are never deleted (covers slow readers and writers). */
export const DEFAULT_GC_GRACE_MS = 10 * 60_000;
/** Listing pages one GC pass reads per prefix (bounds a pass; the next pass continues). */
export const MAX_GC_LIST_PAGES = 20;
export const GC_LIST_PAGE = 1_000;
/** Manifests walked back along the parent chain to find the retained ones. */
export const MAX_CHAIN_WALK = 10_000;
/** Deletions one pass makes at most. */
export const MAX_GC_DELETES_PER_PASS = 5_000;
/** Janitor calls per dropped collection per pass (each deletes a bounded batch of entries). */
export const MAX_JANITOR_CALLS_PER_PASS = 50;

export interface GcDeps {
  meta: MetaStore;
  store: Store;
  manifests: Manifests;
  owner: string;
  graceMs: number;
}

export interface GcReport {
  deleted: string[];
  skipped: number;
}

/** claim → delete → release(deleted). False when the object is referenced or claimed elsewhere. */
export async function collect(d: GcDeps, path: string): Promise<boolean> {
  const c = await d.meta.claimObject(path, d.owner);
  if (!c.claimed) return false;
  try {
    await d.store.delete(path);
  } catch (e) {
    await d.meta.releaseClaim(path, d.owner, { deleted: false }).catch(() => undefined);
    throw e;
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
    const ref = await d.meta.objectRef(path);
    if (ref && (ref.refs > 0 || ref.claim)) continue;
    if (await collect(d, path)) r.deleted.push(path);
  }
}

/** A collection's manifests, data files and its stream's segments. */
export async function gcCollection(d: GcDeps, c: Collection, r: GcReport, now = Date.now()): Promise<void> {
  // Retention first: the pointer and the clock (less the skew bound), then the tags (spec §3.3).
  const pointer = await d.meta.pointer(c.ns, linkPointerKey(c.linkId));
  const clock = now - MAX_CLOCK_SKEW_MS;
  const retained = new Set<string>();
  if (pointer) {
    retained.add(pointer.value);
    let cur = await d.manifests.load(pointer.value);
    for (let i = 0; i < MAX_CHAIN_WALK && cur.parent; i++) {
      // cur.parent was superseded when cur was created.
      if (clock - cur.created > c.manifestRetentionMs) break;
      retained.add(cur.parent);
      cur = await d.manifests.load(cur.parent);
    }
  }
  let after: string | undefined;
  for (let page = 0; page < MAX_GC_LIST_PAGES; page++) {
    const t = await d.meta.listTags(c.ns, c.id, { limit: GC_LIST_PAGE, ...(after !== undefined ? { after } : {}) });
    for (const tag of t.items) retained.add(tag.manifestPath);
    if (!t.next) break;
    after = t.next;
  }
  const referenced = new Set<string>();
  for (const m of retained) {
    for (const f of (await d.manifests.load(m)).files) referenced.add(f.path);
  }
  for await (const path of listAll(d.store, manifestPrefix(c.ns, c.id))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    if (retained.has(path) || !old(d, path, now)) continue;
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
  for await (const path of listAll(d.store, dataPrefix(c.ns, c.id))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    if (referenced.has(path) || !old(d, path, now)) continue;
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
  for await (const path of listAll(d.store, segmentPrefix(c.ns, c.streamId))) {
    if (r.deleted.length >= MAX_GC_DELETES_PER_PASS) return;
    if (!old(d, path, now)) continue;
    if (await d.meta.segmentReferenced(c.ns, c.streamId, path).catch((e) => (isMetaError(e, 'NotFound') ? false : Promise.reject(e)))) continue;
    if (await collect(d, path)) r.deleted.push(path);
    else r.skipped++;
  }
}

/**
 * A dropped collection: every manifest, data file and segment under its prefixes once past
 * the grace (claims refuse anything still referenced). True when nothing is left.
 */
export async function gcDropped(d: GcDeps, c: Collection, r: GcReport, now = Date.now()): Promise<boolean> {
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

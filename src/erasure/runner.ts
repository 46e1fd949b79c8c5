// The erasure task (spec §9.2–§9.4, §9.9): one per erasure, under its lease, advancing the
// row's phase one step per pass — so a node that dies mid-way leaves the row at its last
// finished step, and the next lease holder redoes only the step in progress (each step is
// idempotent: rewrites are found again by hash, trims never move back, deletes of deleted
// objects are no-ops).
//
//   requested   wait until the current manifest has applied the delete (its offsets)
//   purging     purged data files and manifest published; tagged manifests rewritten; every
//               manifest below the purged version released (time travel before the erasure
//               point ends now, overriding the collection's retention)
//   trimming    the stream trimmed past the erasure offsets (to the next entry boundary);
//               trimmed segments and the WAL objects that held the erased records retire
//   collecting  after the GC grace, every retired object deleted in every version and delete
//               marker (store purge), once nothing references it: WAL objects wait until all
//               their chunks are segmented or trimmed; unreferenced data files older than the
//               purge (orphans of abandoned rounds) go too; done when a version listing shows
//               none of them left
//   evicting    every live node dropped them from its caches (the node's eviction pass)
//   complete    the completion record written (ControlStore row and completion.rec)
import type { MetaStore } from '../meta/contract.js';
import { linkPointerKey } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection } from '../meta/types.js';
import { isStoreError, purge, type Store } from '../store/index.js';
import type { DataFileMeta, DataFiles } from '../collection/datafile.js';
import type { Manifests } from '../collection/manifest.js';
import { dataPrefix, manifestPrefix, manifestVersionOf, stampOf } from '../collection/paths.js';
import type { LogReader } from '../log/reader.js';
import type { Leases } from '../workers/lease.js';
import type { ControlStore, ErasureRow } from '../control/types.js';
import { ErasureLogKeys } from './keys.js';
import { allTags, ErasedKeys, publishPurged, rewriteTagged, type PurgeDeps } from './purge.js';
import {
  completionRecordPath,
  dataOf,
  MAX_ERASURE_OBJECTS,
  requestRecord,
  requestRecordPath,
  writeRecordOnce,
  type ErasureData,
  type ErasurePhase,
} from './record.js';

/** How often a node looks at the active erasures, by default. */
export const DEFAULT_ERASURE_INTERVAL_MS = 5_000;
/** Active erasures one pass looks at (pages of MAX_ERASURE_PAGE). */
export const MAX_ERASURE_PAGES = 10;
/** Pointer versions above the purged one whose manifests a collect pass reads (their files stay). */
export const MAX_HISTORY_VERSIONS = 10_000;
/** Listing pages of a collection's prefix one pass reads. */
export const MAX_LIST_PAGES = 100;

export interface RunnerDeps {
  meta: MetaStore;
  store: Store;
  control: ControlStore;
  keys: ErasureLogKeys;
  manifests: Manifests;
  files: DataFiles;
  log: LogReader;
  leases: Leases;
  /** This node's id (its eviction acknowledgement). */
  node: string;
  graceMs: number;
  /** Whether this node advances erasures (the worker role) or only evicts what they retired. */
  steps: boolean;
  /** Drops retired objects from every cache of this node (its reader, its worker thread). */
  evict: (paths: string[]) => void;
  /** The nodes that must evict before an erasure completes (live members; this node when there is no membership). */
  members: () => Promise<string[]>;
  onError?: (e: unknown) => void;
}

export class ErasureRunner {
  private readonly purgeDeps: PurgeDeps;
  constructor(private readonly d: RunnerDeps) {
    this.purgeDeps = { meta: d.meta, store: d.store, manifests: d.manifests, files: d.files };
  }

  /** One pass over the active erasures: eviction for all of them, then a step of each whose lease this node holds. */
  async pass(): Promise<void> {
    let after: string | undefined;
    for (let page = 0; page < MAX_ERASURE_PAGES; page++) {
      const p = await this.d.control.listErasures({ active: true, ...(after ? { after } : {}) });
      for (const row of p.items) {
        try {
          await this.evictOwn(row);
          if (!this.d.steps) continue;
          const fence = await this.d.leases.hold(row.ns, `erasure/${row.id}`);
          if (fence) await this.step(row);
        } catch (e) {
          this.d.onError?.(e);
        }
      }
      if (!p.next) return;
      after = p.next;
    }
  }

  async releaseLeases(): Promise<void> {
    await this.d.leases.releaseAll();
  }

  /** Runs one erasure to completion (tests, `loam erasures` tools), at most `passes` steps `everyMs` apart. */
  async untilComplete(id: string, passes: number, everyMs: number): Promise<ErasureRow> {
    for (let i = 0; i < passes; i++) {
      const row = await this.d.control.erasure(id);
      if (row.phase === 'complete') return row;
      await this.evictOwn(row);
      await this.step(row);
      await new Promise((r) => setTimeout(r, everyMs));
    }
    return this.d.control.erasure(id);
  }

  /** Advances an erasure by one phase where it can; saves what it did (compare-and-swap on the row). */
  async step(row: ErasureRow): Promise<ErasureRow> {
    const d = dataOf(row);
    await writeRecordOnce(this.d.store, requestRecordPath(row.org, row.id), requestRecord(row));
    const c = await this.d.meta.collection(row.ns, row.collection, { includeDropping: true }).catch((e) => (isMetaError(e, 'NotFound') ? null : Promise.reject(e)));
    const phase = row.phase as ErasurePhase;
    let next: ErasurePhase = phase;
    let waiting: string | null = null;
    if (!c) {
      // The collection is gone: its drop deletes every object under its prefix; what is left is the stream's WAL objects.
      waiting = null;
    }
    switch (phase) {
      case 'requested': {
        if (!c) {
          next = 'collecting';
          break;
        }
        const h = await this.d.meta.collectionHead(c.ns, c.id);
        const m = h.pointer ? await this.d.manifests.load(h.pointer.value) : null;
        const behind = d.offsets.filter((o) => (m?.applied[o.partition] ?? 0) < o.offset);
        if (behind.length > 0) waiting = `the applier has not yet applied the delete in partition(s) ${behind.map((o) => o.partition).join(', ')}`;
        else {
          d.purgeStarted = Date.now();
          next = 'purging';
        }
        break;
      }
      case 'purging': {
        if (!c) {
          next = 'collecting';
          break;
        }
        const w = await this.purge(row, d, c);
        if (w) waiting = w;
        else next = 'trimming';
        break;
      }
      case 'trimming': {
        if (!c) {
          next = 'collecting';
          break;
        }
        const w = await this.trim(d, c);
        if (w) waiting = w;
        else next = 'collecting';
        break;
      }
      case 'collecting': {
        const w = await this.collect(row, d, c);
        if (w) waiting = w;
        else next = 'evicting';
        break;
      }
      case 'evicting': {
        const need = await this.d.members();
        const missing = need.filter((n) => !d.evictedBy.includes(n));
        if (missing.length > 0) waiting = `node(s) ${missing.join(', ')} have not dropped the retired objects from their caches yet`;
        else next = 'complete';
        break;
      }
      case 'complete':
        return row;
    }
    d.waiting = waiting;
    if (next !== phase) d.updated = Date.now();
    const completed = next === 'complete' ? Date.now() : null;
    if (completed !== null) {
      await writeRecordOnce(this.d.store, completionRecordPath(row.org, row.id), {
        format: 1,
        id: row.id,
        org: row.org,
        requested: row.requested,
        completed,
        rewritten: d.rewritten,
        tags: d.tags,
        retired: d.retire,
        orphansDeleted: d.orphansDeleted,
      });
    }
    return this.d.control.updateErasure(row.id, row.version, { phase: next, completed, data: JSON.stringify(d) });
  }

  /** The purge step; a reason to wait, or null once done. */
  private async purge(row: ErasureRow, d: ErasureData, c: Collection): Promise<string | null> {
    const logKey = await this.d.keys.version(row.org, d.keyVersion);
    const erased = new ErasedKeys(logKey, d.keyHashes);
    const done = new Map<string, DataFileMeta | null>();
    const tags = await allTags(this.d.meta, c);
    if (tags === null) return 'the collection has more tags than one purge pass reads';
    const p = await publishPurged(this.purgeDeps, c, erased, done);
    if (!p) return 'another writer published a manifest meanwhile; purging again on top of it';
    d.purgedVersion = p.version;
    d.purgedManifest = p.path;
    d.rewritten = p.rewritten;
    const retire = new Set<string>(p.rewritten.map((r) => r.from));
    for (const tag of tags) {
      if (tag.manifestVersion >= p.version) continue; // tagged after the purge: nothing erased in it
      const t = await rewriteTagged(this.purgeDeps, c, tag, row.id, erased, done);
      if (t) {
        d.tags.push(t);
        retire.add(t.fromPath);
      }
    }
    for (const r of d.rewritten) if (r.from) retire.add(r.from);
    for (const f of done.keys()) retire.add(f.slice(0, f.lastIndexOf('|')));
    // Time travel before the erasure point ends: every manifest below the purged version
    // (and a losing attempt at it), except the current one and the tags' purged copies.
    const keep = new Set<string>([p.path, ...tags.map((t) => t.manifestPath), ...d.tags.map((t) => t.toPath)]);
    for await (const path of listPaths(this.d.store, manifestPrefix(c.ns, c.id))) {
      const v = manifestVersionOf(path);
      if (v !== null && v <= p.version && !keep.has(path)) retire.add(path);
    }
    for (const t of d.tags) keep.delete(t.fromPath);
    for (const path of [...retire]) if (keep.has(path)) retire.delete(path);
    d.retire = boundList([...retire]);
    return null;
  }

  /** Trims each partition past its erasure offset; a reason to wait, or null once done. */
  private async trim(d: ErasureData, c: Collection): Promise<string | null> {
    const h = await this.d.meta.collectionHead(c.ns, c.id);
    const m = h.pointer ? await this.d.manifests.load(h.pointer.value) : null;
    const retire = new Set(d.retire);
    for (const o of d.offsets) {
      const { entries, logStart } = await this.d.log.entries(c.ns, c.streamId, o.partition, 0, o.offset);
      // The entry holding offset-1 ends at the first boundary at or past the offset.
      const cut = entries.reduce((acc, e) => (e.start < o.offset ? Math.max(acc, e.end) : acc), logStart);
      if ((m?.applied[o.partition] ?? 0) < cut) return `the applier has not yet applied partition ${o.partition} up to ${cut}`;
      for (const e of entries) if (e.end <= cut) retire.add(e.path);
      if (cut > logStart) await this.d.meta.trimPartition(c.ns, c.streamId, o.partition, cut);
      d.trimmed = [...d.trimmed.filter((t) => t.partition !== o.partition), { partition: o.partition, logStart: Math.max(cut, logStart) }];
    }
    d.retire = boundList([...retire]);
    return null;
  }

  /** Deletes what the erasure retired (every version); a reason to wait, or null once nothing of it is left. */
  private async collect(row: ErasureRow, d: ErasureData, c: Collection | null): Promise<string | null> {
    const since = d.purgeStarted ?? row.requested;
    if (Date.now() - since <= this.d.graceMs) return `the GC grace (${this.d.graceMs} ms) has not passed since the purge`;
    const owner = `erasure/${row.id}`;
    let waiting: string | null = null;
    const targets = [...d.retire];
    const orphans = new Set<string>();
    if (c && d.purgedVersion !== null) {
      // A tag made on a released version while the purge ran (createTag takes any retained
      // version): its manifest is rewritten now too, or it would hold the erased keys.
      const tags = await allTags(this.d.meta, c);
      for (const tag of tags ?? []) {
        if (tag.manifestVersion >= d.purgedVersion || tag.rewrittenBy === row.id || !d.retire.includes(tag.manifestPath)) continue;
        const logKey = await this.d.keys.version(row.org, d.keyVersion);
        const t = await rewriteTagged(this.purgeDeps, c, tag, row.id, new ErasedKeys(logKey, d.keyHashes), new Map());
        if (t) d.tags.push(t);
      }
      // Orphans: data files older than the purge that no manifest from the purged one on, and no tag, lists.
      const referenced = await this.referencedSince(c, d.purgedVersion);
      if (referenced === null) waiting = 'more manifests since the purge than one pass reads';
      else {
        for await (const path of listPaths(this.d.store, dataPrefix(c.ns, c.id))) {
          const t = stampOf(path);
          if (t !== null && t < since && !referenced.has(path) && !d.retire.includes(path)) {
            targets.push(path);
            orphans.add(path);
          }
        }
      }
    }
    const deleted = new Set(d.deleted);
    for (const path of targets) {
      if (deleted.has(path)) continue;
      const ref = await this.d.meta.objectRef(path);
      if (ref && ref.refs > 0) {
        waiting ??= `${path} is still referenced (a WAL object waits until all its chunks are segmented or trimmed)`;
        continue;
      }
      if (!ref?.claim) {
        const cl = await this.d.meta.claimObject(path, owner);
        if (cl.claimed) {
          await purge(this.d.store, path);
          await this.d.meta.releaseClaim(path, owner, { deleted: true });
        }
      } else if (ref.claim.owner === owner) {
        await purge(this.d.store, path);
        await this.d.meta.releaseClaim(path, owner, { deleted: true });
      }
      // Claimed by GC: it deletes every version too; the listing below says when.
      if (await this.gone(path)) {
        if (orphans.has(path)) d.orphansDeleted++;
        else deleted.add(path);
      } else waiting ??= `${path} still has versions in the bucket`;
    }
    d.deleted = boundList([...deleted]);
    return waiting;
  }

  /** Whether no version or delete marker of `path` is left (spec §9.9: a version listing decides). */
  private async gone(path: string): Promise<boolean> {
    if (await this.d.store.versioning()) {
      const p = await this.d.store.listVersions(path, { limit: 1_000 });
      return !p.items.some((v) => v.path === path);
    }
    try {
      await this.d.store.head(path);
      return false;
    } catch (e) {
      if (isStoreError(e, 'NotFound')) return true;
      throw e;
    }
  }

  /** Data files that a manifest from `version` up to the current one, or a tag, lists; null past MAX_HISTORY_VERSIONS. */
  private async referencedSince(c: Collection, version: number): Promise<Set<string> | null> {
    const key = linkPointerKey(c.linkId);
    const ptr = await this.d.meta.pointer(c.ns, key);
    if (!ptr) return new Set();
    if (ptr.version - version > MAX_HISTORY_VERSIONS) return null;
    const out = new Set<string>();
    const add = async (path: string) => {
      const m = await this.d.manifests.load(path).catch((e) => (isStoreError(e, 'NotFound') ? null : Promise.reject(e)));
      for (const f of m?.files ?? []) out.add(f.path);
    };
    for (let v = version; v < ptr.version; v++) {
      const pv = await this.d.meta.pointerVersion(c.ns, key, v);
      if (pv) await add(pv.value);
    }
    await add(ptr.value);
    const tags = await allTags(this.d.meta, c);
    if (tags === null) return null;
    for (const t of tags) await add(t.manifestPath);
    return out;
  }

  /** This node's eviction: once an erasure is collecting or later, drop its retired objects here and say so on the row. */
  async evictOwn(row: ErasureRow): Promise<void> {
    if (row.phase !== 'evicting') return;
    const d = dataOf(row);
    if (d.evictedBy.includes(this.d.node)) return;
    const paths = [...d.retire, ...(d.purgedManifest ? [] : [])];
    this.d.evict(paths);
    const set = new Set(paths);
    this.d.manifests.evict(set);
    this.d.files.evict(set);
    this.d.log.evict(set);
    for (let attempt = 0; attempt < 5; attempt++) {
      const cur = await this.d.control.erasure(row.id);
      const cd = dataOf(cur);
      if (cd.evictedBy.includes(this.d.node)) return;
      cd.evictedBy.push(this.d.node);
      try {
        await this.d.control.updateErasure(cur.id, cur.version, { phase: cur.phase, completed: cur.completed, data: JSON.stringify(cd) });
        return;
      } catch (e) {
        if (!isMetaError(e, 'VersionMismatch')) throw e;
      }
    }
  }
}

function boundList(xs: string[]): string[] {
  if (xs.length > MAX_ERASURE_OBJECTS) throw new Error(`an erasure retires more than ${MAX_ERASURE_OBJECTS} objects (MAX_ERASURE_OBJECTS); split it into smaller erasures`);
  return xs;
}

async function* listPaths(store: Store, prefix: string): AsyncGenerator<string> {
  let after: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const r = await store.list(prefix, { limit: 1_000, ...(after !== undefined ? { after } : {}) });
    for (const o of r.items) yield o.path;
    if (!r.next) return;
    after = r.next;
  }
}

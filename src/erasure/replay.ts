// Restore order (spec §9.6): before a node serves, the union of the ControlStore's erasure
// rows and the bucket's _erasure/ request records is loaded, and every erasure the restored
// metastore does not know — one newer than the restored data — is replayed: its keys are
// found again by their hashes among the collection's documents, deleted (hidden at once, as
// the original erase did), and its row recreated, so the purge runs again. A node that
// cannot read either source refuses to serve (startNode fails).
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Store } from '../store/index.js';
import type { CollectionReader } from '../collection/reader.js';
import type { CollectionWriter } from '../collection/writer.js';
import type { ControlStore } from '../control/types.js';
import { ErasureLogKeys } from './keys.js';
import { ErasedKeys } from './purge.js';
import { typedKeys } from './service.js';
import { ERASURE_LOG_PREFIX, ERASURE_RECORD_FORMAT, readRecord, type ErasureData, type RequestRecord } from './record.js';

/** Listing pages of _erasure/ a start reads (pages of 1,000 objects). */
export const MAX_REPLAY_LIST_PAGES = 1_000;
/**
 * Query pages a replay scans per collection, at most: each of up to 1,000 documents and
 * MAX_QUERY_PAGE_BYTES of them (10 million documents, or 160 GiB of the largest ones).
 */
export const MAX_REPLAY_SCAN_PAGES = 10_000;

export interface ReplayDeps {
  meta: MetaStore;
  store: Store;
  control: ControlStore;
  keys: ErasureLogKeys;
  reader: CollectionReader | null;
  writer: CollectionWriter | null;
}

export class ReplayRefused extends Error {}

/** Replays the erasures the ControlStore lacks; the ids replayed. Throws (refusing to serve) when a source cannot be read. */
export async function replayErasures(d: ReplayDeps): Promise<string[]> {
  const replayed: string[] = [];
  let after: string | undefined;
  for (let page = 0; page < MAX_REPLAY_LIST_PAGES; page++) {
    const p = await d.store.list(ERASURE_LOG_PREFIX, { limit: 1_000, ...(after !== undefined ? { after } : {}) });
    for (const o of p.items) {
      if (!o.path.endsWith('/request.rec')) continue;
      const rec = await readRecord<RequestRecord>(d.store, o.path);
      if (!rec) continue;
      try {
        await d.control.erasure(rec.id);
        continue; // known: the runner carries it on
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e;
      }
      await replayOne(d, rec);
      replayed.push(rec.id);
    }
    if (!p.next) break;
    after = p.next;
  }
  return replayed;
}

async function replayOne(d: ReplayDeps, rec: RequestRecord): Promise<void> {
  let offsets: { partition: number; offset: number }[] = [];
  const c = await d.meta.collection(rec.ns, rec.collection).catch((e) => (isMetaError(e, 'NotFound') ? null : Promise.reject(e)));
  if (c) {
    const erased = new ErasedKeys(await d.keys.version(rec.org, rec.keyVersion), rec.keyHashes);
    if (!d.reader || !d.writer) throw new ReplayRefused(`erasure ${rec.id} must be replayed before serving, and this node lacks the log and query roles to do it`);
    const found: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < MAX_REPLAY_SCAN_PAGES; page++) {
      const r = await d.reader.query(c, { limit: 1_000, consistency: 'strong', ...(cursor ? { cursor } : {}) });
      for (const doc of r.documents) if (erased.has(doc.key)) found.push(doc.key);
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    if (found.length > 0) await d.writer.write(c, { deletes: typedKeys(c, found) });
    // The restored log may hold the erased records anywhere below its heads: the erasure offset is the heads (after the delete).
    const h = await d.meta.collectionHead(c.ns, c.id);
    offsets = h.heads.filter((x) => x.next > 0).map((x) => ({ partition: x.partition, offset: x.next }));
  }
  const now = Date.now();
  const data: ErasureData = {
    format: ERASURE_RECORD_FORMAT,
    stream: rec.stream,
    keyVersion: rec.keyVersion,
    keyHashes: rec.keyHashes,
    offsets,
    deadline: rec.deadline,
    purgeStarted: null,
    purgedVersion: null,
    purgedManifest: null,
    rewritten: [],
    tags: [],
    trimmed: [],
    retire: [],
    deleted: [],
    orphansDeleted: 0,
    evictedBy: [],
    updated: now,
    waiting: 'replayed after a restore',
  };
  await d.control.createErasure({ id: rec.id, org: rec.org, ns: rec.ns, collection: rec.collection, phase: c ? 'requested' : 'complete', requested: rec.requested, completed: c ? null : now, data: JSON.stringify(data) });
}

// What the status page knows about a collection's progress, read where the cluster keeps it:
// the collection head (partition heads, spec §3.3) against the current manifest's applied
// offsets gives the backlog and the lag of every partition; the manifest's creation is the
// last apply; this node's workers add when they last ran a round on it. One head read and
// one (cached, immutable) manifest per collection, at most STATUS_CONCURRENCY at a time.
import type { MetaStore } from '../meta/contract.js';
import type { Collection, PartitionHead } from '../meta/types.js';
import type { Manifests } from '../collection/manifest.js';
import { unappliedBacklog, type Backlog } from '../collection/backlog.js';

/** Collections whose status is read at once for one page. */
export const STATUS_CONCURRENCY = 8;

export interface CollectionStatus {
  backlog: Backlog;
  heads: PartitionHead[];
  /** The current manifest's applied offset per partition (all 0 before the first apply). */
  applied: readonly number[];
  /** The largest backlog of one partition (records). */
  maxPartitionLag: number;
  /** The current manifest: its version, when it was written (the last apply) and its data files. */
  manifest: { version: number; created: number; files: number; fileBytes: number } | null;
  /** This node's workers' last apply round on the collection, when they ran one lately. */
  worker: { records: number; at: number } | null;
}

export interface StatusDeps {
  meta: MetaStore;
  manifests: Manifests;
  workerRound?: (ns: number, collection: number) => { records: number; at: number } | undefined;
}

export async function collectionStatus(d: StatusDeps, c: Collection): Promise<CollectionStatus> {
  const head = await d.meta.collectionHead(c.ns, c.id);
  const m = head.pointer ? await d.manifests.load(head.pointer.value) : null;
  const applied = m?.applied ?? [];
  const backlog = unappliedBacklog(head.heads, applied);
  return {
    backlog,
    heads: head.heads,
    applied,
    maxPartitionLag: Math.max(0, ...backlog.partitions.map((p) => p.records)),
    manifest: m ? { version: m.version, created: m.created, files: m.files.length, fileBytes: m.files.reduce((s, f) => s + f.bytes, 0) } : null,
    worker: d.workerRound?.(c.ns, c.id) ?? null,
  };
}

/** The status of each collection, in order; a collection whose status could not be read carries the reason instead. */
export async function collectionStatuses(d: StatusDeps, cs: readonly Collection[]): Promise<(CollectionStatus | { failed: string })[]> {
  const out: (CollectionStatus | { failed: string })[] = new Array(cs.length);
  let next = 0;
  const lane = async () => {
    while (next < cs.length) {
      const i = next++;
      try {
        out[i] = await collectionStatus(d, cs[i]!);
      } catch (e) {
        out[i] = { failed: (e as Error).message };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(STATUS_CONCURRENCY, cs.length) }, lane));
  return out;
}

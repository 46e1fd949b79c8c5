// Which maintenance keys this worker owns (spec §5.3: "workers own maintenance by the same
// keys"). The placement itself is the router's (rendezvous hashing over the live worker set);
// the workers only ask it. Ownership is a hint, never what correctness rests on: every task
// still runs under its lease, whose epoch fences its effects, so two nodes that both think
// they own a key (a stale view) serialise on the lease, and a key nobody thinks it owns for a
// moment only waits (its work stays in the metastore's dirty set until an owner takes it).

/** A collection's maintenance key (spec §5.3's table: merges, compaction, index builds). */
export interface CollectionKey {
  ns: number;
  collection: number;
}

export interface Ownership {
  /**
   * Whether this node may own any key of the namespace: false lets a worker skip a namespace
   * without loading its catalog (small namespaces place by ns alone, spec §5.3).
   */
  mayOwn(ns: number): boolean;
  /** Whether this node owns the collection's maintenance (applier, compaction, segmenter, retention, GC). */
  owns(key: CollectionKey): boolean;
  /** Bumped whenever the live worker set (so the answers above) may have changed. */
  version(): number;
}

/** One worker, or no router: this node owns every key. */
export const OWN_ALL: Ownership = {
  mayOwn: () => true,
  owns: () => true,
  version: () => 0,
};

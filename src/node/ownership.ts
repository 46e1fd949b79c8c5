// The workers' ownership from the router's placement (spec §5.3): rendezvous over the live
// nodes with the worker role. A collection's maintenance key is (ns, collection); a small
// namespace places by ns alone, so whether this node may own any of a namespace's keys is one
// placement, without its catalog; a large one (its directory entry's size class) per key.
import { ALL_SMALL, Placement, placementKey, type PlacementNode, type SizeClasses } from '../router/placement.js';
import type { CollectionKey, Ownership } from '../workers/ownership.js';

export class PlacementOwnership implements Ownership {
  private placement: Placement | null = null;
  private v = 0;

  /** `self`: this node's id in the membership. Until the first update, it owns every key. */
  constructor(
    readonly self: string,
    private readonly sizes: SizeClasses = ALL_SMALL,
  ) {}

  /** The live worker nodes changed (a membership view). */
  update(workers: readonly PlacementNode[]): void {
    // This node always places among the workers it sees, itself included (a view never lacks it).
    const nodes = workers.some((n) => n.id === this.self) ? workers : [...workers, { id: this.self }];
    const next = new Placement(nodes);
    const same = this.placement !== null && this.placement.size === next.size && next.nodes.every((n) => this.placement!.has(n.id) && this.placement!.weight(n.id) === n.weight);
    this.placement = next;
    if (!same) this.v++;
  }

  mayOwn(ns: number): boolean {
    // A large namespace's keys spread over the nodes: any node may own some of them.
    return this.placement === null || this.sizes.of(ns) === 'large' || this.placement.owner(placementKey.namespace(ns)) === this.self;
  }

  owns(k: CollectionKey): boolean {
    return this.placement === null || this.placement.owner(placementKey.collection(k.ns, k.collection, this.sizes.of(k.ns))) === this.self;
  }

  version(): number {
    // A namespace changing size class moves its keys as a membership change would.
    return this.v + this.sizes.version();
  }
}

// Leases across shards (spec §10). A namespace's lease routes with its namespace. A cluster
// lease (GC, the node registry) is held on every shard, in directory order, because the calls
// it fences may run on any shard: GC's fenced claimObject of a WAL object runs on all of them,
// and of a namespace's object on that namespace's shard. The home shard's lease is the
// answer; each shard checks a fence against its own copy of the lease.
//
// A cluster fence names the home shard's epoch. The copies' epochs can differ from it (a
// takeover that reached some shards and not others before it failed), so a fenced call on
// another shard carries that shard's epoch of the same holder: the epoch of the copy whose
// owner is the owner of the home lease at the fence's epoch. An owner is unique per epoch
// (the contract), so "same owner" is "same holder". The translation is remembered from this
// handle's own acquisitions and otherwise read from the shards; a copy held by someone else
// keeps the fence's epoch, and the shard refuses it (FenceMismatch), as it must.
import type { MetaStore } from '../../contract.js';
import type { Fence, Lease, WriteContext } from '../../types.js';
import type { Router, Shard } from './routing.js';

type FencedOpts = { fence?: Fence } & WriteContext;

/** Cluster-lease translations remembered (one per key and home epoch; a bound). */
export const MAX_REMEMBERED_FENCES = 1_024;

export class ClusterLeases {
  /** `${key}\u0000${homeEpoch}` → each shard's epoch of the same holder. */
  private readonly epochs = new Map<string, Map<string, number>>();

  constructor(private readonly r: Router) {}

  private remember(key: string, homeEpoch: number, shard: string, epoch: number): void {
    const k = `${key}\u0000${homeEpoch}`;
    let m = this.epochs.get(k);
    if (!m) {
      if (this.epochs.size >= MAX_REMEMBERED_FENCES) this.epochs.clear();
      this.epochs.set(k, (m = new Map()));
    }
    m.set(shard, epoch);
  }

  /** Runs a cluster lease call on every shard, home first; the home shard's answer is the call's. */
  private async everywhere(key: string, fn: (s: MetaStore, shard: Shard, homeEpoch: number | null) => Promise<Lease | void>): Promise<Lease | void> {
    const home = await fn(this.r.home.store, this.r.home, null);
    const epoch = home ? home.epoch : null;
    if (home) this.remember(key, home.epoch, this.r.home.name, home.epoch);
    for (const s of this.r.shards.slice(1)) {
      const l = await fn(s.store, s, epoch);
      if (l && epoch !== null) this.remember(key, epoch, s.name, l.epoch);
    }
    return home;
  }

  async acquire(key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
    return (await this.everywhere(key, (s) => s.acquireLease('cluster', key, owner, ttlMs, w))) as Lease;
  }

  async renew(key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
    return (await this.everywhere(key, async (s, shard) => s.renewLease('cluster', key, owner, await this.epochOn(shard, key, epoch), ttlMs, w))) as Lease;
  }

  async release(key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
    await this.everywhere(key, async (s, shard) => s.releaseLease('cluster', key, owner, await this.epochOn(shard, key, epoch), w));
  }

  async lease(key: string): Promise<Lease | null> {
    return this.r.home.store.lease('cluster', key);
  }

  /** The epoch on `shard` of the holder of the home lease at `homeEpoch` (the fence's own epoch when unknown). */
  async epochOn(shard: Shard, key: string, homeEpoch: number): Promise<number> {
    if (shard.name === this.r.home.name) return homeEpoch;
    const known = this.epochs.get(`${key}\u0000${homeEpoch}`)?.get(shard.name);
    if (known !== undefined) return known;
    const [home, there] = await Promise.all([this.r.home.store.lease('cluster', key), shard.store.lease('cluster', key)]);
    if (home && there && home.epoch === homeEpoch && home.owner !== null && there.owner === home.owner) {
      this.remember(key, homeEpoch, shard.name, there.epoch);
      return there.epoch;
    }
    return homeEpoch;
  }

  /** A call's options with a cluster fence translated for `shard` (namespace fences pass as they are). */
  async fenced(shard: Shard, opts?: FencedOpts): Promise<FencedOpts | undefined> {
    const f = opts?.fence;
    if (!f || f.scope !== 'cluster') return opts;
    return { ...opts, fence: { ...f, epoch: await this.epochOn(shard, f.key, f.epoch) } };
  }
}


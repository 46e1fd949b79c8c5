// GC's path-only calls across shards (spec §3.2.3, §5.2). A namespace's object routes to its
// namespace's shard; a WAL object is cluster-level and each shard keeps its own references
// (live count) and claim for it (routing.ts has the table):
//
//   claimObject   on every shard, in directory order: the object is claimed only when every
//                 shard claimed it, so no shard can commit a chunk of it afterwards (each
//                 shard's claim serialises with its own commits). A shard that refuses
//                 (referenced, or claimed by another) ends the call with its refusal, and the
//                 claims this call made on earlier shards are given back (a taken-over claim
//                 is never given back: the contract's recovery rule).
//   releaseClaim  on every shard; a shard the claim never reached (a claim call that failed
//                 part way) has nothing to release. NotFound only when no shard had it.
//   objectRef     the sum of the shards' references, and a claim if any shard has one.
//   retiredWalObjects  the shards' retired lists merged under one cursor, keeping an object
//                 only when every other shard's live count for it is zero too.
import type { MetaStore } from '../../contract.js';
import { isMetaError } from '../../errors.js';
import type { ClaimResult, Fence, ObjectRef, Page, PageRequest, Stamp, WriteContext } from '../../types.js';
import type { ClusterLeases } from './leases.js';
import { mergePages } from './lists.js';
import type { Router, Shard } from './routing.js';

type FencedOpts = { fence?: Fence } & WriteContext;

export class ShardedGc {
  constructor(
    private readonly r: Router,
    private readonly leases: ClusterLeases,
  ) {}

  async claimObject(path: string, owner: string, opts?: FencedOpts): Promise<ClaimResult> {
    const shards = await this.r.shardsOfPath(path);
    if (shards.length === 1) return shards[0]!.store.claimObject(path, owner, await this.leases.fenced(shards[0]!, opts));
    const made: { shard: Shard; result: ClaimResult }[] = [];
    for (const s of shards) {
      const res = await s.store.claimObject(path, owner, await this.leases.fenced(s, opts));
      if (!res.claimed) {
        for (const m of made) {
          if (m.result.claimed && !m.result.takeover) {
            const rid = opts?.requestId === undefined ? {} : { requestId: `${opts.requestId}/undo/${m.shard.name}` };
            await m.shard.store.releaseClaim(path, owner, { deleted: false }, { ...rid, ...(opts?.stamp !== undefined ? { stamp: opts.stamp } : {}) });
          }
        }
        return res;
      }
      made.push({ shard: s, result: res });
    }
    // Every shard claimed: the first shard's answer, a takeover if any shard's was.
    const first = made[0]!.result as Extract<ClaimResult, { claimed: true }>;
    return made.some((m) => m.result.claimed && m.result.takeover) ? { ...first, takeover: true } : first;
  }

  async releaseClaim(path: string, owner: string, o: { deleted: boolean }, w?: WriteContext): Promise<void> {
    const shards = await this.r.shardsOfPath(path);
    if (shards.length === 1) return shards[0]!.store.releaseClaim(path, owner, o, w);
    let released = 0;
    let notFound: unknown = null;
    for (const s of shards) {
      try {
        await s.store.releaseClaim(path, owner, o, w);
        released++;
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e;
        notFound = e;
      }
    }
    if (released === 0 && notFound) throw notFound;
  }

  async objectRef(path: string): Promise<ObjectRef | null> {
    const shards = await this.r.shardsOfPath(path);
    if (shards.length === 1) return shards[0]!.store.objectRef(path);
    const refs = await Promise.all(shards.map((s) => s.store.objectRef(path)));
    const known = refs.filter((x): x is ObjectRef => x !== null);
    if (known.length === 0) return null;
    return { path, refs: known.reduce((n, x) => n + x.refs, 0), claim: known.find((x) => x.claim !== null)?.claim ?? null };
  }

  async retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    const shards = this.r.shards;
    const pages = await Promise.all(shards.map((s) => s.store.retiredWalObjects(page)));
    // One item per path (several shards may list it), the latest retirement.
    const merged = mergePages(pages, page?.limit, (x) => x.path);
    const seen = new Map<string, Stamp>();
    for (const p of pages) for (const x of p.items) seen.set(x.path, Math.max(seen.get(x.path) ?? 0, x.retired));
    const items: { path: string; retired: Stamp }[] = [];
    const dedup = new Set<string>();
    for (const x of merged.items) {
      if (dedup.has(x.path)) continue;
      dedup.add(x.path);
      if (await retiredEverywhere(shards, pages, x.path)) items.push({ path: x.path, retired: seen.get(x.path)! });
    }
    return merged.next === undefined ? { items } : { items, next: merged.next };
  }
}

/** Whether every shard that did not list the object retired has no live chunk of it and no claim. */
async function retiredEverywhere(shards: readonly Shard[], pages: readonly Page<{ path: string }>[], path: string): Promise<boolean> {
  for (let k = 0; k < shards.length; k++) {
    if (pages[k]!.items.some((x) => x.path === path)) continue;
    const ref = await (shards[k]!.store as MetaStore).objectRef(path);
    if (ref !== null && (ref.refs > 0 || ref.claim !== null)) return false;
  }
  return true;
}


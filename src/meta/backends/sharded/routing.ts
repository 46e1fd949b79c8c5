// Routing (spec §5.2, §10): a namespace's calls go to the shard its directory entry names.
// The node holds a directory version and a bounded cache of the entries it has used; a
// follower long-polls the directory and applies each delta to the cached entries, so a
// node's view is at most one poll behind. Ownership of a namespace by a shard changes only
// by a move; a call that reaches a shard the namespace has left gets NamespaceMoved there,
// and the router re-reads the entry and retries on the new shard (spec §3.5).
//
// Calls that carry only a path route by the path (DESIGN §2.2, GC):
//   ns/<id>/…   the shard of namespace <id> (a namespace's objects are referenced only there)
//   wal/…       every shard: a WAL object spans namespaces, and each shard keeps its own
//               commit records and live count for it (cluster-level state is per shard)
//   anything else every shard, like a WAL object: nothing in the path says which shard's
//               pointers or tags may reference it
import { errors, isMetaError, isNamespaceFenced } from '../../errors.js';
import type { MetaStore } from '../../contract.js';
import { movedReads } from '../../core/moves.js';
import { hasMoveStorage } from '../../moves.js';
import type { NamespaceId } from '../../types.js';
import type { DirectoryEntry, DirectoryStore, ShardRecord, SizeClass } from './directory.js';

/** Entries a node caches at most; past it the cache starts over (the directory is the truth). */
export const MAX_CACHED_ENTRIES = 200_000;
/** One long poll of the follower. */
export const FOLLOW_WAIT_MS = 30_000;
/** Pause after a failed poll, so a lost directory does not spin. */
export const FOLLOW_ERROR_PAUSE_MS = 1_000;
/** Directory pages one refresh reads at most before yielding (a bound; the next refresh goes on). */
export const MAX_REFRESH_PAGES = 100;
/** Times a call follows NamespaceMoved to a new shard before surfacing it. */
export const MAX_MOVED_RETRIES = 2;
/**
 * A write refused by a move's fence waits this long at most for the move to flip (spec §5.5:
 * writes pause instead of failing), then surfaces the refusal (Retryable: nothing written).
 */
export const MOVE_WAIT_MAX_MS = 5_000;
/** How often a write waiting for a move reads its directory entry again (a fresh read: the flip is seen within this). */
export const MOVE_WAIT_POLL_MS = 2;
/** Moves one call waits out before it surfaces the fence (a namespace moved twice under one call). */
export const MAX_MOVE_WAITS = 3;

export type PathRoute = { kind: 'namespace'; ns: NamespaceId } | { kind: 'every' };

/** Which shards a path-only call goes to (the table above). */
export function routeOfPath(path: string): PathRoute {
  const m = /^ns\/(\d+)\//.exec(path);
  if (m) {
    const ns = Number(m[1]);
    if (Number.isSafeInteger(ns) && ns > 0) return { kind: 'namespace', ns };
  }
  return { kind: 'every' };
}

export interface Shard {
  name: string;
  store: MetaStore;
  record: ShardRecord;
}

/** Large namespaces a node knows by id at most (spec §5.3: few are large); past it the rest place as small, a hint only. */
export const MAX_KNOWN_LARGE = 100_000;
/** Ids per largeNamespaces page read at start. */
export const LARGE_PAGE = 1_000;

export class Router {
  private readonly cache = new Map<NamespaceId, DirectoryEntry>();
  /** The large namespaces (spec §5.3): every one the directory lists at start, then each delta. */
  private readonly large = new Set<NamespaceId>();
  private largeChanges = 0;
  private held = 0;
  private readonly byName: Map<string, Shard>;
  private follower: Promise<void> | null = null;
  private readonly stop = new AbortController();

  constructor(
    readonly directory: DirectoryStore,
    /** By directory seq: shards[0] is the home shard. */
    shards: readonly Shard[],
  ) {
    // A shard's reads of a namespace that moved away answer NamespaceMoved (spec §3.5), so a
    // stale route is followed, never answered with "nothing here".
    this.shards = shards.map((s) => (hasMoveStorage(s.store) ? { ...s, store: movedReads(s.store) } : s));
    this.byName = new Map(this.shards.map((s) => [s.name, s]));
  }

  /** By directory seq: shards[0] is the home shard. */
  readonly shards: readonly Shard[];

  get home(): Shard {
    return this.shards[0]!;
  }

  /** The directory version this node's view is at. */
  get version(): number {
    return this.held;
  }

  shard(name: string): Shard {
    const s = this.byName.get(name);
    if (!s) throw errors.invalid('shard', `the directory places a namespace on shard ${name}, which this node's metastore.shards does not list`);
    return s;
  }

  /** The entry of a namespace (cached; read from the directory on a miss). NotFound if the directory has none. */
  async entry(ns: NamespaceId): Promise<DirectoryEntry> {
    const hit = this.cache.get(ns);
    if (hit) return hit;
    return this.reload(ns);
  }

  /** Reads the entry from the directory, bypassing the cache. */
  async reload(ns: NamespaceId): Promise<DirectoryEntry> {
    const e = await this.directory.entry(ns);
    if (!e) {
      this.cache.delete(ns);
      throw errors.notFound(`namespace ${ns}`);
    }
    this.remember(e);
    return e;
  }

  /**
   * Starts at the directory's current version, with every large namespace it lists (where
   * the directory can list them): nothing of the directory's history is replayed, so a
   * node's start does not grow with the namespaces the cluster ever created.
   */
  async start(): Promise<void> {
    this.held = Math.max(this.held, await this.directory.version());
    const list = this.directory.largeNamespaces?.bind(this.directory);
    if (!list) return;
    let after = 0;
    for (let page = 0; page * LARGE_PAGE < MAX_KNOWN_LARGE; page++) {
      const ids = await list(after, LARGE_PAGE);
      for (const id of ids) this.large.add(id);
      if (ids.length < LARGE_PAGE) return;
      after = ids[ids.length - 1]!;
    }
  }

  /** The namespace's size class as this node's view has it, without a round trip (a placement hint: spec §5.3). */
  sizeClassOf(ns: NamespaceId): SizeClass {
    return this.large.has(ns) ? 'large' : 'small';
  }

  /** Bumped whenever sizeClassOf's answer changed for some namespace. */
  sizeClassVersion(): number {
    return this.largeChanges;
  }

  private noteSize(e: DirectoryEntry): void {
    if (e.sizeClass === 'large' && e.state !== 'dropped') {
      if (this.large.size < MAX_KNOWN_LARGE && !this.large.has(e.id)) {
        this.large.add(e.id);
        this.largeChanges++;
      }
    } else if (this.large.delete(e.id)) this.largeChanges++;
  }

  /** Records an entry this node wrote or read. */
  remember(e: DirectoryEntry): void {
    const cur = this.cache.get(e.id);
    if (cur && cur.version > e.version) return;
    this.noteSize(e);
    if (!cur && this.cache.size >= MAX_CACHED_ENTRIES) this.cache.clear();
    this.cache.set(e.id, e);
  }

  async shardOf(ns: NamespaceId): Promise<Shard> {
    return this.shard((await this.entry(ns)).shard);
  }

  /**
   * Runs a namespace's call on its shard. NamespaceMoved (the namespace left that shard):
   * re-read the entry and run it on the new shard, a bounded number of times.
   */
  async onNamespace<T>(ns: NamespaceId, fn: (s: MetaStore, shard: Shard) => Promise<T>): Promise<T> {
    let shard = await this.shardOf(ns);
    for (let moved = 0, waits = 0; ; moved++) {
      try {
        return await fn(shard.store, shard);
      } catch (e) {
        if (isNamespaceFenced(e) && waits++ < MAX_MOVE_WAITS) {
          // The namespace is moving: wait for the flip (or the undo), then write where it is.
          const next = await this.awaitMove(ns, shard.name);
          if (next) {
            shard = next;
            moved--;
            continue;
          }
          throw e;
        }
        if (!isMetaError(e, 'NamespaceMoved') || moved >= MAX_MOVED_RETRIES) throw e;
        const next = this.shard((await this.reload(ns)).shard);
        if (next.name === shard.name) throw e;
        shard = next;
      }
    }
  }

  /**
   * Waits until a move of `ns` off shard `from` has flipped or been undone (reading the
   * entry fresh every MOVE_WAIT_POLL_MS, at most MOVE_WAIT_MAX_MS): the shard to go on with,
   * or null when the move did not settle in time.
   */
  async awaitMove(ns: NamespaceId, from: string): Promise<Shard | null> {
    const deadline = Date.now() + MOVE_WAIT_MAX_MS;
    for (;;) {
      const s = await this.settledOn(ns, from);
      if (s) return s;
      if (Date.now() + MOVE_WAIT_POLL_MS > deadline) return null;
      await new Promise((r) => setTimeout(r, MOVE_WAIT_POLL_MS));
    }
  }

  /**
   * Where a write to `ns`, refused (or held) on shard `from`, can go now: the entry's new shard
   * once the move flipped (the target may still be fenced a moment: a refusal there waits
   * again), `from` itself once the move is undone or `from` takes writes again (the target
   * after its unfence, before the entry says done); null while `from` is still fenced.
   */
  private async settledOn(ns: NamespaceId, from: string): Promise<Shard | null> {
    const e = await this.reload(ns);
    if (e.shard !== from || e.state !== 'moving') return this.shard(e.shard);
    const s = this.shard(from);
    const m = hasMoveStorage(s.store) ? await s.store.moveState(ns) : null;
    return m && m.state === 'fenced' ? null : s;
  }

  /** The shard a namespace is moving away from, as this node's directory view shows it (no round trip). */
  movingFrom(ns: NamespaceId): string | null {
    const e = this.cache.get(ns);
    return e && e.state === 'moving' ? e.shard : null;
  }

  /** Whether a write held for a move of `ns` seen on `from` can go now (settledOn), read fresh. */
  async moveSettled(ns: NamespaceId, from: string): Promise<boolean> {
    return (await this.settledOn(ns, from)) !== null;
  }

  /** The shards a path-only call goes to. */
  async shardsOfPath(path: string): Promise<Shard[]> {
    const r = routeOfPath(path);
    if (r.kind === 'every') return [...this.shards];
    try {
      return [await this.shardOf(r.ns)];
    } catch (e) {
      // An object of a namespace the directory never had: no shard can know which may reference it.
      if (isMetaError(e, 'NotFound')) return [...this.shards];
      throw e;
    }
  }

  /** Applies the directory's changes after the held version to the cached entries (bounded). */
  async refresh(): Promise<number> {
    for (let page = 0; page < MAX_REFRESH_PAGES; page++) {
      const ch = await this.directory.changesSince(this.held);
      for (const e of ch.entries) {
        if (this.cache.has(e.id)) this.remember(e);
        else this.noteSize(e);
      }
      this.held = Math.max(this.held, ch.version);
      if (!ch.more) break;
    }
    return this.held;
  }

  /** Starts the follower: long polls, each delta applied as it comes. */
  follow(): void {
    if (this.follower) return;
    const signal = this.stop.signal;
    this.follower = (async () => {
      while (!signal.aborted) {
        try {
          const v = await this.directory.waitVersion(this.held, { timeoutMs: FOLLOW_WAIT_MS, signal });
          if (signal.aborted) break;
          if (v > this.held) await this.refresh();
        } catch {
          if (signal.aborted) break;
          await new Promise((r) => setTimeout(r, FOLLOW_ERROR_PAUSE_MS).unref());
        }
      }
    })();
  }

  async close(): Promise<void> {
    this.stop.abort();
    await this.follower;
  }
}

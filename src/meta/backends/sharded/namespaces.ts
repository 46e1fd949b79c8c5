// Namespace lifecycle across the directory and the shards (spec §5.2, §10).
//
// create: reserve (org, name) in the directory, which allocates the id (dense, once for the
// cluster) and records the entry as 'creating' on the shard placement chose, with the
// create's requestId; create the namespace with that id on the shard; mark the entry 'live'.
// The reservation decides who created the name: its retries (the same requestId) answer the
// namespace, any other create of a held name is AlreadyExists with the first id. A crash
// between the steps leaves an entry 'creating' that the next create of the name finishes
// (and answers AlreadyExists: it is the first create's namespace, with the first create's id).
// A create its shard refuses frees its reservation, so a refusal holds no name.
//
// drop: drop on the shard (which frees the name there), then mark the entry 'dropped' (which
// frees it in the directory). A crash between leaves the entry held by a namespace its shard
// has dropped; the next create of the name sees that and frees the entry first.
import type { CreatedNamespace, CreateNamespace, CreateNamespaceWith } from '../../contract.js';
import { createNamespacesWith } from '../../core/bulk.js';
import { errors, isMetaError } from '../../errors.js';
import type { Namespace, NamespaceId, Page, PageRequest, WriteContext } from '../../types.js';
import { LARGE_NAMESPACE_STREAMS, sizeClassFor, type DirectoryEntry, type Reservation } from './directory.js';
import { mergedList } from './lists.js';
import { chooseShard } from './placement.js';
import type { Router } from './routing.js';

/** Rounds of "the entry was stale, free it and reserve again" per create (a bound). */
export const MAX_CREATE_ROUNDS = 3;
/** Rounds of the directory's version check when marking an entry (a bound). */
export const MAX_MARK_ROUNDS = 5;

/** Whether `entry` was reserved by the call with requestId `rid` (an earlier attempt of this one). */
function reservedBy(entry: DirectoryEntry, rid: string | undefined): boolean {
  return rid !== undefined && entry.reservedBy === rid;
}

export class Namespaces {
  constructor(
    private readonly r: Router,
    /** Called after a shard's catalog changed, so the cluster feed copies it. */
    private readonly changed: (shard: string) => Promise<void>,
  ) {}

  async create(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    if (req.id !== undefined) throw errors.invalid('id', 'a sharded metastore allocates namespace ids in its directory');
    const names = this.r.shards.map((s) => s.name);
    const rid = w?.requestId;
    for (let round = 0; ; round++) {
      const { entry, created } = await this.r.directory.reserve(req.org, req.name, chooseShard(req.org, req.name, names), 'small', rid);
      this.r.remember(entry);
      // The create whose reservation made the entry owns the name (across its retries): its id
      // was allocated inside its own call, so ids answered ok follow real time (spec §10). Any
      // other create that meets an entry still 'creating' finishes it, and is told the name is held.
      const own = created || reservedBy(entry, rid);
      const shard = this.r.shard(entry.shard);
      let ns: Namespace;
      try {
        ns = await shard.store.createNamespace({ org: req.org, name: req.name, id: entry.id }, w);
      } catch (e) {
        if (!isMetaError(e, 'AlreadyExists')) {
          if (own && entry.state === 'creating' && isMetaError(e) && e.code !== 'Unknown') return this.undoReservation(entry, e);
          throw e;
        }
        if (own) {
          // This create's own reservation: if the shard holds its namespace, in any state, the
          // create took effect — made by an earlier attempt of it or by another create that
          // finished it, perhaps dropped since — and is answered with it, as created.
          const mine = await shard.store.namespace(entry.id, { includeDropping: true }).catch(() => null);
          if (mine) {
            if (mine.state === 'live' && entry.state === 'creating') await this.mark(entry.id, 'live');
            return mine.state === 'live' ? mine : { ...mine, state: 'live' };
          }
        }
        if (e.details.existingId !== entry.id) {
          throw new Error(
            `shard ${shard.name} holds namespace ${req.org}/${req.name} as id ${String(e.details.existingId)}, the directory as id ${entry.id}: ` +
              'a namespace was created on the shard directly, not through the sharded metastore',
          );
        }
        const there = await shard.store.namespace(entry.id, { includeDropping: true }).catch(() => null);
        if (there && there.state === 'dropping' && round < MAX_CREATE_ROUNDS) {
          // Dropped on its shard, the directory not told yet: finish the drop, then reserve again.
          await this.mark(entry.id, 'dropped');
          continue;
        }
        if (there && entry.state === 'creating') await this.mark(entry.id, 'live');
        throw errors.alreadyExists(`namespace ${req.org}/${req.name}`, entry.id);
      }
      if (entry.state === 'creating' && !own) {
        // Another create's reservation, finished here: unless its owner undid it meanwhile.
        if ((await this.mark(entry.id, 'live')) === 'dropped') {
          await shard.store.dropNamespace(entry.id, w).catch((e: unknown) => {
            if (!isMetaError(e, 'NotFound')) throw e;
          });
          if (round < MAX_CREATE_ROUNDS) continue;
          throw errors.retryable('conflict', `namespace ${req.org}/${req.name} kept being reserved and undone while it was created`);
        }
        await this.changed(shard.name);
        throw errors.alreadyExists(`namespace ${req.org}/${req.name}`, entry.id);
      }
      if (entry.state === 'creating') await this.mark(entry.id, 'live');
      await this.changed(shard.name);
      return ns;
    }
  }

  /**
   * A create its shard refused (nothing written there): free the name it reserved, so the
   * refused call wrote nothing that holds a name. If another create finished the entry first
   * (its version moved), the namespace exists and is this call's: answer it.
   */
  private async undoReservation(entry: DirectoryEntry, refusal: unknown): Promise<Namespace> {
    try {
      this.r.remember(await this.r.directory.updateEntry(entry.id, entry.version, { state: 'dropped' }));
    } catch (e) {
      if (isMetaError(e, 'VersionMismatch')) return this.r.onNamespace(entry.id, (s) => s.namespace(entry.id));
      throw errors.unknown(`namespace ${entry.org}/${entry.name}: its shard refused the create and freeing its reservation failed (${(e as Error).message})`);
    }
    throw refusal;
  }

  /**
   * The bulk create (contract: createNamespaces): every name reserved in the directory at
   * once (ids dense, allocated once for the cluster: spec §10), each shard's part created in
   * one transaction there, every entry marked live at once, then each shard's changes copied
   * into the cluster feed. A failure after the reservation leaves the entries of the shards
   * not yet done 'creating': the next create of such a name finishes or undoes it, as after a
   * crashed single create. A namespace created with more than LARGE_NAMESPACE_STREAMS
   * collections is large from the start.
   */
  async createMany(reqs: CreateNamespaceWith[], w?: WriteContext): Promise<CreatedNamespace[]> {
    reqs.forEach((r, i) => {
      if (r.id !== undefined) throw errors.invalid(`reqs[${i}].id`, 'a sharded metastore allocates namespace ids in its directory');
    });
    const names = this.r.shards.map((s) => s.name);
    const items: Reservation[] = reqs.map((r) => ({ org: r.org, name: r.name, shard: chooseShard(r.org, r.name, names), sizeClass: sizeClassFor(r.collections?.length ?? 0) }));
    const entries = await this.reserveAll(items, w?.requestId);
    for (const e of entries) this.r.remember(e);
    const out = new Array<CreatedNamespace>(reqs.length);
    const byShard = new Map<string, number[]>();
    entries.forEach((e, i) => {
      const list = byShard.get(e.shard);
      if (list) list.push(i);
      else byShard.set(e.shard, [i]);
    });
    for (const [shard, idx] of byShard) {
      const made = await createNamespacesWith(this.r.shard(shard).store, idx.map((i) => ({ ...reqs[i]!, id: entries[i]!.id })), w);
      idx.forEach((i, k) => (out[i] = made[k]!));
    }
    // A retry finds what its earlier attempt already marked live as it left it.
    const creating = entries.filter((e) => e.state === 'creating');
    const live = creating.map((e) => ({ ns: e.id, expectedVersion: e.version, change: { state: 'live' as const } }));
    if (live.length > 0 && this.r.directory.updateEntries) for (const e of await this.r.directory.updateEntries(live)) this.r.remember(e);
    else for (const e of creating) await this.mark(e.id, 'live');
    for (const shard of byShard.keys()) await this.changed(shard);
    return out;
  }

  /**
   * reserveMany where the directory has it; else one reserve per name, undone at the first
   * held one. Names held by this call's own earlier attempt (`rid`) are its own.
   */
  private async reserveAll(items: Reservation[], rid: string | undefined): Promise<DirectoryEntry[]> {
    if (this.r.directory.reserveMany) return this.r.directory.reserveMany(items, rid);
    const out: DirectoryEntry[] = [];
    for (const it of items) {
      const { entry, created } = await this.r.directory.reserve(it.org, it.name, it.shard, it.sizeClass, rid);
      if (!created && !reservedBy(entry, rid)) {
        // Refused: free the names this call reserved (their entries dropped), so it wrote nothing that holds a name.
        for (const e of out) await this.r.directory.updateEntry(e.id, e.version, { state: 'dropped' }).catch(() => undefined);
        throw errors.alreadyExists(`namespace ${it.org}/${it.name}`, entry.id);
      }
      out.push(entry);
    }
    return out;
  }

  /**
   * After a stream or collection was created in `ns`: a small namespace with more than
   * LARGE_NAMESPACE_STREAMS streams becomes large in its directory entry (spec §5.3), which
   * every node's placement reads from then on. One page of at most the threshold + 1 names,
   * and only while the namespace is small.
   */
  async grew(ns: NamespaceId): Promise<void> {
    if ((await this.r.entry(ns)).sizeClass === 'large') return;
    const page = await this.r.onNamespace(ns, (s) => s.listStreams(ns, { limit: LARGE_NAMESPACE_STREAMS + 1 }));
    if (sizeClassFor(page.items.length) !== 'large') return;
    for (let round = 0; round < MAX_MARK_ROUNDS; round++) {
      const e = await this.r.reload(ns);
      if (e.sizeClass === 'large' || e.state === 'dropped') return;
      try {
        this.r.remember(await this.r.directory.updateEntry(ns, e.version, { sizeClass: 'large' }));
        return;
      } catch (err) {
        if (!isMetaError(err, 'VersionMismatch')) throw err;
      }
    }
  }

  async drop(ns: NamespaceId, w?: WriteContext): Promise<void> {
    await this.r.onNamespace(ns, async (s, shard) => {
      await s.dropNamespace(ns, w);
      await this.mark(ns, 'dropped');
      await this.changed(shard.name);
    });
  }

  async byName(org: string, name: string): Promise<Namespace> {
    const e = await this.r.directory.entryByName(org, name);
    if (!e) throw errors.notFound(`namespace ${org}/${name}`);
    this.r.remember(e);
    return this.r.onNamespace(e.id, (s) => s.namespaceByName(org, name));
  }

  /** An org's namespaces: each shard's page after the cursor, merged by name (names are unique per org cluster-wide). */
  async list(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    return mergedList(this.r.shards.map((s) => (p: PageRequest) => s.store.listNamespaces(org, p)), page, (n) => n.name);
  }

  /**
   * Moves the entry to `state` (a compare-and-swap on its version, re-read on a lost race):
   * the state it ends in ('dropped' when marking live an entry dropped meanwhile).
   */
  private async mark(ns: NamespaceId, state: DirectoryEntry['state']): Promise<DirectoryEntry['state']> {
    for (let round = 0; round < MAX_MARK_ROUNDS; round++) {
      const e = await this.r.reload(ns);
      if (e.state === state || (e.state === 'dropped' && state === 'live')) return e.state;
      try {
        this.r.remember(await this.r.directory.updateEntry(ns, e.version, { state }));
        return state;
      } catch (err) {
        if (!isMetaError(err, 'VersionMismatch')) throw err;
      }
    }
    throw errors.retryable('conflict', `the directory entry of namespace ${ns} kept changing while it was marked ${state}`);
  }
}

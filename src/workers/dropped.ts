// Dropped collections whose objects GC still has to delete (spec §3.2.4: they become garbage,
// collected after the grace), and how a worker learns of them without reading the catalog
// feed's history at start (issue 17: a node's start must not grow with the catalog).
//
// The GC lease holder reads the catalog feed for 'collection.dropped' from a position saved in
// the store (DROPPED_STATE_PATH) together with the drops not yet collected, and saves both
// back after each GC pass. A worker that takes the GC lease at a new epoch loads that state,
// so it goes on from where the previous holder stopped: O(changes since the last GC pass),
// never O(catalog). Every saved state is true when written — all drops up to its position are
// collected or in its list — so a stale holder's late save only makes the next holder read
// some changes again; nothing is lost. Only a cluster that never saved a state (its first GC
// pass) reads the feed from version 0, DROP_FEED_PAGES pages a pass, in the background.
import { isMetaError } from '../meta/errors.js';
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import { isStoreError, type Store } from '../store/index.js';

/** Where the GC lease holder keeps its feed position and the drops left to collect (ids only). */
export const DROPPED_STATE_PATH = '_gc/dropped.json';
/** Dropped collections tracked at once: the position stays before the drops past it (read again later). */
export const MAX_DROPPED_TRACKED = 10_000;
/** Change-feed pages one GC pass reads at most, FEED_PAGE changes each. */
export const DROP_FEED_PAGES = 20;
export const FEED_PAGE = 1_000;

/** What GC needs of a dropped collection (its object prefixes and its namespace's janitor). */
export type DroppedKey = Pick<Collection, 'ns' | 'id' | 'streamId'>;

interface DroppedState {
  /** Every drop at or below this feed version is collected or in `pending`. */
  version: number;
  pending: DroppedKey[];
}

export class DroppedCollections {
  private epoch = -1;
  private version = 0;
  private readonly pending = new Map<string, DroppedKey>();
  /** The state as last read or written (a pass that changed nothing writes nothing). */
  private saved = '';

  constructor(
    private readonly meta: MetaStore,
    private readonly store: Store,
  ) {}

  /**
   * Under the GC lease at `epoch`: loads the saved state when the lease was taken anew (another
   * holder may have moved it on meanwhile), then reads the feed on from it, a bounded number
   * of pages, tracking the collections dropped.
   */
  async follow(epoch: number, stopped: () => boolean): Promise<void> {
    if (epoch !== this.epoch) {
      await this.load();
      this.epoch = epoch;
    }
    for (let page = 0; page < DROP_FEED_PAGES && !stopped(); page++) {
      const p = await this.meta.changesSince(this.version, FEED_PAGE);
      for (const ch of p.changes) {
        if (ch.kind === 'collection.dropped' && ch.id !== null && !this.pending.has(`${ch.ns}/${ch.id}`)) {
          if (this.pending.size >= MAX_DROPPED_TRACKED) return; // the position stays before this drop
          const c = await this.meta.collection(ch.ns, ch.id, { includeDropping: true }).catch((e: unknown) => {
            if (isMetaError(e, 'NotFound')) return null; // its records are gone: a GC collected it already
            throw e;
          });
          if (c) this.pending.set(`${c.ns}/${c.id}`, { ns: c.ns, id: c.id, streamId: c.streamId });
        }
        this.version = ch.version;
      }
      this.version = Math.max(this.version, p.version);
      if (!p.more) return;
    }
  }

  /** The dropped collections left to collect. */
  entries(): DroppedKey[] {
    return [...this.pending.values()];
  }

  /** All of a dropped collection's objects and records are gone. */
  collected(c: DroppedKey): void {
    this.pending.delete(`${c.ns}/${c.id}`);
  }

  /** Saves the position and the drops left, when they changed (the GC lease holder, after its pass). */
  async save(): Promise<void> {
    const body = JSON.stringify({ version: this.version, pending: this.entries() } satisfies DroppedState);
    if (body === this.saved) return;
    await this.store.put(DROPPED_STATE_PATH, new TextEncoder().encode(body));
    this.saved = body;
  }

  private async load(): Promise<void> {
    let state: DroppedState = { version: 0, pending: [] };
    try {
      const text = new TextDecoder().decode((await this.store.get(DROPPED_STATE_PATH)).bytes);
      const v = JSON.parse(text) as Partial<DroppedState>;
      // A state this code cannot read is read again from version 0: slower, never lossy.
      if (Number.isSafeInteger(v.version) && Array.isArray(v.pending)) state = v as DroppedState;
      this.saved = text;
    } catch (e) {
      if (!isStoreError(e, 'NotFound') && !(e instanceof SyntaxError)) throw e;
    }
    this.version = state.version;
    this.pending.clear();
    for (const c of state.pending.slice(0, MAX_DROPPED_TRACKED)) this.pending.set(`${c.ns}/${c.id}`, { ns: c.ns, id: c.id, streamId: c.streamId });
  }
}

// The directory (spec §5.2) on SQL, beside the ControlStore's tables (embedded SQLite and
// PostgreSQL share it, as the ControlStore does). Counters are rows of dir_counters updated
// in the writing transaction: the version row is taken first by every write, so directory
// writes commit in version order and versions and namespace ids stay dense (no allocation is
// rolled back after a lost race). The interface and its meaning: src/meta/backends/sharded/directory.ts.
import { setTimeout as sleep } from 'node:timers/promises';
import { errors } from '../../meta/errors.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../../meta/limits.js';
import { feedPruneBounds, feedRetention, type FeedRetention } from '../../meta/core/feed.js';
import {
  DIRECTORY_POLL_MS,
  MAX_DIRECTORY_PAGE,
  MAX_DIRECTORY_WAIT_MS,
  MAX_FEED_APPEND,
  type ClusterFeedPage,
  type DirectoryChanges,
  type DirectoryEntry,
  type DirectoryStore,
  type EntryChange,
  type EntryUpdate,
  type FeedCursor,
  type Reservation,
  type PlacementState,
  type ShardRecord,
  type SizeClass,
} from '../../meta/backends/sharded/directory.js';
import type { CatalogChange, ChangeKind, NamespaceId, Page, PageRequest } from '../../meta/types.js';
import type { Query, Row, SqlDriver } from '../sql.js';
import { checkBulk, checkEntryChange, checkReserve, checkShard } from './validate.js';

/** Counter rows. */
const VERSION = 1;
const NAMESPACE_ID = 2;
const FEED_VERSION = 3;
const FEED_HORIZON = 4;
const SHARD_SEQ = 5;
/** A cluster-feed prune pass runs after this many appends (bounded: PRUNE_FEED_BATCH rows). */
export const PRUNE_FEED_EVERY = 16;
export const PRUNE_FEED_BATCH = 256;

export const DIRECTORY_DDL: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS dir_counters (id INTEGER PRIMARY KEY, v BIGINT NOT NULL)`,
  ...[VERSION, NAMESPACE_ID, FEED_VERSION, FEED_HORIZON, SHARD_SEQ].map((id) => `INSERT INTO dir_counters (id, v) VALUES (${id}, 0) ON CONFLICT (id) DO NOTHING`),
  `CREATE TABLE IF NOT EXISTS dir_entries (id BIGINT PRIMARY KEY, org TEXT NOT NULL, name TEXT NOT NULL, shard TEXT NOT NULL,
     state TEXT NOT NULL, size_class TEXT NOT NULL, version BIGINT NOT NULL)`,
  // A name is held by one entry that is not dropped (dropping frees it at once, as on a shard).
  `CREATE UNIQUE INDEX IF NOT EXISTS dir_entries_name ON dir_entries (org, name) WHERE state <> 'dropped'`,
  `CREATE INDEX IF NOT EXISTS dir_entries_version ON dir_entries (version)`,
  // The few large namespaces (spec §5.3), listed by every node at start.
  `CREATE INDEX IF NOT EXISTS dir_entries_large ON dir_entries (id) WHERE size_class = 'large' AND state <> 'dropped'`,
  `CREATE TABLE IF NOT EXISTS dir_shards (name TEXT PRIMARY KEY, identity TEXT NOT NULL, seq BIGINT NOT NULL, added BIGINT NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS dir_feed (version BIGINT PRIMARY KEY, shard TEXT NOT NULL, ns BIGINT NOT NULL, kind TEXT NOT NULL,
     ref BIGINT, stamp BIGINT NOT NULL)`,
  `CREATE INDEX IF NOT EXISTS dir_feed_ns ON dir_feed (ns, version)`,
  `CREATE TABLE IF NOT EXISTS dir_feed_cursors (shard TEXT PRIMARY KEY, v BIGINT NOT NULL)`,
];

const n = (v: unknown): number => Number(v);

function entryRow(r: Row): DirectoryEntry {
  return {
    id: n(r.id),
    org: String(r.org),
    name: String(r.name),
    shard: String(r.shard),
    state: String(r.state) as PlacementState,
    sizeClass: String(r.size_class) as SizeClass,
    version: n(r.version),
    ...(typeof r.reserved_by === 'string' ? { reservedBy: r.reserved_by } : {}),
  };
}

function changeRow(r: Row): CatalogChange {
  return { version: n(r.version), ns: n(r.ns), kind: String(r.kind) as ChangeKind, id: r.ref === null || r.ref === undefined ? null : n(r.ref), stamp: n(r.stamp) };
}

export interface SqlDirectoryOptions {
  /** The cluster feed's retention (core/feed.ts); tests shorten it. */
  feedRetention?: Partial<FeedRetention>;
  /** The clock that judges feed retention. */
  now?: () => number;
}

export class SqlDirectoryStore implements DirectoryStore {
  private readonly retention: FeedRetention;
  private readonly now: () => number;
  private appends = 0;
  private closed = false;

  constructor(
    private readonly d: SqlDriver,
    private readonly ownsDriver: boolean,
    opts: SqlDirectoryOptions = {},
  ) {
    this.retention = feedRetention(opts.feedRetention);
    this.now = opts.now ?? Date.now;
  }

  /** Locks the version row (every write takes it first) and returns its value. */
  private async lockVersion(q: Query): Promise<number> {
    const lock = this.d.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const [r] = await q(`SELECT v FROM dir_counters WHERE id = ${VERSION}${lock}`);
    return n(r!.v);
  }

  private async bump(q: Query, id: number, by = 1): Promise<number> {
    const [r] = await q(`UPDATE dir_counters SET v = v + $1 WHERE id = $2 RETURNING v`, [by, id]);
    return n(r!.v);
  }

  /**
   * Creates the tables, or brings a directory made by an older version up to date. Every node
   * runs it when it opens, so a directory that is already current is left untouched: on
   * Postgres even an `IF NOT EXISTS` statement locks its table (ADD COLUMN an exclusive lock),
   * and an open beside routing writes deadlocked with them.
   */
  async init(): Promise<void> {
    if (await this.hasReservedBy(this.d.query)) return;
    await this.d.tx(async (q) => {
      if (this.d.dialect === 'postgres') await q(`SELECT pg_advisory_xact_lock(hashtext('loam.directory.init'))`);
      // Under the lock: another node may have made the schema meanwhile.
      if (await this.hasReservedBy(q)) return;
      for (const s of DIRECTORY_DDL) await q(s);
      // dir_entries.reserved_by, added to a directory made before it.
      await q(`ALTER TABLE dir_entries ADD COLUMN reserved_by TEXT`);
    });
  }

  /** Whether dir_entries has its newest column (so every table and index of DIRECTORY_DDL is there). */
  private async hasReservedBy(q: Query): Promise<boolean> {
    const rows =
      this.d.dialect === 'postgres'
        ? await q(`SELECT 1 AS x FROM pg_attribute WHERE attrelid = to_regclass('dir_entries') AND attname = 'reserved_by' AND NOT attisdropped`)
        : await q(`SELECT 1 AS x FROM pragma_table_info('dir_entries') WHERE name = 'reserved_by'`);
    return rows.length > 0;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.ownsDriver) await this.d.close();
  }

  async version(): Promise<number> {
    const [r] = await this.d.query(`SELECT v FROM dir_counters WHERE id = ${VERSION}`);
    return n(r!.v);
  }

  async reserve(org: string, name: string, shard: string, sizeClass: SizeClass, reservedBy?: string): Promise<{ entry: DirectoryEntry; created: boolean }> {
    checkReserve(org, name, shard, sizeClass, reservedBy);
    return this.d.tx(async (q) => {
      await this.lockVersion(q);
      const [held] = await q(`SELECT * FROM dir_entries WHERE org = $1 AND name = $2 AND state <> 'dropped'`, [org, name]);
      if (held) return { entry: entryRow(held), created: false };
      await this.checkShards(q, [shard]);
      const [entry] = await this.insertEntries(q, [{ org, name, shard, sizeClass }], reservedBy);
      return { entry: entry!, created: true };
    });
  }

  async reserveMany(items: Reservation[], reservedBy?: string): Promise<DirectoryEntry[]> {
    checkBulk('items', items);
    const names = new Set<string>();
    for (const r of items) {
      checkReserve(r.org, r.name, r.shard, r.sizeClass, reservedBy);
      const key = `${r.org}\u0000${r.name}`;
      if (names.has(key)) throw errors.invalid('items', `namespace ${r.org}/${r.name} is given twice`);
      names.add(key);
    }
    return this.d.tx(async (q) => {
      await this.lockVersion(q);
      await this.checkShards(q, [...new Set(items.map((r) => r.shard))]);
      const ours: DirectoryEntry[] = [];
      for (const r of items) {
        const [held] = await q(`SELECT * FROM dir_entries WHERE org = $1 AND name = $2 AND state <> 'dropped'`, [r.org, r.name]);
        if (!held) continue;
        const e = entryRow(held);
        // Held by this call's own earlier attempt (all or none were reserved by it): resume it.
        if (reservedBy !== undefined && e.reservedBy === reservedBy) ours.push(e);
        // Thrown inside the transaction: it rolls back, so a refused call reserved nothing.
        else throw errors.alreadyExists(`namespace ${r.org}/${r.name}`, e.id);
      }
      if (ours.length === items.length) return ours;
      if (ours.length > 0) throw errors.alreadyExists(`namespace ${ours[0]!.org}/${ours[0]!.name}`, ours[0]!.id);
      return this.insertEntries(q, items, reservedBy);
    });
  }

  /**
   * New 'creating' entries in the current transaction (the version row locked, names free,
   * shards checked): the counters move once for the batch, so ids and versions are dense and
   * in the items' order, as one reserve per item would leave them.
   */
  private async insertEntries(q: Query, items: readonly Reservation[], reservedBy?: string): Promise<DirectoryEntry[]> {
    const id0 = (await this.bump(q, NAMESPACE_ID, items.length)) - items.length;
    const v0 = (await this.bump(q, VERSION, items.length)) - items.length;
    const by = reservedBy !== undefined ? { reservedBy } : {};
    const out = items.map((r, i): DirectoryEntry => ({ id: id0 + i + 1, org: r.org, name: r.name, shard: r.shard, state: 'creating', sizeClass: r.sizeClass, version: v0 + i + 1, ...by }));
    for (const e of out) {
      await q(`INSERT INTO dir_entries (id, org, name, shard, state, size_class, version, reserved_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, [
        e.id,
        e.org,
        e.name,
        e.shard,
        e.state,
        e.sizeClass,
        e.version,
        reservedBy ?? null,
      ]);
    }
    return out;
  }

  /** InvalidArgument for a shard the directory does not list. */
  private async checkShards(q: Query, shards: readonly string[]): Promise<void> {
    for (const shard of shards) {
      const known = await q(`SELECT 1 AS x FROM dir_shards WHERE name = $1`, [shard]);
      if (known.length === 0) throw errors.invalid('shard', `no shard named ${shard} is in the directory`);
    }
  }

  async entry(ns: NamespaceId): Promise<DirectoryEntry | null> {
    const [r] = await this.d.query(`SELECT * FROM dir_entries WHERE id = $1`, [ns]);
    return r ? entryRow(r) : null;
  }

  async entryByName(org: string, name: string): Promise<DirectoryEntry | null> {
    const [r] = await this.d.query(`SELECT * FROM dir_entries WHERE org = $1 AND name = $2 AND state <> 'dropped'`, [org, name]);
    return r ? entryRow(r) : null;
  }

  async listEntries(org: string, p?: PageRequest): Promise<Page<DirectoryEntry>> {
    const limit = Math.min(Math.max(1, p?.limit ?? DEFAULT_PAGE_LIMIT), MAX_PAGE_LIMIT);
    const prefix = p?.prefix ?? '';
    const rows = await this.d.query(
      `SELECT * FROM dir_entries WHERE org = $1 AND state <> 'dropped' AND name > $2 AND substr(name, 1, $3) = $4 ORDER BY name LIMIT $5`,
      [org, p?.after ?? '', prefix.length, prefix, limit + 1],
    );
    const items = rows.slice(0, limit).map(entryRow);
    return rows.length > limit ? { items, next: items[items.length - 1]!.name } : { items };
  }

  async updateEntry(ns: NamespaceId, expectedVersion: number, change: EntryChange): Promise<DirectoryEntry> {
    checkEntryChange(change);
    const [e] = await this.d.tx((q) => this.applyUpdates(q, [{ ns, expectedVersion, change }]));
    return e!;
  }

  async updateEntries(updates: EntryUpdate[]): Promise<DirectoryEntry[]> {
    checkBulk('updates', updates);
    const ids = new Set<number>();
    for (const u of updates) {
      checkEntryChange(u.change);
      if (ids.has(u.ns)) throw errors.invalid('updates', `namespace ${u.ns} is given twice`);
      ids.add(u.ns);
    }
    return this.d.tx((q) => this.applyUpdates(q, updates));
  }

  /**
   * Compare-and-swaps of entries in one transaction, all or none (the first VersionMismatch
   * or NotFound refuses them all): the version moves once for the batch, each entry its own
   * version in the updates' order.
   */
  private async applyUpdates(q: Query, updates: readonly EntryUpdate[]): Promise<DirectoryEntry[]> {
    await this.lockVersion(q);
    const cur: DirectoryEntry[] = [];
    for (const { ns, expectedVersion } of updates) {
      const [r] = await q(`SELECT * FROM dir_entries WHERE id = $1`, [ns]);
      if (!r) throw errors.notFound(`directory entry of namespace ${ns}`);
      const e = entryRow(r);
      if (e.version !== expectedVersion) throw errors.versionMismatch(`directory entry of namespace ${ns}`, expectedVersion, e.version);
      cur.push(e);
    }
    await this.checkShards(q, [...new Set(updates.flatMap((u) => (u.change.shard !== undefined ? [u.change.shard] : [])))]);
    const v0 = (await this.bump(q, VERSION, updates.length)) - updates.length;
    const out = cur.map((e, i): DirectoryEntry => ({ ...e, ...updates[i]!.change, version: v0 + i + 1 }));
    for (const e of out) await q(`UPDATE dir_entries SET shard = $1, state = $2, size_class = $3, version = $4 WHERE id = $5`, [e.shard, e.state, e.sizeClass, e.version, e.id]);
    return out;
  }

  async largeNamespaces(after: NamespaceId, limit: number): Promise<NamespaceId[]> {
    const lim = Math.min(Math.max(1, limit), MAX_DIRECTORY_PAGE);
    const rows = await this.d.query(`SELECT id FROM dir_entries WHERE size_class = 'large' AND state <> 'dropped' AND id > $1 ORDER BY id LIMIT $2`, [after, lim]);
    return rows.map((r) => n(r.id));
  }

  async changesSince(version: number, limit = MAX_DIRECTORY_PAGE): Promise<DirectoryChanges> {
    const lim = Math.min(Math.max(1, limit), MAX_DIRECTORY_PAGE);
    // The version first: entries written after it are at most re-sent with the next page.
    const current = await this.version();
    const rows = await this.d.query(`SELECT * FROM dir_entries WHERE version > $1 AND version <= $2 ORDER BY version LIMIT $3`, [version, current, lim + 1]);
    const entries = rows.slice(0, lim).map(entryRow);
    const more = rows.length > lim;
    return { entries, version: more ? entries[entries.length - 1]!.version : Math.max(version, current), more };
  }

  async waitVersion(since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<number> {
    if (opts.timeoutMs > MAX_DIRECTORY_WAIT_MS) throw errors.invalid('timeoutMs', `must be at most ${MAX_DIRECTORY_WAIT_MS}`);
    const deadline = Date.now() + opts.timeoutMs;
    for (;;) {
      const v = await this.version();
      if (v > since || this.closed || opts.signal?.aborted) return v;
      const left = deadline - Date.now();
      if (left <= 0) return v;
      await sleep(Math.min(left, DIRECTORY_POLL_MS), undefined, opts.signal ? { signal: opts.signal } : {}).catch(() => undefined);
    }
  }

  async addShard(name: string, identity: string, at = Date.now()): Promise<ShardRecord> {
    checkShard(name, identity);
    return this.d.tx(async (q) => {
      await this.lockVersion(q);
      const [r] = await q(`SELECT * FROM dir_shards WHERE name = $1`, [name]);
      if (r) {
        if (String(r.identity) !== identity) {
          throw errors.invalid('shards', `shard ${name} is ${String(r.identity)} in the directory, not ${identity}; a shard keeps its name and place`);
        }
        return { name, identity, seq: n(r.seq), added: n(r.added) };
      }
      const seq = await this.bump(q, SHARD_SEQ);
      await q(`INSERT INTO dir_shards (name, identity, seq, added) VALUES ($1, $2, $3, $4)`, [name, identity, seq, at]);
      return { name, identity, seq, added: at };
    });
  }

  async shards(): Promise<ShardRecord[]> {
    const rows = await this.d.query(`SELECT * FROM dir_shards ORDER BY seq`);
    return rows.map((r) => ({ name: String(r.name), identity: String(r.identity), seq: n(r.seq), added: n(r.added) }));
  }

  async feedCursors(): Promise<FeedCursor[]> {
    const rows = await this.d.query(`SELECT shard, v FROM dir_feed_cursors ORDER BY shard`);
    return rows.map((r) => ({ shard: String(r.shard), shardVersion: n(r.v) }));
  }

  async appendFeed(shard: string, from: number, to: number, changes: CatalogChange[], resync: boolean): Promise<boolean> {
    if (changes.length > MAX_FEED_APPEND) throw errors.limitExceeded('MAX_FEED_APPEND', MAX_FEED_APPEND, changes.length);
    const applied = await this.d.tx(async (q) => {
      const lock = this.d.dialect === 'postgres' ? ' FOR UPDATE' : '';
      const [r] = await q(`SELECT v FROM dir_feed_cursors WHERE shard = $1${lock}`, [shard]);
      const cur = r ? n(r.v) : 0;
      if (cur !== from || to < from) return false;
      if (r) await q(`UPDATE dir_feed_cursors SET v = $1 WHERE shard = $2`, [to, shard]);
      else {
        // Two first copies race on the insert: the loser's unique violation is "copied first".
        try {
          await q(`INSERT INTO dir_feed_cursors (shard, v) VALUES ($1, $2)`, [shard, to]);
        } catch (e) {
          if (this.d.isUniqueViolation(e)) return false;
          throw e;
        }
      }
      if (changes.length === 0 && !resync) return true;
      const top = await this.bump(q, FEED_VERSION, changes.length);
      if (resync) {
        // The shard compacted changes we never copied: readers below this point must re-read.
        await q(`UPDATE dir_counters SET v = CASE WHEN v > $1 THEN v ELSE $1 END WHERE id = ${FEED_HORIZON}`, [top - changes.length]);
      }
      let v = top - changes.length;
      for (const c of changes) {
        v++;
        await q(`INSERT INTO dir_feed (version, shard, ns, kind, ref, stamp) VALUES ($1, $2, $3, $4, $5, $6)`, [v, shard, c.ns, c.kind, c.id, c.stamp]);
      }
      return true;
    }).catch((e: unknown) => {
      // A first copy that lost the cursor insert inside the transaction (Postgres aborts it).
      if (this.d.isUniqueViolation(e)) return false;
      throw e;
    });
    if (applied && ++this.appends % PRUNE_FEED_EVERY === 0) await this.pruneFeed();
    return applied;
  }

  /** Prunes the cluster feed as core/feed.ts says: old changes go, each namespace's newest stays; the horizon rises first. */
  private async pruneFeed(): Promise<void> {
    const [top] = await this.d.query(`SELECT v FROM dir_counters WHERE id = ${FEED_VERSION}`);
    const b = feedPruneBounds(n(top!.v), this.now(), this.retention);
    if (b.maxVersion <= 0) return;
    await this.d.tx(async (q) => {
      const rows = await q(
        `SELECT f.version FROM dir_feed f WHERE f.version <= $1 AND f.stamp < $2
           AND f.version < (SELECT max(g.version) FROM dir_feed g WHERE g.ns = f.ns) ORDER BY f.version LIMIT $3`,
        [b.maxVersion, b.before, PRUNE_FEED_BATCH],
      );
      if (rows.length === 0) return;
      const high = n(rows[rows.length - 1]!.version);
      await q(`UPDATE dir_counters SET v = CASE WHEN v > $1 THEN v ELSE $1 END WHERE id = ${FEED_HORIZON}`, [high]);
      for (const r of rows) await q(`DELETE FROM dir_feed WHERE version = $1`, [n(r.version)]);
    });
  }

  async feedVersion(): Promise<{ version: number; horizon: number }> {
    const counters = await this.d.query(`SELECT id, v FROM dir_counters WHERE id IN (${FEED_VERSION}, ${FEED_HORIZON})`);
    return { version: n(counters.find((r) => n(r.id) === FEED_VERSION)!.v), horizon: n(counters.find((r) => n(r.id) === FEED_HORIZON)!.v) };
  }

  async feedSince(version: number, limit: number, ns?: NamespaceId): Promise<ClusterFeedPage> {
    const { version: current, horizon } = await this.feedVersion();
    const rows =
      ns === undefined
        ? await this.d.query(`SELECT * FROM dir_feed WHERE version > $1 AND version <= $2 ORDER BY version LIMIT $3`, [version, current, limit + 1])
        : await this.d.query(`SELECT * FROM dir_feed WHERE ns = $1 AND version > $2 AND version <= $3 ORDER BY version LIMIT $4`, [ns, version, current, limit + 1]);
    const changes = rows.slice(0, limit).map(changeRow);
    const more = rows.length > limit;
    return { changes, version: more ? changes[changes.length - 1]!.version : Math.max(version, current), more, horizon };
  }
}

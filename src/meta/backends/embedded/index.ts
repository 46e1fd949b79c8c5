// The embedded backend: the whole metastore in one SQLite file through better-sqlite3
// (DESIGN §3). It is the default and the reference the other backends are compared with.
//
// - One call is one `BEGIN IMMEDIATE` transaction (commitWal: one per partition group, so
//   it keeps the relaxed contract's shape, spec §3.1). Reads run in a deferred transaction,
//   which in WAL mode is a snapshot: composite reads are snapshots (snapshotReads: true).
// - Durability: journal_mode=WAL with synchronous=FULL by default — every commit is fsynced
//   before it is acknowledged. synchronous=NORMAL (option) is several times faster but a
//   power loss (not a process crash) may lose the last commits; use it only where the WAL
//   objects' writers can replay.
// - Several handles (threads or processes) may open one file; writers serialise on SQLite's
//   write lock and wait up to BUSY_TIMEOUT_MS before a Retryable('busy').
// It may be stronger than the relaxed contract; no caller or test may rely on that.
import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CreateCollection, CreateNamespace, CreateStream, MetaStore, ReadOptions } from '../../contract.js';
import { claimTakenOver, implicitStreamName, linkPointerKey, parseLinkPointerKey } from '../../contract.js';
import { MetaError, errors, isMetaError } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { planGroups } from '../../groups.js';
import {
  DEFAULT_MANIFEST_RETENTION_MS,
  JANITOR_BATCH_ENTRIES,
  MAX_ALIASES,
  MAX_INDEX_PAGE,
  MAX_PAGE_LIMIT,
  MAX_WATCH_MS,
  REQUEST_TOKEN_TTL_MS,
  WAL_COMMIT_RECORD_TTL_MS,
  WAL_COMMIT_WINDOW_MS,
} from '../../limits.js';
import type {
  AliasAction,
  Aliases,
  AssignedRange,
  Capabilities,
  ChangeKind,
  ChangesPage,
  ClaimResult,
  Collection,
  CollectionHead,
  CollectionSchema,
  Fence,
  IndexEntry,
  Lease,
  LeaseScope,
  Namespace,
  ObjectRef,
  Page,
  PageRequest,
  PartitionHead,
  PartitionIndex,
  Pointer,
  PointerVersion,
  Retention,
  SegmentSwap,
  Stamp,
  Stream,
  StreamState,
  Tag,
  WalCommit,
  WalCommitResult,
  WatchResult,
  WatchScope,
  WriteContext,
} from '../../types.js';
import * as v from '../../validate.js';
import { validating } from '../../core/validating.js';
import { registerConnection } from '../connections.js';
import { paged, scopeKey, toChange, toCollection, toEntry, toHeads, toNamespace, toPointer, toStream, toTag, type Row } from '../sql/rows.js';
import { migrate } from './migrations.js';

/** How long a writer waits for another handle's write lock before Retryable('busy'). */
export const BUSY_TIMEOUT_MS = 5_000;
/** How often watch() looks for changes written by other handles on the same file. */
export const WATCH_POLL_MS = 100;
/** Expired commit tokens, WAL commit records and GC tombstones pruned per write, at most. */
export const PRUNE_BATCH = 64;
/** Prune once every this many writes (pruning is bounded, so it never stalls a write). */
export const PRUNE_EVERY_WRITES = 256;
/** Default chunks per commit group: large enough that one flush is usually one group. */
export const DEFAULT_MAX_CHUNKS_PER_GROUP = 256;
/** Default entries one swapSegment may replace. */
export const DEFAULT_MAX_SWAP_ENTRIES = 1_000;

export interface EmbeddedOptions {
  /** A file path, or ':memory:' (unit tests only: nothing survives the process). */
  path: string;
  /** 'FULL' (default, durable) or 'NORMAL' (faster; may lose the last commits on power loss). */
  synchronous?: 'FULL' | 'NORMAL';
  maxChunksPerGroup?: number;
  maxSwapEntries?: number;
  /** Fault injection for the fault matrix (spec §4.2); never set in production. */
  faults?: FaultHook;
  /** The backend's clock, for validating stamps; tests may replace it. */
  clock?: () => number;
}

export function openEmbedded(opts: EmbeddedOptions): EmbeddedMetaStore {
  // Through the one validating wrapper (src/meta/core), recorded with its connection for the
  // ControlStore (src/meta/backends/registry.ts).
  const s = new EmbeddedMetaStore(opts);
  return registerConnection(validating(s, { now: opts.clock ?? Date.now }), { kind: 'sqlite', db: s.db });
}

type Tx = { stamp: Stamp };

export class EmbeddedMetaStore implements MetaStore {
  readonly db: Database.Database;
  private readonly stmts = new Map<string, Database.Statement>();
  private readonly caps: Capabilities;
  private readonly faults: FaultHook | undefined;
  private readonly clock: () => number;
  private readonly changed = new EventEmitter();
  private writes = 0;
  private closed = false;

  constructor(opts: EmbeddedOptions) {
    this.db = new Database(opts.path, { timeout: BUSY_TIMEOUT_MS });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma(`synchronous = ${opts.synchronous ?? 'FULL'}`);
    this.db.pragma('foreign_keys = OFF');
    migrate(this.db);
    this.caps = {
      transactions: 'multi-item',
      snapshotReads: true,
      maxChunksPerGroup: opts.maxChunksPerGroup ?? DEFAULT_MAX_CHUNKS_PER_GROUP,
      maxSwapEntries: opts.maxSwapEntries ?? DEFAULT_MAX_SWAP_ENTRIES,
      changeFeed: 'poll',
    };
    this.faults = opts.faults;
    this.clock = opts.clock ?? Date.now;
    this.changed.setMaxListeners(0);
  }

  capabilities(): Capabilities {
    return { ...this.caps };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.changed.emit('change');
    this.db.close();
  }

  // ------------------------------------------------------------ transaction helpers

  private q(sql: string): Database.Statement {
    let s = this.stmts.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      this.stmts.set(sql, s);
    }
    return s;
  }

  private get<T = Row>(sql: string, ...args: unknown[]): T | undefined {
    return this.q(sql).get(...args) as T | undefined;
  }

  private all<T = Row>(sql: string, ...args: unknown[]): T[] {
    return this.q(sql).all(...args) as T[];
  }

  private run(sql: string, ...args: unknown[]): Database.RunResult {
    return this.q(sql).run(...args);
  }

  private checkOpen(): void {
    if (this.closed) throw errors.invalid('store', 'this metastore handle is closed');
  }

  /**
   * The one write-transaction helper: stamp check, fault points, BEGIN IMMEDIATE,
   * commit-token lookup and record, COMMIT. `fn` runs synchronously inside the transaction.
   */
  private async write<T>(op: string, w: WriteContext | undefined, fn: (tx: Tx) => T): Promise<T> {
    this.checkOpen();
    const stamp = v.stamp(w?.stamp, this.clock());
    const requestId = w?.requestId === undefined ? undefined : v.tokenString('requestId', w.requestId);
    if (this.faults) await this.faults('BeforeBegin', op);
    this.checkOpen();
    try {
      this.db.exec('BEGIN IMMEDIATE');
    } catch (e) {
      throw mapSqliteError(e, true);
    }
    let result: T;
    try {
      const prior = requestId
        ? this.get<{ op: string; result: string }>('SELECT op, result FROM request_tokens WHERE id = ?', requestId)
        : undefined;
      if (prior) {
        if (prior.op !== op) {
          throw errors.invalid('requestId', `was already used for ${prior.op}; use a fresh requestId per call`);
        }
        result = JSON.parse(prior.result) as T;
      } else {
        result = fn({ stamp });
        if (requestId) {
          this.run('INSERT INTO request_tokens (id, op, result, stamp) VALUES (?, ?, ?, ?)', requestId, op, JSON.stringify(result ?? null), stamp);
        }
        if (++this.writes % PRUNE_EVERY_WRITES === 0) this.prune(stamp);
      }
      if (this.faults) {
        const r = this.faults('BeforeCommit', op);
        if (r instanceof Promise) throw new Error('a BeforeCommit fault hook must be synchronous');
      }
      this.db.exec('COMMIT');
    } catch (e) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw mapSqliteError(e, false);
    }
    if (this.faults) await this.faults('AfterCommit', op);
    return result;
  }

  /** A read in a deferred transaction: a snapshot in WAL mode. */
  private async read<T>(fn: () => T): Promise<T> {
    this.checkOpen();
    try {
      this.db.exec('BEGIN');
      try {
        return fn();
      } finally {
        if (this.db.inTransaction) this.db.exec('COMMIT');
      }
    } catch (e) {
      throw mapSqliteError(e, true);
    }
  }

  /** Bounded pruning of expired commit tokens, commit records and GC tombstones. */
  private prune(stamp: Stamp): void {
    this.run(
      'DELETE FROM request_tokens WHERE id IN (SELECT id FROM request_tokens WHERE stamp < ? LIMIT ?)',
      stamp - REQUEST_TOKEN_TTL_MS,
      PRUNE_BATCH,
    );
    // Pruned only after 2·window + maxClockSkew, so no object is ever committed twice (spec §3.2.2).
    this.run(
      'DELETE FROM wal_commits WHERE (object, grp) IN (SELECT object, grp FROM wal_commits WHERE stamp < ? LIMIT ?)',
      stamp - WAL_COMMIT_RECORD_TTL_MS,
      PRUNE_BATCH,
    );
    this.run(
      'DELETE FROM object_refs WHERE path IN (SELECT path FROM object_refs WHERE deleted = 1 AND claim_stamp < ? LIMIT ?)',
      stamp - WAL_COMMIT_RECORD_TTL_MS,
      PRUNE_BATCH,
    );
  }

  private nextId(kind: 'namespace' | 'stream' | 'collection' | 'link'): number {
    return (this.get<{ value: number }>('UPDATE counters SET value = value + 1 WHERE kind = ? RETURNING value', kind))!.value;
  }

  private recordChange(ns: number, kind: ChangeKind, id: number | null, stamp: Stamp): void {
    this.run('INSERT INTO catalog_changes (ns, kind, id, stamp) VALUES (?, ?, ?, ?)', ns, kind, id, stamp);
    this.pendingWake = true;
  }
  private pendingWake = false;

  private wake<T>(p: Promise<T>): Promise<T> {
    return p.finally(() => {
      if (this.pendingWake) {
        this.pendingWake = false;
        this.changed.emit('change');
      }
    });
  }

  // ------------------------------------------------------------ row loaders

  private liveNamespace(ns: number): Namespace {
    const r = this.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns);
    if (!r || r.state !== 'live') throw errors.notFound(`namespace ${ns}`);
    return toNamespace(r);
  }

  private liveCollection(ns: number, id: number): Collection {
    const r = this.get<Row>('SELECT * FROM collections WHERE ns = ? AND id = ?', ns, id);
    if (!r || r.state !== 'live') throw errors.notFound(`collection ${id} in namespace ${ns}`);
    return toCollection(r);
  }

  private liveStream(ns: number, id: number): Stream {
    const r = this.get<Row>('SELECT * FROM streams WHERE ns = ? AND id = ?', ns, id);
    if (!r || r.state !== 'live') throw errors.notFound(`stream ${id} in namespace ${ns}`);
    return toStream(r);
  }

  private head(ns: number, stream: number, partition: number): PartitionHead {
    const r = this.get<{ next: number; log_start: number; bytes: number }>(
      'SELECT next, log_start, bytes FROM heads WHERE ns = ? AND stream = ? AND partition = ?',
      ns,
      stream,
      partition,
    );
    return { partition, next: r?.next ?? 0, logStart: r?.log_start ?? 0, bytes: r?.bytes ?? 0 };
  }

  private heads(ns: number, stream: number, partitions: number): PartitionHead[] {
    return toHeads(this.all<Row>('SELECT partition, next, log_start, bytes FROM heads WHERE ns = ? AND stream = ? ORDER BY partition', ns, stream), partitions);
  }


  /** FenceMismatch unless the fence's lease is at its epoch (read in the write's transaction). */
  private checkFence(fence: Fence | undefined, what: string): void {
    if (!fence) return;
    const l = this.get<{ epoch: number; owner: string | null }>('SELECT epoch, owner FROM leases WHERE scope = ? AND key = ?', scopeKey(fence.scope), fence.key);
    if (!l || l.epoch !== fence.epoch) throw errors.fenceMismatch(what, fence.epoch, l?.epoch ?? 0, l?.owner ?? null);
  }

  /** Takes n references on a path; Claimed if GC claimed or deleted it (spec §3.2.3). */
  private addRef(path: string, kind: 'wal' | 'segment' | 'manifest', n: number): void {
    const r = this.get<{ claim_owner: string | null; deleted: number }>(
      'SELECT claim_owner, deleted FROM object_refs WHERE path = ?',
      path,
    );
    if (r && (r.claim_owner !== null || r.deleted === 1)) throw errors.claimed(path);
    this.run(
      `INSERT INTO object_refs (path, kind, refs) VALUES (?, ?, ?)
       ON CONFLICT (path) DO UPDATE SET refs = refs + excluded.refs, retired = NULL,
         kind = CASE WHEN kind = 'unknown' THEN excluded.kind ELSE kind END`,
      path,
      kind,
      n,
    );
  }

  /** Releases n references; a WAL object at zero is retired (its live count, spec §5.2). */
  private dropRef(path: string, n: number, stamp: Stamp): void {
    const r = this.get<{ refs: number; kind: string }>('SELECT refs, kind FROM object_refs WHERE path = ?', path);
    if (!r) return;
    const refs = r.refs - n;
    assert(refs >= 0, `object ${path}: reference count would go negative`);
    this.run('UPDATE object_refs SET refs = ?, retired = ? WHERE path = ?', refs, refs === 0 && r.kind === 'wal' ? stamp : null, path);
  }

  // ------------------------------------------------------------ catalog

  async createNamespace(req: CreateNamespace, w?: WriteContext): Promise<Namespace> {
    const org = v.name('org', req?.org);
    const name = v.name('name', req?.name);
    return this.wake(
      this.write('createNamespace', w, ({ stamp }) => {
        const existing = this.get<{ id: number }>("SELECT id FROM namespaces WHERE org = ? AND name = ? AND state = 'live'", org, name);
        if (existing) throw errors.alreadyExists(`namespace ${org}/${name}`, existing.id);
        const id = this.nextId('namespace');
        this.run("INSERT INTO namespaces (id, org, name, state, created) VALUES (?, ?, ?, 'live', ?)", id, org, name, stamp);
        this.recordChange(id, 'namespace.created', null, stamp);
        return { id, org, name, state: 'live', created: stamp } satisfies Namespace;
      }),
    );
  }

  async dropNamespace(ns: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    return this.wake(
      this.write('dropNamespace', w, ({ stamp }) => {
        this.liveNamespace(ns);
        const c = this.get<{ n: number }>("SELECT count(*) AS n FROM collections WHERE ns = ? AND state = 'live'", ns)!.n;
        const s = this.get<{ n: number }>("SELECT count(*) AS n FROM streams WHERE ns = ? AND state = 'live'", ns)!.n;
        if (c > 0 || s > 0) {
          throw errors.invalid('ns', `namespace ${ns} still has ${c} collection(s) and ${s} stream(s); drop them first`);
        }
        this.run("UPDATE namespaces SET state = 'dropping' WHERE id = ?", ns);
        this.recordChange(ns, 'namespace.dropped', null, stamp);
      }),
    );
  }

  async namespace(ns: number, opts?: ReadOptions): Promise<Namespace> {
    v.id('ns', ns);
    return this.read(() => {
      const r = this.get<Row>('SELECT * FROM namespaces WHERE id = ?', ns);
      if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`namespace ${ns}`);
      return toNamespace(r);
    });
  }

  async namespaceByName(org: string, name: string): Promise<Namespace> {
    v.name('org', org);
    v.name('name', name);
    return this.read(() => {
      const r = this.get<Row>("SELECT * FROM namespaces WHERE org = ? AND name = ? AND state = 'live'", org, name);
      if (!r) throw errors.notFound(`namespace ${org}/${name}`);
      return toNamespace(r);
    });
  }

  async listNamespaces(org: string, page?: PageRequest): Promise<Page<Namespace>> {
    v.name('org', org);
    const p = v.page(page);
    return this.read(() =>
      paged(
        this.all<Row>(
          `SELECT * FROM namespaces WHERE org = ? AND state = 'live' AND substr(name, 1, ?) = ? AND name > ?
           ORDER BY name LIMIT ?`,
          org,
          p.prefix.length,
          p.prefix,
          p.after ?? '',
          p.limit + 1,
        ).map(toNamespace),
        p.limit,
        (n) => n.name,
      ),
    );
  }

  async createCollection(req: CreateCollection, w?: WriteContext): Promise<Collection> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const schema = v.schema('schema', req.schema);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    const mret = v.manifestRetention(req.manifestRetentionMs);
    return this.wake(
      this.write('createCollection', w, ({ stamp }) => {
        this.liveNamespace(ns);
        const existing = this.get<{ id: number }>("SELECT id FROM collections WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
        if (existing) throw errors.alreadyExists(`collection ${name} in namespace ${ns}`, existing.id);
        const id = this.nextId('collection');
        const streamId = this.nextId('stream');
        const linkId = this.nextId('link');
        this.run(
          `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
           VALUES (?, ?, ?, ?, ?, ?, 1, 'live', ?)`,
          ns,
          streamId,
          implicitStreamName(name),
          partitions,
          retention.ms,
          retention.bytes,
          stamp,
        );
        this.run(
          `INSERT INTO collections (ns, id, name, schema, schema_version, stream_id, link_id, partitions,
             manifest_retention_ms, state, created) VALUES (?, ?, ?, ?, 1, ?, ?, ?, ?, 'live', ?)`,
          ns,
          id,
          name,
          JSON.stringify(schema),
          streamId,
          linkId,
          partitions,
          mret,
          stamp,
        );
        this.run("INSERT INTO links (ns, id, stream_id, collection_id, state) VALUES (?, ?, ?, ?, 'live')", ns, linkId, streamId, id);
        this.recordChange(ns, 'collection.created', id, stamp);
        return {
          ns,
          id,
          name,
          schema,
          schemaVersion: 1,
          streamId,
          linkId,
          partitions,
          manifestRetentionMs: mret,
          state: 'live',
          created: stamp,
        } satisfies Collection;
      }),
    );
  }

  async dropCollection(ns: number, collection: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    return this.wake(
      this.write('dropCollection', w, ({ stamp }) => {
        const c = this.liveCollection(ns, collection);
        this.run("UPDATE collections SET state = 'dropping' WHERE ns = ? AND id = ?", ns, collection);
        this.run("UPDATE streams SET state = 'dropping' WHERE ns = ? AND id = ?", ns, c.streamId);
        this.run("UPDATE links SET state = 'dropping' WHERE ns = ? AND id = ?", ns, c.linkId);
        const key = linkPointerKey(c.linkId);
        const p = this.get<{ value: string }>('SELECT value FROM pointers WHERE ns = ? AND key = ?', ns, key);
        if (p) {
          this.dropRef(p.value, 1, stamp);
          this.run('DELETE FROM pointers WHERE ns = ? AND key = ?', ns, key);
        }
        const a = this.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
        if (a) {
          const map = JSON.parse(a.map) as Record<string, number>;
          const kept = Object.fromEntries(Object.entries(map).filter(([, cid]) => cid !== collection));
          if (Object.keys(kept).length !== Object.keys(map).length) {
            this.run('UPDATE aliases SET version = ?, map = ? WHERE ns = ?', a.version + 1, JSON.stringify(kept), ns);
          }
        }
        this.recordChange(ns, 'collection.dropped', collection, stamp);
      }),
    );
  }

  async janitor(ns: number, w?: WriteContext): Promise<{ collections: number; streams: number; done: boolean }> {
    v.id('ns', ns);
    return this.write('janitor', w, ({ stamp }) => {
      let budget = JANITOR_BATCH_ENTRIES;
      let streams = 0;
      const dropping = this.all<{ id: number }>("SELECT id FROM streams WHERE ns = ? AND state = 'dropping' ORDER BY id", ns);
      for (const { id } of dropping) {
        const entries = this.all<{ partition: number; start: number; path: string }>(
          'SELECT partition, start, path FROM index_entries WHERE ns = ? AND stream = ? ORDER BY partition, start LIMIT ?',
          ns,
          id,
          budget + 1,
        );
        const batch = entries.slice(0, budget);
        for (const e of batch) {
          this.dropRef(e.path, 1, stamp);
          this.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start = ?', ns, id, e.partition, e.start);
        }
        budget -= batch.length;
        if (entries.length > batch.length) return { collections: 0, streams, done: false };
        this.run('DELETE FROM heads WHERE ns = ? AND stream = ?', ns, id);
        this.run('DELETE FROM streams WHERE ns = ? AND id = ?', ns, id);
        streams++;
      }
      // Collections last: their implicit streams are gone by now, so a janitor stopped half-way
      // finds its work again.
      let collections = 0;
      for (const c of this.all<Row>("SELECT * FROM collections WHERE ns = ? AND state = 'dropping' ORDER BY id", ns).map(toCollection)) {
        for (const t of this.all<{ path: string }>('SELECT path FROM tags WHERE ns = ? AND collection = ?', ns, c.id)) this.dropRef(t.path, 1, stamp);
        this.run('DELETE FROM tags WHERE ns = ? AND collection = ?', ns, c.id);
        this.run('DELETE FROM pointer_history WHERE ns = ? AND key = ?', ns, linkPointerKey(c.linkId));
        this.run('DELETE FROM links WHERE ns = ? AND id = ?', ns, c.linkId);
        this.run('DELETE FROM collections WHERE ns = ? AND id = ?', ns, c.id);
        collections++;
      }
      return { collections, streams, done: true };
    });
  }

  async collection(ns: number, collection: number, opts?: ReadOptions): Promise<Collection> {
    v.id('ns', ns);
    v.id('collection', collection);
    return this.read(() => {
      const r = this.get<Row>('SELECT * FROM collections WHERE ns = ? AND id = ?', ns, collection);
      if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
      return toCollection(r);
    });
  }

  async collectionByName(ns: number, name: string): Promise<Collection> {
    v.id('ns', ns);
    v.name('name', name);
    return this.read(() => {
      const r = this.get<Row>("SELECT * FROM collections WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
      if (!r) throw errors.notFound(`collection ${name} in namespace ${ns}`);
      return toCollection(r);
    });
  }

  async listCollections(ns: number, page?: PageRequest): Promise<Page<Collection>> {
    v.id('ns', ns);
    const p = v.page(page);
    return this.read(() => this.listLiveByName('collections', ns, p, toCollection));
  }

  async updateCollectionSchema(
    ns: number,
    collection: number,
    expectedVersion: number,
    schema: CollectionSchema,
    w?: WriteContext,
  ): Promise<Collection> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.id('expectedVersion', expectedVersion);
    const s = v.schema('schema', schema);
    return this.wake(
      this.write('updateCollectionSchema', w, ({ stamp }) => {
        const c = this.liveCollection(ns, collection);
        if (c.schemaVersion !== expectedVersion) {
          throw errors.versionMismatch(`schema of collection ${collection}`, expectedVersion, c.schemaVersion);
        }
        if (s.primaryKey !== c.schema.primaryKey) {
          throw errors.invalid('schema.primaryKey', `cannot change from ${c.schema.primaryKey} to ${s.primaryKey}`);
        }
        this.run('UPDATE collections SET schema = ?, schema_version = ? WHERE ns = ? AND id = ?', JSON.stringify(s), c.schemaVersion + 1, ns, collection);
        this.recordChange(ns, 'collection.schema', collection, stamp);
        return { ...c, schema: s, schemaVersion: c.schemaVersion + 1 };
      }),
    );
  }

  async updateAliases(ns: number, actions: AliasAction[], expectedVersion?: number, w?: WriteContext): Promise<Aliases> {
    v.id('ns', ns);
    v.aliasActions(actions);
    if (expectedVersion !== undefined) v.nonNegInt('expectedVersion', expectedVersion);
    return this.wake(
      this.write('updateAliases', w, ({ stamp }) => {
        this.liveNamespace(ns);
        const a = this.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
        const version = a?.version ?? 0;
        if (expectedVersion !== undefined && expectedVersion !== version) {
          throw errors.versionMismatch(`aliases of namespace ${ns}`, expectedVersion, version);
        }
        const map = a ? (JSON.parse(a.map) as Record<string, number>) : {};
        for (const act of actions) {
          if (act.op === 'set') {
            this.liveCollection(ns, act.collection);
            map[act.alias] = act.collection;
          } else {
            // Removing an absent alias is a no-op, like deleting a missing key.
            delete map[act.alias];
          }
        }
        const n = Object.keys(map).length;
        if (n > MAX_ALIASES) throw errors.limitExceeded('MAX_ALIASES per namespace', MAX_ALIASES, n);
        this.run(
          'INSERT INTO aliases (ns, version, map) VALUES (?, ?, ?) ON CONFLICT (ns) DO UPDATE SET version = excluded.version, map = excluded.map',
          ns,
          version + 1,
          JSON.stringify(map),
        );
        this.recordChange(ns, 'aliases', null, stamp);
        return { ns, version: version + 1, aliases: map };
      }),
    );
  }

  async aliases(ns: number): Promise<Aliases> {
    v.id('ns', ns);
    return this.read(() => {
      this.liveNamespace(ns);
      const a = this.get<{ version: number; map: string }>('SELECT version, map FROM aliases WHERE ns = ?', ns);
      return { ns, version: a?.version ?? 0, aliases: a ? (JSON.parse(a.map) as Record<string, number>) : {} };
    });
  }

  async createStream(req: CreateStream, w?: WriteContext): Promise<Stream> {
    const ns = v.id('ns', req?.ns);
    const name = v.name('name', req.name);
    const partitions = v.partitions('partitions', req.partitions);
    const retention = v.retention('retention', req.retention);
    return this.wake(
      this.write('createStream', w, ({ stamp }) => {
        this.liveNamespace(ns);
        const existing = this.get<{ id: number }>("SELECT id FROM streams WHERE ns = ? AND name = ? AND state = 'live'", ns, name);
        if (existing) throw errors.alreadyExists(`stream ${name} in namespace ${ns}`, existing.id);
        const id = this.nextId('stream');
        this.run(
          `INSERT INTO streams (ns, id, name, partitions, retention_ms, retention_bytes, implicit, state, created)
           VALUES (?, ?, ?, ?, ?, ?, 0, 'live', ?)`,
          ns,
          id,
          name,
          partitions,
          retention.ms,
          retention.bytes,
          stamp,
        );
        this.recordChange(ns, 'stream.created', id, stamp);
        return { ns, id, name, partitions, retention, implicit: false, state: 'live', created: stamp } satisfies Stream;
      }),
    );
  }

  async dropStream(ns: number, stream: number, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('stream', stream);
    return this.wake(
      this.write('dropStream', w, ({ stamp }) => {
        const s = this.liveStream(ns, stream);
        if (s.implicit) throw errors.invalid('stream', `stream ${stream} belongs to a collection; drop the collection instead`);
        this.run("UPDATE streams SET state = 'dropping' WHERE ns = ? AND id = ?", ns, stream);
        this.recordChange(ns, 'stream.dropped', stream, stamp);
      }),
    );
  }

  async stream(ns: number, stream: number, opts?: ReadOptions): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    return this.read(() => {
      const r = this.get<Row>('SELECT * FROM streams WHERE ns = ? AND id = ?', ns, stream);
      if (!r || (r.state !== 'live' && !opts?.includeDropping)) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
      return toStream(r);
    });
  }

  async listStreams(ns: number, page?: PageRequest): Promise<Page<Stream>> {
    v.id('ns', ns);
    const p = v.page(page);
    return this.read(() => this.listLiveByName('streams', ns, p, toStream));
  }

  async setRetention(ns: number, stream: number, retention: Retention, w?: WriteContext): Promise<Stream> {
    v.id('ns', ns);
    v.id('stream', stream);
    const r = v.retention('retention', retention);
    return this.wake(
      this.write('setRetention', w, ({ stamp }) => {
        const s = this.liveStream(ns, stream);
        this.run('UPDATE streams SET retention_ms = ?, retention_bytes = ? WHERE ns = ? AND id = ?', r.ms, r.bytes, ns, stream);
        this.recordChange(ns, 'stream.retention', stream, stamp);
        return { ...s, retention: r };
      }),
    );
  }

  // ------------------------------------------------------------ log

  async commitWal(commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
    v.walCommit(commit);
    const { groupOf, groups } = planGroups(commit.chunks, this.caps.maxChunksPerGroup);
    if (groups > 1) {
      // Input checks that depend on stored state (streams, partition counts) run before the
      // first group commits, so a commit that can never succeed writes nothing. A stream
      // dropped between groups still fails only its own and later groups (spec §3.1).
      await this.read(() => {
        const parts = new Map<string, number>();
        for (const c of commit.chunks) this.checkChunk(c.ns, c.stream, c.partition, parts);
      });
    }
    const assigned: AssignedRange[] = new Array(commit.chunks.length);
    // One transaction per partition group, each with its own commit record (spec §3.1).
    // The requestId is not used: (object, group) is the idempotency key.
    const ctx: WriteContext = w?.stamp === undefined ? {} : { stamp: w.stamp };
    for (let g = 0; g < groups; g++) {
      const idx: number[] = [];
      groupOf.forEach((gg, i) => gg === g && idx.push(i));
      const ranges = await this.write('commitWal', ctx, ({ stamp }) => this.commitGroup(commit, g, idx, stamp));
      idx.forEach((i, k) => (assigned[i] = ranges[k]!));
    }
    return { object: commit.object, assigned, groups };
  }

  private commitGroup(commit: WalCommit, g: number, idx: number[], stamp: Stamp): AssignedRange[] {
    const chunks = idx.map((i) => commit.chunks[i]!);
    const rec = this.get<{ result: string }>('SELECT result FROM wal_commits WHERE object = ? AND grp = ?', commit.object, g);
    if (rec) {
      const ranges = JSON.parse(rec.result) as AssignedRange[];
      const same =
        ranges.length === chunks.length &&
        ranges.every((r, k) => {
          const c = chunks[k]!;
          return r.ns === c.ns && r.stream === c.stream && r.partition === c.partition && r.end - r.start === c.records;
        });
      if (!same) throw errors.invalid('chunks', `WAL object ${commit.object} group ${g} was committed with different chunks`);
      return ranges;
    }
    const age = stamp - commit.objectStamp;
    if (age > WAL_COMMIT_WINDOW_MS) throw errors.staleCommit(commit.object, age, WAL_COMMIT_WINDOW_MS);
    const ranges: AssignedRange[] = [];
    const partitionsOf = new Map<string, number>();
    for (const c of chunks) {
      this.checkChunk(c.ns, c.stream, c.partition, partitionsOf);
      const start = this.head(c.ns, c.stream, c.partition).next;
      const end = start + c.records;
      const bytes = c.byteEnd - c.byteStart;
      this.run(
        `INSERT INTO heads (ns, stream, partition, next, log_start, bytes) VALUES (?, ?, ?, ?, 0, ?)
         ON CONFLICT (ns, stream, partition) DO UPDATE SET next = excluded.next, bytes = bytes + excluded.bytes`,
        c.ns,
        c.stream,
        c.partition,
        end,
        bytes,
      );
      this.run(
        `INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
         VALUES (?, ?, ?, ?, ?, 'wal', ?, ?, ?, ?)`,
        c.ns,
        c.stream,
        c.partition,
        start,
        end,
        commit.object,
        c.byteStart,
        c.byteEnd,
        c.records,
      );
      ranges.push({ ns: c.ns, stream: c.stream, partition: c.partition, start, end, group: g });
    }
    this.addRef(commit.object, 'wal', chunks.length);
    this.run('INSERT INTO wal_commits (object, grp, result, stamp) VALUES (?, ?, ?, ?)', commit.object, g, JSON.stringify(ranges), stamp);
    return ranges;
  }

  /** Live collections or streams of a live namespace, one page by name (spec §5.4). */
  private listLiveByName<T extends { name: string }>(
    table: 'collections' | 'streams',
    ns: number,
    p: { prefix: string; after: string | null; limit: number },
    map: (r: Row) => T,
  ): Page<T> {
    this.liveNamespace(ns);
    const rows = this.all<Row>(
      `SELECT * FROM ${table} WHERE ns = ? AND state = 'live' AND substr(name, 1, ?) = ? AND name > ? ORDER BY name LIMIT ?`,
      ns,
      p.prefix.length,
      p.prefix,
      p.after ?? '',
      p.limit + 1,
    );
    return paged(rows.map(map), p.limit, (t) => t.name);
  }

  /** A chunk's stream is live and its partition in range; `cache` holds partition counts. */
  private checkChunk(ns: number, stream: number, partition: number, cache: Map<string, number>): void {
    const sk = `${ns}/${stream}`;
    let parts = cache.get(sk);
    if (parts === undefined) {
      parts = this.liveStream(ns, stream).partitions;
      cache.set(sk, parts);
    }
    if (partition >= parts) {
      throw errors.invalid('partition', `stream ${stream} has ${parts} partitions; partition ${partition} is out of range`);
    }
  }

  async partitionIndex(ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    const from = opts?.from === undefined ? 0 : v.nonNegInt('from', opts.from);
    const limit = opts?.limit === undefined ? MAX_INDEX_PAGE : v.nonNegInt('limit', opts.limit, MAX_INDEX_PAGE);
    if (limit < 1) throw errors.invalid('limit', `must be in 1..${MAX_INDEX_PAGE}`);
    return this.read(() => {
      const s = this.liveStream(ns, stream);
      if (partition >= s.partitions) throw errors.invalid('partition', `stream ${stream} has ${s.partitions} partitions`);
      // Read order (spec §3.3): the head, then the entries (one snapshot here).
      const h = this.head(ns, stream, partition);
      const lo = Math.max(from, h.logStart);
      if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] };
      const rows = this.all<Row>(
        `SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ?
           AND start >= coalesce((SELECT max(start) FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start <= ?), 0)
         ORDER BY start LIMIT ?`,
        ns,
        stream,
        partition,
        ns,
        stream,
        partition,
        lo,
        limit + 1,
      );
      const entries = rows.slice(0, limit).map(toEntry);
      // Invariant: a contiguous run covering lo onward, never past the head.
      assert(entries.length > 0 && entries[0]!.start <= lo && entries[0]!.end > lo, `partition ${partition}: no entry covers offset ${lo}`);
      for (let i = 1; i < entries.length; i++) {
        assert(entries[i - 1]!.end === entries[i]!.start, `partition ${partition}: gap at offset ${entries[i - 1]!.end}`);
      }
      const last = entries[entries.length - 1]!;
      assert(last.end <= h.next, `partition ${partition}: entry ends past the head`);
      const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
      if (rows.length > limit) out.nextFrom = last.end;
      return out;
    });
  }

  async streamState(ns: number, stream: number): Promise<StreamState> {
    v.id('ns', ns);
    v.id('stream', stream);
    return this.read(() => {
      const s = this.liveStream(ns, stream);
      return { stream: s, heads: this.heads(ns, stream, s.partitions) };
    });
  }

  async collectionHead(ns: number, collection: number): Promise<CollectionHead> {
    v.id('ns', ns);
    v.id('collection', collection);
    return this.read(() => {
      const c = this.liveCollection(ns, collection);
      // Read order (spec §3.3): pointer first, then heads.
      const p = this.get<Row>('SELECT * FROM pointers WHERE ns = ? AND key = ?', ns, linkPointerKey(c.linkId));
      const heads = this.heads(ns, c.streamId, c.partitions);
      return { collection: c, pointer: p ? toPointer(p) : null, heads };
    });
  }

  async swapSegment(swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }> {
    v.segmentSwap(swap);
    const fence = v.fence(opts?.fence);
    return this.write('swapSegment', opts, ({ stamp }) => {
      const { ns, stream, partition } = swap;
      const s = this.liveStream(ns, stream);
      this.checkFence(fence, `segments of partition ${partition}`);
      if (partition >= s.partitions) throw errors.invalid('partition', `stream ${stream} has ${s.partitions} partitions`);
      const rows = this.all<Row>(
        `SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start >= ? AND start < ?
         ORDER BY start LIMIT ?`,
        ns,
        stream,
        partition,
        swap.start,
        swap.end,
        this.caps.maxSwapEntries + 1,
      ).map(toEntry);
      const first = rows[0];
      if (first && first.kind === 'segment' && first.path === swap.path && first.start === swap.start && first.end === swap.end) {
        return { entry: first }; // a retry of a swap that applied
      }
      if (rows.length > this.caps.maxSwapEntries) {
        throw errors.limitExceeded('maxSwapEntries', this.caps.maxSwapEntries, rows.length);
      }
      const h = this.head(ns, stream, partition);
      if (swap.start < h.logStart) throw errors.notFound(`offsets from ${swap.start} of partition ${partition} (trimmed to ${h.logStart})`);
      if (swap.end > h.next) throw errors.invalid('end', `is past the partition's head (${h.next})`);
      const last = rows[rows.length - 1];
      if (!first || first.start !== swap.start || !last || last.end !== swap.end) {
        throw errors.invalid('start', `[${swap.start}, ${swap.end}) does not start and end on index entry boundaries`);
      }
      let records = 0;
      let oldBytes = 0;
      for (const e of rows) {
        records += e.records;
        oldBytes += e.byteEnd - e.byteStart;
      }
      this.addRef(swap.path, 'segment', 1);
      this.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start >= ? AND start < ?', ns, stream, partition, swap.start, swap.end);
      for (const e of rows) this.dropRef(e.path, 1, stamp);
      const entry: IndexEntry = {
        partition,
        start: swap.start,
        end: swap.end,
        kind: 'segment',
        path: swap.path,
        byteStart: swap.byteStart,
        byteEnd: swap.byteEnd,
        records,
      };
      this.run(
        `INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
         VALUES (?, ?, ?, ?, ?, 'segment', ?, ?, ?, ?)`,
        ns,
        stream,
        partition,
        entry.start,
        entry.end,
        entry.path,
        entry.byteStart,
        entry.byteEnd,
        records,
      );
      this.run(
        'UPDATE heads SET bytes = bytes + ? WHERE ns = ? AND stream = ? AND partition = ?',
        swap.byteEnd - swap.byteStart - oldBytes,
        ns,
        stream,
        partition,
      );
      return { entry };
    });
  }

  async trimPartition(ns: number, stream: number, partition: number, logStart: number, opts?: { fence?: Fence } & WriteContext): Promise<PartitionHead> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    v.nonNegInt('logStart', logStart);
    const fence = v.fence(opts?.fence);
    return this.write('trimPartition', opts, ({ stamp }) => {
      const s = this.liveStream(ns, stream);
      if (partition >= s.partitions) throw errors.invalid('partition', `stream ${stream} has ${s.partitions} partitions`);
      this.checkFence(fence, `log start of partition ${partition}`);
      const h = this.head(ns, stream, partition);
      if (logStart > h.next) throw errors.invalid('logStart', `${logStart} is past the partition's head (${h.next})`);
      if (logStart <= h.logStart) return h; // never backward; a repeat is a no-op
      const gone = this.all<Row>(
        'SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND end <= ? ORDER BY start',
        ns,
        stream,
        partition,
        logStart,
      ).map(toEntry);
      let bytes = 0;
      for (const e of gone) {
        bytes += e.byteEnd - e.byteStart;
        this.dropRef(e.path, 1, stamp);
      }
      this.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND end <= ?', ns, stream, partition, logStart);
      this.run('UPDATE heads SET log_start = ?, bytes = bytes - ? WHERE ns = ? AND stream = ? AND partition = ?', logStart, bytes, ns, stream, partition);
      return { ...h, logStart, bytes: h.bytes - bytes };
    });
  }

  async segmentReferenced(ns: number, stream: number, path: string): Promise<boolean> {
    v.id('ns', ns);
    v.id('stream', stream);
    v.path('path', path);
    return this.read(
      () => this.get('SELECT 1 FROM index_entries WHERE path = ? AND ns = ? AND stream = ? LIMIT 1', path, ns, stream) !== undefined,
    );
  }

  async retiredWalObjects(page?: PageRequest): Promise<Page<{ path: string; retired: Stamp }>> {
    const p = v.page(page);
    return this.read(() =>
      paged(
        this.all<{ path: string; retired: number }>(
          `SELECT path, retired FROM object_refs WHERE kind = 'wal' AND retired IS NOT NULL AND refs = 0
             AND claim_owner IS NULL AND deleted = 0 AND substr(path, 1, ?) = ? AND path > ? ORDER BY path LIMIT ?`,
          p.prefix.length,
          p.prefix,
          p.after ?? '',
          p.limit + 1,
        ).map((r) => ({ path: r.path, retired: r.retired })),
        p.limit,
        (r) => r.path,
      ),
    );
  }

  // ------------------------------------------------------------ pointers

  async casPointer(
    ns: number,
    key: string,
    expectedVersion: number | null,
    value: string,
    opts?: { fence?: Fence } & WriteContext,
  ): Promise<Pointer> {
    v.id('ns', ns);
    v.key('key', key);
    if (expectedVersion !== null) v.id('expectedVersion', expectedVersion);
    v.path('value', value);
    const fence = opts?.fence;
    if (fence) {
      v.leaseScope(fence.scope);
      v.key('fence.key', fence.key);
      v.id('fence.epoch', fence.epoch);
    }
    return this.write('casPointer', opts, ({ stamp }) => {
      this.liveNamespace(ns);
      let retentionMs = DEFAULT_MANIFEST_RETENTION_MS;
      const link = parseLinkPointerKey(key);
      if (link !== null) {
        const l = this.get<{ collection_id: number; state: string }>('SELECT collection_id, state FROM links WHERE ns = ? AND id = ?', ns, link);
        if (!l || l.state !== 'live') throw errors.notFound(`collection of link ${link} in namespace ${ns}`);
        retentionMs = this.liveCollection(ns, l.collection_id).manifestRetentionMs;
      }
      if (fence) {
        const l = this.get<{ epoch: number; owner: string | null }>('SELECT epoch, owner FROM leases WHERE scope = ? AND key = ?', scopeKey(fence.scope), fence.key);
        if (!l || l.epoch !== fence.epoch) {
          throw errors.fenceMismatch(`pointer ${key}`, fence.epoch, l?.epoch ?? 0, l?.owner ?? null);
        }
      }
      const cur = this.get<{ version: number; value: string }>('SELECT version, value FROM pointers WHERE ns = ? AND key = ?', ns, key);
      const curVersion = cur?.version ?? null;
      if (curVersion !== expectedVersion) throw errors.versionMismatch(`pointer ${key}`, expectedVersion, curVersion);
      this.addRef(value, 'manifest', 1);
      const version = (curVersion ?? 0) + 1;
      if (cur) {
        this.dropRef(cur.value, 1, stamp);
        this.run('UPDATE pointer_history SET superseded = ? WHERE ns = ? AND key = ? AND version = ?', stamp, ns, key, cur.version);
        // Superseded past retention can no longer be tagged: forget them (bounded: few per key).
        this.run('DELETE FROM pointer_history WHERE ns = ? AND key = ? AND superseded < ?', ns, key, stamp - retentionMs);
      }
      this.run('INSERT INTO pointer_history (ns, key, version, value, superseded) VALUES (?, ?, ?, ?, NULL)', ns, key, version, value);
      this.run(
        `INSERT INTO pointers (ns, key, version, value, stamp) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (ns, key) DO UPDATE SET version = excluded.version, value = excluded.value, stamp = excluded.stamp`,
        ns,
        key,
        version,
        value,
        stamp,
      );
      return { ns, key, version, value, stamp } satisfies Pointer;
    });
  }

  async pointerVersion(ns: number, key: string, version: number): Promise<PointerVersion | null> {
    v.id('ns', ns);
    v.key('key', key);
    v.id('version', version);
    return this.read(() => {
      const r = this.get<{ value: string; superseded: number | null }>(
        'SELECT value, superseded FROM pointer_history WHERE ns = ? AND key = ? AND version = ?',
        ns,
        key,
        version,
      );
      return r ? { version, value: r.value, superseded: r.superseded } : null;
    });
  }

  async pointer(ns: number, key: string): Promise<Pointer | null> {
    v.id('ns', ns);
    v.key('key', key);
    return this.read(() => {
      const r = this.get<Row>('SELECT * FROM pointers WHERE ns = ? AND key = ?', ns, key);
      return r ? toPointer(r) : null;
    });
  }

  // ------------------------------------------------------------ leases

  private leaseRow(scope: LeaseScope, key: string): Lease | null {
    const r = this.get<{ owner: string | null; epoch: number; deadline: number }>(
      'SELECT owner, epoch, deadline FROM leases WHERE scope = ? AND key = ?',
      scopeKey(scope),
      key,
    );
    return r ? { scope, key, owner: r.owner, epoch: r.epoch, deadline: r.deadline } : null;
  }

  private putLease(l: Lease): Lease {
    this.run(
      `INSERT INTO leases (scope, key, owner, epoch, deadline) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (scope, key) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch, deadline = excluded.deadline`,
      scopeKey(l.scope),
      l.key,
      l.owner,
      l.epoch,
      l.deadline,
    );
    return l;
  }

  private checkScope(scope: LeaseScope): void {
    if (scope !== 'cluster') this.liveNamespace(scope);
  }

  async acquireLease(scope: LeaseScope, key: string, owner: string, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.ttl(ttlMs);
    return this.write('acquireLease', w, ({ stamp }) => {
      this.checkScope(scope);
      const cur = this.leaseRow(scope, key);
      const alive = cur !== null && cur.owner !== null && cur.deadline >= stamp;
      if (alive && cur.owner === owner) {
        return this.putLease({ ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) });
      }
      if (alive) throw errors.leaseHeld(key, cur.owner!, cur.epoch, cur.deadline);
      // Free, released or expired (judged on the proposer's stamp, spec §3.2): take over.
      return this.putLease({ scope, key, owner, epoch: (cur?.epoch ?? 0) + 1, deadline: stamp + ttlMs });
    });
  }

  async renewLease(scope: LeaseScope, key: string, owner: string, epoch: number, ttlMs: number, w?: WriteContext): Promise<Lease> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    v.ttl(ttlMs);
    return this.write('renewLease', w, ({ stamp }) => {
      this.checkScope(scope);
      const cur = this.leaseRow(scope, key);
      if (!cur || cur.owner !== owner || cur.epoch !== epoch || cur.deadline < stamp) {
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
      return this.putLease({ ...cur, deadline: Math.max(cur.deadline, stamp + ttlMs) });
    });
  }

  async releaseLease(scope: LeaseScope, key: string, owner: string, epoch: number, w?: WriteContext): Promise<void> {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    return this.write('releaseLease', w, () => {
      this.checkScope(scope);
      const cur = this.leaseRow(scope, key);
      if (!cur || cur.epoch !== epoch || (cur.owner !== owner && cur.owner !== null)) {
        throw errors.fenceMismatch(`lease ${key}`, epoch, cur?.epoch ?? 0, cur?.owner ?? null);
      }
      this.putLease({ ...cur, owner: null, deadline: 0 });
    });
  }

  async lease(scope: LeaseScope, key: string): Promise<Lease | null> {
    v.leaseScope(scope);
    v.key('key', key);
    return this.read(() => this.leaseRow(scope, key));
  }

  // ------------------------------------------------------------ tags

  async createTag(ns: number, collection: number, name: string, manifestVersion: number, w?: WriteContext): Promise<Tag> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    v.id('manifestVersion', manifestVersion);
    return this.write('createTag', w, ({ stamp }) => {
      const c = this.liveCollection(ns, collection);
      const key = linkPointerKey(c.linkId);
      const hRow = this.get<{ value: string; superseded: number | null }>(
        'SELECT value, superseded FROM pointer_history WHERE ns = ? AND key = ? AND version = ?',
        ns,
        key,
        manifestVersion,
      );
      // Retained: the current manifest, or one superseded less than manifestRetentionMs ago (spec §3.3).
      if (!hRow || (hRow.superseded !== null && hRow.superseded + c.manifestRetentionMs < stamp)) {
        throw errors.notFound(`retained manifest version ${manifestVersion} of collection ${collection}`);
      }
      const existing = this.get<{ version: number }>('SELECT version FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
      if (existing) throw errors.alreadyExists(`tag ${name} of collection ${collection}`, existing.version);
      this.addRef(hRow.value, 'manifest', 1);
      this.run(
        'INSERT INTO tags (ns, collection, name, version, path, created, rewritten_by) VALUES (?, ?, ?, ?, ?, ?, NULL)',
        ns,
        collection,
        name,
        manifestVersion,
        hRow.value,
        stamp,
      );
      return { ns, collection, name, manifestVersion, manifestPath: hRow.value, created: stamp, rewrittenBy: null } satisfies Tag;
    });
  }

  async dropTag(ns: number, collection: number, name: string, w?: WriteContext): Promise<void> {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    return this.write('dropTag', w, ({ stamp }) => {
      this.liveCollection(ns, collection);
      const t = this.get<{ path: string }>('SELECT path FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
      if (!t) throw errors.notFound(`tag ${name} of collection ${collection}`);
      this.run('DELETE FROM tags WHERE ns = ? AND collection = ? AND name = ?', ns, collection, name);
      this.dropRef(t.path, 1, stamp);
    });
  }

  async listTags(ns: number, collection: number, page?: PageRequest): Promise<Page<Tag>> {
    v.id('ns', ns);
    v.id('collection', collection);
    const p = v.page(page);
    return this.read(() => {
      this.liveCollection(ns, collection);
      return paged(
        this.all<Row>(
          `SELECT * FROM tags WHERE ns = ? AND collection = ? AND substr(name, 1, ?) = ? AND name > ? ORDER BY name LIMIT ?`,
          ns,
          collection,
          p.prefix.length,
          p.prefix,
          p.after ?? '',
          p.limit + 1,
        ).map(toTag),
        p.limit,
        (t) => t.name,
      );
    });
  }

  // ------------------------------------------------------------ GC

  async claimObject(path: string, owner: string, opts?: { fence?: Fence } & WriteContext): Promise<ClaimResult> {
    v.path('path', path);
    v.tokenString('owner', owner);
    const fence = v.fence(opts?.fence);
    return this.write('claimObject', opts, ({ stamp }) => {
      this.checkFence(fence, `claim on ${path}`);
      const r = this.get<{ refs: number; claim_owner: string | null; claim_epoch: number | null; deleted: number }>(
        'SELECT refs, claim_owner, claim_epoch, deleted FROM object_refs WHERE path = ?',
        path,
      );
      if (r && r.refs > 0) return { claimed: false, path, reason: 'referenced', refs: r.refs } satisfies ClaimResult;
      const takeover = r?.claim_owner != null && r.deleted === 0 && claimTakenOver(r.claim_owner, r.claim_epoch, owner, fence);
      if (r && (r.claim_owner !== null || r.deleted === 1) && !takeover) return { claimed: false, path, reason: 'claimed', refs: 0 } satisfies ClaimResult;
      // Atomic with "still unreferenced": the row's refs were read in this transaction.
      this.run(
        `INSERT INTO object_refs (path, kind, refs, claim_owner, claim_stamp, claim_epoch) VALUES (?, 'unknown', 0, ?, ?, ?)
         ON CONFLICT (path) DO UPDATE SET claim_owner = excluded.claim_owner, claim_stamp = excluded.claim_stamp, claim_epoch = excluded.claim_epoch`,
        path,
        owner,
        stamp,
        fence?.epoch ?? null,
      );
      return { claimed: true, path, owner, stamp, ...(takeover ? { takeover: true } : {}) } satisfies ClaimResult;
    });
  }

  async releaseClaim(path: string, owner: string, opts: { deleted: boolean }, w?: WriteContext): Promise<void> {
    v.path('path', path);
    v.tokenString('owner', owner);
    if (typeof opts?.deleted !== 'boolean') throw errors.invalid('deleted', 'must be true or false');
    return this.write('releaseClaim', w, ({ stamp }) => {
      const r = this.get<{ claim_owner: string | null; deleted: number }>('SELECT claim_owner, deleted FROM object_refs WHERE path = ?', path);
      if (r && r.deleted === 1 && opts.deleted) return; // a repeat
      if (!r || r.claim_owner !== owner) throw errors.notFound(`claim by ${owner} on ${path}`);
      if (opts.deleted) {
        // A tombstone: the path stays unreferenceable until it is pruned (after the commit-record TTL).
        this.run('UPDATE object_refs SET claim_owner = NULL, claim_stamp = ?, deleted = 1, retired = NULL WHERE path = ?', stamp, path);
      } else {
        this.run('UPDATE object_refs SET claim_owner = NULL, claim_stamp = NULL, claim_epoch = NULL WHERE path = ?', path);
      }
    });
  }

  async objectRef(path: string): Promise<ObjectRef | null> {
    v.path('path', path);
    return this.read(() => {
      const r = this.get<{ refs: number; claim_owner: string | null; claim_stamp: number | null }>(
        'SELECT refs, claim_owner, claim_stamp FROM object_refs WHERE path = ?',
        path,
      );
      if (!r) return null;
      return { path, refs: r.refs, claim: r.claim_owner === null ? null : { owner: r.claim_owner, stamp: r.claim_stamp ?? 0 } };
    });
  }

  // ------------------------------------------------------------ change feed

  async catalogVersion(): Promise<number> {
    return this.read(() => this.currentVersion());
  }

  private currentVersion(): number {
    return this.get<{ v: number | null }>('SELECT max(version) AS v FROM catalog_changes')!.v ?? 0;
  }

  async changesSince(version: number, limit?: number): Promise<ChangesPage> {
    v.nonNegInt('version', version);
    const lim = limit === undefined ? MAX_PAGE_LIMIT : v.nonNegInt('limit', limit, MAX_PAGE_LIMIT);
    if (lim < 1) throw errors.invalid('limit', `must be in 1..${MAX_PAGE_LIMIT}`);
    return this.read(() => {
      const rows = this.all<Row>('SELECT * FROM catalog_changes WHERE version > ? ORDER BY version LIMIT ?', version, lim + 1);
      const changes = rows.slice(0, lim).map(toChange);
      const more = rows.length > lim;
      const last = changes[changes.length - 1];
      return { changes, version: last ? last.version : Math.max(version, this.currentVersion()), more };
    });
  }

  async watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
    if (scope !== 'catalog') v.id('scope.ns', scope?.ns);
    v.nonNegInt('since', since);
    const timeoutMs = v.nonNegInt('timeoutMs', opts?.timeoutMs, MAX_WATCH_MS);
    const deadline = Date.now() + timeoutMs;
    const probe = (): WatchResult | null => {
      const hit =
        scope === 'catalog'
          ? this.get('SELECT 1 FROM catalog_changes WHERE version > ? LIMIT 1', since)
          : this.get('SELECT 1 FROM catalog_changes WHERE ns = ? AND version > ? LIMIT 1', scope.ns, since);
      return hit ? { version: this.currentVersion(), changed: true } : null;
    };
    // Bounded: at most timeoutMs / WATCH_POLL_MS + 1 probes.
    for (;;) {
      if (this.closed || opts.signal?.aborted) return { version: this.closed ? since : await this.catalogVersion(), changed: false };
      const r = await this.read(probe);
      if (r) return r;
      const left = deadline - Date.now();
      if (left <= 0) return { version: await this.catalogVersion(), changed: false };
      await this.waitForChange(Math.min(left, WATCH_POLL_MS), opts.signal);
    }
  }

  /** Wakes on this handle's own catalog writes at once, otherwise after `ms` (other handles). */
  private async waitForChange(ms: number, signal?: AbortSignal): Promise<void> {
    const ac = new AbortController();
    const onChange = () => ac.abort();
    const onAbort = () => ac.abort();
    this.changed.once('change', onChange);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await sleep(ms, undefined, { signal: ac.signal });
    } catch {
      // woken early
    } finally {
      this.changed.off('change', onChange);
      signal?.removeEventListener('abort', onAbort);
    }
  }
}

// ------------------------------------------------------------ mapping helpers










/** TigerBeetle-style invariant: a broken one is a bug in this backend, never the caller's input. */
function assert(cond: boolean, what: string): asserts cond {
  if (!cond) throw new Error(`embedded metastore invariant violated: ${what}`);
}

/** Maps SQLite's errors into the contract's (typed errors pass through). */
function mapSqliteError(e: unknown, beforeBegin: boolean): unknown {
  if (e instanceof MetaError || isMetaError(e)) return e;
  const code = (e as { code?: string }).code ?? '';
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || code.startsWith('SQLITE_BUSY_')) {
    return errors.retryable('busy', `the metastore file is locked by another writer (waited ${BUSY_TIMEOUT_MS} ms)`, beforeBegin);
  }
  if (code === 'SQLITE_FULL' || code === 'SQLITE_IOERR' || code.startsWith('SQLITE_IOERR_')) {
    return errors.unknown(`metastore I/O error (${code}): ${(e as Error).message}`);
  }
  return e;
}

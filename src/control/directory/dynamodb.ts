// The directory (spec §5.2) on DynamoDB, as item kinds (pk prefix `dir#`) in the ControlStore's
// table, on its client:
//
//   pk dir#ctr           sk ver | nsid | shardseq | feed    v (and, for feed, horizon)
//   pk dir#ns            sk <id, 16 digits>                 the entry
//   pk dir#name#<org>    sk <name>                          the entry (while not dropped): the name's reservation
//   pk dir#chg           sk <version, 16 digits>            the entry as of its newest change (one item per entry)
//   pk dir#shard         sk <name>                          identity, seq, added
//   pk dir#cur           sk <shard>                         v (the shard feed's copy position)
//   pk dir#feed          sk <version, 16 digits>            ns, kind, ref, stamp, shard (the cluster feed)
//   pk dir#feedns        sk <ns>                            v (the namespace's newest cluster change, kept by pruning)
//
// Every directory write is one TransactWriteItems that also moves `dir#ctr/ver` from the value
// the write read (a condition): directory writes are serialised by it, versions and namespace
// ids stay dense, and a write that lost the race re-reads and tries again after a jittered
// pause (bounded); one handle's writes take turns, so only other nodes' race them. Reads are
// consistent (base table). The delta chain is `dir#chg`: a change deletes the entry's previous
// chg item and puts the new one, so it holds each entry once, at its newest version. The
// single-item (alternator) profile has no transactions and is refused.
import {
  GetItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
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
  type FeedCursor,
  type PlacementState,
  type ShardRecord,
  type SizeClass,
} from '../../meta/backends/sharded/directory.js';
import type { CatalogChange, ChangeKind, NamespaceId, Page, PageRequest } from '../../meta/types.js';
import { checkEntryChange, checkReserve, checkShard } from './validate.js';
import { PRUNE_FEED_BATCH, PRUNE_FEED_EVERY } from './sql.js';
import { P16, dec, enc, type Obj } from '../dynamodb/codec.js';
import { jitter } from '../../meta/backends/dynamodb/sdk.js';

/**
 * Tries of a directory write that lost the version race, each after a jittered, doubling pause
 * (jitter: 5 ms doubling to at most 200 ms): writers that lost a round together must not try
 * again together, or the same few keep losing (nodes creating namespaces at once all move the
 * one version item). Bounded twice: by this count and by DIRECTORY_TX_BUDGET_MS.
 */
export const DIRECTORY_TX_ATTEMPTS = 40;
/** Wall time one directory write keeps trying for: past it, Retryable (nothing applied). */
export const DIRECTORY_TX_BUDGET_MS = 10_000;
/** Query pages followed per call (every loop a bound). */
export const MAX_DIRECTORY_QUERY_PAGES = 100;

const entryItem = (e: DirectoryEntry): Obj => ({
  id: e.id,
  org: e.org,
  name: e.name,
  shard: e.shard,
  state: e.state,
  sizeClass: e.sizeClass,
  version: e.version,
  ...(e.reservedBy !== undefined ? { reservedBy: e.reservedBy } : {}),
});
const toEntry = (o: Obj): DirectoryEntry => ({
  id: Number(o.id),
  org: String(o.org),
  name: String(o.name),
  shard: String(o.shard),
  state: String(o.state) as PlacementState,
  sizeClass: String(o.sizeClass) as SizeClass,
  version: Number(o.version),
  ...(typeof o.reservedBy === 'string' ? { reservedBy: o.reservedBy } : {}),
});

/** A write's items, or a result without writing. */
type Plan<T> = { items: TransactWriteItem[]; result: T };

export class DynamoDirectoryStore implements DirectoryStore {
  private readonly retention: FeedRetention;
  private appends = 0;
  private closed = false;
  /**
   * This handle's writes of each counter (the version item, the feed's), one at a time: its
   * own writers then race only other nodes' for the item, instead of each other (every wait is
   * bounded: a write ends within its attempts).
   */
  private readonly turns = { ver: Promise.resolve() as Promise<unknown>, feed: Promise.resolve() as Promise<unknown> };

  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
    private readonly profile: 'dynamodb' | 'alternator',
    opts: { feedRetention?: Partial<FeedRetention> } = {},
  ) {
    this.retention = feedRetention(opts.feedRetention);
  }

  async init(): Promise<void> {
    if (this.profile !== 'dynamodb') throw new Error('the directory needs multi-item transactions: put it on the dynamodb profile, not alternator');
  }

  async close(): Promise<void> {
    this.closed = true;
  }

  private put(pk: string, sk: string, o: Obj): TransactWriteItem {
    return { Put: { TableName: this.table, Item: enc({ pk, sk, ...o }) } };
  }
  private del(pk: string, sk: string): TransactWriteItem {
    return { Delete: { TableName: this.table, Key: enc({ pk, sk }) } };
  }

  private async get(pk: string, sk: string): Promise<Obj | undefined> {
    const r = await this.client.send(new GetItemCommand({ TableName: this.table, Key: enc({ pk, sk }), ConsistentRead: true }));
    return r.Item ? dec(r.Item) : undefined;
  }

  private async counter(sk: string): Promise<Obj> {
    return (await this.get('dir#ctr', sk)) ?? { v: 0 };
  }

  /** Items of a partition with sk in (lo, hi], at most `max` kept by `keep`, in sk order. */
  private async query(pk: string, o: { after?: string; upTo?: string; prefix?: string; max: number; keep?: (x: Obj) => boolean }): Promise<Obj[]> {
    const out: Obj[] = [];
    let start: Record<string, AttributeValue> | undefined;
    const conds = ['pk = :pk'];
    const vals: Obj = { ':pk': pk };
    if (o.after !== undefined && o.upTo !== undefined) {
      conds.push('sk BETWEEN :lo AND :hi');
      vals[':lo'] = `${o.after}\u0000`;
      vals[':hi'] = o.upTo;
    } else if (o.after !== undefined && o.after !== '') {
      conds.push('sk > :lo');
      vals[':lo'] = o.after;
    } else if (o.prefix) {
      conds.push('begins_with(sk, :pre)');
      vals[':pre'] = o.prefix;
    }
    for (let page = 0; page < MAX_DIRECTORY_QUERY_PAGES; page++) {
      const r = await this.client.send(
        new QueryCommand({ TableName: this.table, KeyConditionExpression: conds.join(' AND '), ExpressionAttributeValues: enc(vals), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
      );
      for (const w of r.Items ?? []) {
        const x = dec(w);
        if (o.prefix && !String(x.sk).startsWith(o.prefix)) continue;
        if (!o.keep || o.keep(x)) out.push(x);
        if (out.length >= o.max) return out;
      }
      start = r.LastEvaluatedKey;
      if (!start) return out;
    }
    return out;
  }

  /**
   * One directory write: `plan` reads what it decides on and returns the items; the version
   * item moves from the value read, so a concurrent write makes this one re-read and re-plan.
   */
  private write<T>(plan: (version: number) => Promise<Plan<T>>): Promise<T> {
    return this.inTurn('ver', () => this.writeNow(plan));
  }

  /** Runs `f` after this handle's earlier writes of the counter have ended, whatever their outcome. */
  private inTurn<T>(counter: keyof DynamoDirectoryStore['turns'], f: () => Promise<T>): Promise<T> {
    const run = this.turns[counter].then(f, f);
    this.turns[counter] = run.catch(() => undefined);
    return run;
  }

  private async writeNow<T>(plan: (version: number) => Promise<Plan<T>>): Promise<T> {
    const giveUp = Date.now() + DIRECTORY_TX_BUDGET_MS;
    for (let attempt = 1; attempt <= DIRECTORY_TX_ATTEMPTS && Date.now() < giveUp; attempt++) {
      if (attempt > 1) await jitter(attempt - 2);
      const ver = Number((await this.counter('ver')).v);
      const p = await plan(ver);
      if (p.items.length === 0) return p.result;
      const bump: TransactWriteItem = {
        Update: {
          TableName: this.table,
          Key: enc({ pk: 'dir#ctr', sk: 'ver' }),
          UpdateExpression: 'SET v = :n',
          ConditionExpression: ver === 0 ? 'attribute_not_exists(v) OR v = :o' : 'v = :o',
          ExpressionAttributeValues: enc({ ':n': ver + 1, ':o': ver }),
        },
      };
      try {
        await this.client.send(new TransactWriteItemsCommand({ TransactItems: [...p.items, bump] }));
        return p.result;
      } catch (e) {
        if ((e as { name?: string }).name !== 'TransactionCanceledException') throw e;
      }
    }
    throw errors.retryable('conflict', `the directory kept changing under this write (DIRECTORY_TX_ATTEMPTS ${DIRECTORY_TX_ATTEMPTS} tries within DIRECTORY_TX_BUDGET_MS ${DIRECTORY_TX_BUDGET_MS} ms); nothing was applied: try again`);
  }

  async version(): Promise<number> {
    return Number((await this.counter('ver')).v);
  }

  async reserve(org: string, name: string, shard: string, sizeClass: SizeClass, reservedBy?: string): Promise<{ entry: DirectoryEntry; created: boolean }> {
    checkReserve(org, name, shard, sizeClass, reservedBy);
    return this.write<{ entry: DirectoryEntry; created: boolean }>(async (ver) => {
      const held = await this.get(`dir#name#${org}`, name);
      if (held) return { items: [], result: { entry: toEntry(held), created: false } };
      if (!(await this.get('dir#shard', shard))) throw errors.invalid('shard', `no shard named ${shard} is in the directory`);
      const id = Number((await this.counter('nsid')).v) + 1;
      const entry: DirectoryEntry = { id, org, name, shard, state: 'creating', sizeClass, version: ver + 1, ...(reservedBy !== undefined ? { reservedBy } : {}) };
      return {
        items: [
          this.put('dir#ns', P16(id), entryItem(entry)),
          this.put(`dir#name#${org}`, name, entryItem(entry)),
          this.put('dir#chg', P16(entry.version), entryItem(entry)),
          this.put('dir#ctr', 'nsid', { v: id }),
        ],
        result: { entry, created: true },
      };
    });
  }

  async entry(ns: NamespaceId): Promise<DirectoryEntry | null> {
    const x = await this.get('dir#ns', P16(ns));
    return x ? toEntry(x) : null;
  }

  async entryByName(org: string, name: string): Promise<DirectoryEntry | null> {
    const x = await this.get(`dir#name#${org}`, name);
    return x ? toEntry(x) : null;
  }

  async listEntries(org: string, p?: PageRequest): Promise<Page<DirectoryEntry>> {
    const limit = Math.min(Math.max(1, p?.limit ?? DEFAULT_PAGE_LIMIT), MAX_PAGE_LIMIT);
    const prefix = p?.prefix ?? '';
    const rows = await this.query(`dir#name#${org}`, {
      ...(p?.after ? { after: p.after } : {}),
      max: limit + 1,
      keep: (x) => String(x.sk).startsWith(prefix),
    });
    const items = rows.slice(0, limit).map(toEntry);
    return rows.length > limit ? { items, next: items[items.length - 1]!.name } : { items };
  }

  async updateEntry(ns: NamespaceId, expectedVersion: number, change: EntryChange): Promise<DirectoryEntry> {
    checkEntryChange(change);
    return this.write<DirectoryEntry>(async (ver) => {
      const cur = await this.entry(ns);
      if (!cur) throw errors.notFound(`directory entry of namespace ${ns}`);
      if (cur.version !== expectedVersion) throw errors.versionMismatch(`directory entry of namespace ${ns}`, expectedVersion, cur.version);
      if (change.shard !== undefined && !(await this.get('dir#shard', change.shard))) throw errors.invalid('shard', `no shard named ${change.shard} is in the directory`);
      const next: DirectoryEntry = { ...cur, ...change, version: ver + 1 };
      const items = [this.put('dir#ns', P16(ns), entryItem(next)), this.del('dir#chg', P16(cur.version)), this.put('dir#chg', P16(next.version), entryItem(next))];
      if (cur.state !== 'dropped') items.push(next.state === 'dropped' ? this.del(`dir#name#${cur.org}`, cur.name) : this.put(`dir#name#${cur.org}`, cur.name, entryItem(next)));
      return { items, result: next };
    });
  }

  async changesSince(version: number, limit = MAX_DIRECTORY_PAGE): Promise<DirectoryChanges> {
    const lim = Math.min(Math.max(1, limit), MAX_DIRECTORY_PAGE);
    const current = await this.version();
    if (current <= version) return { entries: [], version: Math.max(version, current), more: false };
    const rows = await this.query('dir#chg', { after: P16(version), upTo: P16(current), max: lim + 1 });
    const entries = rows.slice(0, lim).map(toEntry);
    const more = rows.length > lim;
    return { entries, version: more ? entries[entries.length - 1]!.version : current, more };
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
    return this.write<ShardRecord>(async () => {
      const x = await this.get('dir#shard', name);
      if (x) {
        if (String(x.identity) !== identity) {
          throw errors.invalid('shards', `shard ${name} is ${String(x.identity)} in the directory, not ${identity}; a shard keeps its name and place`);
        }
        return { items: [], result: { name, identity, seq: Number(x.seq), added: Number(x.added) } };
      }
      const seq = Number((await this.counter('shardseq')).v) + 1;
      return { items: [this.put('dir#shard', name, { identity, seq, added: at }), this.put('dir#ctr', 'shardseq', { v: seq })], result: { name, identity, seq, added: at } };
    });
  }

  async shards(): Promise<ShardRecord[]> {
    const rows = await this.query('dir#shard', { max: 1_000 });
    return rows.map((x) => ({ name: String(x.sk), identity: String(x.identity), seq: Number(x.seq), added: Number(x.added) })).sort((a, b) => a.seq - b.seq);
  }

  async feedCursors(): Promise<FeedCursor[]> {
    const rows = await this.query('dir#cur', { max: 1_000 });
    return rows.map((x) => ({ shard: String(x.sk), shardVersion: Number(x.v) }));
  }

  async appendFeed(shard: string, from: number, to: number, changes: CatalogChange[], resync: boolean): Promise<boolean> {
    if (changes.length > MAX_FEED_APPEND) throw errors.limitExceeded('MAX_FEED_APPEND', MAX_FEED_APPEND, changes.length);
    if (to < from) return false;
    return this.inTurn('feed', () => this.appendFeedNow(shard, from, to, changes, resync));
  }

  private async appendFeedNow(shard: string, from: number, to: number, changes: CatalogChange[], resync: boolean): Promise<boolean> {
    const giveUp = Date.now() + DIRECTORY_TX_BUDGET_MS;
    for (let attempt = 1; attempt <= DIRECTORY_TX_ATTEMPTS && Date.now() < giveUp; attempt++) {
      if (attempt > 1) await jitter(attempt - 2);
      const ctr = await this.counter('feed');
      const top = Number(ctr.v);
      const horizon = Number(ctr.horizon ?? 0);
      const cursor: TransactWriteItem = {
        Update: {
          TableName: this.table,
          Key: enc({ pk: 'dir#cur', sk: shard }),
          UpdateExpression: 'SET v = :to',
          ConditionExpression: from === 0 ? 'attribute_not_exists(v) OR v = :from' : 'v = :from',
          ExpressionAttributeValues: enc({ ':to': to, ':from': from }),
        },
      };
      const items: TransactWriteItem[] = [cursor];
      if (changes.length > 0 || resync) {
        const n = top + changes.length;
        items.push({
          Update: {
            TableName: this.table,
            Key: enc({ pk: 'dir#ctr', sk: 'feed' }),
            UpdateExpression: 'SET v = :n, horizon = :h',
            ConditionExpression: top === 0 ? 'attribute_not_exists(v) OR v = :o' : 'v = :o',
            ExpressionAttributeValues: enc({ ':n': n, ':o': top, ':h': resync ? Math.max(horizon, top) : horizon }),
          },
        });
        const newest = new Map<number, number>();
        changes.forEach((c, k) => {
          items.push(this.put('dir#feed', P16(top + k + 1), { version: top + k + 1, ns: c.ns, kind: c.kind, ref: c.id, stamp: c.stamp, shard }));
          newest.set(c.ns, top + k + 1);
        });
        for (const [ns, v] of newest) items.push(this.put('dir#feedns', String(ns), { v }));
      }
      try {
        await this.client.send(new TransactWriteItemsCommand({ TransactItems: items }));
      } catch (e) {
        if ((e as { name?: string }).name !== 'TransactionCanceledException') throw e;
        const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
        if (reasons[0]?.Code === 'ConditionalCheckFailed') return false; // another node copied first
        continue; // the feed counter moved: another shard's copy; read it again
      }
      if (++this.appends % PRUNE_FEED_EVERY === 0) await this.pruneFeed().catch(() => undefined);
      return true;
    }
    throw errors.retryable('conflict', `the cluster feed kept moving under this copy (DIRECTORY_TX_ATTEMPTS ${DIRECTORY_TX_ATTEMPTS} tries within DIRECTORY_TX_BUDGET_MS ${DIRECTORY_TX_BUDGET_MS} ms); nothing was copied: try again`);
  }

  /** One bounded prune pass (core/feed.ts): old changes go, each namespace's newest stays; the horizon rises first. */
  private async pruneFeed(): Promise<void> {
    const ctr = await this.counter('feed');
    const b = feedPruneBounds(Number(ctr.v), Date.now(), this.retention);
    if (b.maxVersion <= 0) return;
    const rows = await this.query('dir#feed', { after: '', upTo: P16(b.maxVersion), max: PRUNE_FEED_BATCH, keep: (x) => Number(x.stamp) < b.before });
    const gone: Obj[] = [];
    for (const x of rows) {
      const newest = await this.get('dir#feedns', String(x.ns));
      if (!newest || Number(newest.v) > Number(x.version)) gone.push(x);
    }
    if (gone.length === 0) return;
    const high = Number(gone[gone.length - 1]!.version);
    const h = Number(ctr.horizon ?? 0);
    if (high > h) {
      await this.client.send(
        new TransactWriteItemsCommand({
          TransactItems: [{ Update: { TableName: this.table, Key: enc({ pk: 'dir#ctr', sk: 'feed' }), UpdateExpression: 'SET horizon = :h', ConditionExpression: 'horizon = :o OR attribute_not_exists(horizon)', ExpressionAttributeValues: enc({ ':h': high, ':o': h }) } }],
        }),
      );
    }
    for (let i = 0; i < gone.length; i += 25) {
      await this.client.send(new TransactWriteItemsCommand({ TransactItems: gone.slice(i, i + 25).map((x) => this.del('dir#feed', String(x.sk))) }));
    }
  }

  async feedVersion(): Promise<{ version: number; horizon: number }> {
    const ctr = await this.counter('feed');
    return { version: Number(ctr.v), horizon: Number(ctr.horizon ?? 0) };
  }

  async feedSince(version: number, limit: number, ns?: NamespaceId): Promise<ClusterFeedPage> {
    const { version: current, horizon } = await this.feedVersion();
    if (current <= version) return { changes: [], version: Math.max(version, current), more: false, horizon };
    const rows = await this.query('dir#feed', { after: P16(version), upTo: P16(current), max: limit + 1, ...(ns !== undefined ? { keep: (x) => Number(x.ns) === ns } : {}) });
    const changes: CatalogChange[] = rows.slice(0, limit).map((x) => ({
      version: Number(x.version),
      ns: Number(x.ns),
      kind: String(x.kind) as ChangeKind,
      id: x.ref === null ? null : Number(x.ref),
      stamp: Number(x.stamp),
    }));
    const more = rows.length > limit;
    return { changes, version: more ? changes[changes.length - 1]!.version : current, more, horizon };
  }
}


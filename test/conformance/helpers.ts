// Shared fixtures of the conformance suite (DESIGN §6). Not a test file itself: the runner
// picks up only `*.test.ts`. Every case opens a fresh, empty store from the backend factory
// named by LOAM_TEST_BACKEND and selects itself by capabilities(), never by backend name.
import assert from 'node:assert/strict';
import { backendFactory } from '../harness/backends.js';
import {
  isMetaError,
  type Capabilities,
  type Collection,
  type CollectionSchema,
  type MetaError,
  type MetaErrorCode,
  type MetaStore,
  type Namespace,
  type NamespaceId,
  type StreamId,
  type WalChunk,
  type WalCommit,
} from '../../src/meta/index.js';

export const factory = backendFactory();

/** The backend's capabilities, read once from a probe store (closed by factory.cleanup()). */
export const caps: Capabilities = (await factory.open()).capabilities();

/** Multi-group cases build maxChunksPerGroup+1 chunks (one commit) only when that stays small. */
export const SMALL_GROUP_LIMIT = 256;
/** The swap-limit case builds maxSwapEntries+1 entries, one commitWal each: about a second at 1,000. */
export const SMALL_SWAP_LIMIT = 1_000;
export const smallGroups = Number.isFinite(caps.maxChunksPerGroup) && caps.maxChunksPerGroup <= SMALL_GROUP_LIMIT;
export const smallSwaps = Number.isFinite(caps.maxSwapEntries) && caps.maxSwapEntries <= SMALL_SWAP_LIMIT;
export const multiItem = caps.transactions === 'multi-item';

/** node:test `skip` option: false when the capability holds, else the reason. */
export function needs(cond: boolean, what: string): false | string {
  return cond ? false : `backend lacks capability: ${what}`;
}

export function fresh(): Promise<MetaStore> {
  return factory.open();
}

export const SCHEMA: CollectionSchema = { primaryKey: 'id', fields: { id: 'string', body: 'json' } };

let seq = 0;
/** A name (or path component) unique within this process. */
export function uniq(prefix: string): string {
  seq += 1;
  return `${prefix}-${process.pid}-${seq}`;
}

/** A WAL object path unique within this process. */
export function walPath(): string {
  return `wal/${uniq('obj')}.wal`;
}

export interface World {
  store: MetaStore;
  ns: Namespace;
  coll: Collection;
}

/** A fresh store with one namespace and one collection of `partitions` partitions. */
export async function world(partitions = 4, extra: { manifestRetentionMs?: number } = {}): Promise<World> {
  const store = await fresh();
  const ns = await store.createNamespace({ org: 'org-a', name: 'ns-main' });
  if (!multiItem) {
    // Selected by capability: creating a collection is one multi-item transaction, so on a
    // single-item backend the fixture is the namespace alone, and a case that touches `coll`
    // is selected with needs(multiItem, …).
    return {
      store,
      ns,
      get coll(): Collection {
        throw new Error("this case uses the fixture's collection, which needs transactions 'multi-item': select it with needs(multiItem, …)");
      },
    };
  }
  const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions, ...extra });
  return { store, ns, coll };
}

export interface ChunkSpec {
  ns: NamespaceId;
  stream: StreamId;
  partition: number;
  records?: number;
}

/** A WAL commit whose chunks sit back to back in the object, 100 bytes per record. */
export function wal(chunks: ChunkSpec[], opts: { object?: string; objectStamp?: number } = {}): WalCommit {
  let at = 0;
  const out: WalChunk[] = chunks.map((c) => {
    const records = c.records ?? 1;
    const ch: WalChunk = {
      ns: c.ns,
      stream: c.stream,
      partition: c.partition,
      records,
      byteStart: at,
      byteEnd: at + records * 100,
    };
    at = ch.byteEnd;
    return ch;
  });
  return { object: opts.object ?? walPath(), objectStamp: opts.objectStamp ?? Date.now(), chunks: out };
}

/** A call under test: a promise, or a thunk (a synchronous throw counts as the rejection). */
export type Call = Promise<unknown> | (() => Promise<unknown>);

function settle(call: Call): Promise<unknown> {
  if (typeof call !== 'function') return call;
  try {
    return call();
  } catch (e) {
    // Contract methods return promises; that they should not throw synchronously is checked
    // by its own case (validation.test.ts), so other cases still check the error itself.
    return Promise.reject(e);
  }
}

/** Asserts that the call rejects with a MetaError of `code`, then runs `check` on it. */
export async function rejectsWith(call: Call, code: MetaErrorCode, check?: (e: MetaError) => void): Promise<void> {
  await assert.rejects(settle(call), (e: unknown) => {
    if (!isMetaError(e)) {
      assert.fail(`expected MetaError(${code}), got ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)}`);
    }
    assert.equal(e.code, code, `expected ${code}, got ${e.code}: ${e.message}`);
    check?.(e);
    return true;
  });
}

/**
 * Asserts InvalidArgument naming `field`: exactly, or as the last part of a dotted path
 * (a backend may name `req.name` for `name`), or matching a RegExp.
 */
export async function rejectsInvalid(call: Call, field: string | RegExp): Promise<void> {
  await rejectsWith(call, 'InvalidArgument', (e) => {
    const f = e.details.field;
    assert.equal(typeof f, 'string', `InvalidArgument must name the field (details.field); message: ${e.message}`);
    if (typeof field === 'string') {
      assert.ok(f === field || f!.endsWith(`.${field}`), `expected field ${field}, got ${f} (${e.message})`);
    } else {
      assert.match(f!, field, `field ${f} (${e.message})`);
    }
  });
}

/** Collects every page of a paginated list. Bounded, so a cursor that never ends fails the case. */
export async function allPages<T>(
  list: (after: string | undefined) => Promise<{ items: T[]; next?: string }>,
  maxPages = 1000,
): Promise<{ items: T[]; pages: number }> {
  const items: T[] = [];
  let after: string | undefined;
  for (let pages = 1; pages <= maxPages; pages++) {
    const page = await list(after);
    items.push(...page.items);
    if (page.next === undefined) return { items, pages };
    assert.notEqual(page.next, after, 'a page cursor must move forward');
    after = page.next;
  }
  assert.fail(`pagination did not end after ${maxPages} pages`);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Heads' `next` of a stream, by partition. */
export async function nexts(store: MetaStore, ns: NamespaceId, stream: StreamId): Promise<number[]> {
  const st = await store.streamState(ns, stream);
  return st.heads.map((h) => h.next);
}

/** Every index entry of a partition from logStart, following nextFrom; checks contiguity. */
export async function fullIndex(store: MetaStore, ns: NamespaceId, stream: StreamId, partition: number) {
  const first = await store.partitionIndex(ns, stream, partition);
  const entries = [...first.entries];
  let from = first.nextFrom;
  for (let i = 0; from !== undefined && i < 10_000; i++) {
    const page = await store.partitionIndex(ns, stream, partition, { from });
    entries.push(...page.entries);
    from = page.nextFrom;
  }
  assertContiguous(entries, first.logStart, first.next);
  return { logStart: first.logStart, next: first.next, entries };
}

/** Entries cover [from, next) without gaps or overlaps (from: max(from, logStart)). */
export function assertContiguous(
  entries: readonly { start: number; end: number }[],
  logStart: number,
  next: number,
): void {
  if (entries.length === 0) {
    assert.equal(next, logStart, `no entries but the head covers [${logStart}, ${next})`);
    return;
  }
  const first = entries[0]!;
  assert.ok(
    first.start <= logStart && logStart < first.end,
    `the first entry [${first.start}, ${first.end}) must cover ${logStart}`,
  );
  for (let i = 1; i < entries.length; i++) {
    assert.equal(entries[i]!.start, entries[i - 1]!.end, `gap or overlap between entries ${i - 1} and ${i}`);
  }
  assert.equal(entries[entries.length - 1]!.end, next, 'the last entry must end at the head');
}

export { SPREAD_NAMES } from '../harness/sharded.js';

// Item ↔ contract-type mapping of the DynamoDB backend, and the small rules every module of
// it shares: the AGAIN marker of a lost optimistic race, the entity states, TTL arithmetic,
// the sort-key length check of object paths, and paging. No I/O here: ./README.md lists the
// attributes of every item kind, and these functions are the only readers of them.
import { checkFence as coreCheckFence } from '../../core/leases.js';
import { errors } from '../../errors.js';
import type {
  CatalogChange,
  ChangeKind,
  Collection,
  CollectionSchema,
  Fence,
  IndexEntry,
  Lease,
  LeaseScope,
  Namespace,
  PartitionHead,
  Pointer,
  Stream,
  Tag,
} from '../../types.js';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { Item } from './codec.js';
import { txCheck, type Expr } from './expr.js';
import { K } from './keys.js';
import type { Cancelled, TxItem } from './sdk.js';

/** FenceMismatch unless the lease item read is at the fence's epoch. */
export function checkFence(fence: Fence, lease: Item | null | undefined, what: string): void {
  coreCheckFence(what, lease ? { epoch: Number(lease.epoch ?? 0), owner: (lease.owner as string | undefined) ?? null } : null, fence.epoch);
}

/** The transaction item (role 'lease') that keeps a fence's check true until the write commits. */
export function fenceCheck(fence: Fence): TxItem {
  return txCheck('lease', K.lease(fence.scope, fence.key), (e) => `${e.a('epoch')} = ${e.v(fence.epoch)}`);
}

/** Sort keys hold object paths: DynamoDB allows 1,024 bytes. */
export const MAX_KEY_PATH_BYTES = 1_024;

/** Returned by an attempt that lost a race and must re-read and try again. */
export const AGAIN = Symbol('again');
export type Again = typeof AGAIN;

export const LIVE = 'live';
export const DROPPING = 'dropping';

/** Conflict (nothing applied) or a lost optimistic condition: both mean "try again". */
export function lost(c: Cancelled, ...roles: string[]): boolean {
  return c.conflict || roles.some((r) => c.failed.has(r));
}

export function unexpected(op: string, c: Cancelled): Error {
  return new Error(`dynamodb metastore: ${op} was cancelled for an unexpected reason: ${JSON.stringify([...c.failed.keys()])}`);
}

export function ttlAt(ms: number): number {
  return Math.ceil(ms / 1000);
}

/** Object paths are sort keys: DynamoDB allows 1,024 bytes (checked before sending). */
export function keyPath(field: string, path: string): void {
  const n = Buffer.byteLength(path, 'utf8');
  if (n > MAX_KEY_PATH_BYTES) throw errors.limitExceeded(`${field}: DynamoDB key bytes`, MAX_KEY_PATH_BYTES, n);
}

export function setAll(e: Expr, fields: Record<string, string | number | boolean | null>): string {
  return 'SET ' + Object.entries(fields).map(([k, x]) => `${e.a(k)} = ${e.v(x)}`).join(', ');
}

/** Plain fields as wire attributes (single-item Put requests). */
export function toWire(fields: Record<string, string | number | boolean | null>) {
  const out: Record<string, AttributeValue> = {};
  for (const [k, x] of Object.entries(fields)) {
    out[k] = x === null ? { NULL: true } : typeof x === 'string' ? { S: x } : typeof x === 'number' ? { N: String(x) } : { BOOL: x };
  }
  return out;
}

export function collItem(c: Collection): Item {
  return {
    ns: c.ns,
    id: c.id,
    name: c.name,
    schema: JSON.stringify(c.schema),
    schemaVersion: c.schemaVersion,
    streamId: c.streamId,
    linkId: c.linkId,
    partitions: c.partitions,
    mret: c.manifestRetentionMs,
    state: c.state,
    created: c.created,
  };
}

export function streamItem(s: Stream): Item {
  return {
    ns: s.ns,
    id: s.id,
    name: s.name,
    partitions: s.partitions,
    retMs: s.retention.ms,
    retBytes: s.retention.bytes,
    implicit: s.implicit,
    state: s.state,
    created: s.created,
  };
}

export function entryItem(e: IndexEntry): Item {
  return { start: e.start, end: e.end, kind: e.kind, path: e.path, byteStart: e.byteStart, byteEnd: e.byteEnd, records: e.records };
}

export function toNamespace(r: Item): Namespace {
  return { id: Number(r.id), org: String(r.org), name: String(r.name), state: r.state as Namespace['state'], created: Number(r.created) };
}

export function toCollection(r: Item): Collection {
  return {
    ns: Number(r.ns),
    id: Number(r.id),
    name: String(r.name),
    schema: JSON.parse(String(r.schema)) as CollectionSchema,
    schemaVersion: Number(r.schemaVersion),
    streamId: Number(r.streamId),
    linkId: Number(r.linkId),
    partitions: Number(r.partitions),
    manifestRetentionMs: Number(r.mret),
    state: r.state as Collection['state'],
    created: Number(r.created),
  };
}

export function toStream(r: Item): Stream {
  return {
    ns: Number(r.ns),
    id: Number(r.id),
    name: String(r.name),
    partitions: Number(r.partitions),
    retention: { ms: r.retMs === null || r.retMs === undefined ? null : Number(r.retMs), bytes: r.retBytes === null || r.retBytes === undefined ? null : Number(r.retBytes) },
    implicit: r.implicit === true,
    state: r.state as Stream['state'],
    created: Number(r.created),
  };
}

export function toHead(partition: number, r: Item | undefined): PartitionHead {
  return { partition, next: Number(r?.next ?? 0), logStart: Number(r?.logStart ?? 0), bytes: Number(r?.bytes ?? 0) };
}

export function toEntry(partition: number, r: Item): IndexEntry {
  return {
    partition,
    start: Number(r.start),
    end: Number(r.end),
    kind: r.kind as IndexEntry['kind'],
    path: String(r.path),
    byteStart: Number(r.byteStart),
    byteEnd: Number(r.byteEnd),
    records: Number(r.records),
  };
}

export function toPointer(r: Item): Pointer {
  return { ns: Number(r.ns), key: String(r.key), version: Number(r.version), value: String(r.value), stamp: Number(r.stamp) };
}

export function toLease(scope: LeaseScope, key: string, r: Item): Lease {
  return { scope, key, owner: r.owner === undefined || r.owner === null ? null : String(r.owner), epoch: Number(r.epoch), deadline: Number(r.deadline) };
}

export function toTag(r: Item): Tag {
  return {
    ns: Number(r.ns),
    collection: Number(r.collection),
    name: String(r.name),
    manifestVersion: Number(r.version),
    manifestPath: String(r.path),
    created: Number(r.created),
    rewrittenBy: r.rewrittenBy === null || r.rewrittenBy === undefined ? null : String(r.rewrittenBy),
  };
}

export function toChange(r: Item): CatalogChange {
  return { version: Number(r.version), ns: Number(r.ns), kind: r.kind as ChangeKind, id: r.id === null || r.id === undefined ? null : Number(r.id), stamp: Number(r.stamp) };
}

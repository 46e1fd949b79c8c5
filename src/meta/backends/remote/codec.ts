// The MetaStore's values ↔ their proto messages (loam_remote.proto), one pair of functions per
// message, used by both the client (./client.ts) and the server (src/remote). The generated
// types (./gen) type both directions, so a field renamed or retyped in the .proto fails the
// typecheck here. Absent optional fields are the contract's null; see the .proto's header.
import type {
  AliasAction,
  Aliases,
  AssignedRange,
  Capabilities,
  CatalogChange,
  ChangeKind,
  ChangesPage,
  ClaimResult,
  Collection,
  CollectionHead,
  CollectionSchema,
  EntityState,
  Fence,
  FieldType,
  IndexEntry,
  IndexEntryKind,
  Lease,
  LeaseScope,
  Namespace,
  ObjectRef,
  PageRequest,
  PartitionHead,
  PartitionIndex,
  Pointer,
  PointerVersion,
  Retention,
  SegmentSwap,
  Stream,
  StreamState,
  Tag,
  WalChunk,
  WalCommit,
  WalCommitResult,
  WatchScope,
  WriteContext,
} from '../../types.js';
import { enumCodec } from './enums.js';
import type { AliasAction as WAliasAction, AliasAction__Output as RAliasAction } from './gen/loam/remote/v1/AliasAction.js';
import type { Aliases as WAliases, Aliases__Output as RAliases } from './gen/loam/remote/v1/Aliases.js';
import type { AssignedRange as WAssignedRange, AssignedRange__Output as RAssignedRange } from './gen/loam/remote/v1/AssignedRange.js';
import type { Capabilities as WCapabilities, Capabilities__Output as RCapabilities } from './gen/loam/remote/v1/Capabilities.js';
import type { CatalogChange as WCatalogChange, CatalogChange__Output as RCatalogChange } from './gen/loam/remote/v1/CatalogChange.js';
import type { ChangesPage as WChangesPage, ChangesPage__Output as RChangesPage } from './gen/loam/remote/v1/ChangesPage.js';
import type { ClaimResult as WClaimResult, ClaimResult__Output as RClaimResult } from './gen/loam/remote/v1/ClaimResult.js';
import type { Collection as WCollection, Collection__Output as RCollection } from './gen/loam/remote/v1/Collection.js';
import type { CollectionHead as WCollectionHead, CollectionHead__Output as RCollectionHead } from './gen/loam/remote/v1/CollectionHead.js';
import type { CollectionSchema as WCollectionSchema, CollectionSchema__Output as RCollectionSchema } from './gen/loam/remote/v1/CollectionSchema.js';
import type { ChangeKind__Output as WChangeKind } from './gen/loam/remote/v1/ChangeKind.js';
import type { ChangeFeed__Output as WChangeFeed } from './gen/loam/remote/v1/ChangeFeed.js';
import type { EntityState__Output as WEntityState } from './gen/loam/remote/v1/EntityState.js';
import type { Fence as WFence, Fence__Output as RFence } from './gen/loam/remote/v1/Fence.js';
import type { FieldType__Output as WFieldType } from './gen/loam/remote/v1/FieldType.js';
import type { IndexEntry as WIndexEntry, IndexEntry__Output as RIndexEntry } from './gen/loam/remote/v1/IndexEntry.js';
import type { IndexEntryKind__Output as WIndexEntryKind } from './gen/loam/remote/v1/IndexEntryKind.js';
import type { Lease as WLease, Lease__Output as RLease } from './gen/loam/remote/v1/Lease.js';
import type { LeaseScope as WLeaseScope, LeaseScope__Output as RLeaseScope } from './gen/loam/remote/v1/LeaseScope.js';
import type { Namespace as WNamespace, Namespace__Output as RNamespace } from './gen/loam/remote/v1/Namespace.js';
import type { NotClaimedReason__Output as WNotClaimedReason } from './gen/loam/remote/v1/NotClaimedReason.js';
import type { ObjectRef as WObjectRef, ObjectRef__Output as RObjectRef } from './gen/loam/remote/v1/ObjectRef.js';
import type { PageRequest as WPageRequest, PageRequest__Output as RPageRequest } from './gen/loam/remote/v1/PageRequest.js';
import type { PartitionHead as WPartitionHead, PartitionHead__Output as RPartitionHead } from './gen/loam/remote/v1/PartitionHead.js';
import type { PartitionIndex as WPartitionIndex, PartitionIndex__Output as RPartitionIndex } from './gen/loam/remote/v1/PartitionIndex.js';
import type { Pointer as WPointer, Pointer__Output as RPointer } from './gen/loam/remote/v1/Pointer.js';
import type { PointerVersion as WPointerVersion, PointerVersion__Output as RPointerVersion } from './gen/loam/remote/v1/PointerVersion.js';
import type { Retention as WRetention, Retention__Output as RRetention } from './gen/loam/remote/v1/Retention.js';
import type { SegmentSwap as WSegmentSwap, SegmentSwap__Output as RSegmentSwap } from './gen/loam/remote/v1/SegmentSwap.js';
import type { Stream as WStream, Stream__Output as RStream } from './gen/loam/remote/v1/Stream.js';
import type { StreamState as WStreamState, StreamState__Output as RStreamState } from './gen/loam/remote/v1/StreamState.js';
import type { Tag as WTag, Tag__Output as RTag } from './gen/loam/remote/v1/Tag.js';
import type { Transactions__Output as WTransactions } from './gen/loam/remote/v1/Transactions.js';
import type { WalChunk as WWalChunk, WalChunk__Output as RWalChunk } from './gen/loam/remote/v1/WalChunk.js';
import type { WalCommit as WWalCommit, WalCommit__Output as RWalCommit } from './gen/loam/remote/v1/WalCommit.js';
import type { WalCommitResult as WWalCommitResult, WalCommitResult__Output as RWalCommitResult } from './gen/loam/remote/v1/WalCommitResult.js';
import type { WatchScope as WWatchScope, WatchScope__Output as RWatchScope } from './gen/loam/remote/v1/WatchScope.js';
import type { WriteContext as WWriteContext, WriteContext__Output as RWriteContext } from './gen/loam/remote/v1/WriteContext.js';

// ---- enums: every value of each union, so the proto test can check the mapping both ways.
export const ENTITY_STATE = enumCodec<EntityState, WEntityState>('ENTITY_STATE', ['live', 'dropping']);
export const FIELD_TYPE = enumCodec<FieldType, WFieldType>('FIELD_TYPE', ['string', 'number', 'boolean', 'json']);
export const INDEX_ENTRY_KIND = enumCodec<IndexEntryKind, WIndexEntryKind>('INDEX_ENTRY_KIND', ['wal', 'segment']);
export const NOT_CLAIMED_REASON = enumCodec<'referenced' | 'claimed', WNotClaimedReason>('NOT_CLAIMED_REASON', ['referenced', 'claimed']);
export const TRANSACTIONS = enumCodec<Capabilities['transactions'], WTransactions>('TRANSACTIONS', ['multi-item', 'single-item']);
export const CHANGE_FEED = enumCodec<Capabilities['changeFeed'], WChangeFeed>('CHANGE_FEED', ['push', 'poll']);
export const CHANGE_KIND = enumCodec<ChangeKind, WChangeKind>('CHANGE_KIND', [
  'namespace.created',
  'namespace.dropped',
  'collection.created',
  'collection.dropped',
  'collection.schema',
  'aliases',
  'stream.created',
  'stream.dropped',
  'stream.retention',
]);

/** An optional wire field: absent (undefined) is the contract's null. */
const orNull = <T>(v: T | undefined | null): T | null => (v === undefined ? null : v);
/** A contract value that may be null, as an optional wire field. */
const opt = <T>(v: T | null | undefined): T | undefined => (v === null ? undefined : v);

// ---- common

export function writeContextToWire(w: WriteContext | undefined, requestId: string): WWriteContext {
  return { ...(w?.stamp !== undefined ? { stamp: w.stamp } : {}), requestId };
}
export function writeContextFromWire(w: RWriteContext | null): WriteContext | undefined {
  if (!w) return undefined;
  return { ...(w.stamp !== undefined ? { stamp: w.stamp } : {}), ...(w.requestId ? { requestId: w.requestId } : {}) };
}

export function pageToWire(p: PageRequest | undefined): WPageRequest | null {
  if (!p) return null;
  return { ...(p.prefix !== undefined ? { prefix: p.prefix } : {}), ...(p.after !== undefined ? { after: p.after } : {}), ...(p.limit !== undefined ? { limit: p.limit } : {}) };
}
export function pageFromWire(p: RPageRequest | null): PageRequest | undefined {
  if (!p) return undefined;
  return { ...(p.prefix !== undefined ? { prefix: p.prefix } : {}), ...(p.after !== undefined ? { after: p.after } : {}), ...(p.limit !== undefined ? { limit: p.limit } : {}) };
}

export function retentionToWire(r: Retention): WRetention {
  return { ...(r.ms !== null && r.ms !== undefined ? { ms: r.ms } : {}), ...(r.bytes !== null && r.bytes !== undefined ? { bytes: r.bytes } : {}) };
}
export function retentionFromWire(r: RRetention | null): Retention {
  return { ms: orNull(r?.ms), bytes: orNull(r?.bytes) };
}

export function leaseScopeToWire(s: LeaseScope): WLeaseScope {
  return s === 'cluster' ? { cluster: true } : { ns: s };
}
export function leaseScopeFromWire(s: RLeaseScope | null): LeaseScope {
  return s?.scope === 'ns' ? s.ns! : 'cluster';
}

export function fenceToWire(f: Fence | undefined): WFence | undefined {
  return f ? { scope: leaseScopeToWire(f.scope), key: f.key, epoch: f.epoch } : undefined;
}
export function fenceFromWire(f: RFence | null | undefined): Fence | undefined {
  return f ? { scope: leaseScopeFromWire(f.scope), key: f.key, epoch: f.epoch } : undefined;
}

export function watchScopeToWire(s: WatchScope): WWatchScope {
  return s === 'catalog' ? { catalog: true } : { ns: s.ns };
}
export function watchScopeFromWire(s: RWatchScope | null): WatchScope {
  return s?.scope === 'ns' ? { ns: s.ns! } : 'catalog';
}

export function capabilitiesToWire(c: Capabilities): WCapabilities {
  return {
    transactions: TRANSACTIONS.toWire(c.transactions),
    snapshotReads: c.snapshotReads,
    maxChunksPerGroup: c.maxChunksPerGroup,
    maxSwapEntries: c.maxSwapEntries,
    changeFeed: CHANGE_FEED.toWire(c.changeFeed),
  };
}
export function capabilitiesFromWire(c: RCapabilities): Capabilities {
  return {
    transactions: TRANSACTIONS.fromWire(c.transactions, 'transactions'),
    snapshotReads: c.snapshotReads,
    maxChunksPerGroup: c.maxChunksPerGroup,
    maxSwapEntries: c.maxSwapEntries,
    changeFeed: CHANGE_FEED.fromWire(c.changeFeed, 'changeFeed'),
  };
}

// ---- catalog entities

export function namespaceToWire(n: Namespace): WNamespace {
  return { id: n.id, org: n.org, name: n.name, state: ENTITY_STATE.toWire(n.state), created: n.created };
}
export function namespaceFromWire(n: RNamespace): Namespace {
  return { id: n.id, org: n.org, name: n.name, state: ENTITY_STATE.fromWire(n.state, 'state'), created: n.created };
}

export function streamToWire(s: Stream): WStream {
  return {
    ns: s.ns,
    id: s.id,
    name: s.name,
    partitions: s.partitions,
    retention: retentionToWire(s.retention),
    implicit: s.implicit,
    state: ENTITY_STATE.toWire(s.state),
    created: s.created,
  };
}
export function streamFromWire(s: RStream): Stream {
  return {
    ns: s.ns,
    id: s.id,
    name: s.name,
    partitions: s.partitions,
    retention: retentionFromWire(s.retention),
    implicit: s.implicit,
    state: ENTITY_STATE.fromWire(s.state, 'state'),
    created: s.created,
  };
}

export function schemaToWire(s: CollectionSchema): WCollectionSchema {
  return { primaryKey: s.primaryKey, fields: Object.fromEntries(Object.entries(s.fields ?? {}).map(([k, t]) => [k, FIELD_TYPE.toWire(t)])) };
}
export function schemaFromWire(s: RCollectionSchema | null): CollectionSchema {
  return {
    primaryKey: s?.primaryKey ?? '',
    fields: Object.fromEntries(Object.entries(s?.fields ?? {}).map(([k, t]) => [k, FIELD_TYPE.fromWire(t, `schema.fields.${k}`)])),
  };
}

export function collectionToWire(c: Collection): WCollection {
  return {
    ns: c.ns,
    id: c.id,
    name: c.name,
    schema: schemaToWire(c.schema),
    schemaVersion: c.schemaVersion,
    streamId: c.streamId,
    linkId: c.linkId,
    partitions: c.partitions,
    manifestRetentionMs: c.manifestRetentionMs,
    state: ENTITY_STATE.toWire(c.state),
    created: c.created,
  };
}
export function collectionFromWire(c: RCollection): Collection {
  return {
    ns: c.ns,
    id: c.id,
    name: c.name,
    schema: schemaFromWire(c.schema),
    schemaVersion: c.schemaVersion,
    streamId: c.streamId,
    linkId: c.linkId,
    partitions: c.partitions,
    manifestRetentionMs: c.manifestRetentionMs,
    state: ENTITY_STATE.fromWire(c.state, 'state'),
    created: c.created,
  };
}

export function aliasesToWire(a: Aliases): WAliases {
  return { ns: a.ns, version: a.version, aliases: { ...a.aliases } };
}
export function aliasesFromWire(a: RAliases): Aliases {
  return { ns: a.ns, version: a.version, aliases: { ...a.aliases } };
}

export function aliasActionToWire(a: AliasAction): WAliasAction {
  return a.op === 'set' ? { set: { alias: a.alias, collection: a.collection } } : { remove: { alias: a.alias } };
}
export function aliasActionFromWire(a: RAliasAction): AliasAction {
  if (a.op === 'set' && a.set) return { op: 'set', alias: a.set.alias, collection: a.set.collection };
  // An action with neither is refused by the validating wrapper as an op it does not know.
  if (a.op === 'remove' && a.remove) return { op: 'remove', alias: a.remove.alias };
  return { op: undefined as unknown as 'remove', alias: '' };
}

// ---- log

export function headToWire(h: PartitionHead): WPartitionHead {
  return { partition: h.partition, next: h.next, logStart: h.logStart, bytes: h.bytes };
}
export function headFromWire(h: RPartitionHead): PartitionHead {
  return { partition: h.partition, next: h.next, logStart: h.logStart, bytes: h.bytes };
}

export function entryToWire(e: IndexEntry): WIndexEntry {
  return {
    partition: e.partition,
    start: e.start,
    end: e.end,
    kind: INDEX_ENTRY_KIND.toWire(e.kind),
    path: e.path,
    byteStart: e.byteStart,
    byteEnd: e.byteEnd,
    records: e.records,
  };
}
export function entryFromWire(e: RIndexEntry): IndexEntry {
  return {
    partition: e.partition,
    start: e.start,
    end: e.end,
    kind: INDEX_ENTRY_KIND.fromWire(e.kind, 'kind'),
    path: e.path,
    byteStart: e.byteStart,
    byteEnd: e.byteEnd,
    records: e.records,
  };
}

export function chunkToWire(c: WalChunk): WWalChunk {
  return { ns: c.ns, stream: c.stream, partition: c.partition, records: c.records, byteStart: c.byteStart, byteEnd: c.byteEnd };
}
export function chunkFromWire(c: RWalChunk): WalChunk {
  return { ns: c.ns, stream: c.stream, partition: c.partition, records: c.records, byteStart: c.byteStart, byteEnd: c.byteEnd };
}

export function walCommitToWire(c: WalCommit): WWalCommit {
  return { object: c.object, objectStamp: c.objectStamp, chunks: (c.chunks ?? []).map(chunkToWire) };
}
export function walCommitFromWire(c: RWalCommit | null): WalCommit {
  return { object: c?.object ?? '', objectStamp: c?.objectStamp ?? 0, chunks: (c?.chunks ?? []).map(chunkFromWire) };
}

export function assignedToWire(a: AssignedRange): WAssignedRange {
  return { ns: a.ns, stream: a.stream, partition: a.partition, start: a.start, end: a.end, group: a.group };
}
export function assignedFromWire(a: RAssignedRange): AssignedRange {
  return { ns: a.ns, stream: a.stream, partition: a.partition, start: a.start, end: a.end, group: a.group };
}

export function walResultToWire(r: WalCommitResult): WWalCommitResult {
  return { object: r.object, assigned: r.assigned.map(assignedToWire), groups: r.groups };
}
export function walResultFromWire(r: RWalCommitResult): WalCommitResult {
  return { object: r.object, assigned: r.assigned.map(assignedFromWire), groups: r.groups };
}

export function swapToWire(s: SegmentSwap): WSegmentSwap {
  return { ns: s.ns, stream: s.stream, partition: s.partition, start: s.start, end: s.end, path: s.path, byteStart: s.byteStart, byteEnd: s.byteEnd };
}
export function swapFromWire(s: RSegmentSwap | null): SegmentSwap {
  return {
    ns: s?.ns ?? 0,
    stream: s?.stream ?? 0,
    partition: s?.partition ?? 0,
    start: s?.start ?? 0,
    end: s?.end ?? 0,
    path: s?.path ?? '',
    byteStart: s?.byteStart ?? 0,
    byteEnd: s?.byteEnd ?? 0,
  };
}

export function streamStateToWire(s: StreamState): WStreamState {
  return { stream: streamToWire(s.stream), heads: s.heads.map(headToWire) };
}
export function streamStateFromWire(s: RStreamState): StreamState {
  return { stream: streamFromWire(s.stream!), heads: s.heads.map(headFromWire) };
}

export function pointerToWire(p: Pointer): WPointer {
  return { ns: p.ns, key: p.key, version: p.version, value: p.value, stamp: p.stamp };
}
export function pointerFromWire(p: RPointer): Pointer {
  return { ns: p.ns, key: p.key, version: p.version, value: p.value, stamp: p.stamp };
}

export function collectionHeadToWire(h: CollectionHead): WCollectionHead {
  return { collection: collectionToWire(h.collection), ...(h.pointer ? { pointer: pointerToWire(h.pointer) } : {}), heads: h.heads.map(headToWire) };
}
export function collectionHeadFromWire(h: RCollectionHead): CollectionHead {
  return { collection: collectionFromWire(h.collection!), pointer: h.pointer ? pointerFromWire(h.pointer) : null, heads: h.heads.map(headFromWire) };
}

export function partitionIndexToWire(p: PartitionIndex): WPartitionIndex {
  return {
    partition: p.partition,
    logStart: p.logStart,
    next: p.next,
    entries: p.entries.map(entryToWire),
    ...(p.nextFrom !== undefined ? { nextFrom: p.nextFrom } : {}),
  };
}
export function partitionIndexFromWire(p: RPartitionIndex): PartitionIndex {
  return {
    partition: p.partition,
    logStart: p.logStart,
    next: p.next,
    entries: p.entries.map(entryFromWire),
    ...(p.nextFrom !== undefined ? { nextFrom: p.nextFrom } : {}),
  };
}

// ---- pointers, leases, tags, GC

export function pointerVersionToWire(p: PointerVersion): WPointerVersion {
  return { version: p.version, value: p.value, ...(p.superseded !== null ? { superseded: p.superseded } : {}) };
}
export function pointerVersionFromWire(p: RPointerVersion): PointerVersion {
  return { version: p.version, value: p.value, superseded: orNull(p.superseded) };
}

export function leaseToWire(l: Lease): WLease {
  return { scope: leaseScopeToWire(l.scope), key: l.key, ...(l.owner !== null ? { owner: l.owner } : {}), epoch: l.epoch, deadline: l.deadline };
}
export function leaseFromWire(l: RLease): Lease {
  return { scope: leaseScopeFromWire(l.scope), key: l.key, owner: orNull(l.owner), epoch: l.epoch, deadline: l.deadline };
}

export function tagToWire(t: Tag): WTag {
  return {
    ns: t.ns,
    collection: t.collection,
    name: t.name,
    manifestVersion: t.manifestVersion,
    manifestPath: t.manifestPath,
    created: t.created,
    ...(t.rewrittenBy !== null ? { rewrittenBy: t.rewrittenBy } : {}),
  };
}
export function tagFromWire(t: RTag): Tag {
  return {
    ns: t.ns,
    collection: t.collection,
    name: t.name,
    manifestVersion: t.manifestVersion,
    manifestPath: t.manifestPath,
    created: t.created,
    rewrittenBy: orNull(t.rewrittenBy),
  };
}

export function objectRefToWire(o: ObjectRef): WObjectRef {
  return { path: o.path, refs: o.refs, ...(o.claim ? { claim: { owner: o.claim.owner, stamp: o.claim.stamp } } : {}) };
}
export function objectRefFromWire(o: RObjectRef): ObjectRef {
  return { path: o.path, refs: o.refs, claim: o.claim ? { owner: o.claim.owner, stamp: o.claim.stamp } : null };
}

export function claimResultToWire(c: ClaimResult): WClaimResult {
  if (c.claimed) {
    return { claimed: { path: c.path, owner: c.owner, stamp: c.stamp, ...(c.takeover !== undefined ? { takeover: c.takeover } : {}) } };
  }
  return { notClaimed: { path: c.path, reason: NOT_CLAIMED_REASON.toWire(c.reason), refs: c.refs } };
}
export function claimResultFromWire(c: RClaimResult): ClaimResult {
  if (c.result === 'claimed' && c.claimed) {
    const x = c.claimed;
    return { claimed: true, path: x.path, owner: x.owner, stamp: x.stamp, ...(x.takeover !== undefined ? { takeover: x.takeover } : {}) };
  }
  const x = c.notClaimed!;
  return { claimed: false, path: x.path, reason: NOT_CLAIMED_REASON.fromWire(x.reason, 'reason'), refs: x.refs };
}

// ---- change feed

export function changeToWire(c: CatalogChange): WCatalogChange {
  return { version: c.version, ns: c.ns, kind: CHANGE_KIND.toWire(c.kind), ...(c.id !== null ? { id: c.id } : {}), stamp: c.stamp };
}
export function changeFromWire(c: RCatalogChange): CatalogChange {
  return { version: c.version, ns: c.ns, kind: CHANGE_KIND.fromWire(c.kind, 'kind'), id: orNull(c.id), stamp: c.stamp };
}

export function changesPageToWire(p: ChangesPage): WChangesPage {
  return { changes: p.changes.map(changeToWire), version: p.version, more: p.more, resync: p.resync === true };
}
export function changesPageFromWire(p: RChangesPage): ChangesPage {
  return { changes: p.changes.map(changeFromWire), version: p.version, more: p.more, ...(p.resync ? { resync: true as const } : {}) };
}

export { opt, orNull };

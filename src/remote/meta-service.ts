// The MetaStore service (loam_remote.proto): one handler per contract call, each decoding its
// request into the call's arguments, calling the cluster's MetaStore, and encoding the result
// (src/meta/backends/remote/codec.ts). The generated MetaStoreHandlers type makes a missing
// call a type error. Arguments are checked by the store's validating wrapper, as in process.
import * as grpc from '@grpc/grpc-js';
import { hasDirtySets, type MetaStore } from '../meta/contract.js';
import { errors } from '../meta/errors.js';
import { MAX_WATCH_MS } from '../meta/limits.js';
import type { WatchScope } from '../meta/types.js';
import * as c from '../meta/backends/remote/codec.js';
import type { MetaStoreHandlers } from '../meta/backends/remote/gen/loam/remote/v1/MetaStore.js';
import type { ChangeEvent } from '../meta/backends/remote/gen/loam/remote/v1/ChangeEvent.js';
import type { WatchChangesRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/WatchChangesRequest.js';
import type { WriteContext__Output } from '../meta/backends/remote/gen/loam/remote/v1/WriteContext.js';
import { callSignal, errorCode, refusedLate, statusOf, unary, type CallContext } from './handlers.js';
import { STREAM_REAUTH_MS, type ServerCore } from './core.js';
import { commitWalBatch, commitWalStream } from './wal-batch.js';
import { isMalformed } from './malformed.js';
import type { CommitWalRequest__Output } from '../meta/backends/remote/gen/loam/remote/v1/CommitWalRequest.js';

/** Catalog changes read per changesSince page while serving a watch stream. */
export const WATCH_PAGE = 500;
/** A watch stream sends a heartbeat (its current resume token) at least this often. */
export const WATCH_HEARTBEAT_MS = 15_000;
/** A watch stream ends after this long; the client resumes it from its last version (bounds every stream). */
export const MAX_WATCH_STREAM_MS = 10 * 60_000;

const key = (r: { w: WriteContext__Output | null }) => r.w?.requestId;
const w = (r: { w: WriteContext__Output | null }) => c.writeContextFromWire(r.w);
const m = (ctx: CallContext): MetaStore => ctx.stores.meta;
const readOpts = (o: { includeDropping: boolean } | null) => (o?.includeDropping ? { includeDropping: true } : undefined);
const empty = async () => ({});
/** The served store's dirty-set calls; a backend without them refuses, naming the call. */
const dirty = (ctx: CallContext, call: string) => {
  const s = m(ctx);
  if (!hasDirtySets(s)) throw errors.invalid(call, 'the served metastore keeps no dirty set (Capabilities.dirty_sets is false): poll the collections instead');
  return s;
};

/** One commitWal, alone (CommitWal) or in a batch (CommitWalBatch, ./wal-batch.ts). */
const commitWal = async (ctx: CallContext, r: CommitWalRequest__Output) => c.walResultToWire(await m(ctx).commitWal(c.walCommitFromWire(r.commit), w(r)));

export function metaHandlers(core: ServerCore): MetaStoreHandlers {
  const u = <Req, Res>(method: string, run: (ctx: CallContext, req: NoInfer<Req>) => Promise<NoInfer<Res>>, keyOf?: (r: NoInfer<Req>) => string | undefined): grpc.handleUnaryCall<Req, Res> =>
    unary<Req, Res>(core, method, run, keyOf);
  return {
    Capabilities: u('Capabilities', async (ctx) => ({ ...c.capabilitiesToWire(m(ctx).capabilities()), dirtySets: hasDirtySets(m(ctx)) })),

    CreateNamespace: u('CreateNamespace', async (ctx, r) => c.namespaceToWire(await m(ctx).createNamespace({ org: r.org, name: r.name }, w(r))), key),
    DropNamespace: u('DropNamespace', async (ctx, r) => m(ctx).dropNamespace(r.ns, w(r)).then(empty), key),
    GetNamespace: u('GetNamespace', async (ctx, r) => c.namespaceToWire(await m(ctx).namespace(r.ns, readOpts(r.opts)))),
    NamespaceByName: u('NamespaceByName', async (ctx, r) => c.namespaceToWire(await m(ctx).namespaceByName(r.org, r.name))),
    ListNamespaces: u('ListNamespaces', async (ctx, r) => {
      const p = await m(ctx).listNamespaces(r.org, c.pageFromWire(r.page));
      return { items: p.items.map(c.namespaceToWire), ...(p.next !== undefined ? { next: p.next } : {}) };
    }),

    CreateCollection: u(
      'CreateCollection',
      async (ctx, r) =>
        c.collectionToWire(
          await m(ctx).createCollection(
            {
              ns: r.ns,
              name: r.name,
              schema: c.schemaFromWire(r.schema),
              partitions: r.partitions,
              ...(r.retention ? { retention: c.retentionFromWire(r.retention) } : {}),
              ...(r.manifestRetentionMs !== undefined ? { manifestRetentionMs: r.manifestRetentionMs } : {}),
            },
            w(r),
          ),
        ),
      key,
    ),
    DropCollection: u('DropCollection', async (ctx, r) => m(ctx).dropCollection(r.ns, r.collection, w(r)).then(empty), key),
    Janitor: u('Janitor', async (ctx, r) => m(ctx).janitor(r.ns, w(r)), key),
    GetCollection: u('GetCollection', async (ctx, r) => c.collectionToWire(await m(ctx).collection(r.ns, r.collection, readOpts(r.opts)))),
    CollectionByName: u('CollectionByName', async (ctx, r) => c.collectionToWire(await m(ctx).collectionByName(r.ns, r.name))),
    ListCollections: u('ListCollections', async (ctx, r) => {
      const p = await m(ctx).listCollections(r.ns, c.pageFromWire(r.page));
      return { items: p.items.map(c.collectionToWire), ...(p.next !== undefined ? { next: p.next } : {}) };
    }),
    UpdateCollectionSchema: u(
      'UpdateCollectionSchema',
      async (ctx, r) => c.collectionToWire(await m(ctx).updateCollectionSchema(r.ns, r.collection, r.expectedVersion, c.schemaFromWire(r.schema), w(r))),
      key,
    ),
    UpdateAliases: u('UpdateAliases', async (ctx, r) => c.aliasesToWire(await m(ctx).updateAliases(r.ns, r.actions.map(c.aliasActionFromWire), r.expectedVersion, w(r))), key),
    GetAliases: u('GetAliases', async (ctx, r) => c.aliasesToWire(await m(ctx).aliases(r.ns))),

    CreateStream: u(
      'CreateStream',
      async (ctx, r) =>
        c.streamToWire(
          await m(ctx).createStream({ ns: r.ns, name: r.name, partitions: r.partitions, ...(r.retention ? { retention: c.retentionFromWire(r.retention) } : {}) }, w(r)),
        ),
      key,
    ),
    DropStream: u('DropStream', async (ctx, r) => m(ctx).dropStream(r.ns, r.stream, w(r)).then(empty), key),
    GetStream: u('GetStream', async (ctx, r) => c.streamToWire(await m(ctx).stream(r.ns, r.stream, readOpts(r.opts)))),
    ListStreams: u('ListStreams', async (ctx, r) => {
      const p = await m(ctx).listStreams(r.ns, c.pageFromWire(r.page));
      return { items: p.items.map(c.streamToWire), ...(p.next !== undefined ? { next: p.next } : {}) };
    }),
    SetRetention: u('SetRetention', async (ctx, r) => c.streamToWire(await m(ctx).setRetention(r.ns, r.stream, c.retentionFromWire(r.retention), w(r))), key),

    CommitWal: u('CommitWal', commitWal, key),
    CommitWalBatch: commitWalBatch(core, commitWal),
    CommitWalStream: commitWalStream(core, commitWal),
    PartitionIndex: u('PartitionIndex', async (ctx, r) =>
      c.partitionIndexToWire(
        await m(ctx).partitionIndex(r.ns, r.stream, r.partition, {
          ...(r.from !== undefined ? { from: r.from } : {}),
          ...(r.limit !== undefined ? { limit: r.limit } : {}),
        }),
      ),
    ),
    StreamState: u('StreamState', async (ctx, r) => c.streamStateToWire(await m(ctx).streamState(r.ns, r.stream))),
    CollectionHead: u('CollectionHead', async (ctx, r) => c.collectionHeadToWire(await m(ctx).collectionHead(r.ns, r.collection))),
    SwapSegment: u(
      'SwapSegment',
      async (ctx, r) => {
        const fence = c.fenceFromWire(r.fence);
        const out = await m(ctx).swapSegment(c.swapFromWire(r.swap), { ...w(r), ...(fence ? { fence } : {}) });
        return { entry: c.entryToWire(out.entry) };
      },
      key,
    ),
    TrimPartition: u(
      'TrimPartition',
      async (ctx, r) => {
        const fence = c.fenceFromWire(r.fence);
        return c.headToWire(await m(ctx).trimPartition(r.ns, r.stream, r.partition, r.logStart, { ...w(r), ...(fence ? { fence } : {}) }));
      },
      key,
    ),
    SegmentReferenced: u('SegmentReferenced', async (ctx, r) => ({ value: await m(ctx).segmentReferenced(r.ns, r.stream, r.path) })),
    RetiredWalObjects: u('RetiredWalObjects', async (ctx, r) => {
      const p = await m(ctx).retiredWalObjects(c.pageFromWire(r.page));
      return { items: p.items.map((x) => ({ path: x.path, retired: x.retired })), ...(p.next !== undefined ? { next: p.next } : {}) };
    }),

    // The dirty set: served when the backend keeps one (Capabilities.dirty_sets says so).
    DueHeads: u('DueHeads', async (ctx, r) => {
      const p = await dirty(ctx, 'dueHeads').dueHeads(r.before, c.pageFromWire(r.page));
      return { items: p.items, ...(p.next !== undefined ? { next: p.next } : {}) };
    }),
    SettleHead: u('SettleHead', async (ctx, r) => ({
      value: await dirty(ctx, 'settleHead').settleHead(r.ns, r.stream, r.partition, r.mark, r.due ?? null),
    })),

    CasPointer: u(
      'CasPointer',
      async (ctx, r) => {
        const fence = c.fenceFromWire(r.fence);
        return c.pointerToWire(await m(ctx).casPointer(r.ns, r.key, r.expectedVersion ?? null, r.value, { ...w(r), ...(fence ? { fence } : {}) }));
      },
      key,
    ),
    GetPointer: u('GetPointer', async (ctx, r) => {
      const p = await m(ctx).pointer(r.ns, r.key);
      return p ? { pointer: c.pointerToWire(p) } : {};
    }),
    PointerVersion: u('PointerVersion', async (ctx, r) => {
      const p = await m(ctx).pointerVersion(r.ns, r.key, r.version);
      return p ? { pointerVersion: c.pointerVersionToWire(p) } : {};
    }),

    AcquireLease: u('AcquireLease', async (ctx, r) => c.leaseToWire(await m(ctx).acquireLease(c.leaseScopeFromWire(r.scope), r.key, r.owner, r.ttlMs, w(r))), key),
    RenewLease: u('RenewLease', async (ctx, r) => c.leaseToWire(await m(ctx).renewLease(c.leaseScopeFromWire(r.scope), r.key, r.owner, r.epoch, r.ttlMs, w(r))), key),
    ReleaseLease: u('ReleaseLease', async (ctx, r) => m(ctx).releaseLease(c.leaseScopeFromWire(r.scope), r.key, r.owner, r.epoch, w(r)).then(empty), key),
    GetLease: u('GetLease', async (ctx, r) => {
      const l = await m(ctx).lease(c.leaseScopeFromWire(r.scope), r.key);
      return l ? { lease: c.leaseToWire(l) } : {};
    }),

    CreateTag: u('CreateTag', async (ctx, r) => c.tagToWire(await m(ctx).createTag(r.ns, r.collection, r.name, r.manifestVersion, w(r))), key),
    DropTag: u('DropTag', async (ctx, r) => m(ctx).dropTag(r.ns, r.collection, r.name, w(r)).then(empty), key),
    RewriteTag: u('RewriteTag', async (ctx, r) => c.tagToWire(await m(ctx).rewriteTag(r.ns, r.collection, r.name, r.fromPath, r.toPath, r.rewrittenBy, w(r))), key),
    ListTags: u('ListTags', async (ctx, r) => {
      const p = await m(ctx).listTags(r.ns, r.collection, c.pageFromWire(r.page));
      return { items: p.items.map(c.tagToWire), ...(p.next !== undefined ? { next: p.next } : {}) };
    }),

    ClaimObject: u(
      'ClaimObject',
      async (ctx, r) => {
        const fence = c.fenceFromWire(r.fence);
        return c.claimResultToWire(await m(ctx).claimObject(r.path, r.owner, { ...w(r), ...(fence ? { fence } : {}) }));
      },
      key,
    ),
    ReleaseClaim: u('ReleaseClaim', async (ctx, r) => m(ctx).releaseClaim(r.path, r.owner, { deleted: r.deleted }, w(r)).then(empty), key),
    GetObjectRef: u('GetObjectRef', async (ctx, r) => {
      const o = await m(ctx).objectRef(r.path);
      return o ? { objectRef: c.objectRefToWire(o) } : {};
    }),

    CatalogVersion: u('CatalogVersion', async (ctx) => ({ version: await m(ctx).catalogVersion() })),
    ChangesSince: u('ChangesSince', async (ctx, r) => c.changesPageToWire(await m(ctx).changesSince(r.version, r.limit))),
    WatchChanges: (call) => void watchStream(core, call),
  };
}

/**
 * A watch stream (spec §8): every catalog change in scope after the resume token, in version
 * order, read from changesSince (so nothing between two wake-ups is missed), and a heartbeat
 * with the token while nothing changes. Ends when the caller cancels, at its deadline, or
 * after MAX_WATCH_STREAM_MS (the client resumes from its last token).
 */
async function watchStream(core: ServerCore, call: grpc.ServerWritableStream<WatchChangesRequest__Output, ChangeEvent>): Promise<void> {
  const method = 'WatchChanges';
  const started = Date.now();
  const d = call.getDeadline();
  const deadline = Math.min(d instanceof Date ? d.getTime() : d, started + MAX_WATCH_STREAM_MS);
  const late = refusedLate(call, deadline);
  if (late) {
    core.metrics.calls.inc({ method, status: 'DEADLINE_EXCEEDED' });
    core.metrics.errors.inc({ method, code: late.code });
    // emit('error'), not destroy(): grpc-js sends the status from the 'error' handler; a destroyed stream sends none.
    call.emit('error', Object.assign(new Error(late.message), statusOf(late, false), { code: grpc.status.DEADLINE_EXCEEDED }));
    return;
  }
  const sig = callSignal(call, deadline);
  core.metrics.streams.inc();
  if (call.metadata.get('loam-resume')[0] === '1') core.metrics.resumed.inc();
  let release = () => {};
  try {
    const { cluster, stores } = await core.resolve(call);
    release = core.streams.take(cluster);
    // The caller again before each event and each idle wake (STREAM_REAUTH_MS): a revoked
    // key's stream ends (with the refusal's status, in the catch below) before it is sent anything more.
    const reauth = () => core.resolve(call);
    if (isMalformed(call.request)) throw call.request.error();
    const meta = stores.meta;
    const scope: WatchScope = c.watchScopeFromWire(call.request.scope);
    let since = call.request.since;
    // At once, so the client knows the stream is up (its cache serves only while it is).
    await send(call, { version: since, changes: [], resync: false }, sig.signal);
    let sent = Date.now();
    const inScope = (ns: number) => scope === 'catalog' || scope.ns === ns;
    // Bounded: every round waits at most STREAM_REAUTH_MS, and the stream ends at its deadline.
    while (!sig.signal.aborted) {
      const page = await meta.changesSince(since, WATCH_PAGE);
      const changes = page.changes.filter((x) => inScope(x.ns));
      if (changes.length > 0 || page.resync) {
        await reauth();
        await send(call, { version: page.version, changes: changes.map(c.changeToWire), resync: page.resync === true }, sig.signal);
        sent = Date.now();
      }
      since = page.version;
      if (page.more) continue;
      const waitMs = Math.min(STREAM_REAUTH_MS, WATCH_HEARTBEAT_MS, MAX_WATCH_MS, Math.max(0, deadline - Date.now()));
      if (waitMs <= 0) break;
      const r = await meta.watch(scope, since, { timeoutMs: waitMs, signal: sig.signal });
      if (sig.signal.aborted) break;
      await reauth();
      if (!r.changed && Date.now() - sent >= WATCH_HEARTBEAT_MS) {
        await send(call, { version: since, changes: [], resync: false }, sig.signal);
        sent = Date.now();
      }
    }
    core.metrics.calls.inc({ method, status: 'OK' });
    call.end();
  } catch (e) {
    const s = statusOf(e, false);
    core.metrics.calls.inc({ method, status: grpc.status[s.code ?? grpc.status.UNKNOWN] ?? 'UNKNOWN' });
    core.metrics.errors.inc({ method, code: errorCode(e, s.code ?? grpc.status.UNKNOWN) });
    call.emit('error', Object.assign(new Error(s.details ?? 'watch failed'), s));
  } finally {
    release();
    sig.done();
    core.metrics.streams.dec();
  }
}

/** Writes one event, waiting (until the call ends) while the client's window is full. */
async function send(call: grpc.ServerWritableStream<WatchChangesRequest__Output, ChangeEvent>, ev: ChangeEvent, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  if (call.write(ev)) return;
  await new Promise<void>((resolve) => {
    const done = () => {
      call.removeListener('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    call.once('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

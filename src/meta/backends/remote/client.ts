// The remote metastore backend (spec §8, DESIGN §5.3): a MetaStore whose every call is one RPC
// to a server that runs it on its own backend (src/remote) — but for concurrent commitWal
// calls, which share one (./wal-batch.ts). Every write carries an
// idempotency key — the caller's requestId, or one made here — so the client's transport
// retries and the caller's retry policy learn a lost response's outcome instead of applying
// the call twice. watch is a server stream with a resume token (./changes.ts); catalog reads
// may come from a per-namespace cache invalidated by that stream (./cache.ts, spec §5.4).
import { randomUUID } from 'node:crypto';
import type { CreateCollection, CreateNamespace, MetaStore, ReadOptions } from '../../contract.js';
import type {
  AliasAction,
  Capabilities,
  Fence,
  LeaseScope,
  PageRequest,
  Retention,
  SegmentSwap,
  WalCommit,
  WatchResult,
  WatchScope,
  WriteContext,
} from '../../types.js';
import * as c from './codec.js';
import { NamespaceCache } from './cache.js';
import { RemoteChannel, type RemoteOptions } from './channel.js';
import { ChangeStream } from './changes.js';
import { WalBatcher } from './wal-batch.js';
import { validating } from '../../core/validating.js';

type Fenced = { fence?: Fence } & WriteContext;

const wire = (w: WriteContext | undefined) => c.writeContextToWire(w, w?.requestId ?? randomUUID());
const fenceOf = (o: Fenced | undefined) => {
  const f = c.fenceToWire(o?.fence);
  return f ? { fence: f } : {};
};
const withNext = <T, R>(p: { items: R[]; next?: string }, f: (r: R) => T) => ({ items: p.items.map(f), ...(p.next !== undefined ? { next: p.next } : {}) });

export interface RemoteMetaStore extends MetaStore {
  /** The channel (the ControlStore client opens on it; tests and metrics read it). */
  readonly channel: RemoteChannel;
  /** The per-namespace cache, when opened with `cache: true`. */
  readonly cache: NamespaceCache | null;
  /**
   * Catalog changes in `scope` after `since`, as a stream that reconnects by itself after a
   * cut and resumes from its last version, so no change is missed (spec §8).
   */
  changes(scope: WatchScope, since: number, onEvent: (ev: { version: number; changes: import('../../types.js').CatalogChange[]; resync: boolean }) => void): ChangeStream;
}

/**
 * Connects and reads the server's capabilities (capabilities() is synchronous in the
 * contract), and whether its backend keeps the dirty set: the handle then offers dueHeads and
 * settleHead (hasDirtySets). The handle goes through the validating wrapper, so a bad argument
 * is refused before it is sent — as the server's own wrapper would refuse it.
 */
export async function openRemote(opts: RemoteOptions): Promise<RemoteMetaStore> {
  const ch = new RemoteChannel(opts);
  let r;
  try {
    r = await ch.callMeta('Capabilities', false, {});
  } catch (e) {
    ch.close();
    throw e;
  }
  const caps = c.capabilitiesFromWire(r);
  return validating(remoteMetaStore(ch, () => caps, opts.cache === true, r.dirtySets));
}

/**
 * A handle at once, its capabilities read in the background (`ready`): for a worker that must
 * open synchronously. It offers no dirty set (whether the server has one is not known yet).
 */
export function connectRemote(opts: RemoteOptions): RemoteMetaStore & { ready: Promise<void> } {
  const ch = new RemoteChannel(opts);
  let caps: Capabilities | null = null;
  const ready = ch.callMeta('Capabilities', false, {}).then((r) => {
    caps = c.capabilitiesFromWire(r);
  });
  ready.catch(() => undefined); // seen by capabilities()
  const store = remoteMetaStore(ch, () => {
    if (!caps) throw new Error('the remote metastore has not answered yet: open it with openRemote (which waits for its capabilities)');
    return caps;
  }, opts.cache === true, false);
  return Object.assign(validating(store), { ready });
}

function remoteMetaStore(ch: RemoteChannel, capabilities: () => Capabilities, cached: boolean, dirtySets: boolean): RemoteMetaStore {
  const streams = new Set<ChangeStream>();
  const changes = (scope: WatchScope, since: number, onEvent: Parameters<RemoteMetaStore['changes']>[2]): ChangeStream => {
    const s = new ChangeStream(ch, scope, since, onEvent, () => streams.delete(s));
    streams.add(s);
    s.start();
    return s;
  };
  const cache = cached ? new NamespaceCache(ch.metrics, (since, on) => changes('catalog', since, on), () => ch.callMeta('CatalogVersion', false, {}).then((r) => r.version)) : null;
  /** A catalog write of this client drops its namespace from the cache before it returns (read your writes). */
  const wrote = async <T>(ns: number | null, p: Promise<T>): Promise<T> => {
    try {
      return await p;
    } finally {
      if (ns !== null) cache?.invalidate(ns);
    }
  };
  const write = true;
  const read = false;
  const batcher = new WalBatcher(ch, ch.opts.walStream !== false);

  const store: RemoteMetaStore = {
    channel: ch,
    cache,
    changes,
    capabilities: () => ({ ...capabilities() }),
    async close() {
      for (const s of [...streams]) s.stop();
      cache?.close();
      batcher.close();
      ch.close();
    },

    async createNamespace(req: CreateNamespace, w?: WriteContext) {
      return c.namespaceFromWire(await ch.callMeta('CreateNamespace', write, { org: req.org, name: req.name, w: wire(w) }));
    },
    async dropNamespace(ns, w) {
      await wrote(ns, ch.callMeta('DropNamespace', write, { ns, w: wire(w) }));
    },
    async namespace(ns, opts?: ReadOptions) {
      const get = async () => c.namespaceFromWire(await ch.callMeta('GetNamespace', read, { ns, opts: { includeDropping: opts?.includeDropping === true } }));
      return opts?.includeDropping || !cache ? get() : cache.read(ns, 'namespace', get);
    },
    async namespaceByName(org, name) {
      return c.namespaceFromWire(await ch.callMeta('NamespaceByName', read, { org, name }));
    },
    async listNamespaces(org, page?: PageRequest) {
      return withNext(await ch.callMeta('ListNamespaces', read, { org, page: c.pageToWire(page) }), c.namespaceFromWire);
    },

    async createCollection(req: CreateCollection, w?: WriteContext) {
      const r = await wrote(
        req.ns,
        ch.callMeta('CreateCollection', write, {
          ns: req.ns,
          name: req.name,
          schema: c.schemaToWire(req.schema),
          partitions: req.partitions,
          ...(req.retention ? { retention: c.retentionToWire(req.retention) } : {}),
          ...(req.manifestRetentionMs !== undefined ? { manifestRetentionMs: req.manifestRetentionMs } : {}),
          w: wire(w),
        }),
      );
      return c.collectionFromWire(r);
    },
    async dropCollection(ns, collection, w) {
      await wrote(ns, ch.callMeta('DropCollection', write, { ns, collection, w: wire(w) }));
    },
    async janitor(ns, w) {
      return ch.callMeta('Janitor', write, { ns, w: wire(w) });
    },
    async collection(ns, collection, opts?: ReadOptions) {
      const get = async () => c.collectionFromWire(await ch.callMeta('GetCollection', read, { ns, collection, opts: { includeDropping: opts?.includeDropping === true } }));
      return opts?.includeDropping || !cache ? get() : cache.read(ns, `collection/${collection}`, get);
    },
    async collectionByName(ns, name) {
      const get = async () => c.collectionFromWire(await ch.callMeta('CollectionByName', read, { ns, name }));
      return cache ? cache.read(ns, `collectionByName/${name}`, get) : get();
    },
    async listCollections(ns, page?: PageRequest) {
      return withNext(await ch.callMeta('ListCollections', read, { ns, page: c.pageToWire(page) }), c.collectionFromWire);
    },
    async updateCollectionSchema(ns, collection, expectedVersion, schema, w) {
      return c.collectionFromWire(await wrote(ns, ch.callMeta('UpdateCollectionSchema', write, { ns, collection, expectedVersion, schema: c.schemaToWire(schema), w: wire(w) })));
    },
    async updateAliases(ns, actions: AliasAction[], expectedVersion?: number, w?: WriteContext) {
      const r = await wrote(
        ns,
        ch.callMeta('UpdateAliases', write, { ns, actions: actions.map(c.aliasActionToWire), ...(expectedVersion !== undefined ? { expectedVersion } : {}), w: wire(w) }),
      );
      return c.aliasesFromWire(r);
    },
    async aliases(ns) {
      const get = async () => c.aliasesFromWire(await ch.callMeta('GetAliases', read, { ns }));
      return cache ? cache.read(ns, 'aliases', get) : get();
    },

    async createStream(req, w) {
      const r = await wrote(
        req.ns,
        ch.callMeta('CreateStream', write, { ns: req.ns, name: req.name, partitions: req.partitions, ...(req.retention ? { retention: c.retentionToWire(req.retention) } : {}), w: wire(w) }),
      );
      return c.streamFromWire(r);
    },
    async dropStream(ns, stream, w) {
      await wrote(ns, ch.callMeta('DropStream', write, { ns, stream, w: wire(w) }));
    },
    async stream(ns, stream, opts?: ReadOptions) {
      const get = async () => c.streamFromWire(await ch.callMeta('GetStream', read, { ns, stream, opts: { includeDropping: opts?.includeDropping === true } }));
      return opts?.includeDropping || !cache ? get() : cache.read(ns, `stream/${stream}`, get);
    },
    async listStreams(ns, page?: PageRequest) {
      return withNext(await ch.callMeta('ListStreams', read, { ns, page: c.pageToWire(page) }), c.streamFromWire);
    },
    async setRetention(ns, stream, retention: Retention, w) {
      return c.streamFromWire(await wrote(ns, ch.callMeta('SetRetention', write, { ns, stream, retention: c.retentionToWire(retention), w: wire(w) })));
    },

    async commitWal(commit: WalCommit, w) {
      // Concurrent calls share one RPC (./wal-batch.ts); each keeps its own key, deadline and outcome.
      return c.walResultFromWire(await batcher.commit({ commit: c.walCommitToWire(commit), w: wire(w) }));
    },
    async partitionIndex(ns, stream, partition, opts) {
      const r = await ch.callMeta('PartitionIndex', read, {
        ns,
        stream,
        partition,
        ...(opts?.from !== undefined ? { from: opts.from } : {}),
        ...(opts?.limit !== undefined ? { limit: opts.limit } : {}),
      });
      return c.partitionIndexFromWire(r);
    },
    async streamState(ns, stream) {
      return c.streamStateFromWire(await ch.callMeta('StreamState', read, { ns, stream }));
    },
    async collectionHead(ns, collection) {
      return c.collectionHeadFromWire(await ch.callMeta('CollectionHead', read, { ns, collection }));
    },
    async swapSegment(swap: SegmentSwap, opts?: Fenced) {
      const r = await ch.callMeta('SwapSegment', write, { swap: c.swapToWire(swap), ...fenceOf(opts), w: wire(opts) });
      return { entry: c.entryFromWire(r.entry!) };
    },
    async trimPartition(ns, stream, partition, logStart, opts?: Fenced) {
      return c.headFromWire(await ch.callMeta('TrimPartition', write, { ns, stream, partition, logStart, ...fenceOf(opts), w: wire(opts) }));
    },
    async segmentReferenced(ns, stream, path) {
      return (await ch.callMeta('SegmentReferenced', read, { ns, stream, path })).value;
    },
    async retiredWalObjects(page?: PageRequest) {
      return withNext(await ch.callMeta('RetiredWalObjects', read, { page: c.pageToWire(page) }), (x) => ({ path: x.path, retired: x.retired }));
    },

    // The dirty set (offered below only when the server's backend keeps it). settleHead is
    // sent as a read: its mark condition makes a repeat apply the same (contract).
    ...(dirtySets
      ? {
          async dueHeads(before: number, page?: PageRequest) {
            return withNext(await ch.callMeta('DueHeads', read, { before, page: c.pageToWire(page) }), (h) => ({
              ns: h.ns,
              stream: h.stream,
              partition: h.partition,
              mark: h.mark,
              due: h.due,
            }));
          },
          async settleHead(ns: number, stream: number, partition: number, mark: number, due: number | null) {
            return (await ch.callMeta('SettleHead', read, { ns, stream, partition, mark, ...(due !== null ? { due } : {}) })).value;
          },
        }
      : {}),

    async casPointer(ns, key, expectedVersion, value, opts?: Fenced) {
      const r = await ch.callMeta('CasPointer', write, {
        ns,
        key,
        ...(expectedVersion !== null ? { expectedVersion } : {}),
        value,
        ...fenceOf(opts),
        w: wire(opts),
      });
      return c.pointerFromWire(r);
    },
    async pointer(ns, key) {
      const r = await ch.callMeta('GetPointer', read, { ns, key });
      return r.pointer ? c.pointerFromWire(r.pointer) : null;
    },
    async pointerVersion(ns, key, version) {
      const r = await ch.callMeta('PointerVersion', read, { ns, key, version });
      return r.pointerVersion ? c.pointerVersionFromWire(r.pointerVersion) : null;
    },

    async acquireLease(scope: LeaseScope, key, owner, ttlMs, w) {
      return c.leaseFromWire(await ch.callMeta('AcquireLease', write, { scope: c.leaseScopeToWire(scope), key, owner, ttlMs, w: wire(w) }));
    },
    async renewLease(scope, key, owner, epoch, ttlMs, w) {
      return c.leaseFromWire(await ch.callMeta('RenewLease', write, { scope: c.leaseScopeToWire(scope), key, owner, epoch, ttlMs, w: wire(w) }));
    },
    async releaseLease(scope, key, owner, epoch, w) {
      await ch.callMeta('ReleaseLease', write, { scope: c.leaseScopeToWire(scope), key, owner, epoch, w: wire(w) });
    },
    async lease(scope, key) {
      const r = await ch.callMeta('GetLease', read, { scope: c.leaseScopeToWire(scope), key });
      return r.lease ? c.leaseFromWire(r.lease) : null;
    },

    async createTag(ns, collection, name, manifestVersion, w) {
      return c.tagFromWire(await ch.callMeta('CreateTag', write, { ns, collection, name, manifestVersion, w: wire(w) }));
    },
    async dropTag(ns, collection, name, w) {
      await ch.callMeta('DropTag', write, { ns, collection, name, w: wire(w) });
    },
    async rewriteTag(ns, collection, name, fromPath, toPath, rewrittenBy, w) {
      return c.tagFromWire(await ch.callMeta('RewriteTag', write, { ns, collection, name, fromPath, toPath, rewrittenBy, w: wire(w) }));
    },
    async listTags(ns, collection, page?: PageRequest) {
      return withNext(await ch.callMeta('ListTags', read, { ns, collection, page: c.pageToWire(page) }), c.tagFromWire);
    },

    async claimObject(path, owner, opts?: Fenced) {
      return c.claimResultFromWire(await ch.callMeta('ClaimObject', write, { path, owner, ...fenceOf(opts), w: wire(opts) }));
    },
    async releaseClaim(path, owner, opts, w) {
      await ch.callMeta('ReleaseClaim', write, { path, owner, deleted: opts?.deleted === true, w: wire(w) });
    },
    async objectRef(path) {
      const r = await ch.callMeta('GetObjectRef', read, { path });
      return r.objectRef ? c.objectRefFromWire(r.objectRef) : null;
    },

    async catalogVersion() {
      return (await ch.callMeta('CatalogVersion', read, {})).version;
    },
    async changesSince(version, limit) {
      return c.changesPageFromWire(await ch.callMeta('ChangesSince', read, { version, ...(limit !== undefined ? { limit } : {}) }));
    },
    watch(scope: WatchScope, since: number, opts: { timeoutMs: number; signal?: AbortSignal }): Promise<WatchResult> {
      return new Promise<WatchResult>((resolve) => {
        let version = since;
        let settled = false;
        const end = (r: WatchResult) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          opts.signal?.removeEventListener('abort', onAbort);
          s.stop();
          resolve(r);
        };
        const onAbort = () => end({ version, changed: false });
        const timer = setTimeout(onAbort, opts.timeoutMs);
        // The stream reconnects after a cut; closing the store stops it, which ends the watch.
        const s = changes(scope, since, (ev) => {
          version = Math.max(version, ev.version);
          if (ev.changes.length > 0 || ev.resync) end({ version, changed: true, ...(ev.resync ? { resync: true as const } : {}) });
        });
        s.onStop(() => end({ version, changed: false }));
        if (opts.signal?.aborted) onAbort();
        else opts.signal?.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
  return store;
}

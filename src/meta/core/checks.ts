// The argument checks of every MetaStore call, written once (issue 12 item 1). The validating
// wrapper (./validating.ts) runs them before a backend sees the call, so every backend gives
// the same InvalidArgument, naming the same field, for the same input, and nothing is written
// (contract: "Bad arguments are InvalidArgument naming the field, checked before anything
// is written"). Checks that need stored state (a partition out of a stream's range, a
// primary key change) stay with the rule that reads that state.
import type { MetaStore } from '../contract.js';
import { errors } from '../errors.js';
import { parseDueCursor } from './due.js';
import { MAX_BULK_COLLECTIONS, MAX_BULK_NAMESPACES, MAX_INDEX_PAGE, MAX_PAGE_LIMIT, MAX_WATCH_MS } from '../limits.js';
import type { WriteContext } from '../types.js';
import * as v from '../validate.js';

/** The contract calls that take arguments: every method but capabilities() and close(). */
export type CheckedMethod = Exclude<keyof MetaStore, 'capabilities' | 'close'>;

/** A call's check: its arguments, and `now`, the backend's clock (stamps may not run ahead of it). */
type Check<K extends CheckedMethod> = (now: number, ...args: Parameters<NonNullable<MetaStore[K]>>) => void;

/** A write's context: its stamp within maxClockSkew of the backend's clock, its requestId a token string. */
export function checkWriteContext(w: WriteContext | undefined, now: number): void {
  if (w === undefined || w === null) return;
  if (typeof w !== 'object') throw errors.invalid('w', 'must be a WriteContext { stamp?, requestId? }');
  v.stamp(w.stamp, now);
  if (w.requestId !== undefined) v.tokenString('requestId', w.requestId);
}

function readOpts(o: { includeDropping?: boolean } | undefined): void {
  if (o?.includeDropping !== undefined && typeof o.includeDropping !== 'boolean') {
    throw errors.invalid('includeDropping', 'must be true or false');
  }
}

/** A limit in 1..max, or absent. */
export function optionalLimit(field: string, value: unknown, max: number): void {
  if (value === undefined) return;
  v.nonNegInt(field, value, max);
  if ((value as number) < 1) throw errors.invalid(field, `must be in 1..${max}`);
}

export const CHECKS: { [K in CheckedMethod]: Check<K> } = {
  // ---- catalog
  createNamespace(now, req, w) {
    v.name('org', req?.org);
    v.name('name', req?.name);
    if (req?.id !== undefined) v.id('id', req.id);
    checkWriteContext(w, now);
  },
  createNamespaces(now, reqs, w) {
    if (!Array.isArray(reqs) || reqs.length === 0 || reqs.length > MAX_BULK_NAMESPACES) {
      throw errors.invalid('reqs', `must be a list of 1..${MAX_BULK_NAMESPACES} namespaces`);
    }
    const names = new Set<string>();
    const ids = new Set<number>();
    let collections = 0;
    reqs.forEach((req, i) => {
      const at = `reqs[${i}]`;
      v.name(`${at}.org`, req?.org);
      v.name(`${at}.name`, req.name);
      const key = `${req.org}\u0000${req.name}`;
      if (names.has(key)) throw errors.invalid(`${at}.name`, `namespace ${req.org}/${req.name} is given twice`);
      names.add(key);
      if (req.id !== undefined) {
        v.id(`${at}.id`, req.id);
        if (ids.has(req.id)) throw errors.invalid(`${at}.id`, `id ${req.id} is given twice`);
        ids.add(req.id);
      }
      const cs = req.collections ?? [];
      if (!Array.isArray(cs)) throw errors.invalid(`${at}.collections`, 'must be a list of collections');
      collections += cs.length;
      if (collections > MAX_BULK_COLLECTIONS) throw errors.invalid(`${at}.collections`, `at most ${MAX_BULK_COLLECTIONS} collections per call`);
      const cnames = new Set<string>();
      cs.forEach((c, k) => {
        const cat = `${at}.collections[${k}]`;
        v.name(`${cat}.name`, c?.name);
        if (cnames.has(c.name)) throw errors.invalid(`${cat}.name`, `collection ${c.name} is given twice in ${req.org}/${req.name}`);
        cnames.add(c.name);
        v.schema(`${cat}.schema`, c.schema);
        v.partitions(`${cat}.partitions`, c.partitions);
        v.retention(`${cat}.retention`, c.retention);
        v.manifestRetention(c.manifestRetentionMs);
      });
    });
    checkWriteContext(w, now);
  },
  dropNamespace(now, ns, w) {
    v.id('ns', ns);
    checkWriteContext(w, now);
  },
  namespace(_now, ns, opts) {
    v.id('ns', ns);
    readOpts(opts);
  },
  namespaceByName(_now, org, name) {
    v.name('org', org);
    v.name('name', name);
  },
  listNamespaces(_now, org, page) {
    v.name('org', org);
    v.page(page);
  },
  createCollection(now, req, w) {
    v.id('ns', req?.ns);
    v.name('name', req.name);
    v.schema('schema', req.schema);
    v.partitions('partitions', req.partitions);
    v.retention('retention', req.retention);
    v.manifestRetention(req.manifestRetentionMs);
    checkWriteContext(w, now);
  },
  dropCollection(now, ns, collection, w) {
    v.id('ns', ns);
    v.id('collection', collection);
    checkWriteContext(w, now);
  },
  janitor(now, ns, w) {
    v.id('ns', ns);
    checkWriteContext(w, now);
  },
  collection(_now, ns, collection, opts) {
    v.id('ns', ns);
    v.id('collection', collection);
    readOpts(opts);
  },
  collectionByName(_now, ns, name) {
    v.id('ns', ns);
    v.name('name', name);
  },
  listCollections(_now, ns, page) {
    v.id('ns', ns);
    v.page(page);
  },
  updateCollectionSchema(now, ns, collection, expectedVersion, schema, w) {
    v.id('ns', ns);
    v.id('collection', collection);
    v.id('expectedVersion', expectedVersion);
    v.schema('schema', schema);
    checkWriteContext(w, now);
  },
  updateAliases(now, ns, actions, expectedVersion, w) {
    v.id('ns', ns);
    v.aliasActions(actions);
    if (expectedVersion !== undefined) v.nonNegInt('expectedVersion', expectedVersion);
    checkWriteContext(w, now);
  },
  aliases(_now, ns) {
    v.id('ns', ns);
  },
  createStream(now, req, w) {
    v.id('ns', req?.ns);
    v.name('name', req.name);
    v.partitions('partitions', req.partitions);
    v.retention('retention', req.retention);
    checkWriteContext(w, now);
  },
  dropStream(now, ns, stream, w) {
    v.id('ns', ns);
    v.id('stream', stream);
    checkWriteContext(w, now);
  },
  stream(_now, ns, stream, opts) {
    v.id('ns', ns);
    v.id('stream', stream);
    readOpts(opts);
  },
  listStreams(_now, ns, page) {
    v.id('ns', ns);
    v.page(page);
  },
  setRetention(now, ns, stream, retention, w) {
    v.id('ns', ns);
    v.id('stream', stream);
    v.retention('retention', retention);
    checkWriteContext(w, now);
  },

  // ---- log
  commitWal(now, commit, w) {
    v.walCommit(commit);
    checkWriteContext(w, now);
  },
  partitionIndex(_now, ns, stream, partition, opts) {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    if (opts?.from !== undefined) v.nonNegInt('from', opts.from);
    optionalLimit('limit', opts?.limit, MAX_INDEX_PAGE);
  },
  streamState(_now, ns, stream) {
    v.id('ns', ns);
    v.id('stream', stream);
  },
  collectionHead(_now, ns, collection) {
    v.id('ns', ns);
    v.id('collection', collection);
  },
  swapSegment(now, swap, opts) {
    v.segmentSwap(swap);
    v.fence(opts?.fence);
    checkWriteContext(opts, now);
  },
  trimPartition(now, ns, stream, partition, logStart, opts) {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    v.nonNegInt('logStart', logStart);
    v.fence(opts?.fence);
    checkWriteContext(opts, now);
  },
  segmentReferenced(_now, ns, stream, path) {
    v.id('ns', ns);
    v.id('stream', stream);
    v.path('path', path);
  },
  retiredWalObjects(_now, page) {
    v.page(page);
  },

  // ---- dirty sets
  dueHeads(_now, before, page) {
    v.nonNegInt('before', before);
    v.page(page);
    if (page?.after !== undefined) parseDueCursor(page.after);
  },
  settleHead(_now, ns, stream, partition, mark, due) {
    v.id('ns', ns);
    v.id('stream', stream);
    v.nonNegInt('partition', partition);
    v.nonNegInt('mark', mark);
    if (due !== null) v.nonNegInt('due', due);
  },

  // ---- pointers
  casPointer(now, ns, key, expectedVersion, value, opts) {
    v.id('ns', ns);
    v.key('key', key);
    if (expectedVersion !== null) v.id('expectedVersion', expectedVersion);
    v.path('value', value);
    v.fence(opts?.fence);
    checkWriteContext(opts, now);
  },
  pointer(_now, ns, key) {
    v.id('ns', ns);
    v.key('key', key);
  },
  pointerVersion(_now, ns, key, version) {
    v.id('ns', ns);
    v.key('key', key);
    v.id('version', version);
  },

  // ---- leases
  acquireLease(now, scope, key, owner, ttlMs, w) {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.ttl(ttlMs);
    checkWriteContext(w, now);
  },
  renewLease(now, scope, key, owner, epoch, ttlMs, w) {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    v.ttl(ttlMs);
    checkWriteContext(w, now);
  },
  releaseLease(now, scope, key, owner, epoch, w) {
    v.leaseScope(scope);
    v.key('key', key);
    v.tokenString('owner', owner);
    v.id('epoch', epoch);
    checkWriteContext(w, now);
  },
  lease(_now, scope, key) {
    v.leaseScope(scope);
    v.key('key', key);
  },

  // ---- tags
  createTag(now, ns, collection, name, manifestVersion, w) {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    v.id('manifestVersion', manifestVersion);
    checkWriteContext(w, now);
  },
  dropTag(now, ns, collection, name, w) {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    checkWriteContext(w, now);
  },
  rewriteTag(now, ns, collection, name, fromPath, toPath, rewrittenBy, w) {
    v.id('ns', ns);
    v.id('collection', collection);
    v.name('name', name);
    v.path('fromPath', fromPath);
    v.path('toPath', toPath);
    v.tokenString('rewrittenBy', rewrittenBy);
    checkWriteContext(w, now);
  },
  listTags(_now, ns, collection, page) {
    v.id('ns', ns);
    v.id('collection', collection);
    v.page(page);
  },

  // ---- GC
  claimObject(now, path, owner, opts) {
    v.path('path', path);
    v.tokenString('owner', owner);
    v.fence(opts?.fence);
    checkWriteContext(opts, now);
  },
  releaseClaim(now, path, owner, opts, w) {
    v.path('path', path);
    v.tokenString('owner', owner);
    if (typeof opts?.deleted !== 'boolean') throw errors.invalid('deleted', 'must be true or false');
    checkWriteContext(w, now);
  },
  objectRef(_now, path) {
    v.path('path', path);
  },

  // ---- change feed
  catalogVersion() {},
  changesSince(_now, version, limit) {
    v.nonNegInt('version', version);
    optionalLimit('limit', limit, MAX_PAGE_LIMIT);
  },
  watch(_now, scope, since, opts) {
    if (scope !== 'catalog') v.id('scope.ns', scope?.ns);
    v.nonNegInt('since', since);
    v.nonNegInt('timeoutMs', opts?.timeoutMs, MAX_WATCH_MS);
  },
};

export const CHECKED_METHODS = Object.keys(CHECKS) as CheckedMethod[];

/** The optional calls (the dirty set, contract: dueHeads, settleHead; the bulk createNamespaces): a backend may not offer them. */
export const OPTIONAL_METHODS: readonly CheckedMethod[] = ['dueHeads', 'settleHead', 'createNamespaces'];

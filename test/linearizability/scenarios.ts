// Client workloads for recorded histories, one per checker model (src/check/README.md has
// the op shapes). Each runs in its own worker thread with its own metastore handle, so the
// backend sees real concurrency (for the embedded backend: several connections to one file).
import { mulberry32, type Rng } from '../../src/check/prng.js';
import { isMetaError, linkPointerKey, planGroups, type MetaStore } from '../../src/meta/index.js';

/** Small key spaces, so clients collide often. */
export const POINTER_KEYS = 3;
export const LEASE_KEYS = 2;
export const LOG_PARTITIONS = 3;
export const NAMES = 3;
/** Share of the log scenario's index reads followed by a swapSegment of some of the entries read. */
export const SWAP_SHARE = 0.3;

export interface SetupCtx {
  ns: number;
  stream: number;
  collection: number;
  link: number;
  nsNames: number; // a namespace for collection-name races
}

export interface Recorder {
  /** Records one logical call: invoke, then ok / fail / info. Returns the result or undefined. */
  call<T>(op: string, args: Record<string, unknown>, fn: () => Promise<T>): Promise<T | undefined>;
}

export { mulberry32, type Rng };

const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
const int = (rng: Rng, n: number) => Math.floor(rng() * n);

export type Scenario = (s: MetaStore, r: Recorder, rng: Rng, proc: number, ctx: SetupCtx, ops: number) => Promise<void>;

/** casPointer / pointer on a few keys, plus fenced casPointer on one key under a lease. */
const pointer: Scenario = async (s, r, rng, proc, ctx, ops) => {
  const seen = new Map<string, number | null>();
  let epoch: number | null = null;
  for (let i = 0; i < ops; i++) {
    const x = rng();
    const key = `p/${int(rng, POINTER_KEYS)}`;
    if (x < 0.35) {
      const p = await r.call('pointer', { ns: ctx.ns, key }, () => s.pointer(ctx.ns, key));
      if (p !== undefined) seen.set(key, p?.version ?? null);
    } else if (x < 0.75) {
      const expected = seen.has(key) ? seen.get(key)! : null;
      const value = `m/${proc}/${i}`;
      const p = await r.call('casPointer', { ns: ctx.ns, key, expectedVersion: expected, value }, () =>
        s.casPointer(ctx.ns, key, expected, value),
      );
      if (p) seen.set(key, p.version);
      else seen.delete(key); // learn the version by reading next time
    } else if (x < 0.85) {
      const stamp = Date.now();
      const l = await r.call('acquireLease', { scope: ctx.ns, key: 'fence', owner: `c${proc}`, ttlMs: 200, stamp }, () =>
        s.acquireLease(ctx.ns, 'fence', `c${proc}`, 200, { stamp }),
      );
      if (l) epoch = l.epoch;
    } else {
      const key = 'fenced';
      const expected = seen.has(key) ? seen.get(key)! : null;
      const value = `m/${proc}/${i}`;
      const fence = { scope: ctx.ns, key: 'fence', epoch: epoch ?? 1 };
      const stamp = Date.now();
      const p = await r.call('casPointer', { ns: ctx.ns, key, expectedVersion: expected, value, fence, stamp }, () =>
        s.casPointer(ctx.ns, key, expected, value, { fence, stamp }),
      );
      if (p) seen.set(key, p.version);
      else seen.delete(key);
    }
  }
};

/** Leases with short TTLs, so takeovers by expiry happen during the run. */
const lease: Scenario = async (s, r, rng, proc, ctx, ops) => {
  const mine = new Map<string, number>();
  const owner = `c${proc}`;
  for (let i = 0; i < ops; i++) {
    const key = `l/${int(rng, LEASE_KEYS)}`;
    const x = rng();
    const ttlMs = 20 + int(rng, 60);
    const stamp = Date.now();
    if (x < 0.35) {
      const l = await r.call('acquireLease', { scope: ctx.ns, key, owner, ttlMs, stamp }, () => s.acquireLease(ctx.ns, key, owner, ttlMs, { stamp }));
      if (l) mine.set(key, l.epoch);
    } else if (x < 0.55) {
      const epoch = mine.get(key) ?? 1;
      await r.call('renewLease', { scope: ctx.ns, key, owner, epoch, ttlMs, stamp }, () => s.renewLease(ctx.ns, key, owner, epoch, ttlMs, { stamp }));
    } else if (x < 0.7) {
      const epoch = mine.get(key) ?? 1;
      await r.call('releaseLease', { scope: ctx.ns, key, owner, epoch, stamp }, () => s.releaseLease(ctx.ns, key, owner, epoch, { stamp }));
    } else {
      await r.call('lease', { scope: ctx.ns, key }, () => s.lease(ctx.ns, key));
    }
  }
};

/** commitWal across partitions (several groups), retries of the same object, index reads, segment swaps, trims. */
const log: Scenario = async (s, r, rng, proc, ctx, ops) => {
  const maxChunks = s.capabilities().maxChunksPerGroup;
  const objects: Array<{ object: string; chunks: ReturnType<typeof chunksOf> }> = [];
  let lastNext = 0;
  for (let i = 0; i < ops; i++) {
    const x = rng();
    if (x < 0.45 || (x < 0.55 && objects.length === 0)) {
      const n = 1 + int(rng, LOG_PARTITIONS);
      const parts = [...Array(LOG_PARTITIONS).keys()].sort(() => rng() - 0.5).slice(0, n).sort();
      const chunks = chunksOf(ctx, parts, rng);
      const object = `wal/${proc}/${i}`;
      objects.push({ object, chunks });
      await commit(s, r, object, chunks, maxChunks);
    } else if (x < 0.55) {
      // A retry of an earlier object: idempotent per (object, group).
      const o = pick(rng, objects);
      await commit(s, r, o.object, o.chunks, maxChunks);
    } else if (x < 0.8) {
      const partition = int(rng, LOG_PARTITIONS);
      const idx = await r.call('partitionIndex', { ns: ctx.ns, stream: ctx.stream, partition }, () => s.partitionIndex(ctx.ns, ctx.stream, partition));
      if (idx) lastNext = idx.next;
      if (idx && idx.entries.length >= 2 && rng() < SWAP_SHARE) {
        // Segment a run of the entries just read (concurrent commits, trims and swaps may make it refused).
        const n = 2 + int(rng, Math.min(3, idx.entries.length - 1));
        const from = int(rng, idx.entries.length - n + 1);
        const run = idx.entries.slice(from, from + n);
        const swap = { ns: ctx.ns, stream: ctx.stream, partition, start: run[0]!.start, end: run[run.length - 1]!.end, path: `seg/${proc}/${i}` };
        await r.call('swapSegment', swap, () => s.swapSegment({ ...swap, byteStart: 0, byteEnd: 10 }));
      }
    } else if (x < 0.95) {
      await r.call('streamState', { ns: ctx.ns, stream: ctx.stream }, () => s.streamState(ctx.ns, ctx.stream));
    } else {
      const partition = int(rng, LOG_PARTITIONS);
      const logStart = int(rng, lastNext + 1);
      await r.call('trimPartition', { ns: ctx.ns, stream: ctx.stream, partition, logStart }, () =>
        s.trimPartition(ctx.ns, ctx.stream, partition, logStart),
      );
    }
  }
};

function chunksOf(ctx: SetupCtx, parts: number[], rng: Rng) {
  return parts.map((partition) => ({ ns: ctx.ns, stream: ctx.stream, partition, records: 1 + int(rng, 3), byteStart: 0, byteEnd: 10 }));
}

async function commit(s: MetaStore, r: Recorder, object: string, chunks: ReturnType<typeof chunksOf>, maxChunks: number) {
  const groups = planGroups(chunks, maxChunks).groupOf;
  const args = {
    object,
    chunks: chunks.map((c) => ({ ns: c.ns, stream: c.stream, partition: c.partition, records: c.records })),
    groups,
  };
  await r.call('commitWal', args, () => s.commitWal({ object, objectStamp: Date.now(), chunks }));
}

/** Name races: namespaces in one org, collections in one namespace; creates, drops, lookups. */
const names: Scenario = async (s, r, rng, _proc, ctx, ops) => {
  const nsIds = new Map<string, number>();
  const collIds = new Map<string, number>();
  for (let i = 0; i < ops; i++) {
    const x = rng();
    const name = `n${int(rng, NAMES)}`;
    if (x < 0.2) {
      const ns = await r.call('createNamespace', { org: 'race', name }, () => s.createNamespace({ org: 'race', name }));
      if (ns) nsIds.set(name, ns.id);
    } else if (x < 0.3) {
      const id = nsIds.get(name);
      if (id === undefined) {
        const ns = await r.call('namespaceByName', { org: 'race', name }, () => s.namespaceByName('race', name).catch(nullIfNotFound));
        if (ns) nsIds.set(name, ns.id);
        continue;
      }
      await r.call('dropNamespace', { id, org: 'race', name }, () => s.dropNamespace(id));
      nsIds.delete(name);
    } else if (x < 0.4) {
      const ns = await r.call('namespaceByName', { org: 'race', name }, () => s.namespaceByName('race', name).catch(nullIfNotFound));
      if (ns) nsIds.set(name, ns.id);
    } else if (x < 0.65) {
      const c = await r.call('createCollection', { ns: ctx.nsNames, name }, () =>
        s.createCollection({ ns: ctx.nsNames, name, schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 }),
      );
      if (c) collIds.set(name, c.id);
    } else if (x < 0.8) {
      const id = collIds.get(name);
      if (id === undefined) {
        const c = await r.call('collectionByName', { ns: ctx.nsNames, name }, () => s.collectionByName(ctx.nsNames, name).catch(nullIfNotFound));
        if (c) collIds.set(name, c.id);
        continue;
      }
      await r.call('dropCollection', { ns: ctx.nsNames, id, name }, () => s.dropCollection(ctx.nsNames, id));
      collIds.delete(name);
    } else {
      const c = await r.call('collectionByName', { ns: ctx.nsNames, name }, () => s.collectionByName(ctx.nsNames, name).catch(nullIfNotFound));
      if (c) collIds.set(name, c.id);
    }
  }
};

function nullIfNotFound(e: unknown): null {
  if (isMetaError(e, 'NotFound')) return null;
  throw e;
}

/**
 * The read order of collectionHead (spec §3.3): process 0 is the applier — it reads the
 * head and moves the pointer to a manifest whose applied offsets are the heads it read;
 * the others commit to the collection's stream and read collectionHead.
 */
const collectionHead: Scenario = async (s, r, rng, proc, ctx, ops) => {
  const key = linkPointerKey(ctx.link);
  const maxChunks = s.capabilities().maxChunksPerGroup;
  let version: number | null = null;
  for (let i = 0; i < ops; i++) {
    const x = rng();
    if (proc === 0 && x < 0.5) {
      const h = await r.call('collectionHead', { ns: ctx.ns, key, stream: ctx.stream }, () => s.collectionHead(ctx.ns, ctx.collection));
      if (!h) continue;
      version = h.pointer?.version ?? null;
      const applied = Object.fromEntries(h.heads.map((hd) => [hd.partition, hd.next]));
      const value = `manifest/${i}`;
      const p = await r.call('casPointer', { ns: ctx.ns, key, expectedVersion: version, value, applied }, () =>
        s.casPointer(ctx.ns, key, version, value),
      );
      if (p) version = p.version;
    } else if (x < 0.55) {
      const n = 1 + int(rng, LOG_PARTITIONS);
      const parts = [...Array(LOG_PARTITIONS).keys()].slice(0, n);
      await commit(s, r, `wal/${proc}/${i}`, chunksOf(ctx, parts, rng), maxChunks);
    } else {
      await r.call('collectionHead', { ns: ctx.ns, key, stream: ctx.stream }, () => s.collectionHead(ctx.ns, ctx.collection));
    }
  }
};

export const SCENARIOS: Record<string, Scenario> = { pointer, lease, log, names, collectionHead };

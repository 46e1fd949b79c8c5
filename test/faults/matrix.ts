// The deterministic metastore fault matrix (spec §4.2), generic over the backend factory.
//
// A cell = method group × fault × the attempts the fault hits. Each cell opens a fresh
// store whose transaction helper calls a FaultHook; the hook fires the fault at the point
// that fault lives at, on the chosen attempts of the group's call, which runs under the
// client retry policy (src/meta/retry.ts) with at most two attempts. The outcome is
//   Retried            the call succeeded after a faulted attempt
//   NoEffect           the call succeeded on its first attempt (the fault changed nothing)
//   SurfacedUnknown    the call surfaced Unknown (earlierUnknown set)
//   SurfacedRetryable  the call surfaced a Retryable error (nothing was applied)
//   Refused(Code)      the call surfaced a typed error the race made correct (e.g. VersionMismatch)
// After every cell the invariants are checked: the partitions' indexes are contiguous and
// dense, no WAL object is committed twice, no acknowledged write is lost, pointer versions
// are dense.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { errors, isMetaError, linkPointerKey, type Capabilities, type MetaStore, type WriteContext } from '../../src/meta/index.js';
import type { FaultHook, FaultPoint } from '../../src/meta/faults.js';
import { withRetry, type RetryPolicy } from '../../src/meta/retry.js';
import type { BackendFactory } from '../harness/backends.js';

export const FAULTS = ['BeforeSend', 'AfterApply', 'Undetermined', 'Conflict', 'Throttle', 'Race', 'Delay'] as const;
export type Fault = (typeof FAULTS)[number];
export const ATTEMPTS = ['first', 'second'] as const;
export type Attempt = (typeof ATTEMPTS)[number];

/** How long a cell waits for an abandoned attempt to end before its checks (a bound). */
const ATTEMPT_END_DEADLINE_MS = 60_000;
/** Delay(d): well inside the retry budget. */
export const DELAY_MS = 20;
/**
 * The matrix's policy: two attempts, so "second" is the last one; no randomness. The budget is
 * far above what a cell needs because a real-fault producer's setup (filler sessions, a
 * stopped server process and its resolution) runs inside the attempt and counts against it:
 * on a loaded machine that took seconds, and a cell must not change its outcome with the load.
 * Cells that test the budget itself set their own (RealFault.policy).
 */
export const MATRIX_POLICY: RetryPolicy = { maxAttempts: 2, budgetMs: 30_000, baseDelayMs: 1, maxDelayMs: 1, random: () => 0.5 };

/**
 * A backend factory may inject some faults for real at fault points of its own instead of by a
 * thrown error (spec §4.2): e.g. Race at 'BeforeWrite' (between its SELECT and its UPDATE) and
 * Undetermined at 'CommitSent' (it cuts its connection after sending COMMIT). `unknownsResolved`
 * counts outcomes the store resolved itself after such a cut; a call that succeeded at once
 * because of it is reported as Resolved instead of NoEffect.
 */
export interface RealFaults {
  faultPoints?: Partial<Record<Fault, FaultPoint>>;
  unknownsResolved?(store: MetaStore): number;
  /** Faults the backend's real server produces, in place of the thrown error. */
  produce?: Partial<Record<Fault, RealFault>>;
}

/**
 * A fault made by the real server (e.g. a deadlock, a refused connection, a killed session)
 * rather than thrown by the hook. fire() runs at `point` on the attempts the cell hits and
 * returns when the call may go on (the fault then happens to it); settle() ends whatever fire()
 * left running (sessions, held connections) and runs before the next attempt and after the call.
 */
export interface RealFault {
  /** Where fire() runs (the first is the one the legend names). */
  point: FaultPoint | readonly FaultPoint[];
  /** One line for the table's legend: how the server is made to produce it. */
  how: string;
  fire(store: MetaStore, op: string, point: FaultPoint): Promise<void>;
  settle?(): Promise<void>;
  /** Sees each failed attempt's error, so settle() can check the server produced the fault. */
  observe?(error: unknown): void;
  /** The cell's store, when the fault needs its own settings (e.g. a short connect timeout). */
  open?(faults: FaultHook): Promise<MetaStore>;
  /** Changes to the matrix policy for this fault's cells (e.g. a short budget to outlast). */
  policy?: Partial<RetryPolicy>;
}

const POINT: Record<Fault, FaultPoint> = {
  BeforeSend: 'BeforeBegin',
  Throttle: 'BeforeBegin',
  Race: 'BeforeBegin',
  Delay: 'BeforeBegin',
  Conflict: 'BeforeCommit',
  Undetermined: 'BeforeCommit',
  AfterApply: 'AfterCommit',
};

interface Ctx {
  ns: number;
  stream: number;
  collection: number;
  link: number;
  [k: string]: unknown;
}

interface Group {
  name: string;
  /** The contract method whose transaction the fault hits. */
  op: string;
  setup(s: MetaStore): Promise<Ctx>;
  call(s: MetaStore, ctx: Ctx, w: WriteContext): Promise<unknown>;
  /** A competing write through another handle, between our read and our write. */
  race(other: MetaStore, ctx: Ctx): Promise<void>;
  /** Group invariants; `acked` is the call's result when it succeeded. */
  check(s: MetaStore, ctx: Ctx, acked: unknown | undefined): Promise<void>;
  /** A capability the group's calls need; a backend without it shows n/a (unless a variant fits). */
  needs?: 'multi-item';
  /** The same faults through the calls a single-item backend offers (spec §4.1), in the same row. */
  singleItem?: Omit<Group, 'name' | 'needs' | 'singleItem'>;
  /**
   * Which of the attempt's transactions of `op` the fault hits (default the first): the n-th
   * time the op reaches the fault's point in one attempt — for commitWal, its n-th partition
   * group (one transaction, or one TransactWriteItems, per group).
   */
  nth?(ctx: Ctx): number;
}

const nsOnly = async (s: MetaStore): Promise<Ctx> => {
  const ns = await s.createNamespace({ org: 'faults', name: 'ns' });
  return { ns: ns.id, stream: 0, collection: 0, link: 0 };
};

/** Capabilities per factory, read once from a probe store (removed by the factory's cleanup). */
const capsOf = new WeakMap<BackendFactory, Promise<Capabilities>>();

/** The group as this backend can run it: itself, its single-item variant, or null (n/a). */
async function selectByCapability(factory: BackendFactory, group: Group): Promise<Group | null> {
  if (!group.needs) return group;
  let caps = capsOf.get(factory);
  if (!caps) {
    caps = factory.open().then((s) => s.capabilities());
    capsOf.set(factory, caps);
  }
  if ((await caps).transactions === 'multi-item') return group;
  return group.singleItem ? { ...group.singleItem, name: group.name } : null;
}

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };
const PARTS = 4;

async function base(s: MetaStore): Promise<Ctx> {
  const ns = await s.createNamespace({ org: 'faults', name: 'ns' });
  const c = await s.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: PARTS });
  return { ns: ns.id, stream: c.streamId, collection: c.id, link: c.linkId };
}

function chunks(ctx: Ctx, records: number, parts = PARTS) {
  return Array.from({ length: parts }, (_, p) => ({ ns: ctx.ns, stream: ctx.stream, partition: p, records, byteStart: p * 100, byteEnd: p * 100 + 100 }));
}

async function commit(s: MetaStore, ctx: Ctx, object: string, records: number, parts = PARTS) {
  return s.commitWal({ object, objectStamp: Date.now(), chunks: chunks(ctx, records, parts) });
}

/** Index invariants of every partition: contiguous, dense, each WAL object at most once. */
export async function checkLog(s: MetaStore, ctx: Ctx): Promise<void> {
  const st = await s.streamState(ctx.ns, ctx.stream);
  for (const h of st.heads) {
    const idx = await s.partitionIndex(ctx.ns, ctx.stream, h.partition);
    assert.equal(idx.next, h.next, 'partitionIndex and streamState agree on the head');
    if (h.next === h.logStart) continue;
    let at = idx.entries[0]!.start;
    assert.ok(at <= h.logStart, `partition ${h.partition}: the first entry covers logStart`);
    const seen = new Set<string>();
    for (const e of idx.entries) {
      assert.equal(e.start, at, `partition ${h.partition}: gap or overlap at ${at}`);
      assert.equal(e.end - e.start, e.records, `partition ${h.partition}: offsets dense in entry ${e.path}`);
      assert.ok(!seen.has(e.path), `partition ${h.partition}: object ${e.path} committed twice`);
      seen.add(e.path);
      at = e.end;
    }
    assert.equal(at, h.next, `partition ${h.partition}: entries reach the head`);
  }
}

export const GROUPS: Group[] = [
  {
    name: 'catalog creates',
    op: 'createCollection',
    needs: 'multi-item',
    singleItem: {
      op: 'createNamespace',
      setup: async () => ({ ns: 0, stream: 0, collection: 0, link: 0 }),
      call: (s, _ctx, w) => s.createNamespace({ org: 'faults', name: 'created' }, w),
      race: async (o) => {
        await o.createNamespace({ org: 'faults', name: 'created' }).catch(ignoreExists);
      },
      check: async (s, _ctx, acked) => {
        const page = await s.listNamespaces('faults');
        assert.ok(page.items.length <= 1, 'a create applied at most once');
        if (acked) assert.equal(page.items[0]?.id, (acked as { id: number }).id, 'the acknowledged create is there, with its id');
      },
    },
    setup: async (s) => {
      const ns = await s.createNamespace({ org: 'faults', name: 'ns' });
      return { ns: ns.id, stream: 0, collection: 0, link: 0 };
    },
    call: (s, ctx, w) => s.createCollection({ ns: ctx.ns, name: 'created', schema: SCHEMA, partitions: 2 }, w),
    race: async (o, ctx) => {
      await o.createCollection({ ns: ctx.ns, name: 'created', schema: SCHEMA, partitions: 2 }).catch(ignoreExists);
    },
    check: async (s, ctx, acked) => {
      const page = await s.listCollections(ctx.ns);
      assert.ok(page.items.length <= 1, 'a create applied at most once');
      if (acked) assert.equal(page.items[0]?.id, (acked as { id: number }).id, 'the acknowledged create is there, with its id');
    },
  },
  {
    name: 'commitWal',
    op: 'commitWal',
    needs: 'multi-item',
    setup: base,
    call: (s, ctx, w) => s.commitWal({ object: 'wal/cell', objectStamp: Date.now(), chunks: chunks(ctx, 5) }, w),
    race: async (o, ctx) => {
      await commit(o, ctx, 'wal/race', 3);
    },
    check: async (s, ctx, acked) => {
      await checkLog(s, ctx);
      if (acked) {
        for (const r of (acked as { assigned: Array<{ partition: number; start: number; end: number }> }).assigned) {
          const idx = await s.partitionIndex(ctx.ns, ctx.stream, r.partition);
          const e = idx.entries.find((x) => x.path === 'wal/cell');
          assert.deepEqual([e?.start, e?.end], [r.start, r.end], 'acknowledged offsets are in the index');
        }
      }
    },
  },
  multiGroupCommit('commitWal 2nd group', () => 2),
  multiGroupCommit('commitWal last group', (ctx) => ctx.groups as number),
  {
    name: 'swapSegment',
    op: 'swapSegment',
    needs: 'multi-item',
    setup: async (s) => {
      const ctx = await base(s);
      await commit(s, ctx, 'wal/a', 5, 1);
      await commit(s, ctx, 'wal/b', 5, 1);
      return ctx;
    },
    call: (s, ctx, w) => s.swapSegment({ ns: ctx.ns, stream: ctx.stream, partition: 0, start: 0, end: 10, path: 'seg/cell', byteStart: 0, byteEnd: 150 }, w),
    race: async (o, ctx) => {
      await o.trimPartition(ctx.ns, ctx.stream, 0, 5);
    },
    check: async (s, ctx, acked) => {
      await checkLog(s, ctx);
      if (acked) {
        const idx = await s.partitionIndex(ctx.ns, ctx.stream, 0);
        assert.equal(idx.entries[0]?.path, 'seg/cell', 'the acknowledged segment is in the index');
        const retired = (await s.retiredWalObjects()).items.map((r) => r.path);
        assert.deepEqual(retired.sort(), ['wal/a', 'wal/b'], 'segmented WAL objects are retired');
      }
    },
  },
  {
    name: 'trimPartition',
    op: 'trimPartition',
    needs: 'multi-item',
    setup: async (s) => {
      const ctx = await base(s);
      await commit(s, ctx, 'wal/a', 5, 1);
      await commit(s, ctx, 'wal/b', 5, 1);
      return ctx;
    },
    call: (s, ctx, w) => s.trimPartition(ctx.ns, ctx.stream, 0, 5, w),
    race: async (o, ctx) => {
      await o.trimPartition(ctx.ns, ctx.stream, 0, 10);
    },
    check: async (s, ctx, acked) => {
      await checkLog(s, ctx);
      if (acked) {
        const idx = await s.partitionIndex(ctx.ns, ctx.stream, 0);
        assert.ok(idx.logStart >= 5, 'the acknowledged trim holds');
      }
    },
  },
  casGroup('casPointer', false),
  casGroup('casPointer fenced', true),
  {
    name: 'leases',
    op: 'acquireLease',
    setup: async (s) => {
      const ns = await s.createNamespace({ org: 'faults', name: 'ns' });
      return { ns: ns.id, stream: 0, collection: 0, link: 0 };
    },
    call: (s, ctx, w) => s.acquireLease(ctx.ns, 'applier', 'n1', 60_000, w),
    race: async (o, ctx) => {
      await o.acquireLease(ctx.ns, 'applier', 'n2', 60_000).catch(() => undefined);
    },
    check: async (s, ctx, acked) => {
      const l = await s.lease(ctx.ns, 'applier');
      if (acked) {
        assert.equal(l?.owner, 'n1', 'the acknowledged lease is held');
        assert.equal(l?.epoch, (acked as { epoch: number }).epoch, 'at the acknowledged epoch');
      }
      if (l) assert.equal(l.epoch, 1, 'one takeover, one epoch: never incremented twice');
    },
  },
  {
    name: 'dropCollection',
    op: 'dropCollection',
    needs: 'multi-item',
    setup: base,
    call: (s, ctx, w) => s.dropCollection(ctx.ns, ctx.collection, w),
    race: async (o, ctx) => {
      await o.dropCollection(ctx.ns, ctx.collection);
    },
    check: async (s, ctx, acked) => {
      if (acked !== undefined) {
        await assert.rejects(s.collectionByName(ctx.ns, 'c'), (e) => isMetaError(e, 'NotFound'), 'the acknowledged drop holds');
      }
    },
  },
];

/**
 * A commitWal of one stream with 2·maxChunksPerGroup + 1 partitions: three partition groups
 * (spec §3.1), the fault on the `nth` one. Earlier groups have committed when it hits, so
 * the call must never read as "not applied" (SurfacedRetryable): it is Unknown until the
 * writer's retry of the same object settles the rest, which the check runs.
 */
function multiGroupCommit(name: string, nth: (ctx: Ctx) => number): Group {
  const object = 'wal/groups';
  return {
    name,
    op: 'commitWal',
    needs: 'multi-item',
    nth,
    setup: async (s) => {
      const per = s.capabilities().maxChunksPerGroup;
      const parts = 2 * per + 1;
      const ns = await s.createNamespace({ org: 'faults', name: 'ns' });
      const c = await s.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: parts });
      return { ns: ns.id, stream: c.streamId, collection: c.id, link: c.linkId, parts, groups: 3 };
    },
    call: (s, ctx, w) => s.commitWal({ object, objectStamp: Date.now(), chunks: chunks(ctx, 5, ctx.parts as number) }, w),
    race: async (o, ctx) => {
      await commit(o, ctx, 'wal/race', 3, ctx.parts as number);
    },
    check: async (s, ctx, acked) => {
      await checkLog(s, ctx);
      if (acked) assert.equal((acked as { groups: number }).groups, 3, 'three partition groups');
      // The writer's retry of the same object settles every group, each exactly once.
      const r = await s.commitWal({ object, objectStamp: Date.now(), chunks: chunks(ctx, 5, ctx.parts as number) });
      if (acked) assert.deepEqual(r.assigned, (acked as { assigned: unknown }).assigned, 'a retry returns the acknowledged offsets');
      await checkLog(s, ctx);
      for (const p of [0, ctx.parts as number - 1]) {
        const idx = await s.partitionIndex(ctx.ns, ctx.stream, p);
        assert.equal(idx.entries.filter((e) => e.path === object).length, 1, `partition ${p}: the object is indexed once`);
      }
    },
  };
}

function casGroup(name: string, fenced: boolean): Group {
  return {
    name,
    op: 'casPointer',
    needs: 'multi-item',
    ...(fenced ? {} : { singleItem: plainCas() }),
    setup: async (s) => {
      const ctx = await base(s);
      if (fenced) ctx.epoch = (await s.acquireLease(ctx.ns, 'applier', 'n1', 60_000)).epoch;
      await s.casPointer(ctx.ns, linkPointerKey(ctx.link), null, 'm/1');
      return ctx;
    },
    call: (s, ctx, w) =>
      s.casPointer(ctx.ns, linkPointerKey(ctx.link), 1, 'm/2', {
        ...w,
        ...(fenced ? { fence: { scope: ctx.ns, key: 'applier', epoch: ctx.epoch as number } } : {}),
      }),
    race: async (o, ctx) => {
      if (fenced) {
        // Another node takes the lease over: the fence's epoch goes stale.
        await o.releaseLease(ctx.ns, 'applier', 'n1', ctx.epoch as number).catch(() => undefined);
        await o.acquireLease(ctx.ns, 'applier', 'n2', 60_000).catch(() => undefined);
      } else {
        const p = await o.pointer(ctx.ns, linkPointerKey(ctx.link));
        await o.casPointer(ctx.ns, linkPointerKey(ctx.link), p!.version, `m/race${p!.version}`);
      }
    },
    check: async (s, ctx, acked) => {
      const p = await s.pointer(ctx.ns, linkPointerKey(ctx.link));
      assert.ok(p, 'the pointer exists');
      if (acked) {
        assert.equal((acked as { version: number }).version, 2, 'dense: the acknowledged cas made version 2');
        assert.equal(p.value === 'm/2' || p.value.startsWith('m/race'), true);
      }
      // Dense: version 1 plus one per applied cas (ours at most once, the race's at most twice).
      assert.ok(p.version >= 1 && p.version <= 3, `pointer version ${p.version} is dense`);
      if (p.value === 'm/2') assert.equal(p.version, 2, 'our cas applied once, at version 2');
    },
  };
}

/** casPointer on a key that is not a collection's link: one conditional write on a single-item backend. */
function plainCas(): NonNullable<Group['singleItem']> {
  const key = 'roots/main';
  return {
    op: 'casPointer',
    setup: async (s) => {
      const ctx = await nsOnly(s);
      await s.casPointer(ctx.ns, key, null, 'm/1');
      return ctx;
    },
    call: (s, ctx, w) => s.casPointer(ctx.ns, key, 1, 'm/2', w),
    race: async (o, ctx) => {
      const p = await o.pointer(ctx.ns, key);
      await o.casPointer(ctx.ns, key, p!.version, `m/race${p!.version}`);
    },
    check: async (s, ctx, acked) => {
      const p = await s.pointer(ctx.ns, key);
      assert.ok(p, 'the pointer exists');
      if (acked) assert.equal((acked as { version: number }).version, 2, 'dense: the acknowledged cas made version 2');
      assert.ok(p.version >= 1 && p.version <= 3, `pointer version ${p.version} is dense`);
      if (p.value === 'm/2') assert.equal(p.version, 2, 'our cas applied once, at version 2');
    },
  };
}

function ignoreExists(e: unknown): void {
  if (!isMetaError(e, 'AlreadyExists')) throw e;
}

export interface CellResult {
  group: string;
  attempt: Attempt;
  fault: Fault;
  outcome: string;
  /** Run through the group's single-item variant. */
  variant?: boolean;
  /** Set when the backend injected the fault for real at this point of its own. */
  realPoint?: FaultPoint;
  /** How the real server produced it (a RealFault's legend line). */
  realHow?: string;
  /** The surfaced error's message, or the attempts a success took: shown when a cell differs from the blessed table. */
  detail?: string;
}

export async function runCell(factory: BackendFactory, group: Group, fault: Fault, attempt: Attempt): Promise<CellResult> {
  const runnable = await selectByCapability(factory, group);
  if (!runnable) return { group: group.name, attempt, fault, outcome: 'n/a' };
  const variant = runnable !== group;
  group = runnable;
  const hits = attempt === 'first' ? new Set([1]) : new Set([1, 2]);
  const producer = (factory as BackendFactory & RealFaults).produce?.[fault];
  const producerPoints: readonly FaultPoint[] | undefined = producer ? [producer.point].flat() : undefined;
  const real = producerPoints?.[0] ?? (factory as BackendFactory & RealFaults).faultPoints?.[fault];
  const points: readonly FaultPoint[] = producerPoints ?? [real ?? POINT[fault]];
  const resolvedCount = (factory as BackendFactory & RealFaults).unknownsResolved;
  const plan = { armed: false, attempt: 0, fired: new Set<FaultPoint>(), seen: new Map<FaultPoint, number>() };
  let other: MetaStore | undefined;
  let ctx: Ctx | undefined;
  // Synchronous throws (BeforeCommit must not return a promise); promises for Race and Delay.
  const hook: FaultHook = (p, op) => {
    if (!plan.armed || op !== group.op || !points.includes(p) || plan.fired.has(p) || !hits.has(plan.attempt)) return;
    const seen = (plan.seen.get(p) ?? 0) + 1;
    plan.seen.set(p, seen);
    if (seen !== (group.nth?.(ctx!) ?? 1)) return;
    plan.fired.add(p); // once per attempt and point: the attempt's n-th transaction of this op
    if (producer) return producer.fire(store!, op, p);
    switch (fault) {
      case 'BeforeSend':
        throw errors.retryable('connect', 'injected: connection refused before BEGIN', true);
      case 'Throttle':
        throw errors.retryable('throttle', 'injected: throttled before BEGIN', true);
      case 'AfterApply':
        throw errors.unknown('injected: acknowledgement lost after COMMIT');
      case 'Undetermined':
        throw errors.unknown('injected: connection lost during COMMIT');
      case 'Conflict':
        throw errors.retryable('conflict', 'injected: serialization failure');
      case 'Race':
        return group.race(other!, ctx!);
      case 'Delay':
        return sleep(DELAY_MS);
    }
  };
  let store: MetaStore | undefined;
  store = producer?.open ? await producer.open(hook) : await factory.open({ faults: hook });
  other = await factory.connect(store);
  ctx = await group.setup(store);
  let acked: unknown;
  let outcome: string;
  let attempts = 0;
  let detail = '';
  /** Every attempt's call: one the budget abandoned may still be running (e.g. its later groups). */
  const inflight: Promise<unknown>[] = [];
  const resolvedBefore = resolvedCount?.(store) ?? 0;
  plan.armed = true;
  try {
    acked = await withRetry(
      async (requestId, n) => {
        if (n > 1) await producer?.settle?.();
        plan.attempt = n;
        plan.fired.clear();
        plan.seen.clear();
        attempts = n;
        try {
          const call = group.call(store!, ctx!, { requestId });
          inflight.push(call.catch(() => undefined));
          return await call;
        } catch (e) {
          producer?.observe?.(e);
          throw e;
        }
      },
      { ...MATRIX_POLICY, ...producer?.policy },
    );
    if (acked === undefined) acked = null; // a void call that succeeded
    const resolved = (resolvedCount?.(store) ?? 0) > resolvedBefore;
    outcome = attempts > 1 ? 'Retried' : resolved ? 'Resolved' : 'NoEffect';
    detail = `succeeded on attempt ${attempts}`;
  } catch (e) {
    if (!isMetaError(e)) throw e;
    detail = `attempt ${attempts}: ${e.code}: ${e.message}`;
    outcome = e.code === 'Unknown' ? 'SurfacedUnknown' : e.code === 'Retryable' ? 'SurfacedRetryable' : `Refused(${e.code})`;
  } finally {
    plan.armed = false;
    await producer?.settle?.();
  }
  // The checks read a settled store: wait for every attempt to have ended, including one the
  // budget gave up on, which goes on once settle() has released what held it.
  let deadline: NodeJS.Timeout | undefined;
  await Promise.race([
    Promise.all(inflight),
    new Promise((_, reject) => {
      deadline = setTimeout(() => reject(new Error(`cell ${group.name} × ${fault} × ${attempt}: an attempt was still running ${ATTEMPT_END_DEADLINE_MS} ms after the call`)), ATTEMPT_END_DEADLINE_MS);
    }),
  ]).finally(() => clearTimeout(deadline));
  try {
    await group.check(store, ctx, acked);
  } catch (e) {
    throw new Error(`invariant broken in cell ${group.name} × ${fault} × ${attempt} (${outcome}): ${(e as Error).message}`);
  }
  return {
    group: group.name,
    attempt,
    fault,
    outcome,
    detail,
    ...(real ? { realPoint: real } : {}),
    ...(producer ? { realHow: producer.how } : {}),
    ...(variant ? { variant: true } : {}),
  };
}

/**
 * The cells whose outcome differs from a blessed table, one line each with what happened, so a
 * failing comparison says which cell moved and why rather than only that the table changed.
 */
export function diffCells(blessed: string, cells: CellResult[]): string[] {
  const want = new Map<string, string>();
  for (const line of blessed.split('\n')) {
    const cols = line.split('|').map((c) => c.trim());
    if (cols.length !== FAULTS.length + 4 || !(ATTEMPTS as readonly string[]).includes(cols[2]!)) continue;
    FAULTS.forEach((f, i) => want.set(`${cols[1]} × ${cols[2]} × ${f}`, cols[3 + i]!));
  }
  const out: string[] = [];
  for (const c of cells) {
    const key = `${c.group} × ${c.attempt} × ${c.fault}`;
    const w = want.get(key);
    if (w !== c.outcome) out.push(`${key}: blessed ${w ?? '(none)'}, got ${c.outcome} (${c.detail ?? ''})`);
  }
  return out;
}

export function renderTable(backend: string, cells: CellResult[]): string {
  const lines = [
    `# Metastore fault matrix: ${backend}`,
    '',
    'Generated by `npm run test:faults -- --backend ' + backend + ' --bless`; review its diff like code.',
    'Rows: method group × the attempts the fault hits (first: attempt 1 only; second: attempts 1 and 2,',
    'the retry policy\'s last). Columns: faults (spec §4.2). Outcomes: Retried, NoEffect, SurfacedUnknown,',
    'SurfacedRetryable, or Refused(code) when a race made a typed refusal the correct answer.',
    '',
    ...realFaultNotes(cells),
    ...capabilityNotes(cells),
    `| group | attempt | ${FAULTS.join(' | ')} |`,
    `| --- | --- | ${FAULTS.map(() => '---').join(' | ')} |`,
  ];
  for (const g of GROUPS) {
    for (const a of ATTEMPTS) {
      const row = FAULTS.map((f) => cells.find((c) => c.group === g.name && c.attempt === a && c.fault === f)?.outcome ?? '?');
      lines.push(`| ${g.name} | ${a} | ${row.join(' | ')} |`);
    }
  }
  return lines.join('\n') + '\n';
}

/** Legend lines for faults a backend injected for real (none for a backend that injects none). */
function realFaultNotes(cells: CellResult[]): string[] {
  const real = new Map<Fault, FaultPoint>();
  const produced = new Map<Fault, string>();
  for (const c of cells) {
    if (c.realPoint) real.set(c.fault, c.realPoint);
    if (c.realHow) produced.set(c.fault, c.realHow);
  }
  if (real.size === 0) return [];
  const how: Record<string, string> = {
    BeforeWrite: 'a competing write through another connection between the transaction\'s SELECT and its UPDATE',
    CommitSent: 'the connection cut right after COMMIT was sent; Resolved: the backend resolved the outcome itself',
  };
  return [
    'Injected for real by this backend:',
    ...[...real].map(([f, p]) => `- ${f} at ${p}: ${produced.get(f) ?? how[p] ?? 'a fault point of the backend'}.`),
    '',
  ];
}

/** Legend lines for groups run by a variant or not at all (none for a multi-item backend). */
function capabilityNotes(cells: CellResult[]): string[] {
  const variants = GROUPS.filter((g) => cells.some((c) => c.group === g.name && c.variant));
  const na = GROUPS.filter((g) => cells.some((c) => c.group === g.name && c.outcome === 'n/a'));
  if (variants.length === 0 && na.length === 0) return [];
  return [
    "Selected by capabilities (transactions: 'single-item', spec §4.1):",
    ...variants.map((g) => `- ${g.name}: run through ${g.singleItem!.op} (${SINGLE_ITEM_NOTE[g.name] ?? 'a single-item variant'}).`),
    ...(na.length ? [`- n/a: ${na.map((g) => g.name).join(', ')} need multi-item transactions.`] : []),
    '',
  ];
}

const SINGLE_ITEM_NOTE: Record<string, string> = {
  'catalog creates': 'name uniqueness by attribute_not_exists + ALL_OLD',
  casPointer: 'a key that is not a collection\'s link, no fence',
};

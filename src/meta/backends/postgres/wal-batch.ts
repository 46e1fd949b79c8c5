// Group commit of the PostgreSQL backend's commitWal (docs/operations.md, "PostgreSQL"). Commits
// to a partition serialize on its head row, held FOR UPDATE from the offsets' assignment to
// COMMIT and its WAL flush (spec §2.2), so concurrent writers to one collection queue one
// transaction at a time. Here the commit groups queued in one turn of the event loop run in one
// transaction instead: one head lock, one COMMIT and one flush for all of them.
//
// A call to an idle handle starts its transaction at once; calls made while one is in flight
// queue, and the next batch takes them all (up to the bounds below).
//
// A batch runs the statements of one group over arrays (sql.ts): WAL_PRE (the groups' records,
// claimed objects, live streams and the namespaces' fence rows FOR KEY SHARE), the WAL objects'
// references, the heads FOR UPDATE in key order, and WAL_APPLY (entries, heads, records); a batch
// of one is a plain commit. What refuses one group — a replay with different chunks, a move
// fence, a stale commit, a dropped stream or partition out of range, a claimed object — is
// decided on WAL_PRE's rows before anything is written, and answers that group alone: it wrote
// nothing. A group whose object GC claimed meanwhile (its reference upsert skipped it), or whose
// record another attempt wrote while we waited for the heads, rolls the batch back and runs it
// again without it, or finding its record (a bounded number of times). Nobody is answered before
// the COMMIT that holds their write; a transaction that fails fails every group it carried, as
// it would each alone, and a COMMIT whose reply was lost is resolved for all of them at once
// (context.ts write: by xid, else by the first group's record).
import { errors } from '../../errors.js';
import { checkCommitWindow, checkPartition, replayGroup } from '../../core/log.js';
import { checkWritable, namespacesOf } from '../../core/moves.js';
import { PG_TRACKING_SETTING } from '../sql/moves.js';
import type { AssignedRange, Stamp, WalChunk, WalCommit } from '../../types.js';
import type { PgContext } from './context.js';
import { SQL } from './sql.js';
import type { WriteTx } from './tx.js';

/** Commit groups one transaction carries at most; the rest of the queue forms the next batch. */
export const MAX_WAL_BATCH_GROUPS = 64;
/** Chunks one transaction carries at most (its statements' arrays); a larger group runs alone. */
export const MAX_WAL_BATCH_CHUNKS = 1_024;
/**
 * Batches in flight at once: while one waits for its COMMIT, the next can read and queue on
 * the heads behind it. More would only hold more connections waiting on the same rows.
 */
export const MAX_WAL_BATCHES_IN_FLIGHT = 2;
/** Re-runs of one batch because another attempt of one of its groups committed first. */
const MAX_BATCH_RESTARTS = 3;

interface Group {
  commit: WalCommit;
  g: number;
  chunks: WalChunk[];
  stamp: Stamp | undefined;
  resolve(r: AssignedRange[]): void;
  reject(e: unknown): void;
}

/** A group's answer: its ranges (valid once the batch commits), or its own refusal. */
type Answer = { ranges: AssignedRange[]; written: boolean } | { error: unknown };

/** The batch must run again: `excluded` groups have their answers; the others are re-read. */
class RerunBatch extends Error {
  constructor(readonly restart: boolean) {
    super('run the commitWal batch again');
  }
}

const batchers = new WeakMap<PgContext, WalBatcher>();

/** Commits group `g` of `commit` (the chunks `chunks`, request order) in the next batch. */
export function commitGroupBatched(ctx: PgContext, commit: WalCommit, g: number, chunks: WalChunk[], stamp: Stamp | undefined): Promise<AssignedRange[]> {
  let b = batchers.get(ctx);
  if (!b) batchers.set(ctx, (b = new WalBatcher(ctx)));
  return b.add(commit, g, chunks, stamp);
}

class WalBatcher {
  private queue: Group[] = [];
  private inFlight = 0;
  private scheduled = false;

  constructor(private readonly ctx: PgContext) {}

  add(commit: WalCommit, g: number, chunks: WalChunk[], stamp: Stamp | undefined): Promise<AssignedRange[]> {
    return new Promise<AssignedRange[]>((resolve, reject) => {
      this.queue.push({ commit, g, chunks, stamp, resolve, reject });
      // An idle handle has nothing to group with: the call starts at once (no wait at one writer).
      if (this.inFlight === 0 && !this.scheduled) this.start();
      else this.schedule();
    });
  }

  private start(): void {
    const batch = this.take();
    this.inFlight++;
    // Settled before the batch's callers are answered: a caller's next call, made from its
    // answer, then finds the handle idle and starts at once.
    let done = false;
    const settled = () => {
      if (done) return;
      done = true;
      this.inFlight--;
      if (this.queue.length > 0) this.schedule();
    };
    runBatch(this.ctx, batch, settled).catch((e: unknown) => {
      // A bug in the batch's own code: its callers get it (a settled promise ignores a second settlement).
      settled();
      for (const g of batch) g.reject(e);
    });
  }

  /** After this turn's microtasks, so every caller woken by the last batch's answers has queued. */
  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.inFlight < MAX_WAL_BATCHES_IN_FLIGHT && this.queue.length > 0) this.start();
    });
  }

  /** The next batch, in queue order: bounded, and never two groups of one WAL object (a retry racing its first attempt waits for the next). */
  private take(): Group[] {
    const batch: Group[] = [];
    const rest: Group[] = [];
    const objects = new Set<string>();
    let chunks = 0;
    for (let i = 0; i < this.queue.length; i++) {
      const c = this.queue[i]!;
      if (batch.length >= MAX_WAL_BATCH_GROUPS) {
        rest.push(...this.queue.slice(i));
        break;
      }
      const fits = batch.length === 0 || chunks + c.chunks.length <= MAX_WAL_BATCH_CHUNKS;
      if (!fits || objects.has(c.commit.object)) {
        rest.push(c);
        continue;
      }
      batch.push(c);
      objects.add(c.commit.object);
      chunks += c.chunks.length;
    }
    this.queue = rest;
    return batch;
  }
}

/** Runs one batch to its answers: every group is resolved or rejected exactly once. */
async function runBatch(ctx: PgContext, groups: Group[], settled: () => void): Promise<void> {
  const answers: Array<Answer | undefined> = new Array(groups.length);
  const given = groups.map((c) => c.stamp).filter((s): s is Stamp => s !== undefined);
  const stamp = given.length === groups.length ? Math.max(...given) : undefined;
  let failure: unknown;
  let first: Group | undefined; // the first group the last run wrote: its record resolves a lost COMMIT
  for (let restarts = 0, runs = 0; runs <= groups.length + MAX_BATCH_RESTARTS; runs++) {
    const open = groups.map((_, i) => i).filter((i) => answers[i] === undefined || ('ranges' in answers[i]! && answers[i]!.written));
    for (const i of open) answers[i] = undefined; // a run that rolled back wrote nothing
    if (open.length === 0) break;
    try {
      await ctx.write(
        'commitWal',
        stamp === undefined ? {} : { stamp },
        async (tx) => {
          const written = await batchTx(tx, groups, open, answers);
          first = groups[written[0] ?? open[0]!];
        },
        {
          resolveToken: async () =>
            first !== undefined &&
            (await ctx.writePool.query('SELECT 1 FROM wal_commits WHERE object = $1 AND grp = $2', [first.commit.object, first.g])).rowCount === 1,
          weight: open.length,
        },
      );
      failure = undefined;
      ctx.stats.walBatches++;
      ctx.stats.walBatchGroups += open.length;
      break;
    } catch (e) {
      failure = e;
      if (!(e instanceof RerunBatch)) break;
      if (e.restart && ++restarts > MAX_BATCH_RESTARTS) {
        failure = errors.retryable('conflict', `commitWal: concurrent commits of the same WAL object group, ${MAX_BATCH_RESTARTS} times`);
        break;
      }
    }
  }
  if (failure instanceof RerunBatch) failure = errors.retryable('conflict', 'commitWal: the batch kept changing under concurrent commits');
  settled();
  groups.forEach((c, i) => {
    const a = answers[i];
    if (a && 'error' in a) c.reject(a.error);
    // A replay too is answered only through its transaction, as a plain call's would be.
    else if (a && failure === undefined) c.resolve(a.ranges);
    else c.reject(failure ?? new Error('postgres metastore invariant violated: a commitWal batch ended without an answer'));
  });
}

type Pre = {
  recs: Array<[number, AssignedRange[]]> | null;
  claimed: string[] | null;
  streams: Array<[number, number, number]> | null;
  fence: Array<[number, string, string | null, number]> | null;
};

/**
 * One run of a batch inside its transaction: answers the refused and replayed groups of
 * `open`, writes the others and records their ranges as `written`. Returns the written ones.
 */
async function batchTx(tx: WriteTx, groups: Group[], open: number[], answers: Array<Answer | undefined>): Promise<number[]> {
  const objects = open.map((i) => groups[i]!.commit.object);
  const streamKeys = [...new Map(open.flatMap((i) => groups[i]!.chunks.map((c) => [`${c.ns}/${c.stream}`, c] as const))).values()];
  const nss = [...new Set(open.flatMap((i) => namespacesOf(groups[i]!.chunks)))].sort((a, b) => a - b);
  const pre = (await tx.one<Pre>(SQL.WAL_PRE, [objects, open.map((i) => groups[i]!.g), streamKeys.map((c) => c.ns), streamKeys.map((c) => c.stream), nss]))!;
  const recs = new Map((pre.recs ?? []).map(([ord, rec]) => [open[ord - 1]!, rec]));
  const claimed = new Set(pre.claimed ?? []);
  const partitionsOf = new Map((pre.streams ?? []).map(([ns, id, parts]) => [`${ns}/${id}`, parts]));
  const fenceOf = new Map((pre.fence ?? []).map(([id, state, moveState, moveEpoch]) => [id, { state, moveState, moveEpoch }]));
  const write: number[] = [];
  for (const i of open) {
    const c = groups[i]!;
    try {
      const rec = recs.get(i);
      // A replay writes nothing, so it is answered even while a namespace is fenced (spec §5.5).
      if (rec) {
        answers[i] = { ranges: replayGroup(c.commit.object, c.g, rec, c.chunks), written: false };
        continue;
      }
      for (const ns of namespacesOf(c.chunks)) checkWritable(ns, fenceOf.get(ns) ?? null);
      checkCommitWindow(c.commit, c.stamp ?? tx.stamp);
      checkChunks(c.chunks, partitionsOf);
      if (claimed.has(c.commit.object)) throw errors.claimed(c.commit.object);
      write.push(i);
    } catch (e) {
      answers[i] = { error: e };
    }
  }
  if (write.length === 0) return write;
  await tx.beforeWrite();
  // A namespace whose changes a move's pre-copy tracks: arm the tracking triggers (sql/moves.ts).
  if ([...fenceOf.values()].some((f) => f.moveState === 'tracking')) await tx.q(`SELECT set_config('${PG_TRACKING_SETTING}', 'on', true)`);
  // The WAL objects' references first (Claimed if GC claimed one meanwhile): their rows belong
  // to these objects alone, so taking them before the heads keeps the hot head locks short.
  // (No cycle with swapSegment/trimPartition, which lock a head and then the refs of objects
  // already committed there.)
  const refs = new Map(write.map((i) => [groups[i]!.commit.object, groups[i]!.chunks.length]));
  const paths = [...refs.keys()].sort();
  const taken = await tx.q<{ path: string }>(SQL.ADJUST_REFS, [
    paths,
    paths.map(() => 'wal'),
    paths.map((p) => refs.get(p)!),
    [],
    [],
    tx.stamp,
  ]);
  if (taken.length < paths.length) {
    const got = new Set(taken.map((r) => r.path));
    for (const i of write) if (!got.has(groups[i]!.commit.object)) answers[i] = { error: errors.claimed(groups[i]!.commit.object) };
    throw new RerunBatch(false);
  }
  // Lock the heads in key order (spec §2.2); create missing ones first (heads are lazy) —
  // ON CONFLICT DO NOTHING waits for a concurrent creator.
  const keys = [...new Map(write.flatMap((i) => groups[i]!.chunks.map((c) => [`${c.ns}/${c.stream}/${c.partition}`, c] as const))).values()].sort(
    (a, b) => a.ns - b.ns || a.stream - b.stream || a.partition - b.partition,
  );
  const keyArgs = [keys.map((k) => k.ns), keys.map((k) => k.stream), keys.map((k) => k.partition)];
  let heads = await tx.q<{ ns: number; stream: number; partition: number; next: number }>(SQL.HEADS_LOCK, keyArgs);
  if (heads.length < keys.length) {
    await tx.q(SQL.HEADS_CREATE, keyArgs);
    heads = await tx.q(SQL.HEADS_LOCK, keyArgs);
  }
  const next = new Map(heads.map((h) => [`${h.ns}/${h.stream}/${h.partition}`, h.next]));
  // Offsets in queue order: each group's chunks follow the previous group's at each head.
  const all: Array<AssignedRange & { c: WalChunk; path: string }> = [];
  const results: string[] = [];
  for (const i of write) {
    const c = groups[i]!;
    const ranges = c.chunks.map((ch) => {
      const key = `${ch.ns}/${ch.stream}/${ch.partition}`;
      const start = next.get(key)!;
      next.set(key, start + ch.records);
      const r: AssignedRange = { ns: ch.ns, stream: ch.stream, partition: ch.partition, start, end: start + ch.records, group: c.g };
      all.push({ ...r, c: ch, path: c.commit.object });
      return r;
    });
    answers[i] = { ranges, written: true };
    results.push(JSON.stringify(ranges));
  }
  const rec = await tx.one<{ recorded: number; xid: string }>(SQL.WAL_APPLY, [
    all.map((r) => r.ns),
    all.map((r) => r.stream),
    all.map((r) => r.partition),
    all.map((r) => r.start),
    all.map((r) => r.end),
    all.map((r) => r.c.byteStart),
    all.map((r) => r.c.byteEnd),
    all.map((r) => r.c.records),
    all.map((r) => r.path),
    write.map((i) => groups[i]!.commit.object),
    write.map((i) => groups[i]!.g),
    results,
    write.map((i) => groups[i]!.stamp ?? tx.stamp),
  ]);
  if (!rec || rec.recorded !== write.length) {
    // Another attempt of one of these groups committed while we waited for the heads: roll
    // back and run again, which finds its record and replays it.
    throw new RerunBatch(true);
  }
  tx.xid = rec.xid;
  return write;
}

/** Every chunk's stream is live and its partition in range (NotFound / InvalidArgument). */
export function checkChunks(chunks: readonly WalChunk[], partitionsOf: Map<string, number>): void {
  for (const c of chunks) {
    const parts = partitionsOf.get(`${c.ns}/${c.stream}`);
    if (parts === undefined) throw errors.notFound(`stream ${c.stream} in namespace ${c.ns}`);
    checkPartition({ id: c.stream, partitions: parts }, c.partition);
  }
}

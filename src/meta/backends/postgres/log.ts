// The log of the PostgreSQL backend: commitWal, the partition index and its reads,
// swapSegment and trimPartition (spec §3.1, §3.3).
//
// Tables heads (one row per partition, created lazily), index_entries (one row per WAL chunk
// or segment, keyed by its start offset), wal_commits (one row per (object, group): the
// idempotency record and commit token of a commitWal group) and object_refs (references).
// commitWal commits each partition group in a batch transaction with the concurrent groups of
// other calls (wal-batch.ts): the records and fence read, the WAL objects' references, the heads
// FOR UPDATE in key order, then heads, entries and the records in one statement (sql.ts). swapSegment and trimPartition lock their partition's head
// FOR UPDATE, which orders them with commits. Composite reads are one statement each: one
// snapshot. The dirty set (core/due.ts) is two columns of heads: commitWal's statement marks
// each head due in the transaction that assigns its offsets; dueHeads reads heads_due.
import { errors } from '../../errors.js';
import { checkPartition, commitWalGroups, indexFloor, planSwap, planTrim, runProblem } from '../../core/log.js';
import { dueCursor, dueStart } from '../../core/due.js';
import { pageArgs, paged } from '../../core/paging.js';
import { MAX_INDEX_PAGE } from '../../limits.js';
import type {
  AssignedRange,
  CollectionHead,
  DueHead,
  Fence,
  IndexEntry,
  Page,
  PageRequest,
  PartitionHead,
  PartitionIndex,
  SegmentSwap,
  StreamState,
  WalChunk,
  WalCommit,
  WalCommitResult,
  WriteContext,
} from '../../types.js';
import { toCollection, toEntry, toHeads, toPointer, toStream, type Row } from '../sql/rows.js';
import type { PgContext } from './context.js';
import { namespacesOf } from '../../core/moves.js';
import { adjustRefs, assert, checkFence, writable } from './shared.js';
import { SQL } from './sql.js';
import { checkChunks, commitGroupBatched } from './wal-batch.js';
import type { WriteTx } from './tx.js';

/**
 * commitWal through the core's group loop (core/log.ts commitWalGroups: deterministic groups,
 * the partial-apply rule); each group is one transaction here, idempotent by its (object,
 * group) record, which is also its commit token: the requestId is not used.
 */
export function commitWal(ctx: PgContext, commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
  return commitWalGroups(commit, ctx.caps, {
    // Stored-state input checks before the first group of a multi-group commit, so one that
    // can never succeed writes nothing (a stream dropped between groups fails only its own
    // and later groups, spec §3.1).
    precheck: async (c) => checkChunks(c.chunks, await livePartitions(ctx, c.chunks)),
    // Each group in the next batch transaction of this handle (wal-batch.ts).
    commitGroup: (c, g, idx) => commitGroupBatched(ctx, c, g, idx.map((i) => c.chunks[i]!), w?.stamp),
  });
}

/** Partition counts of the live streams among the chunks', keyed `ns/stream`. */
async function livePartitions(ctx: PgContext, chunks: WalChunk[]): Promise<Map<string, number>> {
  const keys = [...new Map(chunks.map((c) => [`${c.ns}/${c.stream}`, c])).values()];
  const rows = await ctx.read<{ ns: number; id: number; partitions: number }>(
    `SELECT s.ns, s.id, s.partitions FROM streams s JOIN unnest($1::bigint[], $2::bigint[]) AS k(ns, id)
       ON s.ns = k.ns AND s.id = k.id WHERE s.state = 'live'`,
    [keys.map((c) => c.ns), keys.map((c) => c.stream)],
  );
  return new Map(rows.map((r) => [`${r.ns}/${r.id}`, r.partitions]));
}

export async function partitionIndex(ctx: PgContext, ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
  const from = opts?.from ?? 0;
  const limit = opts?.limit ?? MAX_INDEX_PAGE;
  // One statement, one snapshot (spec §3.3): the head, then the entries from the one
  // covering max(from, logStart) up to the head.
  const r = await ctx.readOne<{ partitions: number | null; next: number; log_start: number; entries: Row[] | null }>(
    `WITH s AS (SELECT partitions FROM streams WHERE ns = $1 AND id = $2 AND state = 'live'),
          h AS (SELECT coalesce(max(next), 0) AS next, coalesce(max(log_start), 0) AS log_start
                FROM heads WHERE ns = $1 AND stream = $2 AND partition = $3),
          lo AS (SELECT greatest($4::bigint, h.log_start) AS lo, h.next FROM h)
     SELECT (SELECT partitions FROM s) AS partitions, h.next, h.log_start,
       (SELECT json_agg(e ORDER BY e.start) FROM (
          SELECT i.partition, i.start, i."end", i.kind, i.path, i.byte_start, i.byte_end, i.records
          FROM index_entries i, lo
          WHERE i.ns = $1 AND i.stream = $2 AND i.partition = $3 AND lo.lo < lo.next
            AND i.start >= coalesce((SELECT max(start) FROM index_entries
                                      WHERE ns = $1 AND stream = $2 AND partition = $3 AND start <= lo.lo), 0)
          ORDER BY i.start LIMIT $5) e) AS entries
     FROM h`,
    [ns, stream, partition, from, limit + 1],
  );
  if (!r || r.partitions === null) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
  checkPartition({ id: stream, partitions: r.partitions }, partition);
  const h = { logStart: r.log_start, next: r.next };
  const lo = indexFloor({ partition, ...h, bytes: 0 }, from);
  if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] };
  const rows = r.entries ?? [];
  const entries = rows.slice(0, limit).map(toEntry);
  // One snapshot: the run is contiguous by construction; anything else is a bug here.
  const problem = runProblem(entries, lo, { partition, ...h, bytes: 0 });
  assert(problem === null, `partition ${partition}: ${problem}`);
  const last = entries[entries.length - 1]!;
  const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
  if (rows.length > limit) out.nextFrom = last.end;
  return out;
}

export async function streamState(ctx: PgContext, ns: number, stream: number): Promise<StreamState> {
  // One statement: the stream and its heads from one snapshot.
  const r = await ctx.readOne<{ s: Row; heads: Row[] | null }>(
    `SELECT row_to_json(s) AS s,
            (SELECT json_agg(json_build_object('partition', h.partition, 'next', h.next, 'log_start', h.log_start, 'bytes', h.bytes))
               FROM heads h WHERE h.ns = s.ns AND h.stream = s.id) AS heads
     FROM streams s WHERE s.ns = $1 AND s.id = $2 AND s.state = 'live'`,
    [ns, stream],
  );
  if (!r) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
  const s = toStream(r.s);
  return { stream: s, heads: toHeads(r.heads, s.partitions) };
}

export async function collectionHead(ctx: PgContext, ns: number, collection: number): Promise<CollectionHead> {
  // One statement (one snapshot), which also satisfies the documented order (spec §3.3):
  // the pointer, then the heads.
  const r = await ctx.readOne<{ c: Row; p: Row | null; heads: Row[] | null }>(
    `SELECT row_to_json(c) AS c,
            (SELECT row_to_json(p) FROM pointers p WHERE p.ns = c.ns AND p.key = 'link/' || c.link_id) AS p,
            (SELECT json_agg(json_build_object('partition', h.partition, 'next', h.next, 'log_start', h.log_start, 'bytes', h.bytes))
               FROM heads h WHERE h.ns = c.ns AND h.stream = c.stream_id) AS heads
     FROM collections c WHERE c.ns = $1 AND c.id = $2 AND c.state = 'live'`,
    [ns, collection],
  );
  if (!r) throw errors.notFound(`collection ${collection} in namespace ${ns}`);
  const c = toCollection(r.c);
  return { collection: c, pointer: r.p ? toPointer(r.p) : null, heads: toHeads(r.heads, c.partitions) };
}

/** Locks a live stream's partition head (FOR UPDATE) and returns it; a missing head reads as zero. */
async function lockHead(tx: WriteTx, ns: number, stream: number, partition: number): Promise<PartitionHead> {
  const s = await tx.one<{ partitions: number }>("SELECT partitions FROM streams WHERE ns = $1 AND id = $2 AND state = 'live'", [ns, stream]);
  if (!s) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
  checkPartition({ id: stream, partitions: s.partitions }, partition);
  // The Race point: after the plain read, before the head's row lock.
  await tx.beforeWrite();
  // A missing head (nothing committed yet) has nothing to lock: it reads as zero.
  const r = await tx.one<{ next: number; log_start: number; bytes: number }>(
    'SELECT next, log_start, bytes FROM heads WHERE ns = $1 AND stream = $2 AND partition = $3 FOR UPDATE',
    [ns, stream, partition],
  );
  return { partition, next: r?.next ?? 0, logStart: r?.log_start ?? 0, bytes: r?.bytes ?? 0 };
}

export async function swapSegment(ctx: PgContext, swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext): Promise<{ entry: IndexEntry }> {
  const fence = opts?.fence;
  return ctx.write('swapSegment', opts, async (tx) => {
    const { ns, stream, partition } = swap;
    await writable(tx, ns);
    // The head's lock orders this swap with commits and trims of the partition: the entries
    // read below cannot change until COMMIT.
    const h = await lockHead(tx, ns, stream, partition);
    await checkFence(tx, fence, `segments of partition ${partition}`);
    const rows = (
      await tx.q(
        `SELECT partition, start, "end", kind, path, byte_start, byte_end, records FROM index_entries
         WHERE ns = $1 AND stream = $2 AND partition = $3 AND start >= $4 AND start < $5 ORDER BY start LIMIT $6`,
        [ns, stream, partition, swap.start, swap.end, ctx.caps.maxSwapEntries + 1],
      )
    ).map(toEntry);
    const plan = planSwap(swap, rows, h, ctx.caps.maxSwapEntries);
    if (plan.kind === 'done') return { entry: plan.entry }; // a retry of a swap that applied
    const { entry } = plan;
    await adjustRefs(tx, [
      { path: swap.path, kind: 'segment', delta: 1 },
      ...rows.map((e) => ({ path: e.path, kind: e.kind, delta: -1 })),
    ]);
    await tx.q(
      `WITH h AS (UPDATE heads SET bytes = bytes + $6 WHERE ns = $1 AND stream = $2 AND partition = $3)
       DELETE FROM index_entries WHERE ns = $1 AND stream = $2 AND partition = $3 AND start >= $4 AND start < $5`,
      [ns, stream, partition, swap.start, swap.end, plan.bytesDelta],
    );
    await tx.q(
      `INSERT INTO index_entries (ns, stream, partition, start, "end", kind, path, byte_start, byte_end, records)
       VALUES ($1, $2, $3, $4, $5, 'segment', $6, $7, $8, $9)`,
      [ns, stream, partition, swap.start, swap.end, swap.path, swap.byteStart, swap.byteEnd, entry.records],
    );
    return { entry };
  });
}

export async function trimPartition(
  ctx: PgContext,
  ns: number,
  stream: number,
  partition: number,
  logStart: number,
  opts?: { fence?: Fence } & WriteContext,
): Promise<PartitionHead> {
  const fence = opts?.fence;
  return ctx.write('trimPartition', opts, async (tx) => {
    await writable(tx, ns);
    const h = await lockHead(tx, ns, stream, partition);
    await checkFence(tx, fence, `log start of partition ${partition}`);
    if (!planTrim(h, logStart)) return h; // never backward; a repeat is a no-op
    const gone = await tx.q<{ path: string; bytes: number }>(
      `DELETE FROM index_entries WHERE ns = $1 AND stream = $2 AND partition = $3 AND "end" <= $4
       RETURNING path, byte_end - byte_start AS bytes`,
      [ns, stream, partition, logStart],
    );
    let bytes = 0;
    for (const e of gone) bytes += e.bytes;
    await adjustRefs(tx, gone.map((e) => ({ path: e.path, kind: 'unknown', delta: -1 })));
    await tx.q('UPDATE heads SET log_start = $1, bytes = bytes - $2 WHERE ns = $3 AND stream = $4 AND partition = $5', [
      logStart,
      bytes,
      ns,
      stream,
      partition,
    ]);
    return { ...h, logStart, bytes: h.bytes - bytes };
  });
}

export async function dueHeads(ctx: PgContext, before: number, page?: PageRequest): Promise<Page<DueHead>> {
  const p = pageArgs(page);
  const a = dueStart(p.after);
  const rows = await ctx.read<DueHead>(SQL.DUE_HEADS, [before, a.due, a.ns, a.stream, a.partition, p.limit + 1]);
  return paged(rows, p.limit, dueCursor);
}

/**
 * Not a catalog or log change: no token (the mark condition makes a repeat apply the same), no
 * lease fence; refused while the namespace is fenced for a move, and recorded by a move's
 * tracking like any head write (writable arms it).
 */
export function settleHead(ctx: PgContext, ns: number, stream: number, partition: number, mark: number, due: number | null): Promise<boolean> {
  return ctx.write('settleHead', undefined, async (tx) => {
    await writable(tx, ns);
    await tx.beforeWrite();
    return (await tx.q(SQL.SETTLE_HEAD, [ns, stream, partition, mark, due])).length > 0;
  });
}


// The embedded backend's log: commitWal, partitionIndex, streamState, collectionHead,
// swapSegment, trimPartition, segmentReferenced, retiredWalObjects, mapped onto the heads,
// index_entries, wal_commits and object_refs tables. The decisions are the core's
// (core/log.ts): the group loop and its partial-apply rule, the "same chunks" replay, the
// commit window, swap planning, the trim rule and index contiguity. Here: which rows to
// read and write. Reads are snapshots (one deferred transaction), so partitionIndex
// treats a non-contiguous run as a bug of this backend, not a race to retry.
import type { MetaStore } from '../../contract.js';
import { linkPointerKey } from '../../contract.js';
import { MAX_INDEX_PAGE } from '../../limits.js';
import {
  assignRange,
  checkCommitWindow,
  checkPartition,
  commitWalGroups,
  type CommitWalParts,
  indexFloor,
  planSwap,
  planTrim,
  replayGroup,
  runProblem,
} from '../../core/log.js';
import { namespacesOf } from '../../core/moves.js';
import { pageArgs, paged } from '../../core/paging.js';
import { DUE_NOW, dueCursor, dueStart } from '../../core/due.js';
import type { Statement } from 'better-sqlite3';
import type {
  AssignedRange,
  Capabilities,
  DueHead,
  Fence,
  IndexEntry,
  PartitionIndex,
  PageRequest,
  SegmentSwap,
  Stamp,
  WalChunk,
  WalCommit,
  WriteContext,
} from '../../types.js';
import { toEntry, toPointer, type Row } from '../sql/rows.js';
import { invariant, type SqliteContext } from './context.js';

export type LogCalls = Pick<
  MetaStore,
  'commitWal' | 'partitionIndex' | 'streamState' | 'collectionHead' | 'swapSegment' | 'trimPartition' | 'segmentReferenced' | 'retiredWalObjects'
> &
  Required<Pick<MetaStore, 'dueHeads' | 'settleHead'>>;

/**
 * A group's commit record as stored: [ns, stream, partition, start, end] per chunk, in the
 * group's order (the group number is the row's key). A quarter of the size of the ranges'
 * own JSON, which kept most of the table's pages — and so of each commit's page writes and
 * cache misses — on field names. Records written before (the ranges' objects) still decode.
 */
export function encodeCommitRecord(ranges: readonly AssignedRange[]): string {
  let s = '[';
  for (let k = 0; k < ranges.length; k++) {
    const r = ranges[k]!;
    s += `${k === 0 ? '' : ','}[${r.ns},${r.stream},${r.partition},${r.start},${r.end}]`;
  }
  return `${s}]`;
}

export function decodeCommitRecord(text: string, g: number): AssignedRange[] {
  const rows = JSON.parse(text) as (AssignedRange | [number, number, number, number, number])[];
  return rows.map((r) => (Array.isArray(r) ? { ns: r[0], stream: r[1], partition: r[2], start: r[3], end: r[4], group: g } : r));
}

/**
 * commitWal's group transaction, the hottest write of a node: its statements are prepared
 * once per handle and called directly, and one object per call carries the write context
 * (no per-call closures or statement lookups). The SQL is what the bench's raw baseline runs
 * (bench/meta.ts), plus the move fence's read.
 */
class WalCommitter implements CommitWalParts {
  private readonly record: Statement;
  private readonly head: Statement;
  private readonly advance: Statement;
  private readonly entry: Statement;
  private readonly insertRecord: Statement;

  constructor(private readonly ctx: SqliteContext) {
    this.record = ctx.statement('SELECT result FROM wal_commits WHERE object = ? AND grp = ?');
    this.head = ctx.statement('SELECT next FROM heads WHERE ns = ? AND stream = ? AND partition = ?');
    this.advance = ctx.statement(
      // The dirty set (spec §5.4): the partition is due now, in the transaction that assigns its offsets.
      `INSERT INTO heads (ns, stream, partition, next, log_start, bytes, mark, due) VALUES (?, ?, ?, ?, 0, ?, 1, ${DUE_NOW})
       ON CONFLICT (ns, stream, partition) DO UPDATE SET next = excluded.next, bytes = bytes + excluded.bytes, mark = mark + 1, due = ${DUE_NOW}`,
    );
    this.entry = ctx.statement(
      `INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
       VALUES (?, ?, ?, ?, ?, 'wal', ?, ?, ?, ?)`,
    );
    this.insertRecord = ctx.statement('INSERT INTO wal_commits (object, grp, result, stamp) VALUES (?, ?, ?, ?)');
  }

  /** Every chunk's stream is live and its partition in range (read in one snapshot). */
  precheck(commit: WalCommit): Promise<void> {
    return this.ctx.read(() => this.checkChunks(commit.chunks));
  }

  /** Group g of `commit` in one write transaction; `w` is the caller's write context. */
  commitGroup(commit: WalCommit, g: number, idx: number[], w?: WriteContext): Promise<AssignedRange[]> {
    return this.ctx.write('commitWal', w, (stamp) => this.apply(commit, g, idx, stamp));
  }

  private checkChunks(chunks: readonly WalChunk[]): void {
    let ns = -1;
    let stream = -1;
    let parts = 0;
    for (const c of chunks) {
      // A flush's chunks come stream by stream: one read per stream run.
      if (c.ns !== ns || c.stream !== stream) {
        ns = c.ns;
        stream = c.stream;
        parts = this.ctx.livePartitions(ns, stream);
      }
      checkPartition({ id: stream, partitions: parts }, c.partition);
    }
  }

  private apply(commit: WalCommit, g: number, idx: number[], stamp: Stamp): AssignedRange[] {
    const chunks = idx.map((i) => commit.chunks[i]!);
    const rec = this.record.get(commit.object, g) as { result: string } | undefined;
    if (rec) return replayGroup(commit.object, g, decodeCommitRecord(rec.result, g), chunks);
    // A replay writes nothing, so it is answered even while a namespace is fenced (spec §5.5).
    for (const ns of namespacesOf(chunks)) this.ctx.writable(ns);
    checkCommitWindow(commit, stamp);
    this.checkChunks(chunks);
    const ranges: AssignedRange[] = new Array(chunks.length);
    for (let k = 0; k < chunks.length; k++) {
      const c = chunks[k]!;
      const h = this.head.get(c.ns, c.stream, c.partition) as { next: number } | undefined;
      const r = assignRange(c, { next: h?.next ?? 0 }, g);
      this.advance.run(c.ns, c.stream, c.partition, r.end, c.byteEnd - c.byteStart);
      this.entry.run(c.ns, c.stream, c.partition, r.start, r.end, commit.object, c.byteStart, c.byteEnd, c.records);
      ranges[k] = r;
    }
    this.ctx.addRef(commit.object, 'wal', chunks.length);
    this.insertRecord.run(commit.object, g, encodeCommitRecord(ranges), stamp);
    return ranges;
  }
}

export function logCalls(ctx: SqliteContext, caps: Capabilities): LogCalls {
  const wal = new WalCommitter(ctx);
  return {
    commitWal(commit: WalCommit, w?: WriteContext) {
      // (object, group) is the idempotency key: the requestId is not used (core/tokens.ts).
      return commitWalGroups(commit, caps, wal, w?.stamp === undefined ? undefined : { stamp: w.stamp });
    },

    partitionIndex: (ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }) => {
      const from = opts?.from ?? 0;
      const limit = opts?.limit ?? MAX_INDEX_PAGE;
      return ctx.read(() => {
        checkPartition(ctx.liveStream(ns, stream), partition);
        // Read order (spec §3.3): the head, then the entries (one snapshot here).
        const h = ctx.head(ns, stream, partition);
        const lo = indexFloor(h, from);
        if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] } satisfies PartitionIndex;
        const rows = ctx.all<Row>(
          `SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ?
             AND start >= coalesce((SELECT max(start) FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start <= ?), 0)
           ORDER BY start LIMIT ?`,
          ns,
          stream,
          partition,
          ns,
          stream,
          partition,
          lo,
          limit + 1,
        );
        const entries = rows.slice(0, limit).map(toEntry);
        const problem = runProblem(entries, lo, h);
        invariant(problem === null, `partition ${partition}: ${problem}`);
        const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
        if (rows.length > limit) out.nextFrom = entries[entries.length - 1]!.end;
        return out;
      });
    },

    streamState: (ns: number, stream: number) =>
      ctx.read(() => {
        const s = ctx.liveStream(ns, stream);
        return { stream: s, heads: ctx.heads(ns, stream, s.partitions) };
      }),

    collectionHead: (ns: number, collection: number) =>
      ctx.read(() => {
        const c = ctx.liveCollection(ns, collection);
        // Read order (spec §3.3): pointer first, then heads.
        const p = ctx.get<Row>('SELECT * FROM pointers WHERE ns = ? AND key = ?', ns, linkPointerKey(c.linkId));
        return { collection: c, pointer: p ? toPointer(p) : null, heads: ctx.heads(ns, c.streamId, c.partitions) };
      }),

    swapSegment: (swap: SegmentSwap, opts?: { fence?: Fence } & WriteContext) =>
      ctx.write('swapSegment', opts, (stamp) => {
        const { ns, stream, partition } = swap;
        ctx.writable(ns);
        const s = ctx.liveStream(ns, stream);
        ctx.checkFence(opts?.fence, `segments of partition ${partition}`);
        checkPartition(s, partition);
        const rows = ctx
          .all<Row>(
            'SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start >= ? AND start < ? ORDER BY start LIMIT ?',
            ns,
            stream,
            partition,
            swap.start,
            swap.end,
            caps.maxSwapEntries + 1,
          )
          .map(toEntry);
        const plan = planSwap(swap, rows, ctx.head(ns, stream, partition), caps.maxSwapEntries);
        if (plan.kind === 'done') return { entry: plan.entry };
        const e: IndexEntry = plan.entry;
        ctx.addRef(e.path, 'segment', 1);
        ctx.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND start >= ? AND start < ?', ns, stream, partition, swap.start, swap.end);
        for (const old of plan.rows) ctx.dropRef(old.path, 1, stamp);
        ctx.run(
          `INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
           VALUES (?, ?, ?, ?, ?, 'segment', ?, ?, ?, ?)`,
          ns,
          stream,
          partition,
          e.start,
          e.end,
          e.path,
          e.byteStart,
          e.byteEnd,
          e.records,
        );
        ctx.run('UPDATE heads SET bytes = bytes + ? WHERE ns = ? AND stream = ? AND partition = ?', plan.bytesDelta, ns, stream, partition);
        return { entry: e };
      }),

    trimPartition: (ns: number, stream: number, partition: number, logStart: number, opts?: { fence?: Fence } & WriteContext) =>
      ctx.write('trimPartition', opts, (stamp) => {
        ctx.writable(ns);
        checkPartition(ctx.liveStream(ns, stream), partition);
        ctx.checkFence(opts?.fence, `log start of partition ${partition}`);
        const h = ctx.head(ns, stream, partition);
        if (!planTrim(h, logStart)) return h; // never backward; a repeat is a no-op
        const gone = ctx
          .all<Row>('SELECT * FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND end <= ? ORDER BY start', ns, stream, partition, logStart)
          .map(toEntry);
        let bytes = 0;
        for (const e of gone) {
          bytes += e.byteEnd - e.byteStart;
          ctx.dropRef(e.path, 1, stamp);
        }
        ctx.run('DELETE FROM index_entries WHERE ns = ? AND stream = ? AND partition = ? AND end <= ?', ns, stream, partition, logStart);
        ctx.run('UPDATE heads SET log_start = ?, bytes = bytes - ? WHERE ns = ? AND stream = ? AND partition = ?', logStart, bytes, ns, stream, partition);
        return { ...h, logStart, bytes: h.bytes - bytes };
      }),

    segmentReferenced: (ns: number, stream: number, path: string) =>
      ctx.read(() => ctx.get('SELECT 1 FROM index_entries WHERE path = ? AND ns = ? AND stream = ? LIMIT 1', path, ns, stream) !== undefined),

    retiredWalObjects: (page?: PageRequest) => {
      const p = pageArgs(page);
      return ctx.read(() =>
        paged(
          ctx
            .all<{ path: string; retired: number }>(
              `SELECT path, retired FROM object_refs WHERE kind = 'wal' AND retired IS NOT NULL AND refs = 0
                 AND claim_owner IS NULL AND deleted = 0 AND substr(path, 1, ?) = ? AND path > ? ORDER BY path LIMIT ?`,
              p.prefix.length,
              p.prefix,
              p.after ?? '',
              p.limit + 1,
            )
            .map((r) => ({ path: r.path, retired: r.retired })),
          p.limit,
          (r) => r.path,
        ),
      );
    },

    dueHeads: (before: number, page?: PageRequest) => {
      const p = pageArgs(page);
      const a = dueStart(p.after);
      return ctx.read(() =>
        paged(
          ctx.all<DueHead>(
            `SELECT ns, stream, partition, mark, due FROM heads WHERE due IS NOT NULL AND due <= ?
               AND (due, ns, stream, partition) > (?, ?, ?, ?) ORDER BY due, ns, stream, partition LIMIT ?`,
            before,
            a.due,
            a.ns,
            a.stream,
            a.partition,
            p.limit + 1,
          ),
          p.limit,
          dueCursor,
        ),
      );
    },

    // Not a catalog or log change: no token, no fence; refused only while the namespace is
    // fenced for a move (its heads are being copied, and the copy makes every head due).
    settleHead: (ns: number, stream: number, partition: number, mark: number, due: number | null) =>
      ctx.write('settleHead', undefined, () => {
        ctx.writable(ns);
        return ctx.run('UPDATE heads SET due = ? WHERE ns = ? AND stream = ? AND partition = ? AND mark = ?', due, ns, stream, partition, mark).changes > 0;
      }),
  };
}

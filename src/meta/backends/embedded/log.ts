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
  indexFloor,
  planSwap,
  planTrim,
  replayGroup,
  runProblem,
} from '../../core/log.js';
import { namespacesOf } from '../../core/moves.js';
import { pageArgs, paged } from '../../core/paging.js';
import type {
  AssignedRange,
  Capabilities,
  Fence,
  IndexEntry,
  PartitionIndex,
  PageRequest,
  SegmentSwap,
  Stamp,
  WalCommit,
  WriteContext,
} from '../../types.js';
import { toEntry, toPointer, type Row } from '../sql/rows.js';
import { invariant, type SqliteContext } from './context.js';

export type LogCalls = Pick<
  MetaStore,
  'commitWal' | 'partitionIndex' | 'streamState' | 'collectionHead' | 'swapSegment' | 'trimPartition' | 'segmentReferenced' | 'retiredWalObjects'
>;

export function logCalls(ctx: SqliteContext, caps: Capabilities): LogCalls {
  /** A chunk's stream is live and its partition in range; `cache` holds partition counts per stream. */
  const checkChunk = (ns: number, stream: number, partition: number, cache: Map<string, number>) => {
    const k = `${ns}/${stream}`;
    let parts = cache.get(k);
    if (parts === undefined) {
      parts = ctx.liveStream(ns, stream).partitions;
      cache.set(k, parts);
    }
    checkPartition({ id: stream, partitions: parts }, partition);
  };

  const commitGroup = (commit: WalCommit, g: number, idx: number[], stamp: Stamp): AssignedRange[] => {
    const chunks = idx.map((i) => commit.chunks[i]!);
    const rec = ctx.get<{ result: string }>('SELECT result FROM wal_commits WHERE object = ? AND grp = ?', commit.object, g);
    if (rec) return replayGroup(commit.object, g, JSON.parse(rec.result) as AssignedRange[], chunks);
    // A replay writes nothing, so it is answered even while a namespace is fenced (spec §5.5).
    for (const ns of namespacesOf(chunks)) ctx.writable(ns);
    checkCommitWindow(commit, stamp);
    const ranges: AssignedRange[] = [];
    const parts = new Map<string, number>();
    for (const c of chunks) {
      checkChunk(c.ns, c.stream, c.partition, parts);
      const r = assignRange(c, ctx.head(c.ns, c.stream, c.partition), g);
      ctx.run(
        `INSERT INTO heads (ns, stream, partition, next, log_start, bytes) VALUES (?, ?, ?, ?, 0, ?)
         ON CONFLICT (ns, stream, partition) DO UPDATE SET next = excluded.next, bytes = bytes + excluded.bytes`,
        c.ns,
        c.stream,
        c.partition,
        r.end,
        c.byteEnd - c.byteStart,
      );
      ctx.run(
        `INSERT INTO index_entries (ns, stream, partition, start, end, kind, path, byte_start, byte_end, records)
         VALUES (?, ?, ?, ?, ?, 'wal', ?, ?, ?, ?)`,
        c.ns,
        c.stream,
        c.partition,
        r.start,
        r.end,
        commit.object,
        c.byteStart,
        c.byteEnd,
        c.records,
      );
      ranges.push(r);
    }
    ctx.addRef(commit.object, 'wal', chunks.length);
    ctx.run('INSERT INTO wal_commits (object, grp, result, stamp) VALUES (?, ?, ?, ?)', commit.object, g, JSON.stringify(ranges), stamp);
    return ranges;
  };

  return {
    commitWal: (commit: WalCommit, w?: WriteContext) => {
      // (object, group) is the idempotency key: the requestId is not used (core/tokens.ts).
      const ctxW: WriteContext = w?.stamp === undefined ? {} : { stamp: w.stamp };
      return commitWalGroups(commit, caps, {
        precheck: (c) =>
          ctx.read(() => {
            const parts = new Map<string, number>();
            for (const ch of c.chunks) checkChunk(ch.ns, ch.stream, ch.partition, parts);
          }),
        commitGroup: (c, g, idx) => ctx.write('commitWal', ctxW, (stamp) => commitGroup(c, g, idx, stamp)),
      });
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
  };
}

// The log's rules (contract: commitWal, partitionIndex, swapSegment, trimPartition; spec
// §3.1, §3.3), once. The group loop runs the dialect's one-transaction-per-group commit;
// the pure checks take rows as the dialect read them and return what to write, or throw
// the typed refusal.
import { errors, isMetaError } from '../errors.js';
import { planGroups } from '../groups.js';
import { WAL_COMMIT_WINDOW_MS } from '../limits.js';
import type { AssignedRange, Capabilities, IndexEntry, PartitionHead, SegmentSwap, Stamp, Stream, WalChunk, WalCommit, WalCommitResult, WriteContext } from '../types.js';

/** What a dialect supplies to the commitWal group loop. */
export interface CommitWalParts {
  /**
   * Checks that depend on stored state (streams live, partitions in range), before the first
   * group of a multi-group commit, so a commit that can never succeed writes nothing.
   */
  precheck(commit: WalCommit): Promise<void>;
  /**
   * Group `g` in one transaction (or one atomic write): the chunks `idx` (request order),
   * idempotent by the (object, g) commit record: replay it with `replayGroup`, else check the
   * window with `checkCommitWindow`, assign offsets and write the record.
   */
  commitGroup(commit: WalCommit, g: number, idx: number[], w?: WriteContext): Promise<AssignedRange[]>;
}

/**
 * The commitWal group loop (spec §3.1): deterministic groups, one commit per group, in order.
 * A partially applied call never reads as "not applied": once a group of this call has
 * committed, a later group's failure that says "refused before it was sent" (Retryable with
 * beforeSend) is surfaced as Unknown with earlierUnknown, because the object is now
 * committed for some partitions; the writer's retry of the same object settles the rest.
 */
export function commitWalGroups(commit: WalCommit, caps: Capabilities, parts: CommitWalParts, w?: WriteContext): Promise<WalCommitResult> {
  const n = commit.chunks.length;
  if (n <= caps.maxChunksPerGroup) {
    // One group holds every chunk in request order (what planGroups decides for it): the
    // common case of a node's flush, without the planning.
    const idx = Array.from({ length: n }, (_, i) => i);
    return parts.commitGroup(commit, 0, idx, w).then((assigned) => ({ object: commit.object, assigned, groups: 1 }));
  }
  return commitManyGroups(commit, caps, parts, w);
}

async function commitManyGroups(commit: WalCommit, caps: Capabilities, parts: CommitWalParts, w?: WriteContext): Promise<WalCommitResult> {
  const n = commit.chunks.length;
  const { groupOf, groups } = planGroups(commit.chunks, caps.maxChunksPerGroup);
  if (groups > 1) await parts.precheck(commit);
  const assigned: AssignedRange[] = new Array(n);
  for (let g = 0; g < groups; g++) {
    const idx: number[] = [];
    groupOf.forEach((gg, i) => gg === g && idx.push(i));
    let ranges: AssignedRange[];
    try {
      ranges = await parts.commitGroup(commit, g, idx, w);
    } catch (e) {
      throw g > 0 ? partialFailure(commit, g, groups, e) : e;
    }
    idx.forEach((i, k) => (assigned[i] = ranges[k]!));
  }
  return { object: commit.object, assigned, groups };
}

/** A failure of group g after groups 0..g-1 committed: never "definitely not applied". */
export function partialFailure(commit: WalCommit, g: number, groups: number, e: unknown): unknown {
  if (isMetaError(e, 'Retryable') && e.details.beforeSend) {
    return errors.unknown(
      `commitWal of ${commit.object}: groups 0..${g - 1} of ${groups} committed, group ${g} failed before it was sent ` +
        `(${e.message}); retry the same object to commit the rest`,
      true,
    );
  }
  return e;
}

/**
 * A group's commit record exists: a retry returns the first attempt's ranges, provided the
 * retry carries the same chunks (same partitions, same record counts, in order).
 */
export function replayGroup(object: string, g: number, recorded: AssignedRange[], chunks: readonly WalChunk[]): AssignedRange[] {
  const same =
    recorded.length === chunks.length &&
    recorded.every((r, k) => {
      const c = chunks[k]!;
      return r.ns === c.ns && r.stream === c.stream && r.partition === c.partition && r.end - r.start === c.records;
    });
  if (!same) throw errors.invalid('chunks', `WAL object ${object} group ${g} was committed with different chunks`);
  return recorded;
}

/** A group never committed may be committed only within the window of the object's stamp (D27). */
export function checkCommitWindow(commit: WalCommit, stamp: Stamp): void {
  const age = stamp - commit.objectStamp;
  if (age > WAL_COMMIT_WINDOW_MS) throw errors.staleCommit(commit.object, age, WAL_COMMIT_WINDOW_MS);
}

/** A partition of a live stream: in 0..partitions-1, else InvalidArgument. */
export function checkPartition(stream: Pick<Stream, 'id' | 'partitions'>, partition: number): void {
  if (partition >= stream.partitions) {
    throw errors.invalid('partition', `stream ${stream.id} has ${stream.partitions} partitions; partition ${partition} is out of range`);
  }
}

/** The offsets a chunk gets at a head: [next, next + records). */
export function assignRange(c: WalChunk, head: Pick<PartitionHead, 'next'>, g: number): AssignedRange {
  return { ns: c.ns, stream: c.stream, partition: c.partition, start: head.next, end: head.next + c.records, group: g };
}

// ---------------------------------------------------------------- partitionIndex

/** The first offset a partitionIndex page covers: max(from, logStart). */
export function indexFloor(head: PartitionHead, from: number): number {
  return Math.max(from, head.logStart);
}

/**
 * Whether `entries` (read after `head`, at most limit + 1 of them) are a contiguous run
 * covering `lo` onward and never past the head (spec §3.3). Returns null when they are, or
 * what is wrong: a snapshot backend treats that as a bug, a read-order backend re-reads.
 */
export function runProblem(entries: readonly IndexEntry[], lo: number, head: PartitionHead): string | null {
  if (lo >= head.next) return null;
  const first = entries[0];
  if (!first || first.start > lo || first.end <= lo) return `no entry covers offset ${lo}`;
  for (let i = 1; i < entries.length; i++) {
    if (entries[i - 1]!.end !== entries[i]!.start) return `gap at offset ${entries[i - 1]!.end}`;
  }
  if (entries[entries.length - 1]!.end > head.next) return 'an entry ends past the head';
  return null;
}

// ---------------------------------------------------------------- swapSegment

export type SwapPlan =
  /** A retry of a swap that applied: the segment entry is already there. */
  | { kind: 'done'; entry: IndexEntry }
  /** Replace `rows` with `entry`; the partition's bytes change by `bytesDelta`. */
  | { kind: 'replace'; rows: IndexEntry[]; entry: IndexEntry; bytesDelta: number };

/**
 * The swapSegment checks (contract): `rows` are the entries with start in [swap.start,
 * swap.end), at most maxSwapEntries + 1 of them, read with the head in one transaction.
 * Idempotent by the segment path; LimitExceeded past maxSwapEntries; NotFound if trimmed
 * meanwhile; InvalidArgument unless the range starts and ends on entry boundaries.
 */
export function planSwap(swap: SegmentSwap, rows: IndexEntry[], head: PartitionHead, maxSwapEntries: number): SwapPlan {
  const first = rows[0];
  if (first && first.kind === 'segment' && first.path === swap.path && first.start === swap.start && first.end === swap.end) {
    return { kind: 'done', entry: first };
  }
  if (rows.length > maxSwapEntries) throw errors.limitExceeded('maxSwapEntries', maxSwapEntries, rows.length);
  if (swap.start < head.logStart) {
    throw errors.notFound(`offsets from ${swap.start} of partition ${swap.partition} (trimmed to ${head.logStart})`);
  }
  if (swap.end > head.next) throw errors.invalid('end', `is past the partition's head (${head.next})`);
  const last = rows[rows.length - 1];
  if (!first || first.start !== swap.start || !last || last.end !== swap.end) {
    throw errors.invalid('start', `[${swap.start}, ${swap.end}) does not start and end on index entry boundaries`);
  }
  // A read that is not a snapshot (DynamoDB's Query) may see a run mid-change: the run must be
  // contiguous, and the segment must not already be one of its entries (its reference count
  // would be taken and released in one swap).
  for (let i = 1; i < rows.length; i++) {
    if (rows[i - 1]!.end !== rows[i]!.start) {
      throw errors.invalid('start', `[${swap.start}, ${swap.end}) does not start and end on index entry boundaries`);
    }
  }
  if (rows.some((e) => e.path === swap.path)) throw errors.invalid('path', `${swap.path} is already indexed in [${swap.start}, ${swap.end})`);
  let records = 0;
  let oldBytes = 0;
  for (const e of rows) {
    records += e.records;
    oldBytes += e.byteEnd - e.byteStart;
  }
  const entry: IndexEntry = {
    partition: swap.partition,
    start: swap.start,
    end: swap.end,
    kind: 'segment',
    path: swap.path,
    byteStart: swap.byteStart,
    byteEnd: swap.byteEnd,
    records,
  };
  return { kind: 'replace', rows, entry, bytesDelta: swap.byteEnd - swap.byteStart - oldBytes };
}

// ---------------------------------------------------------------- trimPartition

/**
 * trimPartition moves logStart forward only: past the head is InvalidArgument; at or below
 * the current logStart it is a no-op (false: write nothing, return the head).
 */
export function planTrim(head: PartitionHead, logStart: number): boolean {
  if (logStart > head.next) throw errors.invalid('logStart', `${logStart} is past the partition's head (${head.next})`);
  return logStart > head.logStart;
}

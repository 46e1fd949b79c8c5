// The log's commit and reads (spec §2.3, §3.1, §3.3): commitWal is one TransactWriteItems per
// partition group, each with its (object, group) commit record `walc#` as the idempotency
// key, the object's live count, a live check per stream, and per chunk the head (conditioned
// on the `next` the per-handle cache predicts, and marked due: due.ts) and the index entry. partitionIndex reads the
// head, then Queries the entries from the one covering max(from, logStart), starting again
// when a concurrent trim or swap shows a gap; streamState and collectionHead read the parts
// that only grow last.
import { linkPointerKey } from '../../contract.js';
import { errors } from '../../errors.js';
import { assignRange, checkCommitWindow, checkPartition, commitWalGroups, indexFloor, replayGroup, runProblem } from '../../core/log.js';
import { MAX_INDEX_PAGE, WAL_COMMIT_WINDOW_MS } from '../../limits.js';
import { prunableAt } from '../../core/tokens.js';
import type { AssignedRange, CollectionHead, IndexEntry, PartitionIndex, Stamp, StreamState, WalChunk, WalCommit, WalCommitResult, WriteContext } from '../../types.js';
import { MAX_INTERNAL_ATTEMPTS, MAX_SWAP_ENTRIES, type DynamoContext } from './context.js';
import { txCheck, txPut, txUpdate } from './expr.js';
import { AGAIN, LIVE, keyPath, toCollection, toEntry, toHead, toPointer, toStream, unexpected } from './items.js';
import { K } from './keys.js';
import { listDue } from './due.js';
import type { Item } from './codec.js';
import { jitter, type TxItem } from './sdk.js';

export async function commitWal(cx: DynamoContext, commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
  keyPath('object', commit.object);
  cx.needTx('commitWal');
  cx.checkOpen();
  const stamp = w?.stamp ?? cx.clock();
  const base = w?.requestId ?? commit.object;
  // The core's group loop (spec §3.1): one transaction per partition group, each with its own
  // (object, group) commit record as the idempotency key, so no commit-token item is needed;
  // a later group's failure after an earlier one committed never reads as "not applied".
  return commitWalGroups(commit, cx.caps, {
    // Every stream is checked before any group commits: unknown or dropped → NotFound, a
    // partition out of range → InvalidArgument (nothing may be half-written by bad input).
    precheck: (c) => checkChunkStreams(cx, c.chunks),
    commitGroup: (c, g, idx) => commitGroup(cx, c, g, idx, stamp, `${base}\u0000commitWal\u0000${g}`),
  });
}

async function checkChunkStreams(cx: DynamoContext, chunks: readonly WalChunk[]): Promise<void> {
  const unknown = [...new Set(chunks.map((c) => `${c.ns}/${c.stream}`))].filter((k) => !cx.streamParts.has(k));
  if (unknown.length > 0) {
    const keys = unknown.map((k) => k.split('/').map(Number) as [number, number]);
    const recs = await cx.sdk.batchGet(keys.map(([ns, s]) => K.stream(ns, s)));
    recs.forEach((r, i) => {
      const [ns, s] = keys[i]!;
      if (!r || r.state !== LIVE) throw errors.notFound(`stream ${s} in namespace ${ns}`);
      cx.cacheParts(ns, s, Number(r.partitions));
    });
  }
  for (const c of chunks) {
    checkPartition({ id: c.stream, partitions: cx.streamParts.get(`${c.ns}/${c.stream}`)! }, c.partition);
  }
}

async function commitGroup(cx: DynamoContext, commit: WalCommit, g: number, idx: number[], stamp: Stamp, tokenBase: string): Promise<AssignedRange[]> {
  const chunks = idx.map((i) => commit.chunks[i]!);
  await checkChunkStreams(cx, chunks); // cached after the precheck of a multi-group commit
  if (stamp - commit.objectStamp > WAL_COMMIT_WINDOW_MS) {
    // Past the window only a replay of a committed group may succeed (D27).
    const rec = await cx.sdk.get(K.walc(commit.object, g));
    if (rec) return replayGroup(commit.object, g, recorded(rec), chunks);
    checkCommitWindow(commit, stamp);
  }
  const streams = [...new Set(chunks.map((c) => `${c.ns}/${c.stream}`))];
  const hk = (c: WalChunk) => `${c.ns}/${c.stream}/${c.partition}`;
  return cx.attempts('commitWal', async () => {
    const missing = chunks.filter((c) => !cx.headNext.has(hk(c)));
    if (missing.length > 0) {
      const heads = await cx.sdk.batchGet(missing.map((c) => K.head(c.ns, c.stream, c.partition)));
      missing.forEach((c, i) => cx.cacheHead(c.ns, c.stream, c.partition, Number(heads[i]?.next ?? 0)));
    }
    const ranges: AssignedRange[] = chunks.map((c) => assignRange(c, { next: cx.headNext.get(hk(c))! }, g));
    const items: TxItem[] = [
      txPut(
        'walc',
        K.walc(commit.object, g),
        // Pruned only after 2·window + maxClockSkew plus the skew bound (spec §3.2.2).
        { object: commit.object, group: g, ranges: JSON.stringify(ranges), stamp, ...cx.expiring(K.walc(commit.object, g), prunableAt('record', stamp)) },
        (e) => `attribute_not_exists(${e.a('pk')})`,
      ),
      // The WAL object's live count: chunks not yet segmented or trimmed (one item per transaction).
      cx.refUp('obj', commit.object, 'wal', chunks.length, { stream: streams.length === 1 ? streams[0]! : '*' }),
      ...streams.map((s) => {
        const [ns, id] = s.split('/').map(Number) as [number, number];
        return txCheck(`stream:${s}`, K.stream(ns, id), (e) => `${e.a('state')} = ${e.v(LIVE)}`);
      }),
    ];
    chunks.forEach((c, i) => {
      const r = ranges[i]!;
      items.push(
        txUpdate(
          `head:${i}`,
          K.head(c.ns, c.stream, c.partition),
          (e) =>
            // The dirty set (due.ts): the head is due now and its mark bumped, in this transaction.
            `SET ${e.a('next')} = ${e.v(r.end)}, ${e.a('logStart')} = if_not_exists(${e.a('logStart')}, ${e.v(0)}), ${listDue(e, c.ns, c.stream, c.partition)} ` +
            `ADD ${e.a('bytes')} ${e.v(c.byteEnd - c.byteStart)}, ${e.a('mark')} ${e.v(1)}`,
          (e) => (r.start === 0 ? `attribute_not_exists(${e.a('next')})` : `${e.a('next')} = ${e.v(r.start)}`),
        ),
        txPut(`entry:${i}`, K.entry(c.ns, c.stream, c.partition, r.start), {
          start: r.start,
          end: r.end,
          kind: 'wal',
          path: commit.object,
          byteStart: c.byteStart,
          byteEnd: c.byteEnd,
          records: c.records,
          group: g,
        }),
      );
    });
    let out;
    try {
      out = await cx.sdk.transact('commitWal', items, tokenBase);
    } catch (e) {
      // The outcome is unknown: forget the heads, so a retry reads them again.
      for (const c of chunks) cx.headNext.delete(hk(c));
      throw e;
    }
    if (out.ok) {
      chunks.forEach((c, i) => cx.cacheHead(c.ns, c.stream, c.partition, ranges[i]!.end));
      cx.afterWrite();
      return ranges;
    }
    const rec = out.failed.get('walc');
    if (rec) return replayGroup(commit.object, g, recorded(rec), chunks);
    if (out.failed.has('obj')) throw errors.claimed(commit.object);
    for (const s of streams) {
      if (out.failed.has(`stream:${s}`)) {
        cx.streamParts.delete(s);
        const [ns, id] = s.split('/');
        throw errors.notFound(`stream ${id} in namespace ${ns}`);
      }
    }
    let moved = false;
    chunks.forEach((c, i) => {
      if (out.failed.has(`head:${i}`)) {
        moved = true;
        const old = out.failed.get(`head:${i}`);
        cx.headNext.delete(hk(c));
        cx.cacheHead(c.ns, c.stream, c.partition, Number(old?.next ?? 0));
      }
    });
    if (moved || out.conflict) return AGAIN;
    throw unexpected('commitWal', out);
  });
}

export async function partitionIndex(cx: DynamoContext, ns: number, stream: number, partition: number, opts?: { from?: number; limit?: number }): Promise<PartitionIndex> {
  const from = opts?.from ?? 0;
  const limit = opts?.limit ?? MAX_INDEX_PAGE;
  cx.checkOpen();
  const pk = K.entryPk(ns, stream, partition);
  for (let attempt = 0; attempt < MAX_INTERNAL_ATTEMPTS; attempt++) {
    // Read order (spec §3.3): the head (with the stream), then the entries.
    const [s, hItem] = await cx.sdk.batchGet([K.stream(ns, stream), K.head(ns, stream, partition)]);
    if (!s || s.state !== LIVE) throw errors.notFound(`stream ${stream} in namespace ${ns}`);
    checkPartition(toStream(s), partition);
    const h = toHead(partition, hItem);
    const lo = indexFloor(h, from);
    if (lo >= h.next) return { partition, logStart: h.logStart, next: h.next, entries: [] };
    // The entry covering lo: the last one starting at or below it.
    const below = await cx.sdk.query(
      { KeyConditionExpression: 'pk = :p AND sk <= :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(lo) } }, ScanIndexForward: false },
      1,
    );
    const first = below[0] ? toEntry(partition, below[0]) : undefined;
    if (!first || first.end <= lo) {
      // A concurrent trim or swap moved entries under us (Query is read-committed).
      await jitter(attempt);
      continue;
    }
    // Covered entries (a swap still deleting them) are skipped, so fetch a little extra.
    const rows = await cx.sdk.query(
      { KeyConditionExpression: 'pk = :p AND sk >= :s', ExpressionAttributeValues: { ':p': { S: pk }, ':s': { S: K.entrySk(first.start) } } },
      limit + 1 + MAX_SWAP_ENTRIES,
    );
    const entries: IndexEntry[] = [];
    let at = first.start;
    for (const r of rows) {
      const e = toEntry(partition, r);
      if (e.start >= h.next || entries.length === limit) break;
      if (e.end <= at) continue; // covered by an entry already taken
      entries.push(e);
      at = e.end;
    }
    // Not a contiguous run (the index changed under the read), or the read stopped short of
    // the head with room left: read again.
    if (runProblem(entries, lo, h) !== null || (at < h.next && entries.length < limit)) {
      await jitter(attempt);
      continue;
    }
    const out: PartitionIndex = { partition, logStart: h.logStart, next: h.next, entries };
    if (at < h.next) out.nextFrom = at;
    return out;
  }
  throw errors.retryable('conflict', `partitionIndex: partition ${partition} kept changing under the read`);
}

export async function streamState(cx: DynamoContext, ns: number, stream: number): Promise<StreamState> {
  cx.checkOpen();
  const s = toStream(await cx.liveStreamItem(ns, stream));
  return { stream: s, heads: await cx.readHeads(ns, stream, s.partitions) };
}

export async function collectionHead(cx: DynamoContext, ns: number, collection: number): Promise<CollectionHead> {
  cx.checkOpen();
  const c = toCollection(await cx.liveCollectionItem(ns, collection));
  // Read order (spec §3.3): the pointer, then the heads (which only grow).
  const p = await cx.sdk.get(K.ptr(ns, linkPointerKey(c.linkId)));
  const heads = await cx.readHeads(ns, c.streamId, c.partitions);
  return { collection: c, pointer: p ? toPointer(p) : null, heads };
}

/** The ranges a group's commit record holds. */
function recorded(rec: Item): AssignedRange[] {
  return JSON.parse(String(rec.ranges)) as AssignedRange[];
}

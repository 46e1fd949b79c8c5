// commitWal across shards (spec §3.1, §5.2): a WAL object's chunks are split by the shard of
// their namespace, and each shard commits its part as its own partition groups, with its
// own commit records (object, group) and its own live count for the object. The shards'
// parts commit concurrently (each shard has its own write lock). The call succeeds only
// when every shard's part did.
//
// A partial outcome never reads as "not applied": once one shard's part has committed, any
// other shard's failure is surfaced as Unknown with earlierUnknown, because the object is now
// committed for some partitions; the writer's retry of the same object replays the parts
// that committed (idempotent per (object, group) on each shard) and commits the rest.
//
// Group numbers in the result are the shard's own, offset by the groups of the shards before
// it (directory order), so every (object, group) the result names is one atomic unit.
import { errors, isMetaError, isNamespaceFenced, type MetaError } from '../../errors.js';
import type { AssignedRange, WalChunk, WalCommit, WalCommitResult, WriteContext } from '../../types.js';
import { MAX_MOVED_RETRIES, MAX_MOVE_WAITS, type Router, type Shard } from './routing.js';

interface Part {
  shard: Shard;
  /** Request positions of this shard's chunks. */
  idx: number[];
}

/** Splits a commit's chunks by shard, in directory order. */
async function split(r: Router, chunks: readonly WalChunk[]): Promise<Part[]> {
  const byShard = new Map<string, Part>();
  const names = new Map<number, string>();
  for (let i = 0; i < chunks.length; i++) {
    const ns = chunks[i]!.ns;
    let name = names.get(ns);
    if (name === undefined) names.set(ns, (name = (await r.entry(ns)).shard));
    let p = byShard.get(name);
    if (!p) byShard.set(name, (p = { shard: r.shard(name), idx: [] }));
    p.idx.push(i);
  }
  return r.shards.flatMap((s) => byShard.get(s.name) ?? []);
}

/**
 * A part refused by a namespace move's fence (spec §5.5) waits for the move to flip, and a
 * part refused with NamespaceMoved re-reads its namespaces' entries; then the whole object is
 * committed again, split by the new placement: the parts that committed replay, the refused
 * part (which wrote nothing) commits where its namespaces now are.
 */
export async function commitWalSharded(r: Router, commit: WalCommit, w?: WriteContext): Promise<WalCommitResult> {
  for (let waits = 0, moves = 0; ; ) {
    const fenced: { ns: number; shard: string }[] = [];
    const moved: { ns: number; shard: string }[] = [];
    try {
      return await commitOnce(r, commit, w, fenced, moved);
    } catch (e) {
      // A part sent to a shard its namespace has left (a route older than the move, spec
      // §3.5) wrote nothing there: re-read the entries and commit the object again by the new
      // placement (the parts that committed replay).
      if (moved.length > 0 && moves++ < MAX_MOVED_RETRIES) {
        let changed = false;
        for (const m of moved) changed = (await r.reload(m.ns)).shard !== m.shard || changed;
        if (changed) continue;
      }
      const f = fenced[0];
      if (!f || waits++ >= MAX_MOVE_WAITS || !(await r.awaitMove(f.ns, f.shard))) throw e;
    }
  }
}

async function commitOnce(
  r: Router,
  commit: WalCommit,
  w: WriteContext | undefined,
  fenced: { ns: number; shard: string }[],
  moved: { ns: number; shard: string }[],
): Promise<WalCommitResult> {
  const parts = await split(r, commit.chunks);
  const noteFence = (shard: string, e: unknown) => {
    if (isNamespaceFenced(e)) fenced.push({ ns: (e as MetaError).details.ns!, shard });
    if (isMetaError(e, 'NamespaceMoved') && typeof e.details.ns === 'number') moved.push({ ns: e.details.ns, shard });
  };
  if (parts.length === 1) {
    return parts[0]!.shard.store.commitWal(commit, w).catch((e: unknown) => {
      noteFence(parts[0]!.shard.name, e);
      throw e;
    });
  }
  const settled = await Promise.allSettled(
    parts.map((p) => p.shard.store.commitWal({ object: commit.object, objectStamp: commit.objectStamp, chunks: p.idx.map((i) => commit.chunks[i]!) }, w)),
  );
  const failed = settled.flatMap((s, k) => (s.status === 'rejected' ? [{ shard: parts[k]!.shard.name, error: s.reason as unknown }] : []));
  for (const f of failed) noteFence(f.shard, f.error);
  if (failed.length > 0) {
    const committed = settled.flatMap((s, k) => (s.status === 'fulfilled' ? [parts[k]!.shard.name] : []));
    throw outcome(commit.object, committed, failed);
  }
  const assigned: AssignedRange[] = new Array(commit.chunks.length);
  let groups = 0;
  settled.forEach((s, k) => {
    const res = (s as PromiseFulfilledResult<WalCommitResult>).value;
    parts[k]!.idx.forEach((i, j) => (assigned[i] = { ...res.assigned[j]!, group: res.assigned[j]!.group + groups }));
    groups += res.groups;
  });
  return { object: commit.object, assigned, groups };
}

/** The error of a commit some shard's part failed (see the top of this file). */
function outcome(object: string, committed: string[], failed: { shard: string; error: unknown }[]): unknown {
  const first = failed[0]!;
  const why = failed.map((f) => `shard ${f.shard}: ${f.error instanceof Error ? f.error.message : String(f.error)}`).join('; ');
  if (committed.length > 0) {
    return errors.unknown(
      `commitWal of ${object}: committed on shard${committed.length > 1 ? 's' : ''} ${committed.join(', ')}, failed on ${why}; ` +
        'retry the same object to commit the rest',
      true,
    );
  }
  // Nothing committed for certain. An unknown part makes the whole call unknown; otherwise
  // every part was refused, and the first refusal (directory order) is the call's.
  const unknown = failed.find((f) => isMetaError(f.error, 'Unknown'));
  if (unknown) return unknown.error;
  if (failed.length > 1 && failed.some((f) => !(isMetaError(f.error, 'Retryable') && f.error.details.beforeSend))) {
    // Parts refused after they were sent (a conflict rolled back, a typed refusal): nothing applied.
    return failed.find((f) => !isMetaError(f.error, 'Retryable'))?.error ?? first.error;
  }
  return first.error;
}

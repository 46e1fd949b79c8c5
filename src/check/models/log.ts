// The per-partition log (spec §3.1, §3.3): commitWal assigns dense offsets per partition,
// atomically per partition group and idempotently per (object, group); partitionIndex,
// streamState and trimPartition read and move the partition heads; swapSegment replaces the
// entries covering exactly [start, end) by one segment entry, idempotently by its path.
//
// One key per (ns, stream, partition): its state is the head (next, logStart) and the list
// of committed ranges with the commit (object#group) that made each — the index entries,
// and, through the commit names, the commit records that make a retry return the first
// attempt's offsets. Commit records are never pruned in the model (a history is far
// shorter than 2·window + maxClockSkew).
//
// Why splitting and partitioning this way is sound:
// - A commitWal call becomes one atomic step PER GROUP, each free to linearize anywhere in
//   the call's interval, independently of its sibling groups. That is exactly the relaxed
//   contract (spec §3.1: atomic per partition group, not per call; a call that fails or
//   whose outcome is unknown may have committed some groups and not others). A group's
//   step touches all of its partitions at once, so group atomicity is kept exactly.
// - Partitions are then split by connected components: two partitions fall in one
//   component when some group commits to both. A group commit that spans partitions P and
//   Q is one atomic step on the product object (P, Q); checking P and Q separately would
//   accept a history where two concurrent groups over P and Q are ordered one way on P and
//   the other way on Q (no single order exists). Within a component every step touches
//   only its keys; across components no step touches both, so components are independent
//   objects and locality (Herlihy & Wing) makes the per-component verdicts exact.
// - Composite reads of several partitions (streamState) are split into one read per
//   partition, each free to linearize anywhere in the call: the contract promises only a
//   documented read order for them, not a snapshot (spec §3.3), so that is the weakest
//   sound reading. partitionIndex reads one partition and is one atomic step.
//
// - swapSegment is one atomic step on its partition. The segment entry keeps the commits it
//   replaced (with their ranges), so a later retry of one of them still finds its commit
//   record and returns its first offsets, as the commit records outlive segmenting.
//
// Not modelled: StaleCommit (judged on stamps and the commit window: a failed commitWal,
// whatever its code, did not apply and is left out).
import type { Op } from '../history.js';
import {
  SAME,
  bad,
  isObj,
  reject,
  reqInt,
  reqObj,
  reqString,
  scopePart,
  type Alt,
  type KeyKind,
  type OpHandler,
  type PrepareContext,
  type Precheck,
  type Violation,
} from '../model.js';

/** A committed range's commit; `named` when some step looks it up by name (a retry, a swap's retry). */
export interface Commit {
  commit: string;
  start: number;
  end: number;
  named: boolean;
}

/**
 * One committed range of a partition; a persistent list, newest first. `id` is interned: equal
 * ids exactly when no step can tell the lists apart (the ranges, and the names of the named
 * commits: a commit no retry looks up is known by its range alone).
 */
export interface Seg extends Commit {
  prev: Seg | null;
  id: number;
  /** A segment entry: the commits it replaced, with their ranges. */
  merged?: readonly Commit[];
}

export interface PartState {
  next: number;
  logStart: number;
  segs: Seg | null;
}

const INIT: PartState = Object.freeze({ next: 0, logStart: 0, segs: null });
/** Entries a report shows per partition. */
const SHOWN_ENTRIES = 8;

function segList(s: Seg | null): Seg[] {
  const out: Seg[] = [];
  for (let x = s; x; x = x.prev) out.push(x);
  return out.reverse();
}

export const partitionKind: KeyKind<PartState> = {
  prefix: 'g:',
  what: 'log partition',
  init: () => INIT,
  hash: (s) => `${s.next}|${s.logStart}|${s.segs?.id ?? 0}`,
  show: (s) => {
    const all = segList(s.segs);
    return {
      next: s.next,
      logStart: s.logStart,
      committed: all.length,
      lastEntries: all.slice(-SHOWN_ENTRIES).map((x) => ({ start: x.start, end: x.end, commit: x.commit })),
    };
  },
  describe: (rest) => describePart(rest),
};

/** `stream 1 partition 0` (with `ns 3 ` in front when the key has a namespace). */
function describePart(keyOrRest: string): string {
  const [ns, stream, partition] = keyOrRest.replace(/^g:/, '').split('/');
  return `${ns ? `ns ${ns} ` : ''}stream ${stream} partition ${partition}`;
}

/** `g:<ns>/<stream>/<partition>`. */
export function partKey(ns: unknown, stream: number, partition: number): string {
  return `g:${scopePart(ns, 'ns')}/${stream}/${partition}`;
}

function streamArgs(a: Record<string, unknown>): { ns: unknown; stream: number } {
  return { ns: a.ns, stream: reqInt(a, 'stream', 'args') };
}

interface Chunk {
  key: string;
  stream: number;
  partition: number;
  records: number;
}

interface ParsedCommit {
  object: string;
  chunks: Chunk[];
  assigned: { start: number; end: number; stream?: number; partition?: number }[] | null;
  groupOf: number[];
}

/** Parses a commitWal op (shared by prepare and the prechecks). */
export function parseCommit(op: Op): ParsedCommit {
  const a = op.args;
  const object = reqString(a, 'object', 'args');
  if (!Array.isArray(a.chunks) || a.chunks.length === 0) bad('args.chunks must be a non-empty array');
  const chunks = a.chunks.map((c, i): Chunk => {
    const o = reqObj(c, `args.chunks[${i}]`);
    const stream = reqInt(o, 'stream', `args.chunks[${i}]`);
    const partition = reqInt(o, 'partition', `args.chunks[${i}]`);
    const records = reqInt(o, 'records', `args.chunks[${i}]`);
    if (partition < 0 || records < 0) bad(`args.chunks[${i}]: partition and records must be >= 0`);
    return { key: partKey(o.ns ?? a.ns, stream, partition), stream, partition, records };
  });
  let assigned: ParsedCommit['assigned'] = null;
  let resultGroups: number[] | null = null;
  if (op.status === 'ok') {
    const r = reqObj(op.result, 'result');
    if (!Array.isArray(r.assigned) || r.assigned.length !== chunks.length) {
      bad(`result.assigned must be an array with one range per chunk (${chunks.length})`);
    }
    resultGroups = [];
    assigned = r.assigned.map((x, i) => {
      const o = reqObj(x, `result.assigned[${i}]`);
      const v: NonNullable<ParsedCommit['assigned']>[number] = {
        start: reqInt(o, 'start', `result.assigned[${i}]`),
        end: reqInt(o, 'end', `result.assigned[${i}]`),
      };
      if (typeof o.stream === 'number') v.stream = o.stream;
      if (typeof o.partition === 'number') v.partition = o.partition;
      if (typeof o.group === 'number' && resultGroups) resultGroups.push(o.group);
      else resultGroups = null;
      return v;
    });
  }
  let groupOf: number[];
  if (a.groups !== undefined) {
    if (!Array.isArray(a.groups) || a.groups.length !== chunks.length || !a.groups.every((g) => Number.isInteger(g) && g >= 0)) {
      bad(`args.groups must give each chunk its group number (${chunks.length} non-negative integers)`);
    }
    groupOf = a.groups as number[];
  } else groupOf = resultGroups ?? chunks.map(() => 0);
  return { object, chunks, assigned, groupOf };
}

interface CommitData {
  commit: string;
  ok: boolean;
  /** How many steps of the history share this commit record (a retry makes it > 1). */
  shared: { n: number };
  chunks: { key: string; records: number; start: number; end: number }[];
}

function mkHandlers(): OpHandler[] {
  // Interned ids of persistent range lists: equal ids exactly when the lists are equal.
  const interned = new Map<string, number>();
  const mkSeg = (prev: Seg | null, c: Commit, merged?: Seg['merged']): Seg => {
    // Unnamed commits are interned by their ranges only: two orders of unknown commits that
    // leave the same ranges are one state (nothing later reads their names).
    let k = `${prev?.id ?? 0}|${c.start}|${c.end}|${c.named ? c.commit : ''}`;
    if (merged) for (const m of merged) if (m.named) k += `|${m.commit}@${m.start}`;
    let id = interned.get(k);
    if (id === undefined) interned.set(k, (id = interned.size + 1));
    const seg: Seg = { start: c.start, end: c.end, commit: c.commit, named: c.named, prev, id };
    if (merged) seg.merged = merged;
    return seg;
  };

  const commitWal: OpHandler<CommitData> = {
    name: 'commitWal',
    doc: {
      args: '{object, chunks: [{ns?, stream, partition, records}], groups?: [group of each chunk]}',
      ok: '{assigned: [{stream, partition, start, end, group?}]} in chunk order',
      fail: 'any code: did not apply, left out (after a partial commit, record info instead)',
      notes:
        'atomic per group; idempotent per (object, group): a retry returns the first offsets; offsets dense per partition. ' +
        'Groups come from args.groups, else result.assigned[].group, else one group. An info commit may have committed any subset of its groups.',
    },
    prepare(op, ctx: PrepareContext) {
      const c = parseCommit(op);
      if (op.status === 'fail') return [];
      const counts = ctx.index('commitRecords', () => new Map<string, { n: number }>());
      const groups = [...new Set(c.groupOf)].sort((x, y) => x - y);
      return groups.map((g) => {
        const commit = `${c.object}#${g}`;
        let shared = counts.get(commit);
        if (!shared) counts.set(commit, (shared = { n: 0 }));
        shared.n++;
        const idx = c.chunks.map((_, i) => i).filter((i) => c.groupOf[i] === g);
        const chunks = idx.map((i) => ({
          key: c.chunks[i]!.key,
          records: c.chunks[i]!.records,
          start: c.assigned?.[i]?.start ?? -1,
          end: c.assigned?.[i]?.end ?? -1,
        }));
        return {
          keys: [...new Set(chunks.map((x) => x.key))],
          data: { commit, ok: op.status === 'ok', shared, chunks },
          label: groups.length > 1 ? `group ${g}` : '',
        };
      });
    },
    step(d, sub, get, why): Alt[] {
      if (d.shared.n > 1) {
        // A retry: if this (object, group) committed already, it applies nothing and returns the first offsets.
        const found = new Map<string, Commit[]>();
        let any = false;
        for (const k of sub.keys) {
          const list: Commit[] = [];
          for (let s = (get(k) as PartState).segs; s; s = s.prev) {
            if (s.commit === d.commit) list.push(s);
            // Newest first, like the list; a segment's merged commits are in offset order.
            else if (s.merged) for (let j = s.merged.length - 1; j >= 0; j--) if (s.merged[j]!.commit === d.commit) list.push(s.merged[j]!);
          }
          if (list.length) any = true;
          found.set(k, list.reverse());
        }
        if (any) {
          if (!d.ok) return SAME;
          const used = new Map<string, number>();
          for (const c of d.chunks) {
            const j = used.get(c.key) ?? 0;
            used.set(c.key, j + 1);
            const s = found.get(c.key)![j];
            if (!s || s.start !== c.start || s.end !== c.end) {
              return reject(why, () =>
                `retry of ${d.commit} returned [${c.start}, ${c.end}) on ${describePart(c.key)}, but its first commit assigned ${s ? `[${s.start}, ${s.end})` : 'nothing'} there`,
              );
            }
          }
          return SAME;
        }
      }
      const updated = new Map<string, PartState>();
      for (const c of d.chunks) {
        const st = updated.get(c.key) ?? (get(c.key) as PartState);
        const start = st.next;
        const end = start + c.records;
        if (d.ok && (c.start !== start || c.end !== end)) {
          return reject(why, () =>
            `${d.commit} assigned [${c.start}, ${c.end}) on ${describePart(c.key)} whose next offset is ${start}: ` +
            (c.start < start ? `offsets below ${start} were already assigned (duplicate)` : c.start > start ? `it leaves a gap [${start}, ${c.start})` : `expected end ${end}`),
          );
        }
        updated.set(c.key, { next: end, logStart: st.logStart, segs: mkSeg(st.segs, { commit: d.commit, start, end, named: d.shared.n > 1 }) });
      }
      return [[...updated.entries()]];
    },
    // An unknown commit no retry shares appends its records, whoever's they are: it is
    // interned by its ranges only (mkSeg), so two such commits of the same chunks are twins.
    twin: (d) => (d.ok || d.shared.n > 1 ? null : d.chunks.map((c) => `${c.key}+${c.records}`).join(',')),
    // `next` never moves back: an ok commit (not a retry) whose start is below it never fits.
    never: (d, _s, get) => d.ok && d.shared.n === 1 && firstChunks(d.chunks).some((c) => c.start < (get(c.key) as PartState).next),
  };

  interface IndexData {
    key: string;
    from: number;
    logStart: number;
    next: number;
    nextFrom: number | null;
    entries: number[];
    /** No swapSegment in the history touches this partition: its ranges below next are final. */
    final: boolean;
  }

  const partitionIndex: OpHandler<IndexData> = {
    name: 'partitionIndex',
    doc: {
      args: '{ns?, stream, partition, from?}',
      ok: '{logStart, next, entries: [{start, end}], nextFrom?}',
      notes:
        'entries must be contiguous and gap-free from the entry holding max(from, logStart) up to next (or nextFrom), ' +
        'and be exactly the committed ranges there',
    },
    prepare(op, ctx) {
      const { ns, stream } = streamArgs(op.args);
      const partition = reqInt(op.args, 'partition', 'args');
      const key = partKey(ns, stream, partition);
      if (op.status !== 'ok') return [];
      const r = parseIndexResult(op.result);
      const from = op.args.from === undefined ? 0 : reqInt(op.args, 'from', 'args');
      const final = !ctx.index('swappedPartitions', swappedPartitions).has(key);
      return [{ keys: [key], data: { key, from, ...r, final }, readOnly: true }];
    },
    step(d, _s, get, why): Alt[] {
      const cur = get(d.key) as PartState;
      if (cur.logStart !== d.logStart || cur.next !== d.next) {
        return reject(why, () => `read logStart ${d.logStart}, next ${d.next}; the partition has logStart ${cur.logStart}, next ${cur.next}`);
      }
      const lo = Math.max(d.from, cur.logStart);
      const hi = d.nextFrom ?? cur.next;
      const want: number[] = [];
      for (const s of segList(cur.segs)) if (s.end > s.start && s.end > lo && s.start < hi) want.push(s.start, s.end);
      if (want.length === d.entries.length && want.every((v, i) => v === d.entries[i])) return SAME;
      return reject(why, () => `read entries ${fmtRanges(d.entries)}, but the committed ranges there are ${fmtRanges(want)}`);
    },
    never(d, _s, get) {
      const cur = get(d.key) as PartState;
      if (headPassed(cur, d.next, d.logStart)) return true;
      if (!d.final || d.entries.length === 0) return false;
      // Without swaps, a boundary below next stays one and no new one appears below it: the
      // read is past hope if it names a point that is not one, or skips one inside its span.
      const bounds = new Set<number>();
      for (let x = cur.segs; x; x = x.prev) if (x.end > x.start) bounds.add(x.start).add(x.end);
      const named = new Set(d.entries);
      for (const x of d.entries) if (x < cur.next && !bounds.has(x)) return true;
      const top = Math.min(d.entries[d.entries.length - 1]!, cur.next);
      for (const y of bounds) if (y > d.entries[0]! && y < top && !named.has(y)) return true;
      return false;
    },
  };

  interface HeadData {
    key: string;
    next: number;
    logStart: number | null;
  }

  const streamState: OpHandler<HeadData> = {
    name: 'streamState',
    doc: {
      args: '{ns?, stream}',
      ok: '{heads: [{partition, next, logStart?}]}',
      notes: 'not a snapshot (spec §3.3): each head is checked as its own read, anywhere in the call',
    },
    prepare(op) {
      const { ns, stream } = streamArgs(op.args);
      if (op.status !== 'ok') return [];
      return parseHeads(reqObj(op.result, 'result').heads, 'result.heads').map((h) => ({
        keys: [partKey(ns, stream, h.partition)],
        data: { key: partKey(ns, stream, h.partition), next: h.next, logStart: h.logStart },
        label: `head of partition ${h.partition}`,
        readOnly: true,
      }));
    },
    step: headStep,
    never: headNever,
  };

  interface TrimData {
    key: string;
    logStart: number;
    /** `head`: the head an ok trim returned, read at or after its move (see prepare). */
    mode: 'ok' | 'invalid' | 'info' | 'head';
    result: { next?: number; logStart?: number };
  }

  const trimPartition: OpHandler<TrimData> = {
    name: 'trimPartition',
    doc: {
      args: '{ns?, stream, partition, logStart}',
      ok: '{next?, logStart?} (the head)',
      fail: 'InvalidArgument (logStart beyond next); other codes are left out',
      notes:
        'logStart = max(logStart, requested) — never backward; a request beyond next is refused or clamped to next. ' +
        'The head returned is checked as a read at or after the move, within the call (a repeat of a move that applied is a no-op returning the head as it is then)',
    },
    prepare(op) {
      const { ns, stream } = streamArgs(op.args);
      const key = partKey(ns, stream, reqInt(op.args, 'partition', 'args'));
      const d: TrimData = { key, logStart: reqInt(op.args, 'logStart', 'args'), mode: 'info', result: {} };
      if (op.status === 'ok') {
        d.mode = 'ok';
        if (isObj(op.result)) {
          if (typeof op.result.next === 'number') d.result.next = op.result.next;
          if (typeof op.result.logStart === 'number') d.result.logStart = op.result.logStart;
        }
      } else if (op.status === 'fail') {
        if ((op.result as { code?: unknown } | null)?.code !== 'InvalidArgument') return [];
        d.mode = 'invalid';
      }
      if (d.mode === 'ok' && (d.result.next !== undefined || d.result.logStart !== undefined)) {
        // Idempotent without a token (contract): a client's retry of a move that applied but
        // whose answer was lost is a no-op that returns the head as it is then. So the move
        // is one step and the head it returned a read after it, both within the call.
        return [
          { keys: [key], data: d },
          { keys: [key], data: { ...d, mode: 'head' }, label: 'the head it returned', after: [0], readOnly: true },
        ];
      }
      return [{ keys: [key], data: d, readOnly: d.mode === 'invalid' }];
    },
    step(d, _s, get, why): Alt[] {
      const cur = get(d.key) as PartState;
      if (d.mode === 'invalid') return d.logStart > cur.next ? SAME : reject(why, () => `InvalidArgument, but ${d.logStart} <= next ${cur.next}`);
      if (d.mode === 'head') {
        if ((d.result.next === undefined || d.result.next === cur.next) && (d.result.logStart === undefined || d.result.logStart === cur.logStart)) return SAME;
        return reject(why, () => `trim returned ${JSON.stringify(d.result)}; the partition has next ${cur.next}, logStart ${cur.logStart}`);
      }
      const ls = Math.max(cur.logStart, Math.min(d.logStart, cur.next));
      return ls === cur.logStart ? SAME : [[[d.key, { ...cur, logStart: ls }]]];
    },
    never(d, _s, get) {
      const cur = get(d.key) as PartState;
      if (d.mode === 'invalid') return d.logStart <= cur.next;
      return d.mode === 'head' && headPassed(cur, d.result.next ?? Infinity, d.result.logStart ?? null);
    },
  };

  interface SwapData {
    key: string;
    start: number;
    end: number;
    commit: string;
    ok: boolean;
  }

  const swapSegment: OpHandler<SwapData> = {
    name: 'swapSegment',
    doc: {
      args: '{ns?, stream, partition, start, end, path}',
      ok: '{entry: {start, end}}',
      fail: 'any code (trimmed, not on entry boundaries, too many entries, claimed, fenced out): did not apply, left out',
      notes: 'replaces the committed ranges covering exactly [start, end) (at or above logStart, at most next) by one; idempotent by path',
    },
    prepare(op) {
      const { ns, stream } = streamArgs(op.args);
      const key = partKey(ns, stream, reqInt(op.args, 'partition', 'args'));
      const start = reqInt(op.args, 'start', 'args');
      const end = reqInt(op.args, 'end', 'args');
      const path = reqString(op.args, 'path', 'args');
      if (end <= start) bad('args: end must be above start');
      if (op.status === 'fail') return [];
      if (op.status === 'ok') {
        const e = reqObj(reqObj(op.result, 'result').entry, 'result.entry');
        if (reqInt(e, 'start', 'result.entry') !== start || reqInt(e, 'end', 'result.entry') !== end) {
          bad(`result.entry must be the swapped range [${start}, ${end})`);
        }
      }
      return [{ keys: [key], data: { key, start, end, commit: `seg:${path}`, ok: op.status === 'ok' } }];
    },
    step(d, _s, get, why): Alt[] {
      const cur = get(d.key) as PartState;
      const all = segList(cur.segs);
      // A retry of a swap that applied: the entry is there already.
      if (all.some((x) => x.commit === d.commit && x.start === d.start && x.end === d.end)) return SAME;
      const first = all.findIndex((x) => x.start === d.start && x.end > x.start);
      let last = first;
      while (last >= 0 && last < all.length && all[last]!.end < d.end) last++;
      const tiles = first >= 0 && last < all.length && all[last]!.end === d.end && d.start >= cur.logStart && d.end <= cur.next;
      if (!tiles) {
        if (!d.ok) return SAME; // an unknown swap that could not apply
        return reject(why, () => `swap [${d.start}, ${d.end}) on ${describePart(d.key)}: not on entry boundaries at or above logStart ${cur.logStart} (entries ${fmtRanges(all.flatMap((x) => [x.start, x.end]))})`);
      }
      const merged = all.slice(first, last + 1).flatMap((x): Commit[] => x.merged ? [...x.merged] : [{ commit: x.commit, start: x.start, end: x.end, named: x.named }]);
      let segs: Seg | null = null;
      for (const x of all.slice(0, first)) segs = mkSeg(segs, x, x.merged);
      segs = mkSeg(segs, { commit: d.commit, start: d.start, end: d.end, named: true }, merged);
      for (const x of all.slice(last + 1)) segs = mkSeg(segs, x, x.merged);
      return [[[d.key, { ...cur, segs }]]];
    },
    // Swapped-in ranges start at or above logStart, which never moves back.
    never: (d, _s, get) => d.ok && d.start < (get(d.key) as PartState).logStart,
  };

  return [commitWal, partitionIndex, streamState, trimPartition, swapSegment];
}

/** A head read: next (and logStart when given) must match. */
export function headStep(d: { key: string; next: number; logStart: number | null }, _s: unknown, get: (k: string) => unknown, why?: string[]): Alt[] {
  const cur = get(d.key) as PartState;
  if (cur.next === d.next && (d.logStart === null || d.logStart === cur.logStart)) return SAME;
  return reject(why, () => `read next ${d.next}${d.logStart === null ? '' : `, logStart ${d.logStart}`}; the partition has next ${cur.next}, logStart ${cur.logStart}`);
}

/** The partitions some swapSegment of the history names. */
function swappedPartitions(ops: readonly Op[]): Set<string> {
  const out = new Set<string>();
  for (const op of ops) {
    if (op.name !== 'swapSegment') continue;
    const { ns, stream } = streamArgs(op.args);
    out.add(partKey(ns, stream, reqInt(op.args, 'partition', 'args')));
  }
  return out;
}

/** Whether the partition is past a head read (next, logStart): neither ever moves back (spec §3.1). */
function headPassed(cur: PartState, next: number, logStart: number | null): boolean {
  return cur.next > next || (logStart !== null && cur.logStart > logStart);
}

/** A head read that no later state can match (OpHandler.never). */
export function headNever(d: { key: string; next: number; logStart: number | null }, _s: unknown, get: (k: string) => unknown): boolean {
  return headPassed(get(d.key) as PartState, d.next, d.logStart);
}

/** Each key's first chunk of a group (a later chunk on the same key starts above it). */
function firstChunks<C extends { key: string }>(chunks: readonly C[]): C[] {
  const seen = new Set<string>();
  return chunks.filter((c) => !seen.has(c.key) && seen.add(c.key));
}

/** Heads as `[{partition, next, logStart?}]` or `{partition: next}`. */
export function parseHeads(v: unknown, where: string): { partition: number; next: number; logStart: number | null }[] {
  if (Array.isArray(v)) {
    return v.map((h, i) => {
      const o = reqObj(h, `${where}[${i}]`);
      return {
        partition: reqInt(o, 'partition', `${where}[${i}]`),
        next: reqInt(o, 'next', `${where}[${i}]`),
        logStart: o.logStart === undefined ? null : reqInt(o, 'logStart', `${where}[${i}]`),
      };
    });
  }
  const o = reqObj(v, where);
  return Object.entries(o).map(([p, n]) => {
    if (!/^\d+$/.test(p) || typeof n !== 'number' || !Number.isInteger(n)) bad(`${where}: expected {partition: next}, got ${JSON.stringify(p)}: ${JSON.stringify(n)}`);
    return { partition: Number(p), next: n, logStart: null };
  });
}

function parseIndexResult(v: unknown): { logStart: number; next: number; nextFrom: number | null; entries: number[] } {
  const r = reqObj(v, 'result');
  if (!Array.isArray(r.entries)) bad('result.entries must be an array');
  const entries: number[] = [];
  r.entries.forEach((e, i) => {
    const o = reqObj(e, `result.entries[${i}]`);
    const start = reqInt(o, 'start', `result.entries[${i}]`);
    const end = reqInt(o, 'end', `result.entries[${i}]`);
    if (end > start) entries.push(start, end);
  });
  return {
    logStart: reqInt(r, 'logStart', 'result'),
    next: reqInt(r, 'next', 'result'),
    nextFrom: r.nextFrom === undefined || r.nextFrom === null ? null : reqInt(r, 'nextFrom', 'result'),
    entries,
  };
}

function fmtRanges(flat: number[]): string {
  if (!flat.length) return '(none)';
  const parts: string[] = [];
  for (let i = 0; i < flat.length; i += 2) parts.push(`[${flat[i]}, ${flat[i + 1]})`);
  return parts.length > 10 ? `${parts.slice(0, 5).join(' ')} … ${parts.slice(-4).join(' ')} (${parts.length})` : parts.join(' ');
}

// ---- static checks: visible in single results, reported with a precise message

const logPrecheck: Precheck = (ops) => {
  const out: Violation[] = [];
  const ranges = new Map<string, { start: number; end: number; commit: string; chunk: number; op: Op }[]>();
  for (const op of ops) {
    if (op.status !== 'ok') continue;
    if (op.name === 'commitWal') {
      const c = parseCommit(op);
      c.chunks.forEach((ch, i) => {
        const a = c.assigned![i]!;
        if ((a.stream !== undefined && a.stream !== ch.stream) || (a.partition !== undefined && a.partition !== ch.partition)) {
          out.push({ message: `commitWal ${c.object}: assigned[${i}] names stream ${a.stream} partition ${a.partition}, but chunk ${i} is stream ${ch.stream} partition ${ch.partition}`, ops: [op] });
        }
        if (a.end - a.start !== ch.records || a.start < 0) {
          out.push({ message: `commitWal ${c.object}: chunk ${i} has ${ch.records} records but was assigned [${a.start}, ${a.end})`, ops: [op] });
        }
        let list = ranges.get(ch.key);
        if (!list) ranges.set(ch.key, (list = []));
        list.push({ start: a.start, end: a.end, commit: `${c.object}#${c.groupOf[i]}`, chunk: i, op });
      });
    } else if (op.name === 'partitionIndex') {
      const r = parseIndexResult(op.result);
      const from = typeof op.args.from === 'number' ? op.args.from : 0;
      const lo = Math.max(from, r.logStart);
      const hi = r.nextFrom ?? r.next;
      const where = `partitionIndex of stream ${String(op.args.stream)} partition ${String(op.args.partition)}`;
      const e = r.entries;
      if (r.logStart > r.next) out.push({ message: `${where}: logStart ${r.logStart} is above next ${r.next}`, ops: [op] });
      else if (e.length === 0) {
        if (lo < hi) out.push({ message: `${where}: no entries, but offsets [${lo}, ${hi}) exist (a gap)`, ops: [op] });
      } else {
        if (!(e[0]! <= lo && lo < e[1]!) && !(lo >= hi)) out.push({ message: `${where}: the first entry [${e[0]}, ${e[1]}) does not hold offset ${lo} (a gap at the low end)`, ops: [op] });
        for (let i = 2; i < e.length; i += 2) {
          if (e[i] !== e[i - 1]) {
            out.push({
              message: `${where}: entries [${e[i - 2]}, ${e[i - 1]}) and [${e[i]}, ${e[i + 1]}) ${e[i]! > e[i - 1]! ? `leave a gap [${e[i - 1]}, ${e[i]})` : 'overlap'}`,
              ops: [op],
            });
            break;
          }
        }
        if (e[e.length - 1] !== hi) out.push({ message: `${where}: entries end at ${e[e.length - 1]}, not at ${r.nextFrom === null ? 'next' : 'nextFrom'} ${hi}`, ops: [op] });
      }
    }
  }
  for (const [key, list] of ranges) {
    const first = new Map<string, (typeof list)[number]>();
    for (const b of list) {
      const id = `${b.commit}/${b.chunk}`;
      const a = first.get(id);
      if (!a) first.set(id, b);
      else if (a.start !== b.start || a.end !== b.end) {
        out.push({ message: `commit ${a.commit} returned [${a.start}, ${a.end}) and, on a retry, [${b.start}, ${b.end}) on ${describePart(key)}: a retry must return the first offsets`, ops: [a.op, b.op] });
      }
    }
    list.sort((x, y) => x.start - y.start || x.end - y.end);
    for (let i = 1; i < list.length; i++) {
      const a = list[i - 1]!;
      const b = list[i]!;
      if (a.commit === b.commit && a.chunk === b.chunk) continue;
      if (b.start < a.end && a.end > a.start && b.end > b.start) {
        out.push({ message: `duplicated offsets on ${describePart(key)}: [${a.start}, ${a.end}) went to ${a.commit} and [${b.start}, ${b.end}) to ${b.commit}`, ops: [a.op, b.op] });
      }
    }
  }
  return out;
};

export function logHandlers(): { handlers: OpHandler[]; precheck: Precheck } {
  return { handlers: mkHandlers(), precheck: logPrecheck };
}

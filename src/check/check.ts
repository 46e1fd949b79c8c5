// checkHistory: prepare the history for a model, partition it (P-compositionality), search
// each partition, and report `linearizable`, `not linearizable` with a minimal failing
// window, or `unknown` when the budget runs out.
import { readHistory, type Op } from './history.js';
import type { Model, SubOp } from './model.js';
import { createModel } from './models/index.js';
import { searchPartition, type Budget, type Stuck } from './search.js';

export type Verdict = 'linearizable' | 'not linearizable' | 'unknown';

export interface CheckOptions {
  /** Wall-clock budget for the search, in ms. Default 60 s. */
  budgetMs?: number;
  /** Model steps allowed in total. Default 50 million. */
  maxSteps?: number;
  /**
   * Memo entries kept per partition (a memory bound: tens of bytes each for a single key);
   * past it the oldest half is forgotten, which costs time, never the verdict. Default 2 million.
   */
  maxCacheEntries?: number;
  /** How many of the longest prefix's last operations a report shows. Default 6. */
  window?: number;
}

export const DEFAULT_BUDGET_MS = 60_000;
export const DEFAULT_MAX_STEPS = 50_000_000;
export const DEFAULT_MAX_CACHE_ENTRIES = 2_000_000;
const DEFAULT_WINDOW = 6;
/** Concurrent operations of the prefix shown besides the last `window` ones. */
const MAX_CONCURRENT_SHOWN = 12;

export interface OpView {
  /** 0-based position of the invocation among the history's invocations. */
  index: number;
  line: number;
  process: number | string;
  op: string;
  /** The part of a split operation (a commit group, one head of a composite read). */
  part?: string;
  args: Record<string, unknown>;
  status: 'ok' | 'fail' | 'info';
  result?: unknown;
  call: number;
  /** null when the outcome is unknown (returns at +infinity). */
  ret: number | null;
}

export interface PartitionView {
  keys: string[];
  description: string;
  /** Atomic steps in the partition. */
  steps: number;
}

export interface Violation {
  /** `static`: visible without a search; `search`: no linearization extends past a point. */
  kind: 'static' | 'search';
  message: string;
  partition?: PartitionView;
  /** The longest linearizable prefix: how long, and its last (and concurrent) operations. */
  prefix?: { linearized: number; of: number; tail: OpView[] };
  /** Model state after that prefix, per key. */
  state?: Record<string, unknown>;
  /** Operations that could not be placed next, the blocking one first, with reasons. */
  unplaced?: { op: OpView; why: string[] }[];
  unplacedTotal?: number;
  /** Operations a static violation is about. */
  ops?: OpView[];
}

export interface CheckResult {
  verdict: Verdict;
  model: string;
  /** Calls in the history, and atomic steps after splitting (groups, read parts). */
  ops: number;
  steps: number;
  /** Calls that constrain nothing and were left out (info reads, fails without a checkable error). */
  dropped: number;
  /** Unknown-outcome steps the model proved constrain nothing here (e.g. writes no read observed), left out of the search. */
  setAside: number;
  partitions: number;
  partitionsChecked: number;
  searchSteps: number;
  ms: number;
  violation?: Violation;
  unknown?: { reason: string; partition: PartitionView };
}

export function opView(op: Op, part = ''): OpView {
  const v: OpView = {
    index: op.index,
    line: op.line,
    process: op.process,
    op: op.name,
    args: op.args,
    status: op.status,
    call: op.call,
    ret: op.ret === Infinity ? null : op.ret,
  };
  if (part) v.part = part;
  if (op.status !== 'info') v.result = op.result;
  return v;
}

function subView(s: SubOp): OpView {
  return opView(s.op, s.label);
}

/** Connected components of keys (union-find); each op's keys, and keys of steps ordered by `after`, are joined. */
export function partition(subs: SubOp[]): { keys: string[]; subs: SubOp[] }[] {
  const parent = new Map<string, string>();
  const find = (k: string): string => {
    let r = k;
    for (let p = parent.get(r)!; p !== r; p = parent.get(r)!) r = p;
    for (let x = k; x !== r; ) {
      const nx = parent.get(x)!;
      parent.set(x, r);
      x = nx;
    }
    return r;
  };
  const union = (a: string, b: string) => {
    const ra = find(a);
    const rb = find(b);
    if (ra !== rb) parent.set(ra, rb);
  };
  for (const s of subs) for (const k of s.keys) if (!parent.has(k)) parent.set(k, k);
  for (const s of subs) {
    for (let i = 1; i < s.keys.length; i++) union(s.keys[0]!, s.keys[i]!);
    for (const a of s.after) union(s.keys[0]!, a.keys[0]!);
  }
  const groups = new Map<string, { keys: string[]; subs: SubOp[] }>();
  for (const k of parent.keys()) {
    const r = find(k);
    let g = groups.get(r);
    if (!g) groups.set(r, (g = { keys: [], subs: [] }));
    g.keys.push(k);
  }
  for (const s of subs) groups.get(find(s.keys[0]!))!.subs.push(s);
  const out = [...groups.values()];
  for (const g of out) g.keys.sort();
  // Smallest first, so a shared budget is not spent on one hard partition before the easy
  // ones are checked (a violation anywhere is a definite answer); ties by first operation.
  out.sort((a, b) => a.subs.length - b.subs.length || a.subs[0]!.id - b.subs[0]!.id);
  return out;
}

function partitionView(model: Model, p: { keys: string[]; subs: SubOp[] }): PartitionView {
  const shown = p.keys.slice(0, 6).map((k) => model.describeKey(k));
  const more = p.keys.length > 6 ? ` and ${p.keys.length - 6} more keys` : '';
  return { keys: p.keys, description: shown.join(', ') + more, steps: p.subs.length };
}

function searchViolation(model: Model, p: { keys: string[]; subs: SubOp[] }, stuck: Stuck, window: number): Violation {
  const seq = stuck.sequence;
  // The window: the last `window` operations of the prefix, plus earlier ones still running
  // when the unplaced operations were invoked (they are the ones that might be reordered).
  const firstCall = Math.min(...stuck.unplaced.map((u) => u.sub.call), stuck.blocking.call);
  const tailStart = Math.max(0, seq.length - window);
  const concurrent = seq.slice(0, tailStart).filter((s) => s.ret > firstCall).slice(-MAX_CONCURRENT_SHOWN);
  const tail = [...concurrent, ...seq.slice(tailStart)];
  const state: Record<string, unknown> = {};
  for (const [k, v] of stuck.state) state[model.describeKey(k)] = model.show(k, v);
  const b = stuck.blocking;
  return {
    kind: 'search',
    message:
      `no linearization of ${model.describeKey(b.keys[0]!)} places ${b.op.name}${b.label ? ` (${b.label})` : ''} ` +
      `of process ${b.op.process} (line ${b.op.line}) before it returns`,
    partition: partitionView(model, p),
    prefix: { linearized: seq.length, of: p.subs.length, tail: tail.map(subView) },
    state,
    unplaced: stuck.unplaced.map((u) => ({ op: subView(u.sub), why: u.why })),
    unplacedTotal: stuck.unplacedTotal,
  };
}

/** Leaves out the unknown-outcome steps the model proves constrain nothing (Model.setAside). */
function setAsideSteps(model: Model, subs: SubOp[]): { subs: SubOp[]; setAside: number } {
  if (!model.setAside) return { subs, setAside: 0 };
  const aside = model.setAside(subs);
  if (aside.size === 0) return { subs, setAside: 0 };
  const kept = subs.filter((s) => !aside.has(s));
  for (const s of aside) {
    if (s.op.status !== 'info') throw new Error(`model ${model.name} set aside a step with a known outcome (line ${s.op.line})`);
  }
  for (const s of kept) {
    if (s.after.some((a) => aside.has(a))) throw new Error(`model ${model.name} set aside a step another must follow (line ${s.op.line})`);
  }
  return { subs: kept, setAside: aside.size };
}

/** Checks paired operations against a model (or a model name). */
export function checkOps(ops: Op[], modelOrName: Model | string, opts: CheckOptions = {}): CheckResult {
  const started = performance.now();
  const model = typeof modelOrName === 'string' ? createModel(modelOrName) : modelOrName;
  const prepared = model.prepare(ops);
  const { dropped, ctx } = prepared;
  const { subs, setAside } = setAsideSteps(model, prepared.subs);
  const parts = partition(subs);
  const base = {
    model: model.name,
    ops: ops.length,
    steps: prepared.subs.length,
    dropped,
    setAside,
    partitions: parts.length,
  };
  const done = (r: Omit<CheckResult, keyof typeof base | 'ms'>): CheckResult => ({
    ...base,
    ...r,
    ms: performance.now() - started,
  });

  const statics = model.precheck(ops, ctx);
  if (statics.length) {
    const v = statics[0]!;
    return done({
      verdict: 'not linearizable',
      partitionsChecked: 0,
      searchSteps: 0,
      violation: {
        kind: 'static',
        message: statics.length > 1 ? `${v.message} (and ${statics.length - 1} more static violations)` : v.message,
        ops: v.ops.map((o) => opView(o)),
      },
    });
  }

  const budget: Budget = {
    deadline: started + (opts.budgetMs ?? DEFAULT_BUDGET_MS),
    maxSteps: opts.maxSteps ?? DEFAULT_MAX_STEPS,
    steps: 0,
    maxCacheEntries: opts.maxCacheEntries ?? DEFAULT_MAX_CACHE_ENTRIES,
  };
  let unknown: CheckResult['unknown'];
  let checked = 0;
  for (const p of parts) {
    const out = searchPartition(model, p.subs, p.keys, budget);
    checked++;
    if (out.kind === 'not linearizable') {
      return done({
        verdict: 'not linearizable',
        partitionsChecked: checked,
        searchSteps: budget.steps,
        violation: searchViolation(model, p, out.stuck, opts.window ?? DEFAULT_WINDOW),
      });
    }
    // Keep going after an unknown: a violation elsewhere is still a definite answer.
    if (out.kind === 'unknown' && !unknown) unknown = { reason: out.reason, partition: partitionView(model, p) };
  }
  return done({
    verdict: unknown ? 'unknown' : 'linearizable',
    partitionsChecked: checked,
    searchSteps: budget.steps,
    ...(unknown ? { unknown } : {}),
  });
}

/** Parses a JSON-lines history and checks it. Throws HistoryError for a malformed history or an unknown model. */
export function checkHistory(text: string, model: Model | string, opts: CheckOptions = {}): CheckResult {
  // Resolve the model first: an unknown model is bad input even for an empty history.
  const m = typeof model === 'string' ? createModel(model) : model;
  return checkOps(readHistory(text), m, opts);
}

// The Wing–Gong / Lowe linearizability search (the algorithm Porcupine uses), written here.
//
// The partition's calls and returns form one doubly linked list sorted by time (a call
// before a return at equal times, so touching intervals count as concurrent: the
// conservative choice, it never invents a violation). The search walks the list: at a call
// entry it tries to linearize that operation now (the model says whether it can take effect
// in the current state, and how); if it can, it removes ("lifts") the call and its return
// from the list, pushes a frame and starts again at the front. At a return entry, the
// operation returning there had to be linearized already: the search backtracks by popping
// the last frame, restoring its state and list entries, and tries that operation's next
// alternative effect, or the next entry. A memo of (linearized set, model state) pairs
// prunes configurations already explored: what can follow depends only on those two.
//
// The memo is compact and bounded. Its entries are keyed by the state's canonical string and a
// 32-bit Zobrist hash of the linearized set, and verified on a hit against a compact copy of
// the set: the search linearizes operations roughly in call order, so the set is "every
// operation below k" plus a few above it (those running when operation k was invoked) — the
// copy holds k and the bitset words from k to the highest linearized operation, not the whole
// bitset (which made a long history's memo quadratic in its length). Past `maxCacheEntries`
// the oldest half of the memo is dropped (two generations). That keeps the search exact: the
// memo only prunes configurations that were fully explored and failed (every configuration
// on the current path has a strictly larger set than the ones before it, so none is pruned as
// its own repeat), and forgetting some only costs time, which the step and time budgets bound.
//
// Unknown (`info`) operations return at +infinity: they may take effect at any point after
// their invocation, or never. They are kept out of the list (their return entries would all
// sit at its end) and tried only when the walk reaches a return entry and nothing with a
// known outcome fits: the candidates at a point are the same (every call invoked before the
// first pending return), only tried in a different order — known outcomes first, which
// spares the search from applying an unknown write greedily everywhere it could. When every
// operation with a known outcome is linearized, the search succeeds: the info operations not
// placed by then never took effect.
//
// Three exact prunings for histories with many unknown outcomes (histories recorded through
// Toxiproxy): info operations a model calls twins (OpHandler.twin: the same effect in every
// state) are placed in invocation order only; a configuration where a known operation can
// never take effect again (OpHandler.never: a version or offset it needs was passed, and they
// never move back) is abandoned at once, whether the walk meets that operation or an info
// operation's effect reaches it; and at a return entry the info operations sharing a key
// with the returning operation are tried first (the same candidates, in a better order).
//
// Sub-operations may name others that must be linearized first (`after`): the documented
// read order of composite reads. The search skips such a call until they are.
import type { Alt, Model, SubOp } from './model.js';

export interface Budget {
  /** performance.now() value after which the search gives up. */
  deadline: number;
  /** Model steps allowed across the whole check; `steps` counts them. */
  maxSteps: number;
  steps: number;
  /** Memo entries kept per partition (a memory bound: past it the oldest half is forgotten). */
  maxCacheEntries: number;
}

export interface Stuck {
  /** The longest linearizable prefix found, in linearization order. */
  sequence: SubOp[];
  /** Model state after it, per key. */
  state: Map<string, unknown>;
  /** The operation whose return forced the search back from there. */
  blocking: SubOp;
  /** Operations that could have been placed next but cannot take effect, with reasons. */
  unplaced: { sub: SubOp; why: string[] }[];
  unplacedTotal: number;
}

export type SearchOutcome =
  | { kind: 'linearizable'; steps: number }
  | { kind: 'not linearizable'; steps: number; stuck: Stuck }
  | { kind: 'unknown'; steps: number; reason: string };

interface Node {
  call: boolean;
  sub: number;
  time: number;
  match: Node | null;
  prev: Node | null;
  next: Node | null;
  /**
   * The state key at which this call's step last had no effect at all: a step is a function
   * of the state alone, so in that state it still has none and is not asked again.
   */
  noFit: string | null;
}

/** Unplaced operations listed in a report (the rest are counted). */
const MAX_UNPLACED_REPORTED = 50;
const SEP = '\u0001';

/** Pending known operations per key probed after an info operation's effect (OpHandler.never). */
const NEVER_PROBES = 4;
/** Positions kept in the per-entry orders of info operations (a memory bound; past it they are recomputed). */
const MAX_INFO_ORDER_POSITIONS = 4_000_000;
/** Configurations of one state kept as a list in the memo before it indexes them by set hash. */
const MEMO_LIST_MAX = 16;

function lift(e: Node): void {
  e.prev!.next = e.next;
  if (e.next) e.next.prev = e.prev;
  const m = e.match!;
  m.prev!.next = m.next;
  if (m.next) m.next.prev = m.prev;
}

function unlift(e: Node): void {
  const m = e.match!;
  m.prev!.next = m;
  if (m.next) m.next.prev = m;
  e.prev!.next = e;
  if (e.next) e.next.prev = e;
}

/** Deterministic 32-bit values for the incremental (Zobrist) hash of the linearized set. */
function zobrist(n: number, seed: number): Int32Array {
  const z = new Int32Array(n);
  let x = seed | 0 || 0x9e3779b9;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    z[i] = x;
  }
  return z;
}

/**
 * Checks one partition: `subs` are its atomic steps, `keys` every key they touch. Assigns
 * `sub.local`. Returns linearizable, not linearizable (with the point it got stuck), or
 * unknown when the budget runs out.
 */
export function searchPartition(model: Model, subs: SubOp[], keys: string[], budget: Budget): SearchOutcome {
  const startSteps = budget.steps;
  if (subs.length === 0) return { kind: 'linearizable', steps: 0 };
  if (performance.now() > budget.deadline) return { kind: 'unknown', steps: 0, reason: 'deadline' };

  // ---- numbering: operations with a known outcome by call time (0..m-1), then the unknown
  // (`info`) ones from the next word boundary, by invocation. Those live apart from the entry
  // list and are tried only when the walk reaches a return entry (see below).
  const known: SubOp[] = [];
  const unknownOps: SubOp[] = [];
  for (const s of subs) (s.ret === Infinity ? unknownOps : known).push(s);
  known.sort((a, b) => a.call - b.call || a.id - b.id);
  unknownOps.sort((a, b) => a.call - b.call || a.id - b.id);
  const m = known.length;
  const infoBase = ((m + 31) >>> 5) << 5;
  const n = infoBase + unknownOps.length;
  const byLocal: SubOp[] = new Array<SubOp>(n);
  known.forEach((s, i) => ((s.local = i), (byLocal[i] = s)));
  const infos: number[] = [];
  // Each info operation's earlier twin (OpHandler.twin), which must be linearized before it.
  const twinPrev = new Int32Array(n).fill(-1);
  const lastTwin = new Map<string, number>();
  unknownOps.forEach((s, j) => {
    s.local = infoBase + j;
    byLocal[infoBase + j] = s;
    infos.push(infoBase + j);
    const t = s.handler.twin?.(s.data, s);
    if (t == null) return;
    const k = `${s.handler.name}${SEP}${t}`;
    const p = lastTwin.get(k);
    if (p !== undefined) twinPrev[infoBase + j] = p;
    lastTwin.set(k, infoBase + j);
  });

  // ---- the entry list of the operations with a known outcome
  const nodes: Node[] = [];
  for (let i = 0; i < m; i++) {
    const s = known[i]!;
    const c: Node = { call: true, sub: i, time: s.call, match: null, prev: null, next: null, noFit: null };
    const r: Node = { call: false, sub: i, time: s.ret, match: null, prev: null, next: null, noFit: null };
    c.match = r;
    nodes.push(c, r);
  }
  nodes.sort((a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    if (a.call !== b.call) return a.call ? -1 : 1;
    return a.sub - b.sub;
  });
  const head: Node = { call: false, sub: -1, time: -Infinity, match: null, prev: null, next: null, noFit: null };
  let prev = head;
  for (const x of nodes) {
    prev.next = x;
    x.prev = prev;
    prev = x;
  }

  // ---- state: one value per key, with its hash and the joined key of the whole state
  const keyIndex = new Map<string, number>();
  keys.forEach((k, i) => keyIndex.set(k, i));
  let vals: unknown[] = keys.map((k) => model.init(k));
  let hashes: string[] = keys.map((k, i) => model.hash(k, vals[i]));
  let skey = hashes.join(SEP);
  const get = (key: string): unknown => {
    const i = keyIndex.get(key);
    if (i === undefined) throw new Error(`step read key ${key} outside its partition`);
    return vals[i];
  };

  // ---- linearized set: a bitset, two incremental 32-bit Zobrist hashes, `low` (every known
  // operation below it is linearized, it is not) and `high` (the highest linearized known one)
  const lin = new Uint32Array((n + 31) >>> 5);
  const knownWords = infoBase >>> 5;
  const z1 = zobrist(n, 0x2545f491);
  const z2 = zobrist(n, 0x6a09e667);
  let h1 = 0;
  let h2 = 0;
  let low = 0;
  let high = -1;
  const isLin = (i: number) => (lin[i >>> 5]! & (1 << (i & 31))) !== 0;
  const flip = (i: number) => {
    lin[i >>> 5]! ^= 1 << (i & 31);
    h1 ^= z1[i]!;
    h2 ^= z2[i]!;
  };

  // ---- the memo: state string -> compact sets [h1, h2, low, hi word, words low..hi-1, info
  // words] stored in an arena (offsets into it): one offset, a short list of them, or past
  // MEMO_LIST_MAX a map by h1 (a state seen in many configurations)
  const maxEntries = Math.max(2, budget.maxCacheEntries);
  const infoWords = lin.length - knownWords;
  type Slot = number | number[];
  interface Generation {
    map: Map<string, Slot | Map<number, Slot>>;
    arena: Uint32Array;
    used: number;
    entries: number;
  }
  const generation = (arena: Uint32Array = new Uint32Array(1 << 12)): Generation => ({ map: new Map(), arena, used: 0, entries: 0 });
  let young = generation();
  let old: Generation | null = null;
  const wordsLo = () => Math.min(low >>> 5, knownWords);
  const wordsHi = (lo: number) => (high >= 0 ? Math.max(lo, (high >>> 5) + 1) : lo);
  const matches = (a: Uint32Array, o: number): boolean => {
    if (a[o] !== h1 >>> 0 || a[o + 1] !== h2 >>> 0 || a[o + 2] !== low) return false;
    const lo = wordsLo();
    const hi = wordsHi(lo);
    if (a[o + 3] !== hi) return false;
    let j = o + 4;
    for (let w = lo; w < hi; w++) if (a[j++] !== lin[w]) return false;
    for (let w = knownWords; w < lin.length; w++) if (a[j++] !== lin[w]) return false;
    return true;
  };
  const store = (g: Generation): number => {
    const lo = wordsLo();
    const hi = wordsHi(lo);
    const len = 4 + (hi - lo) + infoWords;
    if (g.used + len > g.arena.length) {
      const bigger = new Uint32Array(Math.max(g.arena.length * 2, g.used + len));
      bigger.set(g.arena.subarray(0, g.used));
      g.arena = bigger;
    }
    const a = g.arena;
    const o = g.used;
    a[o] = h1;
    a[o + 1] = h2;
    a[o + 2] = low;
    a[o + 3] = hi;
    let j = o + 4;
    for (let w = lo; w < hi; w++) a[j++] = lin[w]!;
    for (let w = knownWords; w < lin.length; w++) a[j++] = lin[w]!;
    g.used = j;
    return o;
  };
  const inSlot = (a: Uint32Array, e: Slot | undefined): boolean => {
    if (e === undefined) return false;
    if (typeof e === 'number') return matches(a, e);
    for (const o of e) if (matches(a, o)) return true;
    return false;
  };
  const seen = (g: Generation | null, stateKey: string): boolean => {
    if (!g) return false;
    const e = g.map.get(stateKey);
    if (e === undefined) return false;
    return e instanceof Map ? inSlot(g.arena, e.get(h1)) : inSlot(g.arena, e);
  };
  const add = (e: Slot | undefined, o: number): Slot => {
    if (e === undefined) return o;
    if (typeof e === 'number') return [e, o];
    e.push(o);
    return e;
  };
  /** Adds the current (linearized set, state) to the memo; false if it was there. */
  const remember = (stateKey: string): boolean => {
    if (seen(young, stateKey) || seen(old, stateKey)) return false;
    if (young.entries >= maxEntries >>> 1) {
      // The oldest generation is forgotten (its arena is reused).
      const spare = old;
      old = young;
      young = generation(spare?.arena);
    }
    const o = store(young);
    young.entries++;
    const e = young.map.get(stateKey);
    if (e instanceof Map) e.set(h1, add(e.get(h1), o));
    else if (Array.isArray(e) && e.length >= MEMO_LIST_MAX) {
      const byH1 = new Map<number, Slot>();
      for (const x of [...e, o]) byH1.set(young.arena[x]! | 0, add(byH1.get(young.arena[x]! | 0), x));
      young.map.set(stateKey, byH1);
    } else young.map.set(stateKey, add(e, o));
    return true;
  };
  remember(skey);

  // ---- the stack of linearized operations
  interface Frame {
    /** The call entry linearized, or null for an info operation (infoPos names it). */
    entry: Node | null;
    /** For an info operation: the return entry it was tried at, and its position in that entry's infoOrder. */
    at: Node | null;
    infoPos: number;
    vals: unknown[];
    hashes: string[];
    skey: string;
    low: number;
    high: number;
    /** The operation it linearized, and the frame below (the stack is this chain). */
    sub: number;
    up: Frame | null;
    depth: number;
    alts: Alt[];
    alt: number;
    /**
     * A read-only step (a read that matches, a justified failure: it changes no state in
     * any state). Then the configuration before it succeeds iff the one after it does: any
     * linearization from before can move this step to the front — it is invoked, nothing
     * still pending had to precede it, it fits here, and wherever it was, it changed
     * nothing. So when the search comes back through it, the configuration before it has
     * failed too, and the other candidates there need no trying.
     */
    pure: boolean;
  }
  let top: Frame | null = null;
  let best = -1;

  /** Info operations that may be placed while `at` is the first return entry: invoked by then. */
  const infoCandidates = (at: Node): number[] => {
    const out: number[] = [];
    for (const i of infos) {
      if (byLocal[i]!.call > at.time) break;
      if (!isLin(i)) out.push(i);
    }
    return out;
  };

  // The info operations tried at a return entry: those invoked by then, the ones sharing a key
  // with its operation first (only the order of trying changes: the same candidates). Cached
  // per entry, within a bound on the positions kept.
  const infoOrders = new Map<number, Int32Array>();
  let infoOrdersKept = 0;
  const infoOrder = (at: Node): Int32Array => {
    const cached = infoOrders.get(at.sub);
    if (cached) return cached;
    const mine = byLocal[at.sub]!.keys;
    const near: number[] = [];
    const far: number[] = [];
    for (let p = 0; p < infos.length; p++) {
      const s = byLocal[infos[p]!]!;
      if (s.call > at.time) break;
      (s.keys.some((k) => mine.includes(k)) ? near : far).push(p);
    }
    const out = Int32Array.from(far.length ? near.concat(far) : near);
    if (infoOrdersKept + out.length <= MAX_INFO_ORDER_POSITIONS) {
      infoOrders.set(at.sub, out);
      infoOrdersKept += out.length;
    }
    return out;
  };

  // The deepest point the search got stuck at, recorded cheaply (frames and state arrays are
  // never mutated, so keeping references is a snapshot); reasons are computed only if it fails.
  let deepest: { top: Frame | null; vals: unknown[]; blocking: number; candidates: number[] } | null = null;
  const record = (blocking: Node) => {
    const candidates: number[] = [];
    for (let e = head.next; e && e !== blocking; e = e.next) if (e.call) candidates.push(e.sub);
    candidates.push(...infoCandidates(blocking));
    deepest = { top, vals, blocking: blocking.sub, candidates };
  };

  const explain = (): Stuck => {
    const d = deepest!;
    const seq: number[] = [];
    for (let f = d.top; f; f = f.up) seq.push(f.sub);
    seq.reverse();
    const linAt = new Set(seq);
    const getAt = (key: string): unknown => {
      const i = keyIndex.get(key);
      if (i === undefined) throw new Error(`step read key ${key} outside its partition`);
      return d.vals[i];
    };
    const unplaced: { sub: SubOp; why: string[] }[] = [];
    // The blocking operation first: it is the one that had to be placed.
    const order = [d.blocking, ...d.candidates.filter((c) => c !== d.blocking)];
    for (const i of order.slice(0, MAX_UNPLACED_REPORTED)) {
      const s = byLocal[i]!;
      const waits = s.after.filter((a) => !linAt.has(a.local));
      const why: string[] = [];
      if (waits.length) why.push(`must follow ${waits.map((w) => w.label || w.op.name).join(', ')} of the same call (read order)`);
      else {
        const alts = s.handler.step(s.data, s, getAt, why);
        if (alts.length && !why.length) why.push('every effect it could have leads to a state already explored');
      }
      unplaced.push({ sub: s, why });
    }
    const state = new Map<string, unknown>();
    keys.forEach((k, i) => state.set(k, d.vals[i]));
    return {
      sequence: seq.map((i) => byLocal[i]!),
      state,
      blocking: byLocal[d.blocking]!,
      unplaced,
      unplacedTotal: order.length,
    };
  };

  /** Budget accounting for one model step; a reason when exhausted. */
  const spend = (): string | null => {
    if (++budget.steps > budget.maxSteps) return 'steps';
    if ((budget.steps & 1023) === 0 && performance.now() > budget.deadline) return 'deadline';
    return null;
  };

  /** Marks `i` linearized, moving `low` and `high`; the caller saved them. */
  const mark = (i: number) => {
    flip(i);
    if (i < m) {
      if (i > high) high = i;
      if (i === low) while (low < m && isLin(low)) low++;
    }
  };

  // ---- per key, its known operations by call, for the probes after an info operation's effect
  const byKey: number[][] = keys.map(() => []);
  if (subs.some((s) => s.handler.never)) for (let i = 0; i < m; i++) for (const k of byLocal[i]!.keys) byKey[keyIndex.get(k)!]!.push(i);
  /**
   * Whether one of the first pending known operations on key `x` can take effect neither in
   * state `nv` nor in any later one (OpHandler.never): then `nv` is a dead end. The walk only
   * meets the operations invoked before the first return; this also sees the ones after it.
   */
  const hopeless = (x: number, nv: unknown[]): boolean => {
    const list = byKey[x]!;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (list[mid]! < low) lo = mid + 1;
      else hi = mid;
    }
    const getNew = (key: string): unknown => nv[keyIndex.get(key)!];
    for (let j = lo, probes = 0; j < list.length && probes < NEVER_PROBES; j++) {
      const i = list[j]!;
      if (isLin(i)) continue;
      probes++;
      const s = byLocal[i]!;
      if (!s.handler.never) continue;
      budget.steps++;
      if (s.handler.step(s.data, s, getNew).length === 0 && s.handler.never(s.data, s, getNew)) return true;
    }
    return false;
  };

  /**
   * Tries to linearize sub `i` now, from alternative `from` of `alts`. On success pushes a
   * frame (built by `frame`) and moves to the new state; returns whether it did.
   */
  const tryPush = (i: number, alts: Alt[], from: number, entry: Node | null, at: Node | null, infoPos: number): boolean => {
    const savedLow = low;
    const savedHigh = high;
    for (let a = from; a < alts.length; a++) {
      const alt = alts[a]!;
      let nv = vals;
      let nh = hashes;
      let nk = skey;
      if (alt.length) {
        nv = vals.slice();
        nh = hashes.slice();
        for (const [k, v] of alt) {
          const x = keyIndex.get(k);
          if (x === undefined) throw new Error(`${byLocal[i]!.op.name} wrote key ${k} outside its partition`);
          nv[x] = v;
          nh[x] = model.hash(k, v);
        }
        nk = nh.length === 1 ? nh[0]! : nh.join(SEP);
      }
      mark(i);
      if (remember(nk)) {
        if (entry === null && alt.length && alt.some(([k]) => hopeless(keyIndex.get(k)!, nv))) {
          // The unknown operation's effect leaves a known one no way to take effect: a dead end.
          flip(i);
          low = savedLow;
          high = savedHigh;
          continue;
        }
        top = {
          entry,
          at,
          infoPos,
          vals,
          hashes,
          skey,
          low: savedLow,
          high: savedHigh,
          sub: i,
          up: top,
          depth: top ? top.depth + 1 : 1,
          alts,
          alt: a,
          pure: byLocal[i]!.readOnly,
        };
        vals = nv;
        hashes = nh;
        skey = nk;
        return true;
      }
      flip(i);
      low = savedLow;
      high = savedHigh;
    }
    return false;
  };

  const ready = (s: SubOp) => s.after.length === 0 || s.after.every((a) => isLin(a.local));
  const done = (kind: 'linearizable' | 'unknown', reason = ''): SearchOutcome =>
    kind === 'linearizable'
      ? { kind, steps: budget.steps - startSteps }
      : { kind, steps: budget.steps - startSteps, reason };
  // The walk. `entry` walks the list, first trying only the read-only steps before the first
  // return entry (`purePass`: one that fits is placed for good, see Frame.pure, so trying them
  // first spares the search from placing a write early and backtracking when a concurrent
  // read wanted the value before it), then the others; at a return entry the info operations
  // invoked by then are tried (`at`, from position `infoFrom`); when none fits, the search
  // backtracks.
  let entry: Node | null = head.next;
  let purePass = true;
  let resumeAlts: Alt[] | null = null;
  let resumeAt = 0;
  let at: Node | null = null;
  let infoFrom = 0;
  /** A call entry met on this walk can take effect neither now nor in any later state (OpHandler.never). */
  let dead = false;
  for (;;) {
    if (at === null) {
      // Walking the list of operations with known outcomes.
      if (entry === null) return done('linearizable'); // every one of them is linearized
      if (entry.call) {
        const node: Node = entry;
        const s = byLocal[node.sub]!;
        let alts: Alt[];
        let from = 0;
        if (resumeAlts) {
          alts = resumeAlts;
          from = resumeAt;
          resumeAlts = null;
        } else {
          // Each pass tries its own kind; the configuration is the same in both passes.
          if (dead || s.readOnly !== purePass || node.noFit === skey || !ready(s)) {
            entry = node.next;
            continue;
          }
          const out = spend();
          if (out) return done('unknown', out);
          alts = s.handler.step(s.data, s, get);
          if (alts.length === 0) {
            node.noFit = skey;
            // It must be linearized some time, and no later state lets it: a dead end.
            if (s.handler.never?.(s.data, s, get)) dead = true;
          }
        }
        if (tryPush(node.sub, alts, from, node, null, -1)) {
          lift(node);
          entry = head.next;
          purePass = true;
        } else entry = node.next;
        continue;
      }
      if (purePass && !dead) {
        purePass = false;
        entry = head.next;
        continue;
      }
      // A return entry: its operation should have been linearized by now. First, could an
      // unknown-outcome operation invoked by now take effect here?
      const depth = top ? top.depth : 0;
      if (depth > best) {
        best = depth;
        record(entry);
      }
      at = entry;
      // At a dead end no info operation is tried: it would only move the state further on.
      infoFrom = dead ? Infinity : 0;
      dead = false;
      continue;
    }

    // Trying info operations at return entry `at`, from position infoFrom of its order.
    let pushed = false;
    const order = infoOrder(at);
    for (let p = infoFrom; p < order.length; p++) {
      const i = infos[order[p]!]!;
      const s = byLocal[i]!;
      if (isLin(i)) continue;
      // Twins take their places in invocation order (OpHandler.twin).
      const tw = twinPrev[i]!;
      if (tw >= 0 && !isLin(tw)) continue;
      let alts: Alt[];
      let from = 0;
      if (resumeAlts) {
        alts = resumeAlts;
        from = resumeAt;
        resumeAlts = null;
      } else {
        if (!ready(s)) continue;
        const out = spend();
        if (out) return done('unknown', out);
        alts = s.handler.step(s.data, s, get);
      }
      if (tryPush(i, alts, from, null, at, p)) {
        pushed = true;
        break;
      }
    }
    if (pushed) {
      at = null;
      entry = head.next;
      purePass = true;
      continue;
    }

    // Nothing fits before `at` returns: backtrack — through every pure step, whose
    // configuration before it fails with the one after it.
    let f: Frame;
    for (;;) {
      const t = top as Frame | null; // assigned in tryPush
      if (!t) return { kind: 'not linearizable', steps: budget.steps - startSteps, stuck: explain() };
      f = t;
      top = t.up;
      if (f.entry) {
        flip(f.entry.sub);
        unlift(f.entry);
      } else flip(f.sub);
      low = f.low;
      high = f.high;
      if (!f.pure) break;
    }
    vals = f.vals;
    hashes = f.hashes;
    skey = f.skey;
    resumeAlts = f.alts;
    resumeAt = f.alt + 1;
    if (f.entry) {
      entry = f.entry;
      at = null;
      purePass = false;
    } else {
      at = f.at;
      infoFrom = f.infoPos;
    }
  }
}

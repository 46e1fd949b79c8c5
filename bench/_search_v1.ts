// The checker's search as it was before unknown-outcome writes were set aside and the memo was
// made compact and bounded: kept only as the linearizability bench's same-run baseline.
//
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
// Unknown (`info`) operations return at +infinity: they may take effect at any point after
// their invocation, or never. They are kept out of the list (their return entries would all
// sit at its end) and tried only when the walk reaches a return entry and nothing with a
// known outcome fits: the candidates at a point are the same (every call invoked before the
// first pending return), only tried in a different order — known outcomes first, which
// spares the search from applying an unknown write greedily everywhere it could. When every
// operation with a known outcome is linearized, the search succeeds: the info operations not
// placed by then never took effect.
//
// Sub-operations may name others that must be linearized first (`after`): the documented
// read order of composite reads. The search skips such a call until they are.
import type { Alt, Model, SubOp } from '../src/check/model.js';

export interface Budget {
  /** performance.now() value after which the search gives up. */
  deadline: number;
  /** Model steps allowed across the whole check; `steps` counts them. */
  maxSteps: number;
  steps: number;
  /** Memo entries allowed per partition (a memory bound). */
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
}

/** Unplaced operations listed in a report (the rest are counted). */
const MAX_UNPLACED_REPORTED = 50;
const SEP = '\u0001';

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
  const n = subs.length;
  subs.forEach((s, i) => (s.local = i));
  if (n === 0) return { kind: 'linearizable', steps: 0 };
  if (performance.now() > budget.deadline) return { kind: 'unknown', steps: 0, reason: 'deadline' };

  // ---- the entry list: operations with a known outcome. Unknown (`info`) ones live apart,
  // sorted by invocation, and are tried only when the walk reaches a return entry (see below).
  const nodes: Node[] = [];
  const infos: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = subs[i]!;
    if (s.ret === Infinity) {
      infos.push(i);
      continue;
    }
    const c: Node = { call: true, sub: i, time: s.call, match: null, prev: null, next: null };
    const r: Node = { call: false, sub: i, time: s.ret, match: null, prev: null, next: null };
    c.match = r;
    nodes.push(c, r);
  }
  nodes.sort((a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    if (a.call !== b.call) return a.call ? -1 : 1;
    return a.sub - b.sub;
  });
  infos.sort((a, b) => subs[a]!.call - subs[b]!.call || a - b);
  const head: Node = { call: false, sub: -1, time: -Infinity, match: null, prev: null, next: null };
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

  // ---- linearized set: bitset + two incremental 32-bit hashes; memo verified on the bitset
  const lin = new Uint32Array((n + 31) >>> 5);
  const z1 = zobrist(n, 0x2545f491);
  const z2 = zobrist(n, 0x6a09e667);
  let h1 = 0;
  let h2 = 0;
  const cache = new Map<string, Uint32Array | Uint32Array[]>();
  let cacheEntries = 0;
  const isLin = (i: number) => (lin[i >>> 5]! & (1 << (i & 31))) !== 0;
  const flip = (i: number) => {
    lin[i >>> 5]! ^= 1 << (i & 31);
    h1 ^= z1[i]!;
    h2 ^= z2[i]!;
  };
  const same = (a: Uint32Array) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== lin[i]) return false;
    return true;
  };
  /** Adds the current (linearized set, state) to the memo; false if it was there. */
  const remember = (stateKey: string): boolean => {
    const k = `${h1}:${h2}:${stateKey}`;
    const e = cache.get(k);
    cacheEntries++;
    if (e === undefined) {
      cache.set(k, lin.slice());
      return true;
    }
    if (e instanceof Uint32Array) {
      if (same(e)) return (cacheEntries--, false);
      cache.set(k, [e, lin.slice()]);
      return true;
    }
    for (const b of e) if (same(b)) return (cacheEntries--, false);
    e.push(lin.slice());
    return true;
  };
  remember(skey);

  // ---- the stack of linearized operations
  interface Frame {
    /** The call entry linearized, or null for an info operation (infoPos names it). */
    entry: Node | null;
    /** For an info operation: the return entry it was tried at, and its position in `infos`. */
    at: Node | null;
    infoPos: number;
    vals: unknown[];
    hashes: string[];
    skey: string;
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
  const stack: Frame[] = [];
  let best = -1;

  /** Info operations that may be placed while `at` is the first return entry: invoked by then. */
  const infoCandidates = (at: Node): number[] => {
    const out: number[] = [];
    for (const i of infos) {
      if (subs[i]!.call > at.time) break;
      if (!isLin(i)) out.push(i);
    }
    return out;
  };

  // The deepest point the search got stuck at, recorded cheaply (the state arrays are never
  // mutated, so keeping a reference is a snapshot); reasons are computed only if it fails.
  let deepest: { seq: number[]; vals: unknown[]; blocking: number; candidates: number[] } | null = null;
  const record = (blocking: Node) => {
    const candidates: number[] = [];
    for (let e = head.next; e && e !== blocking; e = e.next) if (e.call) candidates.push(e.sub);
    candidates.push(...infoCandidates(blocking));
    deepest = {
      seq: stack.map((f) => (f.entry ? f.entry.sub : infos[f.infoPos]!)),
      vals,
      blocking: blocking.sub,
      candidates,
    };
  };

  const explain = (): Stuck => {
    const d = deepest!;
    const linAt = new Set(d.seq);
    const getAt = (key: string): unknown => {
      const i = keyIndex.get(key);
      if (i === undefined) throw new Error(`step read key ${key} outside its partition`);
      return d.vals[i];
    };
    const unplaced: { sub: SubOp; why: string[] }[] = [];
    // The blocking operation first: it is the one that had to be placed.
    const order = [d.blocking, ...d.candidates.filter((c) => c !== d.blocking)];
    for (const i of order.slice(0, MAX_UNPLACED_REPORTED)) {
      const s = subs[i]!;
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
      sequence: d.seq.map((i) => subs[i]!),
      state,
      blocking: subs[d.blocking]!,
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

  /**
   * Tries to linearize sub `i` now, from alternative `from` of `alts`. On success pushes a
   * frame (built by `frame`) and moves to the new state; returns whether it did.
   */
  const tryPush = (i: number, alts: Alt[], from: number, frame: (a: number) => Frame): boolean | 'memory' => {
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
          if (x === undefined) throw new Error(`${subs[i]!.op.name} wrote key ${k} outside its partition`);
          nv[x] = v;
          nh[x] = model.hash(k, v);
        }
        nk = nh.length === 1 ? nh[0]! : nh.join(SEP);
      }
      flip(i);
      if (remember(nk)) {
        if (cacheEntries > budget.maxCacheEntries) return 'memory';
        const f = frame(a);
        f.pure = subs[i]!.readOnly;
        stack.push(f);
        vals = nv;
        hashes = nh;
        skey = nk;
        return true;
      }
      flip(i);
    }
    return false;
  };

  const ready = (s: SubOp) => s.after.length === 0 || s.after.every((a) => isLin(a.local));
  const done = (kind: 'linearizable' | 'unknown', reason = ''): SearchOutcome =>
    kind === 'linearizable'
      ? { kind, steps: budget.steps - startSteps }
      : { kind, steps: budget.steps - startSteps, reason };

  // The walk. `entry` walks the list; at a return entry the info operations invoked by then
  // are tried (`at`, from position `infoFrom`); when none fits, the search backtracks.
  let entry: Node | null = head.next;
  let resumeAlts: Alt[] | null = null;
  let resumeAt = 0;
  let at: Node | null = null;
  let infoFrom = 0;
  for (;;) {
    if (at === null) {
      // Walking the list of operations with known outcomes.
      if (entry === null) return done('linearizable'); // every one of them is linearized
      if (entry.call) {
        const node: Node = entry;
        const s = subs[node.sub]!;
        let alts: Alt[];
        let from = 0;
        if (resumeAlts) {
          alts = resumeAlts;
          from = resumeAt;
          resumeAlts = null;
        } else {
          if (!ready(s)) {
            entry = node.next;
            continue;
          }
          const out = spend();
          if (out) return done('unknown', out);
          alts = s.handler.step(s.data, s, get);
        }
        const pushed = tryPush(node.sub, alts, from, (a) => ({ entry: node, at: null, infoPos: -1, vals, hashes, skey, alts, alt: a, pure: false }));
        if (pushed === 'memory') return done('unknown', 'memory');
        if (pushed) {
          lift(node);
          entry = head.next;
        } else entry = node.next;
        continue;
      }
      // A return entry: its operation should have been linearized by now. First, could an
      // unknown-outcome operation invoked by now take effect here?
      if (stack.length > best) {
        best = stack.length;
        record(entry);
      }
      at = entry;
      infoFrom = 0;
      continue;
    }

    // Trying info operations at return entry `at`, from position infoFrom.
    let pushed = false;
    for (let p = infoFrom; p < infos.length; p++) {
      const i = infos[p]!;
      const s = subs[i]!;
      if (s.call > at.time) break;
      if (isLin(i)) continue;
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
      const node = at;
      const r = tryPush(i, alts, from, (a) => ({ entry: null, at: node, infoPos: p, vals, hashes, skey, alts, alt: a, pure: false }));
      if (r === 'memory') return done('unknown', 'memory');
      if (r) {
        pushed = true;
        break;
      }
    }
    if (pushed) {
      at = null;
      entry = head.next;
      continue;
    }

    // Nothing fits before `at` returns: backtrack — through every pure step, whose
    // configuration before it fails with the one after it.
    let f: Frame | undefined;
    for (;;) {
      f = stack.pop();
      if (!f) return { kind: 'not linearizable', steps: budget.steps - startSteps, stuck: explain() };
      if (f.entry) {
        flip(f.entry.sub);
        unlift(f.entry);
      } else flip(infos[f.infoPos]!);
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
    } else {
      at = f.at;
      infoFrom = f.infoPos;
    }
  }
}

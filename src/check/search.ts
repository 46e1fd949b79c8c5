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
// Unknown (`info`) operations return at +infinity, so their return entries are all at the
// end: reaching one means every operation with a known outcome is linearized — success,
// with the `info` ones not linearized so far left out (they never took effect).
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
  inf: boolean;
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

  // ---- the entry list
  const nodes: Node[] = [];
  for (let i = 0; i < n; i++) {
    const s = subs[i]!;
    const c: Node = { call: true, sub: i, time: s.call, inf: false, match: null, prev: null, next: null };
    const r: Node = { call: false, sub: i, time: s.ret, inf: s.ret === Infinity, match: null, prev: null, next: null };
    c.match = r;
    nodes.push(c, r);
  }
  nodes.sort((a, b) => {
    if (a.time !== b.time) return a.time < b.time ? -1 : 1;
    if (a.call !== b.call) return a.call ? -1 : 1;
    return a.sub - b.sub;
  });
  const head: Node = { call: false, sub: -1, time: -Infinity, inf: false, match: null, prev: null, next: null };
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
    entry: Node;
    vals: unknown[];
    hashes: string[];
    skey: string;
    alts: Alt[];
    alt: number;
  }
  const stack: Frame[] = [];
  let best = -1;
  let stuck: Stuck | null = null;

  const record = (blocking: Node) => {
    const unplaced: { sub: SubOp; why: string[] }[] = [];
    let total = 0;
    for (let e = head.next; e && e !== blocking; e = e.next) {
      if (!e.call) continue;
      total++;
      if (unplaced.length >= MAX_UNPLACED_REPORTED) continue;
      const s = subs[e.sub]!;
      const waits = s.after.filter((a) => !isLin(a.local));
      const why: string[] = [];
      if (waits.length) why.push(`must follow ${waits.map((w) => w.label || w.op.name).join(', ')} of the same call (read order)`);
      else {
        const alts = s.handler.step(s.data, s, get, why);
        if (alts.length && !why.length) why.push('every effect it could have leads to a state already explored');
      }
      unplaced.push({ sub: s, why });
    }
    // The blocking operation first: it is the one that had to be placed.
    const bi = unplaced.findIndex((u) => u.sub.local === blocking.sub);
    if (bi > 0) unplaced.unshift(...unplaced.splice(bi, 1));
    const state = new Map<string, unknown>();
    keys.forEach((k, i) => state.set(k, vals[i]));
    stuck = {
      sequence: stack.map((f) => subs[f.entry.sub]!),
      state,
      blocking: subs[blocking.sub]!,
      unplaced,
      unplacedTotal: total,
    };
  };

  let entry: Node | null = head.next;
  let resumeAlts: Alt[] | null = null;
  let resumeAt = 0;
  for (;;) {
    if (entry === null) return { kind: 'linearizable', steps: budget.steps - startSteps };
    if (entry.call) {
      const s = subs[entry.sub]!;
      let alts: Alt[];
      let from = 0;
      if (resumeAlts) {
        alts = resumeAlts;
        from = resumeAt;
        resumeAlts = null;
      } else {
        if (s.after.length && s.after.some((a) => !isLin(a.local))) {
          entry = entry.next;
          continue;
        }
        if (++budget.steps > budget.maxSteps) return { kind: 'unknown', steps: budget.steps - startSteps, reason: 'steps' };
        if ((budget.steps & 1023) === 0 && performance.now() > budget.deadline) {
          return { kind: 'unknown', steps: budget.steps - startSteps, reason: 'deadline' };
        }
        alts = s.handler.step(s.data, s, get);
      }
      let pushed = false;
      for (let a = from; a < alts.length; a++) {
        const alt = alts[a]!;
        let nv = vals;
        let nh = hashes;
        let nk = skey;
        if (alt.length) {
          nv = vals.slice();
          nh = hashes.slice();
          for (const [k, v] of alt) {
            const i = keyIndex.get(k);
            if (i === undefined) throw new Error(`${s.op.name} wrote key ${k} outside its partition`);
            nv[i] = v;
            nh[i] = model.hash(k, v);
          }
          nk = nh.length === 1 ? nh[0]! : nh.join(SEP);
        }
        flip(entry.sub);
        if (remember(nk)) {
          if (cacheEntries > budget.maxCacheEntries) {
            return { kind: 'unknown', steps: budget.steps - startSteps, reason: 'memory' };
          }
          stack.push({ entry, vals, hashes, skey, alts, alt: a });
          vals = nv;
          hashes = nh;
          skey = nk;
          lift(entry);
          entry = head.next;
          pushed = true;
          break;
        }
        flip(entry.sub);
      }
      if (!pushed) entry = entry!.next;
      continue;
    }
    // A return entry: its operation should have been linearized by now.
    if (entry.inf) return { kind: 'linearizable', steps: budget.steps - startSteps };
    if (stack.length > best) {
      best = stack.length;
      record(entry);
    }
    const f = stack.pop();
    if (!f) return { kind: 'not linearizable', steps: budget.steps - startSteps, stuck: stuck! };
    vals = f.vals;
    hashes = f.hashes;
    skey = f.skey;
    flip(f.entry.sub);
    unlift(f.entry);
    entry = f.entry;
    resumeAlts = f.alts;
    resumeAt = f.alt + 1;
  }
}

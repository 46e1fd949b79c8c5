// Sequential specifications for the checker. A model is a set of op handlers over keyed
// sub-states: every key (a pointer, a lease, a log partition, a name…) has its own state,
// and every (sub-)operation names the keys it reads or writes. That is what makes the
// history P-compositional: keys that no operation connects are independent objects, and
// by locality (Herlihy & Wing 1990, Theorem 1) a history is linearizable iff each
// independent object's sub-history is. The checker therefore splits the history into the
// connected components of the "touches the same operation" relation and checks each alone.
import { HistoryError, type Op } from './history.js';

/**
 * One possible effect of a step: the keys it writes and their new states. An empty array is
 * "consistent here, changes nothing" (a read that matches, a justified failure).
 */
export type Alt = ReadonlyArray<readonly [string, unknown]>;
export const NO_CHANGE: Alt = Object.freeze([]) as Alt;
/** The one-alternative answer of a read that matches. */
export const SAME: Alt[] = Object.freeze([NO_CHANGE]) as unknown as Alt[];
/** The answer of a step that cannot take effect in this state. */
export const NONE: Alt[] = Object.freeze([]) as unknown as Alt[];

export type Get = (key: string) => unknown;

/** What a handler's prepare() returns: one atomic step of the operation (usually exactly one). */
export interface Prepared<D = unknown> {
  /** Keys this step reads or writes (all of them; the partitioning relies on it). */
  keys: string[];
  data: D;
  /** Names the part of a split operation, e.g. "group 1" or "head of partition 2". */
  label?: string;
  /** Indexes (into the same prepare() result) of steps that must be linearized before this one. */
  after?: number[];
  /**
   * The step never changes any state, whatever the state (a read, a justified failure).
   * The search then never needs to try placing it later than the first point it fits.
   * Leave unset when in doubt: it only costs speed.
   */
  readOnly?: boolean;
}

/** An atomic step the search places: a whole call, or one part of a split call. */
export interface SubOp<D = unknown> {
  /** Index among all sub-operations of the history. */
  id: number;
  /** Index inside its partition, set by the search. */
  local: number;
  op: Op;
  handler: OpHandler<D>;
  label: string;
  keys: string[];
  data: D;
  after: SubOp[];
  readOnly: boolean;
  call: number;
  ret: number;
}

export interface OpDoc {
  args: string;
  ok: string;
  fail?: string;
  notes?: string;
}

/** Shared, lazily built whole-history indexes (for example: which leases the history observes). */
export class PrepareContext {
  private readonly memo = new Map<string, unknown>();
  constructor(readonly ops: readonly Op[]) {}
  index<T>(name: string, build: (ops: readonly Op[]) => T): T {
    if (!this.memo.has(name)) this.memo.set(name, build(this.ops));
    return this.memo.get(name) as T;
  }
}

export interface OpHandler<D = any> {
  name: string;
  doc: OpDoc;
  /**
   * Validates the op's arguments and result (HistoryError on a malformed one) and returns its
   * atomic steps; [] drops it because it constrains nothing: an `info` read, a `fail` that
   * carries no checkable error (Retryable, Claimed…).
   */
  prepare(op: Op, ctx: PrepareContext): Prepared<D>[];
  /**
   * The possible effects of taking this step now, given the current sub-states. For an `ok`
   * or checkable `fail` step they must agree with its recorded result; for an `info` step
   * they are the effects of it having applied (never having applied is the search's job).
   * `why`, when given, collects the reasons for returning no alternative (for reports).
   */
  step(d: D, sub: SubOp<D>, get: Get, why?: string[]): Alt[];
  /**
   * For an `info` step: its effect as a string, or null (the default). Two info steps of one
   * handler with the same string must have the same alternatives in every state, with results
   * no later step tells apart (the same keys' hashes). The search then places such twins in
   * invocation order only: a linearization that places some of them may give their places to
   * the earliest invoked ones instead (each is invoked by then), with the same states.
   */
  twin?(d: D, sub: SubOp<D>): string | null;
  /**
   * Asked when step() gave no alternative: true when no state reachable from this one lets
   * the step take effect either (a quantity it needs has moved past the value it needs, and
   * no step ever moves it back). The search then abandons the configuration at once instead
   * of trying unknown-outcome operations there. Leave unset when in doubt: it only costs speed.
   */
  never?(d: D, sub: SubOp<D>, get: Get): boolean;
}

export interface KeyKind<S = any> {
  /** Key prefix including the colon, e.g. "p:". */
  prefix: string;
  /** What a key of this kind is, e.g. "pointer". */
  what: string;
  init(): S;
  /** Canonical string of a state: equal strings exactly when the states are equal. */
  hash(s: S): string;
  /** A JSON view for reports. */
  show(s: S): unknown;
  /** A human name for the part of the key after the prefix. */
  describe?(rest: string): string;
}

export interface Violation {
  message: string;
  ops: Op[];
}

export type Precheck = (ops: readonly Op[], ctx: PrepareContext) => Violation[];

/**
 * Picks the unknown-outcome steps that provably constrain nothing given the rest of the
 * history, so the search may leave them out: the history is linearizable with them iff it is
 * without them. A model states (and proves, in a comment) its own rule; none is the default.
 */
export type SetAside = (subs: readonly SubOp[]) => Set<SubOp>;

export interface Model {
  readonly name: string;
  readonly summary: string;
  readonly handlers: ReadonlyMap<string, OpHandler>;
  /** Turns the history into atomic steps; throws HistoryError for a malformed op. */
  prepare(ops: readonly Op[]): { subs: SubOp[]; dropped: number; ctx: PrepareContext };
  /** Violations visible without a search (e.g. two creates returning one id). */
  precheck(ops: readonly Op[], ctx: PrepareContext): Violation[];
  /** Unknown-outcome steps the search may leave out (see SetAside); absent: none. */
  setAside?: SetAside;
  init(key: string): unknown;
  hash(key: string, s: unknown): string;
  show(key: string, s: unknown): unknown;
  /** A human name for a key, e.g. `pointer ns 3 key "link/7"`. */
  describeKey(key: string): string;
}

/** A model made of op handlers and key kinds. */
export class HandlerModel implements Model {
  readonly handlers: ReadonlyMap<string, OpHandler>;
  private readonly kinds = new Map<string, KeyKind>();

  constructor(
    readonly name: string,
    readonly summary: string,
    handlers: OpHandler[],
    kinds: KeyKind[],
    private readonly prechecks: Precheck[] = [],
    readonly setAside?: SetAside,
  ) {
    const m = new Map<string, OpHandler>();
    for (const h of handlers) m.set(h.name, h);
    this.handlers = m;
    for (const k of kinds) this.kinds.set(k.prefix, k);
  }

  private kind(key: string): KeyKind {
    const k = this.kinds.get(key.slice(0, key.indexOf(':') + 1));
    if (!k) throw new Error(`model ${this.name}: no key kind for key ${JSON.stringify(key)}`);
    return k;
  }

  prepare(ops: readonly Op[]): { subs: SubOp[]; dropped: number; ctx: PrepareContext } {
    const ctx = new PrepareContext(ops);
    const subs: SubOp[] = [];
    let dropped = 0;
    for (const op of ops) {
      const h = this.handlers.get(op.name);
      if (!h) {
        throw new HistoryError(
          `unknown op "${op.name}" for model ${this.name}; it knows: ${[...this.handlers.keys()].join(', ')}`,
          op.line,
        );
      }
      let parts: Prepared[];
      try {
        parts = h.prepare(op, ctx);
      } catch (e) {
        if (e instanceof HistoryError && e.line === null) throw new HistoryError(`${op.name}: ${e.message}`, op.line);
        throw e;
      }
      if (parts.length === 0) dropped++;
      const made: SubOp[] = [];
      for (const p of parts) {
        if (p.keys.length === 0) throw new Error(`model ${this.name}: ${op.name} step touches no key`);
        for (const k of p.keys) this.kind(k);
        made.push({
          id: subs.length + made.length,
          local: -1,
          op,
          handler: h,
          label: p.label ?? '',
          keys: p.keys,
          data: p.data,
          after: [],
          readOnly: p.readOnly === true,
          call: op.call,
          ret: op.ret,
        });
      }
      parts.forEach((p, i) => {
        for (const j of p.after ?? []) made[i]!.after.push(made[j]!);
      });
      subs.push(...made);
    }
    return { subs, dropped, ctx };
  }

  precheck(ops: readonly Op[], ctx: PrepareContext): Violation[] {
    return this.prechecks.flatMap((p) => p(ops, ctx));
  }

  init(key: string): unknown {
    return this.kind(key).init();
  }
  hash(key: string, s: unknown): string {
    return this.kind(key).hash(s);
  }
  show(key: string, s: unknown): unknown {
    return this.kind(key).show(s);
  }
  describeKey(key: string): string {
    const k = this.kind(key);
    const rest = key.slice(key.indexOf(':') + 1);
    if (k.describe) return `${k.what} ${k.describe(rest)}`;
    return rest === '' ? `${k.what} (no key)` : `${k.what} ${JSON.stringify(rest)}`;
  }
}

// ---- helpers for handlers ----

export function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Canonical JSON: object keys sorted, so equal values give equal strings. */
export function canon(v: unknown): string {
  if (v === null || typeof v !== 'object') return v === undefined ? 'null' : JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  const keys = Object.keys(v as object).sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function bad(message: string): never {
  throw new HistoryError(message);
}

export function reqString(o: Record<string, unknown>, f: string, where: string): string {
  const v = o[f];
  if (typeof v !== 'string') bad(`${where}.${f} must be a string (got ${JSON.stringify(v)})`);
  return v;
}

export function reqInt(o: Record<string, unknown>, f: string, where: string): number {
  const v = o[f];
  if (typeof v !== 'number' || !Number.isInteger(v)) bad(`${where}.${f} must be an integer (got ${JSON.stringify(v)})`);
  return v;
}

export function reqNum(o: Record<string, unknown>, f: string, where: string): number {
  const v = o[f];
  if (typeof v !== 'number' || !Number.isFinite(v)) bad(`${where}.${f} must be a number (got ${JSON.stringify(v)})`);
  return v;
}

export function optInt(o: Record<string, unknown>, f: string, where: string): number | undefined {
  return o[f] === undefined ? undefined : reqInt(o, f, where);
}

/** Describes `<scope>/<rest>` keys: `key "k"` or `ns 3 key "k"`. */
export function describeScoped(scopeWord: string, rest: string): string {
  const i = rest.indexOf('/');
  const scope = rest.slice(0, i);
  const key = rest.slice(i + 1);
  return `${scope === '' ? '' : `${scopeWord} ${scope} `}key ${JSON.stringify(key)}`;
}

/** A namespace (or scope) part of a key: absent, a number, or 'cluster'. */
export function scopePart(v: unknown, where: string): string {
  if (v === undefined || v === null) return '';
  if (typeof v === 'number' || typeof v === 'string') return String(v);
  return bad(`${where} must be a number or string (got ${JSON.stringify(v)})`);
}

export function reqObj(v: unknown, where: string): Record<string, unknown> {
  if (!isObj(v)) bad(`${where} must be an object (got ${JSON.stringify(v)})`);
  return v;
}

/** Pushes a reason when a report asked for one; always returns NONE. */
export function reject(why: string[] | undefined, msg: () => string): Alt[] {
  if (why) why.push(msg());
  return NONE;
}

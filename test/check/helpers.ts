// Helpers for the checker's self-tests: a history builder, a seeded PRNG, a brute-force
// oracle, and turning a sequential run into a (possibly concurrent) history.
import { mulberry32 } from '../../src/check/prng.js';
import assert from 'node:assert/strict';
import { checkHistory, type CheckOptions, type CheckResult, type HistoryEvent, type Verdict } from '../../src/check/index.js';
import { createModel, readHistory } from '../../src/check/index.js';
import type { Model, SubOp } from '../../src/check/model.js';

/** Builds histories by hand: every event gets the next time unless one is given. */
export class HistoryBuilder {
  readonly events: HistoryEvent[] = [];
  private t = 0;

  private at(time?: number): number {
    if (time !== undefined) {
      this.t = Math.max(this.t, time);
      return time;
    }
    return ++this.t;
  }
  invoke(process: number, op: string, args: Record<string, unknown> = {}, time?: number): this {
    this.events.push({ process, type: 'invoke', op, args, time: this.at(time) });
    return this;
  }
  ok(process: number, op: string, result?: unknown, time?: number): this {
    const ev: HistoryEvent = { process, type: 'ok', op, time: this.at(time) };
    if (result !== undefined) ev.result = result;
    this.events.push(ev);
    return this;
  }
  fail(process: number, op: string, code: string, details: Record<string, unknown> = {}, time?: number): this {
    this.events.push({ process, type: 'fail', op, result: { code, message: code, details }, time: this.at(time) });
    return this;
  }
  info(process: number, op: string, time?: number): this {
    this.events.push({ process, type: 'info', op, time: this.at(time) });
    return this;
  }
  /** invoke + ok, back to back (a sequential call). */
  call(process: number, op: string, args: Record<string, unknown>, result?: unknown): this {
    return this.invoke(process, op, args).ok(process, op, result);
  }
  /** invoke + fail, back to back. */
  callFail(process: number, op: string, args: Record<string, unknown>, code: string, details: Record<string, unknown> = {}): this {
    return this.invoke(process, op, args).fail(process, op, code, details);
  }
  text(): string {
    return this.events.map((e) => JSON.stringify(e)).join('\n') + '\n';
  }
  check(model: string, opts: CheckOptions = {}): CheckResult {
    return checkHistory(this.text(), model, opts);
  }
}

export function expectVerdict(r: CheckResult, v: Verdict, context = ''): void {
  assert.equal(r.verdict, v, `${context}${context ? ': ' : ''}expected ${v}, got ${r.verdict}\n${JSON.stringify(r.violation ?? r.unknown ?? {}, null, 1).slice(0, 2000)}`);
}

/** mulberry32: a small seeded PRNG. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(xs: readonly T[]): T; chance(p: number): boolean } {
  const next = mulberry32(seed);
  return {
    next,
    int: (n) => Math.floor(next() * n),
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    chance: (p) => next() < p,
  };
}
export type Rng = ReturnType<typeof prng>;

/** One call of a sequential run, in the order it took effect. */
export interface Call {
  op: string;
  args: Record<string, unknown>;
  status: 'ok' | 'fail' | 'info';
  /** ok: result; fail: {code, details}. */
  result?: unknown;
  /** A mutation of this call's result might still be valid: do not mutate it. */
  noMutate?: boolean;
}

/**
 * Turns calls (in the order they took effect) into history events. Sequential: each call
 * completes before the next starts. Concurrent: call i takes effect at time 10·i, is
 * invoked up to `spread` before and completes up to `spread` after, so intervals overlap
 * but the history stays linearizable; `info` calls never complete.
 */
export function toEvents(calls: readonly Call[], opts: { concurrent?: boolean; rng?: Rng; spread?: number } = {}): HistoryEvent[] {
  const rng = opts.rng ?? prng(1);
  const spread = opts.spread ?? 25;
  const timed: { ev: HistoryEvent; order: number }[] = [];
  const lastRet: number[] = [];
  calls.forEach((c, i) => {
    let call: number;
    let ret: number;
    if (opts.concurrent) {
      const lin = 10 * (i + 1) + spread;
      call = lin - rng.int(spread + 1);
      ret = lin + 1 + rng.int(spread);
    } else {
      call = 2 * i;
      ret = 2 * i + 1;
    }
    let p = lastRet.findIndex((r) => r < call);
    if (p < 0) p = lastRet.length;
    lastRet[p] = c.status === 'info' ? Infinity : ret;
    timed.push({ ev: { process: p, type: 'invoke', op: c.op, args: c.args, time: call }, order: 0 });
    if (c.status === 'info') return;
    const ev: HistoryEvent = { process: p, type: c.status, op: c.op, time: ret };
    if (c.result !== undefined) ev.result = c.result;
    timed.push({ ev, order: 1 });
  });
  // By time; at equal times completions first (a process's next invoke follows its completion).
  timed.sort((a, b) => a.ev.time - b.ev.time || b.order - a.order);
  return timed.map((t) => t.ev);
}

export function eventsText(events: readonly HistoryEvent[]): string {
  return events.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

/** Brute force is exponential: histories up to this many atomic steps. */
const MAX_BRUTE_FORCE_STEPS = 10;

/**
 * A brute-force oracle: tries every order of the atomic steps that respects real time (and
 * the `after` read order), leaving out any `info` steps. Exponential: tiny histories only.
 */
export function bruteForce(text: string, modelName: string): boolean | null {
  const model: Model = createModel(modelName);
  const ops = readHistory(text);
  const { subs, ctx } = model.prepare(ops);
  if (subs.length > MAX_BRUTE_FORCE_STEPS) return null;
  // Static violations (e.g. a reused id) are part of the model's answer too.
  if (model.precheck(ops, ctx).length) return false;
  const state = new Map<string, unknown>();
  const get = (k: string) => (state.has(k) ? state.get(k) : model.init(k));
  const done = new Set<SubOp>();
  const rec = (): boolean => {
    const left = subs.filter((s) => !done.has(s));
    if (left.every((s) => s.ret === Infinity)) return true;
    for (const s of left) {
      // s may go next only if no remaining step returned before s was invoked.
      if (left.some((o) => o !== s && o.ret < s.call)) continue;
      if (s.after.some((a) => !done.has(a))) continue;
      for (const alt of s.handler.step(s.data, s, get)) {
        const saved = alt.map(([k]) => [k, state.has(k), state.get(k)] as const);
        for (const [k, v] of alt) state.set(k, v);
        done.add(s);
        const ok = rec();
        done.delete(s);
        for (const [k, had, v] of saved) (had ? state.set(k, v) : state.delete(k));
        if (ok) return true;
      }
    }
    return false;
  };
  return rec();
}

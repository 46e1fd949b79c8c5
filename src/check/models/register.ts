// The classic register with read, write and compare-and-swap, keyed by `key` when present,
// so histories from other systems (Jepsen, Porcupine) can be checked too. Every key starts
// at null. A value is any JSON value, compared canonically (object key order ignored).
//
// Partitioning: every op touches exactly one key, and a key's state depends only on the ops
// on that key, so keys are independent objects (locality).
import {
  HandlerModel,
  SAME,
  bad,
  canon,
  reject,
  scopePart,
  type Alt,
  type KeyKind,
  type OpHandler,
  type SubOp,
} from '../model.js';
import { failCode } from '../history.js';

/** State: the canonical JSON of the value. */
const registerKind: KeyKind<string> = {
  prefix: 'r:',
  what: 'register',
  init: () => 'null',
  hash: (s) => s,
  show: (s) => JSON.parse(s) as unknown,
};

const rkey = (args: Record<string, unknown>) => `r:${scopePart(args.key, 'args.key')}`;

const read: OpHandler<{ key: string; value: string }> = {
  name: 'read',
  doc: { args: '{key?}', ok: 'the value (null if never written)' },
  prepare(op) {
    const key = rkey(op.args);
    if (op.status !== 'ok') return []; // an unknown or failed read observes nothing
    return [{ keys: [key], data: { key, value: canon(op.result) }, readOnly: true }];
  },
  step(d, _s, get, why) {
    const cur = get(d.key) as string;
    return cur === d.value ? SAME : reject(why, () => `read ${d.value}, but the register holds ${cur}`);
  },
};

const write: OpHandler<{ key: string; value: string }> = {
  name: 'write',
  doc: { args: '{key?, value}', ok: 'anything (ignored)' },
  prepare(op) {
    const key = rkey(op.args);
    if (!('value' in op.args)) bad('args.value is required');
    if (op.status === 'fail') return [];
    return [{ keys: [key], data: { key, value: canon(op.args.value) } }];
  },
  step(d) {
    return [[[d.key, d.value]]];
  },
};

const cas: OpHandler<{ key: string; from: string; to: string; mismatch: boolean }> = {
  name: 'cas',
  doc: {
    args: '{key?, from, to}  (or Jepsen style {value: [from, to]})',
    ok: 'anything: it applied',
    fail: '{code: "Mismatch"}: checked (the value was not `from`); any other fail did not apply and is left out',
  },
  prepare(op) {
    const key = rkey(op.args);
    let from: unknown;
    let to: unknown;
    if ('from' in op.args && 'to' in op.args) ({ from, to } = op.args);
    else if (Array.isArray(op.args.value) && op.args.value.length === 2) [from, to] = op.args.value as [unknown, unknown];
    else bad('args must have `from` and `to` (or value: [from, to])');
    let mismatch = false;
    if (op.status === 'fail') {
      if (failCode(op)?.code !== 'Mismatch') return [];
      mismatch = true;
    }
    return [{ keys: [key], data: { key, from: canon(from), to: canon(to), mismatch }, readOnly: mismatch }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as string;
    if (d.mismatch) return cur !== d.from ? SAME : reject(why, () => `failed with Mismatch, but the register holds ${cur} = from`);
    if (cur !== d.from) return reject(why, () => `cas from ${d.from}, but the register holds ${cur}`);
    return d.from === d.to ? SAME : [[[d.key, d.to]]];
  },
};

/**
 * Unknown-outcome writes nobody observed (as Knossos and Porcupine users know them: writes
 * cut by a crash whose values no read returned). An `info` write of value v — or `info` cas
 * to v — on key k is set aside when no step on k observes v: no `ok` read returns v, no cas
 * (of any status) expects v as `from`, and no Mismatch cas on k may be linearized after its
 * invocation (returns at or after it).
 *
 * Why that is exact. Without w: any linearization of the rest is one of the whole history
 * (an `info` step may never take effect). With w: take a linearization L where w takes
 * effect; drop w. Until the next step of L that sets the register, L's steps saw v, now they
 * see the state s before w. None of them can exist: an ok read there would return v, a cas
 * that applies there would expect v, a Mismatch there would be after w's invocation — all
 * excluded; an `info` cas that applies there would expect v, also excluded. So the next step
 * after w sets the register whatever it held (a write) or L ends; L without w is valid. Every
 * condition reads only steps that are never set aside (ok reads, cas, Mismatch fails), so
 * setting several aside at once is the same argument applied one at a time.
 */
function setAsideUnobservedWrites(subs: readonly SubOp[]): Set<SubOp> {
  const seen = new Map<string, { values: Set<string>; lastMismatch: number }>();
  const of = (key: string) => {
    let e = seen.get(key);
    if (!e) seen.set(key, (e = { values: new Set(), lastMismatch: -Infinity }));
    return e;
  };
  for (const s of subs) {
    if (s.handler === read) {
      const d = s.data as { key: string; value: string };
      of(d.key).values.add(d.value);
    } else if (s.handler === cas) {
      const d = s.data as { key: string; from: string; mismatch: boolean };
      const e = of(d.key);
      e.values.add(d.from);
      if (d.mismatch) e.lastMismatch = Math.max(e.lastMismatch, s.ret);
    }
  }
  const out = new Set<SubOp>();
  for (const s of subs) {
    if (s.op.status !== 'info') continue;
    let key: string;
    let value: string;
    if (s.handler === write) ({ key, value } = s.data as { key: string; value: string });
    else if (s.handler === cas) ({ key, to: value } = s.data as { key: string; to: string });
    else continue;
    const e = seen.get(key);
    if (e && (e.values.has(value) || e.lastMismatch >= s.call)) continue;
    out.add(s);
  }
  return out;
}

export function registerModel(): HandlerModel {
  return new HandlerModel(
    'register',
    'single register per key: read, write, cas (Jepsen/Porcupine style)',
    [read, write, cas],
    [registerKind],
    [],
    setAsideUnobservedWrites,
  );
}

// Pointers (src/meta/contract.ts): a compare-and-swap register with dense versions.
//
// casPointer {ns?, key, expectedVersion | null, value, fence?, stamp?, applied?} applies
// only if the pointer is at expectedVersion (null: only if absent); its version is then the
// old one + 1 (1 on create). With a fence {scope?, key, epoch}, it applies only while that
// lease is at that epoch.
//
// Fences — the choice made here: a fenced casPointer is one atomic step over TWO keys, the
// pointer and the fence's lease, so the lease's ops and the pointer's ops fall into one
// partition (the union-find joins them) and the fence is checked against the lease epoch of
// the model at the cas's linearization point. That is exact, and stays P-compositional:
// every step still touches a fixed set of keys. When the history has no op at all on the
// fence's lease, its epoch is not observable, and the fence is not checked (neither an ok
// nor a FenceMismatch constrains anything about it).
//
// What justifies a FenceMismatch: the lease is absent, at another epoch, released, or
// (given the cas's `stamp`) expired. What an ok needs: the lease exists at the fence's
// epoch (a backend that also demands "held and not expired" is stricter, which is allowed).
import { failCode } from '../history.js';
import {
  SAME,
  bad,
  canon,
  isObj,
  reject,
  reqInt,
  reqNum,
  reqObj,
  reqString,
  scopePart,
  describeScoped,
  type Alt,
  type KeyKind,
  type OpHandler,
} from '../model.js';
import { leaseKey, observedLeases, type LeaseState } from './lease.js';

export interface PointerState {
  version: number;
  value: string;
  /** The manifest's applied offsets ({partition: offset}, canonical JSON), when the writer said. */
  applied: string | null;
}

export const pointerKind: KeyKind<PointerState | null> = {
  prefix: 'p:',
  what: 'pointer',
  init: () => null,
  hash: (s) => (s === null ? '-' : `${s.version}|${s.applied ?? ''}|${s.value}`),
  show: (s) =>
    s === null ? null : { version: s.version, value: s.value, ...(s.applied ? { applied: JSON.parse(s.applied) as unknown } : {}) },
  describe: (rest) => describeScoped('ns', rest),
};

/** `p:<ns>/<key>`. */
export function pointerKey(ns: unknown, key: string): string {
  return `p:${scopePart(ns, 'args.ns')}/${key}`;
}

/** Validates a manifest's applied offsets {partition: offset}; returns canonical JSON. */
export function appliedArg(v: unknown, where: string): string {
  const o = reqObj(v, where);
  for (const [p, off] of Object.entries(o)) {
    if (!/^\d+$/.test(p)) bad(`${where}: key ${JSON.stringify(p)} is not a partition number`);
    if (typeof off !== 'number' || !Number.isInteger(off) || off < 0) bad(`${where}.${p} must be a non-negative integer`);
  }
  return canon(o);
}

interface CasData {
  key: string;
  expected: number | null;
  value: string;
  applied: string | null;
  fence: { key: string; epoch: number } | null;
  stamp: number | null;
  mode: 'ok' | 'version' | 'fence' | 'info';
  version?: number;
  currentVersion?: number | null;
  currentEpoch?: number;
}

const showP = (s: PointerState | null) => JSON.stringify(pointerKind.show(s));

const casPointer: OpHandler<CasData> = {
  name: 'casPointer',
  doc: {
    args: '{ns?, key, expectedVersion: number|null, value, fence?: {scope?, key, epoch}, stamp?, applied?: {partition: offset}}',
    ok: '{version} (the new version; value optional)',
    fail:
      'VersionMismatch {details: {currentVersion?}} | FenceMismatch {details: {currentEpoch?}}; other codes (NotFound, Claimed…) are left out',
    notes: 'versions are dense: 1 on create, +1 per successful cas. `applied` is the manifest\'s applied offsets, for the collectionHead model.',
  },
  prepare(op, ctx) {
    const a = op.args;
    const key = pointerKey(a.ns, reqString(a, 'key', 'args'));
    if (!('expectedVersion' in a)) bad('args.expectedVersion is required (a number, or null to create)');
    const expected = a.expectedVersion === null ? null : reqInt(a, 'expectedVersion', 'args');
    const d: CasData = {
      key,
      expected,
      value: reqString(a, 'value', 'args'),
      applied: a.applied === undefined ? null : appliedArg(a.applied, 'args.applied'),
      fence: null,
      stamp: null,
      mode: 'info',
    };
    if (a.stamp !== undefined) d.stamp = reqNum(a, 'stamp', 'args');
    if (a.fence !== undefined && a.fence !== null) {
      const f = reqObj(a.fence, 'args.fence');
      const lk = leaseKey(f.scope, reqString(f, 'key', 'args.fence'));
      const epoch = reqInt(f, 'epoch', 'args.fence');
      if (ctx.index('observedLeases', observedLeases).has(lk)) d.fence = { key: lk, epoch };
    }
    if (op.status === 'ok') {
      const r = reqObj(op.result, 'result');
      d.mode = 'ok';
      d.version = reqInt(r, 'version', 'result');
      if (r.value !== undefined && r.value !== d.value) bad(`result.value ${JSON.stringify(r.value)} differs from args.value`);
    } else if (op.status === 'fail') {
      const f = failCode(op);
      if (f?.code === 'VersionMismatch') {
        d.mode = 'version';
        const cv = f.details.currentVersion;
        if (cv === null || (typeof cv === 'number' && Number.isInteger(cv))) d.currentVersion = cv;
      } else if (f?.code === 'FenceMismatch' && d.fence) {
        d.mode = 'fence';
        if (typeof f.details.currentEpoch === 'number') d.currentEpoch = f.details.currentEpoch;
      } else return []; // did not apply, and nothing checkable about why
    }
    return [{ keys: d.fence ? [key, d.fence.key] : [key], data: d, readOnly: d.mode === 'version' || d.mode === 'fence' }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as PointerState | null;
    const lease = d.fence ? (get(d.fence.key) as LeaseState | null) : null;
    const versionOk = d.expected === null ? cur === null : cur !== null && cur.version === d.expected;
    const fenceOk = !d.fence || (lease !== null && lease.epoch === d.fence.epoch);
    const fenceRefusable =
      d.fence !== null &&
      (lease === null || lease.epoch !== d.fence.epoch || lease.released || (d.stamp !== null && lease.deadline < d.stamp));
    const curV = cur?.version ?? null;
    switch (d.mode) {
      case 'version':
        if (versionOk) return reject(why, () => `VersionMismatch, but the pointer is at the expected version ${d.expected ?? 'none'}`);
        if (d.currentVersion !== undefined && d.currentVersion !== curV) {
          return reject(why, () => `VersionMismatch names current version ${d.currentVersion}, the pointer is at ${curV ?? 'none'}`);
        }
        return SAME;
      case 'fence':
        if (!fenceRefusable) return reject(why, () => `FenceMismatch, but the lease is at the fence's epoch ${d.fence!.epoch} and held`);
        if (d.currentEpoch !== undefined && lease !== null && d.currentEpoch !== lease.epoch) {
          return reject(why, () => `FenceMismatch names epoch ${d.currentEpoch}, the lease is at ${lease.epoch}`);
        }
        return SAME;
      default: {
        if (!versionOk) return reject(why, () => `cas expected version ${d.expected ?? 'none'}, but the pointer is ${showP(cur)}`);
        if (!fenceOk) {
          return reject(why, () => `cas fenced at epoch ${d.fence!.epoch}, but the lease is ${lease === null ? 'absent' : `at epoch ${lease.epoch}`}`);
        }
        const version = (curV ?? 0) + 1;
        if (d.mode === 'ok' && d.version !== version) {
          return reject(why, () => `cas returned version ${d.version}, but from ${showP(cur)} the next version is ${version}`);
        }
        return [[[d.key, { version, value: d.value, applied: d.applied }]]];
      }
    }
  },
  // An ok cas needs its expected version, which the pointer never returns to once past it.
  never: (d, _s, get) => d.mode === 'ok' && pointerPassed(get(d.key) as PointerState | null, d.expected),
};

interface ReadData {
  key: string;
  result: { version: number; value?: string } | null;
}

/** Whether the pointer is past version `v` (null: absent): versions never move back. */
export function pointerPassed(cur: PointerState | null, v: number | null): boolean {
  return cur !== null && (v === null || cur.version > v);
}

/** Compares a read pointer with the state. */
export function pointerMatches(cur: PointerState | null, r: { version: number; value?: string; applied?: string } | null): boolean {
  if (r === null || cur === null) return r === cur;
  return r.version === cur.version && (r.value === undefined || r.value === cur.value) && (r.applied === undefined || r.applied === cur.applied);
}

const pointer: OpHandler<ReadData> = {
  name: 'pointer',
  doc: { args: '{ns?, key}', ok: '{version, value} | null' },
  prepare(op) {
    const key = pointerKey(op.args.ns, reqString(op.args, 'key', 'args'));
    if (op.status !== 'ok') return [];
    let result: ReadData['result'] = null;
    if (op.result !== null) {
      if (!isObj(op.result)) bad('result must be {version, value} or null');
      result = { version: reqInt(op.result, 'version', 'result') };
      if (op.result.value !== undefined) result.value = reqString(op.result, 'value', 'result');
    }
    return [{ keys: [key], data: { key, result }, readOnly: true }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as PointerState | null;
    return pointerMatches(cur, d.result) ? SAME : reject(why, () => `read ${JSON.stringify(d.result)}, but the pointer is ${showP(cur)}`);
  },
  never: (d, _s, get) => pointerPassed(get(d.key) as PointerState | null, d.result?.version ?? null),
};

export function pointerHandlers(): OpHandler[] {
  return [casPointer, pointer];
}

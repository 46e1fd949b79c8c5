// Leases (src/meta/contract.ts, spec §3.2): acquireLease, renewLease, releaseLease, lease.
// One key per (scope, key); every lease op touches only its own lease, so leases are
// independent objects and the history partitions by lease (locality).
//
// Expiry is judged on the stamp the caller passed (spec §3.2), which the recorder must put
// in the args: a lease has expired for a proposer when deadline < stamp.
import { failCode, type Op } from '../history.js';
import {
  NONE,
  SAME,
  bad,
  isObj,
  reject,
  reqInt,
  reqNum,
  reqString,
  scopePart,
  describeScoped,
  type Alt,
  type KeyKind,
  type OpHandler,
} from '../model.js';

export interface LeaseState {
  /** The last holder (kept after release, for idempotent releases; reads show null then). */
  owner: string;
  epoch: number;
  deadline: number;
  released: boolean;
}

export const leaseKind: KeyKind<LeaseState | null> = {
  prefix: 'l:',
  what: 'lease',
  init: () => null,
  hash: (s) => (s === null ? '-' : `${s.epoch}|${s.released ? 1 : 0}|${s.deadline}|${s.owner}`),
  show: (s) => (s === null ? null : { owner: s.released ? null : s.owner, epoch: s.epoch, deadline: s.deadline, released: s.released }),
  describe: (rest) => describeScoped('scope', rest),
};

/** The key of a lease: `l:<scope>/<key>` (scope: a namespace id, 'cluster', or absent). */
export function leaseKey(scope: unknown, key: string): string {
  return `l:${scopePart(scope, 'scope')}/${key}`;
}

export const LEASE_OPS = ['acquireLease', 'renewLease', 'releaseLease', 'lease'] as const;

/** Lease keys the history has lease operations on (a fence is checked only against those). */
export function observedLeases(ops: readonly Op[]): Set<string> {
  const s = new Set<string>();
  for (const op of ops) {
    if ((LEASE_OPS as readonly string[]).includes(op.name) && typeof op.args.key === 'string') {
      s.add(leaseKey(op.args.scope, op.args.key));
    }
  }
  return s;
}

function argKey(args: Record<string, unknown>): string {
  return leaseKey(args.scope, reqString(args, 'key', 'args'));
}

interface LeaseResult {
  owner?: string | null;
  epoch?: number;
  deadline?: number;
}

function leaseResult(v: unknown, where: string): LeaseResult {
  if (!isObj(v)) bad(`${where} must be a lease object {owner, epoch, deadline}`);
  const r: LeaseResult = {};
  if (v.epoch !== undefined) r.epoch = reqInt(v, 'epoch', where);
  if (v.deadline !== undefined) r.deadline = reqNum(v, 'deadline', where);
  if (v.owner !== undefined) {
    if (v.owner !== null && typeof v.owner !== 'string') bad(`${where}.owner must be a string or null`);
    r.owner = v.owner;
  }
  return r;
}

function matches(s: LeaseState, r: LeaseResult): boolean {
  return (
    (r.epoch === undefined || r.epoch === s.epoch) &&
    (r.deadline === undefined || r.deadline === s.deadline) &&
    (r.owner === undefined || r.owner === s.owner)
  );
}

const show = (s: LeaseState | null) => JSON.stringify(leaseKind.show(s));

/**
 * Deadlines an extension (the holder acquiring again, or renewing) may set: stamp + ttlMs,
 * or — a backend that never shortens a lease — max(current deadline, stamp + ttlMs).
 */
function extended(current: number, fresh: number): number[] {
  return current > fresh ? [fresh, current] : [fresh];
}

interface AcquireData {
  key: string;
  owner: string;
  ttlMs: number;
  stamp: number;
  mode: 'ok' | 'held' | 'info';
  result: LeaseResult;
  holder?: string | null;
  currentEpoch?: number;
}

const acquireLease: OpHandler<AcquireData> = {
  name: 'acquireLease',
  doc: {
    args: '{scope?, key, owner, ttlMs, stamp}',
    ok: '{owner, epoch, deadline} (the lease)',
    fail: 'LeaseHeld {details: {holder?, currentEpoch?}}; other codes are left out',
    notes:
      'free, released or expired (deadline < stamp): taken over at epoch+1 (the first epoch is 1), deadline = stamp + ttlMs; ' +
      'held by the same owner: extended at the same epoch, deadline stamp + ttlMs or max(deadline, stamp + ttlMs) ' +
      '(an expired lease of the same owner may be extended or taken over); held by another: LeaseHeld',
  },
  prepare(op) {
    const a = op.args;
    const d: AcquireData = {
      key: argKey(a),
      owner: reqString(a, 'owner', 'args'),
      ttlMs: reqNum(a, 'ttlMs', 'args'),
      stamp: reqNum(a, 'stamp', 'args'),
      mode: 'info',
      result: {},
    };
    if (op.status === 'ok') {
      d.mode = 'ok';
      d.result = leaseResult(op.result, 'result');
    } else if (op.status === 'fail') {
      const f = failCode(op);
      if (f?.code !== 'LeaseHeld') return [];
      d.mode = 'held';
      if (typeof f.details.holder === 'string') d.holder = f.details.holder;
      if (typeof f.details.currentEpoch === 'number') d.currentEpoch = f.details.currentEpoch;
    }
    return [{ keys: [d.key], data: d, readOnly: d.mode === 'held' }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as LeaseState | null;
    const deadline = d.stamp + d.ttlMs;
    const heldByOther = cur !== null && !cur.released && cur.deadline >= d.stamp && cur.owner !== d.owner;
    if (d.mode === 'held') {
      if (!heldByOther) return reject(why, () => `LeaseHeld, but the lease is ${show(cur)} at stamp ${d.stamp}`);
      if (d.holder !== undefined && d.holder !== cur!.owner) return reject(why, () => `LeaseHeld names holder ${d.holder}, the holder is ${cur!.owner}`);
      if (d.currentEpoch !== undefined && d.currentEpoch !== cur!.epoch) {
        return reject(why, () => `LeaseHeld names epoch ${d.currentEpoch}, the lease is at epoch ${cur!.epoch}`);
      }
      return SAME;
    }
    if (heldByOther) return reject(why, () => `acquired, but the lease is held by ${cur!.owner} until ${cur!.deadline} (stamp ${d.stamp})`);
    const options: LeaseState[] = [];
    if (cur === null) options.push({ owner: d.owner, epoch: 1, deadline, released: false });
    else {
      const expired = cur.deadline < d.stamp;
      if (cur.released || expired) options.push({ owner: d.owner, epoch: cur.epoch + 1, deadline, released: false });
      if (!cur.released && cur.owner === d.owner) {
        for (const dl of extended(cur.deadline, deadline)) options.push({ owner: d.owner, epoch: cur.epoch, deadline: dl, released: false });
      }
    }
    const fit = d.mode === 'ok' ? options.filter((s) => matches(s, d.result)) : options;
    if (!fit.length) {
      return reject(why, () => `acquired as ${JSON.stringify(d.result)}, but from ${show(cur)} at stamp ${d.stamp} it would be ${options.map(show).join(' or ')}`);
    }
    return fit.map((s) => [[d.key, s]] as Alt);
  },
};

interface RenewData {
  key: string;
  owner: string;
  epoch: number;
  ttlMs: number;
  stamp: number;
  mode: 'ok' | 'fence' | 'notfound' | 'info';
  result: LeaseResult;
}

const renewLease: OpHandler<RenewData> = {
  name: 'renewLease',
  doc: {
    args: '{scope?, key, owner, epoch, ttlMs, stamp}',
    ok: '{owner, epoch, deadline}',
    fail: 'FenceMismatch | NotFound; other codes are left out',
    notes:
      'extends (deadline = stamp + ttlMs, or max(deadline, stamp + ttlMs)) while owner and epoch match, not released and not expired (deadline >= stamp)',
  },
  prepare(op) {
    const a = op.args;
    const d: RenewData = {
      key: argKey(a),
      owner: reqString(a, 'owner', 'args'),
      epoch: reqInt(a, 'epoch', 'args'),
      ttlMs: reqNum(a, 'ttlMs', 'args'),
      stamp: reqNum(a, 'stamp', 'args'),
      mode: 'info',
      result: {},
    };
    if (op.status === 'ok') {
      d.mode = 'ok';
      d.result = leaseResult(op.result, 'result');
    } else if (op.status === 'fail') {
      const c = failCode(op)?.code;
      if (c === 'FenceMismatch') d.mode = 'fence';
      else if (c === 'NotFound') d.mode = 'notfound';
      else return [];
    }
    return [{ keys: [d.key], data: d, readOnly: d.mode === 'fence' || d.mode === 'notfound' }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as LeaseState | null;
    const live = cur !== null && !cur.released && cur.owner === d.owner && cur.epoch === d.epoch && cur.deadline >= d.stamp;
    if (d.mode === 'fence') return !live ? SAME : reject(why, () => `FenceMismatch, but ${d.owner} holds the lease at epoch ${d.epoch} until ${cur!.deadline} (stamp ${d.stamp})`);
    if (d.mode === 'notfound') return cur === null ? SAME : reject(why, () => `NotFound, but the lease is ${show(cur)}`);
    if (!live) return reject(why, () => `renewed by ${d.owner} at epoch ${d.epoch} (stamp ${d.stamp}), but the lease is ${show(cur)}`);
    const options = extended(cur.deadline, d.stamp + d.ttlMs).map((deadline): LeaseState => ({ ...cur, deadline }));
    const fit = d.mode === 'ok' ? options.filter((o) => matches(o, d.result)) : options;
    if (!fit.length) return reject(why, () => `renewed as ${JSON.stringify(d.result)}, expected ${options.map(show).join(' or ')}`);
    return fit.map((o) => [[d.key, o]] as Alt);
  },
};

interface ReleaseData {
  key: string;
  owner: string;
  epoch: number;
  stamp?: number;
  mode: 'ok' | 'fence' | 'notfound' | 'info';
}

const releaseLease: OpHandler<ReleaseData> = {
  name: 'releaseLease',
  doc: {
    args: '{scope?, key, owner, epoch, stamp?}',
    ok: 'anything (void)',
    fail: 'FenceMismatch | NotFound; other codes are left out',
    notes:
      'frees the lease keeping its epoch (reads then show owner null); idempotent for the same owner and epoch; ' +
      'a stale owner or epoch is FenceMismatch. With `stamp`, a release past the deadline may also be refused.',
  },
  prepare(op) {
    const a = op.args;
    const d: ReleaseData = {
      key: argKey(a),
      owner: reqString(a, 'owner', 'args'),
      epoch: reqInt(a, 'epoch', 'args'),
      mode: 'info',
    };
    if (a.stamp !== undefined) d.stamp = reqNum(a, 'stamp', 'args');
    if (op.status === 'ok') d.mode = 'ok';
    else if (op.status === 'fail') {
      const c = failCode(op)?.code;
      if (c === 'FenceMismatch') d.mode = 'fence';
      else if (c === 'NotFound') d.mode = 'notfound';
      else return [];
    }
    return [{ keys: [d.key], data: d, readOnly: d.mode === 'fence' || d.mode === 'notfound' }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as LeaseState | null;
    const mine = cur !== null && cur.epoch === d.epoch && cur.owner === d.owner;
    // Once released, who released it is not part of the contract: another owner releasing
    // the same epoch again may be accepted (idempotent) or refused.
    const ambiguous =
      cur !== null &&
      cur.epoch === d.epoch &&
      ((cur.released && cur.owner !== d.owner) || (mine && !cur.released && d.stamp !== undefined && cur.deadline < d.stamp));
    switch (d.mode) {
      case 'notfound':
        return cur === null ? SAME : reject(why, () => `NotFound, but the lease is ${show(cur)}`);
      case 'fence':
        return !mine || ambiguous ? SAME : reject(why, () => `FenceMismatch, but ${d.owner} holds epoch ${d.epoch}: ${show(cur)}`);
      case 'ok':
        if (mine) return cur.released ? SAME : [[[d.key, { ...cur, released: true }]]];
        if (ambiguous) return SAME;
        return reject(why, () => `released by ${d.owner} at epoch ${d.epoch}, but the lease is ${show(cur)}`);
      case 'info':
        return mine && !cur.released ? [[[d.key, { ...cur, released: true }]]] : NONE;
    }
  },
};

interface ReadData {
  key: string;
  result: LeaseResult | null;
}

const lease: OpHandler<ReadData> = {
  name: 'lease',
  doc: { args: '{scope?, key}', ok: '{owner (null once released), epoch, deadline} | null' },
  prepare(op) {
    const key = argKey(op.args);
    if (op.status !== 'ok') return [];
    return [{ keys: [key], data: { key, result: op.result === null ? null : leaseResult(op.result, 'result') }, readOnly: true }];
  },
  step(d, _s, get, why): Alt[] {
    const cur = get(d.key) as LeaseState | null;
    const r = d.result;
    if (r === null || cur === null) return r === cur ? SAME : reject(why, () => `read ${JSON.stringify(r)}, but the lease is ${show(cur)}`);
    const owner = cur.released ? null : cur.owner;
    const ok =
      (r.epoch === undefined || r.epoch === cur.epoch) &&
      (r.owner === undefined || r.owner === owner) &&
      (cur.released || r.deadline === undefined || r.deadline === cur.deadline);
    return ok ? SAME : reject(why, () => `read ${JSON.stringify(r)}, but the lease is ${show(cur)}`);
  },
};

export function leaseHandlers(): OpHandler[] {
  return [acquireLease, renewLease, releaseLease, lease];
}

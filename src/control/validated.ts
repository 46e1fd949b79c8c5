// The ControlStore's one validating wrapper (as the MetaStore's, src/meta/core/checks.ts):
// every call's arguments are checked here, the same on every backend, before a backend maps
// them to its engine — whose own refusals of a value (Postgres: a NUL in text, a number past
// bigint; DynamoDB: an empty or over-long key attribute) would otherwise reach the caller as a
// defect instead of InvalidArgument naming the field. Point reads of an id no record can have
// answer NotFound, as for a missing one. The checks each backend already makes first, beside
// its SQL and items (./validate.ts: records, names, nodes, jobs), are not made again here.
import { errors } from '../meta/errors.js';
import { MAX_NAME_LENGTH } from '../meta/limits.js';
import type { PageRequest } from '../meta/types.js';
import { ERASURE_ID_PATTERN, MAX_TOUCH_BATCH, type ControlStore } from './types.js';
import { checkBatch, checkOrg, USAGE_METRIC_PATTERN } from './validate.js';
import { parseUsageCursor } from './rules.js';

/** A page cursor's length at most: the last item's id, or for bindings its three parts (well under DynamoDB's 1 KiB sort key). */
export const MAX_CONTROL_CURSOR_LENGTH = 256;

const KEY_ID = /^[0-9a-f]{16}$/;
const SUBJECT = /^key:[0-9a-f]{16}$/;

const isStr = (v: unknown): v is string => typeof v === 'string';
const show = (v: unknown): string => (isStr(v) ? JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v) : String(v));

function at(v: number | undefined, field = 'at'): void {
  if (v !== undefined && !(Number.isSafeInteger(v) && v >= 0)) throw errors.invalid(field, `must be epoch ms (a non-negative integer), got ${show(v)}`);
}
function nonNeg(field: string, v: unknown): void {
  if (!(typeof v === 'number' && Number.isSafeInteger(v) && v >= 0)) throw errors.invalid(field, `must be a non-negative integer, got ${show(v)}`);
}
function keyId(v: unknown, field = 'keyId'): void {
  if (!isStr(v) || !KEY_ID.test(v)) throw errors.invalid(field, `must be 16 hex digits, got ${show(v)}`);
}
function erasureId(v: unknown): void {
  if (!isStr(v) || !ERASURE_ID_PATTERN.test(v)) throw errors.invalid('id', `must be an erasure id (er_…), got ${show(v)}`);
}
/** A cursor from an earlier page: `valid` tells one this list can have made. */
function page(p: PageRequest | undefined, valid: (after: string) => boolean): void {
  const after = p?.after;
  if (after === undefined) return;
  if (!isStr(after) || after.length > MAX_CONTROL_CURSOR_LENGTH || !valid(after)) throw errors.invalid('page.after', 'must be the next cursor of a previous page');
}
const validOrg = (v: string) => v.length <= MAX_NAME_LENGTH && !v.includes('\u0000');
/** A point read: an id no record can have is NotFound, as a missing one. */
function findable(ok: boolean, what: string): void {
  if (!ok) throw errors.notFound(what);
}

type Checks = { [K in keyof ControlStore]?: ControlStore[K] extends (...a: infer A) => unknown ? (...a: A) => void : never };

const CHECKS: Checks = {
  createOrg: (_id, t) => at(t),
  org: (id) => findable(isStr(id) && validOrg(id) && id !== '', `org ${show(id)}`),
  listOrgs: (p) => page(p, validOrg),
  key: (id) => findable(isStr(id) && KEY_ID.test(id), `key ${show(id)}`),
  listKeys: (org, p) => (checkOrg(org), page(p, (a) => KEY_ID.test(a))),
  revokeKey: (org, id, t) => (checkOrg(org), keyId(id), at(t)),
  touchKeys: (touches) => {
    checkBatch('MAX_TOUCH_BATCH', touches);
    for (let i = 0; i < Math.min(touches.length, MAX_TOUCH_BATCH); i++) (keyId(touches[i]!.keyId, `touches[${i}].keyId`), at(touches[i]!.at, `touches[${i}].at`));
  },
  bindings: (org, subject) => {
    checkOrg(org);
    if (!isStr(subject) || !SUBJECT.test(subject)) throw errors.invalid('subject', `must be key:<key_id>, got ${show(subject)}`);
  },
  listBindings: (org, p) => (checkOrg(org), page(p, () => true)),
  dropNamespaceBindings: (org, ns) => (checkOrg(org), nonNeg('ns', ns)),
  quotas: (org) => checkOrg(org),
  putUsage: (_rows, t) => at(t),
  addUsage: (_rows, t) => at(t),
  usage: (org, o) => {
    checkOrg(org);
    if (o?.metric !== undefined && !(isStr(o.metric) && USAGE_METRIC_PATTERN.test(o.metric))) throw errors.invalid('metric', `must be a usage metric name, got ${show(o.metric)}`);
    at(o?.since, 'since');
    if (o?.after !== undefined) parseUsageCursor(isStr(o.after) ? o.after : String(o.after));
  },
  heartbeat: (_node, _ttl, t) => at(t),
  members: (t) => at(t),
  ackOutbox: (seqs) => {
    if (!Array.isArray(seqs)) throw errors.invalid('seqs', 'must be a list of outbox sequence numbers');
    checkBatch('MAX_OUTBOX_PAGE', seqs);
    seqs.forEach((s, i) => nonNeg(`seqs[${i}]`, s));
  },
  saveJobPosition: (_job, _position, t) => at(t),
  namespaceKeys: (ns) => nonNeg('ns', ns),
  destroyNamespaceKeys: (ns, t) => (nonNeg('ns', ns), at(t)),
  erasureKeys: (org) => checkOrg(org),
  destroyErasureKeys: (org, t) => (checkOrg(org), at(t)),
  erasure: (id) => findable(isStr(id) && ERASURE_ID_PATTERN.test(id), `erasure ${show(id)}`),
  updateErasure: (id, expected) => (erasureId(id), nonNeg('expectedVersion', expected)),
  listErasures: (o) => {
    if (o?.org !== undefined) checkOrg(o.org);
    if (o?.after !== undefined && !(isStr(o.after) && ERASURE_ID_PATTERN.test(o.after))) throw errors.invalid('after', 'must be the next cursor of a previous page');
  },
  changesSince: (after) => nonNeg('after', after),
};

/** `cs` with every call's arguments checked first (the wrapper every opened ControlStore wears); its other members are cs's own, bound to it. */
export function validatedControl(cs: ControlStore): ControlStore {
  const checked = new Map<PropertyKey, unknown>();
  for (const [method, check] of Object.entries(CHECKS) as [keyof ControlStore, (...a: unknown[]) => void][]) {
    const fn = (cs[method] as (...a: unknown[]) => Promise<unknown>).bind(cs);
    checked.set(method, (...args: unknown[]) => {
      try {
        check(...args);
      } catch (e) {
        return Promise.reject(e);
      }
      return fn(...args);
    });
  }
  const bound = new Map<PropertyKey, unknown>();
  return new Proxy(cs, {
    get(target, prop) {
      if (checked.has(prop)) return checked.get(prop);
      const v: unknown = Reflect.get(target, prop, target);
      if (typeof v !== 'function') return v;
      if (!bound.has(prop)) bound.set(prop, (v as (...a: unknown[]) => unknown).bind(target));
      return bound.get(prop);
    },
  });
}

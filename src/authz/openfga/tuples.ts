// Loam's relations as OpenFGA tuples (spec §7), and the tuples the ControlStore says should
// exist. Object ids are global: org:{org}, namespace:{org}/{ns_id}. Only key relations are
// stored: a key's membership of its org (`member`) and its role bindings (one tuple each).
// Structure (a namespace's org) is not stored: it is in the object id itself, and checks pass
// it as a contextual tuple, so creating or dropping a namespace writes no tuple and none can
// be orphaned by it.
import type { TupleKey } from '@openfga/sdk';
import type { MetaStore } from '../../meta/contract.js';
import { isMetaError } from '../../meta/errors.js';
import { OPERATOR_ROLE, ROLES, type ControlStore, type OutboxEntry } from '../../control/types.js';
import type { ActionClass } from '../authorizer.js';

/** A relation of one key, as the outbox names it (OutboxEntry without its seq and time). */
export type KeyRelation = Pick<OutboxEntry, 'org' | 'subject' | 'relation' | 'target'>;

/** The effective relation of each action class (model.fga). */
export const EFFECTIVE: Record<ActionClass, string> = {
  read: 'can_read',
  write: 'can_write',
  ns_admin: 'can_ns_admin',
  org_admin: 'can_org_admin',
  operator: 'can_operate',
};

/** Relations Loam writes: membership and the grantable roles. */
const WRITTEN = new Set<string>(['member', ...ROLES, OPERATOR_ROLE]);

export const orgObject = (org: string): string => `org:${org}`;
export const namespaceObject = (org: string, ns: number): string => `namespace:${org}/${ns}`;

/** 'key:<id>' → 'api_key:<id>'; null for any other subject (none is written). */
export function userOf(subject: string): string | null {
  return subject.startsWith('key:') && subject.length > 4 ? `api_key:${subject.slice(4)}` : null;
}

/** The contextual tuple that places a namespace in its org (derived from its id, never stored). */
export function parentTuple(org: string, ns: number): TupleKey {
  return { user: orgObject(org), relation: 'org', object: namespaceObject(org, ns) };
}

/** The tuple of a key relation; null when the relation is not one Loam writes. */
export function tupleOf(k: KeyRelation): TupleKey | null {
  const user = userOf(k.subject);
  if (!user || !WRITTEN.has(k.relation)) return null;
  if (k.relation === 'member') return k.target === 'org' ? { user, relation: 'member', object: orgObject(k.org) } : null;
  if (k.target === 'org') return { user, relation: k.relation, object: orgObject(k.org) };
  const m = /^ns:(\d+)$/.exec(k.target);
  return m ? { user, relation: k.relation, object: namespaceObject(k.org, Number(m[1])) } : null;
}

/** The key relation a stored tuple stands for; null when it is not of Loam's shape (reconcile deletes it). */
export function relationOf(t: { user: string; relation: string; object: string }): KeyRelation | null {
  const u = /^api_key:([^:#]+)$/.exec(t.user);
  if (!u || !WRITTEN.has(t.relation)) return null;
  const subject = `key:${u[1]}`;
  const o = /^org:([^/]+)$/.exec(t.object);
  if (o) return { org: o[1]!, subject, relation: t.relation, target: 'org' };
  const n = /^namespace:([^/]+)\/(\d+)$/.exec(t.object);
  if (n && t.relation !== 'member') return { org: n[1]!, subject, relation: t.relation, target: `ns:${n[2]}` };
  return null;
}

/** Whether a tuple is Loam's own bookkeeping (model versions), which reconcile leaves alone. */
export function isBookkeeping(t: { object: string }): boolean {
  return t.object.startsWith('model_version:');
}

export const tupleId = (t: TupleKey): string => `${t.user}\u0000${t.relation}\u0000${t.object}`;

/**
 * Whether the ControlStore (and, for a namespace, the metastore) says this relation holds now:
 * membership while the key exists in that org unrevoked, a role while its binding exists (on
 * a namespace that still exists). The drainer, the hooks and reconcile all decide by this, so
 * the order outbox entries are seen in does not matter.
 */
export class DesiredState {
  constructor(
    private readonly control: ControlStore,
    private readonly meta: MetaStore,
  ) {}

  async holds(k: KeyRelation): Promise<boolean> {
    if (!tupleOf(k)) return false;
    if (k.relation === 'member') {
      try {
        const rec = await this.control.key(k.subject.slice(4));
        return rec.org === k.org && rec.revoked === null;
      } catch (e) {
        if (isMetaError(e, 'NotFound')) return false;
        throw e;
      }
    }
    const bound = (await this.control.bindings(k.org, k.subject)).some(
      (b) => b.role === k.relation && (b.target.kind === 'org' ? k.target === 'org' : k.target === `ns:${b.target.ns}`),
    );
    if (!bound || k.target === 'org') return bound;
    try {
      return (await this.meta.namespace(Number(k.target.slice(3)))).org === k.org;
    } catch (e) {
      if (isMetaError(e, 'NotFound')) return false;
      throw e;
    }
  }
}

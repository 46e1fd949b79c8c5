// Authorization (spec §7): every surface maps a request to (action, resource) and asks an
// Authorizer. The interface follows Lakekeeper's in Loam's terms, so an OpenFGA
// implementation (object ids namespace:{org}/{ns_id}, collection:{org}/{ns_id}/{cid}, a
// tenant fence on every relation) can replace the built-in one without touching callers.
import { OPERATOR_ORG, type ControlStore, type RoleBinding, type RoleName } from '../control/types.js';

/** Who is calling: a key of one org, narrowed by its scopes (spec §6). */
export interface Principal {
  org: string;
  /** 'key:<key_id>', or null when authentication is off (loopback development). */
  subject: string | null;
  scopes?: readonly string[];
}

export const ACTIONS = [
  'org.read',
  'org.manage',
  'namespace.create',
  'namespace.list',
  'namespace.read',
  'namespace.delete',
  'namespace.key.read',
  'namespace.key.manage',
  'collection.create',
  'collection.list',
  'collection.read',
  'collection.delete',
  'collection.retention.set',
  'documents.read',
  'documents.write',
  'documents.erase',
  'erasure.read',
  // The operator's (on the deployment: the resource { kind: 'org', org: OPERATOR_ORG }).
  'org.create',
  'org.list',
  'quota.read',
  'quota.set',
  'usage.read',
  'erasure.audit',
] as const;
export type Action = (typeof ACTIONS)[number];

export type Resource =
  | { kind: 'org'; org: string }
  /** ns is null when the name resolves to nothing in the principal's org (a 404 follows). */
  | { kind: 'namespace'; org: string; ns: number | null; name: string }
  | { kind: 'collection'; org: string; ns: number | null; name: string; collection: string };

export type LifecycleEvent =
  | { kind: 'org'; org: string }
  | { kind: 'namespace'; org: string; ns: number; name: string }
  | { kind: 'collection'; org: string; ns: number; collection: number }
  | { kind: 'key'; org: string; keyId: string; role?: RoleName; ns?: number };

export interface Authorizer {
  check(p: Principal, action: Action, r: Resource): Promise<boolean>;
  batchCheck(p: Principal, checks: { action: Action; resource: Resource }[]): Promise<boolean[]>;
  /** The resources `p` may `action`, in their order. */
  filterVisible<R extends Resource>(p: Principal, action: Action, rs: R[]): Promise<R[]>;
  onCreated(e: LifecycleEvent): Promise<void>;
  onDeleted(e: LifecycleEvent): Promise<void>;
  /** First start: `subject` becomes the org's admin. */
  bootstrap(org: string, subject: string): Promise<void>;
  /** Drops cached decisions of a subject (the change feed calls it). */
  invalidate(org: string, subject: string | null): void;
  /** Connects what the authorizer needs before the node serves (the OpenFGA server, its model). */
  start?(): Promise<void>;
  /** Stops its background work (the OpenFGA outbox drainer). */
  close?(): Promise<void>;
}

/** The action classes roles and scopes are defined by. */
export type ActionClass = 'read' | 'write' | 'ns_admin' | 'org_admin' | 'operator';
type Class = ActionClass;
export const CLASS: Record<Action, Class> = {
  'org.read': 'read',
  'org.manage': 'org_admin',
  'namespace.create': 'org_admin',
  'namespace.list': 'read',
  'namespace.read': 'read',
  'namespace.delete': 'ns_admin',
  // A namespace's key (spec §9.8): rotating it, and destroying it (which makes all of the
  // namespace's data unreadable for good, like dropping it), are a namespace admin's; so is
  // reading its versions and key references.
  'namespace.key.read': 'ns_admin',
  'namespace.key.manage': 'ns_admin',
  'collection.create': 'ns_admin',
  'collection.list': 'read',
  'collection.read': 'read',
  'collection.delete': 'ns_admin',
  // Shortening it gives up history (a restore's and a reader's grace), lengthening it costs
  // storage: a namespace admin's decision, like dropping the collection, not a writer's.
  'collection.retention.set': 'ns_admin',
  'documents.read': 'read',
  'documents.write': 'write',
  // An erasure releases time travel and rewrites tags (spec §9.2, §9.5): history is given up, a namespace admin's decision.
  'documents.erase': 'ns_admin',
  // The erasure log holds pseudonymous hashes (spec §9.6): only the org's admin and the operator's audit read it.
  'erasure.read': 'org_admin',
  'org.create': 'operator',
  'org.list': 'operator',
  'quota.read': 'operator',
  'quota.set': 'operator',
  'usage.read': 'operator',
  'erasure.audit': 'operator',
};
export const ROLE_CLASSES: Record<RoleName, ReadonlySet<Class>> = {
  reader: new Set(['read']),
  writer: new Set(['read', 'write']),
  namespace_admin: new Set(['read', 'write', 'ns_admin']),
  org_admin: new Set(['read', 'write', 'ns_admin', 'org_admin']),
  // Bound only in OPERATOR_ORG, which holds no data: of read and org_admin, only org.read and
  // org.manage (its own keys) apply there (OPERATOR_ORG_ACTIONS).
  operator: new Set(['read', 'org_admin', 'operator']),
};
/** What a key's scopes allow; 'admin' covers the operator's actions too (only an operator key can use them). */
export const SCOPE_CLASSES: Record<string, ReadonlySet<Class>> = {
  '*': new Set(['read', 'write', 'ns_admin', 'org_admin', 'operator']),
  read: new Set(['read']),
  write: new Set(['write']),
  admin: new Set(['ns_admin', 'org_admin', 'operator']),
};
/** The actions a principal of OPERATOR_ORG may take: the operator's, and its own org's keys and bindings. */
export const OPERATOR_ORG_ACTIONS: ReadonlySet<Action> = new Set(ACTIONS.filter((a) => CLASS[a] === 'operator' || a === 'org.read' || a === 'org.manage'));

/** The actions a role grants (before scopes narrow them). */
export function roleActions(role: RoleName): Action[] {
  return ACTIONS.filter((a) => ROLE_CLASSES[role].has(CLASS[a]));
}

/** How long a subject's bindings are trusted without a change-feed event (the feed evicts sooner). */
export const BINDINGS_CACHE_MS = 30_000;
/** Subjects cached, at most. */
export const BINDINGS_CACHE_ENTRIES = 100_000;

/**
 * The rules every authorizer applies before it looks at any role binding (so OpenFGA and the
 * built-in one decide alike): false refuses, true allows (authentication off), 'bindings'
 * leaves it to the principal's roles. The tenant fence comes first: nothing below can grant
 * across orgs. Scopes are the key's, not relations: they only narrow.
 */
export function decideBeforeBindings(p: Principal, action: Action, r: Resource): boolean | 'bindings' {
  if (r.org !== p.org) return false;
  // The operator org holds no namespaces; its keys manage orgs and quotas, and themselves.
  if (p.org === OPERATOR_ORG && !OPERATOR_ORG_ACTIONS.has(action)) return false;
  if (p.org !== OPERATOR_ORG && CLASS[action] === 'operator') return false;
  if (p.subject === null) return true; // authentication off: one trusted local user
  const cls = CLASS[action];
  const scopes = p.scopes ?? [];
  if (!scopes.some((s) => SCOPE_CLASSES[s]?.has(cls))) return false;
  const nsScopes = scopes.filter((s) => s.startsWith('ns:')).map((s) => s.slice(3));
  if (nsScopes.length > 0) {
    // A namespace-scoped key reaches only its namespaces, and nothing org-wide but listing.
    if (r.kind === 'org') {
      if (!openToEveryMember(action, r)) return false;
    } else if (!nsScopes.includes(r.name)) return false;
  }
  return 'bindings';
}

/** Listing namespaces and reading the org are open to every key holding any role in the org; lists are then filtered. */
export function openToEveryMember(action: Action, r: Resource): boolean {
  return r.kind === 'org' && (action === 'namespace.list' || action === 'org.read');
}

/**
 * The built-in authorizer: roles (org admin, namespace admin, writer, reader) granted on an
 * org or a namespace, narrowed by the key's scopes, behind a tenant fence: a principal of
 * one org is refused everything in another, whatever any binding says.
 */
export class BuiltinAuthorizer implements Authorizer {
  private readonly cache = new Map<string, { at: number; bindings: Promise<RoleBinding[]> }>();
  constructor(
    private readonly cs: ControlStore,
    private readonly now: () => number = Date.now,
  ) {}

  private bindings(org: string, subject: string): Promise<RoleBinding[]> {
    const k = `${org}\u0000${subject}`;
    const e = this.cache.get(k);
    if (e && this.now() - e.at < BINDINGS_CACHE_MS) return e.bindings;
    if (this.cache.size >= BINDINGS_CACHE_ENTRIES) this.cache.clear();
    const p = this.cs.bindings(org, subject);
    p.catch(() => this.cache.delete(k));
    this.cache.set(k, { at: this.now(), bindings: p });
    return p;
  }

  invalidate(org: string, subject: string | null): void {
    if (subject === null) this.cache.clear();
    else this.cache.delete(`${org}\u0000${subject}`);
  }

  async check(p: Principal, action: Action, r: Resource): Promise<boolean> {
    const pre = decideBeforeBindings(p, action, r);
    if (pre !== 'bindings') return pre;
    const cls = CLASS[action];
    const bs = await this.bindings(p.org, p.subject!);
    if (openToEveryMember(action, r)) return bs.length > 0;
    return bs.some((b) => {
      if (b.org !== p.org || !ROLE_CLASSES[b.role].has(cls)) return false;
      if (b.target.kind === 'org') return true;
      return r.kind !== 'org' && r.ns !== null && b.target.ns === r.ns;
    });
  }

  async batchCheck(p: Principal, checks: { action: Action; resource: Resource }[]): Promise<boolean[]> {
    return Promise.all(checks.map((c) => this.check(p, c.action, c.resource)));
  }

  async filterVisible<R extends Resource>(p: Principal, action: Action, rs: R[]): Promise<R[]> {
    const ok = await this.batchCheck(p, rs.map((resource) => ({ action, resource })));
    return rs.filter((_, i) => ok[i]);
  }

  async onCreated(e: LifecycleEvent): Promise<void> {
    if (e.kind === 'key' && e.role) {
      await this.cs.grant({
        org: e.org,
        subject: `key:${e.keyId}`,
        role: e.role,
        target: e.ns === undefined ? { kind: 'org' } : { kind: 'namespace', ns: e.ns },
      });
    }
  }

  async onDeleted(e: LifecycleEvent): Promise<void> {
    if (e.kind === 'namespace') await this.cs.dropNamespaceBindings(e.org, e.ns);
  }

  async bootstrap(org: string, subject: string): Promise<void> {
    await this.cs.grant({ org, subject, role: 'org_admin', target: { kind: 'org' } });
  }
}

/**
 * Whether scopes `inner` narrow at least as much as `outer`: every action class they allow
 * is allowed by `outer`, and if `outer` restricts to namespaces (ns:<name>), `inner` does too,
 * to some of those.
 */
export function scopesWithin(inner: readonly string[], outer: readonly string[]): boolean {
  const classes = (ss: readonly string[]) => new Set(ss.flatMap((s) => [...(SCOPE_CLASSES[s] ?? [])]));
  const namespaces = (ss: readonly string[]) => ss.filter((s) => s.startsWith('ns:'));
  const outerClasses = classes(outer);
  if (![...classes(inner)].every((c) => outerClasses.has(c))) return false;
  const outerNs = namespaces(outer);
  if (outerNs.length === 0) return true;
  const innerNs = namespaces(inner);
  return innerNs.length > 0 && innerNs.every((n) => outerNs.includes(n));
}

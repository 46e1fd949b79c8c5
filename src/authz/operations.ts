// The key and org operations the HTTP API and the CLI share (spec §6): create and revoke API
// keys (a created key is returned once; only its hash is stored), create orgs, and the first
// start's bootstrap (the operator's key, and in development an org with its admin key). Logs
// name key ids, never a secret or a hash.
import type { Logger } from 'pino';
import { isMetaError } from '../meta/errors.js';
import { newKey, parseKey, hashSecret } from '../control/keys.js';
import { OPERATOR_ORG, OPERATOR_ROLE, ROLES, type ApiKeyInfo, type BindingTarget, type ControlStore, type RoleBinding, type RoleName } from '../control/types.js';
import { checkScopes, checkTenantOrg } from '../control/validate.js';
import { OPERATOR_ORG_ACTIONS, decideBeforeBindings, roleActions, scopesWithin, type Authorizer, type Principal, type Resource } from './authorizer.js';
import { AuthzError } from './errors.js';

/** Operator keys looked at on a start, at most, for one still usable (else the start creates one). */
export const OPERATOR_KEYS_CHECKED = 100;

/** An existing org's keys looked at, at most, before a create of it completes it with an admin key. */
export const ORG_KEYS_CHECKED = 1_000;

/** Key lifetime, at most (a year): keys should be rotated. */
export const MAX_KEY_TTL_S = 366 * 86_400;

export interface CreatedKey {
  /** The whole key; shown once, never stored or logged. */
  token: string;
  key: ApiKeyInfo;
}

export interface NewKeyRequest {
  org: string;
  role: RoleName;
  /** The role's namespace (id and name); none: the whole org. */
  ns?: number;
  nsName?: string;
  scopes?: string[];
  ttlS?: number | null;
  createdBy: string;
  /**
   * The key asking (the HTTP API): the new key's scopes must be within its scopes, and its
   * role on that target within what its own roles allow, so no key mints a stronger one.
   * None: the operator's CLI, working on the metastore directly.
   */
  by?: Principal;
}

/** A role granted to (or revoked from) a key of the org, on the org or on one namespace. */
export interface GrantRequest {
  org: string;
  /** The key the role is bound to (its scopes and expiry bound what the role gives it). */
  grantee: Pick<ApiKeyInfo, 'keyId' | 'scopes' | 'expiry'>;
  role: RoleName;
  /** The role's namespace (id and name); none: the whole org. */
  ns?: number;
  nsName?: string;
  /** The key asking (the HTTP API): it grants only what it may do itself, to keys that expire no later. */
  by?: Principal;
}

/** What a first start created: the secrets to hand over once (null: not created by this start). */
export interface BootstrapKeys {
  /** The operator's key (creates orgs, sets quotas). Null when it existed, or came from the environment. */
  operator: string | null;
  /** The admin key of the bootstrap org (development), null when none was created. */
  orgAdmin: string | null;
}

export interface BootstrapOptions {
  /** Create this org and its admin key when no tenant org exists (loam dev); null: none (loam serve). */
  org: string | null;
  /** Install this key (loam_<key_id>_<secret>) as the first operator key instead of generating one. */
  operatorKey?: string;
}

export interface OperationsDeps {
  control: ControlStore;
  authorizer: Authorizer;
  logger: Logger;
  now: () => number;
  /** A key was revoked here: the local caches drop it at once (other nodes learn it from the feed). */
  revoked?: (keyId: string) => void;
  /** A subject's roles changed here: its cached decisions go at once (other nodes learn it from the feed). */
  rebound?: (org: string, subject: string) => void;
}

/** A key's subject in role bindings and principals: 'key:<key_id>'. */
export const KEY_SUBJECT = 'key:';
const forbidden = (m: string, reason: string) => new AuthzError('forbidden', m, { reason });

export class TenancyOperations {
  constructor(private readonly d: OperationsDeps) {}

  /** Creates a key with one role (on the org, or on namespace `ns`), returning it once. */
  async createKey(o: NewKeyRequest): Promise<CreatedKey> {
    const k = newKey();
    return this.storeKey(o, k.keyId, k.secretHash, k.token);
  }

  private async storeKey(o: NewKeyRequest, keyId: string, secretHash: string, token: string): Promise<CreatedKey> {
    if (!(ROLES as readonly string[]).includes(o.role) && o.role !== OPERATOR_ROLE) throw new AuthzError('invalid_argument', `role must be one of ${ROLES.join(', ')}`);
    if ((o.role === OPERATOR_ROLE) !== (o.org === OPERATOR_ORG)) {
      throw forbidden(`the ${OPERATOR_ROLE} role is held only by the deployment's operator keys, and they hold no other`, 'operator_role');
    }
    if (o.role === 'org_admin' && o.ns !== undefined) throw new AuthzError('invalid_argument', 'org_admin is granted on the org; drop namespace');
    // A scope named twice is stored once: the key's scopes read back as they apply.
    const scopes = [...new Set(o.scopes ?? ['*'])];
    try {
      checkScopes(scopes);
    } catch (e) {
      throw new AuthzError('invalid_argument', (e as Error).message);
    }
    if (o.ttlS !== undefined && o.ttlS !== null && !(Number.isSafeInteger(o.ttlS) && o.ttlS > 0 && o.ttlS <= MAX_KEY_TTL_S)) {
      throw new AuthzError('invalid_argument', `ttl_s must be an integer in 1..${MAX_KEY_TTL_S}`);
    }
    if (o.by) await this.checkWithin(o.by, o, scopes);
    const now = this.d.now();
    const info = await this.d.control.createKey({
      keyId,
      org: o.org,
      secretHash,
      scopes,
      expiry: o.ttlS ? now + o.ttlS * 1000 : null,
      createdBy: o.createdBy,
      created: now,
    });
    try {
      await this.d.authorizer.onCreated({ kind: 'key', org: o.org, keyId, role: o.role, ...(o.ns !== undefined ? { ns: o.ns } : {}) });
    } catch (e) {
      // The key's role was not granted, and its secret is never shown: revoke the key so the
      // refusal is true (a request that is refused has written nothing usable).
      await this.d.control.revokeKey(o.org, keyId).catch(() => undefined);
      this.d.revoked?.(keyId);
      throw e;
    }
    this.d.logger.info({ org: o.org, key_id: keyId, role: o.role, created_by: o.createdBy }, 'api key created');
    return { token, key: info };
  }

  /**
   * No key creates a key with more power than its own: the new scopes within the creator's,
   * and every action the new role allows on its target allowed to the creator's roles there
   * (asked of the Authorizer, so any implementation of it is held to the same rule).
   */
  private async checkWithin(by: Principal, o: NewKeyRequest, scopes: readonly string[]): Promise<void> {
    if (by.org !== o.org) throw forbidden('a key creates keys only in its own org', 'key_org');
    if (by.subject === null) return; // authentication off: the one local user
    await this.checkOutlives(by, o.ttlS ? this.d.now() + o.ttlS * 1000 : null, (left) => `a key it creates expires no later: give ttl_s of at most ${left}`);
    if (!scopesWithin(scopes, by.scopes ?? [])) {
      throw forbidden(`scopes [${scopes.join(', ')}] reach beyond this key's own [${(by.scopes ?? []).join(', ')}]; a key creates keys within its own scopes`, 'key_scopes');
    }
    const target: Resource = o.ns === undefined ? { kind: 'org', org: o.org } : { kind: 'namespace', org: o.org, ns: o.ns, name: o.nsName ?? '' };
    // The creator's roles, not narrowed by its scopes (those were compared above).
    const roles: Principal = { org: by.org, subject: by.subject, scopes: ['*'] };
    const actions = roleActions(o.role).filter((a) => o.org !== OPERATOR_ORG || OPERATOR_ORG_ACTIONS.has(a));
    const ok = await this.d.authorizer.batchCheck(roles, actions.map((action) => ({ action, resource: target })));
    const missing = actions.filter((_, i) => !ok[i]);
    if (missing.length > 0) throw forbidden(`role ${o.role} ${o.ns === undefined ? 'on the org' : `on namespace "${o.nsName}"`} allows ${missing.join(', ')}, which this key's roles do not; a key creates keys within its own roles`, 'key_role');
  }

  /**
   * A key that expires confers nothing that outlives it (a key it creates, a role it grants):
   * `expiry` (null: never) must be no later than the asking key's own.
   */
  private async checkOutlives(by: Principal, expiry: number | null, fix: (secondsLeft: number) => string): Promise<void> {
    if (!by.subject?.startsWith(KEY_SUBJECT)) return; // only keys expire
    const own = (await this.d.control.key(by.subject.slice(KEY_SUBJECT.length))).expiry;
    if (own === null || (expiry !== null && expiry <= own)) return;
    const left = Math.max(0, Math.floor((own - this.d.now()) / 1000));
    throw forbidden(`this key expires at ${new Date(own).toISOString()} (in ${left} s); ${fix(left)}`, 'key_expiry');
  }

  /**
   * Grants `o.role` to a key. No key grants more power than its own (spec §6, as for creating
   * keys): every action the role would give the grantee on its target — the role's actions its
   * scopes let through — must be allowed to the asking key itself there (asked of the
   * Authorizer, scopes included), and a key that expires grants roles only to keys that expire
   * no later.
   */
  async grant(o: GrantRequest): Promise<RoleBinding> {
    const b = this.bindingOf(o);
    if (o.by) await this.checkGrant(o.by, o);
    const granted = await this.d.control.grant(b);
    this.d.rebound?.(o.org, b.subject);
    this.d.logger.info({ org: o.org, key_id: o.grantee.keyId, role: o.role, ns: o.ns ?? null, granted_by: o.by?.subject ?? 'local' }, 'role granted');
    return granted;
  }

  /** Revokes a role of a key; it takes effect on this node at once. */
  async revokeGrant(o: GrantRequest): Promise<void> {
    const b = this.bindingOf(o);
    await this.d.control.revokeGrant(b);
    this.d.rebound?.(o.org, b.subject);
    this.d.logger.info({ org: o.org, key_id: o.grantee.keyId, role: o.role, ns: o.ns ?? null, revoked_by: o.by?.subject ?? 'local' }, 'role revoked');
  }

  private bindingOf(o: GrantRequest): Omit<RoleBinding, 'created'> {
    const target: BindingTarget = o.ns === undefined ? { kind: 'org' } : { kind: 'namespace', ns: o.ns };
    return { org: o.org, subject: `${KEY_SUBJECT}${o.grantee.keyId}`, role: o.role, target };
  }

  private async checkGrant(by: Principal, o: GrantRequest): Promise<void> {
    if (by.org !== o.org) throw forbidden('a key grants roles only in its own org', 'grant_org');
    if (by.subject === null) return; // authentication off: the one local user
    await this.checkOutlives(by, o.grantee.expiry, () => `it grants roles only to keys that expire no later, and key ${o.grantee.keyId} ${o.grantee.expiry === null ? 'never expires' : `expires at ${new Date(o.grantee.expiry).toISOString()}`}`);
    const resource: Resource = o.ns === undefined ? { kind: 'org', org: o.org } : { kind: 'namespace', org: o.org, ns: o.ns, name: o.nsName ?? '' };
    const grantee: Principal = { org: o.org, subject: `${KEY_SUBJECT}${o.grantee.keyId}`, scopes: o.grantee.scopes };
    // A role on the org holds in every namespace of it, so what it confers is what the grantee's
    // scopes let through at the org or in any namespace they name (a key scoped to ns:a given
    // writer on the org writes in a); the asking key must hold each such action org-wide.
    const reach: Resource[] = [resource];
    if (resource.kind === 'org') {
      for (const s of o.grantee.scopes) if (s.startsWith('ns:')) reach.push({ kind: 'namespace', org: o.org, ns: null, name: s.slice(3) });
    }
    const conferred = roleActions(o.role).filter((action) => reach.some((r) => decideBeforeBindings(grantee, action, r) !== false));
    const ok = await this.d.authorizer.batchCheck(by, conferred.map((action) => ({ action, resource })));
    const missing = conferred.filter((_, i) => !ok[i]);
    if (missing.length > 0) {
      throw forbidden(
        `role ${o.role} ${o.ns === undefined ? 'on the org' : `on namespace "${o.nsName}"`} would let key ${o.grantee.keyId} ${missing.join(', ')}, which this key may not do itself; a key grants only what it may do`,
        'grant_power',
      );
    }
  }

  async revokeKey(org: string, keyId: string, by: string): Promise<void> {
    await this.d.control.revokeKey(org, keyId);
    this.d.revoked?.(keyId);
    // The revocation is committed: a hook that fails leaves a relation of a key that no longer authenticates.
    await this.d.authorizer.onDeleted({ kind: 'key', org, keyId }).catch((e: unknown) => {
      this.d.logger.warn({ org, key_id: keyId, err: { message: (e as Error).message } }, "api key revoked; the authorizer's lifecycle hook failed");
    });
    this.d.logger.info({ org, key_id: keyId, revoked_by: by }, 'api key revoked');
  }

  /** Creates a tenant org and tells the authorizer (spec §7 lifecycle hooks). */
  async createOrg(org: string): Promise<void> {
    try {
      checkTenantOrg(org);
    } catch (e) {
      throw new AuthzError('invalid_argument', (e as Error).message);
    }
    await this.createAnyOrg(org);
  }

  private async createAnyOrg(org: string): Promise<void> {
    await this.d.control.createOrg(org, this.d.now());
    await this.d.authorizer.onCreated({ kind: 'org', org });
  }

  /**
   * Creates a tenant org and its first admin key (returned once). An org that exists without
   * a live key is one whose creation stopped before its key (the two are separate writes):
   * sent again, the create completes it with the key instead of answering that it exists.
   */
  async createOrgWithAdmin(org: string, createdBy: string): Promise<CreatedKey> {
    try {
      await this.createOrg(org);
    } catch (e) {
      if (!isMetaError(e, 'AlreadyExists') || (await this.holdsLiveKey(org))) throw e;
    }
    return this.createKey({ org, role: 'org_admin', createdBy });
  }

  /** Whether the org has an unrevoked, unexpired key (an org with more keys than one page has). */
  private async holdsLiveKey(org: string): Promise<boolean> {
    const page = await this.d.control.listKeys(org, { limit: ORG_KEYS_CHECKED });
    const now = this.d.now();
    return page.next !== undefined || page.items.some((k) => k.revoked === null && (k.expiry === null || k.expiry > now));
  }

  /**
   * Every start (spec §6's bootstrap): the operator's org, and a first operator key when the
   * operator has no usable (unrevoked, unexpired) one, so a crash before the key, or every
   * key revoked, heals on the next start; and, when asked, an org with its admin key if no
   * tenant org exists yet (creating the org is the race between nodes starting at once; only
   * its winner creates the key). Nodes starting at once may each create an operator key.
   */
  async bootstrap(o: BootstrapOptions): Promise<BootstrapKeys> {
    const given = o.operatorKey === undefined ? undefined : parseKey(o.operatorKey);
    if (given === null) throw new Error('the bootstrap operator key must be loam_<key_id: 16 hex digits>_<secret: 64 hex digits>');
    let operator: string | null = null;
    await this.createAnyOrg(OPERATOR_ORG).catch((e: unknown) => {
      if (!isMetaError(e, 'AlreadyExists')) throw e;
    });
    const now = this.d.now();
    const live = (await this.d.control.listKeys(OPERATOR_ORG, { limit: OPERATOR_KEYS_CHECKED })).items.filter((k) => k.revoked === null && (k.expiry === null || k.expiry > now));
    if (live.length === 0) {
      const req: NewKeyRequest = { org: OPERATOR_ORG, role: OPERATOR_ROLE, createdBy: 'bootstrap' };
      if (given) await this.storeKey(req, given.keyId, hashSecret(given.secret), '');
      else operator = (await this.createKey(req)).token;
    }
    let orgAdmin: string | null = null;
    if (o.org !== null) {
      const existing = await this.d.control.listOrgs({ limit: 2 });
      if (!existing.items.some((x) => x.id !== OPERATOR_ORG)) {
        try {
          orgAdmin = (await this.createOrgWithAdmin(o.org, 'bootstrap')).token;
        } catch (e) {
          if (!isMetaError(e, 'AlreadyExists')) throw e; // another node bootstrapped first
        }
      }
    }
    return { operator, orgAdmin };
  }
}

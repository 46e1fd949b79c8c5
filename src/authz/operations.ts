// The key and org operations the HTTP API and the CLI share (spec §6): create and revoke API
// keys (a created key is returned once; only its hash is stored), create orgs, and the first
// start's bootstrap (the operator's key, and in development an org with its admin key). Logs
// name key ids, never a secret or a hash.
import type { Logger } from 'pino';
import { isMetaError } from '../meta/errors.js';
import { newKey, parseKey, hashSecret } from '../control/keys.js';
import { OPERATOR_ORG, OPERATOR_ROLE, ROLES, type ApiKeyInfo, type ControlStore, type RoleName } from '../control/types.js';
import { checkScopes, checkTenantOrg } from '../control/validate.js';
import { OPERATOR_ORG_ACTIONS, roleActions, scopesWithin, type Authorizer, type Principal, type Resource } from './authorizer.js';
import { AuthzError } from './errors.js';

/** Operator keys looked at on a start, at most, for one still usable (else the start creates one). */
export const OPERATOR_KEYS_CHECKED = 100;

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
}

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
    const scopes = o.scopes ?? ['*'];
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
    await this.d.authorizer.onCreated({ kind: 'key', org: o.org, keyId, role: o.role, ...(o.ns !== undefined ? { ns: o.ns } : {}) });
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

  async revokeKey(org: string, keyId: string, by: string): Promise<void> {
    await this.d.control.revokeKey(org, keyId);
    this.d.revoked?.(keyId);
    await this.d.authorizer.onDeleted({ kind: 'key', org, keyId });
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

  /** Creates a tenant org and its first admin key (returned once). */
  async createOrgWithAdmin(org: string, createdBy: string): Promise<CreatedKey> {
    await this.createOrg(org);
    return this.createKey({ org, role: 'org_admin', createdBy });
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

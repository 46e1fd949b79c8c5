// The key and org operations the HTTP API and the CLI share (spec §6): create and revoke API
// keys (a created key is returned once; only its hash is stored), create orgs, and the first
// start's bootstrap. Logs name key ids, never a secret or a hash.
import type { Logger } from 'pino';
import { isMetaError } from '../meta/errors.js';
import { newKey } from '../control/keys.js';
import { ROLES, type ApiKeyInfo, type ControlStore, type RoleName } from '../control/types.js';
import { checkScopes } from '../control/validate.js';
import type { Authorizer } from './authorizer.js';
import { AuthzError } from './errors.js';

/** Key lifetime, at most (a year): keys should be rotated. */
export const MAX_KEY_TTL_S = 366 * 86_400;

export interface CreatedKey {
  /** The whole key; shown once, never stored or logged. */
  token: string;
  key: ApiKeyInfo;
}

export interface OperationsDeps {
  control: ControlStore;
  authorizer: Authorizer;
  logger: Logger;
  now: () => number;
  /** A key was revoked here: the local caches drop it at once (other nodes learn it from the feed). */
  revoked?: (keyId: string) => void;
}

export class TenancyOperations {
  constructor(private readonly d: OperationsDeps) {}

  /** Creates a key with one role (on the org, or on namespace `ns`), returning it once. */
  async createKey(o: { org: string; role: RoleName; ns?: number; scopes?: string[]; ttlS?: number | null; createdBy: string }): Promise<CreatedKey> {
    if (!(ROLES as readonly string[]).includes(o.role)) throw new AuthzError('invalid_argument', `role must be one of ${ROLES.join(', ')}`);
    const scopes = o.scopes ?? ['*'];
    try {
      checkScopes(scopes);
    } catch (e) {
      throw new AuthzError('invalid_argument', (e as Error).message);
    }
    if (o.ttlS !== undefined && o.ttlS !== null && !(Number.isSafeInteger(o.ttlS) && o.ttlS > 0 && o.ttlS <= MAX_KEY_TTL_S)) {
      throw new AuthzError('invalid_argument', `ttl_s must be an integer in 1..${MAX_KEY_TTL_S}`);
    }
    const k = newKey();
    const now = this.d.now();
    const info = await this.d.control.createKey({
      keyId: k.keyId,
      org: o.org,
      secretHash: k.secretHash,
      scopes,
      expiry: o.ttlS ? now + o.ttlS * 1000 : null,
      createdBy: o.createdBy,
      created: now,
    });
    await this.d.authorizer.onCreated({ kind: 'key', org: o.org, keyId: k.keyId, role: o.role, ...(o.ns !== undefined ? { ns: o.ns } : {}) });
    this.d.logger.info({ org: o.org, key_id: k.keyId, role: o.role, created_by: o.createdBy }, 'api key created');
    return { token: k.token, key: info };
  }

  async revokeKey(org: string, keyId: string, by: string): Promise<void> {
    await this.d.control.revokeKey(org, keyId);
    this.d.revoked?.(keyId);
    await this.d.authorizer.onDeleted({ kind: 'key', org, keyId });
    this.d.logger.info({ org, key_id: keyId, revoked_by: by }, 'api key revoked');
  }

  /** Creates an org and tells the authorizer (spec §7 lifecycle hooks). */
  async createOrg(org: string): Promise<void> {
    await this.d.control.createOrg(org);
    await this.d.authorizer.onCreated({ kind: 'org', org });
  }

  /**
   * First start (spec §6): when no org exists, creates `org` and an org-admin key and returns
   * the key (to be shown once). Null when the cluster was bootstrapped before.
   */
  async bootstrap(org: string): Promise<string | null> {
    const existing = await this.d.control.listOrgs({ limit: 1 });
    if (existing.items.length > 0) return null;
    try {
      await this.createOrg(org);
    } catch (e) {
      if (isMetaError(e, 'AlreadyExists')) return null; // another node bootstrapped first
      throw e;
    }
    const k = await this.createKey({ org, role: 'org_admin', createdBy: 'bootstrap' });
    return k.token;
  }
}

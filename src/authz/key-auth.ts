// API key authentication at the gateway (spec §6): a presented `loam_<key_id>_<secret>` is
// checked against the key's record, read from the ControlStore and trusted for KEY_CACHE_MS
// (the change feed evicts it sooner). A key string verified once costs no hash again while
// its record stands. last_used is recorded in batches, not per request. Errors and logs name
// key ids, never a secret or a hash.
import { AuthzError } from './errors.js';
import { isMetaError } from '../meta/errors.js';
import { parseKey, verifySecret } from '../control/keys.js';
import { MAX_TOUCH_BATCH, type ApiKeyRecord, type ControlStore } from '../control/types.js';
import type { Principal } from './authorizer.js';
import type { DecisionCache } from './decisions.js';

/** Resolved keys are trusted this long (spec §6: 30–60 s); the change feed evicts sooner. */
export const KEY_CACHE_MS = 30_000;
export const KEY_CACHE_ENTRIES = 100_000;
/** last_used is written in batches this often (not per request). */
export const LAST_USED_FLUSH_MS = 10_000;
/** Keys remembered for the next last_used batch, at most. */
export const MAX_PENDING_TOUCHES = 10_000;

/** A presented key string already verified, with the decisions made for it. */
export interface Verified {
  /** The keys-cache entry it was verified against: valid only while that entry stands. */
  entry: unknown;
  keyId: string;
  principal: Principal;
  expiry: number | null;
  decisions: DecisionCache;
}

/** Why a key was refused (the loam_refusals_total metric's reason). */
type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'revoked' | 'expired';
const unauthenticated = (reason: AuthFailure, m: string) => new AuthzError('unauthenticated', m, { reason });

export class KeyAuthenticator {
  private readonly keys = new Map<string, { at: number; rec: Promise<ApiKeyRecord | null> }>();
  private readonly touches = new Map<string, number>();
  /**
   * Presented keys already verified against their record, by the exact key string, so a
   * cached key costs no hash per request. Only a correct secret gets here: an unknown id and
   * a wrong secret both miss and take the same hashing path. Valid only while the key's
   * cached record is the very one it was verified against: a revocation (local or through
   * the feed) or a refresh of the record after KEY_CACHE_MS ends it.
   */
  private readonly verified = new Map<string, Verified>();

  constructor(
    private readonly control: ControlStore,
    private readonly now: () => number,
    /** A key was forgotten: decisions derived from it are stale. */
    private readonly forgotten: () => void,
  ) {}

  /** A key changed (revoked, expired, scopes): drop its record and every verified string of it. */
  forget(keyId: string): void {
    this.forgotten();
    this.keys.delete(keyId);
    for (const [k, v] of this.verified) if (v.keyId === keyId) this.verified.delete(k);
  }

  /** Writes the pending last_used times, in batches of MAX_TOUCH_BATCH. */
  async flushTouches(): Promise<void> {
    const all = [...this.touches].map(([keyId, at]) => ({ keyId, at }));
    this.touches.clear();
    for (let i = 0; i < all.length; i += MAX_TOUCH_BATCH) await this.control.touchKeys(all.slice(i, i + MAX_TOUCH_BATCH));
  }

  private touch(keyId: string, at: number): void {
    if (this.touches.size < MAX_PENDING_TOUCHES || this.touches.has(keyId)) this.touches.set(keyId, at);
  }

  private lookup(keyId: string): Promise<ApiKeyRecord | null> {
    const e = this.keys.get(keyId);
    if (e && this.now() - e.at < KEY_CACHE_MS) return e.rec;
    if (this.keys.size >= KEY_CACHE_ENTRIES) this.keys.clear();
    // Unknown ids are cached too, so an unknown id and a wrong secret cost the same.
    const rec = this.control.key(keyId).catch((err: unknown) => {
      if (isMetaError(err, 'NotFound')) return null;
      this.keys.delete(keyId);
      throw err;
    });
    this.keys.set(keyId, { at: this.now(), rec });
    return rec;
  }

  /**
   * The hot path of authentication: this exact header was verified before against the key
   * record still cached. Undefined sends the caller to `authenticated`. Only a correct secret
   * is ever remembered, so an unknown id and a wrong secret both miss and cost the same.
   */
  verifiedFor(header: string | undefined, now: number): Verified | undefined {
    const hit = header === undefined ? undefined : this.verified.get(header);
    if (!hit) return undefined;
    const entry = this.keys.get(hit.keyId);
    if (entry === undefined || entry !== hit.entry || now - entry.at >= KEY_CACHE_MS) return undefined;
    if (hit.expiry !== null && hit.expiry <= now) throw unauthenticated('expired', `API key ${hit.keyId} expired`);
    this.touch(hit.keyId, now);
    return hit;
  }

  /** Authorization header → the verified key, at once when it is cached (no promise on the hot path), or 401. */
  verifiedNow(header: string | undefined): Verified | Promise<Verified> {
    return this.verifiedFor(header, this.now()) ?? this.authenticated(header);
  }

  /** Authorization header → the verified key, or 401. */
  async authenticated(header: string | undefined): Promise<Verified> {
    const hit = this.verifiedFor(header, this.now());
    if (hit) return hit;
    if (!header) throw unauthenticated('missing', 'missing API key: send Authorization: Bearer loam_<key_id>_<secret>');
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const parsed = m ? parseKey(m[1]!) : null;
    if (!parsed) throw unauthenticated('malformed', 'malformed API key: expected Authorization: Bearer loam_<key_id>_<secret>');
    const rec = await this.lookup(parsed.keyId);
    // Constant time whether or not the key id exists (a dummy hash stands in).
    if (!verifySecret(parsed.secret, rec?.secretHash ?? null) || !rec) throw unauthenticated('invalid', 'invalid API key');
    if (rec.revoked !== null) throw unauthenticated('revoked', `API key ${rec.keyId} was revoked`);
    if (rec.expiry !== null && rec.expiry <= this.now()) throw unauthenticated('expired', `API key ${rec.keyId} expired`);
    this.touch(rec.keyId, this.now());
    const v: Verified = {
      entry: this.keys.get(rec.keyId),
      keyId: rec.keyId,
      principal: { org: rec.org, subject: `key:${rec.keyId}`, scopes: rec.scopes },
      expiry: rec.expiry,
      decisions: new Map(),
    };
    if (this.verified.size >= KEY_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(header, v);
    return v;
  }
}

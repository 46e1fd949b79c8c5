// The gateway side of tenancy (spec §6, §7): authenticate an API key (cached 30 s, evicted at
// once by the ControlStore's change feed), map the route to (action, resource), ask the
// Authorizer, then admit against the quotas. Also the key and org operations the HTTP API and
// the CLI share, and `bootstrap` (first start: one org, one admin key, shown once).
// Logs carry key ids, never a secret or a hash (DESIGN §7).
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Catalog } from '../collection/catalog.js';
import { HttpError, type Principal as GatewayPrincipal } from '../gateway/server.js';
import { newKey, parseKey, verifySecret } from '../control/keys.js';
import { MAX_TOUCH_BATCH, ROLES, type ApiKeyInfo, type ApiKeyRecord, type ControlStore, type RoleName } from '../control/types.js';
import { checkScopes } from '../control/validate.js';
import { QuotaExceeded, Quotas } from '../quota/quota.js';
import type { Action, Authorizer, Principal, Resource } from './authorizer.js';

/** Resolved keys are trusted this long (spec §6: 30–60 s); the change feed evicts sooner. */
export const KEY_CACHE_MS = 30_000;
export const KEY_CACHE_ENTRIES = 100_000;
/** How often the change feed is polled: a revocation reaches every node within about this. */
export const FEED_POLL_MS = 250;
/** A missing feed version (a writer between its counter and its entry) is waited for this long. */
export const CHANGE_GAP_WAIT_MS = 2_000;
/** last_used is written in batches this often (not per request). */
export const LAST_USED_FLUSH_MS = 10_000;
/** Keys remembered for the next last_used batch, at most. */
export const MAX_PENDING_TOUCHES = 10_000;
/** A namespace's stored bytes are measured again after this (storage quota: soft, periodic). */
export const STORAGE_MEASURE_MS = 60_000;
/** Collections measured per namespace, at most (every loop a bound). */
export const MAX_MEASURED_COLLECTIONS = 1_000;
/** Key lifetime, at most (a year): keys should be rotated. */
export const MAX_KEY_TTL_S = 366 * 86_400;
/** The request surface of this API (spec §6: request rate per namespace and surface). */
export const SURFACE = 'rest';

interface RouteAuth {
  action: Action;
  /** Which path params name the namespace and collection. */
  scope: 'org' | 'namespace' | 'collection';
  /** Quota checks beyond the request rate. */
  quota?: 'ingest' | 'query' | 'metadata';
}

/** Every HTTP route → (action, resource); a route missing here is refused (403). */
export const ROUTE_AUTH: Record<string, RouteAuth> = {
  'POST /v1/namespaces': { action: 'namespace.create', scope: 'org', quota: 'metadata' },
  'GET /v1/namespaces': { action: 'namespace.list', scope: 'org' },
  'GET /v1/namespaces/:ns': { action: 'namespace.read', scope: 'namespace' },
  'DELETE /v1/namespaces/:ns': { action: 'namespace.delete', scope: 'namespace', quota: 'metadata' },
  'POST /v1/namespaces/:ns/collections': { action: 'collection.create', scope: 'namespace', quota: 'metadata' },
  'GET /v1/namespaces/:ns/collections': { action: 'collection.list', scope: 'namespace' },
  'GET /v1/namespaces/:ns/collections/:c': { action: 'collection.read', scope: 'collection' },
  'DELETE /v1/namespaces/:ns/collections/:c': { action: 'collection.delete', scope: 'collection', quota: 'metadata' },
  'POST /v1/namespaces/:ns/collections/:c/documents': { action: 'documents.write', scope: 'collection', quota: 'ingest' },
  'GET /v1/namespaces/:ns/collections/:c/documents/:id': { action: 'documents.read', scope: 'collection', quota: 'query' },
  'POST /v1/namespaces/:ns/collections/:c/query': { action: 'documents.read', scope: 'collection', quota: 'query' },
  'GET /v1/org': { action: 'org.read', scope: 'org' },
  'GET /v1/keys': { action: 'org.manage', scope: 'org' },
  'POST /v1/keys': { action: 'org.manage', scope: 'org' },
  'DELETE /v1/keys/:key': { action: 'org.manage', scope: 'org' },
  'GET /v1/bindings': { action: 'org.manage', scope: 'org' },
  'POST /v1/bindings': { action: 'org.manage', scope: 'org' },
  'DELETE /v1/bindings': { action: 'org.manage', scope: 'org' },
  'GET /v1/quotas': { action: 'org.read', scope: 'org' },
  'PUT /v1/quotas': { action: 'org.manage', scope: 'org' },
  'GET /v1/usage': { action: 'org.read', scope: 'org' },
};

export interface TenancyDeps {
  control: ControlStore;
  authorizer: Authorizer;
  catalog: Catalog;
  meta: MetaStore;
  logger: Logger;
  /** The unapplied backlog of a collection (the log role's writer), when this node writes. */
  backlog?: (ns: number, collection: string, nsName: string, org: string) => Promise<{ records: number; bytes: number } | null>;
  /** Gateways sharing traffic (per-gateway quota fallback). */
  gateways?: number;
  now?: () => number;
}

export interface CreatedKey {
  /** The whole key; shown once, never stored or logged. */
  token: string;
  key: ApiKeyInfo;
}

const unauthenticated = (m: string) => new HttpError(401, 'unauthenticated', m);

export class Tenancy {
  readonly quotas: Quotas;
  private readonly keys = new Map<string, { at: number; rec: Promise<ApiKeyRecord | null> }>();
  private readonly touches = new Map<string, number>();
  /**
   * Presented keys already verified against their record, by the exact key string, so a
   * cached key costs no hash per request. Only a correct secret gets here: an unknown id and
   * a wrong secret both miss and take the same hashing path. Valid only while the key's
   * cached record is the very one it was verified against: a revocation (local or through
   * the feed) or a refresh of the record after KEY_CACHE_MS ends it.
   */
  private readonly verified = new Map<string, { entry: unknown; keyId: string; principal: Principal; expiry: number | null }>();
  private readonly storage = new Map<number, { at: number; bytes: number; pending?: Promise<number> }>();
  private cursor = 0;
  private gapSince: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | null = null;
  private closed = false;
  private readonly now: () => number;

  constructor(private readonly d: TenancyDeps) {
    this.now = d.now ?? Date.now;
    this.quotas = new Quotas(d.control, d.gateways ?? 1, this.now);
  }

  /** Starts the change-feed watcher and the last_used batches. */
  async start(): Promise<void> {
    this.cursor = await this.d.control.controlVersion();
    const feed = setInterval(() => void this.pollFeed(), FEED_POLL_MS);
    const touch = setInterval(() => void this.flushTouches(), LAST_USED_FLUSH_MS);
    feed.unref();
    touch.unref();
    this.timers.push(feed, touch);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.polling;
    await this.flushTouches().catch(() => undefined);
  }

  /** One pass over the change feed: drops exactly what changed from the caches. */
  pollFeed(): Promise<void> {
    if (this.polling || this.closed) return this.polling ?? Promise.resolve();
    this.polling = (async () => {
      try {
        const changes = await this.d.control.changesSince(this.cursor);
        for (const c of changes) {
          if (c.version > this.cursor + 1) {
            // A gap: an earlier version not yet visible (feedOrder 'gaps'); wait it out, bounded.
            this.gapSince ??= this.now();
            if (this.now() - this.gapSince < CHANGE_GAP_WAIT_MS) break;
          }
          this.gapSince = null;
          this.cursor = c.version;
          if (c.kind === 'key') this.forgetKey(c.id);
          else if (c.kind === 'binding') this.d.authorizer.invalidate(c.org, c.id);
          else if (c.kind === 'quota') this.quotaChanged(c.org);
        }
      } catch (e) {
        this.d.logger.warn({ err: { message: (e as Error).message } }, 'control change feed poll failed; caches expire on their own');
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  async flushTouches(): Promise<void> {
    const all = [...this.touches].map(([keyId, at]) => ({ keyId, at }));
    this.touches.clear();
    for (let i = 0; i < all.length; i += MAX_TOUCH_BATCH) await this.d.control.touchKeys(all.slice(i, i + MAX_TOUCH_BATCH));
  }

  /** A key changed (revoked, expired, scopes): drop its record and every verified string of it. */
  private forgetKey(keyId: string): void {
    this.keys.delete(keyId);
    for (const [k, v] of this.verified) if (v.keyId === keyId) this.verified.delete(k);
  }

  private lookup(keyId: string): Promise<ApiKeyRecord | null> {
    const e = this.keys.get(keyId);
    if (e && this.now() - e.at < KEY_CACHE_MS) return e.rec;
    if (this.keys.size >= KEY_CACHE_ENTRIES) this.keys.clear();
    // Unknown ids are cached too, so an unknown id and a wrong secret cost the same.
    const rec = this.d.control.key(keyId).catch((err: unknown) => {
      if (isMetaError(err, 'NotFound')) return null;
      this.keys.delete(keyId);
      throw err;
    });
    this.keys.set(keyId, { at: this.now(), rec });
    return rec;
  }

  /** Authorization header → principal, or 401. */
  async authenticate(header: string | undefined): Promise<Principal> {
    if (!header) throw unauthenticated('missing API key: send Authorization: Bearer loam_<key_id>_<secret>');
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    const hit = m ? this.verified.get(m[1]!) : undefined;
    const entry = hit ? this.keys.get(hit.keyId) : undefined;
    if (hit && entry !== undefined && entry === hit.entry && this.now() - entry.at < KEY_CACHE_MS) {
      if (hit.expiry !== null && hit.expiry <= this.now()) throw unauthenticated(`API key ${hit.keyId} expired`);
      if (this.touches.size < MAX_PENDING_TOUCHES || this.touches.has(hit.keyId)) this.touches.set(hit.keyId, this.now());
      return hit.principal;
    }
    const parsed = m ? parseKey(m[1]!) : null;
    if (!parsed) throw unauthenticated('malformed API key: expected Authorization: Bearer loam_<key_id>_<secret>');
    const rec = await this.lookup(parsed.keyId);
    // Constant time whether or not the key id exists (a dummy hash stands in).
    if (!verifySecret(parsed.secret, rec?.secretHash ?? null) || !rec) throw unauthenticated('invalid API key');
    if (rec.revoked !== null) throw unauthenticated(`API key ${rec.keyId} was revoked`);
    if (rec.expiry !== null && rec.expiry <= this.now()) throw unauthenticated(`API key ${rec.keyId} expired`);
    if (this.touches.size < MAX_PENDING_TOUCHES || this.touches.has(rec.keyId)) this.touches.set(rec.keyId, this.now());
    const principal: Principal = { org: rec.org, subject: `key:${rec.keyId}`, scopes: rec.scopes };
    if (this.verified.size >= KEY_CACHE_ENTRIES) this.verified.clear();
    this.verified.set(m![1]!, { entry: this.keys.get(rec.keyId), keyId: rec.keyId, principal, expiry: rec.expiry });
    return principal;
  }

  private async nsId(org: string, name: string): Promise<number | null> {
    try {
      return (await this.d.catalog.namespace(org, name)).id;
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFound') return null;
      throw e;
    }
  }

  /** The gateway's admission hook: authenticate, authorize, admit (quotas). */
  admit = async (req: FastifyRequest, route: string): Promise<GatewayPrincipal> => {
    const p = await this.authenticate(req.headers.authorization);
    const ra = ROUTE_AUTH[`${req.method} ${route}`];
    if (!ra) throw new HttpError(403, 'forbidden', `${req.method} ${route} is not mapped to an action; refused`);
    const params = (req.params ?? {}) as { ns?: string; c?: string };
    let resource: Resource;
    let ns: number | null = null;
    if (ra.scope === 'org') resource = { kind: 'org', org: p.org };
    else {
      ns = await this.nsId(p.org, params.ns!);
      resource =
        ra.scope === 'namespace'
          ? { kind: 'namespace', org: p.org, ns, name: params.ns! }
          : { kind: 'collection', org: p.org, ns, name: params.ns!, collection: params.c! };
    }
    if (!(await this.d.authorizer.check(p, ra.action, resource))) {
      throw new HttpError(403, 'forbidden', `this API key may not ${ra.action} ${resource.kind === 'org' ? `in org "${p.org}"` : `in namespace "${params.ns}"`}`);
    }
    const release = await this.admitQuotas(p.org, ns, ra, params, req);
    return { ...p, ...(release ? { release } : {}) };
  };

  private async admitQuotas(org: string, ns: number | null, ra: RouteAuth, params: { ns?: string; c?: string }, req: FastifyRequest): Promise<(() => void) | undefined> {
    const q = this.quotas;
    const nsKey = `${org}/${ns ?? '-'}`;
    try {
      await q.rate(org, ns, 'request_rate', `${nsKey}/${SURFACE}`, 1, 'requests');
      if (ra.quota === 'metadata') await q.rate(org, ns, 'metadata_ops_rate', nsKey, 1, 'metadata operations');
      if (ra.quota === 'ingest' && ns !== null) {
        const bytes = Number(req.headers['content-length'] ?? 0) || 0;
        await q.rate(org, ns, 'ingest_bytes_per_s', nsKey, bytes, 'ingest bytes');
        await this.admitBacklog(org, ns, params);
        await this.admitStorage(org, ns);
      }
      if (ra.quota === 'query' && ns !== null) return await q.querySlot(org, ns, `${ns}/${params.c}`, 1);
    } catch (e) {
      if (e instanceof QuotaExceeded) throw new HttpError(429, 'quota_exceeded', e.message, Math.max(1, Math.ceil(e.retryAfterMs / 1000)));
      throw e;
    }
    return undefined;
  }

  /** Unapplied data per collection (spec §6, D86): per-namespace values from the ControlStore. */
  private async admitBacklog(org: string, ns: number, params: { ns?: string; c?: string }): Promise<void> {
    if (!this.d.backlog) return;
    const [maxRecords, maxBytes] = await Promise.all([this.quotas.value(org, ns, 'unapplied_records'), this.quotas.value(org, ns, 'unapplied_bytes')]);
    const b = await this.d.backlog(ns, params.c!, params.ns!, org);
    if (!b) return;
    if (b.records >= maxRecords) throw new QuotaExceeded('unapplied_records', 1_000, `collection "${params.c}" has ${b.records} unapplied records, at its unapplied_records quota (${maxRecords}); retry once the workers catch up`);
    if (b.bytes >= maxBytes) throw new QuotaExceeded('unapplied_bytes', 1_000, `collection "${params.c}" has ${b.bytes} unapplied bytes, at its unapplied_bytes quota (${maxBytes}); retry once the workers catch up`);
  }

  /** Storage bytes (soft): the namespace's last measurement against its quota. */
  private async admitStorage(org: string, ns: number): Promise<void> {
    const max = await this.quotas.value(org, ns, 'storage_bytes');
    const bytes = await this.storedBytes(org, ns);
    if (bytes >= max) throw new QuotaExceeded('storage_bytes', STORAGE_MEASURE_MS, `the namespace stores ${bytes} bytes, at its storage_bytes quota (${max}); delete data or raise the quota`);
  }

  /** Partition bytes of the namespace's collections, measured at most every STORAGE_MEASURE_MS. */
  storedBytes(org: string, ns: number): Promise<number> {
    const e = this.storage.get(ns);
    if (e && this.now() - e.at < STORAGE_MEASURE_MS) return Promise.resolve(e.bytes);
    if (e?.pending) return e.bytes >= 0 ? Promise.resolve(e.bytes) : e.pending;
    const pending = this.measure(org, ns).finally(() => {
      const cur = this.storage.get(ns);
      if (cur) delete cur.pending;
    });
    if (this.storage.size >= KEY_CACHE_ENTRIES) this.storage.clear();
    this.storage.set(ns, { at: e?.at ?? 0, bytes: e?.bytes ?? -1, pending });
    // The first measurement is waited for; later ones refresh in the background (soft limit).
    return e ? Promise.resolve(e.bytes) : pending;
  }

  private async measure(org: string, ns: number): Promise<number> {
    let bytes = 0;
    const colls = await this.d.meta.listCollections(ns, { limit: MAX_MEASURED_COLLECTIONS });
    for (const c of colls.items) {
      const s = await this.d.meta.streamState(ns, c.streamId);
      for (const h of s.heads) bytes += h.bytes;
    }
    this.storage.set(ns, { at: this.now(), bytes });
    await this.d.control.putUsage([{ org, ns, metric: 'storage_bytes', window: 0, value: bytes }]).catch(() => undefined);
    return bytes;
  }

  /** An org's quotas changed: re-read them, and measure storage afresh against the new values. */
  quotaChanged(org: string): void {
    this.quotas.invalidate(org);
    this.storage.clear();
  }

  /** Forget a namespace's measurement (tests, and after this node wrote much). */
  forgetStorage(ns: number): void {
    this.storage.delete(ns);
  }

  // ------------------------------------------------------------- operations (API and CLI)

  /** Creates a key with one role (on the org, or on namespace `ns`), returning it once. */
  async createKey(o: { org: string; role: RoleName; ns?: number; scopes?: string[]; ttlS?: number | null; createdBy: string }): Promise<CreatedKey> {
    if (!(ROLES as readonly string[]).includes(o.role)) throw new HttpError(400, 'invalid_argument', `role must be one of ${ROLES.join(', ')}`);
    const scopes = o.scopes ?? ['*'];
    try {
      checkScopes(scopes);
    } catch (e) {
      throw new HttpError(400, 'invalid_argument', (e as Error).message);
    }
    if (o.ttlS !== undefined && o.ttlS !== null && !(Number.isSafeInteger(o.ttlS) && o.ttlS > 0 && o.ttlS <= MAX_KEY_TTL_S)) {
      throw new HttpError(400, 'invalid_argument', `ttl_s must be an integer in 1..${MAX_KEY_TTL_S}`);
    }
    const k = newKey();
    const info = await this.d.control.createKey({
      keyId: k.keyId,
      org: o.org,
      secretHash: k.secretHash,
      scopes,
      expiry: o.ttlS ? this.now() + o.ttlS * 1000 : null,
      createdBy: o.createdBy,
      created: this.now(),
    });
    await this.d.authorizer.onCreated({ kind: 'key', org: o.org, keyId: k.keyId, role: o.role, ...(o.ns !== undefined ? { ns: o.ns } : {}) });
    this.d.logger.info({ org: o.org, key_id: k.keyId, role: o.role, created_by: o.createdBy }, 'api key created');
    return { token: k.token, key: info };
  }

  async revokeKey(org: string, keyId: string, by: string): Promise<void> {
    await this.d.control.revokeKey(org, keyId);
    this.forgetKey(keyId);
    this.d.logger.info({ org, key_id: keyId, revoked_by: by }, 'api key revoked');
  }

  /**
   * First start (spec §6): when no org exists, creates `org` and an org-admin key and returns
   * the key (to be printed once). Null when the cluster was bootstrapped before.
   */
  async bootstrap(org: string): Promise<string | null> {
    const existing = await this.d.control.listOrgs({ limit: 1 });
    if (existing.items.length > 0) return null;
    try {
      await this.d.control.createOrg(org);
    } catch (e) {
      if (isMetaError(e, 'AlreadyExists')) return null; // another node bootstrapped first
      throw e;
    }
    await this.d.authorizer.onCreated({ kind: 'org', org });
    const k = await this.createKey({ org, role: 'org_admin', createdBy: 'bootstrap' });
    return k.token;
  }
}

export type { Principal };

// The gateway side of tenancy (spec §6, §7): authenticate an API key (cached 30 s, evicted at
// once by the ControlStore's change feed), map the route to (action, resource), ask the
// Authorizer, then admit against the quotas; the decision is cached per key and resource for
// up to 1 s (spec §7's gateway decision cache). Also the gateway's membership (rate quotas
// are split among the live gateways), its usage counters (hourly rollups), the key and org
// operations the HTTP API and the CLI share, and `bootstrap` (first start: one org, one admin
// key, shown once). Logs carry key ids, never a secret or a hash (DESIGN §7).
import type { FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { MetaStore } from '../meta/contract.js';
import type { Collection } from '../meta/types.js';
import { isMetaError } from '../meta/errors.js';
import type { Catalog } from '../collection/catalog.js';
import { HttpError, type Principal as GatewayPrincipal } from '../gateway/server.js';
import { newKey, parseKey, verifySecret } from '../control/keys.js';
import { MAX_TOUCH_BATCH, ROLES, type ApiKeyInfo, type ApiKeyRecord, type ControlStore, type RoleName } from '../control/types.js';
import { UsageMeter, type UsageCounter } from '../quota/usage.js';
import { checkScopes } from '../control/validate.js';
import { QuotaExceeded, Quotas, type RateLimiter, type SlotLimiter } from '../quota/quota.js';
import { CATALOG_CACHE_MS } from '../collection/catalog.js';
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
/** Namespaces kept fresh per gateway, and re-measured per round, at most. */
export const MAX_MEASURED_NAMESPACES = 10_000;
export const MAX_REFRESH_PER_ROUND = 100;
/** Collections measured per namespace, at most (every loop a bound). */
export const MAX_MEASURED_COLLECTIONS = 1_000;
/**
 * An admission decision (the resolved namespace, the authorizer's allow, the quota limiters)
 * is reused for this long, or until anything it read changes (a change-feed event, a quota
 * change, a name this node created or dropped). Spec §7 allows a gateway decision cache of
 * at most 5 s; this one lives no longer than names are trusted (the catalog's 1 s).
 */
export const DECISION_CACHE_MS = CATALOG_CACHE_MS;
/** Decisions kept per verified key (routes × namespaces × collections it used), at most. */
export const MAX_DECISIONS_PER_KEY = 1_024;
/** A background task that keeps failing (the metastore is down) logs at most this often. */
export const FAILURE_LOG_INTERVAL_MS = 30_000;
/** Counted usage is added to the ControlStore this often (with last_used), and at shutdown. */
export const USAGE_FLUSH_MS = LAST_USED_FLUSH_MS;
/** A gateway renews its membership this often… */
export const MEMBER_HEARTBEAT_MS = 2_000;
/** …and is counted this long after its last renewal (a few missed beats, then its share returns to the others). */
export const MEMBER_TTL_MS = 10_000;
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

/**
 * What admission decided for one key on one (route, namespace, collection): allowed, with the
 * limiters to charge. Only allows are kept; a refusal is decided afresh each time.
 */
interface Decision {
  at: number;
  generation: number;
  principal: Principal;
  org: string;
  ns: number | null;
  /** Counts what was admitted (usage rollups). */
  usage: UsageCounter;
  /** Charged one unit per request: the request rate, and metadata operations on their routes. */
  perRequest: RateLimiter[];
  /** Charged the body's bytes (writes). */
  ingest?: RateLimiter;
  /** Query slots (reads): the namespace's at this gateway, then the collection's. */
  slots?: SlotLimiter[];
}

/** A presented key string already verified, with the decisions made for it. */
interface Verified {
  /** The keys-cache entry it was verified against: valid only while that entry stands. */
  entry: unknown;
  keyId: string;
  principal: Principal;
  expiry: number | null;
  decisions: Map<string, Decision>;
}

export interface TenancyDeps {
  control: ControlStore;
  authorizer: Authorizer;
  catalog: Catalog;
  meta: MetaStore;
  logger: Logger;
  /** The unapplied backlog of a collection (the log role's writer), when this node writes. */
  backlog?: (ns: number, collection: string, nsName: string, org: string) => Promise<{ records: number; bytes: number } | null>;
  /** A collection's stored bytes (log, manifests, data files, tag-only bytes), when this node can read manifests. */
  storedBytes?: (c: Collection) => Promise<number>;
  /** Where the node's metrics learn the gateway count and background failures. */
  observe?: { gateways(n: number): void; taskFailed(task: string): void };
  /** This node's id in the gateway membership (per-gateway quota shares); none: counted as the only gateway. */
  node?: string;
  now?: () => number;
}

export interface CreatedKey {
  /** The whole key; shown once, never stored or logged. */
  token: string;
  key: ApiKeyInfo;
}

/** Why a key was refused (the loam_refusals_total metric's reason). */
type AuthFailure = 'missing' | 'malformed' | 'invalid' | 'revoked' | 'expired';
const unauthenticated = (reason: AuthFailure, m: string) => new HttpError(401, 'unauthenticated', m, undefined, reason);

/** A write's size for the ingest quota: its Content-Length, or its parsed body re-serialised when it came chunked (none). */
function bodyBytes(req: FastifyRequest): number {
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : Buffer.byteLength(JSON.stringify(req.body ?? null));
}

function withRelease(p: Principal, release: () => void): GatewayPrincipal {
  return p.scopes === undefined ? { org: p.org, subject: p.subject, release } : { org: p.org, subject: p.subject, scopes: p.scopes, release };
}

/** A quota refusal becomes HTTP 429 with Retry-After naming the quota; anything else passes. */
function tooMany(e: unknown): never {
  if (e instanceof QuotaExceeded) throw new HttpError(429, 'quota_exceeded', e.message, Math.max(1, Math.ceil(e.retryAfterMs / 1000)), e.quota);
  throw e;
}

export class Tenancy {
  readonly quotas: Quotas;
  private readonly keys = new Map<string, { at: number; rec: Promise<ApiKeyRecord | null> }>();
  private readonly touches = new Map<string, number>();
  /** What this gateway admitted, per namespace (usage rollups). */
  readonly usage: UsageMeter;
  /**
   * Presented keys already verified against their record, by the exact key string, so a
   * cached key costs no hash per request. Only a correct secret gets here: an unknown id and
   * a wrong secret both miss and take the same hashing path. Valid only while the key's
   * cached record is the very one it was verified against: a revocation (local or through
   * the feed) or a refresh of the record after KEY_CACHE_MS ends it.
   */
  private readonly verified = new Map<string, Verified>();
  /** Bumped by every change-feed event and local revocation: cached decisions are stale then. */
  private changes = 0;
  private readonly storage = new Map<number, { at: number; bytes: number; pending?: Promise<number> }>();
  /**
   * Namespaces this gateway admitted writes for (ns → org), in least recently refreshed order:
   * their stored bytes are re-measured every STORAGE_MEASURE_MS, so the usage gauge follows
   * what GC, retention and dropped tags free, not only what writes add.
   */
  private readonly measured = new Map<number, string>();
  private refreshing: Promise<void> | null = null;
  private cursor = 0;
  private gapSince: number | null = null;
  private timers: NodeJS.Timeout[] = [];
  private polling: Promise<void> | null = null;
  private beating: Promise<void> | null = null;
  private closed = false;
  private readonly now: () => number;
  /** Per background task: when its failure was last logged, and failures since. */
  private readonly failures = new Map<string, { at: number; since: number }>();

  constructor(private readonly d: TenancyDeps) {
    this.now = d.now ?? Date.now;
    this.quotas = new Quotas(d.control, 1, this.now);
    this.usage = new UsageMeter(d.control, this.now, {
      // Decisions hold counters: a dropped one makes them stale.
      dropped: () => void this.changes++,
      failed: (e) => this.failed('usage', 'usage flush failed; the counts are kept for the next one', e),
    });
  }

  /**
   * Logs a background task's failure, at most every FAILURE_LOG_INTERVAL_MS per task (with the
   * count of failures since), so an outage is visible without flooding the log.
   */
  private failed(task: string, what: string, e: unknown): void {
    this.d.observe?.taskFailed(task);
    const f = this.failures.get(task);
    const now = this.now();
    if (f && now - f.at < FAILURE_LOG_INTERVAL_MS) {
      f.since++;
      return;
    }
    this.failures.set(task, { at: now, since: 0 });
    this.d.logger.warn({ task, err: { message: (e as Error).message }, ...(f?.since ? { failures_since_last_log: f.since } : {}) }, what);
  }

  /** Starts the change-feed watcher and the last_used batches. */
  async start(): Promise<void> {
    this.cursor = await this.d.control.controlVersion();
    const feed = setInterval(() => void this.pollFeed(), FEED_POLL_MS);
    const touch = setInterval(() => {
      void this.flushTouches().catch((e: unknown) => this.failed('last_used', 'last_used flush failed', e));
      void this.usage.flush();
    }, USAGE_FLUSH_MS);
    feed.unref();
    touch.unref();
    this.timers.push(feed, touch);
    const storage = setInterval(() => void this.refreshStorage(), STORAGE_MEASURE_MS);
    storage.unref();
    this.timers.push(storage);
    if (this.d.node) {
      await this.beat();
      const beat = setInterval(() => void this.beat(), MEMBER_HEARTBEAT_MS);
      beat.unref();
      this.timers.push(beat);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.timers) clearInterval(t);
    await this.polling;
    await this.beating;
    await this.refreshing;
    await this.flushTouches().catch(() => undefined);
    await this.usage.drain();
    if (this.d.node) await this.d.control.leave(this.d.node).catch(() => undefined); // the others take its share at once
  }

  /** Renews this gateway's membership and sizes the quota shares by the gateways alive. */
  beat(): Promise<void> {
    if (this.beating || this.closed || !this.d.node) return this.beating ?? Promise.resolve();
    const node = this.d.node;
    this.beating = (async () => {
      try {
        await this.d.control.heartbeat(node, MEMBER_TTL_MS, this.now());
        const live = await this.d.control.members(this.now());
        this.quotas.setGateways(live.length);
        this.d.observe?.gateways(this.quotas.gatewayCount);
      } catch (e) {
        // The shares stay as they were; a gateway that cannot beat keeps enforcing its last share.
        this.failed('membership', 'gateway membership heartbeat failed', e);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
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
          this.changes++;
          if (c.kind === 'key') this.forgetKey(c.id);
          else if (c.kind === 'binding') this.d.authorizer.invalidate(c.org, c.id);
          else if (c.kind === 'quota') this.quotaChanged(c.org);
        }
      } catch (e) {
        this.failed('feed', 'control change feed poll failed; caches expire on their own', e);
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
    this.changes++;
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

  /**
   * The hot path of authentication: this exact header was verified before against the key
   * record still cached. Undefined sends the caller to `authenticate`. Only a correct secret
   * is ever remembered, so an unknown id and a wrong secret both miss and cost the same.
   */
  private verifiedFor(header: string | undefined, now: number): Verified | undefined {
    const hit = header === undefined ? undefined : this.verified.get(header);
    if (!hit) return undefined;
    const entry = this.keys.get(hit.keyId);
    if (entry === undefined || entry !== hit.entry || now - entry.at >= KEY_CACHE_MS) return undefined;
    if (hit.expiry !== null && hit.expiry <= now) throw unauthenticated('expired', `API key ${hit.keyId} expired`);
    if (this.touches.size < MAX_PENDING_TOUCHES || this.touches.has(hit.keyId)) this.touches.set(hit.keyId, now);
    return hit;
  }

  /** Authorization header → principal, or 401. */
  async authenticate(header: string | undefined): Promise<Principal> {
    return (await this.authenticated(header)).principal;
  }

  private async authenticated(header: string | undefined): Promise<Verified> {
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
    if (this.touches.size < MAX_PENDING_TOUCHES || this.touches.has(rec.keyId)) this.touches.set(rec.keyId, this.now());
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

  private async nsId(org: string, name: string): Promise<number | null> {
    try {
      return (await this.d.catalog.namespace(org, name)).id;
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFound') return null;
      throw e;
    }
  }

  /** Everything a cached decision was derived from; any change makes it stale. */
  private generation(): number {
    return this.changes + this.quotas.generation + this.d.catalog.generation;
  }

  /**
   * The gateway's admission hook: authenticate, authorize, admit (quotas). With the key
   * verified and the decision for this route and resource cached, it completes without a
   * promise (the per-request cost `bench gateway` measures); otherwise it resolves.
   */
  admit = (req: FastifyRequest, route: string): GatewayPrincipal | Promise<GatewayPrincipal> => {
    const now = this.now();
    const v = this.verifiedFor(req.headers.authorization, now);
    const params = (req.params ?? {}) as { ns?: string; c?: string };
    const k = `${req.method} ${route}\u0000${params.ns ?? ''}\u0000${params.c ?? ''}`;
    const d = v?.decisions.get(k);
    if (d && now - d.at < DECISION_CACHE_MS && d.generation === this.generation()) return this.enforce(d, req, params);
    return this.decide(req, route, k).then((fresh) => this.enforce(fresh, req, params));
  };

  /** Authenticates, resolves and authorizes, then caches the allow with its limiters. */
  private async decide(req: FastifyRequest, route: string, k: string): Promise<Decision> {
    const generation = this.generation();
    const v = await this.authenticated(req.headers.authorization);
    const p = v.principal;
    const ra = ROUTE_AUTH[`${req.method} ${route}`];
    if (!ra) throw new HttpError(403, 'forbidden', `${req.method} ${route} is not mapped to an action; refused`, undefined, 'unmapped_route');
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
      throw new HttpError(403, 'forbidden', `this API key may not ${ra.action} ${resource.kind === 'org' ? `in org "${p.org}"` : `in namespace "${params.ns}"`}`, undefined, ra.action);
    }
    const q = this.quotas;
    const nsKey = `${p.org}/${ns ?? '-'}`;
    const perRequest = [await q.rateLimiter(p.org, ns, 'request_rate', `${nsKey}/${SURFACE}`, 'requests')];
    if (ra.quota === 'metadata') perRequest.push(await q.rateLimiter(p.org, ns, 'metadata_ops_rate', nsKey, 'metadata operations'));
    const d: Decision = { at: this.now(), generation, principal: p, org: p.org, ns, usage: this.usage.counter(p.org, ns), perRequest };
    if (ra.quota === 'ingest' && ns !== null) d.ingest = await q.rateLimiter(p.org, ns, 'ingest_bytes_per_s', nsKey, 'ingest bytes');
    if (ra.quota === 'query' && ns !== null) {
      d.slots = [await q.slotLimiter(p.org, ns, 'namespace_query_slots', `${ns}`), await q.slotLimiter(p.org, ns, 'concurrent_query_slots', `${ns}/${params.c}`)];
    }
    // Kept only if nothing changed while deciding (else the next request decides again), and
    // only for a resolved namespace: one created elsewhere must get its limiters at once.
    if (generation === this.generation() && (ra.scope === 'org' || ns !== null)) {
      if (v.decisions.size >= MAX_DECISIONS_PER_KEY) v.decisions.clear();
      v.decisions.set(k, d);
    }
    return d;
  }

  /** Charges a decision's quotas for this request; 429 (HttpError) when one is exceeded. */
  private enforce(d: Decision, req: FastifyRequest, params: { ns?: string; c?: string }): GatewayPrincipal | Promise<GatewayPrincipal> {
    try {
      for (const l of d.perRequest) this.quotas.take(l, 1);
      // A decision made while a flush dropped its counter counts into the current one.
      (d.generation === this.generation() ? d.usage : this.usage.counter(d.org, d.ns)).requests++;
      if (d.ingest) {
        const bytes = bodyBytes(req);
        this.quotas.take(d.ingest, bytes);
        return this.admitWrite(d.org, d.ns!, params).then(() => {
          // Looked up again: a flush during the checks may have dropped d's counter.
          this.usage.counter(d.org, d.ns).ingestBytes += bytes;
          return d.principal;
        }, tooMany);
      }
      if (d.slots) {
        const got = this.quotas.slots(d.slots, 1);
        if (typeof got === 'function') return withRelease(d.principal, got);
        return got.then((release) => withRelease(d.principal, release), tooMany);
      }
    } catch (e) {
      tooMany(e);
    }
    return d.principal;
  }

  /** The write-only quotas, read fresh per request: the collection's backlog and the namespace's storage. */
  private async admitWrite(org: string, ns: number, params: { ns?: string; c?: string }): Promise<void> {
    await this.admitBacklog(org, ns, params);
    await this.admitStorage(org, ns);
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

  /** Stored bytes of the namespace's collections (spec §6), measured at most every STORAGE_MEASURE_MS. */
  storedBytes(org: string, ns: number): Promise<number> {
    if (this.measured.has(ns) || this.measured.size < MAX_MEASURED_NAMESPACES) this.measured.set(ns, org);
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

  /**
   * Re-measures the namespaces this gateway keeps fresh, the least recently refreshed first,
   * at most MAX_REFRESH_PER_ROUND per round. A dropped namespace stores nothing and leaves.
   */
  refreshStorage(): Promise<void> {
    if (this.refreshing || this.closed) return this.refreshing ?? Promise.resolve();
    this.refreshing = (async () => {
      try {
        const round = [...this.measured].slice(0, MAX_REFRESH_PER_ROUND);
        for (const [ns, org] of round) {
          // To the back of the line, measured or not.
          this.measured.delete(ns);
          this.measured.set(ns, org);
          try {
            await this.measure(org, ns);
          } catch (e) {
            if (!isMetaError(e, 'NotFound')) throw e;
            this.measured.delete(ns);
            this.storage.delete(ns);
            await this.d.control.putUsage([{ org, ns, metric: 'storage_bytes', window: 0, value: 0 }]);
          }
        }
      } catch (e) {
        this.failed('storage', 'measuring stored bytes failed; the last measurement stands', e);
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private async measure(org: string, ns: number): Promise<number> {
    let bytes = 0;
    const colls = await this.d.meta.listCollections(ns, { limit: MAX_MEASURED_COLLECTIONS });
    for (const c of colls.items) {
      try {
        if (this.d.storedBytes) {
          bytes += await this.d.storedBytes(c);
          continue;
        }
        // Without manifests at hand (no query or log role), the log the partitions retain.
        const s = await this.d.meta.streamState(ns, c.streamId);
        for (const h of s.heads) bytes += h.bytes;
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e; // dropped since it was listed: it stores nothing
      }
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

  /**
   * The namespaces among `ids` that `p` may read: a namespace-scoped key sees only its own,
   * and nothing of another org's (rows of the org's usage and quotas are filtered by it).
   */
  async readableNamespaces(p: Principal, ids: readonly number[]): Promise<Set<number>> {
    const rs: { kind: 'namespace'; org: string; ns: number; name: string }[] = [];
    for (const id of [...new Set(ids)].slice(0, MAX_MEASURED_NAMESPACES)) {
      try {
        const n = await this.d.meta.namespace(id);
        if (n.org === p.org) rs.push({ kind: 'namespace', org: p.org, ns: id, name: n.name });
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e; // dropped: nobody's to read
      }
    }
    return new Set((await this.d.authorizer.filterVisible(p, 'namespace.read', rs)).map((r) => r.ns));
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
   * the key (to be printed once). Null when the cluster was bootstrapped before.
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

export type { Principal };

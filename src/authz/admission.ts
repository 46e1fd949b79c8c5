// Admission at the gateway (spec §6, §7): authenticate the key, map the route to (action,
// resource), ask the Authorizer, then charge the quotas. With the key verified and the
// decision for this route and resource cached, a request is admitted without a promise (the
// per-request cost `bench gateway` measures).
import type { FastifyRequest } from 'fastify';
import type { Catalog } from '../collection/catalog.js';
import { QuotaExceeded, type Quotas } from '../quota/quota.js';
import type { UsageMeter } from '../quota/usage.js';
import { STORAGE_MEASURE_MS, type StorageMeter } from '../quota/storage.js';
import type { Authorizer, Principal, Resource } from './authorizer.js';
import { AuthzError } from './errors.js';
import type { KeyAuthenticator } from './key-auth.js';
import { cachedDecision, decisionKey, keepDecision, type Decision } from './decisions.js';
import { ROUTE_AUTH, SURFACE } from './route-actions.js';
import { OPERATOR_ORG } from '../control/types.js';

export interface AdmissionDeps {
  keys: KeyAuthenticator;
  authorizer: Authorizer;
  catalog: Catalog;
  quotas: Quotas;
  usage: UsageMeter;
  storage: StorageMeter;
  /** Everything a cached decision was derived from; any change makes it stale. */
  generation: () => number;
  now: () => number;
}

type Params = { ns?: string; c?: string };

/** A write's size for the ingest quota: its Content-Length, or its parsed body re-serialised when it came chunked (none). */
function bodyBytes(req: FastifyRequest): number {
  const declared = Number(req.headers['content-length']);
  return Number.isSafeInteger(declared) && declared >= 0 ? declared : Buffer.byteLength(JSON.stringify(req.body ?? null));
}

/** Whether a write's body holds upserts (a body that only deletes adds nothing to store). */
function addsDocuments(body: unknown): boolean {
  if (body === null || typeof body !== 'object') return true; // not a write's shape: validation refuses it
  const upserts = (body as { upserts?: unknown }).upserts;
  if (upserts === undefined) return false;
  return !Array.isArray(upserts) || upserts.length > 0;
}

/** An admitted principal: `release` frees what admission took (a query slot) once the response is sent. */
export interface Admitted extends Principal {
  release?: () => void;
}

function withRelease(p: Principal, release: () => void): Admitted {
  return p.scopes === undefined ? { org: p.org, subject: p.subject, release } : { org: p.org, subject: p.subject, scopes: p.scopes, release };
}

/** A quota refusal becomes HTTP 429 with Retry-After naming the quota; anything else passes. */
function tooMany(e: unknown): never {
  if (e instanceof QuotaExceeded) throw new AuthzError('quota_exceeded', e.message, { retryAfterS: Math.max(1, Math.ceil(e.retryAfterMs / 1000)), reason: e.quota });
  throw e;
}

export class Admission {
  constructor(private readonly d: AdmissionDeps) {}

  /** The gateway's admission hook: a principal, or an AuthzError (401, 403, 429). */
  admit = (req: FastifyRequest, route: string): Admitted | Promise<Admitted> => {
    const now = this.d.now();
    const v = this.d.keys.verifiedFor(req.headers.authorization, now);
    const params = (req.params ?? {}) as Params;
    const k = decisionKey(req.method, route, params);
    const d = cachedDecision(v?.decisions, k, now, this.d.generation());
    if (d) return this.enforce(d, req);
    return this.decide(req, route, k).then((fresh) => this.enforce(fresh, req));
  };

  /**
   * Before the body is read: a request whose decision is cached and finds its request-rate
   * bucket — for a write, its ingest bucket at the declared Content-Length — already spent is
   * refused 429 now, having cost the node no body bytes and no parse. Nothing is charged here
   * (admit charges); a request with no cached decision goes on to be decided after its body.
   */
  refuseSpent = (req: FastifyRequest, route: string): void => {
    const now = this.d.now();
    const v = this.d.keys.verifiedFor(req.headers.authorization, now);
    const d = cachedDecision(v?.decisions, decisionKey(req.method, route, (req.params ?? {}) as Params), now, this.d.generation());
    if (!d) return;
    const q = this.d.quotas;
    try {
      for (const l of d.perRequest) q.refuseSpent(l, 1);
      const declared = Number(req.headers['content-length']);
      if (d.ingest && Number.isSafeInteger(declared) && declared > 0) q.refuseSpent(d.ingest, declared);
    } catch (e) {
      tooMany(e);
    }
  };

  private async nsId(org: string, name: string): Promise<number | null> {
    try {
      return (await this.d.catalog.namespace(org, name)).id;
    } catch (e) {
      if ((e as { code?: string }).code === 'NotFound') return null;
      throw e;
    }
  }

  /** Authenticates, resolves and authorizes, then caches the allow with its limiters. */
  private async decide(req: FastifyRequest, route: string, k: string): Promise<Decision> {
    const generation = this.d.generation();
    const v = await this.d.keys.authenticated(req.headers.authorization);
    const p = v.principal;
    // HEAD is GET without the body (fastify serves one for every GET route): the same action.
    const ra = ROUTE_AUTH[`${req.method === 'HEAD' ? 'GET' : req.method} ${route}`];
    if (!ra) throw new AuthzError('forbidden', `${req.method} ${route} is not mapped to an action; refused`, { reason: 'unmapped_route' });
    const params = (req.params ?? {}) as Params;
    let resource: Resource;
    let ns: number | null = null;
    if (ra.scope === 'org') resource = { kind: 'org', org: p.org };
    else if (ra.scope === 'deployment') resource = { kind: 'org', org: OPERATOR_ORG };
    else {
      ns = await this.nsId(p.org, params.ns!);
      resource =
        ra.scope === 'namespace'
          ? { kind: 'namespace', org: p.org, ns, name: params.ns! }
          : { kind: 'collection', org: p.org, ns, name: params.ns!, collection: params.c! };
    }
    if (!(await this.d.authorizer.check(p, ra.action, resource))) {
      const where = ra.scope === 'deployment' ? '(an operator action: use the operator key)' : resource.kind === 'org' ? `in org "${p.org}"` : `in namespace "${params.ns}"`;
      throw new AuthzError('forbidden', `this API key may not ${ra.action} ${where}`, { reason: ra.action });
    }
    const q = this.d.quotas;
    const nsKey = `${p.org}/${ns ?? '-'}`;
    const perRequest = [await q.rateLimiter(p.org, ns, 'request_rate', `${nsKey}/${SURFACE}`, 'requests')];
    if (ra.quota === 'metadata') perRequest.push(await q.rateLimiter(p.org, ns, 'metadata_ops_rate', nsKey, 'metadata operations'));
    const d: Decision = { at: this.d.now(), generation, principal: p, action: ra.action, org: p.org, ns, usage: this.d.usage.counter(p.org, ns), perRequest };
    if (ra.quota === 'ingest' && ns !== null) d.ingest = await q.rateLimiter(p.org, ns, 'ingest_bytes_per_s', nsKey, 'ingest bytes');
    if (ra.quota === 'query' && ns !== null) {
      // The collection's id says whether this node owns it (its semaphore is whole at the owner, spec §6).
      const cid = await this.d.catalog.collection(p.org, params.ns!, params.c!).then(
        (c) => c.id,
        () => undefined,
      );
      d.slots = [await q.slotLimiter(p.org, ns, 'namespace_query_slots', `${ns}`), await q.slotLimiter(p.org, ns, 'concurrent_query_slots', `${ns}/${params.c}`, cid)];
    }
    // Kept only if nothing changed while deciding (else the next request decides again), and
    // only for a resolved namespace: one created elsewhere must get its limiters at once.
    if (generation === this.d.generation() && (ra.scope === 'org' || ra.scope === 'deployment' || ns !== null)) keepDecision(v.decisions, k, d);
    return d;
  }

  /** Charges a decision's quotas for this request; quota_exceeded (429) when one is exceeded. */
  private enforce(d: Decision, req: FastifyRequest): Admitted | Promise<Admitted> {
    const q = this.d.quotas;
    let asked: Promise<void>[] | null = null;
    try {
      for (const l of d.perRequest) {
        // A bucket at its owner answers at once from the lease, else after a batched ask (quota/owner.ts).
        const t = q.take(l, 1);
        if (t) (asked ??= []).push(t);
      }
    } catch (e) {
      tooMany(e);
    }
    if (asked) return Promise.all(asked).then(() => this.enforceRest(d, req), tooMany);
    return this.enforceRest(d, req);
  }

  /** The rest of a decision's quotas, once the request rate admitted the request. */
  private enforceRest(d: Decision, req: FastifyRequest): Admitted | Promise<Admitted> {
    const q = this.d.quotas;
    try {
      // A decision made while a flush dropped its counter counts into the current one.
      (d.generation === this.d.generation() ? d.usage : this.d.usage.counter(d.org, d.ns)).requests++;
      if (d.ingest) {
        const bytes = bodyBytes(req);
        q.take(d.ingest, bytes);
        // The unapplied backlog is the collection writer's to check (it knows the batch; quota/backlog.ts).
        // A write that only deletes, and an erasure, store nothing more: a namespace at its storage
        // quota can always shrink (and carry out an erasure request).
        const grows = d.action === 'documents.write' && addsDocuments(req.body);
        return (grows ? this.admitStorage(d.org, d.ns!) : Promise.resolve()).then(() => {
          // Looked up again: a flush during the checks may have dropped d's counter.
          this.d.usage.counter(d.org, d.ns).ingestBytes += bytes;
          return d.principal;
        }, tooMany);
      }
      if (d.slots) {
        const got = q.slots(d.slots, 1);
        if (typeof got === 'function') return withRelease(d.principal, got);
        return got.then((release) => withRelease(d.principal, release), tooMany);
      }
    } catch (e) {
      tooMany(e);
    }
    return d.principal;
  }

  /** Storage bytes (soft): the namespace's last measurement against its quota. */
  private async admitStorage(org: string, ns: number): Promise<void> {
    const max = await this.d.quotas.value(org, ns, 'storage_bytes');
    const bytes = await this.d.storage.storedBytes(org, ns);
    if (bytes >= max) throw new QuotaExceeded('storage_bytes', STORAGE_MEASURE_MS, `the namespace stores ${bytes} bytes, at its storage_bytes quota (${max}); delete data or raise the quota`);
  }
}

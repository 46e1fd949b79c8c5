// The HTTP API (fastify) under /v1, /healthz and /readyz. /metrics has a listener of its
// own (src/metrics/listener.ts): it takes no API key.
//
// Every request passes one admission hook (`admit`): with auth api_keys, API-key
// authentication, authorization and quotas (spec §6, §7); with auth none, the default org.
// Errors are always JSON { error: { code, message } } with the matching status.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import { ownField } from '../meta/fields.js';
import { isHoldRefusal, type MoveHold } from './move-buffer.js';
import type { Collection, Namespace, Retention } from '../meta/types.js';
import { collectionLogRetentionOrDefault } from '../meta/core/catalog.js';
import { DataError } from '../log/errors.js';
import { liveCollections, MAX_COLLECTIONS_PER_NAMESPACE } from '../quota/storage.js';
import { canonicalKey } from '../log/keys.js';
import type { Catalog } from '../collection/catalog.js';
import { DEFAULT_ORG } from '../collection/catalog.js';
import type { CollectionReader, Consistency } from '../collection/reader.js';
import type { CollectionWriter } from '../collection/writer.js';
import { NO_QUERY, openApiDocument, ROUTES, type RouteDef } from './schemas.js';
import { queryAnswer } from './query-answer.js';
import { bodyText, clientErrorHandler, frameworkErrors, MAX_HEADER_BYTES, notFound, registerBodyParser, registerValidators, RouteTable } from './protocol.js';
import { MAX_KEY_BYTES } from '../log/keys.js';
import type { Authorizer } from '../authz/authorizer.js';
import type { ErasureService } from '../erasure/service.js';
import { erasureJson, verifyKey } from '../erasure/view.js';
import { FORWARDED_BY_HEADER, ForwardFailed, SERVED_BY_HEADER, type RequestRouter, type RouteKind } from '../router/requests.js';
import { placementKey } from '../router/placement.js';
import type { SizeClass } from '../meta/backends/sharded/directory.js';
import type { NamespaceKeyRecord } from '../crypto/types.js';
import { namespaceKeyView } from '../crypto/view.js';
import type { WriteBudget } from './write-budget.js';
import { admitWriteBodies, authenticateBeforeBody, writeAdmissions } from './body-admission.js';
import { BODY_LIMIT_BYTES, formatValidation, HttpError, listedWithCursor, toHttp, UNAVAILABLE_RETRY_AFTER_S } from './http-errors.js';

export { BODY_LIMIT_BYTES, HttpError, UNAVAILABLE_RETRY_AFTER_S };

/**
 * Longest path parameter the router matches: a primary key of MAX_KEY_BYTES with every byte
 * percent-encoded. Longer ones would match no route at all.
 */
export const MAX_PARAM_LENGTH = 3 * MAX_KEY_BYTES;
/** A request that has not finished within this is cut off (every wait has a deadline). */
export const REQUEST_DEADLINE_MS = 120_000;

/** Who is calling; set by the admission hook. */
export interface Principal {
  org: string;
  /** The API key ('key:<key_id>'), or null when authentication is off. */
  subject: string | null;
  /** The key's scopes (spec §6). */
  scopes?: readonly string[];
  /** Frees what admission took (a query slot) once the response is sent. */
  release?: () => void;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal;
  }
}

/**
 * Authentication, authorization and admission plug in here (spec §6, §7). Throw (or
 * reject with) an HttpError, AuthzError or DataError to refuse. A plain value when the answer is at hand:
 * no promise on the hot path.
 */
export type Admit = (req: FastifyRequest, route: string) => Principal | Promise<Principal>;

const LOCAL_PRINCIPAL: Principal = Object.freeze({ org: DEFAULT_ORG, subject: null });
export const defaultAdmit: Admit = () => LOCAL_PRINCIPAL;

/**
 * What the gateway records about requests. The node's Prometheus metrics provide it; the
 * gateway names only what it uses, so it does not depend on the node above it.
 */
export interface GatewayMetrics {
  httpRequests: { inc(labels: { method: string; route: string; status: string }): void };
  httpLatency: { observe(labels: { method: string; route: string; status: string }, seconds: number): void };
  refusals: { inc(labels: { status: string; code: string; reason: string }): void };
}

export interface GatewayDeps {
  meta: MetaStore;
  catalog: Catalog;
  reader: CollectionReader | null;
  writer: CollectionWriter | null;
  metrics: GatewayMetrics;
  logger: Logger;
  version: string;
  admit?: Admit;
  /** Filters lists (namespaces) to what the principal may see (spec §7 filterVisible). */
  authorizer?: Authorizer;
  /** More routes (the tenancy API), admitted like the others… */
  routes?: (app: FastifyInstance) => void;
  /** …and their definitions, for the OpenAPI document. */
  routeDefs?: Record<string, RouteDef>;
  /** Requests carry an API key (the OpenAPI document says so, with its 401/403/429). */
  authenticated?: boolean;
  /** Authenticates a request before its body is read (./body-admission.ts), and one no route matched (401 before its 404 or 405); none: no authentication. */
  authenticate?: (req: FastifyRequest) => { org: string } | Promise<{ org: string }>;
  /** Readiness: resolves when the metastore and the store answer. */
  ready: () => Promise<void>;
  /** Erasure (spec §9): the service; absent, its routes answer 503 naming the setting. */
  erasure?: ErasureService;
  /**
   * Path prefixes whose key a plugin's own onRequest hook supplies (the status page's session
   * cookie), which runs after the gateway's: authenticated at admission, not before the body.
   */
  keyFromPlugin?: readonly string[];
  /** Paths served without admission (the status page's login and logout); their routes authenticate what they need. */
  publicPaths?: readonly string[];
  /** Holds writes to a namespace while it moves between metastore shards (spec §5.5; sharded metastores only). */
  moveHold?: MoveHold;
  /** This node's id: every answer names the node that served it (SERVED_BY_HEADER). */
  nodeId?: string;
  /**
   * Request routing (spec §5.3, docs/placement.md): reads and queries to the collection's owner,
   * writes to a log node in this zone. `orgOf` says whose names the request's path uses (the
   * key's org), or throws when it cannot tell (the request is then admitted here and refused).
   */
  router?: { requests: RequestRouter; orgOf: (req: FastifyRequest) => string | Promise<string>; sizeClass?: (ns: number) => SizeClass };
  /** Routes of the node's other parts (GET /v1/placement), admitted like the others; their definitions are in ROUTES. */
  moreRoutes?: readonly ((app: FastifyInstance) => void)[];
  /** Envelope encryption (spec §9.8): the namespace key operations; absent, the key routes answer 503 naming the setting. */
  keys?: NamespaceKeyAdmin;
  /** Bounds the bodies of writes in flight (./write-budget.ts); absent, no bound but the body limit. */
  writeBudget?: WriteBudget;
}

/** What the key routes do (the node's key ring, and its worker thread told of each change). */
export interface NamespaceKeyAdmin {
  records(ns: number): Promise<readonly NamespaceKeyRecord[]>;
  rotate(ns: number): Promise<number>;
  destroy(ns: number): Promise<void>;
}

/** The routes a gateway routes (spec §5.3), and how. */
const ROUTED: Record<string, RouteKind> = {
  [ROUTES.getDocument.url]: 'read',
  [ROUTES.query.url]: 'read',
  [ROUTES.writeDocuments.url]: 'write',
};

/**
 * Refuses a collection the namespace has no room for (MAX_COLLECTIONS_PER_NAMESPACE), before
 * anything is written. Creates racing on several nodes may each pass; the storage measurement
 * allows for that.
 */
async function holdsRoomForACollection(meta: MetaStore, n: Namespace): Promise<void> {
  let held = 0;
  for await (const _ of liveCollections(meta, n.id, MAX_COLLECTIONS_PER_NAMESPACE)) held++;
  if (held >= MAX_COLLECTIONS_PER_NAMESPACE) {
    throw new HttpError(409, 'limit_exceeded', `namespace "${n.name}" holds ${held} collections, the most a namespace may hold (MAX_COLLECTIONS_PER_NAMESPACE); delete one or use another namespace`);
  }
}

function nsJson(n: Namespace) {
  return { id: n.id, name: n.name, created: n.created };
}

/** A collection as the API shows it; with its log retention (its implicit stream's) where the answer is about one collection. */
function collJson(c: Collection, nsName: string, retention?: Retention) {
  return {
    id: c.id,
    name: c.name,
    namespace: nsName,
    primary_key: c.schema.primaryKey,
    partitions: c.partitions,
    fields: c.schema.fields,
    created: c.created,
    ...(retention ? { retention: { ms: retention.ms, bytes: retention.bytes } } : {}),
  };
}

/**
 * Serves a route from its definition: requests are validated by its schema (the one the
 * OpenAPI document shows); answers are not filtered through the response schema. A route
 * that takes no query parameters refuses any by name (NO_QUERY), as the others refuse an
 * unknown one: ignored, `DELETE …?dry_run=true` deleted.
 */
export function addRoute(app: FastifyInstance, r: RouteDef, handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>): void {
  const schema = { ...r.schema, querystring: r.schema.querystring ?? NO_QUERY, response: undefined, summary: r.summary };
  app.route({ method: r.method, url: r.url, schema: schema as never, handler, ...(r.bodyLimit !== undefined ? { bodyLimit: r.bodyLimit } : {}) });
}

const AUTHORIZATION = 'authorization';

export function buildApp(d: GatewayDeps): FastifyInstance {
  const app = Fastify({
    loggerInstance: d.logger,
    disableRequestLogging: true,
    bodyLimit: BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_DEADLINE_MS,
    http: { maxHeaderSize: MAX_HEADER_BYTES },
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    schemaErrorFormatter: (errors, dataVar) => formatValidation(errors as never, dataVar),
    frameworkErrors: frameworkErrors as never,
    clientErrorHandler,
    return503OnClosing: true,
  });
  const admit = d.admit ?? defaultAdmit;
  const table = new RouteTable();
  table.watch(app as unknown as FastifyInstance);
  registerBodyParser(app as unknown as FastifyInstance, BODY_LIMIT_BYTES);
  registerValidators(app as unknown as FastifyInstance);

  app.decorateRequest('principal', null as unknown as Principal);

  const ops = new Set(['/healthz', '/readyz', '/v1/openapi.json', ...(d.publicPaths ?? [])]);
  // One key per request: Node keeps the first of several Authorization headers and drops the
  // rest, while a proxy in front may decide on another, so an ambiguous request is refused.
  app.addHook('onRequest', (req, _reply, done) => {
    const raw = req.raw.rawHeaders;
    let n = 0;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === AUTHORIZATION.length && raw[i]!.toLowerCase() === AUTHORIZATION) n++;
    done(n > 1 ? new HttpError(401, 'unauthenticated', `the request has ${n} Authorization headers: send exactly one, Authorization: Bearer loam_<key_id>_<secret>`) : undefined);
  });
  if (d.authenticate) {
    const late = d.keyFromPlugin ?? [];
    authenticateBeforeBody(app as unknown as FastifyInstance, d.authenticate, (route) => !ops.has(route) && !late.some((at) => route === at || route.startsWith(`${at}/`)));
  }
  if (d.writeBudget) admitWriteBodies(app as unknown as FastifyInstance, d.writeBudget);

  app.addHook('onResponse', async (req, reply) => {
    req.principal?.release?.();
    writeAdmissions.get(req)?.release?.();
    const route = req.routeOptions.url ?? 'unmatched';
    const labels = { method: req.method, route, status: String(reply.statusCode) };
    d.metrics.httpRequests.inc(labels);
    d.metrics.httpLatency.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500) req.log.warn({ route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request failed');
    else req.log.debug({ route, status: reply.statusCode, ms: Math.round(reply.elapsedTime) }, 'request');
  });

  app.addHook('onRequestAbort', async (req) => {
    req.principal?.release?.();
    const w = writeAdmissions.get(req);
    if (w) {
      w.aborted.abort(new HttpError(499, 'client_closed', 'the client closed the connection'));
      if (!w.handling) w.release?.();
    }
  });

  app.setErrorHandler((err, req, reply) => {
    const h = toHttp(err);
    if (h.status === 401 || h.status === 403 || h.status === 429) d.metrics.refusals.inc({ status: String(h.status), code: h.code, reason: h.reason ?? '' });
    if (h.status >= 500) req.log.error({ err: { message: (err as Error).message, code: (err as { code?: string }).code } }, 'request error');
    if (h.retryAfterS !== undefined) void reply.header('Retry-After', String(h.retryAfterS));
    void reply.status(h.status).send({ error: { code: h.code, message: h.message } });
  });

  app.setNotFoundHandler(notFound(table, MAX_PARAM_LENGTH) as never);

  if (d.nodeId) {
    const id = d.nodeId;
    // A forwarded answer keeps the serving node's header.
    app.addHook('onSend', (_req, reply, payload, done) => {
      if (!reply.hasHeader(SERVED_BY_HEADER)) void reply.header(SERVED_BY_HEADER, id);
      done(null, payload);
    });
  }

  /**
   * Routes a request to where it is best served (spec §5.3); true when it was answered from
   * there. Anything that stops the routing (a name that does not resolve, a target that does
   * not answer) leaves the request to be admitted and served here, where it is correct too.
   */
  const routeAway = async (req: FastifyRequest, reply: FastifyReply, kind: RouteKind): Promise<boolean> => {
    const r = d.router!;
    let target;
    try {
      const org = await r.orgOf(req);
      const params = req.params as { ns: string; c: string };
      const c = await d.catalog.collection(org, params.ns, params.c);
      target = r.requests.target(kind, placementKey.collection(c.ns, c.id, r.sizeClass?.(c.ns)), req.headers);
    } catch {
      return false;
    }
    if (!target) return false;
    try {
      const a = await r.requests.forward(target, { method: req.method, url: req.url, headers: req.headers, body: req.body }, kind);
      void reply.status(a.status).headers(a.headers).send(a.body);
      return true;
    } catch (e) {
      if (e instanceof ForwardFailed && e.outcomeUnknown) {
        throw new HttpError(503, 'unavailable', `the log node this write was sent to (${e.target}) did not answer; it may have been applied: retry it (writes by primary key repeat safely)`, UNAVAILABLE_RETRY_AFTER_S);
      }
      return false;
    }
  };

  // Callback style, so an admission answered at once costs no promise (bench gateway). Before
  // validation: a request refused as malformed is charged to its quotas too, and a key that may
  // not act learns nothing of the body's schema.
  app.addHook('preValidation', (req, reply, done) => {
    // No route: authenticated like any request before its body (401 first), then 404 or 405 (not a 403 for an unmapped route).
    if (req.is404) return done();
    const route = req.routeOptions.url ?? '';
    if (ops.has(route)) return done();
    const kind = d.router ? ROUTED[route] : undefined;
    if (kind && req.headers[FORWARDED_BY_HEADER] === undefined && d.router!.requests.routes(kind)) {
      routeAway(req, reply, kind).then(
        (answered) => (answered ? undefined : admitThen(req, route, done)),
        (e: Error) => done(e),
      );
      return;
    }
    admitThen(req, route, done);
  });

  const admitThen = (req: FastifyRequest, route: string, done: (e?: Error) => void): void => {
    let got: Principal | Promise<Principal>;
    try {
      got = admit(req, route);
    } catch (e) {
      return done(e as Error);
    }
    if (!(got instanceof Promise)) {
      req.principal = got;
      return done();
    }
    got.then(
      (p) => {
        req.principal = p;
        done();
      },
      (e: Error) => done(e),
    );
  };

  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_req, reply) => {
    try {
      await d.ready();
      return { status: 'ready' };
    } catch (e) {
      return reply.status(503).header('Retry-After', '1').send({ error: { code: 'not_ready', message: (e as Error).message } });
    }
  });
  const openapi = openApiDocument(d.version, { ...(d.routeDefs ? { routes: d.routeDefs } : {}), auth: d.authenticated === true });
  app.get('/v1/openapi.json', async () => openapi);

  const route = <P, Q, B>(r: RouteDef, handler: (req: FastifyRequest<{ Params: P; Querystring: Q; Body: B }>, reply: FastifyReply) => Promise<unknown>) =>
    addRoute(app as unknown as FastifyInstance, r, async (req, reply) => {
      if (r.role === 'log' && !d.writer) throw new HttpError(503, 'role_unavailable', 'this node does not run the log role; send writes to a node that does');
      if (r.role === 'query' && !d.reader) throw new HttpError(503, 'role_unavailable', 'this node does not run the query role; send reads to a node that does');
      return handler(req as never, reply);
    });

  /**
   * Awaits an authorizer's lifecycle hook (spec §7) run after the metastore committed: its
   * failure is logged, never answered as a refusal of what was written. What a hook keeps is
   * keyed by ids that are never reused, so one it missed grants nothing.
   */
  const afterCommit = async (what: string, hook: Promise<void> | undefined): Promise<void> => {
    try {
      await hook;
    } catch (e) {
      d.logger.warn({ err: { message: (e as Error).message } }, `${what}; the authorizer's lifecycle hook failed`);
    }
  };

  type NsP = { ns: string };
  type CP = { ns: string; c: string };
  type ListQ = { prefix?: string; cursor?: string; page_size: number };

  route<unknown, unknown, { name: string }>(ROUTES.createNamespace, async (req, reply) => {
    const n = await d.meta.createNamespace({ org: req.principal.org, name: req.body.name });
    d.catalog.invalidate();
    await afterCommit(`namespace ${n.id} created`, d.authorizer?.onCreated({ kind: 'namespace', org: n.org, ns: n.id, name: n.name }));
    return reply.status(201).send(nsJson(n));
  });

  route<unknown, ListQ, unknown>(ROUTES.listNamespaces, async (req) => {
    const p = await d.meta.listNamespaces(req.principal.org, {
      limit: req.query.page_size,
      ...(req.query.prefix ? { prefix: req.query.prefix } : {}),
      ...(req.query.cursor ? { after: req.query.cursor } : {}),
    });
    const org = req.principal.org;
    const visible = d.authorizer
      ? (await d.authorizer.filterVisible(req.principal, 'namespace.read', p.items.map((n) => ({ kind: 'namespace' as const, org, ns: n.id, name: n.name, n })))).map((r) => r.n)
      : p.items;
    return { items: visible.map(nsJson), next_cursor: p.next ?? null };
  });

  route<NsP, unknown, unknown>(ROUTES.getNamespace, async (req) => nsJson(await d.catalog.namespace(req.principal.org, req.params.ns)));

  route<NsP, unknown, unknown>(ROUTES.deleteNamespace, async (req, reply) => {
    const n = await d.catalog.namespace(req.principal.org, req.params.ns);
    try {
      await d.meta.dropNamespace(n.id);
    } catch (e) {
      if (isMetaError(e, 'InvalidArgument')) throw new HttpError(409, 'conflict', `namespace "${n.name}" still has collections or streams; delete them first`);
      throw e;
    }
    d.catalog.invalidate();
    await afterCommit(`namespace ${n.id} dropped`, d.authorizer?.onDeleted({ kind: 'namespace', org: n.org, ns: n.id, name: n.name }));
    return reply.status(204).send();
  });

  type RetentionB = { ms: number | null; bytes: number | null };

  route<NsP, unknown, { name: string; primary_key: string; partitions: number; fields?: Record<string, 'string' | 'number' | 'boolean' | 'json'>; retention?: RetentionB }>(
    ROUTES.createCollection,
    async (req, reply) => {
      const n = await d.catalog.namespace(req.principal.org, req.params.ns);
      const b = req.body;
      const fields = { ...(b.fields ?? {}) };
      const pkType = ownField(fields, b.primary_key);
      if (pkType !== undefined && pkType !== 'string' && pkType !== 'number') {
        throw new HttpError(400, 'invalid_argument', `body.fields.${b.primary_key}: the primary key must be a string or number field`);
      }
      if (pkType === undefined) fields[b.primary_key] = 'string';
      await holdsRoomForACollection(d.meta, n);
      let c: Collection;
      try {
        c = await d.meta.createCollection({
          ns: n.id,
          name: b.name,
          schema: { primaryKey: b.primary_key, fields },
          partitions: b.partitions,
          ...(b.retention ? { retention: { ms: b.retention.ms, bytes: b.retention.bytes } } : {}),
        });
      } catch (e) {
        if (isMetaError(e, 'InvalidArgument') && e.details.field) {
          throw new HttpError(400, 'invalid_argument', `body.${e.message.replace(/^schema\.fields/, 'fields').replace(/^schema\.primaryKey/, 'primary_key')}`);
        }
        if (isMetaError(e, 'AlreadyExists')) throw new HttpError(409, 'already_exists', `collection "${b.name}" already exists in namespace "${n.name}"`);
        throw e;
      }
      d.catalog.invalidate();
      await afterCommit(`collection ${c.id} created`, d.authorizer?.onCreated({ kind: 'collection', org: n.org, ns: n.id, collection: c.id }));
      // The retention it was created with, not read again: a created collection is never answered as refused.
      return reply.status(201).send(collJson(c, n.name, collectionLogRetentionOrDefault(b.retention)));
    },
  );

  route<NsP, ListQ, unknown>(ROUTES.listCollections, async (req) => {
    const n = await d.catalog.namespace(req.principal.org, req.params.ns);
    const p = await d.meta.listCollections(n.id, {
      limit: req.query.page_size,
      ...(req.query.prefix ? { prefix: req.query.prefix } : {}),
      ...(req.query.cursor ? { after: req.query.cursor } : {}),
    });
    return { items: p.items.map((c) => collJson(c, n.name)), next_cursor: p.next ?? null };
  });

  route<CP, unknown, unknown>(ROUTES.getCollection, async (req) => {
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    return collJson(c, req.params.ns, (await d.meta.stream(c.ns, c.streamId)).retention);
  });

  // The whole retention is replaced (both bounds, each null for none); the workers' next
  // retention pass trims by it, never below what every retained manifest has applied.
  route<CP, unknown, RetentionB>(ROUTES.setCollectionRetention, async (req) => {
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    const s = await d.meta.setRetention(c.ns, c.streamId, { ms: req.body.ms, bytes: req.body.bytes });
    return collJson(c, req.params.ns, s.retention);
  });

  route<CP, unknown, unknown>(ROUTES.deleteCollection, async (req, reply) => {
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    await d.meta.dropCollection(c.ns, c.id);
    d.catalog.invalidate();
    await afterCommit(`collection ${c.id} dropped`, d.authorizer?.onDeleted({ kind: 'collection', org: req.principal.org, ns: c.ns, collection: c.id }));
    return reply.status(204).send();
  });

  route<CP, unknown, { upserts?: unknown[]; deletes?: unknown[] }>(ROUTES.writeDocuments, async (req) => {
    const admission = writeAdmissions.get(req);
    if (admission) admission.handling = true;
    try {
      const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
      if (d.moveHold) {
        await d.moveHold.admit(c.ns, Number(req.headers['content-length'] ?? 0)).catch((e: unknown) => {
          throw isHoldRefusal(e) ? new HttpError(e.status, e.code, e.message, e.retryAfterS) : e;
        });
      }
      const r = await d.writer!.write(c, req.body ?? {}, bodyText(req));
      return { token: r.token };
    } finally {
      // What the write held is let go here, answered or not (its client may be gone).
      admission?.release?.();
    }
  });

  route<CP & { id: string }, { consistency?: Consistency; token?: string }, unknown>(ROUTES.getDocument, async (req, reply) => {
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    const k = canonicalKey(req.params.id);
    if (!k.ok) throw new HttpError(400, 'invalid_argument', `id ${k.why}`);
    const [doc] = await d.reader!.get(c, [k.key], {
      consistency: req.query.consistency ?? 'strong',
      ...(req.query.token ? { token: req.query.token } : {}),
    });
    if (doc === undefined) throw new HttpError(404, 'not_found', `document "${req.params.id}" not found in collection "${c.name}"`);
    return reply.type('application/json').send(doc);
  });

  route<CP, unknown, { filter?: unknown; limit?: number; cursor?: string; consistency?: Consistency; token?: string }>(ROUTES.query, async (req, reply) => {
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    const b = req.body ?? {};
    const r = await d.reader!.query(c, {
      filter: b.filter,
      ...(b.limit !== undefined ? { limit: b.limit } : {}),
      ...(b.cursor ? { cursor: b.cursor } : {}),
      consistency: b.consistency ?? 'strong',
      ...(b.token ? { token: b.token } : {}),
    });
    return reply.type('application/json').send(queryAnswer(r));
  });

  const erasure = (): ErasureService => {
    if (!d.erasure) throw new HttpError(503, 'erasure_unavailable', 'erasure is off on this node: set erasure_kek (the key-encryption key of the erasure log, 64 hex digits)');
    return d.erasure;
  };
  const ownErasure = async (org: string, id: string) => {
    const row = await erasure().control.erasure(id).catch((e: unknown) => Promise.reject(isMetaError(e, 'NotFound') ? new HttpError(404, 'not_found', `erasure ${id} not found`) : e));
    // Another org's erasure is not found, not forbidden: ids say nothing across orgs.
    if (row.org !== org) throw new HttpError(404, 'not_found', `erasure ${id} not found`);
    return row;
  };

  route<CP, unknown, { keys?: unknown[]; filter?: unknown }>(ROUTES.eraseDocuments, async (req, reply) => {
    const svc = erasure();
    const c = await d.catalog.collection(req.principal.org, req.params.ns, req.params.c);
    const r = await svc.erase(req.principal.org, c, req.body ?? {}, d.writer!, d.reader);
    return reply.status(202).send({ erasure: erasureJson(r.row, svc.boundMs), token: r.token });
  });

  route<unknown, { cursor?: string; page_size: number; active?: boolean }, unknown>(ROUTES.listErasures, async (req) => {
    const svc = erasure();
    const p = await listedWithCursor(svc.control.listErasures({ org: req.principal.org, limit: req.query.page_size, ...(req.query.active ? { active: true } : {}), ...(req.query.cursor ? { after: req.query.cursor } : {}) }));
    return { items: p.items.map((r) => erasureJson(r, svc.boundMs)), next_cursor: p.next ?? null };
  });

  route<{ id: string }, unknown, unknown>(ROUTES.getErasure, async (req) => erasureJson(await ownErasure(req.principal.org, req.params.id), erasure().boundMs));

  route<{ id: string }, unknown, { key: unknown }>(ROUTES.verifyErasure, async (req) => {
    const svc = erasure();
    const row = await ownErasure(req.principal.org, req.params.id);
    return verifyKey(svc, row, req.body.key);
  });

  // Namespace keys (spec §9.8, docs/encryption.md): show, rotate, destroy (crypto-shred).
  const keys = (): NamespaceKeyAdmin => {
    if (!d.keys) throw new HttpError(503, 'encryption_unavailable', 'encryption is off on this node: set key_provider (local or kms) and its settings (docs/encryption.md)');
    return d.keys;
  };
  route<NsP, unknown, unknown>(ROUTES.getNamespaceKey, async (req) => {
    const k = keys();
    const n = await d.catalog.namespace(req.principal.org, req.params.ns);
    return namespaceKeyView(n, await k.records(n.id));
  });
  route<NsP, unknown, unknown>(ROUTES.rotateNamespaceKey, async (req) => {
    const k = keys();
    const n = await d.catalog.namespace(req.principal.org, req.params.ns);
    try {
      await k.rotate(n.id);
    } catch (e) {
      if (isMetaError(e, 'AlreadyExists')) throw new HttpError(409, 'conflict', `namespace "${n.name}": another rotation made this key version at the same time; nothing was changed by this one, retry`);
      if (e instanceof RangeError) throw new HttpError(409, 'limit_exceeded', e.message);
      throw e;
    }
    return namespaceKeyView(n, await k.records(n.id));
  });
  route<NsP, unknown, { confirm: string }>(ROUTES.destroyNamespaceKey, async (req) => {
    const k = keys();
    const n = await d.catalog.namespace(req.principal.org, req.params.ns);
    if (req.body.confirm !== n.name) {
      throw new HttpError(400, 'invalid_argument', `body.confirm must be the namespace's name ("${n.name}"): destroying its key makes all of its data unreadable for good`);
    }
    if ((await k.records(n.id)).length === 0) throw new HttpError(409, 'conflict', `namespace "${n.name}" has no key (it was written unencrypted): there is nothing to destroy; erase or drop its data instead`);
    await k.destroy(n.id); // idempotent: a destroyed key is destroyed again, and answered the same
    return namespaceKeyView(n, await k.records(n.id));
  });

  d.routes?.(app as unknown as FastifyInstance);
  for (const r of d.moreRoutes ?? []) r(app as unknown as FastifyInstance);
  return app as unknown as FastifyInstance;
}

export { DataError };

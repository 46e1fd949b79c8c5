// The status page at /ui (spec §6, §7 for who sees what): server-rendered HTML, no script.
//
// Authentication is the API's: the key typed once into the login form is kept in a session
// cookie (no Max-Age or Expires: the browser forgets it when its session ends; HttpOnly: no
// script can read it; SameSite=Strict: no other site's page can send it; Path=/ui: it never
// goes to the API's paths; Secure when served over HTTPS). A page request carrying it is
// given the key as its Authorization header, so it passes the gateway's one admission hook
// (ROUTE_AUTH maps every page to an action) and every page shows only what the API would
// show that key. The key is never in a URL and never logged. Refusals and failures keep the
// gateway's error mapping: its JSON error body is rendered as a page with the same status,
// code and message.
import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRoute, HttpError } from '../gateway/server.js';
import { collParams, listQuery, nsParams, type RouteDef } from '../gateway/schemas.js';
import type { MetaStore } from '../meta/contract.js';
import type { Catalog } from '../collection/catalog.js';
import type { Manifests } from '../collection/manifest.js';
import type { Authorizer, Principal } from '../authz/authorizer.js';
import type { Tenancy } from '../authz/tenancy.js';
import { isAuthzError } from '../authz/errors.js';
import { MAX_USAGE_ROWS, OPERATOR_ORG, QUOTA_NAMES, type ControlStore, type UsageRollup } from '../control/types.js';
import { parseKey } from '../control/keys.js';
import { USAGE_WINDOW_MS } from '../quota/usage.js';
import { isMetaError } from '../meta/errors.js';
import { CONTENT_SECURITY_POLICY, errorPage, loginPage, type Viewer } from './layout.js';
import { clusterView, collectionsView, collectionView, namespacesView, usageView, type Paging, type QuotaRow, type UsageRow } from './views.js';
import { collectionStatus, collectionStatuses } from './status.js';
import type { Html } from './html.js';

/** The cookie that holds the key for the browser session. */
export const SESSION_COOKIE = 'loam_ui_key';
/** The login form's body, at most (a key is 86 characters). */
export const LOGIN_BODY_LIMIT = 4 * 1024;
/** Hours the usage charts cover. */
export const USAGE_CHART_HOURS = 24;
/** Namespaces the usage table lists, at most (the busiest). */
export const MAX_USAGE_NAMESPACES = 100;

/** The pages, admitted like the API's routes (each is in ROUTE_AUTH). Not in the OpenAPI document: they answer HTML. */
export const UI_ROUTES = {
  home: { method: 'GET', url: '/ui', summary: 'Status page: to the first page the key may see', schema: { response: {} } },
  namespaces: { method: 'GET', url: '/ui/namespaces', summary: "Status page: the org's namespaces", schema: { querystring: listQuery, response: {} } },
  namespace: { method: 'GET', url: '/ui/namespaces/:ns', summary: "Status page: a namespace's collections and their backlog", schema: { params: nsParams, querystring: listQuery, response: {} } },
  collection: { method: 'GET', url: '/ui/namespaces/:ns/collections/:c', summary: "Status page: a collection's partitions and progress", schema: { params: collParams, response: {} } },
  usage: { method: 'GET', url: '/ui/usage', summary: "Status page: the org's quotas and usage", schema: { response: {} } },
  cluster: { method: 'GET', url: '/ui/cluster', summary: 'Status page: the live gateways and nodes', schema: { response: {} } },
} satisfies Record<string, RouteDef>;

/** The pages that take no key: the login form and logging out. */
export const UI_PUBLIC_ROUTES = {
  loginForm: { method: 'GET', url: '/ui/login', summary: 'Status page: the login form', schema: { response: {} } },
  // Its limit holds for every content type: the route takes no key, so a JSON body of the API's size would be read for anyone.
  login: { method: 'POST', url: '/ui/login', summary: 'Status page: log in with an API key', schema: { response: {} }, bodyLimit: LOGIN_BODY_LIMIT },
  // A POST from the page's own form: another site cannot sign the user out with a link or an image.
  logout: { method: 'POST', url: '/ui/logout', summary: 'Status page: log out (forget the key)', schema: { response: {} }, bodyLimit: LOGIN_BODY_LIMIT },
} satisfies Record<string, RouteDef>;

/** Where the status page is served: its pages take the key from the session cookie. */
export const UI_ROOT = '/ui';
export const UI_PUBLIC_PATHS: readonly string[] = [...new Set(Object.values(UI_PUBLIC_ROUTES).map((r) => r.url))];

export interface StatusPageDeps {
  meta: MetaStore;
  catalog: Catalog;
  manifests: Manifests;
  authorizer: Authorizer;
  tenancy: Tenancy;
  control: ControlStore;
  node: { id: string; roles: readonly string[] };
  /** This node's workers' last apply round on a collection (the worker metrics). */
  workerRound?: (ns: number, collection: number) => { records: number; at: number } | undefined;
  now?: () => number;
}

function viewerOf(p: Principal | null | undefined): Viewer | null {
  if (!p) return null;
  return { org: p.org, keyId: p.subject?.startsWith('key:') ? p.subject.slice(4) : null };
}

function send(reply: FastifyReply, body: Html, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').send(body.text);
}

/** Paging of a list page from its (validated) querystring. */
function pagingOf(req: FastifyRequest, next: string | undefined): Paging {
  const q = req.query as { prefix?: string; cursor?: string; page_size: number };
  return { prefix: q.prefix ?? '', pageSize: q.page_size, cursor: q.cursor, next: next ?? null };
}

function pageRequest(req: FastifyRequest) {
  const q = req.query as { prefix?: string; cursor?: string; page_size: number };
  return { limit: q.page_size, ...(q.prefix ? { prefix: q.prefix } : {}), ...(q.cursor ? { after: q.cursor } : {}) };
}

/** The session cookie's attributes, the same when it is set and when it is cleared. */
function cookieOptions(req: FastifyRequest) {
  return { path: UI_ROOT, httpOnly: true, sameSite: 'strict', secure: req.protocol === 'https' } as const;
}

/** Not sent from another site's page: the browser's Sec-Fetch-Site and Origin say so (a client without them, such as curl, passes). */
function sameOrigin(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.headers.origin;
  if (origin === undefined) return true;
  // The host only: behind a TLS-terminating proxy the node sees http while the page was https.
  try {
    return new URL(origin).host === req.host;
  } catch {
    return false; // "null" (an opaque origin) or garbage
  }
}

export function statusPage(d: StatusPageDeps) {
  const now = d.now ?? Date.now;
  return (app: FastifyInstance): void => {
    void app.register(async (ui) => {
      await ui.register(cookie, { hook: 'onRequest' });
      ui.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: LOGIN_BODY_LIMIT }, (_req, body, done) => {
        done(null, Object.fromEntries(new URLSearchParams(body as string)));
      });

      ui.addHook('onRequest', async (req, reply) => {
        void reply.headers({
          'content-security-policy': CONTENT_SECURITY_POLICY,
          'cache-control': 'no-store',
          'x-content-type-options': 'nosniff',
          'x-frame-options': 'DENY',
          // same-origin: no other site learns a page's URL, and a form POST carries its Origin.
          'referrer-policy': 'same-origin',
        });
        // The session's key, as the API takes it; an explicit Authorization header wins.
        const key = req.cookies[SESSION_COOKIE];
        if (key && req.headers.authorization === undefined) req.headers.authorization = `Bearer ${key}`;
      });

      // The gateway's error answers, as pages: a refused key goes back to the login form.
      ui.addHook('onSend', async (req, reply, payload) => {
        if (reply.statusCode < 400 || !String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
        let e: { code?: string; message?: string } = {};
        try {
          e = (JSON.parse(String(payload)) as { error?: typeof e }).error ?? {};
        } catch {
          // not the error shape: shown by its status alone
        }
        const message = e.message ?? 'the request failed';
        void reply.type('text/html; charset=utf-8');
        if (reply.statusCode === 401) {
          // Not signed in: to the form. Signed in with a key refused since: the form, with why.
          if (!req.cookies[SESSION_COOKIE] && req.method === 'GET') {
            void reply.code(303).header('location', UI_PUBLIC_ROUTES.loginForm.url);
            return '';
          }
          if (req.cookies[SESSION_COOKIE]) void reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
          return loginPage(message).text;
        }
        return errorPage(reply.statusCode, e.code ?? 'error', message, viewerOf(req.principal)).text;
      });

      const route = (r: RouteDef, h: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>) => addRoute(ui as unknown as FastifyInstance, r, h);
      const R = UI_ROUTES;
      const P = UI_PUBLIC_ROUTES;

      route(P.loginForm, async (_req, reply) => send(reply, loginPage(null)));
      route(P.login, async (req, reply) => {
        if (!sameOrigin(req)) throw new HttpError(403, 'forbidden', 'log in from the status page itself (the form was sent from another origin)');
        const key = String((req.body as { key?: unknown } | undefined)?.key ?? '').trim();
        if (!key) return send(reply, loginPage('enter an API key (loam_<key_id>_<secret>)'), 400);
        let p: Principal;
        try {
          p = await d.tenancy.authenticate(`Bearer ${key}`);
        } catch (e) {
          if (isAuthzError(e, 'unauthenticated')) return send(reply, loginPage(e.message), 401);
          throw e;
        }
        // Only a key the API accepted is kept; it is hex and underscores (no cookie escaping needed).
        if (!parseKey(key)) throw new HttpError(400, 'invalid_argument', 'malformed API key');
        void reply.setCookie(SESSION_COOKIE, key, cookieOptions(req));
        return reply.redirect(p.org === OPERATOR_ORG ? R.cluster.url : R.namespaces.url, 303);
      });
      route(P.logout, async (req, reply) => {
        if (!sameOrigin(req)) throw new HttpError(403, 'forbidden', 'log out from the status page itself (the form was sent from another origin)');
        void reply.clearCookie(SESSION_COOKIE, cookieOptions(req));
        return reply.redirect(P.loginForm.url, 303);
      });

      route(R.home, async (req, reply) => reply.redirect(req.principal.org === OPERATOR_ORG ? R.cluster.url : R.namespaces.url, 303));

      route(R.namespaces, async (req, reply) => {
        const org = req.principal.org;
        const p = await d.meta.listNamespaces(org, pageRequest(req));
        // The API's list: a namespace-scoped key sees only its namespaces.
        const visible = (await d.authorizer.filterVisible(req.principal, 'namespace.read', p.items.map((n) => ({ kind: 'namespace' as const, org, ns: n.id, name: n.name, n })))).map((r) => r.n);
        return send(reply, namespacesView(viewerOf(req.principal)!, visible, pagingOf(req, p.next)));
      });

      route(R.namespace, async (req, reply) => {
        const n = await d.catalog.namespace(req.principal.org, (req.params as { ns: string }).ns);
        const p = await d.meta.listCollections(n.id, pageRequest(req));
        const statuses = await collectionStatuses(d, p.items);
        const items = p.items.map((c, i) => ({ c, s: statuses[i]! }));
        return send(reply, collectionsView(viewerOf(req.principal)!, n, items, pagingOf(req, p.next), now()));
      });

      route(R.collection, async (req, reply) => {
        const { ns, c } = req.params as { ns: string; c: string };
        const n = await d.catalog.namespace(req.principal.org, ns);
        const coll = await d.catalog.collection(req.principal.org, ns, c);
        return send(reply, collectionView(viewerOf(req.principal)!, n, coll, await collectionStatus(d, coll), now()));
      });

      route(R.usage, async (req, reply) => send(reply, usageView(viewerOf(req.principal)!, await usagePage(d, req.principal, now()))));

      route(R.cluster, async (req, reply) => {
        const members = await d.control.members(now());
        const page = { gateways: members.length, members: req.principal.org === OPERATOR_ORG ? members : null, self: d.node };
        return send(reply, clusterView(viewerOf(req.principal)!, page, now()));
      });
    });
  };
}

/** The quotas and the last USAGE_CHART_HOURS of usage the key may see (the API's GET /v1/quotas and /v1/usage). */
async function usagePage(d: StatusPageDeps, p: Principal, at: number) {
  const org = p.org;
  const last = Math.floor(at / USAGE_WINDOW_MS) * USAGE_WINDOW_MS;
  const since = last - (USAGE_CHART_HOURS - 1) * USAGE_WINDOW_MS;
  const [requests, ingest, stored, unapplied, overrides] = await Promise.all([
    d.control.usage(org, { metric: 'requests', since }),
    d.control.usage(org, { metric: 'ingest_bytes', since }),
    d.control.usage(org, { metric: 'storage_bytes' }),
    d.control.usage(org, { metric: 'unapplied_records' }),
    d.control.quotas(org),
  ]);
  const all: UsageRollup[] = [...requests, ...ingest, ...stored, ...unapplied];
  const partial = [requests, ingest, stored, unapplied].some((rows) => rows.length >= MAX_USAGE_ROWS);
  const ids = [...all.flatMap((r) => (r.ns === null ? [] : [r.ns])), ...overrides.flatMap((o) => (o.ns === null ? [] : [o.ns]))];
  const readable = await d.tenancy.readableNamespaces(p, ids);
  const ok = (ns: number | null) => ns === null || readable.has(ns);

  const names = new Map<number, string>();
  const nameOf = async (ns: number | null): Promise<string> => {
    if (ns === null) return '(the org)';
    if (!names.has(ns)) {
      try {
        names.set(ns, (await d.meta.namespace(ns)).name);
      } catch (e) {
        if (!isMetaError(e, 'NotFound')) throw e;
        names.set(ns, `#${ns} (dropped)`);
      }
    }
    return names.get(ns)!;
  };

  const quotas: QuotaRow[] = [];
  for (const q of QUOTA_NAMES) {
    const os = [];
    for (const o of overrides) if (o.name === q && ok(o.ns)) os.push({ where: o.ns === null ? 'org' : await nameOf(o.ns), value: o.value });
    quotas.push({ name: q, effective: await d.tenancy.quotas.value(org, null, q), default: d.tenancy.quotas.defaults[q], overrides: os });
  }

  const series = (rows: UsageRollup[]) =>
    Array.from({ length: USAGE_CHART_HOURS }, (_, i) => {
      const w = since + i * USAGE_WINDOW_MS;
      return { at: w, value: rows.reduce((s, r) => (r.window === w && ok(r.ns) ? s + r.value : s), 0) };
    });

  const byNs = new Map<string, { ns: number | null; row: Omit<UsageRow, 'where'> }>();
  for (const r of all) {
    if (!ok(r.ns)) continue;
    const k = String(r.ns);
    let e = byNs.get(k);
    if (!e) byNs.set(k, (e = { ns: r.ns, row: { requests: 0, ingestBytes: 0, storedBytes: null, unappliedRecords: null } }));
    if (r.metric === 'requests') e.row.requests += r.value;
    else if (r.metric === 'ingest_bytes') e.row.ingestBytes += r.value;
    else if (r.metric === 'storage_bytes') e.row.storedBytes = r.value;
    else if (r.metric === 'unapplied_records') e.row.unappliedRecords = r.value;
  }
  const sorted = [...byNs.values()].sort((a, b) => b.row.requests - a.row.requests || (b.row.storedBytes ?? 0) - (a.row.storedBytes ?? 0));
  const rows: UsageRow[] = [];
  for (const e of sorted.slice(0, MAX_USAGE_NAMESPACES)) rows.push({ where: await nameOf(e.ns), ...e.row });
  return { quotas, gateways: d.tenancy.quotas.gatewayCount, requests: series(requests), ingest: series(ingest), rows, partial, moreNamespaces: Math.max(0, sorted.length - MAX_USAGE_NAMESPACES) };
}

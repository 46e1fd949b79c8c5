// The tenancy API under /v1 (spec §6): the caller's org, keys (created keys are shown once),
// role bindings, its quotas and usage (read only); and the operator's routes under /v1/orgs:
// create and list orgs, read and set any org's quotas, read its usage. Every route is
// admitted like any other (ROUTE_AUTH). The route definitions validate requests and generate
// their part of /v1/openapi.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRoute, HttpError } from './server.js';
import { listedWithCursor } from './http-errors.js';
import { erasureBody, errorBody, type RouteDef } from './schemas.js';
import { erasureJson } from '../erasure/view.js';
import { DEFAULT_PAGE_LIMIT, MAX_NAME_LENGTH, MAX_PAGE_LIMIT, NAME_PATTERN } from '../meta/limits.js';
import { MAX_ERASURE_PAGE, MAX_SCOPES, MAX_USAGE_ROWS, OPERATOR_ORG, OPERATOR_ROLE, QUOTA_BOUNDS, QUOTA_NAMES, ROLES, type BindingTarget, type QuotaName, type RoleName } from '../control/types.js';
import { parseUsageCursor, usageCursor } from '../control/rules.js';
import type { Tenancy } from '../authz/tenancy.js';
import { KEY_SUBJECT } from '../authz/operations.js';
import { USAGE_METRICS } from '../quota/usage.js';
import { isMetaError } from '../meta/errors.js';
import type { ControlStore } from '../control/types.js';
import type { Catalog } from '../collection/catalog.js';

const nsName = { type: 'string', pattern: NAME_PATTERN.source, maxLength: MAX_NAME_LENGTH } as const;
const keyId = { type: 'string', pattern: '^[0-9a-f]{16}$', description: 'A key id (16 hex digits): the middle of loam_<key_id>_<secret>' } as const;
const keyInfo = {
  type: 'object',
  properties: {
    keyId: { type: 'string' },
    org: { type: 'string' },
    scopes: { type: 'array', items: { type: 'string' } },
    expiry: { type: ['integer', 'null'] },
    createdBy: { type: 'string' },
    created: { type: 'integer' },
    lastUsed: { type: ['integer', 'null'] },
    revoked: { type: ['integer', 'null'] },
  },
} as const;
const bindingBody = {
  type: 'object',
  required: ['key_id', 'role'],
  additionalProperties: false,
  properties: { key_id: keyId, role: { type: 'string', enum: [...ROLES] }, namespace: nsName },
} as const;
const binding = {
  type: 'object',
  properties: {
    org: { type: 'string' },
    subject: { type: 'string' },
    role: { type: 'string' },
    target: { type: 'object', properties: { kind: { type: 'string', enum: ['org', 'namespace'] }, ns: { type: 'integer' } } },
    created: { type: 'integer' },
  },
} as const;
const page = (item: object) => ({ type: 'object', properties: { items: { type: 'array', items: item }, next_cursor: { type: ['string', 'null'] } } }) as const;
/** Lists page like every REST list (spec §5.4): a cursor from the previous page, page_size up to MAX_PAGE_LIMIT. */
const pageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    cursor: { type: 'string', maxLength: 1024 },
    page_size: { type: 'integer', minimum: 1, maximum: MAX_PAGE_LIMIT, default: DEFAULT_PAGE_LIMIT },
  },
} as const;
const quotaValues = { type: 'object', additionalProperties: { type: 'number' } } as const;
const orgParams = { type: 'object', required: ['org'], properties: { org: { ...nsName, description: 'A tenant org' } } } as const;
const quotasQuery = { type: 'object', additionalProperties: false, properties: { namespace: nsName } } as const;
const quotasAnswer = {
  type: 'object',
  properties: {
    defaults: quotaValues,
    effective: quotaValues,
    bounds: { type: 'object', additionalProperties: { type: 'object', properties: { min: { type: 'number' }, max: { type: 'number' }, integer: { type: 'boolean' } } } },
    overrides: { type: 'array', items: { type: 'object', properties: { org: { type: 'string' }, ns: { type: ['integer', 'null'] }, name: { type: 'string' }, value: { type: 'number' } } } },
    gateways: { type: 'integer', description: 'Live gateways; each enforces rate quotas ÷ this' },
  },
} as const;
const usageQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    metric: { type: 'string', enum: [...USAGE_METRICS] },
    since: { type: 'integer', minimum: 0, description: 'Only windows starting at or after this (epoch ms)' },
    cursor: { type: 'string', maxLength: 128, description: "The previous page's next_cursor" },
    page_size: { type: 'integer', minimum: 1, maximum: MAX_USAGE_ROWS, default: MAX_USAGE_ROWS },
  },
} as const;
const usageAnswer = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: { type: 'object', properties: { ns: { type: ['integer', 'null'] }, metric: { type: 'string' }, window: { type: 'integer' }, value: { type: 'number' }, updated: { type: 'integer' } } },
    },
    next_cursor: { type: ['string', 'null'], description: 'Where the next page starts; null on the last page' },
  },
} as const;

export const TENANCY_ROUTES = {
  getOrg: {
    method: 'GET',
    url: '/v1/org',
    summary: "The caller's org",
    schema: { response: { 200: { type: 'object', properties: { id: { type: 'string' }, created: { type: 'integer' } } } } },
  },
  listKeys: {
    method: 'GET',
    url: '/v1/keys',
    summary: "List the org's API keys (never their secrets)",
    schema: { querystring: pageQuery, response: { 200: page(keyInfo), 400: errorBody } },
  },
  createKey: {
    method: 'POST',
    url: '/v1/keys',
    summary: "Create an API key with one role, on the org or on a namespace, within the calling key's own scopes and roles; the key is in this answer only",
    schema: {
      body: {
        type: 'object',
        required: ['role'],
        additionalProperties: false,
        properties: {
          role: { type: 'string', enum: [...ROLES, OPERATOR_ROLE], description: `${OPERATOR_ROLE}: only for an operator key creating another` },
          namespace: nsName,
          scopes: { type: 'array', items: { type: 'string' }, maxItems: MAX_SCOPES, description: '*, read, write, admin, ns:<namespace>' },
          ttl_s: { type: 'integer', minimum: 1, description: 'Lifetime in seconds (at most a year)' },
        },
      },
      response: { 201: { type: 'object', properties: { key: { type: 'string' }, ...keyInfo.properties, note: { type: 'string' } } }, 400: errorBody, 404: errorBody },
    },
  },
  revokeKey: {
    method: 'DELETE',
    url: '/v1/keys/:key',
    summary: 'Revoke an API key (every node refuses it within about a second)',
    schema: { params: { type: 'object', required: ['key'], properties: { key: keyId } }, response: { 204: {}, 400: errorBody, 404: errorBody } },
  },
  listBindings: {
    method: 'GET',
    url: '/v1/bindings',
    summary: "List the org's role bindings",
    schema: { querystring: pageQuery, response: { 200: page(binding), 400: errorBody } },
  },
  grantRole: {
    method: 'POST',
    url: '/v1/bindings',
    summary: 'Grant a role to a key, on the org or on a namespace',
    schema: { body: bindingBody, response: { 201: binding, 400: errorBody, 404: errorBody } },
  },
  revokeRole: {
    method: 'DELETE',
    url: '/v1/bindings',
    summary: 'Revoke a role granted to a key',
    schema: { body: bindingBody, response: { 204: {}, 400: errorBody, 404: errorBody } },
  },
  getQuotas: {
    method: 'GET',
    url: '/v1/quotas',
    summary: "The caller's org's quotas: defaults, bounds, overrides and effective values (of the org, or of one namespace); only the operator sets them",
    schema: { querystring: quotasQuery, response: { 200: quotasAnswer, 404: errorBody } },
  },
  getUsage: {
    method: 'GET',
    url: '/v1/usage',
    summary: "The org's usage: requests and ingest bytes per namespace and hour (counted by the gateways), stored bytes and unapplied records per namespace (measured)",
    schema: { querystring: usageQuery, response: { 200: usageAnswer } },
  },
  listOrgs: {
    method: 'GET',
    url: '/v1/orgs',
    summary: 'Operator: list the tenant orgs',
    schema: { querystring: pageQuery, response: { 200: page({ type: 'object', properties: { id: { type: 'string' }, created: { type: 'integer' } } }), 400: errorBody } },
  },
  createOrg: {
    method: 'POST',
    url: '/v1/orgs',
    summary: "Operator: create an org and its first admin key (the key is in this answer only)",
    schema: {
      body: { type: 'object', required: ['id'], additionalProperties: false, properties: { id: nsName } },
      response: { 201: { type: 'object', properties: { id: { type: 'string' }, admin_key: { type: 'string' }, key: keyInfo, note: { type: 'string' } } }, 400: errorBody, 409: errorBody },
    },
  },
  getOrgQuotas: {
    method: 'GET',
    url: '/v1/orgs/:org/quotas',
    summary: "Operator: an org's quotas (of the org, or of one namespace)",
    schema: { params: orgParams, querystring: quotasQuery, response: { 200: quotasAnswer, 400: errorBody, 404: errorBody } },
  },
  setOrgQuota: {
    method: 'PUT',
    url: '/v1/orgs/:org/quotas',
    summary: "Operator: override a quota of an org or one of its namespaces, within the quota's bounds (value null clears the override)",
    schema: {
      params: orgParams,
      body: {
        type: 'object',
        required: ['name', 'value'],
        additionalProperties: false,
        properties: { name: { type: 'string', enum: [...QUOTA_NAMES] }, value: { type: ['number', 'null'], description: 'Within the bounds GET /v1/quotas lists' }, namespace: nsName },
      },
      response: { 200: { type: 'object', properties: { org: { type: 'string' }, name: { type: 'string' }, namespace: { type: ['string', 'null'] }, value: { type: ['number', 'null'] } } }, 400: errorBody, 404: errorBody },
    },
  },
  getOrgUsage: {
    method: 'GET',
    url: '/v1/orgs/:org/usage',
    summary: "Operator: an org's usage",
    schema: { params: orgParams, querystring: usageQuery, response: { 200: usageAnswer, 400: errorBody, 404: errorBody } },
  },
  auditErasures: {
    method: 'GET',
    url: '/v1/orgs/:org/erasures',
    summary: "Operator (audit): an org's erasure log",
    schema: {
      params: orgParams,
      querystring: { type: 'object', additionalProperties: false, properties: { cursor: { type: 'string', maxLength: 128 }, page_size: { type: 'integer', minimum: 1, maximum: MAX_ERASURE_PAGE, default: MAX_ERASURE_PAGE } } },
      response: { 200: { type: 'object', properties: { items: { type: 'array', items: erasureBody }, next_cursor: { type: ['string', 'null'] } } }, 404: errorBody, 503: errorBody },
    },
  },
} satisfies Record<string, RouteDef>;

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

/** `erasureBoundMs`: the node's erasure completion bound, when erasure is on (the audit route answers 503 otherwise). */
export function tenancyRoutes(t: Tenancy, cs: ControlStore, catalog: Catalog, erasureBoundMs: number | null = null) {
  return (app: FastifyInstance): void => {
    const nsIdOf = async (org: string, name: string | undefined): Promise<number | null> => (name ? (await catalog.namespace(org, name)).id : null);
    const who = (req: FastifyRequest) => req.principal.subject ?? 'local';
    /** The creator an org's first key names. */
    const OPERATOR_CREATOR = 'operator';
    const route = (r: RouteDef, handler: Handler) => addRoute(app, r, handler);
    const R = TENANCY_ROUTES;

    route(R.getOrg, async (req) => {
      const o = await cs.org(req.principal.org);
      return { id: o.id, created: o.created };
    });

    const pageOf = (req: FastifyRequest) => {
      const q = req.query as { cursor?: string; page_size: number };
      return { limit: q.page_size, ...(q.cursor ? { after: q.cursor } : {}) };
    };
    route(R.listKeys, async (req) => {
      const p = await listedWithCursor(cs.listKeys(req.principal.org, pageOf(req)));
      return { items: p.items, next_cursor: p.next ?? null };
    });

    route(R.createKey, async (req, reply) => {
      const b = req.body as { role: RoleName; namespace?: string; scopes?: string[]; ttl_s?: number };
      if (b.role === 'org_admin' && b.namespace) throw new HttpError(400, 'invalid_argument', 'org_admin is granted on the org; drop body.namespace');
      const ns = await nsIdOf(req.principal.org, b.namespace);
      const k = await t.createKey({
        org: req.principal.org,
        role: b.role,
        ...(ns !== null ? { ns, nsName: b.namespace! } : {}),
        by: req.principal,
        ...(b.scopes ? { scopes: b.scopes } : {}),
        ...(b.ttl_s ? { ttlS: b.ttl_s } : {}),
        createdBy: who(req),
      });
      return reply.status(201).send({ key: k.token, ...k.key, note: 'the key is shown once; store it now' });
    });

    route(R.revokeKey, async (req, reply) => {
      const { key } = req.params as { key: string };
      await t.revokeKey(req.principal.org, key, who(req));
      return reply.status(204).send();
    });

    const grantOf = async (req: FastifyRequest) => {
      const b = req.body as { key_id: string; role: RoleName; namespace?: string };
      // The tenant fence: only the caller's own org's keys can be bound.
      const k = await cs.key(b.key_id).catch(() => null);
      if (!k || k.org !== req.principal.org) throw new HttpError(404, 'not_found', `key ${b.key_id} not found`);
      const ns = await nsIdOf(req.principal.org, b.namespace);
      return { org: req.principal.org, grantee: k, role: b.role, ...(ns !== null ? { ns, nsName: b.namespace! } : {}), by: req.principal };
    };
    /** A binding's target as a message names it (a namespace dropped since: by its id). */
    const targetText = async (target: BindingTarget): Promise<string> => {
      if (target.kind === 'org') return 'the org';
      const n = await catalog.meta.namespace(target.ns).catch(() => null);
      return n ? `namespace "${n.name}"` : `namespace ${target.ns}`;
    };
    route(R.listBindings, async (req) => {
      const p = await listedWithCursor(cs.listBindings(req.principal.org, pageOf(req)));
      return { items: p.items, next_cursor: p.next ?? null };
    });
    route(R.grantRole, async (req, reply) => {
      const g = await grantOf(req);
      // A key that can never authenticate again takes no roles: the grant would be a no-op answered as done.
      const k = g.grantee;
      if (k.revoked !== null) throw new HttpError(400, 'invalid_argument', `body.key_id: key ${k.keyId} was revoked at ${new Date(k.revoked).toISOString()}; a revoked key takes no roles`);
      if (k.expiry !== null && k.expiry <= Date.now()) throw new HttpError(400, 'invalid_argument', `body.key_id: key ${k.keyId} expired at ${new Date(k.expiry).toISOString()}; an expired key takes no roles`);
      return reply.status(201).send(await t.grant(g));
    });
    route(R.revokeRole, async (req, reply) => {
      const g = await grantOf(req);
      // A revocation that matches no binding (a wrong role or target) is not answered as done:
      // the key keeps the access its admin meant to take away. Past a full page of bindings the
      // key's roles are not all known here, and the revocation goes ahead as asked.
      const held = await cs.bindings(g.org, `${KEY_SUBJECT}${g.grantee.keyId}`);
      const sameTarget = (x: BindingTarget) => (x.kind === 'org' ? g.ns === undefined : x.ns === g.ns);
      if (held.length < MAX_PAGE_LIMIT && !held.some((b) => b.role === g.role && sameTarget(b.target))) {
        const roles = await Promise.all(held.map(async (b) => `${b.role} on ${await targetText(b.target)}`));
        const wanted = g.ns === undefined ? 'the org' : `namespace "${g.nsName}"`;
        throw new HttpError(404, 'not_found', `key ${g.grantee.keyId} holds no role ${g.role} on ${wanted}; its roles: ${roles.length > 0 ? roles.join(', ') : 'none'}`);
      }
      await t.revokeGrant(g);
      return reply.status(204).send();
    });

    /** Rows of other namespaces the caller may not read are left out (ns null: the org's own). */
    const onlyReadable = async <T extends { ns: number | null }>(req: FastifyRequest, rows: T[]): Promise<T[]> => {
      const ok = await t.readableNamespaces(req.principal, rows.flatMap((r) => (r.ns === null ? [] : [r.ns])));
      return rows.filter((r) => r.ns === null || ok.has(r.ns));
    };

    /** An org's quotas, for the namespace named (visible to `req`'s principal), or the org's. */
    const quotasOf = async (req: FastifyRequest, org: string, filtered: boolean) => {
      const q = req.query as { namespace?: string };
      const ns = await nsIdOf(org, q.namespace);
      if (filtered && ns !== null && !(await t.readableNamespaces(req.principal, [ns])).has(ns)) throw new HttpError(404, 'not_found', `namespace "${q.namespace}" not found`);
      const out: Record<string, number> = {};
      for (const n of QUOTA_NAMES) out[n] = await t.quotas.value(org, ns, n);
      const overrides = await cs.quotas(org);
      // Rate quotas are split among the live gateways (spec §6's per-gateway fallback).
      return { defaults: t.quotas.defaults, bounds: QUOTA_BOUNDS, effective: out, overrides: filtered ? await onlyReadable(req, overrides) : overrides, gateways: t.quotas.gatewayCount };
    };
    /** One page of an org's usage rows, and where the next starts (a full page may have more). */
    const usageOf = async (req: FastifyRequest, org: string) => {
      const q = req.query as { metric?: string; since?: number; cursor?: string; page_size?: number };
      if (q.cursor !== undefined) {
        try {
          parseUsageCursor(q.cursor);
        } catch {
          throw new HttpError(400, 'invalid_argument', 'querystring.cursor: not a cursor this route answered');
        }
      }
      const limit = q.page_size ?? MAX_USAGE_ROWS;
      const rows = await cs.usage(org, { ...(q.metric ? { metric: q.metric } : {}), ...(q.since !== undefined ? { since: q.since } : {}), ...(q.cursor !== undefined ? { after: q.cursor } : {}), limit });
      const last = rows[rows.length - 1];
      return { rows, next_cursor: rows.length >= limit && last ? usageCursor(last) : null };
    };
    route(R.getQuotas, async (req) => quotasOf(req, req.principal.org, true));
    route(R.getUsage, async (req) => {
      // The cursor is the last row read, before rows the key may not see are left out.
      const { rows, next_cursor } = await usageOf(req, req.principal.org);
      return { items: await onlyReadable(req, rows), next_cursor };
    });

    // The operator's routes: on any tenant org (never the operator's own, which has no quotas or data).
    const tenantOrg = async (req: FastifyRequest): Promise<string> => {
      const { org } = req.params as { org: string };
      if (org === OPERATOR_ORG) throw new HttpError(404, 'not_found', `org "${org}" not found`);
      await cs.org(org); // 404 for an org that does not exist
      return org;
    };
    route(R.listOrgs, async (req) => {
      const p = await listedWithCursor(cs.listOrgs(pageOf(req)));
      const items = p.items.filter((o) => o.id !== OPERATOR_ORG);
      let next = p.next;
      // The operator's own org is left out; the next one takes its place, so no page comes out
      // short (page_size=1 was an empty page with a cursor).
      if (items.length < p.items.length && next) {
        const more = await cs.listOrgs({ limit: 1, after: next });
        items.push(...more.items);
        next = more.next;
      }
      return { items, next_cursor: next ?? null };
    });
    route(R.createOrg, async (req, reply) => {
      const { id } = req.body as { id: string };
      // The org's keys show "operator" as the first one's creator, not the operator key's id: the
      // deployment's own keys are none of a tenant's business (the log keeps which key it was).
      req.log.info({ org: id, by: who(req) }, 'org created');
      const k = await t.ops.createOrgWithAdmin(id, OPERATOR_CREATOR).catch((e: unknown) => {
        throw isMetaError(e, 'AlreadyExists') ? new HttpError(409, 'already_exists', `org "${id}" already exists`) : e;
      });
      return reply.status(201).send({ id, admin_key: k.token, key: k.key, note: 'the admin key is shown once; store it now' });
    });
    route(R.getOrgQuotas, async (req) => quotasOf(req, await tenantOrg(req), false));
    route(R.setOrgQuota, async (req) => {
      const org = await tenantOrg(req);
      const b = req.body as { name: QuotaName; value: number | null; namespace?: string };
      const ns = await nsIdOf(org, b.namespace);
      await cs.setQuota(org, ns, b.name, b.value);
      t.quotaChanged(org);
      return { org, name: b.name, namespace: b.namespace ?? null, value: b.value };
    });
    route(R.getOrgUsage, async (req) => {
      const { rows, next_cursor } = await usageOf(req, await tenantOrg(req));
      return { items: rows, next_cursor };
    });
    route(R.auditErasures, async (req) => {
      if (erasureBoundMs === null) throw new HttpError(503, 'erasure_unavailable', 'erasure is off on this node: set erasure_kek');
      const org = await tenantOrg(req);
      const q = req.query as { cursor?: string; page_size: number };
      const p = await listedWithCursor(cs.listErasures({ org, limit: q.page_size, ...(q.cursor ? { after: q.cursor } : {}) }));
      return { items: p.items.map((r) => erasureJson(r, erasureBoundMs)), next_cursor: p.next ?? null };
    });
  };
}

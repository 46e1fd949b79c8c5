// The tenancy API under /v1 (spec §6): the caller's org, keys (created keys are shown once),
// role bindings, quotas and usage. Every route is admitted like any other (ROUTE_AUTH). The
// route definitions validate requests and generate their part of /v1/openapi.json.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRoute, HttpError } from './server.js';
import { errorBody, type RouteDef } from './schemas.js';
import { DEFAULT_PAGE_LIMIT, MAX_NAME_LENGTH, MAX_PAGE_LIMIT, NAME_PATTERN } from '../meta/limits.js';
import { MAX_SCOPES, QUOTA_NAMES, ROLES, type QuotaName, type RoleName } from '../control/types.js';
import { QUOTA_DEFAULTS } from '../quota/quota.js';
import type { Tenancy } from '../authz/tenancy.js';
import { USAGE_METRICS } from '../quota/usage.js';
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
    summary: 'Create an API key with one role, on the org or on a namespace; the key is in this answer only',
    schema: {
      body: {
        type: 'object',
        required: ['role'],
        additionalProperties: false,
        properties: {
          role: { type: 'string', enum: [...ROLES] },
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
    summary: 'Quota defaults, overrides and effective values (of the org, or of one namespace)',
    schema: {
      querystring: { type: 'object', additionalProperties: false, properties: { namespace: nsName } },
      response: {
        200: {
          type: 'object',
          properties: {
            defaults: quotaValues,
            effective: quotaValues,
            overrides: { type: 'array', items: { type: 'object', properties: { org: { type: 'string' }, ns: { type: ['integer', 'null'] }, name: { type: 'string' }, value: { type: 'number' } } } },
            gateways: { type: 'integer', description: 'Live gateways; each enforces rate quotas ÷ this' },
          },
        },
        404: errorBody,
      },
    },
  },
  setQuota: {
    method: 'PUT',
    url: '/v1/quotas',
    summary: 'Override a quota for the org or one namespace (value null clears the override)',
    schema: {
      body: {
        type: 'object',
        required: ['name', 'value'],
        additionalProperties: false,
        properties: { name: { type: 'string', enum: [...QUOTA_NAMES] }, value: { type: ['number', 'null'], minimum: 0 }, namespace: nsName },
      },
      response: { 200: { type: 'object', properties: { name: { type: 'string' }, namespace: { type: ['string', 'null'] }, value: { type: ['number', 'null'] } } }, 400: errorBody, 404: errorBody },
    },
  },
  getUsage: {
    method: 'GET',
    url: '/v1/usage',
    summary: "The org's usage: requests and ingest bytes per namespace and hour (counted by the gateways), stored bytes and unapplied records per namespace (measured)",
    schema: {
      querystring: {
        type: 'object',
        additionalProperties: false,
        properties: {
          metric: { type: 'string', enum: [...USAGE_METRICS] },
          since: { type: 'integer', minimum: 0, description: 'Only windows starting at or after this (epoch ms)' },
        },
      },
      response: {
        200: {
          type: 'object',
          properties: {
            items: {
              type: 'array',
              items: { type: 'object', properties: { ns: { type: ['integer', 'null'] }, metric: { type: 'string' }, window: { type: 'integer' }, value: { type: 'number' }, updated: { type: 'integer' } } },
            },
          },
        },
      },
    },
  },
} satisfies Record<string, RouteDef>;

type Handler = (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>;

export function tenancyRoutes(t: Tenancy, cs: ControlStore, catalog: Catalog) {
  return (app: FastifyInstance): void => {
    const nsIdOf = async (org: string, name: string | undefined): Promise<number | null> => (name ? (await catalog.namespace(org, name)).id : null);
    const who = (req: FastifyRequest) => req.principal.subject ?? 'local';
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
      const p = await cs.listKeys(req.principal.org, pageOf(req));
      return { items: p.items, next_cursor: p.next ?? null };
    });

    route(R.createKey, async (req, reply) => {
      const b = req.body as { role: RoleName; namespace?: string; scopes?: string[]; ttl_s?: number };
      if (b.role === 'org_admin' && b.namespace) throw new HttpError(400, 'invalid_argument', 'org_admin is granted on the org; drop body.namespace');
      const ns = await nsIdOf(req.principal.org, b.namespace);
      const k = await t.createKey({
        org: req.principal.org,
        role: b.role,
        ...(ns !== null ? { ns } : {}),
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

    const bindingOf = async (req: FastifyRequest) => {
      const b = req.body as { key_id: string; role: RoleName; namespace?: string };
      // The tenant fence: only the caller's own org's keys can be bound.
      const k = await cs.key(b.key_id).catch(() => null);
      if (!k || k.org !== req.principal.org) throw new HttpError(404, 'not_found', `key ${b.key_id} not found`);
      const ns = await nsIdOf(req.principal.org, b.namespace);
      return { org: req.principal.org, subject: `key:${b.key_id}`, role: b.role, target: ns === null ? ({ kind: 'org' } as const) : ({ kind: 'namespace', ns } as const) };
    };
    route(R.listBindings, async (req) => {
      const p = await cs.listBindings(req.principal.org, pageOf(req));
      return { items: p.items, next_cursor: p.next ?? null };
    });
    route(R.grantRole, async (req, reply) => reply.status(201).send(await cs.grant(await bindingOf(req))));
    route(R.revokeRole, async (req, reply) => {
      await cs.revokeGrant(await bindingOf(req));
      return reply.status(204).send();
    });

    /** Rows of other namespaces the caller may not read are left out (ns null: the org's own). */
    const onlyReadable = async <T extends { ns: number | null }>(req: FastifyRequest, rows: T[]): Promise<T[]> => {
      const ok = await t.readableNamespaces(req.principal, rows.flatMap((r) => (r.ns === null ? [] : [r.ns])));
      return rows.filter((r) => r.ns === null || ok.has(r.ns));
    };

    route(R.getQuotas, async (req) => {
      const q = req.query as { namespace?: string };
      const ns = await nsIdOf(req.principal.org, q.namespace);
      if (ns !== null && !(await t.readableNamespaces(req.principal, [ns])).has(ns)) throw new HttpError(404, 'not_found', `namespace "${q.namespace}" not found`);
      const out: Record<string, number> = {};
      for (const n of QUOTA_NAMES) out[n] = await t.quotas.value(req.principal.org, ns, n);
      // Rate quotas are split among the live gateways until the router places them (spec §6).
      return { defaults: QUOTA_DEFAULTS, effective: out, overrides: await onlyReadable(req, await cs.quotas(req.principal.org)), gateways: t.quotas.gatewayCount };
    });
    route(R.setQuota, async (req) => {
      const b = req.body as { name: QuotaName; value: number | null; namespace?: string };
      const ns = await nsIdOf(req.principal.org, b.namespace);
      await cs.setQuota(req.principal.org, ns, b.name, b.value);
      t.quotaChanged(req.principal.org);
      return { name: b.name, namespace: b.namespace ?? null, value: b.value };
    });

    route(R.getUsage, async (req) => {
      const q = req.query as { metric?: string; since?: number };
      const rows = await cs.usage(req.principal.org, { ...(q.metric ? { metric: q.metric } : {}), ...(q.since !== undefined ? { since: q.since } : {}) });
      return { items: await onlyReadable(req, rows) };
    });
  };
}

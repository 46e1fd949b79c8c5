// The tenancy API under /v1 (issue 8): the caller's org, keys (created keys are shown once),
// role bindings, quotas and usage. Every route is admitted like any other (ROUTE_AUTH).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../gateway/server.js';
import { NAME_PATTERN } from '../meta/limits.js';
import { QUOTA_NAMES, ROLES, type QuotaName, type RoleName } from '../control/types.js';
import { QUOTA_DEFAULTS } from '../quota/quota.js';
import type { Tenancy } from './tenancy.js';
import type { ControlStore } from '../control/types.js';
import type { Catalog } from '../collection/catalog.js';

const nsName = { type: 'string', pattern: NAME_PATTERN.source, maxLength: 63 } as const;

export function tenancyRoutes(t: Tenancy, cs: ControlStore, catalog: Catalog) {
  return (app: FastifyInstance): void => {
    const nsIdOf = async (org: string, name: string | undefined): Promise<number | null> => (name ? (await catalog.namespace(org, name)).id : null);
    const who = (req: FastifyRequest) => req.principal.subject ?? 'local';

    app.get('/v1/org', async (req) => {
      const o = await cs.org(req.principal.org);
      return { id: o.id, created: o.created };
    });

    app.get('/v1/keys', async (req) => {
      const q = req.query as { cursor?: string };
      const p = await cs.listKeys(req.principal.org, q.cursor ? { after: q.cursor } : {});
      return { items: p.items, next_cursor: p.next ?? null };
    });

    app.post(
      '/v1/keys',
      {
        schema: {
          body: {
            type: 'object',
            required: ['role'],
            additionalProperties: false,
            properties: {
              role: { type: 'string', enum: [...ROLES] },
              namespace: nsName,
              scopes: { type: 'array', items: { type: 'string' }, maxItems: 32 },
              ttl_s: { type: 'integer', minimum: 1 },
            },
          },
        },
      },
      async (req, reply) => {
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
      },
    );

    app.delete('/v1/keys/:key', async (req, reply) => {
      const { key } = req.params as { key: string };
      if (!/^[0-9a-f]{16}$/.test(key)) throw new HttpError(400, 'invalid_argument', 'key must be a key id (16 hex digits)');
      await t.revokeKey(req.principal.org, key, who(req));
      return reply.status(204).send();
    });

    const bindingBody = {
      type: 'object',
      required: ['key_id', 'role'],
      additionalProperties: false,
      properties: { key_id: { type: 'string', pattern: '^[0-9a-f]{16}$' }, role: { type: 'string', enum: [...ROLES] }, namespace: nsName },
    } as const;
    const binding = async (req: FastifyRequest) => {
      const b = req.body as { key_id: string; role: RoleName; namespace?: string };
      // The tenant fence: only the caller's own org's keys can be bound.
      const k = await cs.key(b.key_id).catch(() => null);
      if (!k || k.org !== req.principal.org) throw new HttpError(404, 'not_found', `key ${b.key_id} not found`);
      const ns = await nsIdOf(req.principal.org, b.namespace);
      return { org: req.principal.org, subject: `key:${b.key_id}`, role: b.role, target: ns === null ? ({ kind: 'org' } as const) : ({ kind: 'namespace', ns } as const) };
    };
    app.get('/v1/bindings', async (req) => {
      const p = await cs.listBindings(req.principal.org);
      return { items: p.items, next_cursor: p.next ?? null };
    });
    app.post('/v1/bindings', { schema: { body: bindingBody } }, async (req, reply) => reply.status(201).send(await cs.grant(await binding(req))));
    app.delete('/v1/bindings', { schema: { body: bindingBody } }, async (req, reply) => {
      await cs.revokeGrant(await binding(req));
      return reply.status(204).send();
    });

    app.get('/v1/quotas', async (req) => {
      const q = req.query as { namespace?: string };
      const ns = await nsIdOf(req.principal.org, q.namespace);
      const out: Record<string, number> = {};
      for (const n of QUOTA_NAMES) out[n] = await t.quotas.value(req.principal.org, ns, n);
      // Rate quotas are split among the live gateways until the router places them (spec §6).
      return { defaults: QUOTA_DEFAULTS, effective: out, overrides: await cs.quotas(req.principal.org), gateways: t.quotas.gatewayCount };
    });
    app.put(
      '/v1/quotas',
      {
        schema: {
          body: {
            type: 'object',
            required: ['name', 'value'],
            additionalProperties: false,
            properties: { name: { type: 'string', enum: [...QUOTA_NAMES] }, value: { type: ['number', 'null'], minimum: 0 }, namespace: nsName },
          },
        },
      },
      async (req) => {
        const b = req.body as { name: QuotaName; value: number | null; namespace?: string };
        const ns = await nsIdOf(req.principal.org, b.namespace);
        await cs.setQuota(req.principal.org, ns, b.name, b.value);
        t.quotaChanged(req.principal.org);
        return { name: b.name, namespace: b.namespace ?? null, value: b.value };
      },
    );

    app.get('/v1/usage', async (req) => ({ items: await cs.usage(req.principal.org) }));
  };
}

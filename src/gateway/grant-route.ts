// POST /v1/internal/quota/grant (spec §6, src/quota/owner.ts): another gateway asks this node,
// the owner of some namespaces' request-rate buckets, for tokens — a batch of (org, ns, key,
// want) answered with what each bucket could give. Between nodes only: the caller presents
// its peer credential (src/router/peers.ts), checked against this node's membership view; it
// is not admitted like a client's request (it carries no API key), and is not in the OpenAPI
// document.
import type { FastifyInstance } from 'fastify';
import type { Quotas } from '../quota/quota.js';
import { QUOTA_BOUNDS } from '../control/types.js';
import { GRANT_PATH, MAX_GRANT_ITEMS, type GrantAsk } from '../quota/owner.js';
import type { Membership } from '../router/membership.js';
import { verifyPeer } from '../router/peers.js';
import { addRoute, HttpError } from './server.js';
import { errorBody, type RouteDef } from './schemas.js';

/** Tokens one item may ask for, at most (a lease is a small share of a second's rate). */
const MAX_WANT = 1_000_000;

export const GRANT_ROUTE: RouteDef = {
  method: 'POST',
  url: GRANT_PATH,
  summary: "Tokens of this node's request-rate buckets for another gateway (between nodes)",
  schema: {
    body: {
      type: 'object',
      required: ['items'],
      additionalProperties: false,
      properties: {
        items: {
          type: 'array',
          minItems: 1,
          maxItems: MAX_GRANT_ITEMS,
          items: {
            type: 'object',
            required: ['org', 'ns', 'name', 'key', 'want', 'rate'],
            additionalProperties: false,
            properties: {
              org: { type: 'string', minLength: 1, maxLength: 64 },
              ns: { type: 'integer', minimum: 0 },
              name: { type: 'string', enum: ['request_rate'] },
              key: { type: 'string', minLength: 1, maxLength: 512 },
              want: { type: 'integer', minimum: 1, maximum: MAX_WANT },
              rate: { type: 'number', minimum: QUOTA_BOUNDS.request_rate.min, maximum: QUOTA_BOUNDS.request_rate.max },
            },
          },
        },
      },
    },
    response: { 200: { type: 'object' }, 400: errorBody, 401: errorBody },
  },
};

export function grantRoute(d: { quotas: Quotas; membership: Membership }): (app: FastifyInstance) => void {
  return (app) =>
    addRoute(app, GRANT_ROUTE, async (req) => {
      if (!verifyPeer(d.membership.view(), req.headers)) {
        throw new HttpError(401, 'unauthenticated', 'quota grants are for the nodes of this cluster: the caller is not a member this node knows, or its credential does not match');
      }
      const items = (req.body as { items: GrantAsk[] }).items;
      // The key is the bucket's own (org/ns/surface): an asker names only buckets of the namespace it names.
      for (const [i, it] of items.entries()) {
        if (!it.key.startsWith(`${it.org}/${it.ns}/`)) throw new HttpError(400, 'invalid_argument', `body.items[${i}].key must start with "${it.org}/${it.ns}/"`);
      }
      return { items: await Promise.all(items.map((it) => d.quotas.grant(it.org, it.ns, it.key, it.want, it.rate))) };
    });
}

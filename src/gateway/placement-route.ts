// GET /v1/placement?ns= (spec §5.3, docs/placement.md): where a namespace's keys are placed
// in the answering node's membership view — its namespace key among the gateways (its
// request-rate bucket) and its collections among the query nodes (reads and queries) — with
// each key's owner and replicas, and the load per node: the listed keys each owns, and the
// requests this node has forwarded to it that are still in flight.
import type { FastifyInstance } from 'fastify';
import type { MetaStore } from '../meta/contract.js';
import type { Catalog } from '../collection/catalog.js';
import { OPERATOR_ORG } from '../control/types.js';
import type { Membership } from '../router/membership.js';
import type { RequestRouter } from '../router/requests.js';
import { placementKey, type PlacementKey } from '../router/placement.js';
import type { SizeClass } from '../meta/backends/sharded/directory.js';
import { MAX_PLACEMENT_COLLECTIONS, ROUTES } from './schemas.js';
import { addRoute, HttpError } from './server.js';

export interface PlacementRouteDeps {
  meta: MetaStore;
  catalog: Catalog;
  membership: Membership;
  requests?: RequestRouter;
  /** The namespace's size class (its directory entry's on a sharded metastore); small when not known. */
  sizeClass?: (ns: number) => Promise<SizeClass>;
}

type Q = { ns: string; collection?: string; replicas: number; org?: string };

export function placementRoute(d: PlacementRouteDeps): (app: FastifyInstance) => void {
  return (app) =>
    addRoute(app, ROUTES.getPlacement, async (req) => {
      const q = req.query as Q;
      const p = req.principal;
      let org = p.org;
      if (p.org === OPERATOR_ORG) {
        if (!q.org) throw new HttpError(400, 'invalid_argument', "querystring.org is required with the operator's key: name the namespace's org");
        org = q.org;
      } else if (q.org !== undefined && q.org !== p.org) {
        throw new HttpError(403, 'forbidden', `this API key belongs to org "${p.org}"; it may not see org "${q.org}"`, undefined, 'org.manage');
      }
      const n = await d.catalog.namespace(org, q.ns);
      const sizeClass = (await d.sizeClass?.(n.id)) ?? 'small';
      const view = d.membership.view();
      const colls = q.collection
        ? [await d.catalog.collection(org, q.ns, q.collection)]
        : (await d.meta.listCollections(n.id, { limit: MAX_PLACEMENT_COLLECTIONS })).items;
      const owned = new Map<string, number>();
      const place = (kind: 'namespace' | 'collection', key: PlacementKey, role: 'gateway' | 'query', collection?: string) => {
        const pl = view.placement(role);
        const replicas = pl.size === 0 ? [] : pl.owners(key, q.replicas);
        const owner = replicas[0] ?? null;
        if (owner) owned.set(owner, (owned.get(owner) ?? 0) + 1);
        return { kind, key: key.hashed, ...(collection !== undefined ? { collection } : {}), role, owner, replicas };
      };
      const keys = [place('namespace', placementKey.namespace(n.id), 'gateway'), ...colls.map((c) => place('collection', placementKey.collection(n.id, c.id, sizeClass), 'query', c.name))];
      const inFlight = d.requests?.inFlight() ?? new Map<string, number>();
      return {
        namespace: { name: n.name, id: n.id, size_class: sizeClass },
        view: { version: view.version, nodes: view.nodes.length },
        nodes: view.nodes.map((x) => ({ id: x.id, roles: x.roles, zone: x.zone ?? null, weight: x.weight ?? 1, owned: owned.get(x.id) ?? 0, in_flight: inFlight.get(x.id) ?? 0 })),
        keys,
      };
    });
}

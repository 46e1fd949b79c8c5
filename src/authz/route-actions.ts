// Every HTTP route mapped to the action it needs and the resource it acts on (spec §7: each
// surface maps a request to (action, resource)); a route missing here is refused with 403.
import type { Action } from './authorizer.js';

export interface RouteAuth {
  action: Action;
  /**
   * The resource: the caller's org, the namespace and collection its path params name, or
   * the deployment (the operator's routes: checked on OPERATOR_ORG, and charged to the
   * operator's own request rate, never to the quotas of the org they manage).
   */
  scope: 'org' | 'namespace' | 'collection' | 'deployment';
  /** Quota checks beyond the request rate. */
  quota?: 'ingest' | 'query' | 'metadata';
}

/** The request surface of this API (spec §6: request rate per namespace and surface). */
export const SURFACE = 'rest';

/** Every HTTP route → (action, resource); a route missing here is refused (403). */
export const ROUTE_AUTH: Record<string, RouteAuth> = {
  'POST /v1/namespaces': { action: 'namespace.create', scope: 'org', quota: 'metadata' },
  'GET /v1/namespaces': { action: 'namespace.list', scope: 'org' },
  'GET /v1/namespaces/:ns': { action: 'namespace.read', scope: 'namespace' },
  'DELETE /v1/namespaces/:ns': { action: 'namespace.delete', scope: 'namespace', quota: 'metadata' },
  'GET /v1/namespaces/:ns/key': { action: 'namespace.key.read', scope: 'namespace' },
  'POST /v1/namespaces/:ns/key/rotate': { action: 'namespace.key.manage', scope: 'namespace', quota: 'metadata' },
  'POST /v1/namespaces/:ns/key/destroy': { action: 'namespace.key.manage', scope: 'namespace', quota: 'metadata' },
  'POST /v1/namespaces/:ns/collections': { action: 'collection.create', scope: 'namespace', quota: 'metadata' },
  'GET /v1/namespaces/:ns/collections': { action: 'collection.list', scope: 'namespace' },
  'GET /v1/namespaces/:ns/collections/:c': { action: 'collection.read', scope: 'collection' },
  'DELETE /v1/namespaces/:ns/collections/:c': { action: 'collection.delete', scope: 'collection', quota: 'metadata' },
  'PUT /v1/namespaces/:ns/collections/:c/retention': { action: 'collection.retention.set', scope: 'collection', quota: 'metadata' },
  'POST /v1/namespaces/:ns/collections/:c/documents': { action: 'documents.write', scope: 'collection', quota: 'ingest' },
  'GET /v1/namespaces/:ns/collections/:c/documents/:id': { action: 'documents.read', scope: 'collection', quota: 'query' },
  'POST /v1/namespaces/:ns/collections/:c/query': { action: 'documents.read', scope: 'collection', quota: 'query' },
  'POST /v1/namespaces/:ns/collections/:c/erase': { action: 'documents.erase', scope: 'collection', quota: 'ingest' },
  'GET /v1/erasures': { action: 'erasure.read', scope: 'org' },
  'GET /v1/erasures/:id': { action: 'erasure.read', scope: 'org' },
  'POST /v1/erasures/:id/verify': { action: 'erasure.read', scope: 'org' },
  'GET /v1/orgs/:org/erasures': { action: 'erasure.audit', scope: 'deployment' },
  'GET /v1/org': { action: 'org.read', scope: 'org' },
  'GET /v1/keys': { action: 'org.manage', scope: 'org' },
  'POST /v1/keys': { action: 'org.manage', scope: 'org' },
  'DELETE /v1/keys/:key': { action: 'org.manage', scope: 'org' },
  'GET /v1/bindings': { action: 'org.manage', scope: 'org' },
  'POST /v1/bindings': { action: 'org.manage', scope: 'org' },
  'DELETE /v1/bindings': { action: 'org.manage', scope: 'org' },
  'GET /v1/quotas': { action: 'org.read', scope: 'org' },
  // Where keys are placed: an org admin's view of its namespaces (the operator's of any org's, by ?org=).
  'GET /v1/placement': { action: 'org.manage', scope: 'org' },
  'GET /v1/usage': { action: 'org.read', scope: 'org' },
  'GET /v1/orgs': { action: 'org.list', scope: 'deployment' },
  'POST /v1/orgs': { action: 'org.create', scope: 'deployment' },
  'GET /v1/orgs/:org/quotas': { action: 'quota.read', scope: 'deployment' },
  'PUT /v1/orgs/:org/quotas': { action: 'quota.set', scope: 'deployment' },
  'GET /v1/orgs/:org/usage': { action: 'usage.read', scope: 'deployment' },
  // The status page (src/ui): each page needs what the API route showing the same needs.
  'GET /ui': { action: 'org.read', scope: 'org' },
  'GET /ui/namespaces': { action: 'namespace.list', scope: 'org' },
  'GET /ui/namespaces/:ns': { action: 'collection.list', scope: 'namespace' },
  'GET /ui/namespaces/:ns/collections/:c': { action: 'collection.read', scope: 'collection' },
  'GET /ui/usage': { action: 'org.read', scope: 'org' },
  'GET /ui/cluster': { action: 'org.read', scope: 'org' },
};

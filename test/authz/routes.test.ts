// Every route the node serves is mapped to (action, resource) — an unmapped one would be
// refused to everyone — and the OpenAPI document of an authenticated node describes them all,
// with the API key they need and the 401/403/429 they may answer.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { ROUTE_AUTH } from '../../src/authz/route-actions.js';
import { TENANCY_ROUTES } from '../../src/gateway/tenancy-routes.js';
import { ROUTES, type RouteDef } from '../../src/gateway/schemas.js';
import { UI_PUBLIC_PATHS, UI_PUBLIC_ROUTES, UI_ROUTES } from '../../src/ui/routes.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

const API = Object.values({ ...ROUTES, ...TENANCY_ROUTES }) as RouteDef[];
/** Every route admitted by the gateway's hook: the API's and the status page's. */
const ALL = [...API, ...(Object.values(UI_ROUTES) as RouteDef[])];
let node: LoamNode;
before(async () => {
  node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent' }));
});
after(async () => node?.close());

test('every route is mapped to an action, and every mapping to a route', () => {
  const served = new Set(ALL.map((r) => `${r.method} ${r.url}`));
  for (const k of served) assert.ok(ROUTE_AUTH[k], `${k} has no (action, resource) in ROUTE_AUTH`);
  for (const k of Object.keys(ROUTE_AUTH)) assert.ok(served.has(k), `ROUTE_AUTH maps ${k}, which no route serves`);
  // The status page's login and logout take no key: not admitted, so not mapped, and nothing else is public.
  for (const r of Object.values(UI_PUBLIC_ROUTES) as RouteDef[]) {
    assert.equal(ROUTE_AUTH[`${r.method} ${r.url}`], undefined, `${r.url} is public`);
    assert.ok(!ALL.some((a) => a.url === r.url), `${r.url} serves nothing admitted`);
  }
  assert.deepEqual([...UI_PUBLIC_PATHS].sort(), ['/ui/login', '/ui/logout']);
});

test('the OpenAPI document lists every route, the bearer key, and the refusals', async () => {
  const doc = (await (await fetch(`${node.url}/v1/openapi.json`, { signal: AbortSignal.timeout(15_000) })).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    components?: { securitySchemes?: Record<string, { scheme?: string }> };
    security?: unknown[];
  };
  for (const r of API) {
    const op = doc.paths[r.url.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[r.method.toLowerCase()];
    assert.ok(op, `${r.method} ${r.url} is documented`);
    for (const status of ['401', '403', '429']) assert.ok(op.responses[status], `${r.method} ${r.url} documents ${status}`);
  }
  assert.ok(!Object.keys(doc.paths).some((p) => p.startsWith('/ui')), 'the status page (HTML) is not part of the API document');
  assert.equal(doc.components?.securitySchemes?.apiKey?.scheme, 'bearer');
  assert.deepEqual(doc.security, [{ apiKey: [] }]);
});

test('a malformed key id in a path is a 400 that says what to send', async () => {
  const r = await fetch(`${node.url}/v1/keys/not-an-id`, { method: 'DELETE', headers: { authorization: `Bearer ${node.bootstrapKey}` }, signal: AbortSignal.timeout(15_000) });
  assert.equal(r.status, 400);
  assert.match(((await r.json()) as { error: { message: string } }).error.message, /key/);
});

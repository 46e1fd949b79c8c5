// The OpenFGA authorizer against a real OpenFGA server (spec §7): a clear error for an
// unreachable server or a model version that is not this code's; the tenant fence holding
// against a hostile tuple written straight into OpenFGA (and reconcile removing it); the
// outbox under a drainer killed mid-batch; and OpenFGA unreachable for a while: refusals
// (503, never an allow) meanwhile, nothing lost and nothing orphaned after.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { OpenFgaClient, type TupleKey } from '@openfga/sdk';
import { openFgaUrl } from '../harness/openfga.js';
import { freePort } from '../harness/ports.js';
import { tcpProxy, type TcpProxy } from '../harness/tcp-proxy.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { MemoryStore } from '../../src/store/index.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { parseKey, newKey } from '../../src/control/keys.js';
import { OpenFgaAuthorizer } from '../../src/authz/openfga/authorizer.js';
import { MODEL_RECORD_OBJECT, MODEL_VERSION, modelRequest } from '../../src/authz/openfga/model.js';
import { isBookkeeping, tupleId } from '../../src/authz/openfga/tuples.js';
import { OutboxDrainer, RECONCILE_JOB, TupleSync } from '../../src/authz/openfga/outbox.js';
import type { ControlStore, RoleBinding } from '../../src/control/types.js';
import type { MetaStore } from '../../src/meta/contract.js';

const silent = pino({ level: 'silent' });
const storeName = (what: string) => `t-${what}-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;

async function call(node: LoamNode, method: string, path: string, key: string, body?: unknown) {
  const h: Record<string, string> = { authorization: `Bearer ${key}` };
  if (body !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(node.url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(15_000) });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as any) : null, text, retryAfter: r.headers.get('retry-after') };
}

async function openfgaNode(url: string, store: string, o: { meta?: MetaStore; logger?: Logger } = {}): Promise<LoamNode> {
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', authorizer: 'openfga', openfga_url: url, openfga_store: store });
  return startNode(config, { ...(o.meta ? { meta: o.meta } : {}), store: new MemoryStore(), logger: o.logger ?? silent });
}

/** Every tuple of a store but Loam's bookkeeping, as ids. */
async function allTuples(c: OpenFgaClient): Promise<Set<string>> {
  const out = new Set<string>();
  let token: string | undefined;
  for (let i = 0; i < 1_000; i++) {
    const r = await c.read({}, { pageSize: 100, ...(token ? { continuationToken: token } : {}) });
    for (const t of r.tuples) if (!isBookkeeping(t.key)) out.add(tupleId(t.key));
    token = r.continuation_token || undefined;
    if (!token) break;
  }
  return out;
}

/** The tuples the ControlStore says should exist: each live key's membership, and each binding. */
async function desiredTuples(cs: ControlStore, orgs: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const org of orgs) {
    for (const k of (await cs.listKeys(org, { limit: 1_000 })).items) if (k.revoked === null) out.add(tupleId({ user: `api_key:${k.keyId}`, relation: 'member', object: `org:${org}` }));
    for (const b of (await cs.listBindings(org, { limit: 1_000 })).items) {
      const object = b.target.kind === 'org' ? `org:${org}` : `namespace:${org}/${b.target.ns}`;
      out.add(tupleId({ user: `api_key:${b.subject.slice(4)}`, relation: b.role, object }));
    }
  }
  return out;
}

async function until(what: string, ok: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  while (!(await ok())) {
    if (Date.now() - t0 > ms) assert.fail(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

let url: string;
before(async () => {
  url = await openFgaUrl();
});

describe('starting', () => {
  test('an unreachable OpenFGA server is an error naming its URL', async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    await assert.rejects(openfgaNode(dead, storeName('dead')), (e: Error) => e.message.includes(`cannot reach the OpenFGA server at ${dead}`));
  });

  test('the config names what to fix', () => {
    assert.throws(() => resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', auth: 'api_keys', authorizer: 'openfga' }), /openfga_url/);
    assert.throws(() => resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', auth: 'api_keys', authorizer: 'opa' }), /authorizer must be one of builtin, openfga/);
    assert.throws(() => resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', authorizer: 'openfga', openfga_url: 'http://h:8080' }), /auth: api_keys/);
    assert.throws(() => resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', auth: 'api_keys', authorizer: 'openfga', openfga_url: 'http://h:8080', openfga_store: 'ab' }), /openfga_store/);
    const c = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', auth: 'api_keys' }, { authorizer: 'openfga', openfga_url: 'http://h:8080/' });
    assert.equal(c.openfga_url, 'http://h:8080');
  });

  test('a model version other than this code\'s refuses the start, naming the version needed', async () => {
    const admin = new OpenFgaClient({ apiUrl: url });
    // A store a newer Loam migrated: its model recorded as version MODEL_VERSION + 1.
    const newer = storeName('newer');
    const s = await admin.createStore({ name: newer });
    const c = new OpenFgaClient({ apiUrl: url, storeId: s.id });
    const m = await c.writeAuthorizationModel(modelRequest());
    await c.write({ writes: [{ user: `model_id:v${MODEL_VERSION + 1}.${m.authorization_model_id}`, relation: 'applied', object: MODEL_RECORD_OBJECT }] }, { authorizationModelId: m.authorization_model_id });
    await assert.rejects(openfgaNode(url, newer), (e: Error) => e.message.includes(`holds authorization model version ${MODEL_VERSION + 1}, newer than this Loam's version ${MODEL_VERSION}`) && e.message.includes(`model version is ${MODEL_VERSION + 1}`));
    // A store whose recorded version-1 model is not model.fga.
    const changed = storeName('changed');
    const s2 = await admin.createStore({ name: changed });
    const c2 = new OpenFgaClient({ apiUrl: url, storeId: s2.id });
    const dsl = modelRequest();
    const other = { ...dsl, type_definitions: dsl.type_definitions.filter((t) => t.type !== 'collection') };
    const m2 = await c2.writeAuthorizationModel(other);
    await c2.write({ writes: [{ user: `model_id:v${MODEL_VERSION}.${m2.authorization_model_id}`, relation: 'applied', object: MODEL_RECORD_OBJECT }] }, { authorizationModelId: m2.authorization_model_id });
    await assert.rejects(openfgaNode(url, changed), /differs from this Loam's model version 1/);
    // A second start on a migrated store reuses the recorded model: written once per version.
    const fresh = storeName('fresh');
    const n1 = await openfgaNode(url, fresh);
    const id1 = (n1.authorizer as OpenFgaAuthorizer).store.modelId;
    await n1.close();
    const n2 = await openfgaNode(url, fresh);
    const st = (n2.authorizer as OpenFgaAuthorizer).store;
    assert.equal(st.modelId, id1, 'the recorded model id is used again');
    assert.equal((await st.client.readAuthorizationModels()).authorization_models.length, 1, 'the model was written once');
    await n2.close();
  });
});

describe('the tenant fence and reconcile', () => {
  let node: LoamNode;
  before(async () => {
    node = await openfgaNode(url, storeName('fence'));
  });
  after(async () => node?.close());

  test('a hostile tuple granting org B\'s key a role on org A\'s namespace is still denied, and reconcile deletes it', async () => {
    const admin = node.bootstrapKey!;
    assert.equal((await call(node, 'POST', '/v1/namespaces', admin, { name: 'alpha' })).status, 201);
    const alpha = (await call(node, 'GET', '/v1/namespaces/alpha', admin)).body.id as number;
    await node.tenancy!.createOrg('borg');
    const bKey = (await node.tenancy!.createKey({ org: 'borg', role: 'org_admin', createdBy: 'test' })).token;
    const bId = parseKey(bKey)!.keyId;
    const az = node.authorizer as OpenFgaAuthorizer;
    const fga = az.store.client;
    const hostile: TupleKey[] = [
      { user: `api_key:${bId}`, relation: 'writer', object: `namespace:default/${alpha}` },
      { user: `api_key:${bId}`, relation: 'org_admin', object: 'org:default' },
    ];
    await fga.write({ writes: hostile });
    for (const t of hostile) assert.equal((await fga.read(t)).tuples.length, 1, 'the hostile tuple is in OpenFGA');
    // OpenFGA alone decides this: a principal claiming org default for B's key passes every
    // rule in code, and the model's fence (member from org) still refuses.
    const forged = { org: 'default', subject: `key:${bId}`, scopes: ['*'] };
    const ns = { kind: 'namespace' as const, org: 'default', ns: alpha, name: 'alpha' };
    for (const action of ['documents.write', 'documents.read', 'namespace.delete', 'collection.create'] as const) assert.equal(await az.check(forged, action, ns), false, action);
    assert.equal(await az.check(forged, 'namespace.create', { kind: 'org', org: 'default' }), false);
    assert.deepEqual(await az.filterVisible(forged, 'namespace.read', [ns]), []);
    // Over HTTP, B's key names only its own org's namespaces.
    assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', bKey)).status, 404);
    assert.deepEqual((await call(node, 'GET', '/v1/namespaces', bKey)).body.items, []);
    // The admin of default is allowed by OpenFGA (the checks are asked, not short-cut).
    const adminP = { org: 'default', subject: `key:${parseKey(admin)!.keyId}`, scopes: ['*'] };
    assert.equal(await az.check(adminP, 'documents.write', ns), true);
    // Reconcile: the hostile tuples back no binding, so they go; the rest is what the ControlStore says.
    for (let i = 0; i < 20 && !(await az.drainer!.reconcilePass(50)); i++);
    for (const t of hostile) assert.equal((await fga.read(t)).tuples.length, 0, 'reconcile deleted the hostile tuple');
    assert.deepEqual(await allTuples(fga), await desiredTuples(node.control!, ['_operator', 'default', 'borg']));
  });

  test('a hostile structure tuple (org B as the parent of org A\'s namespace) grants B\'s keys nothing over HTTP, and reconcile deletes it', async () => {
    const admin = node.bootstrapKey!;
    assert.equal((await call(node, 'POST', '/v1/namespaces', admin, { name: 'gamma' })).status, 201);
    const gamma = (await call(node, 'GET', '/v1/namespaces/gamma', admin)).body.id as number;
    await node.tenancy!.createOrg('corg');
    const cKey = (await node.tenancy!.createKey({ org: 'corg', role: 'org_admin', createdBy: 'test' })).token;
    const az = node.authorizer as OpenFgaAuthorizer;
    // Structure is contextual, never stored: a stored one is not of Loam's shape.
    const hostile: TupleKey = { user: 'org:corg', relation: 'org', object: `namespace:default/${gamma}` };
    await az.store.client.write({ writes: [hostile] });
    // The principal's org comes from its key record: C's admin is refused org default's namespace.
    assert.equal((await call(node, 'GET', '/v1/namespaces/gamma', cKey)).status, 404);
    assert.equal((await call(node, 'GET', '/v1/namespaces/gamma/collections', cKey)).status, 404);
    assert.equal((await call(node, 'DELETE', '/v1/namespaces/gamma', cKey)).status, 404);
    assert.deepEqual((await call(node, 'GET', '/v1/namespaces', cKey)).body.items, []);
    for (let i = 0; i < 20 && !(await az.drainer!.reconcilePass(50)); i++);
    assert.equal((await az.store.client.read(hostile)).tuples.length, 0, 'reconcile deleted the stored structure tuple');
  });

  test('reconcile writes a missing tuple back, and access returns', async () => {
    const admin = node.bootstrapKey!;
    const r = await call(node, 'POST', '/v1/keys', admin, { role: 'reader', namespace: 'alpha' });
    assert.equal(r.status, 201);
    const reader = r.body.key as string;
    assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', reader)).status, 200, 'usable at once');
    const az = node.authorizer as OpenFgaAuthorizer;
    const alpha = (await call(node, 'GET', '/v1/namespaces/alpha', admin)).body.id as number;
    const t = { user: `api_key:${parseKey(reader)!.keyId}`, relation: 'reader', object: `namespace:default/${alpha}` };
    await until('the outbox delivered the key', async () => (await node.control!.outbox(1)).length === 0);
    await az.store.client.write({ deletes: [t] }); // drift: the tuple is lost
    const p = { org: 'default', subject: `key:${parseKey(reader)!.keyId}`, scopes: ['*'] };
    az.invalidate('default', p.subject);
    assert.equal(await az.check(p, 'namespace.read', { kind: 'namespace', org: 'default', ns: alpha, name: 'alpha' }), false, 'a missing tuple denies, never grants');
    await new Promise((res) => setTimeout(res, 1_100)); // the gateway's own decision cache (DECISION_CACHE_MS)
    assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', reader)).status, 403);
    for (let i = 0; i < 20 && !(await az.drainer!.reconcilePass(50)); i++);
    assert.equal((await az.store.client.read(t)).tuples.length, 1, 'reconcile wrote it back');
    az.invalidate('default', `key:${parseKey(reader)!.keyId}`);
    assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', reader)).status, 200);
  });
});

describe('the outbox', () => {
  let meta: ReturnType<typeof openEmbedded>;
  let cs: ControlStore;
  const orgs = ['acme'];
  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loam-openfga-'));
    meta = openEmbedded({ path: join(dir, 'meta.db') });
    cs = openEmbeddedControl(join(dir, 'meta.db'), { outbox: true });
    await cs.init();
    await cs.createOrg('acme');
  });
  after(async () => {
    await cs?.close();
    await meta?.close();
  });

  const authorizer = (store: string, owner: string, drain: ConstructorParameters<typeof OpenFgaAuthorizer>[0]['drain'] = {}, at = url) =>
    new OpenFgaAuthorizer({ url: at, store, control: cs, meta, logger: silent, owner, drain: { pollMs: 20, leaseTtlMs: 1_000, reconcileIntervalMs: 3_600_000, ...drain } });

  test('a drainer killed mid-batch loses nothing: the next lease holder delivers every entry, and no revoked one stays', async () => {
    const store = storeName('kill');
    let stuck!: (e: Error) => void;
    let wrote = 0;
    // The first drainer writes its first batch to OpenFGA, then never acknowledges it (it is killed there).
    const first = authorizer(store, 'node-1', { afterWrite: () => ((wrote++, new Promise<void>((_, reject) => (stuck = reject)))) });
    const keys: string[] = [];
    const bindings: Omit<RoleBinding, 'created'>[] = [];
    for (let i = 0; i < 150; i++) {
      const k = newKey();
      keys.push(k.keyId);
      await cs.createKey({ keyId: k.keyId, org: 'acme', secretHash: k.secretHash, scopes: ['*'], expiry: null, createdBy: 'test', created: Date.now() });
      const b = { org: 'acme', subject: `key:${k.keyId}`, role: i % 2 ? ('reader' as const) : ('writer' as const), target: { kind: 'org' as const } };
      await cs.grant(b);
      bindings.push(b);
    }
    await first.start();
    await until('the first drainer wrote a batch', async () => wrote > 0);
    const fga = first.store.client;
    const partial = await allTuples(fga);
    assert.ok(partial.size > 0 && partial.size < 300, `a part was written (${partial.size} of 300 tuples)`);
    assert.equal((await cs.outbox(1))[0]?.seq !== undefined, true, 'and nothing acknowledged');
    // While it is stuck, some bindings are revoked and a key too.
    for (const b of bindings.slice(0, 10)) await cs.revokeGrant(b);
    await cs.revokeKey('acme', keys[149]!);
    const second = authorizer(store, 'node-2');
    await second.start();
    await until('the second drainer took the lease and emptied the outbox', async () => (await cs.outbox(1)).length === 0, 15_000);
    assert.deepEqual(await allTuples(fga), await desiredTuples(cs, orgs), 'every tuple the ControlStore holds, and none it does not');
    stuck(new Error('killed'));
    await first.close();
    await second.close();
  });

  test('reconcile keeps its position in the ControlStore: a new or restarted lease holder resumes a round where the last one stopped; each pass is bounded', async () => {
    const LIMIT = 100;
    const MAX_PASSES = 100;
    // The authorizer only for its store and client; the drainers below are driven pass by pass.
    const fgaOnly = new OpenFgaAuthorizer({ url, store: storeName('resume'), control: cs, meta, logger: silent, owner: 'node-0', drainer: false });
    await fgaOnly.start();
    const fga = fgaOnly.store.client;
    /** A lease holder as a new process has it: nothing in memory, only what the stores keep. */
    const holder = (owner: string) =>
      new OutboxDrainer({ sync: new TupleSync(() => fga, cs, meta), control: cs, meta, client: () => fga, owner, now: Date.now, hooks: { failed: () => undefined } });
    const round = async (d: OutboxDrainer): Promise<number> => {
      for (let n = 1; n <= MAX_PASSES; n++) if (await d.reconcilePass(LIMIT)) return n;
      return assert.fail(`no round finished in ${MAX_PASSES} passes`);
    };
    await cs.saveJobPosition(RECONCILE_JOB, null);
    // The store starts empty: a first round writes every tuple the ControlStore holds.
    const first = holder('node-1');
    await round(first);
    assert.deepEqual(await allTuples(fga), await desiredTuples(cs, orgs));
    assert.equal(await cs.jobPosition(RECONCILE_JOB), null, 'a finished round leaves no position: the next starts from the beginning');
    // A whole round from the start on one holder takes n passes of at most LIMIT items each.
    const n = await round(first);
    assert.ok(n >= 3, `a pass is bounded: a round of ${(await allTuples(fga)).size} tuples and as many ControlStore rows took ${n} passes`);
    await first.close();
    // One pass, then the holder stops (killed or restarted): its position is in the ControlStore.
    const stopped = holder('node-2');
    assert.equal(await stopped.reconcilePass(LIMIT), false);
    const saved = await cs.jobPosition(RECONCILE_JOB);
    assert.ok(saved !== null, 'the position of an unfinished round is saved');
    await stopped.close();
    // A new holder, fresh from start, goes on from there: the round ends one pass sooner.
    const next = holder('node-3');
    assert.equal(await round(next), n - 1, 'the new holder resumed where the last stopped (starting over would take a whole round)');
    await next.close();
    await fgaOnly.close();
  });

  test('OpenFGA unreachable for a while: 503 meanwhile (never an allow); after, nothing lost and nothing orphaned', async () => {
    const upstream = new URL(url);
    const proxy: TcpProxy = await tcpProxy({ host: upstream.hostname, port: Number(upstream.port) });
    let logs = '';
    const sink = new Writable({
      write(chunk, _e, cb) {
        logs += chunk.toString();
        cb();
      },
    });
    const node = await openfgaNode(proxy.url, storeName('outage'), { logger: pino({ level: 'warn' }, sink) });
    try {
      const admin = node.bootstrapKey!;
      assert.equal((await call(node, 'POST', '/v1/namespaces', admin, { name: 'alpha' })).status, 201);
      const keep = (await call(node, 'POST', '/v1/keys', admin, { role: 'reader' })).body.key as string;
      const doomed = (await call(node, 'POST', '/v1/keys', admin, { role: 'reader', namespace: 'alpha' })).body.key as string;
      assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', doomed)).status, 200);
      await proxy.down();
      // Uncached decisions are refused with 503 and Retry-After.
      const r = await call(node, 'GET', '/v1/namespaces/alpha', keep);
      assert.equal(r.status, 503, r.text);
      assert.equal(r.body.error.code, 'unavailable');
      assert.ok(Number(r.retryAfter) >= 1);
      // A key asking to create a key is refused: its own roles cannot be checked.
      const asked = await call(node, 'POST', '/v1/keys', admin, { role: 'writer', namespace: 'alpha' });
      assert.equal(asked.status, 503, asked.text);
      // Changes that need no check are accepted (the ControlStore commits them with their outbox entries) …
      const alphaId = (await node.meta.listNamespaces('default')).items.find((n) => n.name === 'alpha')!.id;
      const late = { body: { key: (await node.tenancy!.createKey({ org: 'default', role: 'writer', ns: alphaId, nsName: 'alpha', createdBy: 'operator' })).token } };
      assert.equal((await call(node, 'DELETE', '/v1/bindings', admin, { key_id: parseKey(doomed)!.keyId, role: 'reader', namespace: 'alpha' })).status, 503, 'so is a revocation over HTTP');
      await node.control!.revokeGrant({ org: 'default', subject: `key:${parseKey(doomed)!.keyId}`, role: 'reader', target: { kind: 'namespace', ns: alphaId } });
      // … and nothing they did not deliver yet is granted: the new key is refused, and so is the revoked one.
      await node.tenancy!.pollFeed();
      for (const k of [late.body.key as string, doomed]) {
        const x = await call(node, 'GET', '/v1/namespaces/alpha/collections', k);
        assert.ok(x.status === 503 || x.status === 403, `refused while OpenFGA is down: ${x.status} ${x.text}`);
      }
      assert.ok((await node.control!.outbox()).length > 0, 'the undelivered changes wait in the outbox');
      await new Promise((res) => setTimeout(res, 500));
      const text = await (await fetch(node.metricsUrl)).text();
      assert.ok(Number(/^loam_openfga_failures_total\{op="check"\} (\d+)/m.exec(text)?.[1] ?? 0) >= 1, 'failed checks are counted');
      assert.ok(Number(/^loam_openfga_failures_total\{op="outbox"\} (\d+)/m.exec(text)?.[1] ?? 0) >= 1, 'failed deliveries are counted');
      const lines = logs.split('\n').filter((l) => l.includes('openfga: check failed'));
      assert.equal(lines.length, 1, `the failures are logged once per interval, not per request (${lines.length})`);
      await proxy.up();
      await until('the outbox drained', async () => (await node.control!.outbox()).length === 0, 20_000);
      const az = node.authorizer as OpenFgaAuthorizer;
      assert.deepEqual(await allTuples(az.store.client), await desiredTuples(node.control!, ['_operator', 'default']), 'nothing lost, nothing orphaned');
      assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', late.body.key)).status, 200, 'the key created meanwhile works now');
      assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', doomed)).status, 403, 'the revoked binding stays revoked');
      assert.equal((await call(node, 'GET', '/v1/namespaces/alpha', keep)).status, 200);
    } finally {
      await node.close();
      await proxy.close();
    }
  });
});

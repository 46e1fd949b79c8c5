// Namespace key records in the ControlStore (spec §9.8), on every ControlStore backend: create
// once per version, list oldest first, destroy clears the wrapped KEK with a change-feed entry.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { backendFactory, type BackendFactory } from '../harness/backends.js';
import { controlStoreFor, type ControlStore } from '../../src/control/index.js';
import { isMetaError } from '../../src/meta/errors.js';

let f: BackendFactory;
let cs: ControlStore;
before(async () => {
  f = backendFactory();
  cs = await controlStoreFor(await f.open());
  await cs.init();
});
after(async () => {
  await cs.close();
  await f.cleanup();
});

test(`namespace keys on ${process.env.LOAM_TEST_BACKEND ?? 'embedded'}: create-only versions, destroy clears them and is announced`, async () => {
  const ns = 4242;
  const rec = { ns, version: 1, provider: 'local' as const, keyRef: 'local:abc', wrapped: Buffer.from('wrapped-1').toString('base64'), created: 1 };
  await cs.createNamespaceKey(rec);
  await assert.rejects(cs.createNamespaceKey(rec), (e) => isMetaError(e, 'AlreadyExists'));
  await assert.rejects(cs.createNamespaceKey({ ...rec, version: 2, wrapped: 'not base64!' }), (e) => isMetaError(e, 'InvalidArgument') && /wrapped/.test(e.message));
  await cs.createNamespaceKey({ ...rec, version: 2, wrapped: Buffer.from('wrapped-2').toString('base64'), created: 2 });
  assert.deepEqual((await cs.namespaceKeys(ns)).map((r) => [r.version, r.state, r.wrapped !== '']), [[1, 'active', true], [2, 'active', true]]);
  assert.deepEqual(await cs.namespaceKeys(ns + 1), []);
  const v = await cs.controlVersion();
  await cs.destroyNamespaceKeys(ns, 10);
  await cs.destroyNamespaceKeys(ns, 20); // idempotent
  const after = await cs.namespaceKeys(ns);
  assert.deepEqual(after.map((r) => [r.version, r.state, r.wrapped, r.destroyed]), [[1, 'destroyed', '', 10], [2, 'destroyed', '', 10]]);
  const changes = await cs.changesSince(v);
  assert.ok(changes.some((c) => c.kind === 'nskey' && c.id === String(ns)), 'the destruction is on the change feed');
});

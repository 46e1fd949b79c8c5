// Fuzzed requests over the wire on every backend (spec §8, "Bad input"): a remote server over
// this suite's backend — its MetaStore and its ControlStore — is called with the seeded random
// and mutated requests of test/harness/wire-fuzz.ts. Each backend maps arguments to its own
// engine (SQLite, Postgres, DynamoDB), whose refusals of a value (a NUL in text, a number out
// of a column's range, an item over its size) must reach the caller as typed errors, never as
// the server's defect path; and the store must serve afterwards.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { backendFactory, backendName, type BackendFactory } from '../harness/backends.js';
import { controlStoreFor, type ControlStore } from '../../src/control/index.js';
import type { MetaStore } from '../../src/meta/index.js';
import { RemoteServer } from '../../src/remote/server.js';
import { fuzzServer } from '../harness/wire-fuzz.js';

/** Requests per RPC (the service backends answer over a network: fewer than test/remote's). */
const PER_METHOD = Number(process.env.LOAM_FUZZ_PER_METHOD ?? 12);
const SEED = Number(process.env.LOAM_FUZZ_SEED ?? 2);

let f: BackendFactory;
let meta: MetaStore;
let cs: ControlStore;
let server: RemoteServer;
let port: number;

before(async () => {
  f = backendFactory();
  meta = await f.open();
  cs = await controlStoreFor(meta);
  server = new RemoteServer({ meta, control: cs });
  port = await server.listen('127.0.0.1', 0);
});
after(async () => {
  await server?.close(500);
  await cs?.close();
  await f?.cleanup();
});

describe(`wire fuzzing on ${backendName()}`, () => {
  test(`every RPC answers ${PER_METHOD} random and mutated requests with a typed status (seed ${SEED})`, async () => {
    const ns = await meta.createNamespace({ org: 'default', name: 'n' });
    // Single-item backends (Alternator) have no collections: the namespace is enough to find.
    if (meta.capabilities().transactions === 'multi-item') await meta.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
    const { calls, defects } = await fuzzServer(port, PER_METHOD, SEED);
    assert.deepEqual(defects, [], `${defects.length} of ${calls} fuzzed calls hit the server's defect path`);
    assert.equal((await meta.namespaceByName('default', 'n'))?.id, ns.id);
    assert.ok((await cs.controlVersion()) >= 0);
  });
});

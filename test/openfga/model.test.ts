// model.fga against its tests (model.fga.yaml, OpenFGA's store-file format), on a real OpenFGA
// server: a fresh store, the model written, the file's tuples written (each test's own too,
// for that test), then every check and list_objects assertion asked of the server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { OpenFgaClient, type TupleKey } from '@openfga/sdk';
import { openFgaUrl } from '../harness/openfga.js';
import { modelRequest, MODEL_FILE } from '../../src/authz/openfga/model.js';

interface StoreFile {
  name: string;
  model_file: string;
  tuples?: TupleKey[];
  tests: {
    name: string;
    tuples?: TupleKey[];
    check?: { user: string; object: string; assertions: Record<string, boolean> }[];
    list_objects?: { user: string; type: string; assertions: Record<string, string[]> }[];
  }[];
}

const file = parse(readFileSync(new URL('./model.fga.yaml', MODEL_FILE), 'utf8')) as StoreFile;

test('the store file names model.fga and has tests', () => {
  assert.equal(file.model_file, './model.fga');
  assert.ok(file.tests.length >= 5);
});

for (const t of file.tests) {
  test(`model.fga.yaml: ${t.name}`, async () => {
    const url = await openFgaUrl();
    const admin = new OpenFgaClient({ apiUrl: url });
    const store = await admin.createStore({ name: `model-test-${Math.random().toString(36).slice(2, 10)}` });
    const c = new OpenFgaClient({ apiUrl: url, storeId: store.id });
    try {
      const m = await c.writeAuthorizationModel(modelRequest());
      const fga = new OpenFgaClient({ apiUrl: url, storeId: store.id, authorizationModelId: m.authorization_model_id });
      const tuples = [...(file.tuples ?? []), ...(t.tuples ?? [])];
      for (let i = 0; i < tuples.length; i += 100) await fga.write({ writes: tuples.slice(i, i + 100) });
      let asked = 0;
      for (const ch of t.check ?? []) {
        for (const [relation, want] of Object.entries(ch.assertions)) {
          const r = await fga.check({ user: ch.user, relation, object: ch.object });
          assert.equal(r.allowed, want, `check ${ch.user} ${relation} ${ch.object}`);
          asked++;
        }
      }
      for (const lo of t.list_objects ?? []) {
        for (const [relation, want] of Object.entries(lo.assertions)) {
          const r = await fga.listObjects({ user: lo.user, relation, type: lo.type });
          assert.deepEqual([...r.objects].sort(), [...want].sort(), `list_objects ${lo.user} ${relation} ${lo.type}`);
          asked++;
        }
      }
      assert.ok(asked > 0, 'the test asserts something');
    } finally {
      await c.deleteStore();
    }
  });
}

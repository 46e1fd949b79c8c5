// `npm run test:linearizability -- --backend NAME`: records a history per model with
// concurrent clients on separate connections and checks it (DESIGN §6). Prints, per model:
// operations, unknown operations, verdict. A history that is not linearizable is kept in
// the temp directory for `npm run check-history`.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { checkHistory, formatResult } from '../../src/check/index.js';
import type { MetaStore } from '../../src/meta/index.js';
import { backendFactory, backendName } from '../harness/backends.js';
import { record } from './recorder.js';
import { LOG_PARTITIONS, SCENARIOS, type SetupCtx } from './scenarios.js';

/** ≥ 8 concurrent clients (issue 3). */
const CLIENTS = 8;
/** Operations per client: enough collisions on the small key spaces, small enough for CI. */
const OPS_PER_CLIENT = Number(process.env.LOAM_LIN_OPS ?? 60);
const CHECK_BUDGET_MS = 60_000;

const backend = backendName();
// Small commit groups, where the backend lets a test choose them, so commits span groups.
const factory = backendFactory(backend, { maxChunksPerGroup: 2 });
const keep = mkdtempSync(join(tmpdir(), 'loam-histories-'));
/** Selected by capabilities, never by backend name: a single-item backend cannot create a
 * collection or fence a pointer, so only the scenarios its calls allow run on it (pointer
 * runs: its fenced casPointers are refused with InvalidArgument, which constrains nothing). */
const multiItem = (await factory.open()).capabilities().transactions === 'multi-item';
const NEEDS_MULTI_ITEM = new Set(['log', 'names', 'collectionHead']);
const LACKS = "backend lacks capability: transactions 'multi-item'";

async function setup(s: MetaStore): Promise<SetupCtx> {
  const ns = await s.createNamespace({ org: 'lin', name: 'ns' });
  const names = await s.createNamespace({ org: 'lin', name: 'names' });
  if (!multiItem) return { ns: ns.id, stream: 0, collection: 0, link: 0, nsNames: names.id };
  const c = await s.createCollection({
    ns: ns.id,
    name: 'c',
    schema: { primaryKey: 'id', fields: { id: 'string' } },
    partitions: LOG_PARTITIONS,
  });
  return { ns: ns.id, stream: c.streamId, collection: c.id, link: c.linkId, nsNames: names.id };
}

describe(`linearizability: ${backend}, ${CLIENTS} clients × ${OPS_PER_CLIENT} ops`, () => {
  after(() => factory.cleanup());

  for (const model of Object.keys(SCENARIOS)) {
    test(`${model}: the recorded history is linearizable`, { skip: !multiItem && NEEDS_MULTI_ITEM.has(model) ? LACKS : false }, async () => {
      const store = await factory.open();
      const ctx = await setup(store);
      const events = await record({ model, location: factory.location(store), ctx, clients: CLIENTS, opsPerClient: OPS_PER_CLIENT, seed: 7 });
      const text = events.map((e) => JSON.stringify(e)).join('\n') + '\n';
      const result = checkHistory(text, model, { budgetMs: CHECK_BUDGET_MS });
      const ops = events.filter((e) => e.type !== 'invoke').length;
      const unknown = events.filter((e) => e.type === 'info').length;
      const failed = events.filter((e) => e.type === 'fail').length;
      console.log(`# ${backend} ${model}: ${ops} operations, ${failed} refused, ${unknown} unknown, verdict: ${result.verdict}`);
      if (result.verdict !== 'linearizable') {
        const file = join(keep, `${backend}-${model}.jsonl`);
        writeFileSync(file, text);
        console.log(formatResult(result));
        console.log(`# history kept at ${file}: npm run check-history -- ${file} --model ${model}`);
      }
      assert.equal(result.verdict, 'linearizable');
      assert.ok(ops >= CLIENTS * OPS_PER_CLIENT * 0.9, 'the clients ran their operations');
      await factory.cleanup();
    });
  }

  test('the harness catches a broken backend: stale pointer reads are not linearizable', async () => {
    const store = await factory.open();
    const ctx = await setup(store);
    const events = await record({ model: 'pointer', location: factory.location(store), ctx, clients: CLIENTS, opsPerClient: OPS_PER_CLIENT, seed: 7, staleReads: true });
    const result = checkHistory(events.map((e) => JSON.stringify(e)).join('\n'), 'pointer', { budgetMs: CHECK_BUDGET_MS });
    console.log(`# ${backend} pointer with stale reads: verdict: ${result.verdict}`);
    assert.equal(result.verdict, 'not linearizable');
    await factory.cleanup();
  });
});

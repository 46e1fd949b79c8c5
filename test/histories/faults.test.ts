// `npm run test:histories -- --backend postgres|dynamodb`: a history per model recorded
// through Toxiproxy with latency, timeout and reset_peer toxics coming and going (real
// unknown outcomes), checked by src/check. Prints operations, unknown operations and the
// verdict per model; `npm run histories -- --ops 20000` records nightly-size ones.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { formatResult } from '../../src/check/index.js';
import { backendName } from '../harness/backends.js';
import { FAULTED_MODELS, HISTORY_CLIENTS, recordUnderFaults } from './under-faults.js';

/**
 * Operations per client in CI (× HISTORY_CLIENTS per model); LOAM_LIN_FAULT_OPS or `npm run
 * histories -- --ops 20000` (nightly) for more. 30 calls per client span several toxic
 * cycles (each kind is asserted) and the unknown outcomes they cut.
 */
export const HISTORY_CI_OPS_PER_CLIENT = 30;

const backend = backendName();
const perClient = Number(process.env.LOAM_LIN_FAULT_OPS ?? HISTORY_CI_OPS_PER_CLIENT);
const keep = mkdtempSync(join(tmpdir(), 'loam-fault-histories-'));

for (const model of FAULTED_MODELS) {
  test(`${model} on ${backend} through Toxiproxy (latency, timeout, reset_peer): linearizable`, async () => {
    const h = await recordUnderFaults({ backend, model, opsPerClient: perClient, seed: 22 });
    console.log(`# ${backend} ${model} under toxics ${JSON.stringify(h.toxics)}: ${h.ops} operations, ${h.refused} refused, ${h.unknown} unknown, verdict: ${h.result.verdict}`);
    if (h.result.verdict !== 'linearizable') {
      const file = join(keep, `${backend}-${model}.jsonl`);
      writeFileSync(file, h.events.map((e) => JSON.stringify(e)).join('\n') + '\n');
      console.log(formatResult(h.result));
      console.log(`# history kept at ${file}: npm run check-history -- ${file} --model ${model}`);
    }
    // Decided, or a failure: an undecided history proves nothing (the kept file reruns it).
    assert.notEqual(h.result.verdict, 'unknown', `the checker did not decide this history within its budget (${h.unknown} unknown operations)`);
    assert.equal(h.result.verdict, 'linearizable');
    assert.ok(h.ops >= HISTORY_CLIENTS * perClient * 0.9, 'the clients ran their operations');
    assert.ok(Object.values(h.toxics).every((n) => n > 0), `every kind of toxic was injected: ${JSON.stringify(h.toxics)}`);
  });
}

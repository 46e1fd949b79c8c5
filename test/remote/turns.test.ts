// The server's turn gate (src/remote/turns.ts): calls that arrive together and block the event
// loop start one loop iteration apart, so the responses written by one call are flushed (Node's
// HTTP/2 session writes in the check phase) before the next call blocks the loop; calls that
// do not block all start in the next iteration; a lone call starts at once. Iterations are
// counted by a setImmediate ticker that runs once per check phase.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BLOCKING_TURN_MS, TurnGate } from '../../src/remote/turns.js';

/** Starts counting loop iterations; stop() ends it. */
function ticker(): { readonly n: number; stop(): void } {
  const t = { n: 0, on: true };
  const tick = () => {
    if (!t.on) return;
    t.n++;
    setImmediate(tick);
  };
  setImmediate(tick);
  return {
    get n() {
      return t.n;
    },
    stop: () => (t.on = false),
  };
}

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

/** Runs `calls` calls through the gate at once; each holds the loop `holdMs`; the iteration each started in. */
async function startIterations(calls: number, holdMs: number): Promise<number[]> {
  const gate = new TurnGate();
  const clock = ticker();
  const started: number[] = [];
  await Promise.all(
    Array.from({ length: calls }, async () => {
      await gate.turn();
      started.push(clock.n);
      busy(holdMs);
    }),
  );
  clock.stop();
  assert.equal(gate.queued, 0);
  return started;
}

test('calls that block the loop start one loop iteration apart', async () => {
  const it = await startIterations(4, BLOCKING_TURN_MS + 2);
  assert.deepEqual(
    it.map((x) => x - it[0]!),
    [0, 1, 2, 3],
  );
});

test('calls that do not block: the first at once, the others together in the next iteration', async () => {
  const it = await startIterations(8, 0);
  assert.equal(it[1]! - it[0]!, 1, 'the second call waits for the next iteration');
  // Together, not one per iteration (a loaded machine may stall one iteration past BLOCKING_TURN_MS).
  assert.ok(new Set(it.slice(1)).size <= 2, `started in iterations ${it.join(', ')}`);
});

test('a call that finds the gate free starts in the same iteration', async () => {
  const gate = new TurnGate();
  const clock = ticker();
  const before = clock.n;
  await gate.turn();
  assert.equal(clock.n, before);
  clock.stop();
});

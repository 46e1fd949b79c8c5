// An idle node's metrics leave its event loop idle (issue 14 item 9): prom-client's event-loop
// lag metrics sampled the loop with a native timer every 10 ms, 100 wakeups a second that kept
// an idle node's main thread above the idle collector's quiet threshold
// (src/node/idle-memory.ts), so it did not hand its memory back.
import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import perfHooks from 'node:perf_hooks';
import { NodeMetrics } from '../../src/node/metrics.js';

test('the event-loop lag metrics wake the loop at most 10 times a second', () => {
  const monitor = mock.method(perfHooks, 'monitorEventLoopDelay');
  try {
    const metrics = new NodeMetrics();
    assert.ok(metrics.registry, 'a registry with the process metrics');
    assert.ok(monitor.mock.callCount() >= 1, 'the lag metrics sample the loop');
    for (const call of monitor.mock.calls) {
      const resolution = (call.arguments[0] as { resolution?: number } | undefined)?.resolution ?? 10;
      assert.ok(1000 / resolution <= 10, `the loop is sampled every ${resolution} ms: ${1000 / resolution} wakeups a second`);
    }
  } finally {
    monitor.mock.restore();
  }
});

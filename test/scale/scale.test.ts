// The scale bench's small size in `npm test` (issue 17: "CI runs the small size"): one node on
// a catalog of CI_NAMESPACES namespaces (bench/_scale_node.ts, the same code as
// `npm run bench -- scale`), with shortened windows, asserting the targets that mean something
// at one size: an idle node makes at most IDLE_CALLS_TARGET metastore calls a second, it gets
// ready, and neither its requests nor its worker tasks fail. The figures print as the bench's
// JSON lines. The ratios across sizes are the bench's to measure (docs/benchmarks.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { scaleNodeFigures } from '../../bench/_scale_node.js';
import { SCALE_SIZES } from '../../bench/scale.js';

/** The bench's smallest size. */
const CI_NAMESPACES = SCALE_SIZES[0];
/** Issue 17's idle target, the same at every size. */
const IDLE_CALLS_TARGET = 50;
/** Shortened windows and loads (the bench's: 30 s idle, 1,000 touched, 3,000 timed ops). */
const CI_KNOBS = { idleSeconds: 9, touched: 100, ops: 200 };
/** A node that is not ready this long after it was spawned has failed its start. */
const READY_TARGET_S = 60;

test(`one node on ${CI_NAMESPACES} namespaces: idle calls at most ${IDLE_CALLS_TARGET}/s, ready, no errors`, { timeout: 300_000 }, async () => {
  const figures = new Map<string, { value: number; extra: Record<string, unknown> }>();
  await scaleNodeFigures({
    sizes: [CI_NAMESPACES],
    ...CI_KNOBS,
    line: (metric, value, unit, extra) => {
      figures.set(metric, { value, extra });
      console.log(JSON.stringify({ bench: 'scale', metric, n: CI_NAMESPACES, value, unit, ...extra }));
    },
  });
  const get = (m: string) => {
    const f = figures.get(m);
    assert.ok(f, `the run printed ${m}`);
    return f;
  };
  const idle = get('idle_meta_calls_per_s');
  assert.ok(Number.isFinite(idle.value), `the worker thread answered the scrapes (${String(idle.extra.worker_thread_answered)})`);
  assert.ok(idle.value <= IDLE_CALLS_TARGET, `${idle.value} metastore calls/s idle (${JSON.stringify(idle.extra.by_call)}), target ≤ ${IDLE_CALLS_TARGET}`);
  assert.ok(get('ready_s').value <= READY_TARGET_S, `ready in ${get('ready_s').value} s`);
  assert.equal(get('worker_errors').value, 0, 'no worker task failed');
  assert.equal(get('shutdown_s').extra.exit_code, 0, 'the node shut down cleanly');
  for (const m of ['node_rss_mb', 'write_p99_ms', 'strong_read_p99_ms']) assert.ok(get(m).value > 0, `${m} measured`);
});

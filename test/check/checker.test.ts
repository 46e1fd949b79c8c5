// The search itself, on the register model: acceptance of concurrent histories, rejection of
// violations with a useful window, unknown outcomes, partitions, budgets, and agreement with
// a brute-force oracle on random small histories.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHistory } from '../../src/check/index.js';
import { GENERATORS, type Generator } from './gen.js';
import { bruteForce, eventsText, expectVerdict, HistoryBuilder, prng, toEvents, type Call } from './helpers.js';

test('register: a sequential history is linearizable', () => {
  const h = new HistoryBuilder()
    .call(1, 'write', { value: 1 })
    .call(2, 'read', {}, 1)
    .call(1, 'cas', { from: 1, to: 2 })
    .call(2, 'read', {}, 2);
  expectVerdict(h.check('register'), 'linearizable');
});

test('register: a read concurrent with a write may see the old or the new value', () => {
  for (const seen of [null, 1]) {
    const h = new HistoryBuilder()
      .invoke(1, 'write', { value: 1 })
      .invoke(2, 'read', {})
      .ok(2, 'read', seen)
      .ok(1, 'write');
    expectVerdict(h.check('register'), 'linearizable', `read ${seen}`);
  }
});

test('register: concurrent reads may not see the new value then the old one in real-time order', () => {
  // Read 1 sees the write, a later read (invoked after read 1 returned) sees the old value.
  const h = new HistoryBuilder()
    .invoke(1, 'write', { value: 1 })
    .invoke(2, 'read', {})
    .ok(2, 'read', 1)
    .invoke(3, 'read', {})
    .ok(3, 'read', null)
    .ok(1, 'write');
  const r = h.check('register');
  expectVerdict(r, 'not linearizable');
  assert.equal(r.violation!.kind, 'search');
});

test('register: a stale read is rejected, and the report names the read and why', () => {
  const h = new HistoryBuilder()
    .call(1, 'write', { key: 'x', value: 1 })
    .call(1, 'write', { key: 'x', value: 2 })
    .call(2, 'read', { key: 'x' }, 1);
  const r = h.check('register');
  expectVerdict(r, 'not linearizable');
  const v = r.violation!;
  assert.equal(v.prefix!.linearized, 2);
  assert.equal(v.unplaced![0]!.op.op, 'read');
  assert.equal(v.unplaced![0]!.op.line, 5);
  assert.match(v.unplaced![0]!.why.join(' '), /read 1, but the register holds 2/);
  assert.match(v.partition!.description, /register "x"/);
  assert.deepEqual(v.state, { 'register "x"': 2 });
});

test('register: an info write may apply long after its invocation, or never', () => {
  const applied = new HistoryBuilder()
    .invoke(1, 'write', { value: 1 })
    .info(1, 'write')
    .call(2, 'read', {}, null)
    .call(2, 'read', {}, 1)
    .call(2, 'read', {}, 1);
  expectVerdict(applied.check('register'), 'linearizable', 'applied late');
  const never = new HistoryBuilder().invoke(1, 'write', { value: 1 }).info(1, 'write').call(2, 'read', {}, null);
  expectVerdict(never.check('register'), 'linearizable', 'never applied');
  const pending = new HistoryBuilder().invoke(1, 'write', { value: 1 }).call(2, 'read', {}, 1);
  expectVerdict(pending.check('register'), 'linearizable', 'never completed');
});

test('register: an info write applies at most once', () => {
  const h = new HistoryBuilder()
    .call(3, 'write', { value: 0 })
    .invoke(1, 'write', { value: 1 })
    .info(1, 'write')
    .call(2, 'read', {}, 1)
    .call(3, 'write', { value: 0 })
    .call(2, 'read', {}, 1);
  expectVerdict(h.check('register'), 'not linearizable');
});

test('register: an info write cannot take effect before its invocation', () => {
  const h = new HistoryBuilder().call(2, 'read', {}, 1).invoke(1, 'write', { value: 1 }).info(1, 'write');
  expectVerdict(h.check('register'), 'not linearizable');
});

test('register: touching intervals count as concurrent (conservative)', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'write', { value: 1 }, 0)
    .ok(1, 'write', undefined, 5)
    .invoke(2, 'read', {}, 5)
    .ok(2, 'read', null, 6);
  expectVerdict(h.check('register'), 'linearizable');
});

test('register: Jepsen style — a cas fail without a code is left out, a Mismatch is checked', () => {
  const left = new HistoryBuilder().call(1, 'write', { value: 1 }).callFail(2, 'cas', { value: [1, 2] }, 'Timeout');
  const r = left.check('register');
  expectVerdict(r, 'linearizable');
  assert.equal(r.dropped, 1);
  const wrong = new HistoryBuilder().call(1, 'write', { value: 1 }).callFail(2, 'cas', { from: 1, to: 2 }, 'Mismatch');
  expectVerdict(wrong.check('register'), 'not linearizable');
});

test('register: keys are checked as independent partitions', () => {
  const h = new HistoryBuilder()
    .call(1, 'write', { key: 'a', value: 1 })
    .call(1, 'write', { key: 'b', value: 2 })
    .call(2, 'read', { key: 'a' }, 1)
    .call(2, 'read', { key: 'b' }, 1);
  const r = h.check('register');
  expectVerdict(r, 'not linearizable');
  assert.equal(r.partitions, 2);
  assert.match(r.violation!.partition!.description, /"b"/);
});

/** Many concurrent writes of distinct values and reads: hard for the search when the reads are wrong. */
function hardHistory(writers: number): HistoryBuilder {
  const h = new HistoryBuilder();
  for (let p = 0; p < writers; p++) h.invoke(p, 'write', { value: p });
  h.invoke(100, 'read', {});
  for (let p = 0; p < writers; p++) h.ok(p, 'write');
  h.ok(100, 'read', -1); // a value nobody wrote, after every write: no order explains it
  return h;
}

test('budget: an exhausted step budget gives unknown, a big enough one a verdict', () => {
  const h = hardHistory(12);
  const small = h.check('register', { maxSteps: 50 });
  expectVerdict(small, 'unknown');
  assert.equal(small.unknown!.reason, 'steps');
  expectVerdict(h.check('register', { maxSteps: 10_000_000 }), 'not linearizable');
});

test('budget: an exhausted time budget gives unknown', () => {
  const r = hardHistory(22).check('register', { budgetMs: 1 });
  expectVerdict(r, 'unknown');
  assert.equal(r.unknown!.reason, 'deadline');
});

test('budget: a violation in one partition wins over unknown in another', () => {
  const h = hardHistory(14);
  h.call(200, 'write', { key: 'z', value: 1 }).call(200, 'read', { key: 'z' }, 2);
  expectVerdict(h.check('register', { maxSteps: 200 }), 'not linearizable');
});

test('the memo keeps a wide but valid concurrent history fast', () => {
  // 16 concurrent writes and 16 concurrent reads each seeing some written value.
  const h = new HistoryBuilder();
  for (let p = 0; p < 16; p++) h.invoke(p, 'write', { value: p % 4 });
  for (let p = 0; p < 16; p++) h.invoke(100 + p, 'read', {});
  for (let p = 0; p < 16; p++) h.ok(100 + p, 'read', p % 4);
  for (let p = 0; p < 16; p++) h.ok(p, 'write');
  const r = h.check('register', { budgetMs: 10_000 });
  expectVerdict(r, 'linearizable');
});

function randomSmall(gen: Generator, seed: number, calls: number): { text: string; mutated: boolean } {
  const rng = prng(seed);
  const run: Call[] = gen.run(rng, calls).map((c) => (rng.chance(0.15) ? { ...c, status: 'info' as const, result: undefined } : c));
  let mutated = false;
  if (run.length && rng.chance(0.6)) {
    const i = rng.int(run.length);
    const m = run[i]!.status === 'info' ? null : gen.mutate(run[i]!, rng);
    if (m) {
      run[i] = m;
      mutated = true;
    }
  }
  return { text: eventsText(toEvents(run, { concurrent: true, rng, spread: 30 })), mutated };
}

const ORACLE_RUNS = 1000;

for (const gen of GENERATORS) {
  test(`${gen.label ?? gen.model}: agrees with a brute-force oracle on ${ORACLE_RUNS} random small concurrent histories`, () => {
    let rejected = 0;
    let compared = 0;
    for (let seed = 1; compared < ORACLE_RUNS && seed <= 5 * ORACLE_RUNS; seed++) {
      const { text } = randomSmall(gen, seed, gen.model === 'log' || gen.model === 'collectionHead' ? 4 : 6);
      const expected = bruteForce(text, gen.model);
      if (expected === null) continue; // too many atomic steps for brute force
      compared++;
      const got = checkHistory(text, gen.model).verdict;
      assert.equal(got, expected ? 'linearizable' : 'not linearizable', `seed ${seed}\n${text}`);
      if (!expected) rejected++;
    }
    assert.equal(compared, ORACLE_RUNS);
    // The sample must contain both outcomes for the comparison to mean anything.
    assert.ok(rejected >= ORACLE_RUNS / 10, `only ${rejected} rejected histories`);
    assert.ok(compared - rejected >= ORACLE_RUNS / 10, `only ${compared - rejected} accepted histories`);
  });
}

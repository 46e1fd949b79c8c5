// Randomised self-tests, seeded: every model accepts valid random histories (sequential, and
// concurrent with unknown outcomes), and rejects a valid sequential history once one
// result is mutated into one that is wrong at its point. A checker that accepts everything
// fails the mutation tests; one that rejects everything fails the others.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHistory } from '../../src/check/index.js';
import { GENERATORS } from './gen.js';
import { eventsText, prng, toEvents, type Call } from './helpers.js';

const SEEDS = 25;
const CALLS = 40;

for (const gen of GENERATORS) {
  test(`${gen.label ?? gen.model}: ${SEEDS} random sequential histories are linearizable`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const text = eventsText(toEvents(gen.run(prng(seed), CALLS)));
      const r = checkHistory(text, gen.model);
      assert.equal(r.verdict, 'linearizable', `seed ${seed}: ${JSON.stringify(r.violation)}\n${text}`);
    }
  });

  test(`${gen.label ?? gen.model}: ${SEEDS} random concurrent histories with unknown outcomes are linearizable`, () => {
    let infos = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = prng(1000 + seed);
      // Any call may become `info`: it took effect (or, for a failed one, did not) — both allowed.
      const calls: Call[] = gen.run(rng, CALLS).map((c) => {
        if (!rng.chance(0.1)) return c;
        infos++;
        return { ...c, status: 'info', result: undefined };
      });
      const text = eventsText(toEvents(calls, { concurrent: true, rng }));
      const r = checkHistory(text, gen.model, { budgetMs: 20_000 });
      assert.equal(r.verdict, 'linearizable', `seed ${seed}: ${JSON.stringify(r.violation ?? r.unknown)}\n${text}`);
    }
    assert.ok(infos > 0);
  });

  test(`${gen.label ?? gen.model}: mutated results in random sequential histories are rejected`, () => {
    let mutations = 0;
    for (let seed = 1; seed <= SEEDS; seed++) {
      const rng = prng(2000 + seed);
      const calls = gen.run(rng, CALLS);
      for (let tries = 0; tries < 4; tries++) {
        const i = rng.int(calls.length);
        const m = gen.mutate(calls[i]!, rng);
        if (!m) continue;
        const mutated = calls.slice();
        mutated[i] = m;
        const text = eventsText(toEvents(mutated));
        const r = checkHistory(text, gen.model);
        assert.equal(
          r.verdict,
          'not linearizable',
          `seed ${seed}: mutating call ${i} (${JSON.stringify(calls[i])} -> ${JSON.stringify(m)}) was accepted`,
        );
        mutations++;
      }
    }
    assert.ok(mutations >= SEEDS, `only ${mutations} mutations tried`);
  });
}

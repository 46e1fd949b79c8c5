// The check as it was before unknown-outcome writes were set aside and the memo was made
// compact and bounded (the search in ./_search_v1.ts, every prepared step searched): the
// linearizability bench's same-run baseline, under a time budget so the bench finishes.
import { createModel, partition, readHistory, type Verdict } from '../src/check/index.js';
import { searchPartition } from './_search_v1.js';

/** The memo bound the old search gave up at (it then answered unknown). */
const BEFORE_MAX_CACHE_ENTRIES = 2_000_000;
const BEFORE_MAX_STEPS = 50_000_000;

export interface BeforeResult {
  verdict: Verdict;
  reason?: string;
  searchSteps: number;
  ms: number;
}

export function checkBefore(text: string, modelName: string, budgetMs: number): BeforeResult {
  const started = performance.now();
  const model = createModel(modelName);
  const ops = readHistory(text);
  const { subs, ctx } = model.prepare(ops);
  const done = (verdict: Verdict, searchSteps: number, reason?: string): BeforeResult => ({
    verdict,
    searchSteps,
    ms: performance.now() - started,
    ...(reason ? { reason } : {}),
  });
  if (model.precheck(ops, ctx).length) return done('not linearizable', 0);
  const budget = { deadline: started + budgetMs, maxSteps: BEFORE_MAX_STEPS, steps: 0, maxCacheEntries: BEFORE_MAX_CACHE_ENTRIES };
  let unknown: string | undefined;
  for (const p of partition(subs)) {
    const out = searchPartition(model, p.subs, p.keys, budget);
    if (out.kind === 'not linearizable') return done('not linearizable', budget.steps);
    if (out.kind === 'unknown') unknown ??= out.reason;
  }
  return unknown ? done('unknown', budget.steps, unknown) : done('linearizable', budget.steps);
}

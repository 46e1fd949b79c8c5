// The short soak CI runs per backend (issue 22; `npm run soak` runs longer ones): two
// `loam serve` nodes on one metastore and one MinIO bucket, both behind Toxiproxy, six
// clients, a seeded schedule of toxics and SIGKILLs. It fails on any lost or duplicated
// write, any broken invariant and any node whose /readyz does not recover within its bound.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { backendName } from '../harness/backends.js';
import { SOAK_BACKENDS, type SoakBackend } from './cluster.js';
import { runSoak } from './soak.js';
import { FAULT_KINDS } from './schedule.js';

/**
 * How long CI's soak injects faults, per backend (LOAM_SOAK_MS or `npm run soak` for longer).
 * 30 s holds every fault kind once (the schedule draws each before any repeats) and one or
 * two SIGKILLs on each CI seed; past that the schedule only repeats kinds.
 */
export const SOAK_CI_MS = 30_000;
/** Fixed per backend in CI, so a failure reruns as it was (`npm run soak -- --seed`). */
const SEEDS: Record<SoakBackend, number> = { embedded: 11, postgres: 12, dynamodb: 13 };

const backend = backendName() as SoakBackend;
const durationMs = Number(process.env.LOAM_SOAK_MS ?? SOAK_CI_MS);
const seed = Number(process.env.LOAM_SOAK_SEED ?? SEEDS[backend]);

test(`soak on ${backend}: ${durationMs / 1000} s of toxics and SIGKILLs, nothing lost or duplicated, no node stuck`, { skip: !(SOAK_BACKENDS as readonly string[]).includes(backend) ? `no soak for ${backend}` : false }, async () => {
  const r = await runSoak({ backend, durationMs, seed });
  assert.ok(r.stats.acked.length > 0, 'writes were acknowledged');
  assert.deepEqual(r.end.lost, [], 'lost writes');
  assert.deepEqual(r.end.duplicated, [], 'duplicated writes');
  assert.deepEqual(r.end.problems, [], 'broken invariants or stuck nodes');
  assert.ok(r.schedule.kills.length > 0, 'the schedule killed nodes');
  for (const kind of FAULT_KINDS) assert.ok((r.injected.get(kind) ?? 0) > 0, `the schedule injected ${kind}`);
});

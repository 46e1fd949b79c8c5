// The crash gate, many kills (issue 22): writing `loam serve` nodes are SIGKILLed at seeded
// random points (printed) and restarted on the same data, CRASH_KILLS times; then one is
// killed at three chosen points by a hook (hooked-node.ts: mid-apply, mid-segment, mid-GC).
// The end checks are the soak's: every acknowledged write readable with its token, nothing
// committed twice, dense offsets and pointer versions, nothing referenced deleted. Runs on
// embedded + a file store and on Postgres + MinIO.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { mulberry32 } from '../../src/check/prng.js';
import { backendName } from '../harness/backends.js';
import { endChecks, exists, openDirect } from '../soak/checks.js';
import { kill9, startNode, startWorld, stopNode, superviseStart, waitReady, type NodeProc, type SoakBackend } from '../soak/cluster.js';
import { load } from '../soak/load.js';
import { PAUSE_POINTS } from './hooked-node.js';

/** SIGKILLs at random points in CI (LOAM_CRASH_KILLS for more), besides the three hooked ones. */
export const CRASH_KILLS = 20;
/** A kill lands this long after the node is ready (uniform, seeded): its clients are writing from the start. */
const KILL_AFTER_MS: [number, number] = [200, 1_200];
/** The hooked node reaches its point within this (GC needs objects past their grace). */
const PAUSE_WAIT_MS = 90_000;
const CLIENTS = 4;
const NS = 'crash';
const COLL = 'docs';

const backend = backendName() as SoakBackend;
const storeKind = backend === 'embedded' ? 'file' : 'minio';
const kills = Number(process.env.LOAM_CRASH_KILLS ?? CRASH_KILLS);
const seed = Number(process.env.LOAM_CRASH_SEED ?? 5);
const ENTRY = new URL('./hooked-node.ts', import.meta.url).pathname;

test(`crash gate on ${backend} + ${storeKind}: ${kills} SIGKILLs at seeded points, then mid-apply, mid-segment and mid-GC`, async (t) => {
  const world = await startWorld({ backend, store: storeKind, tag: `crash${seed}` });
  // Two nodes on the same data, each killed and restarted in turn, so one's restart overlaps
  // the other's life: the kills cost half the wall time of one node's.
  const slots: (NodeProc | null)[] = [null, null];
  let stop = false;
  try {
    slots[0] = (await superviseStart(world, 'n0')).node;
    await waitReady(slots[0].url);
    for (const [path, body] of [
      ['/v1/namespaces', { name: NS }],
      [`/v1/namespaces/${NS}/collections`, { name: COLL, primary_key: 'id', partitions: 3 }],
    ] as const) {
      const r: Response = await fetch(slots[0].url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal(r.status, 201, await r.text());
    }
    slots[1] = (await superviseStart(world, 'n1')).node;
    await waitReady(slots[1].url);
    const live = () => slots.filter((n): n is NodeProc => n !== null).map((n) => n.url);
    const loading = load({ clients: CLIENTS, nodes: live, path: `/v1/namespaces/${NS}/collections/${COLL}`, stop: () => stop, seed, run: 'k' });
    const rng = mulberry32(seed);
    const points = slots.map((_, i) => Array.from({ length: Math.ceil((kills - i) / 2) }, () => Math.round(KILL_AFTER_MS[0] + rng() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]))));
    t.diagnostic(`seed ${seed}: ${points.flat().length} SIGKILLs, n0 at ${points[0]!.join(', ')} ms and n1 at ${points[1]!.join(', ')} ms after each start`);
    await Promise.all(
      slots.map(async (_, i) => {
        for (const after of points[i]!) {
          await sleep(after);
          const dead = slots[i]!;
          slots[i] = null;
          await kill9(dead);
          const again = (await superviseStart(world, `n${i}`)).node;
          await waitReady(again.url);
          slots[i] = again;
        }
      }),
    );

    // The hooked kills, with n1 down so that the hooked node holds every lease: it runs until
    // it reaches the point, says so, and is killed there.
    await kill9(slots[1]!);
    slots[1] = null;
    let node: NodeProc | null = slots[0]!;
    const hooked = new Map<string, string>();
    for (const point of PAUSE_POINTS) {
      await kill9(node!);
      node = null;
      const h = await startNode(world, 'n0', { entry: ENTRY, env: { LOAM_TEST_PAUSE_AT: point } });
      node = h;
      slots[0] = h;
      const t0 = Date.now();
      await h.waitFor(new RegExp(`paused at ${point}: \\S+`), PAUSE_WAIT_MS);
      const path = new RegExp(`paused at ${point}: (\\S+)`).exec(h.stderr())![1]!;
      hooked.set(point, path);
      node = null;
      slots[0] = null;
      await kill9(h);
      t.diagnostic(`killed mid-${point} after ${Date.now() - t0} ms (at ${path})`);
      node = (await superviseStart(world, 'n0')).node;
      await waitReady(node.url);
      slots[0] = node;
    }
    await sleep(1_000);
    stop = true;
    const stats = await loading;

    // The dead GC's claim stays (nothing can reference the object again) until a later GC
    // takes it over and deletes it (for a retired WAL object: the never-committed pass, after
    // the commit window and the clock skew).
    const claimed = hooked.get('gc')!;
    const direct = await openDirect(world);
    try {
      const ref = await direct.meta.objectRef(claimed);
      const gone = !(await exists(direct.store, claimed));
      assert.ok(gone || (ref !== null && ref.claim !== null && ref.refs === 0), `the object claimed mid-GC (${claimed}) is deleted or still claimed: ${JSON.stringify(ref)}`);
    } finally {
      await direct.close();
    }
    const end = await endChecks({ world, nodes: [node!.url], nsName: NS, collName: COLL, acked: stats.acked });
    const refused = [...stats.refused].map(([s, n]) => `${n}×${s}`).join(', ') || '0';
    t.diagnostic(`${stats.acked.length} writes acknowledged, refused ${refused}, ${stats.unknown} without an answer, ${stats.unreachable} to a node that was down; lost ${end.lost.length}, duplicated ${end.duplicated.length}; ${end.logRecords} log records, pointer version ${end.pointerVersion}`);
    assert.ok(stats.acked.length > kills, 'writes were acknowledged between the kills');
    assert.deepEqual(end.lost, [], 'lost writes');
    assert.deepEqual(end.duplicated, [], 'duplicated writes');
    assert.deepEqual(end.problems, [], 'broken invariants');
    assert.deepEqual(stats.reads.wrong, [], 'token reads during the run');
    // The orphans of the hooked kills are referenced by nothing: the manifest whose
    // casPointer was never sent, the segment whose swap was never sent.
    assert.equal(end.referencedPaths.has(hooked.get('apply')!), false, 'the manifest written mid-apply was never published');
    assert.equal(end.referencedPaths.has(hooked.get('segment')!), false, 'the segment written mid-segment was never indexed');
  } finally {
    stop = true;
    for (const n of slots) if (n) await stopNode(n).catch(() => undefined);
    await world.close();
  }
});

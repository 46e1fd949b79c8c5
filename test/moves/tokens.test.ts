// The token gate of spec §3.5 during a namespace move (spec §5.5): a write acknowledged with a
// token, then read with that token on every other node — one following the directory and one
// whose directory is stale (it still routes to the source) — is visible at every phase of a
// move and after it. Three nodes on one sharded metastore (each its own handle: its own
// directory cache) and one bucket; on the all-embedded and the Postgres-and-embedded layouts.
// Also the gateway's hold on writes to a moving namespace, on the real directory view.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { backendFactory, backendName } from '../harness/backends.js';
import { FAST, http } from '../node/helpers.js';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import type { MetaStore } from '../../src/meta/index.js';
import type { ShardedMetaStore } from '../../src/meta/backends/sharded/index.js';
import type { DirectoryEntry } from '../../src/meta/backends/sharded/directory.js';
import type { MovePhase } from '../../src/meta/backends/sharded/move.js';
import { MoveHold, isHoldRefusal } from '../../src/gateway/move-buffer.js';

const factory = backendFactory();
type Sharded = ShardedMetaStore & MetaStore;

/** A mover that stops (forever) right after `phase`, holding its lease; the same owner resumes it. */
async function moveUntil(store: Sharded, ns: number, to: string, phase: MovePhase, owner: string): Promise<void> {
  let reached!: () => void;
  const at = new Promise<void>((r) => (reached = r));
  void store.moveNamespace(ns, to, { owner, onProgress: (p) => (p.phase === phase ? (reached(), new Promise<never>(() => {})) : undefined) }).catch(() => undefined);
  await at;
}

describe(`the token gate during a namespace move (${backendName()})`, () => {
  const nodes: LoamNode[] = [];
  let writer: Sharded;
  let stale: Sharded;
  let nodeA: LoamNode;
  let nodeB: LoamNode;
  let nodeC: LoamNode;

  before(async () => {
    writer = (await factory.open()) as Sharded;
    const follower = (await factory.connect(writer)) as Sharded;
    stale = (await factory.connect(writer)) as Sharded;
    const store = new MemoryStore();
    const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, log_level: 'silent', ...FAST });
    const logger = pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' });
    for (const meta of [writer, follower, stale]) nodes.push(await startNode(config, { store, meta, logger }));
    [nodeA, nodeB, nodeC] = nodes as [LoamNode, LoamNode, LoamNode];
  });
  after(async () => {
    for (const n of nodes) await n.close();
    await factory.cleanup();
  });

  test('a token read is visible on every node, the stale one too, at every phase of a move and after it', async () => {
    assert.equal((await http(nodeA.url, 'POST', '/v1/namespaces', { name: 'gate' })).status, 201);
    assert.equal((await http(nodeA.url, 'POST', '/v1/namespaces/gate/collections', { name: 'kv', primary_key: 'k', partitions: 2 })).status, 201);
    const ns = (await writer.namespaceByName('default', 'gate')).id;
    const before = await writer.router.reload(ns);
    const to = writer.router.shards.find((s) => s.name !== before.shard)!.name;
    // Node C's directory view is the one from before the move, whatever happens: its follower is behind.
    const pinStale = () => (stale.router as unknown as { cache: Map<number, DirectoryEntry> }).cache.set(ns, before);

    const tokens: { k: string; token: string }[] = [];
    const write = async (node: LoamNode, k: string) => {
      const w = await http(node.url, 'POST', '/v1/namespaces/gate/collections/kv/documents', { upserts: [{ k, v: k }] });
      assert.equal(w.status, 200, JSON.stringify(w.body));
      tokens.push({ k, token: w.body.token });
    };
    const readAll = async (when: string) => {
      pinStale();
      for (const { k, token } of tokens) {
        for (const [name, node] of [['A', nodeA], ['B', nodeB], ['C (stale)', nodeC]] as const) {
          const r = await http(node.url, 'GET', `/v1/namespaces/gate/collections/kv/documents/${k}?token=${encodeURIComponent(token)}`);
          assert.equal(r.status, 200, `${when}: ${k} on node ${name}: ${JSON.stringify(r.body)}`);
          assert.equal(r.body.v, k);
        }
      }
    };

    await write(nodeA, 'before-1');
    await write(nodeB, 'before-2');
    await readAll('before the move');
    // Each phase in turn: the mover stops after it, the reads run, the next mover (same owner) resumes.
    for (const phase of ['fenced', 'copied', 'flipped', 'retired'] as const) {
      await moveUntil(writer, ns, to, phase, 'gate-mover');
      await readAll(`after "${phase}"`);
    }
    await moveUntil(writer, ns, to, 'unfenced', 'gate-mover');
    // The target takes writes while the source's rows are still there (retired, not yet
    // removed): acknowledged on the target, read everywhere.
    await write(nodeA, 'unfenced-1');
    await readAll('after "unfenced"');
    await writer.moveNamespace(ns, to, { owner: 'gate-mover' });
    await write(nodeB, 'after-1');
    await write(nodeA, 'after-2');
    await readAll('after the move');
    assert.equal((await writer.router.reload(ns)).shard, to);
  });

  test("the gateway's hold: a write to a moving namespace waits, and past its bounds is refused 503 namespace_moving", async () => {
    const ns = (await writer.createNamespace({ org: 'default', name: 'held' })).id;
    const from = (await writer.router.reload(ns)).shard;
    const to = writer.router.shards.find((s) => s.name !== from)!.name;
    const hold = new MoveHold(writer.moveSignals(), { maxMs: 200, maxBytes: 1_000 });
    await hold.admit(ns, 500); // not moving: at once
    await moveUntil(writer, ns, to, 'fenced', 'hold-mover');
    const t0 = performance.now();
    await assert.rejects(hold.admit(ns, 500), (e: unknown) => isHoldRefusal(e) && /did not flip within 200 ms/.test(e.message) && e.retryAfterS === 1);
    assert.ok(performance.now() - t0 >= 190, 'held up to its time bound');
    await assert.rejects(hold.admit(ns, 5_000), (e: unknown) => isHoldRefusal(e) && /at most 1000/.test(e.message), 'over the byte bound: refused at once');
    const held = new MoveHold(writer.moveSignals()).admit(ns, 500);
    await writer.moveNamespace(ns, to, { owner: 'hold-mover' });
    await held; // released by the flip
  });
});

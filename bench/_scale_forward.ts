// bench scale's routing figure: what forwarding a read to its owner costs (docs/placement.md).
// Two nodes on one embedded metastore file and one in-memory bucket; one document, read by
// key with a strong read, alternately on the owner (the baseline: served where it lands) and
// on the other node (forwarded to the owner over HTTP, keep-alive). Reports the p50 and p99 of
// each and their ratio; the added hop is the difference.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../src/store/index.js';
import { resolveConfig } from '../src/node/config.js';
import { startNode, type LoamNode } from '../src/node/node.js';
import { placementKey } from '../src/router/placement.js';
import { SERVED_BY_HEADER } from '../src/router/requests.js';
import { pct, round } from './_stats.js';
import type { ScaleFigure } from './_scale_types.js';

/** Reads per side (alternating, after a warm-up). */
const READS = 400;
const WARMUP = 50;

export const forwardCost: ScaleFigure = {
  name: 'forwarded_read_ms',
  async run(o) {
    const dir = mkdtempSync(join(tmpdir(), 'loam-bench-forward-'));
    const store = new MemoryStore();
    const metas = [openEmbedded({ path: join(dir, 'm.db') }), openEmbedded({ path: join(dir, 'm.db') })];
    const nodes: LoamNode[] = [];
    try {
      for (const meta of metas) {
        const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, log_level: 'silent', roles: ['log', 'query'], membership_heartbeat_ms: 200 });
        nodes.push(await startNode(config, { meta, store, logger: pino({ level: 'silent' }) }));
      }
      const [a, b] = nodes as [LoamNode, LoamNode];
      const deadline = Date.now() + 10_000;
      while (a.membership.view().nodes.length < 2 || b.membership.view().nodes.length < 2) {
        if (Date.now() > deadline) throw new Error('the two nodes did not see each other within 10 s');
        await new Promise((r) => setTimeout(r, 50));
      }
      const post = (url: string, body: unknown) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      await post(`${a.url}/v1/namespaces`, { name: 'bench' });
      const c = (await (await post(`${a.url}/v1/namespaces/bench/collections`, { name: 'kv', primary_key: 'k', partitions: 1 })).json()) as { id: number };
      await post(`${a.url}/v1/namespaces/bench/collections/kv/documents`, { upserts: [{ k: 'x', v: 1 }] });
      const ns = await a.meta.namespaceByName('default', 'bench');
      const ownerId = a.membership.view().placement('query').owner(placementKey.collection(ns.id, c.id));
      const owner = nodes.find((n) => n.id === ownerId)!;
      const other = nodes.find((n) => n.id !== ownerId)!;
      const read = async (n: LoamNode): Promise<number> => {
        const t = performance.now();
        const r = await fetch(`${n.url}/v1/namespaces/bench/collections/kv/documents/x`);
        await r.arrayBuffer();
        if (r.status !== 200 || r.headers.get(SERVED_BY_HEADER) !== ownerId) throw new Error(`read via ${n.id}: ${r.status}, served by ${r.headers.get(SERVED_BY_HEADER)}`);
        return performance.now() - t;
      };
      for (let i = 0; i < WARMUP; i++) await read(i % 2 ? owner : other);
      const direct: number[] = [];
      const forwarded: number[] = [];
      for (let i = 0; i < READS; i++) {
        direct.push(await read(owner));
        forwarded.push(await read(other));
      }
      for (const p of [50, 99]) {
        const f = pct(forwarded, p);
        const d = pct(direct, p);
        o.line(`forwarded_read_p${p}_ms`, 1, f, 'ms', { baseline: round(d, 3), ratio: round(f / d, 3), added_ms: round(f - d, 3), load: round(loadavg()[0]!, 2) });
      }
    } finally {
      for (const n of nodes) await n.close();
      for (const m of metas) await m.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

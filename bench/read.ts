// `npm run bench -- read [--docs N] [--reads N]`
//
// Point reads on one node (`loam dev`: embedded metastore, file:// store) over HTTP on
// loopback: strong and eventual latency p50/p99 with a baseline measured in the same run —
// GET /healthz on the same node and connection (the HTTP floor); ratio = read ÷ baseline.
// Then, in process through CountingStore, the serial object-store round trips of a cold
// point read (a fresh node, empty caches): with the whole collection applied, and with a
// log tail to merge. Target (spec §5.8): at most 3.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command } from 'commander';
import { pino } from 'pino';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { CountingStore, FileStore } from '../src/store/index.js';
import { resolveConfig } from '../src/node/config.js';
import { startNode, type LoamNode } from '../src/node/node.js';
import { batchMaker, line, pct, raiseQuotas, request, round, startChildNode } from './ingest.js';

export const TARGET_COLD_ROUND_TRIPS = 3;
/** Waiting for the applier to catch up. */
export const APPLY_DEADLINE_MS = 120_000;

async function until(fn: () => Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`${what} did not happen within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function timeReads(port: number, paths: string[]): Promise<number[]> {
  const lat: number[] = [];
  for (const p of paths) {
    const t = performance.now();
    const r = await request(port, 'GET', p);
    lat.push(performance.now() - t);
    if (r.status !== 200) throw new Error(`GET ${p}: ${r.status} ${r.body}`);
  }
  return lat;
}

async function coldRoundTrips(batches: number): Promise<{ applied: number; withTail: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-cold-'));
  const objects = join(dir, 'objects');
  mkdirSync(objects, { recursive: true });
  const cfg = (roles: string[]) =>
    resolveConfig({ metastore: `sqlite:${join(dir, 'meta.db')}`, store: pathToFileURL(objects).href, port: 0, log_level: 'silent', roles, lease_ttl_ms: 1_000, gc_grace_ms: 600_000 });
  const logger = pino({ level: 'silent' });
  const metaA = openEmbedded({ path: join(dir, 'meta.db') });
  let a: LoamNode | undefined = await startNode(cfg(['log', 'query', 'worker']), { meta: metaA, store: new FileStore({ root: objects }), logger });
  try {
    await request(a.port, 'POST', '/v1/namespaces', JSON.stringify({ name: 'cold' }));
    await request(a.port, 'POST', '/v1/namespaces/cold/collections', JSON.stringify({ name: 'docs', primary_key: 'id', partitions: 4 }));
    const make = batchMaker(100, 1024);
    for (let i = 0; i < batches; i++) await request(a.port, 'POST', '/v1/namespaces/cold/collections/docs/documents', make(`k${i}`));
    const port = a.port;
    await until(async () => (await request(port, 'GET', `/v1/namespaces/cold/collections/docs/documents/k${batches - 1}-099?consistency=eventual`)).status === 200, APPLY_DEADLINE_MS, 'applying');
    await a.workers!.stop();
    // A log tail the cold reader must merge: one write in every partition, never applied.
    await request(a.port, 'POST', '/v1/namespaces/cold/collections/docs/documents', make('tail'));
    await a.close();
    a = undefined;
    await metaA.close();

    const measure = async (path: string): Promise<number> => {
      const meta = openEmbedded({ path: join(dir, 'meta.db') });
      const counting = new CountingStore(new FileStore({ root: objects }));
      const b = await startNode(cfg(['query']), { meta, store: counting, logger });
      try {
        // Resolve the names first (catalog, metastore only), then count one cold read.
        await request(b.port, 'GET', '/v1/namespaces/cold/collections/docs');
        counting.reset();
        const r = await request(b.port, 'GET', path);
        if (r.status !== 200) throw new Error(`cold GET ${path}: ${r.status}`);
        return counting.stats().roundTrips;
      } finally {
        await b.close();
        await meta.close();
      }
    };
    const applied = await measure('/v1/namespaces/cold/collections/docs/documents/k0-000?consistency=eventual');
    const withTail = await measure('/v1/namespaces/cold/collections/docs/documents/k1-001');
    return { applied, withTail };
  } finally {
    await a?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<void> {
  const o = new Command()
    .name('bench read')
    .option('--docs <n>', 'documents loaded (1 KiB each)', '20000')
    .option('--reads <n>', 'point reads per kind', '2000')
    .parse(['node', 'read', ...argv])
    .opts<{ docs: string; reads: string }>();
  const batches = Math.max(1, Math.ceil(Number(o.docs) / 100));
  const reads = Number(o.reads);
  const dir = mkdtempSync(join(tmpdir(), 'loam-bench-read-'));
  const node = await startChildNode(dir);
  try {
    const port = node.port;
    await raiseQuotas(port);
    await request(port, 'POST', '/v1/namespaces', JSON.stringify({ name: 'bench' }));
    await request(port, 'POST', '/v1/namespaces/bench/collections', JSON.stringify({ name: 'docs', primary_key: 'id', partitions: 8 }));
    const make = batchMaker(100, 1024);
    const base = '/v1/namespaces/bench/collections/docs/documents';
    await Promise.all(
      Array.from({ length: 8 }, async (_, c) => {
        for (let i = c; i < batches; i += 8) {
          const r = await request(port, 'POST', base, make(`b${i}`));
          if (r.status !== 200) throw new Error(`load: ${r.status} ${r.body}`);
        }
      }),
    );
    await until(async () => (await request(port, 'GET', `${base}/b${batches - 1}-099?consistency=eventual`)).status === 200, APPLY_DEADLINE_MS, 'applying');
    const ids = Array.from({ length: reads }, () => `b${Math.floor(Math.random() * batches)}-${String(Math.floor(Math.random() * 100)).padStart(3, '0')}`);
    await timeReads(port, ids.slice(0, Math.min(200, reads)).map((id) => `${base}/${id}`)); // warm-up
    // Interleaved, so the baseline and the reads see the same machine noise.
    const floor: number[] = [];
    const strong: number[] = [];
    const eventual: number[] = [];
    for (const id of ids) {
      floor.push(...(await timeReads(port, ['/healthz'])));
      strong.push(...(await timeReads(port, [`${base}/${id}`])));
      eventual.push(...(await timeReads(port, [`${base}/${id}?consistency=eventual`])));
    }
    const f50 = pct(floor, 50);
    const f99 = pct(floor, 99);
    line('read', 'strong_read_p50_ms', pct(strong, 50), 'ms', { baseline: round(f50, 3), ratio: round(pct(strong, 50) / f50, 2), baseline_is: 'GET /healthz, same node and connection' });
    line('read', 'strong_read_p99_ms', pct(strong, 99), 'ms', { baseline: round(f99, 3), ratio: round(pct(strong, 99) / f99, 2) });
    line('read', 'eventual_read_p50_ms', pct(eventual, 50), 'ms', { baseline: round(f50, 3), ratio: round(pct(eventual, 50) / f50, 2) });
    line('read', 'eventual_read_p99_ms', pct(eventual, 99), 'ms', { baseline: round(f99, 3), ratio: round(pct(eventual, 99) / f99, 2) });
  } finally {
    await node.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  const cold = await coldRoundTrips(Math.min(batches, 50));
  const worst = Math.max(cold.applied, cold.withTail);
  line('read', 'cold_read_round_trips', worst, 'round trips', {
    target: TARGET_COLD_ROUND_TRIPS,
    meets_target: worst <= TARGET_COLD_ROUND_TRIPS,
    applied_only: cold.applied,
    with_log_tail: cold.withTail,
  });
}

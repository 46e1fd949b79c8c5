// What an operator scraping a node sees: /metrics on its own loopback listener (not on the
// API's port), the worker thread's metastore calls in it, and no label naming a tenant's
// namespace or collection; per-namespace figures (unapplied records) are the usage API's.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { resolveConfig, sqliteUrl } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { FAST, http } from './helpers.js';

const DEADLINE_MS = 30_000;

async function scrape(n: LoamNode): Promise<string> {
  const r = await fetch(n.metricsUrl, { signal: AbortSignal.timeout(15_000) });
  assert.equal(r.status, 200);
  return r.text();
}

/** The samples of one metric family: labels and value. */
function samples(text: string, name: string): { labels: Record<string, string>; value: number }[] {
  const out: { labels: Record<string, string>; value: number }[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    out.push({ labels: labelsOf(m[2] ?? ''), value: Number(m[3]) });
  }
  return out;
}

function labelsOf(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of s.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) out[m[1]!] = m[2]!;
  return out;
}

async function until(what: string, f: () => Promise<boolean>): Promise<void> {
  const end = Date.now() + DEADLINE_MS;
  while (!(await f())) {
    if (Date.now() > end) throw new Error(`${what}: not within ${DEADLINE_MS} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('metrics of a node whose workers run in their own thread', () => {
  let dir: string;
  let node: LoamNode;
  const tenant = new Set<string>();

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loam-metrics-'));
    // A file metastore and store (no overrides): the workers run in the worker thread.
    node = await startNode(
      resolveConfig({ metastore: sqliteUrl(join(dir, 'meta.db')), store: pathToFileURL(join(dir, 'objects')).href, port: 0, log_level: 'silent', ...FAST }),
      { logger: pino({ level: 'silent' }) },
    );
    for (const ns of ['alpha', 'beta', 'gamma']) {
      const n = await http(node.url, 'POST', '/v1/namespaces', { name: ns });
      assert.equal(n.status, 201);
      tenant.add(ns).add(String(n.body.id));
      for (const c of ['users', 'orders']) {
        const r = await http(node.url, 'POST', `/v1/namespaces/${ns}/collections`, { name: c, primary_key: 'id', partitions: 2 });
        assert.equal(r.status, 201);
        tenant.add(c).add(String(r.body.id));
        const w = await http(node.url, 'POST', `/v1/namespaces/${ns}/collections/${c}/documents`, { upserts: Array.from({ length: 20 }, (_, i) => ({ id: `d${i}` })) });
        assert.equal(w.status, 200);
      }
    }
  });
  after(async () => {
    await node?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('the workers run in the thread, not in the main thread', () => {
    assert.equal(node.workers, null);
  });

  test("the worker thread's metastore calls (leases, pointers) are in /metrics", async () => {
    const count = (text: string, call: string) =>
      samples(text, 'loam_meta_call_duration_seconds_count')
        .filter((s) => s.labels.call === call)
        .reduce((a, s) => a + s.value, 0);
    // Only workers take leases and publish manifests; in this node they run in the thread.
    await until('lease and pointer calls in /metrics', async () => {
      const t = await scrape(node);
      return count(t, 'acquireLease') > 0 && count(t, 'renewLease') + count(t, 'casPointer') > 0;
    });
    const t = await scrape(node);
    assert.ok(samples(t, 'loam_meta_call_duration_seconds_count').every((s) => s.labels.backend === 'embedded'), 'labelled with the backend');
    // The main thread's own calls are there too, added to the thread's: one series per label set.
    assert.ok(count(t, 'commitWal') > 0, 'the main thread commits the WAL');
    const keys = samples(t, 'loam_meta_call_duration_seconds_count').map((s) => JSON.stringify(s.labels));
    assert.equal(new Set(keys).size, keys.length, 'no series twice');
    assert.equal(samples(t, 'loam_process_cpu_user_seconds_total').length, 1, 'the process is reported once');
    // The worker thread's own memory, beside the process's (docs/operations.md, sizing).
    for (const name of ['loam_worker_thread_heap_bytes', 'loam_worker_thread_array_buffers_bytes']) {
      const s = samples(t, name);
      assert.equal(s.length, 1, name);
      assert.ok(s[0]!.value > 0, `${name} is ${s[0]!.value}`);
    }
    assert.equal(samples(t, 'loam_worker_buffer_collections').length, 1);
  });

  test('no label value is a namespace or collection name or id', async () => {
    await until('every write applied', async () => samples(await scrape(node), 'loam_applied_records_total')[0]!.value >= 6 * 20);
    const text = await scrape(node);
    assert.ok(samples(text, 'loam_worker_lag_records').length === 1, 'worker lag: one series for the node');
    const found: string[] = [];
    for (const line of text.split('\n')) {
      // prom-client's runtime metrics (heap spaces, the Node version) carry no tenant data by construction.
      if (line.startsWith('#') || line.startsWith('loam_nodejs_') || line.startsWith('loam_process_')) continue;
      const m = /\{(.*)\}/.exec(line);
      if (!m) continue;
      for (const [k, v] of Object.entries(labelsOf(m[1]!))) {
        if (k === 'le' || k === 'quantile') continue; // bucket bounds: numbers, not tenant data
        if (tenant.has(v)) found.push(`${line.split('{')[0]} ${k}="${v}"`);
      }
    }
    assert.deepEqual(found, [], `tenant values among ${[...tenant].join(', ')}`);
  });

  test("/metrics is not served on the API's listener; its own listens on loopback", async () => {
    const r = await fetch(`${node.url}/metrics`, { signal: AbortSignal.timeout(15_000) });
    const body = await r.text();
    assert.equal(r.status, 404);
    assert.ok(!body.includes('loam_http_requests_total'), body);
    assert.equal(new URL(node.metricsUrl).hostname, '127.0.0.1');
    assert.notEqual(new URL(node.metricsUrl).port, String(node.port));
    const other = await fetch(new URL('/v1/namespaces', node.metricsUrl), { signal: AbortSignal.timeout(15_000) });
    assert.equal(other.status, 404, 'the metrics listener serves nothing else');
    await other.text();
  });
});

describe('per-namespace figures are in the usage API, not in /metrics', () => {
  let node: LoamNode;
  before(async () => {
    // No worker role: nothing is applied, so every write stays unapplied.
    node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, log_level: 'silent', auth: 'api_keys', roles: ['log', 'query'], ...FAST }), {
      logger: pino({ level: 'silent' }),
    });
  });
  after(async () => node?.close());

  test('GET /v1/usage?metric=unapplied_records gives each namespace its unapplied records', async () => {
    const auth = { authorization: `Bearer ${node.bootstrapKey!}`, 'content-type': 'application/json' };
    const call = async (method: string, path: string, body?: unknown) => {
      const r = await fetch(node.url + path, { method, headers: auth, ...(body === undefined ? {} : { body: JSON.stringify(body) }), signal: AbortSignal.timeout(15_000) });
      return { status: r.status, body: (await r.json()) as any };
    };
    const ids: Record<string, number> = {};
    for (const [ns, docs] of [['alpha', 7], ['beta', 3]] as const) {
      ids[ns] = (await call('POST', '/v1/namespaces', { name: ns })).body.id;
      assert.equal((await call('POST', `/v1/namespaces/${ns}/collections`, { name: 'c', primary_key: 'id' })).status, 201);
      const w = await call('POST', `/v1/namespaces/${ns}/collections/c/documents`, { upserts: Array.from({ length: docs }, (_, i) => ({ id: `d${i}` })) });
      assert.equal(w.status, 200);
    }
    await node.tenancy!.refreshStorage();
    const r = await call('GET', '/v1/usage?metric=unapplied_records');
    assert.equal(r.status, 200, JSON.stringify(r.body));
    const value = (ns: number) => (r.body.items as { ns: number; value: number }[]).find((u) => u.ns === ns)?.value;
    assert.equal(value(ids.alpha!), 7);
    assert.equal(value(ids.beta!), 3);
  });
});

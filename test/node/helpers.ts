// Helpers for the data-plane and node suites: an in-process node on a fresh embedded
// metastore file and a chosen store, and a tiny JSON HTTP client.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { openEmbedded, type EmbeddedOptions } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore, type Store } from '../../src/store/index.js';
import { resolveConfig, type NodeConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

export interface TestNode extends LoamNode {
  dir: string;
  rawStore: Store;
  cleanup(): Promise<void>;
}

/** Settings that make workers quick in tests. */
export const FAST: Partial<NodeConfig> = {
  lease_ttl_ms: 1_000,
  gc_grace_ms: 2_500,
  gc_interval_ms: 200,
  maintenance_interval_ms: 100,
  apply_poll_ms: 100,
  segment_min_age_ms: 0,
};

export async function testNode(
  o: { config?: Partial<NodeConfig>; store?: Store; wrap?: (s: Store) => Store; meta?: Partial<EmbeddedOptions>; dir?: string } = {},
): Promise<TestNode> {
  const dir = o.dir ?? mkdtempSync(join(tmpdir(), 'loam-node-'));
  const rawStore = o.store ?? new MemoryStore();
  const store = o.wrap ? o.wrap(rawStore) : rawStore;
  const meta = openEmbedded({ path: join(dir, 'meta.db'), ...o.meta });
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, log_level: 'silent', ...FAST, ...o.config });
  // dataDir: with the default key provider (local) and no master key, the node keeps its
  // generated one there, as an embedded node keeps it beside its metastore file.
  const node = await startNode(config, { store, meta, dataDir: dir, logger: pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' }) });
  return Object.assign(node, {
    dir,
    rawStore,
    async cleanup() {
      await node.close();
      await meta.close();
      if (!o.dir) rmSync(dir, { recursive: true, force: true });
    },
  });
}

export interface Res<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

/** JSON over HTTP with a deadline. */
export async function http<T = any>(base: string, method: string, path: string, body?: unknown, timeoutMs = 15_000): Promise<Res<T>> {
  const r = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await r.text();
  let parsed: unknown = text;
  try {
    parsed = text === '' ? null : JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: r.status, body: parsed as T, headers: r.headers };
}

/** Polls `fn` until it returns a truthy value or the deadline passes. */
export async function until<T>(fn: () => Promise<T> | T, timeoutMs = 10_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

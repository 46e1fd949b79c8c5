// The tenancy suite's HTTP call and node: one request as a client sends it (a key, a JSON
// body), its answer parsed; and a node with API keys on the backend and authorizer under test.
import { pino } from 'pino';
import { backendFactory, type BackendFactory } from '../harness/backends.js';
import { authorizerSettings } from '../harness/authorizers.js';
import { MemoryStore } from '../../src/store/index.js';
import { resolveConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';

/** A request's deadline. */
export const CALL_TIMEOUT_MS = 15_000;

export interface Answer {
  status: number;
  body: any;
  text: string;
  retryAfter: string | null;
}

export async function call(node: { url: string }, method: string, path: string, key?: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const h: Record<string, string> = { ...headers };
  if (key) h.authorization = `Bearer ${key}`;
  if (body !== undefined) h['content-type'] = 'application/json';
  const r = await fetch(node.url + path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body), signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as any) : null, text, retryAfter: r.headers.get('retry-after') };
}

/** A node on a fresh handle of LOAM_TEST_BACKEND with API keys and TEST_AUTHORIZER (and `settings`); close it, then clean the factory up. */
export async function keyedTenancyNode(settings: Record<string, unknown> = {}): Promise<{ node: LoamNode; factory: BackendFactory }> {
  const factory = backendFactory();
  const meta = await factory.open();
  const config = resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', ...(await authorizerSettings()), ...settings });
  const node = await startNode(config, { meta, store: new MemoryStore(), logger: pino({ level: 'silent' }) });
  return { node, factory };
}

// Helpers for the status page's suites: a node with API keys whose log is kept (to check no
// key reaches it), API calls with a key, and page requests with the session cookie.
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { resolveConfig, type NodeConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { SESSION_COOKIE } from '../../src/ui/routes.js';

export const DEADLINE_MS = 15_000;

export interface UiNode {
  node: LoamNode;
  /** Everything the node logged (at debug level). */
  log: () => string;
}

export async function uiNode(config: Partial<NodeConfig> = {}): Promise<UiNode> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const node = await startNode(
    resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'debug', apply_poll_ms: 100, ...config }),
    { logger: pino({ level: 'debug' }, sink) },
  );
  return { node, log: () => lines.join('') };
}

/** A JSON API call with a key; throws unless the answer is 2xx. */
export async function api<T = unknown>(node: LoamNode, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(node.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(DEADLINE_MS),
  });
  const text = await r.text();
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export interface Page {
  status: number;
  text: string;
  headers: Headers;
}

/** A status page request as a browser with the session cookie sends it (no redirects followed). */
export async function ui(node: LoamNode, path: string, key: string | null, init: RequestInit = {}): Promise<Page> {
  const r = await fetch(node.url + path, {
    redirect: 'manual',
    ...init,
    headers: { ...(key ? { cookie: `${SESSION_COOKIE}=${key}` } : {}), ...(init.headers as Record<string, string> | undefined) },
    signal: AbortSignal.timeout(DEADLINE_MS),
  });
  return { status: r.status, text: await r.text(), headers: r.headers };
}

/** The text of a page without its markup (what a reader sees). */
export function visible(page: string): string {
  return page
    .replace(/<style>[\s\S]*?<\/style>/, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The secret part of a key (loam_<id>_<secret>). */
export const secretOf = (key: string) => key.split('_')[2]!;

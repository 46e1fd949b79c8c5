// A real node for the client and CLI tests: `loam dev`'s settings (API keys on, the bootstrap
// admin key), in memory, on a free port; and a fetch that counts what was sent (it passes
// every call to the real fetch: the server answers, nothing is faked); and the `loam` bin run
// as a user runs it, in a child process.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pino } from 'pino';
import { resolveConfig, type NodeConfig } from '../../src/node/config.js';
import { startNode, type LoamNode } from '../../src/node/node.js';
import { FAST } from '../node/helpers.js';

export interface KeyedNode {
  node: LoamNode;
  url: string;
  /** The org admin key the node printed on its first start. */
  admin: string;
  /** The operator key it printed (quotas, orgs). */
  operator: string;
  close(): Promise<void>;
}

export async function keyedNode(config: Partial<NodeConfig> = {}): Promise<KeyedNode> {
  const node = await startNode(resolveConfig({ metastore: 'sqlite::memory:', store: 'memory://', port: 0, auth: 'api_keys', log_level: 'silent', ...FAST, ...config }), {
    logger: pino({ level: process.env.LOAM_TEST_LOG ?? 'silent' }),
  });
  if (!node.bootstrapKey) throw new Error('the node printed no bootstrap key');
  if (!node.operatorKey) throw new Error('the node printed no operator key');
  return { node, url: node.url, admin: node.bootstrapKey, operator: node.operatorKey, close: () => node.close() };
}

/** The real fetch, recording each request's method and URL. */
export function countingFetch(): { fetch: typeof fetch; calls: { method: string; url: string }[] } {
  const calls: { method: string; url: string }[] = [];
  const f: typeof fetch = (input, init) => {
    calls.push({ method: init?.method ?? 'GET', url: String(input) });
    return fetch(input, init);
  };
  return { fetch: f, calls };
}

/** The raw answer to a request, to compare the client's error with what the server said. */
export async function raw(url: string, key: string | null, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url + path, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/** A loopback port nothing listens on (it was free a moment ago). */
export { freePort } from '../harness/ports.js';

export const ROOT = new URL('../..', import.meta.url).pathname;
/** The package's bin, as `npx loam` runs it. */
export const BIN = join(ROOT, 'src/cli/loam.mjs');
/** A CLI run that has not exited by then is killed and fails its test. */
export const CLI_DEADLINE_MS = 60_000;

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command line through bash, as typed, with only PATH, HOME and `env` in its environment. */
export function sh(line: string, o: { input?: string; env?: Record<string, string> } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const p = spawn('bash', ['-c', line], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    const t = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`${line}: no exit within ${CLI_DEADLINE_MS} ms`));
    }, CLI_DEADLINE_MS);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stdout, stderr });
    });
    p.stdin.end(o.input ?? '');
  });
}

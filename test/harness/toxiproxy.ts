// Toxiproxy (2.12.0, spec §4.2) for the soaks, the crash gate and the histories under real
// faults: a server on loopback and a free port, a proxy between Loam and each network service
// (Postgres, DynamoDB Local, MinIO), and its toxics driven through the REST API.
//
// A small typed helper over fetch rather than toxiproxy-node-client: we use six endpoints,
// want a deadline on every call (a hung admin call must not hang a soak) and typed attributes
// for exactly the toxics the schedules use; the client would add a dependency for less.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './ports.js';

/** The version test/setup/install.sh installs (its binary is named `server`, in a folder of its own). */
export const TOXIPROXY_VERSION = 'v2.12.0';
/** It starts in well under a second; allow for a loaded machine. */
const START_DEADLINE_MS = 15_000;
/** One REST call. */
const API_DEADLINE_MS = 5_000;
const STOP_DEADLINE_MS = 5_000;

/** The toxics the soaks use (Toxiproxy's names; attributes as its API takes them). */
export type Toxic =
  | { type: 'latency'; attributes: { latency: number; jitter: number } }
  | { type: 'timeout'; attributes: { timeout: number } }
  | { type: 'reset_peer'; attributes: { timeout: number } }
  | { type: 'limit_data'; attributes: { bytes: number } }
  | { type: 'bandwidth'; attributes: { rate: number } }
  | { type: 'slicer'; attributes: { average_size: number; size_variation: number; delay: number } };

export interface ToxicSpec {
  /** Unique per proxy; default: the type. */
  name?: string;
  /** downstream: server → Loam (default); upstream: Loam → server. */
  stream?: 'downstream' | 'upstream';
  /** Share of connections it applies to, 0..1 (default 1). */
  toxicity?: number;
  toxic: Toxic;
}

export interface Proxy {
  name: string;
  /** Where Loam connects instead of the service. */
  host: string;
  port: number;
}

export function findToxiproxy(): string | undefined {
  const env = process.env.LOAM_TOXIPROXY_BIN;
  if (env) return existsSync(env) ? env : undefined;
  let gopath = process.env.GOPATH;
  if (!gopath) {
    try {
      gopath = execFileSync('go', ['env', 'GOPATH'], { encoding: 'utf8' }).trim();
    } catch {
      gopath = join(process.env.HOME ?? '/root', 'go');
    }
  }
  const bin = join(gopath, `toxiproxy-${TOXIPROXY_VERSION}`, 'server');
  return existsSync(bin) ? bin : undefined;
}

export class Toxiproxy {
  private constructor(
    private readonly proc: ChildProcess,
    readonly api: string,
    private readonly logTail: () => string,
  ) {}

  /** Starts a server; a failure is an error naming Toxiproxy (never a skip). */
  static async start(): Promise<Toxiproxy> {
    const bin = findToxiproxy();
    if (!bin) {
      throw new Error(`Toxiproxy is not installed: run test/setup/install.sh (go install github.com/Shopify/toxiproxy/v2/cmd/server@${TOXIPROXY_VERSION}) or set LOAM_TOXIPROXY_BIN`);
    }
    const port = await freePort();
    const proc = spawn(bin, ['-host', '127.0.0.1', '-port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    const keep = (b: Buffer) => {
      log = (log + b.toString()).slice(-4000);
    };
    proc.stdout!.on('data', keep);
    proc.stderr!.on('data', keep);
    let exited: string | undefined;
    proc.once('exit', (code, sig) => (exited = `exited with ${code ?? sig}`));
    const t = new Toxiproxy(proc, `http://127.0.0.1:${port}`, () => log);
    const deadline = Date.now() + START_DEADLINE_MS;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`Toxiproxy ${exited} while starting: ${log}`);
      try {
        const r = await fetch(`${t.api}/version`, { signal: AbortSignal.timeout(1_000) });
        if (r.ok) return t;
      } catch {
        // not listening yet
      }
      await sleep(50);
    }
    proc.kill('SIGKILL');
    throw new Error(`Toxiproxy did not answer within ${START_DEADLINE_MS} ms: ${log}`);
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const r = await fetch(this.api + path, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? null : JSON.stringify(body),
      signal: AbortSignal.timeout(API_DEADLINE_MS),
    });
    const text = await r.text();
    if (!r.ok) throw new Error(`Toxiproxy ${method} ${path}: ${r.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }

  /** A proxy on a free loopback port to `upstream` (host:port). */
  async proxy(name: string, upstream: string): Promise<Proxy> {
    const port = await freePort();
    await this.call('POST', '/proxies', { name, listen: `127.0.0.1:${port}`, upstream, enabled: true });
    return { name, host: '127.0.0.1', port };
  }

  async addToxic(proxy: string, t: ToxicSpec): Promise<string> {
    const name = t.name ?? t.toxic.type;
    await this.call('POST', `/proxies/${proxy}/toxics`, { name, type: t.toxic.type, stream: t.stream ?? 'downstream', toxicity: t.toxicity ?? 1, attributes: t.toxic.attributes });
    return name;
  }

  async removeToxic(proxy: string, name: string): Promise<void> {
    await this.call('DELETE', `/proxies/${proxy}/toxics/${name}`);
  }

  /** Down: the listener is closed and every open connection cut ("enabled": false); up again. */
  async setEnabled(proxy: string, enabled: boolean): Promise<void> {
    await this.call('POST', `/proxies/${proxy}`, { enabled });
  }

  /** Every proxy enabled, every toxic removed. */
  async reset(): Promise<void> {
    await this.call('POST', '/reset');
  }

  async toxics(proxy: string): Promise<{ name: string; type: string }[]> {
    return this.call('GET', `/proxies/${proxy}/toxics`);
  }

  async stop(): Promise<void> {
    if (this.proc.exitCode !== null || this.proc.signalCode !== null) return;
    const done = new Promise<void>((r) => this.proc.once('exit', () => r()));
    this.proc.kill('SIGTERM');
    const t = setTimeout(() => this.proc.kill('SIGKILL'), STOP_DEADLINE_MS);
    await done;
    clearTimeout(t);
  }

  /** The server's last output, for a failure message. */
  log(): string {
    return this.logTail();
  }
}

/** host:port of a service URL (postgres://…@h:p/db, http://h:p). */
export function hostPort(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
}

/** The same URL with its host:port replaced by the proxy's. */
export function viaProxy(url: string, p: Proxy): string {
  const u = new URL(url);
  u.hostname = p.host;
  u.port = String(p.port);
  return u.toString();
}

// The OpenFGA test service (spec §7): the `openfga` server binary (installed by
// test/setup/install.sh with go install) on loopback free ports with its in-memory datastore.
// test/run.ts starts it once for the stages that need it and passes its HTTP URL as
// LOAM_TEST_OPENFGA_URL; a test file run on its own starts one for its process. A server that
// cannot start fails the stage, naming the service: nothing is skipped because it "was not there".
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './ports.js';
import type { RunningService, ServiceSpec } from './services.js';

export const OPENFGA_URL_ENV = 'LOAM_TEST_OPENFGA_URL';
/** How long a starting server has to answer /healthz. */
export const OPENFGA_START_DEADLINE_MS = 30_000;
/** How long a stopping server has before it is killed. */
const STOP_DEADLINE_MS = 5_000;

/** The server binary: LOAM_OPENFGA_BIN, `openfga` on PATH, else $(go env GOPATH)/bin/openfga. */
export function openFgaBinary(): string {
  const env = process.env.LOAM_OPENFGA_BIN;
  if (env) return env;
  const which = spawnSync('sh', ['-c', 'command -v openfga'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  const candidate = gopath.status === 0 ? join(gopath.stdout.trim(), 'bin', 'openfga') : '';
  if (candidate && existsSync(candidate)) return candidate;
  throw new Error('openfga: the server binary was not found (not on PATH, not in $(go env GOPATH)/bin); run bash test/setup/install.sh (go install github.com/openfga/openfga/cmd/openfga@v1.22.1) or set LOAM_OPENFGA_BIN');
}

export interface OpenFga extends RunningService {
  httpPort: number;
  process: ChildProcess;
  /** The server's output so far (for errors). */
  output(): string;
}

export interface OpenFgaOptions {
  /** Extra `openfga run` flags (a Postgres datastore: --datastore-engine postgres --datastore-uri …). */
  args?: string[];
  /** Reuse these ports (a restart after stop()). */
  httpPort?: number;
  grpcPort?: number;
}

async function healthy(url: string): Promise<boolean> {
  try {
    const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1_000) });
    return r.ok && ((await r.json()) as { status?: string }).status === 'SERVING';
  } catch {
    return false;
  }
}

/** Starts a server; stop() ends it (SIGTERM, then SIGKILL after STOP_DEADLINE_MS). */
export async function startOpenFga(o: OpenFgaOptions = {}): Promise<OpenFga> {
  const bin = openFgaBinary();
  for (let attempt = 1; ; attempt++) {
    const httpPort = o.httpPort ?? (await freePort());
    const grpcPort = o.grpcPort ?? (await freePort());
    const args = [
      'run',
      `--http-addr=127.0.0.1:${httpPort}`,
      `--grpc-addr=127.0.0.1:${grpcPort}`,
      '--playground-enabled=false',
      '--metrics-enabled=false',
      '--log-level=warn',
      ...(o.args ?? ['--datastore-engine=memory']),
    ];
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-20_000)));
    let exited: number | string | null = null;
    child.on('exit', (code, sig) => (exited = code ?? sig ?? 'exit'));
    const kill = () => child.kill('SIGKILL');
    process.once('exit', kill);
    const url = `http://127.0.0.1:${httpPort}`;
    const deadline = Date.now() + OPENFGA_START_DEADLINE_MS;
    while (Date.now() < deadline && exited === null && !(await healthy(url))) await new Promise((r) => setTimeout(r, 100));
    if (exited === null && (await healthy(url))) {
      return {
        url,
        httpPort,
        process: child,
        output: () => out,
        async stop() {
          process.off('exit', kill);
          if (child.exitCode !== null || child.signalCode !== null) return;
          const gone = new Promise<void>((r) => child.once('exit', () => r()));
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), STOP_DEADLINE_MS);
          await gone;
          clearTimeout(t);
        },
      };
    }
    kill();
    process.off('exit', kill);
    // A port taken between freePort() and the bind: try others (not when the ports were given).
    if (attempt >= 3 || o.httpPort !== undefined) {
      throw new Error(`openfga: the server did not become healthy within ${OPENFGA_START_DEADLINE_MS} ms (${exited === null ? 'still running' : `exited: ${exited}`}): ${out.trim().slice(-2_000)}`);
    }
  }
}

export const OPENFGA_SERVICE: ServiceSpec = { env: OPENFGA_URL_ENV, start: () => startOpenFga() };

let own: Promise<OpenFga> | undefined;
/** The server the tests use: LOAM_TEST_OPENFGA_URL, or one this process starts (and ends at exit). */
export async function openFgaUrl(): Promise<string> {
  const env = process.env[OPENFGA_URL_ENV];
  if (env) return env;
  own ??= startOpenFga();
  const s = await own;
  process.env[OPENFGA_URL_ENV] = s.url;
  return s.url;
}

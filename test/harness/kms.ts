// The KMS test service (spec §9.8): local-kms (installed by test/setup/install.sh with go
// install) on a loopback port with a throwaway data folder. test/run.ts starts it for the
// crypto suite and passes its URL as LOAM_TEST_KMS_URL; a test file run on its own starts one.
// A server that cannot start fails the stage, naming the service.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './ports.js';
import type { RunningService, ServiceSpec } from './services.js';

export const KMS_URL_ENV = 'LOAM_TEST_KMS_URL';
/** How long a starting server has to accept connections. */
export const KMS_START_DEADLINE_MS = 20_000;
/** local-kms accepts any credentials; the SDK needs some. */
export const KMS_TEST_CREDENTIALS = { accessKeyId: 'test', secretAccessKey: 'test' };
export const KMS_TEST_REGION = 'eu-west-2';

export function localKmsBinary(): string {
  const which = spawnSync('sh', ['-c', 'command -v local-kms'], { encoding: 'utf8' });
  if (which.status === 0 && which.stdout.trim()) return which.stdout.trim();
  const gopath = spawnSync('go', ['env', 'GOPATH'], { encoding: 'utf8' });
  const candidate = gopath.status === 0 ? join(gopath.stdout.trim(), 'bin', 'local-kms') : '';
  if (candidate && existsSync(candidate)) return candidate;
  throw new Error('local-kms: the binary was not found (not on PATH, not in $(go env GOPATH)/bin); run bash test/setup/install.sh');
}

async function answers(url: string): Promise<boolean> {
  try {
    const r = await fetch(url, { method: 'POST', headers: { 'X-Amz-Target': 'TrentService.ListKeys', 'Content-Type': 'application/x-amz-json-1.1' }, body: '{}', signal: AbortSignal.timeout(1_000) });
    return r.status < 500;
  } catch {
    return false;
  }
}

export async function startLocalKms(): Promise<RunningService> {
  const bin = localKmsBinary();
  const dir = mkdtempSync(join(tmpdir(), 'loam-kms-'));
  const port = await freePort();
  // It listens on every interface; the tests connect through 127.0.0.1 only.
  const child = spawn(bin, [], { env: { ...process.env, PORT: String(port), KMS_DATA_PATH: dir, KMS_REGION: KMS_TEST_REGION }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-10_000)));
  child.stderr!.on('data', (d: Buffer) => (out = (out + d.toString()).slice(-10_000)));
  let exited = false;
  child.on('exit', () => (exited = true));
  const kill = () => child.kill('SIGKILL');
  process.once('exit', kill);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + KMS_START_DEADLINE_MS;
  while (Date.now() < deadline && !exited && !(await answers(url))) await new Promise((r) => setTimeout(r, 100));
  if (exited || !(await answers(url))) {
    kill();
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`local-kms did not start on ${url} within ${KMS_START_DEADLINE_MS} ms: ${out}`);
  }
  return {
    url,
    async stop() {
      process.off('exit', kill);
      child.kill('SIGTERM');
      await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5_000))]);
      kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const KMS_SERVICE: ServiceSpec = { env: KMS_URL_ENV, start: startLocalKms };

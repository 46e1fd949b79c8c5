// A throwaway MinIO server for the S3 provider suite, on 127.0.0.1 and a free port, with
// its data in a temp directory. MinIO keeps objects on disk (so the suite's check 8 can
// kill -9 it and start it again over the same directory), checks If-None-Match and If-Match
// atomically under its namespace lock, supports versioning in single-drive mode, and serves
// SSE-S3 with a static KMS key. .ci/run installs the binary (`go install`); see README.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, openSync, closeSync, readFileSync } from 'node:fs';
import { freePort } from '../../harness/ports.js';
import { homedir, tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** MinIO starts in 1–3 s here; allow for a loaded CI machine. */
const START_DEADLINE_MS = 60_000;
const STOP_DEADLINE_MS = 15_000;
const POLL_MS = 100;

export function findMinio(): string | undefined {
  const env = process.env.LOAM_MINIO_BIN;
  if (env) return existsSync(env) ? env : undefined;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'minio'))) return join(dir, 'minio');
  }
  const gopath = process.env.GOPATH?.split(delimiter)[0] ?? join(homedir(), 'go');
  const bin = process.env.GOBIN ? join(process.env.GOBIN, 'minio') : join(gopath, 'bin', 'minio');
  return existsSync(bin) ? bin : undefined;
}

export { freePort };

export class MinioServer {
  readonly accessKeyId = 'loamtest';
  readonly secretAccessKey = `loam-${randomBytes(12).toString('hex')}`;
  private readonly kmsKey = `loam-test-key:${randomBytes(32).toString('base64')}`;
  private proc: ChildProcess | undefined;
  private constructor(
    readonly bin: string,
    readonly dataDir: string,
    readonly port: number,
    private readonly logFile: string,
  ) {}

  get endpoint(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get credentials(): { accessKeyId: string; secretAccessKey: string } {
    return { accessKeyId: this.accessKeyId, secretAccessKey: this.secretAccessKey };
  }

  static async start(): Promise<MinioServer> {
    const bin = findMinio();
    if (!bin) {
      throw new Error(
        'MinIO is not installed: run its install step from .ci/run (go install github.com/minio/minio@<pin>), ' +
          'put `minio` on PATH, or set LOAM_MINIO_BIN',
      );
    }
    const root = mkdtempSync(join(tmpdir(), 'loam-minio-'));
    const s = new MinioServer(bin, join(root, 'data'), await freePort(), join(root, 'minio.log'));
    await s.launch();
    return s;
  }

  private async launch(): Promise<void> {
    const log = openSync(this.logFile, 'a');
    try {
      this.proc = spawn(this.bin, ['server', this.dataDir, '--address', `127.0.0.1:${this.port}`, '--quiet'], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? tmpdir(),
          MINIO_ROOT_USER: this.accessKeyId,
          MINIO_ROOT_PASSWORD: this.secretAccessKey,
          MINIO_KMS_SECRET_KEY: this.kmsKey,
          MINIO_BROWSER: 'off',
          MINIO_UPDATE: 'off',
        },
        stdio: ['ignore', log, log],
      });
    } finally {
      closeSync(log);
    }
    const proc = this.proc;
    let exited: string | undefined;
    proc.once('exit', (code, sig) => {
      exited = `exited with ${code ?? sig}`;
    });
    const deadline = Date.now() + START_DEADLINE_MS;
    // Bounded by the deadline.
    while (Date.now() < deadline) {
      if (exited !== undefined) throw new Error(`MinIO ${exited} while starting:\n${this.logTail()}`);
      try {
        const res = await fetch(`${this.endpoint}/minio/health/ready`, { signal: AbortSignal.timeout(1_000) });
        if (res.ok) return;
      } catch {
        // not listening yet
      }
      await sleep(POLL_MS);
    }
    proc.kill('SIGKILL');
    throw new Error(`MinIO did not become ready within ${START_DEADLINE_MS} ms:\n${this.logTail()}`);
  }

  private logTail(): string {
    try {
      return readFileSync(this.logFile, 'utf8').split('\n').slice(-20).join('\n');
    } catch {
      return '(no log)';
    }
  }

  private async waitExit(sig: NodeJS.Signals): Promise<void> {
    const proc = this.proc;
    this.proc = undefined;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const done = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(sig);
    const timer = setTimeout(() => proc.kill('SIGKILL'), STOP_DEADLINE_MS);
    try {
      await done;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Stop gracefully (SIGTERM) and start again over the same data directory and port. */
  async restart(): Promise<void> {
    await this.waitExit('SIGTERM');
    await this.launch();
  }

  /** kill -9 the server, then start it again over the same data directory and port. */
  async kill9AndRestart(): Promise<void> {
    await this.waitExit('SIGKILL');
    await this.launch();
  }

  async stop(): Promise<void> {
    await this.waitExit('SIGTERM');
    rmSync(join(this.dataDir, '..'), { recursive: true, force: true });
  }
}

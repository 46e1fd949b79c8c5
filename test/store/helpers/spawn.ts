// Run helpers/child.ts in a child process and read its JSON lines.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url));
const POLL_MS = 10;

export type ChildEvent = Record<string, unknown>;

export class Child {
  readonly events: ChildEvent[] = [];
  private stderr = '';
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private readonly exited: Promise<void>;

  private constructor(readonly proc: ChildProcess) {
    let buf = '';
    proc.stdout!.setEncoding('utf8');
    proc.stdout!.on('data', (d: string) => {
      buf += d;
      let i: number;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 1);
        try {
          this.events.push(JSON.parse(line) as ChildEvent);
        } catch {
          this.stderr += `[stdout] ${line}\n`;
        }
      }
    });
    proc.stderr!.setEncoding('utf8');
    proc.stderr!.on('data', (d: string) => {
      this.stderr = (this.stderr + d).slice(-8_000);
    });
    this.exited = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve();
      }),
    );
  }

  /** Start `node --import tsx helpers/child.ts …args` from the repository root. */
  static start(args: string[], env: Record<string, string> = {}): Child {
    const proc = spawn(process.execPath, ['--import', 'tsx', '--no-warnings', CHILD, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    return new Child(proc);
  }

  /** Wait until `pred` holds for the events so far; fail past the deadline or if the child dies first. */
  async waitFor(pred: (events: ChildEvent[]) => boolean, deadlineMs: number, what: string): Promise<void> {
    const deadline = Date.now() + deadlineMs;
    while (!pred(this.events)) {
      if (this.exit) throw new Error(`child exited (${JSON.stringify(this.exit)}) before ${what}; stderr:\n${this.stderr}\nevents: ${JSON.stringify(this.events.slice(-3))}`);
      if (Date.now() > deadline) throw new Error(`child: no ${what} within ${deadlineMs} ms; stderr:\n${this.stderr}`);
      await sleep(POLL_MS);
    }
  }

  send(line: string): void {
    this.proc.stdin!.write(`${line}\n`);
  }

  /** Wait for the child to exit by itself (with a deadline); returns its exit. */
  async done(deadlineMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = setTimeout(() => this.proc.kill('SIGKILL'), deadlineMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
    if (this.exit?.code !== 0) throw new Error(`child failed: ${JSON.stringify(this.exit)}; stderr:\n${this.stderr}\nevents: ${JSON.stringify(this.events.slice(-3))}`);
    return this.exit;
  }

  /** SIGKILL, as kill -9 does, and wait for the exit. */
  async kill9(): Promise<void> {
    if (!this.exit) this.proc.kill('SIGKILL');
    await this.exited;
  }
}

// The README's walk-through, run literally: `npx loam dev` (the package's bin), then the
// "HTTP API" shell block, command by command, each output compared with its "# →" line
// ("…" matches anything). Only the LOAM= line changes: the node listens on a free port.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const START_DEADLINE_MS = 60_000;

interface Step {
  command: string;
  expect: string | null;
}

function walkthrough(): { prelude: string; steps: Step[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## HTTP API'));
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const lines = block.split('\n');
  const steps: Step[] = [];
  let prelude = '';
  let cmd = '';
  for (const line of lines) {
    if (line.startsWith('# → ')) {
      steps[steps.length - 1]!.expect = line.slice(4);
      continue;
    }
    if (line.startsWith('#') || line.trim() === '') continue;
    cmd += (cmd ? '\n' : '') + line;
    if (line.endsWith('\\')) continue;
    if (/^LOAM=/.test(cmd)) prelude = cmd;
    else steps.push({ command: cmd, expect: null });
    cmd = '';
  }
  return { prelude, steps };
}

function pattern(expect: string): RegExp {
  return new RegExp(`^${expect.split('…').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*?')}$`);
}

test('README: npx loam dev, then the HTTP API walk-through, pasted as is', async (t) => {
  const { prelude, steps } = walkthrough();
  assert.equal(prelude, 'LOAM=http://127.0.0.1:7070', 'the walk-through starts from the default address');
  assert.ok(steps.length >= 8);
  const dir = mkdtempSync(join(tmpdir(), 'loam-readme-'));
  // Its own process group, so the stop below reaches npx and the node it runs.
  const proc = spawn('npx', ['loam', 'dev', '--port', '0', '--data-dir', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const exited = new Promise<number | null>((r) => proc.on('exit', (c) => r(c)));
  try {
    let out = '';
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`loam dev did not print its address within ${START_DEADLINE_MS} ms`)), START_DEADLINE_MS);
      proc.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        const m = /listening: (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      proc.stderr!.on('data', (b: Buffer) => (out += b.toString()));
      void exited.then((c) => reject(new Error(`loam dev exited with ${c}: ${out}`)));
    });
    assert.match(out, /curl -s -X POST http:\/\/127\.0\.0\.1:\d+\/v1\/namespaces/, 'it prints how to call it');
    const SEP = '@@@LOAM-STEP@@@';
    // The keys loam dev printed once on first start stand in for the README's `LOAM_KEY=loam_…`
    // (the org admin) and `LOAM_OPERATOR_KEY=loam_…` (the operator).
    const key = /export LOAM_KEY=(loam_[0-9a-f_]+)/.exec(out)?.[1];
    const operatorKey = /export LOAM_OPERATOR_KEY=(loam_[0-9a-f_]+)/.exec(out)?.[1];
    assert.ok(key, 'loam dev prints an admin API key on first start');
    assert.ok(operatorKey && operatorKey !== key, 'and an operator key');
    const withKey = (c: string) => (c.startsWith('LOAM_KEY=') ? `LOAM_KEY=${key}` : c.startsWith('LOAM_OPERATOR_KEY=') ? `LOAM_OPERATOR_KEY=${operatorKey}` : c);
    const script = [`LOAM=${url}`, ...steps.map((s) => `${withKey(s.command)}\necho; echo '${SEP}'`)].join('\n');
    const output = execFileSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
    const outs = output.split(`${SEP}\n`);
    steps.forEach((s, i) => {
      const got = (outs[i] ?? '').trim();
      t.diagnostic(`$ ${s.command.split('\n')[0]}\n${got}`);
      if (s.expect !== null) assert.match(got, pattern(s.expect), `step ${i + 1}: ${s.command.split('\n')[0]}`);
    });
  } finally {
    process.kill(-proc.pid!, 'SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  }
});

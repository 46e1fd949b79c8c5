// The README's TypeScript walk-through, run as written against a real node (its import of
// 'loam/client' pointed at the source here; types.test.ts checks the package export itself),
// each printed line compared with its "// →" line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyedNode } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const RUN_DEADLINE_MS = 60_000;

function walkthrough(): { code: string; expect: string[] } {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('### The same in TypeScript'));
  const code = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
  const expect = code.split('\n').filter((l) => l.startsWith('// → ')).map((l) => l.slice(5));
  return { code, expect };
}

test('README: the TypeScript walk-through prints what its // → lines say', async () => {
  const { code, expect } = walkthrough();
  assert.ok(code.includes("from 'loam/client'"), 'it imports the package export');
  assert.ok(expect.length >= 4);
  const n = await keyedNode();
  // Inside the repository (so tsx and the client's imports resolve), removed afterwards.
  const dir = mkdtempSync(join(ROOT, 'test/client/.readme-'));
  try {
    const file = join(dir, 'walkthrough.ts');
    writeFileSync(file, code.replace("from 'loam/client'", `from ${JSON.stringify(join(ROOT, 'src/client/index.ts'))}`));
    const out = await new Promise<string>((resolve, reject) => {
      const p = spawn(process.execPath, ['--import', 'tsx', file], { cwd: ROOT, env: { ...process.env, LOAM_URL: n.url, LOAM_KEY: n.admin }, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      p.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      p.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      const t = setTimeout(() => p.kill('SIGKILL'), RUN_DEADLINE_MS);
      p.on('exit', (c) => {
        clearTimeout(t);
        if (c === 0) resolve(stdout);
        else reject(new Error(`the walk-through exited ${c}: ${stderr}`));
      });
    });
    assert.deepEqual(out.trimEnd().split('\n'), expect);
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await n.close();
  }
});

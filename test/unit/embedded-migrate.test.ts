// Nodes of one host starting together open one fresh metastore file at the same moment: each
// must find the schema made exactly once (a second run of migration 1 failed with "table
// counters already exists", and that node exited before listening).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PROCESSES = 6;
const ROOT = new URL('../..', import.meta.url).pathname;
const OPEN_DEADLINE_MS = 60_000;

test(`${PROCESSES} processes opening one fresh embedded metastore at once all start, on one schema`, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loam-migrate-'));
  try {
    const db = join(dir, 'meta.db');
    const go = join(dir, 'go');
    // Each process loads everything first, then waits for the go file, so the opens collide.
    const script = `
      import { existsSync } from 'node:fs';
      import { openEmbedded } from ${JSON.stringify(join(ROOT, 'src/meta/backends/embedded/index.ts'))};
      const until = Date.now() + ${OPEN_DEADLINE_MS};
      process.stdout.write('ready\\n');
      while (!existsSync(${JSON.stringify(go)})) { if (Date.now() > until) process.exit(3); await new Promise((r) => setTimeout(r, 2)); }
      const s = openEmbedded({ path: ${JSON.stringify(db)} });
      const ns = await s.createNamespace({ org: 'o', name: 'n' + process.pid });
      process.stdout.write('ns ' + ns.id + '\\n');
      await s.close();`;
    const runs = Array.from({ length: PROCESSES }, () => {
      const p = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      p.stdout.on('data', (b: Buffer) => (out += b));
      p.stderr.on('data', (b: Buffer) => (err += b));
      const ready = new Promise<void>((r) => p.stdout.on('data', () => out.includes('ready') && r()));
      const exited = new Promise<{ code: number | null; out: string; err: string }>((r) => p.on('exit', (code) => r({ code, out, err })));
      return { ready, exited };
    });
    await Promise.all(runs.map((r) => r.ready));
    writeFileSync(go, '');
    const results = await Promise.all(runs.map((r) => r.exited));
    for (const r of results) assert.equal(r.code, 0, `a process failed to open the metastore: ${r.err.split('\n').find((l) => /Error/.test(l)) ?? r.err.trim().slice(-300)}`);
    const ids = results.map((r) => Number(/ns (\d+)/.exec(r.out)?.[1])).sort((a, b) => a - b);
    assert.equal(new Set(ids).size, PROCESSES, `every process created its own namespace: ${ids.join(', ')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

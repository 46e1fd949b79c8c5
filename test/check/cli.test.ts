// The CLI end to end: `node --import tsx src/check/cli.ts FILE --model NAME`, its output and
// its exit codes (0 linearizable, 1 not linearizable, 3 unknown, 2 bad input).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { HistoryBuilder } from './helpers.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), 'loam-check-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Every child gets a deadline, so a hung CLI fails the test instead of the run. */
const CHILD_TIMEOUT_MS = 30_000;

function run(args: string[], stdin?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/check/cli.ts', ...args], {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: CHILD_TIMEOUT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

function file(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

const good = new HistoryBuilder()
  .call(1, 'casPointer', { key: 'k', expectedVersion: null, value: 'a' }, { version: 1 })
  .invoke(1, 'casPointer', { key: 'k', expectedVersion: 1, value: 'b' })
  .call(2, 'pointer', { key: 'k' }, { version: 2, value: 'b' })
  .ok(1, 'casPointer', { version: 2 })
  .text();

const lostCas = new HistoryBuilder()
  .call(1, 'casPointer', { key: 'k', expectedVersion: null, value: 'a' }, { version: 1 })
  .invoke(1, 'casPointer', { key: 'k', expectedVersion: 1, value: 'b' })
  .invoke(2, 'casPointer', { key: 'k', expectedVersion: 1, value: 'c' })
  .ok(1, 'casPointer', { version: 2 })
  .ok(2, 'casPointer', { version: 2 })
  .text();

function hard(writers: number): string {
  const h = new HistoryBuilder();
  for (let p = 0; p < writers; p++) h.invoke(p, 'write', { value: p });
  h.invoke(100, 'read', {});
  for (let p = 0; p < writers; p++) h.ok(p, 'write');
  return h.ok(100, 'read', -1).text();
}

test('cli: a linearizable history prints "linearizable" and exits 0', async () => {
  const r = await run([file('good.jsonl', good), '--model', 'pointer']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.split('\n')[0], 'linearizable');
  assert.match(r.stdout, /2 operations|3 operations/);
});

test('cli: a violation prints "not linearizable" with the failing window and exits 1', async () => {
  const r = await run([file('lost.jsonl', lostCas), '--model', 'pointer']);
  assert.equal(r.code, 1, r.stderr);
  const lines = r.stdout.split('\n');
  assert.equal(lines[0], 'not linearizable');
  assert.match(r.stdout, /longest linearizable prefix: 2 of 3 steps/);
  assert.match(r.stdout, /could not be placed next/);
  assert.match(r.stdout, /line 4 {2}process 2 {2}casPointer .* -> ok \{"version":2\}/);
  assert.match(r.stdout, /why: cas expected version 1, but the pointer is \{"version":2,"value":"b"\}/);
});

test('cli: an exhausted budget prints "unknown" and exits 3', async () => {
  const path = file('hard.jsonl', hard(24));
  const bySteps = await run([path, '--model', 'register', '--max-steps', '100']);
  assert.equal(bySteps.code, 3, bySteps.stderr);
  assert.equal(bySteps.stdout.split('\n')[0], 'unknown');
  assert.match(bySteps.stdout, /step budget ran out/);
  const byTime = await run([path, '--model', 'register', '--budget-ms', '200']);
  assert.equal(byTime.code, 3, byTime.stderr);
  assert.match(byTime.stdout, /^unknown\n.*time budget ran out/);
});

test('cli: bad input exits 2 with a clear message', async () => {
  const malformed = await run([file('bad.jsonl', '{"process":1,"type":"ok","op":"read","result":1,"time":0}\n'), '--model', 'register']);
  assert.equal(malformed.code, 2);
  assert.match(malformed.stderr, /bad input: line 1: "ok" of read on process 1 without an invocation/);
  assert.equal(malformed.stdout, '');
  const model = await run([file('good2.jsonl', good), '--model', 'nope']);
  assert.equal(model.code, 2);
  assert.match(model.stderr, /unknown model "nope"; known models: register, pointer/);
  const missing = await run([join(dir, 'absent.jsonl'), '--model', 'register']);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /ENOENT/);
  const noModel = await run([join(dir, 'good.jsonl')]);
  assert.equal(noModel.code, 2);
  assert.match(noModel.stderr, /--model/);
  const badBudget = await run([join(dir, 'good.jsonl'), '--model', 'pointer', '--budget-ms', 'soon']);
  assert.equal(badBudget.code, 2);
});

test('cli: --help lists the models and the history format and exits 0', async () => {
  const r = await run(['--help']);
  assert.equal(r.code, 0);
  for (const m of ['register', 'pointer', 'lease', 'log', 'names', 'collectionHead']) assert.match(r.stdout, new RegExp(`^  ${m}: `, 'm'));
  assert.match(r.stdout, /"type": "invoke"/);
  assert.match(r.stdout, /casPointer \{ns\?, key, expectedVersion/);
  assert.match(r.stdout, /Exit codes: 0 linearizable, 1 not linearizable, 3 unknown/);
});

test('cli: --json prints the result object; "-" reads standard input', async () => {
  const r = await run(['-', '--model', 'pointer', '--json'], lostCas);
  assert.equal(r.code, 1, r.stderr);
  const out = JSON.parse(r.stdout) as { verdict: string; violation: { unplaced: { op: { line: number } }[] } };
  assert.equal(out.verdict, 'not linearizable');
  assert.equal(out.violation.unplaced[0]!.op.line, 4); // the invocation's line
});

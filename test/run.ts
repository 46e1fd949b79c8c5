// The test runner behind every `npm test` / `npm run test:*` script.
// It runs test files with node:test (the TypeScript loader is inherited by the
// child processes), prints the spec reporter's per-case list and ends with the
// summary line `N passed, N failed, N skipped` that every test script promises.
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { Command } from 'commander';

const ROOT = new URL('..', import.meta.url).pathname;
const SUITES: Record<string, string> = {
  conformance: 'test/conformance',
  linearizability: 'test/linearizability',
  faults: 'test/faults',
  store: 'test/store',
  unit: 'test/unit',
};

function testFiles(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(join(ROOT, dir), { recursive: true }) as string[];
  } catch {
    return [];
  }
  return entries
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => join(ROOT, dir, f))
    .sort();
}

const program = new Command()
  .name('test/run.ts')
  .description('Run Loam test suites and print a per-case list and a summary line.')
  .argument('[suites...]', `suites to run: ${Object.keys(SUITES).join(', ')} or all`, ['all'])
  .option('--backend <name>', 'metastore backend under test (sets LOAM_TEST_BACKEND)')
  .option('--bless', 'rewrite blessed expectation files instead of comparing (sets LOAM_BLESS=1)')
  .option('--concurrency <n>', 'test files run at once', '1')
  .parse();

const opts = program.opts<{ backend?: string; bless?: boolean; concurrency: string }>();
const names = program.args.length === 0 || program.args.includes('all') ? Object.keys(SUITES) : program.args;
for (const n of names) {
  if (!(n in SUITES)) {
    console.error(`unknown suite "${n}"; expected one of: ${Object.keys(SUITES).join(', ')}, all`);
    process.exit(2);
  }
}
if (opts.backend) process.env.LOAM_TEST_BACKEND = opts.backend;
if (opts.bless) process.env.LOAM_BLESS = '1';

const files = names.flatMap((n) => testFiles(SUITES[n]!));
if (files.length === 0) {
  console.error(`no test files found for: ${names.join(', ')}`);
  process.exit(2);
}
console.log(`running ${files.length} file(s): ${files.map((f) => relative(ROOT, f)).join(', ')}`);

const started = Date.now();
let passed = 0;
let failed = 0;
let skipped = 0;
const stream = run({ files, concurrency: Number(opts.concurrency) });
stream.on('test:pass', (d: { skip?: unknown; todo?: unknown; details?: { type?: string } }) => {
  if (d.details?.type === 'suite') return;
  if (d.skip !== undefined || d.todo !== undefined) skipped++;
  else passed++;
});
stream.on('test:fail', (d: { details?: { type?: string; error?: { failureType?: string } } }) => {
  // A suite that fails only because a case inside it failed is not a case of its own;
  // a file that fails to load is.
  if (d.details?.type === 'suite' && d.details.error?.failureType === 'subtestsFailed') return;
  failed++;
});
const out = stream.compose(new spec());
out.pipe(process.stdout, { end: false });
out.on('end', () => {
  const secs = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`suites ${names.join(', ')} took ${secs} s`);
  console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exitCode = failed > 0 ? 1 : 0;
});

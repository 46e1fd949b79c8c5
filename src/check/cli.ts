// `npm run check-history -- FILE --model NAME [--budget-ms N]`
// Prints `linearizable`, `not linearizable` (with the failing window) or `unknown`.
// Exit codes: 0 linearizable, 1 not linearizable, 3 unknown, 2 bad input.
import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError } from 'commander';
import { checkHistory, DEFAULT_BUDGET_MS, DEFAULT_MAX_STEPS, type CheckResult } from './check.js';
import { HistoryError } from './history.js';
import { createModel, MODELS, MODEL_NAMES } from './models/index.js';
import { formatResult } from './report.js';

export const EXIT = { linearizable: 0, 'not linearizable': 1, badInput: 2, unknown: 3 } as const;

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a positive integer');
  return n;
}

function modelsHelp(): string {
  const lines: string[] = ['Models and their ops (args -> ok result; see src/check/README.md):'];
  for (const name of MODEL_NAMES) {
    const m = createModel(name);
    lines.push(`  ${name}: ${MODELS[name]!.summary}`);
    if (name === 'meta') {
      lines.push(`      ops: ${[...m.handlers.keys()].join(', ')}`);
      continue;
    }
    for (const h of m.handlers.values()) lines.push(`      ${h.name} ${h.doc.args} -> ${h.doc.ok}`);
  }
  return lines.join('\n');
}

const FORMAT_HELP = `
History format: JSON lines, one event per line (blank lines and # comments skipped):
  {"process": 1, "type": "invoke", "op": "casPointer", "args": {...}, "time": 100}
  {"process": 1, "type": "ok",     "op": "casPointer", "result": {...}, "time": 105}
  type: invoke | ok (applied, with its result) | fail (definitely not applied; result is
  the error {code, details?}) | info (outcome unknown: may take effect at any point after
  the invocation, or never). A completion matches its process's pending invocation; an
  invocation still pending at the end counts as info. Times are numbers, any unit.

Exit codes: 0 linearizable, 1 not linearizable, 3 unknown (budget exhausted), 2 bad input.
`;

function main(argv: string[]): number {
  const program = new Command()
    .name('check-history')
    .description('Check a recorded history for linearizability against a sequential model (Wing–Gong/Lowe search, P-compositional).')
    .argument('<file>', 'the history: JSON lines ("-" reads standard input)')
    .requiredOption('--model <name>', `the sequential model: ${MODEL_NAMES.join(', ')}`)
    .option('--budget-ms <n>', 'give up with "unknown" after this many milliseconds', positiveInt, DEFAULT_BUDGET_MS)
    .option('--max-steps <n>', 'give up with "unknown" after this many model steps', positiveInt, DEFAULT_MAX_STEPS)
    .option('--window <n>', 'operations of the longest linearizable prefix to show', positiveInt, 6)
    .option('--json', 'print the result as one JSON object instead of text')
    .addHelpText('after', () => `${FORMAT_HELP}\n${modelsHelp()}\n`)
    .exitOverride()
    .showHelpAfterError('(run with --help for the history format and the models)');
  try {
    program.parse(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? 0 : EXIT.badInput;
    throw e;
  }
  const [file] = program.args as [string];
  const opts = program.opts<{ model: string; budgetMs: number; maxSteps: number; window: number; json?: boolean }>();
  let result: CheckResult;
  try {
    const text = file === '-' ? readFileSync(0, 'utf8') : readFileSync(file, 'utf8');
    result = checkHistory(text, opts.model, { budgetMs: opts.budgetMs, maxSteps: opts.maxSteps, window: opts.window });
  } catch (e) {
    if (e instanceof HistoryError || (e as NodeJS.ErrnoException).code === 'ENOENT' || (e as NodeJS.ErrnoException).code === 'EISDIR') {
      process.stderr.write(`check-history: bad input: ${(e as Error).message}\n`);
      return EXIT.badInput;
    }
    throw e;
  }
  process.stdout.write(`${opts.json ? JSON.stringify(result) : formatResult(result)}\n`);
  return EXIT[result.verdict];
}

process.exitCode = main(process.argv.slice(2));

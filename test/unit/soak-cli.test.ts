// `npm run soak`'s own options are validated before anything starts: a clear message on
// stderr naming the option, exit status 2.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const ROOT = new URL('../..', import.meta.url).pathname;
const soak = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', 'test/soak/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });

for (const [args, message] of [
  [['--backend', 'mongo', '--minutes', '1'], /unknown backend "mongo"; expected one of: embedded, postgres, dynamodb/],
  [['--backend', 'postgres', '--minutes', '0'], /--minutes must be a number > 0; got "0"/],
  [['--backend', 'postgres', '--minutes', '-3'], /--minutes must be a number > 0; got "-3"/],
  [['--backend', 'postgres', '--minutes', 'ten'], /--minutes must be a number > 0; got "ten"/],
  [['--backend', 'embedded', '--minutes', '1', '--nodes', '1'], /--nodes must be at least 2/],
  [['--minutes', '1'], /required option '--backend <name>'/],
] as const) {
  test(`npm run soak -- ${args.join(' ')}: exit 2 and a clear message`, () => {
    const r = soak(...args);
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, message);
  });
}

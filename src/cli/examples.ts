// An example for the `--help` of every command that does not carry its own (the data
// commands do, in ./data.ts): `loam <command> --help` ends with it.
import type { Command } from 'commander';

/** Command path → an example of it. */
export const EXAMPLES: Readonly<Record<string, string>> = {
  '': 'loam dev   (then: loam namespaces create demo; loam <command> --help)',
  serve: 'loam serve --config loam.json --port 8080',
  'config-check': 'LOAM_PORT=8080 loam config-check --config loam.json',
  orgs: 'loam orgs create acme --config loam.json',
  'orgs create': 'loam orgs create acme --config loam.json',
  'orgs list': 'loam orgs list --data-dir ./.loam',
  keys: 'loam keys list --org acme',
  'keys create': 'loam keys create --org acme --role writer --namespace demo --ttl 86400',
  'keys list': 'loam keys list --org acme --config loam.json',
  'keys revoke': 'loam keys revoke 0123456789abcdef --org acme',
  roles: 'loam roles grant 0123456789abcdef --org acme --role reader --namespace demo',
  'roles grant': 'loam roles grant 0123456789abcdef --org acme --role reader --namespace demo',
  'roles revoke': 'loam roles revoke 0123456789abcdef --org acme --role reader --namespace demo',
  quotas: 'loam quotas show --org acme',
  'quotas show': 'loam quotas show --org acme --namespace demo',
  'quotas set': 'loam quotas set request_rate 50 --org acme --namespace demo',
  usage: 'loam usage --org acme --metric requests --since 1767225600000',
  'shards list': 'loam shards list --config loam.json --output json',
  'control-plane': 'loam control-plane --config control-plane.json',
  'clusters create': 'loam clusters create acme-prod --config control-plane.json',
  'clusters list': 'loam clusters list --config control-plane.json',
  'clusters keys': 'loam clusters keys list acme-prod --config control-plane.json',
  'clusters keys create': 'loam clusters keys create acme-prod --config control-plane.json',
  'clusters keys list': 'loam clusters keys list acme-prod --config control-plane.json',
  'clusters keys revoke': 'loam clusters keys revoke acme-prod 0123456789abcdef --config control-plane.json',
};

function hasExample(c: Command): boolean {
  let out = '';
  const saved = c.configureOutput();
  c.configureOutput({ ...saved, writeOut: (s) => (out += s) });
  c.outputHelp();
  c.configureOutput(saved);
  return /\nExample:\n/.test(out);
}

/** Adds EXAMPLES to the commands (and the program) whose help has none yet. */
export function addExamples(p: Command): void {
  const walk = (c: Command, path: string[]): void => {
    const example = EXAMPLES[path.join(' ')];
    if (example !== undefined && !hasExample(c)) c.addHelpText('after', `\nExample:\n  ${example}\n`);
    for (const s of c.commands) walk(s, [...path, s.name()]);
  };
  walk(p, []);
}

// `npm run soak -- --backend postgres|dynamodb|embedded --minutes N [--seed S] [--nodes K]`:
// one soak (test/soak/soak.ts) with its services started here (Postgres, DynamoDB Local,
// MinIO, Toxiproxy). Prints the schedule and the table; exits 0 when nothing was lost or
// duplicated and no node got stuck, 1 otherwise, 2 on bad options.
import { Command, InvalidArgumentError } from 'commander';
import { DEFAULT_CLIENTS, DEFAULT_NODES, SOAK_BACKENDS, type SoakBackend } from './backends.js';

/** A soak longer than a day is a mistake, not a soak. */
export const MAX_SOAK_MINUTES = 24 * 60;
export const MAX_NODES = 8;
export const MAX_CLIENTS = 64;

function positiveInt(name: string, max: number) {
  return (v: string) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 1 || n > max) throw new InvalidArgumentError(`${name} must be an integer in 1..${max}`);
    return n;
  };
}

const program = new Command()
  .name('npm run soak --')
  .description('Run a soak: loam serve nodes on one metastore and one bucket under Toxiproxy faults and SIGKILLs, then check that nothing was lost or duplicated.')
  .requiredOption('--backend <name>', `metastore backend: ${SOAK_BACKENDS.join(', ')}`)
  .requiredOption('--minutes <n>', 'how long the faults run (a number > 0; fractions allowed)')
  .option('--seed <n>', 'the schedule\'s seed (default: drawn and printed)', positiveInt('--seed', 2 ** 31 - 1))
  .option('--nodes <n>', `loam serve nodes (at least 2)`, positiveInt('--nodes', MAX_NODES), DEFAULT_NODES)
  .option('--clients <n>', 'concurrent writing clients', positiveInt('--clients', MAX_CLIENTS), DEFAULT_CLIENTS)
  .addHelpText('after', '\nExample:\n  npm run soak -- --backend postgres --minutes 10 --seed 7\n')
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse();

const o = program.opts<{ backend: string; minutes: string; seed?: number; nodes: number; clients: number }>();
function usage(message: string): never {
  console.error(`soak: ${message}`);
  process.exit(2);
}
if (!(SOAK_BACKENDS as readonly string[]).includes(o.backend)) usage(`unknown backend "${o.backend}"; expected one of: ${SOAK_BACKENDS.join(', ')}`);
const minutes = Number(o.minutes);
if (!/^\d*\.?\d+$/.test(o.minutes.trim()) || !(minutes > 0)) usage(`--minutes must be a number > 0; got "${o.minutes}"`);
if (minutes > MAX_SOAK_MINUTES) usage(`--minutes must be at most ${MAX_SOAK_MINUTES}; got ${minutes}`);
if (o.nodes < 2) usage('--nodes must be at least 2 (a cluster)');
const seed = o.seed ?? Math.floor(Math.random() * 2 ** 31);

const started = Date.now();
try {
  // Loaded only once the options are valid (it pulls in the node and the SDKs).
  const { runSoak } = await import('./soak.js');
  const r = await runSoak({ backend: o.backend as SoakBackend, durationMs: Math.round(minutes * 60_000), seed, nodes: o.nodes, clients: o.clients });
  console.log(`soak took ${((Date.now() - started) / 1000).toFixed(1)} s; ${r.ok ? 'PASS' : 'FAIL'} (rerun: npm run soak -- --backend ${o.backend} --minutes ${minutes} --seed ${seed})`);
  process.exit(r.ok ? 0 : 1);
} catch (e) {
  console.error(`soak failed: ${(e as Error).stack ?? String(e)}`);
  process.exit(1);
}

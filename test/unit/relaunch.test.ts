// The server commands relaunch themselves once with glibc's allocator tuned (src/cli/relaunch.mjs,
// issue 14 item 9): the server gets the settings the user left unset, keeps the ones they set,
// can opt out, gets the launcher's signals, and does not outlive its launcher.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { MALLOC_TUNING, MALLOC_TUNING_ENV, isGlibc, relaunchEnv } from '../../src/cli/relaunch.mjs';
import { MALLOC_TUNING_ENV as TRIM_SWITCH } from '../../src/node/malloc-trim.js';

const FIXTURE = new URL('./fixtures/relaunched.mjs', import.meta.url).pathname;
/** How long a started or signalled process may take (a loaded 2-core machine). */
const DEADLINE_MS = 10_000;

/** The environment without any allocator setting or opt-out. */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith('MALLOC_') && k !== MALLOC_TUNING_ENV) env[k] = v;
  return { ...env, ...extra };
}

async function start(env: Record<string, string>): Promise<{ proc: ChildProcess; server: { pid: number; env: Record<string, string> } }> {
  const proc = spawn(process.execPath, [FIXTURE, 'dev'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const server = await new Promise<{ pid: number; env: Record<string, string> }>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('the server did not start')), DEADLINE_MS);
    proc.stdout!.on('data', (b: Buffer) => {
      out += b.toString();
      const nl = out.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(t);
        resolve(JSON.parse(out.slice(0, nl)) as { pid: number; env: Record<string, string> });
      }
    });
  });
  return { proc, server };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function gone(pid: number): Promise<boolean> {
  const deadline = Date.now() + DEADLINE_MS;
  while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  return !alive(pid);
}

test('only server commands are relaunched, only on glibc, only while a setting is missing, unless opted out', () => {
  assert.deepEqual(relaunchEnv(['dev'], { PATH: '/bin' }, true), { PATH: '/bin', ...MALLOC_TUNING });
  assert.equal(relaunchEnv(['serve', '--config', 'x'], {}, true)?.MALLOC_ARENA_MAX, MALLOC_TUNING.MALLOC_ARENA_MAX);
  assert.equal(relaunchEnv(['keys', 'create'], {}, true), null, 'a client command runs as it is');
  assert.equal(relaunchEnv([], {}, true), null);
  assert.equal(relaunchEnv(['dev'], {}, false), null, 'not glibc: the variables mean nothing');
  assert.equal(relaunchEnv(['dev'], { [MALLOC_TUNING_ENV]: 'off' }, true), null, 'opted out');
  assert.equal(relaunchEnv(['dev'], { ...MALLOC_TUNING }, true), null, 'all set (by the user, or by the relaunch itself)');
  assert.deepEqual(relaunchEnv(['dev'], { MALLOC_ARENA_MAX: '4' }, true), { ...MALLOC_TUNING, MALLOC_ARENA_MAX: '4' }, "the user's own value is kept");
  assert.equal(TRIM_SWITCH, MALLOC_TUNING_ENV, 'one switch turns off the relaunch and the idle trim');
});

test('the relaunched server has the settings, gets the launcher\'s SIGTERM, and the launcher exits with its status', { skip: !isGlibc() && 'not glibc' }, async () => {
  const { proc, server } = await start(cleanEnv({ MALLOC_ARENA_MAX: '4' }));
  try {
    assert.deepEqual(server.env, { ...MALLOC_TUNING, MALLOC_ARENA_MAX: '4' });
    const exited = once(proc, 'exit');
    proc.kill('SIGTERM');
    const [code] = (await exited) as [number | null];
    assert.equal(code, 3, "the launcher exits with the server's status");
    assert.ok(await gone(server.pid), 'the server stopped');
  } finally {
    proc.kill('SIGKILL');
  }
});

test('a server does not outlive a launcher killed with SIGKILL; opting out runs in one process, untuned', { skip: !isGlibc() && 'not glibc' }, async () => {
  const { proc, server } = await start(cleanEnv());
  try {
    proc.kill('SIGKILL');
    assert.ok(await gone(server.pid), 'the server died with its launcher');
  } finally {
    if (alive(server.pid)) process.kill(server.pid, 'SIGKILL');
  }
  const off = await start(cleanEnv({ [MALLOC_TUNING_ENV]: 'off' }));
  try {
    assert.equal(off.server.pid, off.proc.pid, 'no second process');
    assert.deepEqual(off.server.env, {});
  } finally {
    off.proc.kill('SIGKILL');
  }
});

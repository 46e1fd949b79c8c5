// The server commands (`loam dev`, `loam serve`) run with glibc's allocator tuned for a
// long-lived multi-threaded process (issue 14 item 9, docs/operations.md "Sizing a node's
// memory"). glibc reads these variables only when a process starts, so the launcher starts
// the server again, once, with the missing ones set:
//
// - MALLOC_ARENA_MAX: glibc gives every thread that allocates its own arena (up to 8 per
//   core); the node has a main thread, a worker thread and libuv's pool, and each arena keeps
//   the free memory of its own burst. Two arenas share that slack.
// - MALLOC_MMAP_THRESHOLD_: allocations from this size up are mapped on their own and
//   unmapped when freed. Setting it also fixes it: by default glibc raises the threshold to
//   the size of every mapped block it frees (up to 32 MiB), after which a WAL object's or a
//   data file's buffers come from the arenas and stay there.
// - MALLOC_TRIM_THRESHOLD_: free memory at the top of an arena beyond this goes back to the
//   system at once.
//
// Plain JavaScript: it runs before the TypeScript loader, so the launcher stays small.
import { spawn } from 'node:child_process';
import { Socket } from 'node:net';
import { MALLOC_TUNING_ENV, isGlibc, mallocTuningOff } from '../node/glibc.mjs';

// `LOAM_MALLOC_TUNING=off` runs the server in this process, with the environment as it is.
export { MALLOC_TUNING_ENV, isGlibc };
/** What the launcher sets where the environment does not already say. */
export const MALLOC_TUNING = Object.freeze({
  MALLOC_ARENA_MAX: '2',
  MALLOC_MMAP_THRESHOLD_: '131072',
  MALLOC_TRIM_THRESHOLD_: '131072',
});
/** The commands that run a server (and so are relaunched). */
export const SERVER_COMMANDS = Object.freeze(['dev', 'serve']);
/** Set in the relaunched server: the file descriptor of a pipe whose end means the launcher is gone. */
export const LAUNCHER_FD_ENV = 'LOAM_LAUNCHER_FD';
/** Signals the launcher passes on to the server (it is in a session of its own, see below). */
export const FORWARDED_SIGNALS = Object.freeze(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT', 'SIGUSR2']);

/**
 * The environment to relaunch with, or null to run here: not a server command, opted out,
 * not glibc, or every variable already set (by the user, or by an earlier relaunch).
 * @param {readonly string[]} args the command line after the script (process.argv.slice(2))
 * @param {Record<string, string | undefined>} env
 * @param {boolean} glibc
 * @returns {Record<string, string> | null}
 */
export function relaunchEnv(args, env, glibc) {
  if (!SERVER_COMMANDS.includes(args[0] ?? '')) return null;
  // The variables mean nothing to another C library (musl).
  if (mallocTuningOff(env) || !glibc) return null;
  const missing = Object.entries(MALLOC_TUNING).filter(([k]) => env[k] === undefined || env[k] === '');
  if (missing.length === 0) return null;
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) out[k] = v;
  for (const [k, v] of missing) out[k] = v;
  return out;
}

/**
 * Relaunches the server when relaunchEnv says so, and then returns true: the caller does
 * nothing more (the launcher exits when the server does). Returns false to run here.
 * Where Node has process.execve (22.15 and later) the process replaces itself, so there is
 * one process as before. On older Node the launcher stays as a small parent (a few MiB of its
 * own): the server runs in a session of its own so that a terminal's Ctrl-C reaches it once,
 * through the launcher; the launcher passes on signals, exits with the server's status, and
 * when the launcher dies (even by SIGKILL) the server sees its pipe close and dies too.
 */
export function relaunchIfNeeded() {
  const env = relaunchEnv(process.argv.slice(2), process.env, isGlibc());
  if (!env) return false;
  const argv = [...process.execArgv, ...process.argv.slice(1)];
  const execve = /** @type {{ execve?: (file: string, args: string[], env: Record<string, string>) => never }} */ (process).execve;
  if (typeof execve === 'function') execve.call(process, process.execPath, [process.execPath, ...argv], env);
  // The handlers go first: a signal that comes while the server starts is passed on to it.
  /** @type {import('node:child_process').ChildProcess | undefined} */
  let child;
  /** @type {Map<string, () => void>} */
  const handlers = new Map();
  for (const sig of FORWARDED_SIGNALS) {
    const h = () => child?.kill(/** @type {NodeJS.Signals} */ (sig));
    handlers.set(sig, h);
    process.on(sig, h);
  }
  child = spawn(process.execPath, argv, { env: { ...env, [LAUNCHER_FD_ENV]: '3' }, stdio: ['inherit', 'inherit', 'inherit', 'pipe'], detached: true });
  child.on('error', (e) => {
    console.error(`loam: could not start the server: ${e.message}`);
    process.exit(1);
  });
  child.on('exit', (code, signal) => {
    for (const [sig, h] of handlers) process.off(sig, h);
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
  return true;
}

/** In a relaunched server: die with the launcher (its pipe closes when it exits, however it exits). */
export function watchLauncher() {
  const fd = Number(process.env[LAUNCHER_FD_ENV]);
  if (!Number.isInteger(fd) || fd < 3) return;
  delete process.env[LAUNCHER_FD_ENV];
  // A libuv pipe handle (not an fs stream, which would hold a threadpool thread in read(2)).
  const pipe = new Socket({ fd, readable: true, writable: false });
  pipe.on('data', () => undefined);
  pipe.on('error', () => undefined);
  pipe.on('close', () => process.kill(process.pid, 'SIGKILL'));
  pipe.unref();
}

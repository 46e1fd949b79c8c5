// What the node's memory tuning needs to know about the C library (issue 14 item 9): the
// allocator settings of the server's launcher (src/cli/relaunch.mjs) and the idle trim
// (./malloc-trim.ts) exist for glibc only, and one switch turns both off.
//
// Plain JavaScript: the launcher runs before the TypeScript loader.

/** `LOAM_MALLOC_TUNING=off`: no relaunch with tuned allocator settings, no idle trim. */
export const MALLOC_TUNING_ENV = 'LOAM_MALLOC_TUNING';

/**
 * Whether the user opted out of the allocator tuning.
 * @param {Record<string, string | undefined>} env
 */
export function mallocTuningOff(env) {
  return (env[MALLOC_TUNING_ENV] ?? '').toLowerCase() === 'off';
}

/** Whether this process's C library is glibc (Node's diagnostic report names its version only there). */
export function isGlibc() {
  if (process.platform !== 'linux') return false;
  const header = /** @type {{ header?: { glibcVersionRuntime?: string } }} */ (process.report?.getReport() ?? {}).header;
  return typeof header?.glibcVersionRuntime === 'string';
}

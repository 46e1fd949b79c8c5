// loam dev's data directory: made if missing, one component at a time. Not
// mkdirSync({ recursive: true }): on some paths (under /proc) Node's recursive mkdir never
// returns. A path that is not a directory, or cannot be made, is a ConfigError naming it.
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ConfigError } from '../node/config-error.js';

/** Path components made at most (a path deeper than this is refused, not walked). */
export const MAX_DATA_DIR_DEPTH = 64;

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

function isDirectory(p: string): boolean | null {
  try {
    return statSync(p).isDirectory();
  } catch (e) {
    // Missing, or under a file (ENOTDIR): the walk up finds which.
    if (codeOf(e) === 'ENOENT' || codeOf(e) === 'ENOTDIR') return null;
    throw new ConfigError('--data-dir', `${p} cannot be read (${codeOf(e)})`);
  }
}

/** Makes `dir` and `dir/<sub>` for each of `subs` if missing. */
export function prepareDataDir(dir: string, subs: readonly string[]): void {
  const missing: string[] = [];
  let p = resolve(dir);
  for (let depth = 0; ; depth++) {
    if (depth >= MAX_DATA_DIR_DEPTH) throw new ConfigError('--data-dir', `${dir} is more than ${MAX_DATA_DIR_DEPTH} directories deep`);
    const here = isDirectory(p);
    if (here === false) throw new ConfigError('--data-dir', `${dir}: ${p} is not a directory`);
    if (here === true) break;
    missing.unshift(p);
    const up = dirname(p);
    if (up === p) break;
    p = up;
  }
  for (const d of [...missing, ...subs.map((s) => resolve(dir, s))]) {
    try {
      mkdirSync(d);
    } catch (e) {
      if (codeOf(e) === 'EEXIST' && isDirectory(d)) continue;
      throw new ConfigError('--data-dir', `${dir}: cannot make ${d} (${codeOf(e)})`);
    }
  }
}

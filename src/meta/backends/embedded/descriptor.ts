// The embedded backend's registry entry: sqlite: URLs.
//   sqlite:/abs/path/meta.db             a file (relative paths: from the cwd)
//   sqlite:///abs/path/meta.db           the same, as a file URL
//   sqlite::memory:                      in memory (nothing survives the process)
//   ...?synchronous=FULL|NORMAL          FULL (default) fsyncs every commit; NORMAL may lose
//                                        the last commits on power loss (not on a crash)
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BackendDescriptor } from '../descriptor.js';
import { openEmbedded } from './index.js';

export function embeddedPathFromUrl(url: string): { path: string; synchronous: 'FULL' | 'NORMAL' } {
  let path = url.slice('sqlite:'.length);
  let synchronous: 'FULL' | 'NORMAL' = 'FULL';
  const q = path.indexOf('?');
  if (q >= 0) {
    const params = new URLSearchParams(path.slice(q + 1));
    path = path.slice(0, q);
    for (const [k, v] of params) {
      if (k !== 'synchronous' || (v !== 'FULL' && v !== 'NORMAL')) {
        throw new Error(`sqlite: takes only ?synchronous=FULL|NORMAL; got ${k}=${v}`);
      }
      synchronous = v;
    }
  }
  if (path.startsWith('//')) {
    try {
      path = fileURLToPath(`file:${path}`);
    } catch {
      throw new Error(`${url} is not a sqlite: URL (sqlite:/abs/path.db or sqlite::memory:)`);
    }
  }
  if (path === '') throw new Error('sqlite: needs a path (sqlite:/abs/path.db or sqlite::memory:)');
  return { path: path === ':memory:' ? ':memory:' : resolve(path), synchronous };
}

/**
 * Why the metastore file cannot be made or opened where it is, or null: its directory must
 * exist (the node makes the file, never the directories above it). Changes nothing.
 */
export function embeddedFileProblem(path: string): string | null {
  if (path === ':memory:') return null;
  const dir = dirname(path);
  let isDir: boolean;
  try {
    isDir = statSync(dir).isDirectory();
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') return `cannot open the file ${path}: its directory ${dir} cannot be read (${code ?? (e as Error).message})`;
    isDir = false;
  }
  return isDir ? null : `cannot open the file ${path}: its directory ${dir} does not exist; create it, or name a file in an existing directory`;
}

export const embeddedDescriptor: BackendDescriptor = {
  name: 'embedded',
  schemes: ['sqlite:'],
  urlForm: 'sqlite:/abs/path.db[?synchronous=FULL|NORMAL] or sqlite::memory:',
  parse(url) {
    embeddedPathFromUrl(url);
  },
  preflight(url) {
    const problem = embeddedFileProblem(embeddedPathFromUrl(url).path);
    if (problem) throw new Error(problem);
  },
  async open(url) {
    const opts = embeddedPathFromUrl(url);
    const problem = embeddedFileProblem(opts.path);
    if (problem) throw new Error(problem);
    let meta: ReturnType<typeof openEmbedded>;
    try {
      meta = openEmbedded(opts);
    } catch (e) {
      // SQLite's own words name no file ("unable to open database file").
      throw new Error(`cannot open the file ${opts.path}: ${(e as Error).message}`);
    }
    return { meta, connection: { kind: 'sqlite', db: meta.db }, backend: 'embedded' };
  },
  async provision(url) {
    const { path } = embeddedPathFromUrl(url);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  },
};

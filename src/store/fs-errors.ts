// Filesystem errors and small filesystem steps shared by the file store and its key locks.
import { promises as fsp } from 'node:fs';
import { StoreError, storeErrors } from './errors.js';

export function errnoOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e ? String((e as { code: unknown }).code) : undefined;
}

/** Map a filesystem error the caller did not expect into a StoreError. */
export function fsError(e: unknown, path: string | undefined, op: string): StoreError {
  if (e instanceof StoreError) return e;
  const code = errnoOf(e);
  const where = path === undefined ? op : `${op} ${path}`;
  switch (code) {
    case 'ENOENT':
      return path === undefined ? storeErrors.internal(`${where}: ${String(e)}`, {}, e) : storeErrors.notFound(path, e);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return storeErrors.permissionDenied(path, `${where}: permission denied (${code})`, e);
    case 'EMFILE':
    case 'ENFILE':
    case 'EAGAIN':
    case 'EBUSY':
    case 'EINTR':
      return storeErrors.retryable('busy', `${where}: ${code}`, path === undefined ? {} : { path }, e);
    case 'ENAMETOOLONG':
      return storeErrors.invalid('path', `${where}: name too long for this filesystem`);
    default:
      return storeErrors.internal(`${where}: ${String(e)}`, path === undefined ? {} : { path, native: code }, e);
  }
}

export async function unlinkQuiet(p: string): Promise<void> {
  try {
    await fsp.unlink(p);
  } catch {
    // Already gone, or not ours to remove: nothing to do.
  }
}

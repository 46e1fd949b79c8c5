// Deleting an object for good (spec §9.9). On a bucket without versioning a plain delete
// removes the bytes; on a versioned bucket it only adds a delete marker, so every version
// and every delete marker of the path is deleted by version id, until a version listing
// shows none left. One function over the Store trait: providers stay thin.
import { storeErrors } from './errors.js';
import { LIST_PAGE_MAX, MAX_PURGE_PAGES, MAX_PURGE_ROUNDS } from './limits.js';
import type { Store } from './types.js';

/** Deletes `path` and, on a versioned bucket, every version and delete marker of it. */
export async function purge(store: Store, path: string): Promise<void> {
  if (!(await store.versioning())) {
    await store.delete(path);
    return;
  }
  for (let round = 0; round < MAX_PURGE_ROUNDS; round++) {
    let found = 0;
    let after: string | undefined;
    for (let page = 0; page < MAX_PURGE_PAGES; page++) {
      const p = await store.listVersions(path, { limit: LIST_PAGE_MAX, ...(after !== undefined ? { after } : {}) });
      for (const v of p.items) {
        if (v.path !== path) continue; // another key that starts with this path
        found++;
        await store.deleteVersion(v.path, v.versionId);
      }
      if (!p.next) break;
      after = p.next;
    }
    if (found === 0) return; // a listing shows nothing of it: gone for good
  }
  throw storeErrors.retryable('busy', `purge ${path}: versions were still listed after ${MAX_PURGE_ROUNDS} rounds`, { path });
}

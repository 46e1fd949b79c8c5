// A store that already holds data, under a metastore that never held a namespace: the metastore
// file was lost, emptied or swapped, or the store is another cluster's. Started anyway, the
// node's GC would take every object it finds there for garbage (never-committed WAL objects,
// unreferenced segments and data files) and delete it after the grace period, so the data that
// a restored metastore could still have read would be gone. Refused at start instead.
import type { MetaStore } from '../meta/contract.js';
import type { Store } from '../store/index.js';
import { WAL_PREFIX } from '../collection/paths.js';
import { redactUrl } from '../meta/url.js';
import { ConfigError } from './config-error.js';

/** The prefixes only a namespace's data is written under (not `_gc/` or `_erasure/`, which a fresh cluster writes too). */
export const DATA_PREFIXES: readonly string[] = [WAL_PREFIX, 'ns/'];

export async function refuseForeignStore(meta: MetaStore, store: Store, names: { metastore: string; store: string }): Promise<void> {
  // Read first, so the usual start (a metastore in use) lists nothing in the store.
  if ((await meta.catalogVersion()) > 0) return;
  let found: string | undefined;
  for (const prefix of DATA_PREFIXES) {
    found = (await store.list(prefix, { limit: 1 })).items[0]?.path;
    if (found) break;
  }
  // Read again: a node starting beside this one may have created a namespace and written since.
  if (!found || (await meta.catalogVersion()) > 0) return;
  throw new ConfigError(
    'metastore',
    `${redactUrl(names.metastore)} holds no namespace, but the store ${redactUrl(names.store)} already holds Loam data (${found}): it was written with another metastore, and this one would delete it as garbage. Restore the metastore it was written with, or point store at an empty location`,
  );
}

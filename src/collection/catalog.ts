// Name → id resolution for namespaces and collections, with a short-lived cache.
// The cache is a hint: a stale entry makes a write or read fail with NotFound from the
// metastore (a dropped stream or collection), never act on the wrong entity, because ids
// are never reused.
import type { MetaStore } from '../meta/contract.js';
import { isMetaError } from '../meta/errors.js';
import type { Collection, Namespace } from '../meta/types.js';
import { dataErrors } from '../log/errors.js';

/** How long a resolved name is trusted before it is read again. */
export const CATALOG_CACHE_MS = 1_000;
/** Cached names, at most. */
export const CATALOG_CACHE_ENTRIES = 10_000;
/** With authentication off (auth: none, loopback development), every request belongs to this org. */
export const DEFAULT_ORG = 'default';

interface Entry<T> {
  v: T;
  at: number;
}

export class Catalog {
  private readonly ns = new Map<string, Entry<Namespace>>();
  private readonly colls = new Map<string, Entry<Collection>>();
  constructor(readonly meta: MetaStore) {}

  private fresh<T>(m: Map<string, Entry<T>>, k: string): T | undefined {
    const e = m.get(k);
    if (e && Date.now() - e.at < CATALOG_CACHE_MS) return e.v;
    if (e) m.delete(k);
    return undefined;
  }

  private put<T>(m: Map<string, Entry<T>>, k: string, v: T): void {
    if (m.size >= CATALOG_CACHE_ENTRIES) m.clear();
    m.set(k, { v, at: Date.now() });
  }

  async namespace(org: string, name: string): Promise<Namespace> {
    const k = `${org}/${name}`;
    const hit = this.fresh(this.ns, k);
    if (hit) return hit;
    try {
      const n = await this.meta.namespaceByName(org, name);
      this.put(this.ns, k, n);
      return n;
    } catch (e) {
      if (isMetaError(e, 'NotFound') || isMetaError(e, 'InvalidArgument')) throw dataErrors.notFound(`namespace "${name}"`);
      throw e;
    }
  }

  async collection(org: string, nsName: string, name: string): Promise<Collection> {
    const n = await this.namespace(org, nsName);
    const k = `${n.id}/${name}`;
    const hit = this.fresh(this.colls, k);
    if (hit) return hit;
    try {
      const c = await this.meta.collectionByName(n.id, name);
      this.put(this.colls, k, c);
      return c;
    } catch (e) {
      if (isMetaError(e, 'NotFound') || isMetaError(e, 'InvalidArgument')) throw dataErrors.notFound(`collection "${name}" in namespace "${nsName}"`);
      throw e;
    }
  }

  /** Bumped by every invalidate(): what was derived from a resolved name is stale then. */
  generation = 0;

  /** Forget names after this node changed them (create, drop). */
  invalidate(): void {
    this.generation++;
    this.ns.clear();
    this.colls.clear();
  }
}

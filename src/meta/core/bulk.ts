// The bulk create (contract: createNamespaces), once for every caller: a backend that offers
// it creates a batch in one transaction (per shard); on one that does not, the same
// namespaces and collections are created by the single calls, in the same order, so a caller
// never needs to know which it has. Batches are cut at the contract's limits here.
import type { CreatedNamespace, CreateNamespaceWith, MetaStore } from '../contract.js';
import { MAX_BULK_COLLECTIONS, MAX_BULK_NAMESPACES } from '../limits.js';
import type { WriteContext } from '../types.js';

/** Whether a backend creates namespaces in bulk (one transaction per batch). */
export function hasBulkCreate(m: MetaStore): m is MetaStore & Required<Pick<MetaStore, 'createNamespaces'>> {
  return typeof m.createNamespaces === 'function';
}

/**
 * Creates every namespace of `reqs` with its collections, in order: by createNamespaces in
 * batches within MAX_BULK_NAMESPACES and MAX_BULK_COLLECTIONS where the backend offers it,
 * else one createNamespace and its createCollection calls at a time. A batch that fails
 * leaves the earlier batches created (each batch is all or nothing; a single call is one).
 */
export async function createNamespacesWith(m: MetaStore, reqs: readonly CreateNamespaceWith[], w?: WriteContext): Promise<CreatedNamespace[]> {
  const out: CreatedNamespace[] = [];
  if (!hasBulkCreate(m)) {
    for (const req of reqs) {
      const namespace = await m.createNamespace({ org: req.org, name: req.name, ...(req.id !== undefined ? { id: req.id } : {}) }, w);
      const collections = [];
      for (const c of req.collections ?? []) collections.push(await m.createCollection({ ...c, ns: namespace.id }, w));
      out.push({ namespace, collections });
    }
    return out;
  }
  for (const batch of batches(reqs)) out.push(...(await m.createNamespaces(batch, w)));
  return out;
}

/** `reqs` cut into runs within the bulk limits (a namespace with more collections than one batch takes fails the contract's check). */
export function batches(reqs: readonly CreateNamespaceWith[]): CreateNamespaceWith[][] {
  const out: CreateNamespaceWith[][] = [];
  let cur: CreateNamespaceWith[] = [];
  let collections = 0;
  for (const r of reqs) {
    const c = r.collections?.length ?? 0;
    if (cur.length > 0 && (cur.length >= MAX_BULK_NAMESPACES || collections + c > MAX_BULK_COLLECTIONS)) {
      out.push(cur);
      cur = [];
      collections = 0;
    }
    cur.push(r);
    collections += c;
  }
  if (cur.length > 0) out.push(cur);
  return out;
}

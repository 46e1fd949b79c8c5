// The bulk create (contract: createNamespaces), once for every caller: a backend that offers
// it creates a batch in one transaction (per shard); on one that does not, the same
// namespaces and collections are created by the single calls, in the same order, so a caller
// never needs to know which it has. Batches are cut at the contract's limits here.
import { createHash } from 'node:crypto';
import type { CreatedNamespace, CreateNamespaceWith, MetaStore } from '../contract.js';
import { MAX_BULK_COLLECTIONS, MAX_BULK_NAMESPACES, MAX_TOKEN_STRING_LENGTH } from '../limits.js';
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
    for (const [i, req] of reqs.entries()) {
      const namespace = await m.createNamespace({ org: req.org, name: req.name, ...(req.id !== undefined ? { id: req.id } : {}) }, step(w, `n${i}`));
      const collections = [];
      for (const [k, c] of (req.collections ?? []).entries()) collections.push(await m.createCollection({ ...c, ns: namespace.id }, step(w, `n${i}c${k}`)));
      out.push({ namespace, collections });
    }
    return out;
  }
  const runs = batches(reqs);
  for (const [j, batch] of runs.entries()) out.push(...(await m.createNamespaces(batch, runs.length === 1 ? w : step(w, `b${j}`))));
  return out;
}

/**
 * The write context of one step of a bulk create. Each step is a call of its own to the
 * backend, and a requestId names one call (spec §2.3: the same id with other arguments is
 * refused), so each step gets its own, derived from the caller's: a retry of the whole
 * derives the same ones and replays each step that was done.
 */
export function step(w: WriteContext | undefined, name: string): WriteContext | undefined {
  if (w?.requestId === undefined) return w;
  const fits = w.requestId.length + 1 + name.length <= MAX_TOKEN_STRING_LENGTH;
  const base = fits ? w.requestId : createHash('sha256').update(w.requestId).digest('hex');
  return { ...w, requestId: `${base}/${name}` };
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

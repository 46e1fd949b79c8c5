// The gateway decision cache (spec §7: at most 5 s): what admission decided for one key on
// one (route, namespace, collection), reused until it is older than DECISION_CACHE_MS or
// anything it was derived from changed (the generation moved). Only allows are kept; a
// refusal is decided afresh each time.
import { CATALOG_CACHE_MS } from '../collection/catalog.js';
import type { RateLimiter, SlotLimiter } from '../quota/quota.js';
import type { UsageCounter } from '../quota/usage.js';
import type { Principal } from './authorizer.js';

/**
 * An admission decision (the resolved namespace, the authorizer's allow, the quota limiters)
 * is reused for this long, or until anything it read changes (a change-feed event, a quota
 * change, a name this node created or dropped). Spec §7 allows a gateway decision cache of
 * at most 5 s; this one lives no longer than names are trusted (the catalog's 1 s).
 */
export const DECISION_CACHE_MS = CATALOG_CACHE_MS;
/** Decisions kept per verified key (routes × namespaces × collections it used), at most. */
export const MAX_DECISIONS_PER_KEY = 1_024;

export interface Decision {
  at: number;
  generation: number;
  principal: Principal;
  /** The route's action (a write that only deletes is not held to the storage quota). */
  action: string;
  org: string;
  ns: number | null;
  /** Counts what was admitted (usage rollups). */
  usage: UsageCounter;
  /** Charged one unit per request: the request rate, and metadata operations on their routes. */
  perRequest: RateLimiter[];
  /** Charged the body's bytes (writes). */
  ingest?: RateLimiter;
  /** Query slots (reads): the namespace's at this gateway, then the collection's. */
  slots?: SlotLimiter[];
}

/** One verified key's decisions, by `decisionKey`. */
export type DecisionCache = Map<string, Decision>;

export function decisionKey(method: string, route: string, params: { ns?: string; c?: string }): string {
  return `${method} ${route}\u0000${params.ns ?? ''}\u0000${params.c ?? ''}`;
}

/** The cached decision, if it is young enough and nothing it read has changed. */
export function cachedDecision(cache: DecisionCache | undefined, k: string, now: number, generation: number): Decision | undefined {
  const d = cache?.get(k);
  return d && now - d.at < DECISION_CACHE_MS && d.generation === generation ? d : undefined;
}

/**
 * Decisions kept over all keys of this process, at most: the per-key bound times the keys a
 * node caches (100,000) would allow a hundred million, and an org can make many keys.
 */
export const MAX_DECISIONS = 100_000;

/** The caches holding decisions, and how many they were given since the last reset. */
const holding = new Set<DecisionCache>();
let kept = 0;

/**
 * Keeps a decision, dropping the key's others when it holds MAX_DECISIONS_PER_KEY, and every
 * key's when MAX_DECISIONS were kept since the last such drop (a dropped decision is only
 * decided again).
 */
export function keepDecision(cache: DecisionCache, k: string, d: Decision): void {
  if (cache.size >= MAX_DECISIONS_PER_KEY) cache.clear();
  if (kept >= MAX_DECISIONS) {
    for (const c of holding) c.clear();
    holding.clear();
    kept = 0;
  }
  if (!cache.has(k)) kept++;
  cache.set(k, d);
  holding.add(cache);
}

// The catalog's rules (contract: namespaces, collections, streams, aliases), once. Pure:
// each takes what the dialect read in the call's transaction and returns what to write, or
// throws the typed refusal.
import { errors } from '../errors.js';
import { DEFAULT_COLLECTION_LOG_RETENTION_MS, DEFAULT_MANIFEST_RETENTION_MS, MAX_ALIASES } from '../limits.js';
import type { AliasAction, Collection, CollectionId, CollectionSchema, Retention, Stream } from '../types.js';

/** A retention as stored: absent means unbounded. */
export function retentionOrDefault(r: Retention | undefined): Retention {
  return r === undefined ? { ms: null, bytes: null } : { ms: r.ms, bytes: r.bytes };
}

/** A collection's log retention as stored: absent means DEFAULT_COLLECTION_LOG_RETENTION_MS of age, no byte bound. */
export function collectionLogRetentionOrDefault(r: Retention | undefined): Retention {
  return r === undefined ? { ms: DEFAULT_COLLECTION_LOG_RETENTION_MS, bytes: null } : { ms: r.ms, bytes: r.bytes };
}

/** A collection's manifest retention as stored: absent means the default (D38). */
export function manifestRetentionOrDefault(ms: number | undefined): number {
  return ms ?? DEFAULT_MANIFEST_RETENTION_MS;
}

/** A schema as stored: a copy, so a caller's later change to its object changes nothing. */
export function copySchema(s: CollectionSchema): CollectionSchema {
  return { primaryKey: s.primaryKey, fields: { ...s.fields } };
}

/** dropNamespace is refused while the namespace has live collections or streams. */
export function checkNamespaceEmpty(ns: number, liveCollections: number, liveStreams: number): void {
  if (liveCollections > 0 || liveStreams > 0) {
    throw errors.invalid('ns', `namespace ${ns} still has ${liveCollections} collection(s) and ${liveStreams} stream(s); drop them first`);
  }
}

/** An implicit stream goes only with its collection. */
export function checkDropStream(s: Stream): void {
  if (s.implicit) throw errors.invalid('stream', `stream ${s.id} belongs to a collection; drop the collection instead`);
}

/** updateCollectionSchema: a compare-and-swap on the schema version; the primary key never changes. */
export function schemaUpdate(c: Collection, expectedVersion: number, schema: CollectionSchema): Collection {
  if (c.schemaVersion !== expectedVersion) {
    throw errors.versionMismatch(`schema of collection ${c.id}`, expectedVersion, c.schemaVersion);
  }
  if (schema.primaryKey !== c.schema.primaryKey) {
    throw errors.invalid('schema.primaryKey', `cannot change from ${c.schema.primaryKey} to ${schema.primaryKey}`);
  }
  return { ...c, schema: copySchema(schema), schemaVersion: c.schemaVersion + 1 };
}

/**
 * updateAliases: every action or none, one new version. `version` is the stored version (0
 * before the first update); `requireLive` throws NotFound for a collection that is absent or
 * dropping (the dialect reads it in the same transaction). Removing an absent alias is a
 * no-op, like deleting a missing key. At most MAX_ALIASES aliases per namespace.
 */
export function applyAliases(
  ns: number,
  version: number,
  map: Record<string, CollectionId>,
  actions: readonly AliasAction[],
  expectedVersion: number | undefined,
  requireLive: (collection: CollectionId) => void,
): { version: number; aliases: Record<string, CollectionId> } {
  if (expectedVersion !== undefined && expectedVersion !== version) {
    throw errors.versionMismatch(`aliases of namespace ${ns}`, expectedVersion, version);
  }
  const out = { ...map };
  for (const act of actions) {
    if (act.op === 'set') {
      requireLive(act.collection);
      out[act.alias] = act.collection;
    } else {
      delete out[act.alias];
    }
  }
  const n = Object.keys(out).length;
  if (n > MAX_ALIASES) throw errors.limitExceeded('MAX_ALIASES per namespace', MAX_ALIASES, n);
  return { version: version + 1, aliases: out };
}

/** dropCollection removes the collection from every alias; null when no alias named it (nothing to write). */
export function aliasesWithout(map: Record<string, CollectionId>, collection: CollectionId): Record<string, CollectionId> | null {
  const kept = Object.fromEntries(Object.entries(map).filter(([, c]) => c !== collection));
  return Object.keys(kept).length === Object.keys(map).length ? null : kept;
}

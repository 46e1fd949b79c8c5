// Row ↔ entity mapping shared by the SQL backends (embedded SQLite and PostgreSQL): both
// keep the same tables and column names, so a row reads the same way on either.
import type {
  CatalogChange,
  ChangeKind,
  Collection,
  CollectionSchema,
  IndexEntry,
  LeaseScope,
  Namespace,
  Page,
  PartitionHead,
  Pointer,
  Stream,
  Tag,
} from '../../types.js';

export type Row = Record<string, unknown>;

/** The leases table's scope column: a namespace's leases or the cluster's. */
export function scopeKey(scope: LeaseScope): string {
  return scope === 'cluster' ? 'cluster' : `ns/${scope}`;
}

/** A page from `limit + 1` rows: the extra row only says that more follow. */
export function paged<T>(rows: T[], limit: number, cursor: (t: T) => string): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: cursor(items[items.length - 1]!) };
}

/** One head per partition in order; partitions without a row read as zero (heads are lazy). */
export function toHeads(rows: readonly Row[] | null, partitions: number): PartitionHead[] {
  const out: PartitionHead[] = [];
  for (let p = 0; p < partitions; p++) out.push({ partition: p, next: 0, logStart: 0, bytes: 0 });
  for (const r of rows ?? []) {
    const p = r.partition as number;
    if (p < partitions) out[p] = { partition: p, next: r.next as number, logStart: r.log_start as number, bytes: r.bytes as number };
  }
  return out;
}

export function toNamespace(r: Row): Namespace {
  return { id: r.id as number, org: r.org as string, name: r.name as string, state: r.state as Namespace['state'], created: r.created as number };
}

export function toStream(r: Row): Stream {
  return {
    ns: r.ns as number,
    id: r.id as number,
    name: r.name as string,
    partitions: r.partitions as number,
    retention: { ms: (r.retention_ms as number | null) ?? null, bytes: (r.retention_bytes as number | null) ?? null },
    // SQLite stores booleans as 0/1, PostgreSQL as booleans.
    implicit: r.implicit === 1 || r.implicit === true,
    state: r.state as Stream['state'],
    created: r.created as number,
  };
}

export function toCollection(r: Row): Collection {
  return {
    ns: r.ns as number,
    id: r.id as number,
    name: r.name as string,
    // TEXT on SQLite, JSONB (already parsed by pg) on PostgreSQL.
    schema: (typeof r.schema === 'string' ? JSON.parse(r.schema) : r.schema) as CollectionSchema,
    schemaVersion: r.schema_version as number,
    streamId: r.stream_id as number,
    linkId: r.link_id as number,
    partitions: r.partitions as number,
    manifestRetentionMs: r.manifest_retention_ms as number,
    state: r.state as Collection['state'],
    created: r.created as number,
  };
}

export function toEntry(r: Row): IndexEntry {
  return {
    partition: r.partition as number,
    start: r.start as number,
    end: r.end as number,
    kind: r.kind as IndexEntry['kind'],
    path: r.path as string,
    byteStart: r.byte_start as number,
    byteEnd: r.byte_end as number,
    records: r.records as number,
  };
}

export function toPointer(r: Row): Pointer {
  return { ns: r.ns as number, key: r.key as string, version: r.version as number, value: r.value as string, stamp: r.stamp as number };
}

export function toTag(r: Row): Tag {
  return {
    ns: r.ns as number,
    collection: r.collection as number,
    name: r.name as string,
    manifestVersion: r.version as number,
    manifestPath: r.path as string,
    created: r.created as number,
    rewrittenBy: (r.rewritten_by as string | null) ?? null,
  };
}

export function toChange(r: Row): CatalogChange {
  return { version: r.version as number, ns: r.ns as number, kind: r.kind as ChangeKind, id: (r.id as number | null) ?? null, stamp: r.stamp as number };
}

// A collection's unapplied backlog (spec §6): the log records its partitions hold past the
// current manifest's applied offsets, and an estimate of their bytes. One rule, read by the
// write path's backlog check, the storage measurement and the status page.
import type { PartitionHead } from '../meta/types.js';

export interface PartitionBacklog {
  partition: number;
  /** Records the log holds past the manifest's applied offset. */
  records: number;
  /**
   * Their bytes, estimated: the partition's indexed bytes in proportion to the records
   * unapplied (the index knows bytes per partition, not per record).
   */
  bytes: number;
}

export interface Backlog {
  records: number;
  bytes: number;
  partitions: PartitionBacklog[];
}

/** The backlog of a collection from its partition heads and its manifest's applied offsets (absent: 0). */
export function unappliedBacklog(heads: readonly PartitionHead[], applied: readonly number[]): Backlog {
  let records = 0;
  let bytes = 0;
  const partitions: PartitionBacklog[] = [];
  for (const h of heads) {
    const unapplied = Math.max(0, h.next - (applied[h.partition] ?? 0));
    const indexed = Math.max(1, h.next - h.logStart);
    const b = Math.round((h.bytes * Math.min(unapplied, indexed)) / indexed);
    records += unapplied;
    bytes += b;
    partitions.push({ partition: h.partition, records: unapplied, bytes: b });
  }
  return { records, bytes, partitions };
}

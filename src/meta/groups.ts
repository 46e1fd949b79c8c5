// Partition groups of a WAL commit (spec §3.1). Deterministic, so a retry of the same
// object forms the same groups and finds their commit records.
import type { WalChunk } from './types.js';

/**
 * Splits chunks into groups of at most `maxPerGroup`, keeping one stream's chunks of the
 * object together while they fit: streams are packed whole, first-fit in (ns, stream)
 * order; a stream larger than a group fills whole groups of its own.
 * Returns, for each chunk in request order, its group number (0-based), and the count.
 */
export function planGroups(chunks: readonly WalChunk[], maxPerGroup: number): { groupOf: number[]; groups: number } {
  if (!Number.isInteger(maxPerGroup) || maxPerGroup < 1) throw new Error(`maxPerGroup must be a positive integer`);
  const byStream = new Map<string, number[]>();
  chunks.forEach((c, i) => {
    const k = `${c.ns}/${c.stream}`;
    let list = byStream.get(k);
    if (!list) byStream.set(k, (list = []));
    list.push(i);
  });
  const streams = [...byStream.entries()].sort(([a], [b]) => compareStreamKeys(a, b));
  const groupOf = new Array<number>(chunks.length).fill(-1);
  const fill: number[] = []; // chunks per group so far
  for (const [, idx] of streams) {
    idx.sort((x, y) => chunks[x]!.partition - chunks[y]!.partition);
    if (idx.length > maxPerGroup) {
      // Too big for one group: whole groups of its own.
      for (let off = 0; off < idx.length; off += maxPerGroup) {
        const g = fill.length;
        const part = idx.slice(off, off + maxPerGroup);
        fill.push(part.length);
        for (const i of part) groupOf[i] = g;
      }
      continue;
    }
    let g = fill.findIndex((n) => n + idx.length <= maxPerGroup);
    if (g < 0) {
      g = fill.length;
      fill.push(0);
    }
    fill[g]! += idx.length;
    for (const i of idx) groupOf[i] = g;
  }
  return { groupOf, groups: fill.length };
}

function compareStreamKeys(a: string, b: string): number {
  const [an, as] = a.split('/').map(Number) as [number, number];
  const [bn, bs] = b.split('/').map(Number) as [number, number];
  return an - bn || as - bs;
}

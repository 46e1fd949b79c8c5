// The dirty set's rules (contract: dueHeads, settleHead; spec §5.4), once: the cursor and
// the page. A due head's cursor is its sort key (due, ns, stream, partition) as fixed-width
// digits, so cursors compare in byte order exactly as the keys do, and a sharded store merges
// its shards' pages under one cursor like any other list (backends/sharded/lists.ts).
import { errors } from '../errors.js';
import type { DueHead } from '../types.js';

const WIDTH = 16;

function pad(n: number): string {
  return String(n).padStart(WIDTH, '0');
}

/** The cursor of a due head: its sort key in byte order. */
export function dueCursor(h: Pick<DueHead, 'due' | 'ns' | 'stream' | 'partition'>): string {
  return `${pad(h.due)}.${pad(h.ns)}.${pad(h.stream)}.${pad(h.partition)}`;
}

/** The key a cursor names; a malformed one is InvalidArgument on `after`. */
export function parseDueCursor(after: string): { due: number; ns: number; stream: number; partition: number } {
  const parts = after.split('.');
  const nums = parts.map((p) => (/^\d{16}$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 4 || nums.some((n) => !Number.isSafeInteger(n))) throw errors.invalid('after', 'is not a dueHeads cursor (pass back a page\'s next)');
  return { due: nums[0]!, ns: nums[1]!, stream: nums[2]!, partition: nums[3]! };
}

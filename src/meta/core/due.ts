// The dirty set's rules (contract: dueHeads, settleHead; spec §5.4), once. A backend supplies
// only its storage mapping (a column or attribute beside the partition head, an index for the
// due scan) and follows these:
// - commitWal sets the head's due to DUE_NOW and bumps its mark by one, in the transaction
//   that assigns the offsets; a head is due from birth (a new or moved head is due now).
// - settleHead writes `due` (null: nothing pending) only while the stored mark equals the
//   mark the worker read (settles), so a commit that came in meanwhile keeps the head due now.
// - dueHeads pages the heads with due <= before in (due, ns, stream, partition) order; a due
//   head's cursor is that sort key as fixed-width digits, so cursors compare in byte order
//   exactly as the keys do, and a sharded store merges its shards' pages under one cursor
//   like any other list (backends/sharded/lists.ts).
import { errors } from '../errors.js';
import type { Stamp } from '../types.js';

/** A head's due time once a commit appended to it: before every timer a worker can set. */
export const DUE_NOW = 0;

const WIDTH = 16;

function pad(n: number): string {
  return String(n).padStart(WIDTH, '0');
}

/** A due head's sort key. */
export interface DueKey {
  due: Stamp;
  ns: number;
  stream: number;
  partition: number;
}

/** The cursor of a due head: its sort key in byte order. */
export function dueCursor(h: DueKey): string {
  return `${pad(h.due)}.${pad(h.ns)}.${pad(h.stream)}.${pad(h.partition)}`;
}

/** The key a cursor names; a malformed one is InvalidArgument on `after`. */
export function parseDueCursor(after: string): DueKey {
  const parts = after.split('.');
  const nums = parts.map((p) => (/^\d{16}$/.test(p) ? Number(p) : NaN));
  if (parts.length !== 4 || nums.some((n) => !Number.isSafeInteger(n))) throw errors.invalid('after', 'is not a dueHeads cursor (pass back a page\'s next)');
  return { due: nums[0]!, ns: nums[1]!, stream: nums[2]!, partition: nums[3]! };
}

/** The key a page reads strictly after: the cursor's, or one below every head's (null). */
export function dueStart(after: string | null): DueKey {
  return after === null ? { due: DUE_NOW - 1, ns: 0, stream: 0, partition: 0 } : parseDueCursor(after);
}


// Paging of every list (spec §5.4: prefix, after, limit; default 100, at most 1,000), once.
import { DEFAULT_PAGE_LIMIT } from '../limits.js';
import type { Page, PageRequest } from '../types.js';

/** A page request as the dialect reads it: validated by the wrapper, defaults filled. */
export interface PageArgs {
  prefix: string;
  /** Items strictly after this cursor (the last item's sort key); null: from the start. */
  after: string | null;
  limit: number;
}

export function pageArgs(p: PageRequest | undefined): PageArgs {
  return { prefix: p?.prefix ?? '', after: p?.after ?? null, limit: p?.limit ?? DEFAULT_PAGE_LIMIT };
}

/** A page from `limit + 1` rows in cursor order: the extra row only says that more follow. */
export function paged<T>(rows: T[], limit: number, cursor: (t: T) => string): Page<T> {
  if (rows.length <= limit) return { items: rows };
  const items = rows.slice(0, limit);
  return { items, next: cursor(items[items.length - 1]!) };
}

/**
 * The least string above every string that starts with `prefix`, in code point order (byte
 * order of UTF-8, the order every list uses), or null when there is none (an empty prefix, or
 * one ending in the last code point). A list reads `name >= prefix AND name < prefixEnd`: an
 * index range, where a prefix test alone would read every name after the prefix.
 */
export function prefixEnd(prefix: string): string | null {
  const cps = [...prefix];
  while (cps.length > 0) {
    const last = cps.pop()!.codePointAt(0)!;
    // The next code point, skipping the surrogate block (not a character in UTF-8).
    const next = last === 0xd7ff ? 0xe000 : last + 1;
    if (next <= 0x10ffff) return cps.join('') + String.fromCodePoint(next);
  }
  return null;
}

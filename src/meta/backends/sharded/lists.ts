// Lists across shards under one cursor (spec §5.4). Every backend pages by the item's sort
// key (a name or a path, in byte order) and takes it back as `after`, so one cursor serves
// every shard: each shard returns its page after the cursor, the pages are merged in byte
// order, and the first `limit` items are the page. The cursor is the last item's key.
import { DEFAULT_PAGE_LIMIT } from '../../limits.js';
import type { Page, PageRequest } from '../../types.js';
import { byteOrder } from './placement.js';

/**
 * First ask of each shard: its share of the page times this slack. Names spread over shards
 * by hash, so a shard's share of a 1,000-item page over 4 shards is 250 ± 14 (one standard
 * deviation): 1.25 covers 4.6 of them, and reads a third fewer surplus rows than 1.5 did
 * (the rows read are most of a page's cost). A shard that needs more is asked again.
 */
export const LIST_FETCH_SLACK = 1.25;
/** Rounds of "this shard may hold items before the page's end: ask it for more" (a bound; the last asks for a whole page). */
export const MAX_LIST_ROUNDS = 4;

/**
 * A page merged from every shard, reading little more than the page: each shard is first asked
 * for its share (page ÷ shards × LIST_FETCH_SLACK); a shard whose answer ends before the merged
 * page's last key (it may hold items that belong in the page) is asked for more after its last
 * item, until none does. The last round asks for a whole page, so the loop always ends exact.
 */
export async function mergedList<T>(
  lists: ((page: PageRequest) => Promise<Page<T>>)[],
  page: PageRequest | undefined,
  key: (t: T) => string,
): Promise<Page<T>> {
  const lim = page?.limit ?? DEFAULT_PAGE_LIMIT;
  if (lists.length === 1) return lists[0]!(page ?? {});
  // async: a shard that throws at once rejects its own promise, never leaving the others' unawaited.
  const ask = async (k: number, after: string | undefined, limit: number) =>
    lists[k]!({ ...(page?.prefix !== undefined ? { prefix: page.prefix } : {}), ...(after !== undefined ? { after } : {}), limit });
  const first = Math.min(lim, Math.ceil((lim / lists.length) * LIST_FETCH_SLACK));
  const pages = await Promise.all(lists.map((_, k) => ask(k, page?.after, first)));
  for (let round = 1; ; round++) {
    const merged = mergePages(pages, lim, key);
    const cutoff = merged.items.length === lim ? key(merged.items[lim - 1]!) : null;
    const needy = pages.flatMap((p, k) => {
      if (p.next === undefined) return [];
      const last = p.items.length > 0 ? key(p.items[p.items.length - 1]!) : undefined;
      return cutoff === null || last === undefined || byteOrder(last, cutoff) < 0 ? [k] : [];
    });
    if (needy.length === 0) return merged;
    const more = round >= MAX_LIST_ROUNDS ? lim : Math.min(lim, first * 2 ** round);
    await Promise.all(
      needy.map(async (k) => {
        const p = pages[k]!;
        const next = await ask(k, p.next, more);
        pages[k] = { items: [...p.items, ...next.items], ...(next.next !== undefined ? { next: next.next } : {}) };
      }),
    );
    if (round > MAX_LIST_ROUNDS) return mergePages(pages, lim, key);
  }
}

export function mergePages<T>(pages: readonly Page<T>[], limit: number | undefined, key: (t: T) => string): Page<T> {
  const lim = limit ?? DEFAULT_PAGE_LIMIT;
  // Each page is in byte order already: a k-way merge of their heads, up to lim + 1 items.
  const at = pages.map(() => 0);
  const keys = pages.map((p) => p.items.map(key));
  const items: T[] = [];
  let more = false;
  for (;;) {
    let best = -1;
    for (let k = 0; k < pages.length; k++) {
      if (at[k]! < keys[k]!.length && (best < 0 || byteOrder(keys[k]![at[k]!]!, keys[best]![at[best]!]!) < 0)) best = k;
    }
    if (best < 0) break;
    // One item per key: while a namespace moves, its source and its target both list it (spec §5.5).
    if (items.length > 0 && keys[best]![at[best]!] === key(items[items.length - 1]!)) {
      at[best]!++;
      continue;
    }
    if (items.length === lim) {
      more = true;
      break;
    }
    items.push(pages[best]!.items[at[best]!]!);
    at[best]!++;
  }
  if (pages.some((p) => p.next !== undefined)) more = true;
  if (!more || items.length === 0) return { items };
  return { items, next: key(items[items.length - 1]!) };
}

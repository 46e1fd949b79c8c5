// Lists across shards under one cursor (spec §5.4). Every backend pages by the item's sort
// key (a name or a path, in byte order) and takes it back as `after`, so one cursor serves
// every shard: each shard returns its page after the cursor, the pages are merged in byte
// order, and the first `limit` items are the page. The cursor is the last item's key.
import { DEFAULT_PAGE_LIMIT } from '../../limits.js';
import type { Page } from '../../types.js';
import { byteOrder } from './placement.js';

export function mergePages<T>(pages: readonly Page<T>[], limit: number | undefined, key: (t: T) => string): Page<T> {
  const lim = limit ?? DEFAULT_PAGE_LIMIT;
  const all = pages.length === 1 ? pages[0]!.items.slice() : pages.flatMap((p) => p.items);
  if (pages.length > 1) all.sort((a, b) => byteOrder(key(a), key(b)));
  const more = all.length > lim || pages.some((p) => p.next !== undefined);
  const items = all.slice(0, lim);
  if (!more || items.length === 0) return { items };
  return { items, next: key(items[items.length - 1]!) };
}

// Where a new namespace goes (spec §5.3's rendezvous hashing, applied to shards): the shard
// with the highest xxh3 score of (org, name, shard). Deterministic, so a retried create
// picks the same shard, and adding a shard moves no existing namespace (entries keep their
// shard until a move changes it; only new names spread onto the new shard).
import { xxh3 } from '@node-rs/xxhash';

export function chooseShard(org: string, name: string, shards: readonly string[]): string {
  if (shards.length === 0) throw new Error('the sharded metastore has no shard');
  let best = shards[0]!;
  let bestScore = -1n;
  for (const s of shards) {
    const score = xxh3.xxh64(`${org}\u0000${name}\u0000${s}`);
    if (score > bestScore || (score === bestScore && s < best)) {
      best = s;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Byte order of UTF-8 strings: the order every backend lists names and paths in. UTF-8 byte
 * order is code point order; UTF-16 code units differ from it only where surrogates (which
 * encode code points above U+FFFF) meet U+E000..U+FFFF, so those two ranges swap places.
 */
export function byteOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}

function codePointRank(u: number): number {
  if (u >= 0xe000) return u - 0x800;
  if (u >= 0xd800) return u + 0x2000;
  return u;
}

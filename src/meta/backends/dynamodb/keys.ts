// The item layout of the DynamoDB backend (layout 2): one table, string keys pk and sk (spec
// §2.3), plus one sparse global secondary index `retired` on (rs, rk) that lists retired WAL
// objects. README.md beside this file lists every item kind with its attributes; this module
// is the only place that builds keys.
//
// No partition key grows with the number of objects: every object reference is its own
// partition key, and the retired listing holds only objects awaiting GC.
//
// Numbers inside sort keys are zero-padded so string order is numeric order. Names are
// NAME_PATTERN (no '#'), keys are KEY_PATTERN, so '#' separates key parts unambiguously;
// object paths and pointer keys come last in a key, where any character is fine.
import { createHash } from 'node:crypto';
import type { LeaseScope } from '../../types.js';

export interface Key {
  pk: string;
  sk: string;
}

/** The item layout this code reads and writes; a table of another layout is refused at open. */
export const TABLE_LAYOUT = 2;
/** The sparse global secondary index that lists retired WAL objects awaiting GC. */
export const RETIRED_INDEX = 'retired';
/** The retired listing's partition keys (its write rate is GC's: retirements and claims). */
export const RETIRED_SHARDS = 16;

/**
 * The sparse global secondary index that lists the items that expire — commit tokens, WAL
 * commit records, GC tombstones — by the time they become prunable, so a bounded pass finds
 * the oldest without a scan (context.ts pruneExpired). Its partition key is sharded (`xs`),
 * its sort key is the prunable-at time (`xk`).
 */
export const EXPIRY_INDEX = 'expiry';
/** The expiry listing's partition keys: inserts spread over them by the item's key. */
export const EXPIRY_SHARDS = 16;

/**
 * The sparse global secondary index of due partition heads (the dirty set, spec §5.4; due.ts):
 * a head carries its shard `ds` and due cursor `dk` only while its maintenance is due.
 */
export const DUE_INDEX = 'due';
/**
 * The due index's partition keys, by the head's key. Every dueHeads page queries each one,
 * so few: the index is written only when a head turns due or is settled (a commit to a head
 * already due changes neither key), at most two writes per maintenance pass of a partition,
 * and each shard takes about 1,000 such writes a second.
 */
export const DUE_SHARDS = 4;

const P16 = (n: number) => String(n).padStart(16, '0');
const P5 = (n: number) => String(n).padStart(5, '0');

/** The retired listing's shard of a path (the `rs` attribute, the index's partition key). */
export function retiredShard(path: string): string {
  return `ret#${createHash('sha256').update(path).digest().readUInt32BE(0) % RETIRED_SHARDS}`;
}

/**
 * The attributes that list an item in the expiry index: its shard (by its partition key) and
 * the time (backend clock, ms) after which a prune pass may delete it.
 */
export function expiryAttrs(pk: string, prunableAtMs: number): { xs: string; xk: string } {
  return { xs: expiryPk(createHash('sha256').update(pk).digest().readUInt32BE(0) % EXPIRY_SHARDS), xk: P16(Math.max(0, Math.floor(prunableAtMs))) };
}

export function expiryPk(shard: number): string {
  return `exp#${shard}`;
}

/** The expiry index's sort key for a time: items listed below it are prunable. */
export function expirySk(ms: number): string {
  return P16(Math.max(0, Math.floor(ms)));
}

export const K = {
  /** Id counters of every kind, one item (creates are rare; commitWal never touches it). */
  counters: (): Key => ({ pk: 'ctr', sk: 'ids' }),
  ns: (id: number): Key => ({ pk: `ns#${id}`, sk: 'ns' }),
  /** A live namespace's name; holds a copy of the (immutable) namespace record. */
  nsName: (org: string, name: string): Key => ({ pk: `nsname#${org}`, sk: name }),
  nsNamePk: (org: string) => `nsname#${org}`,
  coll: (ns: number, id: number): Key => ({ pk: `ns#${ns}`, sk: `coll#${P16(id)}` }),
  collName: (ns: number, name: string): Key => ({ pk: `ns#${ns}`, sk: `collname#${name}` }),
  stream: (ns: number, id: number): Key => ({ pk: `ns#${ns}`, sk: `stream#${P16(id)}` }),
  streamName: (ns: number, name: string): Key => ({ pk: `ns#${ns}`, sk: `streamname#${name}` }),
  link: (ns: number, id: number): Key => ({ pk: `ns#${ns}`, sk: `link#${P16(id)}` }),
  aliases: (ns: number): Key => ({ pk: `ns#${ns}`, sk: 'aliases' }),
  nsPk: (ns: number) => `ns#${ns}`,
  head: (ns: number, stream: number, p: number): Key => ({ pk: `head#${ns}#${stream}`, sk: P5(p) }),
  headPk: (ns: number, stream: number) => `head#${ns}#${stream}`,
  entry: (ns: number, stream: number, p: number, start: number): Key => ({ pk: `idx#${ns}#${stream}#${p}`, sk: P16(start) }),
  entryPk: (ns: number, stream: number, p: number) => `idx#${ns}#${stream}#${p}`,
  entrySk: (start: number) => P16(start),
  walc: (object: string, group: number): Key => ({ pk: `walc#${object}`, sk: P5(group) }),
  /** An object's references and GC claim: one partition key per path. */
  obj: (path: string): Key => ({ pk: `obj#${path}`, sk: 'obj' }),
  retiredPk: (shard: number) => `ret#${shard}`,
  duePk: (shard: number) => `due#${shard}`,
  ptr: (ns: number, key: string): Key => ({ pk: `ptr#${ns}#${key}`, sk: 'cur' }),
  ptrHist: (ns: number, key: string, version: number): Key => ({ pk: `ptr#${ns}#${key}`, sk: `v#${P16(version)}` }),
  lease: (scope: LeaseScope, key: string): Key => ({ pk: `lease#${scope === 'cluster' ? 'cluster' : `ns/${scope}`}`, sk: key }),
  tag: (ns: number, coll: number, name: string): Key => ({ pk: `tag#${ns}#${coll}`, sk: name }),
  tagPk: (ns: number, coll: number) => `tag#${ns}#${coll}`,
  /** The catalog change feed: one partition, versions dense and in commit order. */
  chg: (version: number): Key => ({ pk: 'chg', sk: P16(version) }),
  chgPk: () => 'chg',
  /** The feed's horizon: the highest pruned version (one item, raised before anything is pruned). */
  chgHorizon: (): Key => ({ pk: 'chgh', sk: 'horizon' }),
  /** A namespace's newest change (kept by pruning, so a resync still reaches every namespace). */
  chgNs: (ns: number): Key => ({ pk: `chgns#${ns}`, sk: 'last' }),
  /** Commit tokens: the result of a write with a requestId, in the write's transaction. */
  req: (requestId: string): Key => ({ pk: `req#${requestId}`, sk: 'req' }),
};

export function keyOf(k: Key): { pk: { S: string }; sk: { S: string } } {
  return { pk: { S: k.pk }, sk: { S: k.sk } };
}

export function sameKey(a: Key, b: Key): boolean {
  return a.pk === b.pk && a.sk === b.sk;
}

/** DynamoDB orders strings by their UTF-8 bytes (JS compares UTF-16 code units). */
export function byteCompare(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/**
 * Inclusive sort-key bounds for "names starting with `prefix`, from `after` on" within a key
 * prefix: BETWEEN lo AND hi. The item equal to `after` (if any) is included; callers drop it
 * and filter, so the bounds only need to contain the answer.
 */
export function nameRange(keyPrefix: string, prefix: string, after: string | null): { lo: string; hi: string } | null {
  const lo1 = keyPrefix + prefix;
  const lo2 = after === null ? lo1 : keyPrefix + after;
  const lo = byteCompare(lo1, lo2) >= 0 ? lo1 : lo2;
  // U+10FFFF is the largest code point, so it sorts above any continuation of the prefix.
  const hi = keyPrefix + prefix + '\u{10FFFF}';
  return byteCompare(lo, hi) <= 0 ? { lo, hi } : null;
}

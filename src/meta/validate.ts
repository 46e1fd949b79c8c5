// Argument checks every backend runs before writing anything, so bad input is the same
// InvalidArgument (naming the field) on every backend and nothing is half-written.
import { errors } from './errors.js';
import { ownField } from './fields.js';
import {
  DEFAULT_PAGE_LIMIT,
  KEY_PATTERN,
  DEFAULT_MANIFEST_RETENTION_MS,
  MAX_ALIAS_ACTIONS,
  MAX_CLOCK_SKEW_MS,
  MAX_KEY_LENGTH,
  MAX_LEASE_TTL_MS,
  MAX_MANIFEST_RETENTION_MS,
  MAX_NAME_LENGTH,
  MAX_PAGE_LIMIT,
  MAX_PARTITIONS,
  MAX_PATH_LENGTH,
  MAX_SCHEMA_FIELDS,
  MAX_TOKEN_STRING_LENGTH,
  MAX_WAL_CHUNKS,
  MIN_LEASE_TTL_MS,
  NAME_PATTERN,
  NAME_RULE,
} from './limits.js';
import type { AliasAction, CollectionSchema, Fence, LeaseScope, PageRequest, Retention, SegmentSwap, WalCommit } from './types.js';

const FIELD_TYPES = new Set(['string', 'number', 'boolean', 'json']);

export function id(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 1) {
    throw errors.invalid(field, `must be a positive integer id, got ${show(v)}`);
  }
  return v;
}

export function nonNegInt(field: string, v: unknown, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0 || v > max) {
    throw errors.invalid(field, `must be an integer in 0..${max}, got ${show(v)}`);
  }
  return v;
}

export function name(field: string, v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(v)) {
    throw errors.invalid(field, `must be ${NAME_RULE}; got ${show(v)}`);
  }
  return v;
}

/**
 * Every backend stores text as UTF-8, where half a surrogate pair becomes U+FFFD: two paths
 * or owners that differ there would be stored as one (and read back as neither).
 */
const LONE_SURROGATE = 'must be well-formed Unicode: it holds a lone surrogate (half of a \\uD8xx\\uDCxx pair)';

export function path(field: string, v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_PATH_LENGTH) {
    throw errors.invalid(field, `must be an object path of 1-${MAX_PATH_LENGTH} characters, got ${show(v)}`);
  }
  if (v.startsWith('/') || v.includes('//') || /[\u0000-\u001f\u007f]/.test(v)) {
    throw errors.invalid(field, `must be a relative object path without empty segments or control characters`);
  }
  if (!v.isWellFormed()) throw errors.invalid(field, LONE_SURROGATE);
  return v;
}

export function key(field: string, v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(v)) {
    throw errors.invalid(field, `must be 1-${MAX_KEY_LENGTH} characters of A-Z a-z 0-9 _ . : / -, got ${show(v)}`);
  }
  return v;
}

export function tokenString(field: string, v: unknown): string {
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TOKEN_STRING_LENGTH) {
    throw errors.invalid(field, `must be a string of 1-${MAX_TOKEN_STRING_LENGTH} characters`);
  }
  if (!v.isWellFormed()) throw errors.invalid(field, LONE_SURROGATE);
  return v;
}

export function partitions(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_PARTITIONS) {
    throw errors.invalid(field, `must be an integer in 1..${MAX_PARTITIONS}, got ${show(v)}`);
  }
  return v;
}

export function retention(field: string, v: Retention | undefined): Retention {
  if (v === undefined) return { ms: null, bytes: null };
  if (typeof v !== 'object' || v === null) throw errors.invalid(field, 'must be { ms, bytes }');
  for (const k of ['ms', 'bytes'] as const) {
    const x = v[k];
    if (x !== null && (typeof x !== 'number' || !Number.isSafeInteger(x) || x < 1)) {
      throw errors.invalid(`${field}.${k}`, `must be null (unbounded) or a positive integer, got ${show(x)}`);
    }
  }
  return { ms: v.ms, bytes: v.bytes };
}

export function schema(field: string, v: CollectionSchema): CollectionSchema {
  if (typeof v !== 'object' || v === null || typeof v.fields !== 'object' || v.fields === null) {
    throw errors.invalid(field, 'must be { primaryKey, fields }');
  }
  const names = Object.keys(v.fields);
  if (names.length === 0 || names.length > MAX_SCHEMA_FIELDS) {
    throw errors.invalid(`${field}.fields`, `must have 1..${MAX_SCHEMA_FIELDS} fields, got ${names.length}`);
  }
  for (const n of names) {
    name(`${field}.fields`, n);
    if (!FIELD_TYPES.has(v.fields[n] as string)) {
      throw errors.invalid(`${field}.fields.${n}`, `type must be one of ${[...FIELD_TYPES].join(', ')}`);
    }
  }
  const pkType = ownField(v.fields, v.primaryKey);
  if (pkType !== 'string' && pkType !== 'number') {
    throw errors.invalid(`${field}.primaryKey`, `must name a string or number field, got ${show(v.primaryKey)}`);
  }
  return { primaryKey: v.primaryKey, fields: { ...v.fields } };
}

/** A collection's manifest retention; absent means the default (D38). */
export function manifestRetention(v: number | undefined): number {
  return nonNegInt('manifestRetentionMs', v ?? DEFAULT_MANIFEST_RETENTION_MS, MAX_MANIFEST_RETENTION_MS);
}

export function page(v: PageRequest | undefined): { prefix: string; after: string | null; limit: number } {
  const p = v ?? {};
  const limit = p.limit ?? DEFAULT_PAGE_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_LIMIT) {
    throw errors.invalid('limit', `must be an integer in 1..${MAX_PAGE_LIMIT}, got ${show(limit)}`);
  }
  if (p.prefix !== undefined && (typeof p.prefix !== 'string' || p.prefix.length > MAX_PATH_LENGTH)) {
    throw errors.invalid('prefix', 'must be a string');
  }
  if (p.after !== undefined && (typeof p.after !== 'string' || p.after.length > MAX_PATH_LENGTH)) {
    throw errors.invalid('after', 'must be the cursor string of a previous page');
  }
  return { prefix: p.prefix ?? '', after: p.after ?? null, limit };
}

export function leaseScope(v: unknown): LeaseScope {
  if (v === 'cluster') return v;
  return id('scope', v);
}

/** A write's optional fence: its lease scope, key and epoch. */
export function fence(f: Fence | undefined): Fence | undefined {
  if (f === undefined) return undefined;
  if (typeof f !== 'object' || f === null) throw errors.invalid('fence', 'must be { scope, key, epoch }');
  leaseScope(f.scope);
  key('fence.key', f.key);
  id('fence.epoch', f.epoch);
  return f;
}

export function ttl(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < MIN_LEASE_TTL_MS || v > MAX_LEASE_TTL_MS) {
    throw errors.invalid('ttlMs', `must be an integer in ${MIN_LEASE_TTL_MS}..${MAX_LEASE_TTL_MS}, got ${show(v)}`);
  }
  return v;
}

/** A proposer's stamp may lag, but may not run ahead of this backend's clock by more than the skew bound. */
export function stamp(v: unknown, now: number): number {
  if (v === undefined) return now;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw errors.invalid('stamp', `must be milliseconds since the epoch, got ${show(v)}`);
  }
  if (v > now + MAX_CLOCK_SKEW_MS) {
    throw errors.invalid('stamp', `is ${v - now} ms ahead of the metastore's clock, past maxClockSkew (${MAX_CLOCK_SKEW_MS} ms)`);
  }
  return v;
}

export function aliasActions(actions: AliasAction[]): AliasAction[] {
  if (!Array.isArray(actions) || actions.length === 0 || actions.length > MAX_ALIAS_ACTIONS) {
    throw errors.invalid('actions', `must be 1..${MAX_ALIAS_ACTIONS} actions`);
  }
  actions.forEach((a, i) => {
    if (a?.op === 'set') {
      name(`actions[${i}].alias`, a.alias);
      id(`actions[${i}].collection`, a.collection);
    } else if (a?.op === 'remove') {
      name(`actions[${i}].alias`, a.alias);
    } else {
      throw errors.invalid(`actions[${i}].op`, `must be 'set' or 'remove'`);
    }
  });
  return actions;
}

export function walCommit(c: WalCommit): WalCommit {
  if (typeof c !== 'object' || c === null) throw errors.invalid('commit', 'must be { object, objectStamp, chunks }');
  path('object', c.object);
  nonNegInt('objectStamp', c.objectStamp);
  if (!Array.isArray(c.chunks) || c.chunks.length === 0 || c.chunks.length > MAX_WAL_CHUNKS) {
    throw errors.invalid('chunks', `must hold 1..${MAX_WAL_CHUNKS} chunks`);
  }
  const seen = new Set<string>();
  c.chunks.forEach((ch, i) => {
    const f = `chunks[${i}]`;
    id(`${f}.ns`, ch.ns);
    id(`${f}.stream`, ch.stream);
    nonNegInt(`${f}.partition`, ch.partition, MAX_PARTITIONS - 1);
    if (!Number.isSafeInteger(ch.records) || ch.records < 1) {
      throw errors.invalid(`${f}.records`, `must be a positive integer, got ${show(ch.records)}`);
    }
    byteRange(f, ch.byteStart, ch.byteEnd);
    const k = `${ch.ns}/${ch.stream}/${ch.partition}`;
    if (seen.has(k)) throw errors.invalid(f, `a WAL object holds one chunk per (ns, stream, partition); ${k} repeats`);
    seen.add(k);
  });
  return c;
}

export function segmentSwap(s: SegmentSwap): SegmentSwap {
  id('ns', s.ns);
  id('stream', s.stream);
  nonNegInt('partition', s.partition, MAX_PARTITIONS - 1);
  nonNegInt('start', s.start);
  nonNegInt('end', s.end);
  if (s.end <= s.start) throw errors.invalid('end', `must be above start (${s.start}), got ${s.end}`);
  path('path', s.path);
  byteRange('swap', s.byteStart, s.byteEnd);
  return s;
}

function byteRange(f: string, start: unknown, end: unknown): void {
  nonNegInt(`${f}.byteStart`, start);
  nonNegInt(`${f}.byteEnd`, end);
  if ((end as number) <= (start as number)) {
    throw errors.invalid(`${f}.byteEnd`, `must be above byteStart (${String(start)}), got ${String(end)}`);
  }
}

/** A bad value, for the refusal's message: never a throw of its own (a bigint or a cycle has no JSON). */
function show(v: unknown): string {
  let s: string | undefined;
  try {
    s = JSON.stringify(v);
  } catch {
    s = undefined;
  }
  if (s === undefined) s = typeof v === 'bigint' ? `${v}n` : typeof v === 'object' && v !== null ? `an unserialisable ${v.constructor?.name ?? 'object'}` : String(v);
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

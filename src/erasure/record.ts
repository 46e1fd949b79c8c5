// An erasure request and its progress (spec §9.1–§9.7), kept as one ControlStore row (its
// `data` is this module's JSON), and the erasure log's immutable copies in the bucket:
// _erasure/<org_id>/<erasure_id>/request.rec and completion.rec, written create-only
// (If-None-Match: *) so no writer overwrites them, and never deleted by GC or the purge
// (they live outside every collection's prefix, which is all either of them deletes).
import { randomBytes } from 'node:crypto';
import { isStoreError, type Store } from '../store/index.js';
import { putCreateOnly } from '../collection/manifest.js';
import type { ErasureRow } from '../control/types.js';

/** Keys one erasure names at most (by list or by filter); larger erasures are split. */
export const MAX_ERASE_KEYS = 1_000;
/** Objects one erasure retires and records, at most (bounds its row and its completion record). */
export const MAX_ERASURE_OBJECTS = 2_000;
/** The erasure deadline by default (spec §9.7, D69): 30 days. */
export const DEFAULT_ERASURE_DEADLINE_MS = 30 * 86_400_000;
/** Where the erasure log's object copies live (outside every ns/ prefix). */
export const ERASURE_LOG_PREFIX = '_erasure/';
export const ERASURE_RECORD_FORMAT = 1;

/** In order; each phase is entered once the previous one is done (spec §9.1–§9.4). */
export const PHASES = ['requested', 'purging', 'trimming', 'collecting', 'evicting', 'complete'] as const;
export type ErasurePhase = (typeof PHASES)[number];

export interface RewrittenFile {
  from: string;
  /** The purged copy; null when nothing of the file was left. */
  to: string | null;
}

export interface RewrittenTag {
  name: string;
  /** The manifest version the tag was taken from (it keeps it). */
  fromVersion: number;
  fromPath: string;
  toPath: string;
}

/** The erasure module's part of the row (spec §9.1: {ns, collection, key hashes, offset, deadline}). */
export interface ErasureData {
  format: typeof ERASURE_RECORD_FORMAT;
  stream: number;
  keyVersion: number;
  /** HMAC-SHA256 (hex) of each key's canonical encoding: never the keys. */
  keyHashes: string[];
  /** Per partition the delete touched: its offset after the delete (exclusive). */
  offsets: { partition: number; offset: number }[];
  deadline: number;
  /** Progress. */
  purgeStarted: number | null;
  /** The pointer version of the purged manifest: every version below it is released. */
  purgedVersion: number | null;
  purgedManifest: string | null;
  rewritten: RewrittenFile[];
  tags: RewrittenTag[];
  trimmed: { partition: number; logStart: number }[];
  /** Every object the erasure retires (old data files, released and rewritten manifests, trimmed segments, WAL objects); deleted in every version. */
  retire: string[];
  /** Of those, the ones a version listing shows gone. */
  deleted: string[];
  /** Unreferenced data files older than the purge (orphans of abandoned rounds) deleted too. */
  orphansDeleted: number;
  /** Nodes that dropped the retired objects from their caches. */
  evictedBy: string[];
  /** When the phase last moved, and why it waits (shown by `loam erasures show`). */
  updated: number;
  waiting: string | null;
}

export function newErasureId(): string {
  return `er_${randomBytes(12).toString('hex')}`;
}

export function dataOf(row: ErasureRow): ErasureData {
  return JSON.parse(row.data) as ErasureData;
}

export function requestRecordPath(org: string, id: string): string {
  return `${ERASURE_LOG_PREFIX}${org}/${id}/request.rec`;
}
export function completionRecordPath(org: string, id: string): string {
  return `${ERASURE_LOG_PREFIX}${org}/${id}/completion.rec`;
}

/** The request record: what was asked, with keyed hashes only. */
export interface RequestRecord {
  format: typeof ERASURE_RECORD_FORMAT;
  id: string;
  org: string;
  ns: number;
  collection: number;
  stream: number;
  keyVersion: number;
  keyHashes: string[];
  offsets: { partition: number; offset: number }[];
  requested: number;
  deadline: number;
}

export interface CompletionRecord {
  format: typeof ERASURE_RECORD_FORMAT;
  id: string;
  org: string;
  requested: number;
  completed: number;
  rewritten: RewrittenFile[];
  tags: RewrittenTag[];
  retired: string[];
  orphansDeleted: number;
}

export function requestRecord(row: ErasureRow): RequestRecord {
  const d = dataOf(row);
  return {
    format: ERASURE_RECORD_FORMAT,
    id: row.id,
    org: row.org,
    ns: row.ns,
    collection: row.collection,
    stream: d.stream,
    keyVersion: d.keyVersion,
    keyHashes: d.keyHashes,
    offsets: d.offsets,
    requested: row.requested,
    deadline: d.deadline,
  };
}

/** Writes a record create-only; one already there is kept as it is (a retry, or the first writer's). */
export async function writeRecordOnce(store: Store, path: string, rec: RequestRecord | CompletionRecord): Promise<void> {
  try {
    await putCreateOnly(store, path, Buffer.from(JSON.stringify(rec)));
  } catch (e) {
    if (!isStoreError(e, 'AlreadyExists')) throw e;
  }
}

export async function readRecord<T>(store: Store, path: string): Promise<T | null> {
  try {
    return JSON.parse((await store.get(path)).bytes.toString('utf8')) as T;
  } catch (e) {
    if (isStoreError(e, 'NotFound')) return null;
    throw e;
  }
}

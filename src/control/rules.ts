// The rules both ControlStore dialects share (sql.ts for SQLite and Postgres, dynamodb/ for
// DynamoDB), written once: how a binding's target is keyed, what a key looks like when listed,
// which authorization tuple a key or binding change puts in the outbox (spec §7), how a
// repeated create of an erasure request is answered (spec §9.6), and the sizes of the bounded
// reads. The storage mapping stays each dialect's.
import { errors } from '../meta/errors.js';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../meta/limits.js';
import {
  MAX_CHANGES_PAGE,
  MAX_ERASURE_PAGE,
  MAX_OUTBOX_PAGE,
  MAX_QUOTA_OVERRIDES,
  MAX_USAGE_ROWS,
  type ApiKeyInfo,
  type ApiKeyRecord,
  type BindingTarget,
  type ErasureRow,
  type OutboxEntry,
  type PageRequest,
  type RoleBinding,
} from './types.js';

/**
 * setQuota with a value: a new override (not a change of one the org holds) is refused once
 * the org holds MAX_QUOTA_OVERRIDES, so quotas() always answers every one of them.
 */
export function checkQuotaRoom(held: number, exists: boolean): void {
  if (!exists && held >= MAX_QUOTA_OVERRIDES) throw errors.limitExceeded('MAX_QUOTA_OVERRIDES (quota overrides of one org)', MAX_QUOTA_OVERRIDES, held + 1);
}

/** Where a usage page ends: its last row's (namespace, metric, window); usage() goes on after it. */
export function usageCursor(r: { ns: number | null; metric: string; window: number }): string {
  return `${r.ns ?? '-'}.${r.metric}.${r.window}`;
}

/** A usage cursor's parts; InvalidArgument naming `after` for anything usageCursor does not make. */
export function parseUsageCursor(s: string): { ns: number | null; metric: string; window: number } {
  const m = /^(-|\d{1,16})\.([a-z][a-z0-9_]{0,62})\.(\d{1,16})$/.exec(s);
  const ns = m && m[1] !== '-' ? Number(m[1]) : null;
  const window = m ? Number(m[3]) : NaN;
  if (!m || !Number.isSafeInteger(window) || (ns !== null && !Number.isSafeInteger(ns))) throw errors.invalid('after', `not a usage cursor: ${JSON.stringify(s.slice(0, 64))}`);
  return { ns, metric: m[2]!, window };
}

/** A binding target as stored: 'org', or 'ns:<id>'. */
export function targetKey(t: BindingTarget): string {
  return t.kind === 'org' ? 'org' : `ns:${t.ns}`;
}
export function parseTarget(s: string): BindingTarget {
  return s === 'org' ? { kind: 'org' } : { kind: 'namespace', ns: Number(s.slice(3)) };
}

/** A key as listed: everything but the hash. */
export function keyInfo(k: ApiKeyRecord): ApiKeyInfo {
  const { secretHash: _h, ...info } = k;
  return info;
}

/** An outbox entry before its seq: the tuple a change writes or deletes (spec §7). */
export type OutboxTuple = Omit<OutboxEntry, 'seq'>;

/** The tuple of a key's creation or revocation: the key is a member of its org. */
export function keyTuple(org: string, keyId: string, at: number): OutboxTuple {
  return { org, subject: `key:${keyId}`, relation: 'member', target: 'org', at };
}

/** The tuple of a role binding granted or revoked: the subject holds the role on the target. */
export function bindingTuple(b: Pick<RoleBinding, 'org' | 'subject' | 'role' | 'target'>, at: number): OutboxTuple {
  return { org: b.org, subject: b.subject, relation: b.role, target: targetKey(b.target), at };
}

/**
 * A create of an erasure request whose id is taken: the same request (org, namespace,
 * collection) is a retry and gets the stored row; another one is AlreadyExists.
 */
export function existingErasure(had: ErasureRow, row: Omit<ErasureRow, 'version'>): ErasureRow {
  if (had.org !== row.org || had.ns !== row.ns || had.collection !== row.collection) throw errors.alreadyExists(`erasure ${row.id}`, 0);
  return had;
}

/** Entries one outbox read returns: 1..MAX_OUTBOX_PAGE. */
export const outboxLimit = (limit: number): number => Math.min(Math.max(1, limit), MAX_OUTBOX_PAGE);
/** Rows one erasure list page holds: 1..MAX_ERASURE_PAGE, that by default. */
export const erasureLimit = (limit: number | undefined): number => Math.min(Math.max(1, limit ?? MAX_ERASURE_PAGE), MAX_ERASURE_PAGE);
/** Rollups one usage read returns: at most MAX_USAGE_ROWS, that by default. */
export const usageLimit = (limit: number | undefined): number => Math.min(limit ?? MAX_USAGE_ROWS, MAX_USAGE_ROWS);
/** Changes one changesSince returns: at most MAX_CHANGES_PAGE. */
export const changesLimit = (limit: number): number => Math.min(limit, MAX_CHANGES_PAGE);

/**
 * A listed page's size: the default when not given, else the whole number in [1,
 * MAX_PAGE_LIMIT] nearest to it — every ControlStore and cluster store pages by this one rule
 * (a size below 1 was a TypeError on DynamoDB and a page of one on SQL).
 */
export function pageLimit(p: PageRequest | undefined): number {
  const l = p?.limit;
  if (l === undefined || !Number.isFinite(l)) return DEFAULT_PAGE_LIMIT;
  return Math.min(Math.max(1, Math.floor(l)), MAX_PAGE_LIMIT);
}

// The ControlStore's values ↔ their proto messages (loam_remote.proto, service ControlStore),
// used by the remote ControlStore client (./remote.ts) and the server (src/remote). Absent
// optional fields are the contract's null (the .proto's header).
import { enumCodec } from '../meta/backends/remote/enums.js';
import type { ApiKeyInfo as WApiKeyInfo, ApiKeyInfo__Output as RApiKeyInfo } from '../meta/backends/remote/gen/loam/remote/v1/ApiKeyInfo.js';
import type { ApiKeyRecord as WApiKeyRecord, ApiKeyRecord__Output as RApiKeyRecord } from '../meta/backends/remote/gen/loam/remote/v1/ApiKeyRecord.js';
import type { BindingTarget as WBindingTarget, BindingTarget__Output as RBindingTarget } from '../meta/backends/remote/gen/loam/remote/v1/BindingTarget.js';
import type { ControlChange as WControlChange, ControlChange__Output as RControlChange } from '../meta/backends/remote/gen/loam/remote/v1/ControlChange.js';
import type { ControlChangeKind__Output as WControlChangeKind } from '../meta/backends/remote/gen/loam/remote/v1/ControlChangeKind.js';
import type { ControlFeedOrder__Output as WFeedOrder } from '../meta/backends/remote/gen/loam/remote/v1/ControlFeedOrder.js';
import type { ControlPageRequest as WPage, ControlPageRequest__Output as RPage } from '../meta/backends/remote/gen/loam/remote/v1/ControlPageRequest.js';
import type { OutboxEntry as WOutboxEntry, OutboxEntry__Output as ROutboxEntry } from '../meta/backends/remote/gen/loam/remote/v1/OutboxEntry.js';
import type { QuotaName__Output as WQuotaName } from '../meta/backends/remote/gen/loam/remote/v1/QuotaName.js';
import type { QuotaOverride as WQuotaOverride, QuotaOverride__Output as RQuotaOverride } from '../meta/backends/remote/gen/loam/remote/v1/QuotaOverride.js';
import type { Role__Output as WRole } from '../meta/backends/remote/gen/loam/remote/v1/Role.js';
import type { RoleBinding as WRoleBinding, RoleBinding__Output as RRoleBinding } from '../meta/backends/remote/gen/loam/remote/v1/RoleBinding.js';
import type { Transactions__Output as WTransactions } from '../meta/backends/remote/gen/loam/remote/v1/Transactions.js';
import type { UsageRollup as WUsageRollup, UsageRollup__Output as RUsageRollup } from '../meta/backends/remote/gen/loam/remote/v1/UsageRollup.js';
import {
  OPERATOR_ROLE,
  QUOTA_NAMES,
  ROLES,
  type ApiKeyInfo,
  type ApiKeyRecord,
  type BindingTarget,
  type ControlCapabilities,
  type ControlChange,
  type ControlChangeKind,
  type OutboxEntry,
  type PageRequest,
  type QuotaName,
  type QuotaOverride,
  type RoleBinding,
  type RoleName,
  type UsageRollup,
} from './types.js';

export const ROLE = enumCodec<RoleName, WRole>('ROLE', [...ROLES, OPERATOR_ROLE]);
export const QUOTA_NAME = enumCodec<QuotaName, WQuotaName>('QUOTA_NAME', QUOTA_NAMES);
export const CONTROL_CHANGE_KIND = enumCodec<ControlChangeKind, WControlChangeKind>('CONTROL_CHANGE_KIND', ['org', 'key', 'binding', 'quota']);
export const FEED_ORDER = enumCodec<ControlCapabilities['feedOrder'], WFeedOrder>('CONTROL_FEED_ORDER', ['ordered', 'gaps']);
export const CONTROL_TRANSACTIONS = enumCodec<ControlCapabilities['transactions'], WTransactions>('TRANSACTIONS', ['multi-item', 'single-item']);

const orNull = <T>(v: T | undefined): T | null => (v === undefined ? null : v);
/** A nullable contract value as an optional wire field (spread into the message). */
export function some<K extends string, T>(k: K, v: T | null | undefined): { [P in K]?: T } {
  return (v === null || v === undefined ? {} : { [k]: v }) as { [P in K]?: T };
}

export function pageToWire(p: PageRequest | undefined): WPage | null {
  return p ? { ...some('after', p.after), ...some('limit', p.limit) } : null;
}
export function pageFromWire(p: RPage | null): PageRequest | undefined {
  return p ? { ...some('after', p.after), ...some('limit', p.limit) } : undefined;
}

export function keyInfoToWire(k: ApiKeyInfo): WApiKeyInfo {
  return {
    keyId: k.keyId,
    org: k.org,
    scopes: [...k.scopes],
    ...some('expiry', k.expiry),
    createdBy: k.createdBy,
    created: k.created,
    ...some('lastUsed', k.lastUsed),
    ...some('revoked', k.revoked),
  };
}
export function keyInfoFromWire(k: RApiKeyInfo): ApiKeyInfo {
  return {
    keyId: k.keyId,
    org: k.org,
    scopes: [...k.scopes],
    expiry: orNull(k.expiry),
    createdBy: k.createdBy,
    created: k.created,
    lastUsed: orNull(k.lastUsed),
    revoked: orNull(k.revoked),
  };
}
export function keyRecordToWire(k: ApiKeyRecord): WApiKeyRecord {
  return { ...keyInfoToWire(k), secretHash: k.secretHash };
}
export function keyRecordFromWire(k: RApiKeyRecord): ApiKeyRecord {
  return { ...keyInfoFromWire(k), secretHash: k.secretHash };
}

export function targetToWire(t: BindingTarget): WBindingTarget {
  return t.kind === 'org' ? { org: true } : { ns: t.ns };
}
export function targetFromWire(t: RBindingTarget | null): BindingTarget {
  return t?.target === 'ns' ? { kind: 'namespace', ns: t.ns! } : { kind: 'org' };
}

export function bindingToWire(b: RoleBinding): WRoleBinding {
  return { org: b.org, subject: b.subject, role: ROLE.toWire(b.role), target: targetToWire(b.target), created: b.created };
}
export function bindingFromWire(b: RRoleBinding): RoleBinding {
  return { org: b.org, subject: b.subject, role: ROLE.fromWire(b.role, 'role'), target: targetFromWire(b.target), created: b.created };
}

export function quotaToWire(q: QuotaOverride): WQuotaOverride {
  return { org: q.org, ...some('ns', q.ns), name: QUOTA_NAME.toWire(q.name), value: q.value };
}
export function quotaFromWire(q: RQuotaOverride): QuotaOverride {
  return { org: q.org, ns: orNull(q.ns), name: QUOTA_NAME.fromWire(q.name, 'name'), value: q.value };
}

export function usageToWire(u: UsageRollup): WUsageRollup {
  return { org: u.org, ...some('ns', u.ns), metric: u.metric, window: u.window, value: u.value, updated: u.updated };
}
export function usageFromWire(u: RUsageRollup): UsageRollup {
  return { org: u.org, ns: orNull(u.ns), metric: u.metric, window: u.window, value: u.value, updated: u.updated };
}

export function outboxToWire(o: OutboxEntry): WOutboxEntry {
  return { seq: o.seq, org: o.org, subject: o.subject, relation: o.relation, target: o.target, at: o.at };
}
export function outboxFromWire(o: ROutboxEntry): OutboxEntry {
  return { seq: o.seq, org: o.org, subject: o.subject, relation: o.relation, target: o.target, at: o.at };
}

export function controlChangeToWire(c: ControlChange): WControlChange {
  return { version: c.version, kind: CONTROL_CHANGE_KIND.toWire(c.kind), org: c.org, id: c.id, at: c.at };
}
export function controlChangeFromWire(c: RControlChange): ControlChange {
  return { version: c.version, kind: CONTROL_CHANGE_KIND.fromWire(c.kind, 'kind'), org: c.org, id: c.id, at: c.at };
}

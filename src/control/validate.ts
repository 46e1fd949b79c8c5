// Argument checks of the ControlStore, the same on every backend (InvalidArgument naming the field).
import { errors } from '../meta/errors.js';
import { NAME_PATTERN, MAX_NAME_LENGTH, NAME_RULE } from '../meta/limits.js';
import { ERASURE_ID_PATTERN, JOB_NAME_PATTERN, MAX_ERASURE_DATA_BYTES, MAX_JOB_POSITION_LENGTH, MAX_MEMBER_INFO_BYTES, MAX_MEMBER_TTL_MS, MAX_NAMESPACE_KEY_VERSIONS, MAX_OUTBOX_PAGE, MAX_SCOPES, MAX_TOUCH_BATCH, MAX_USAGE_ROWS, NODE_ID_PATTERN, OPERATOR_ORG, OPERATOR_ROLE, QUOTA_BOUNDS, QUOTA_NAMES, ROLES, SCOPE_PATTERN, type ApiKeyRecord, type ErasureKeyRecord, type ErasureRow, type NamespaceKeyRecord, type QuotaName, type RoleBinding, type UsageDelta, type UsageRollup } from './types.js';

/** Largest usage increment (a safe integer: counters and bytes). */
export const MAX_USAGE_DELTA = Number.MAX_SAFE_INTEGER;

/** The named limits of the ControlStore's batch arguments (touchKeys, ackOutbox, putUsage, addUsage). */
const BATCH_LIMITS = { MAX_TOUCH_BATCH, MAX_OUTBOX_PAGE, MAX_USAGE_ROWS } as const;

/** A batch argument within its named limit: LimitExceeded naming it, before anything is written. */
export function checkBatch(limit: keyof typeof BATCH_LIMITS, items: readonly unknown[]): void {
  const max = BATCH_LIMITS[limit];
  if (items.length > max) throw errors.limitExceeded(limit, max, items.length);
}

/** A tenant org's id, or the operator's (OPERATOR_ORG, which no tenant org can be named). */
export function checkOrg(id: string): void {
  if (id === OPERATOR_ORG) return;
  checkTenantOrg(id);
}

/** A tenant org's id: what orgs may be created as. */
export function checkTenantOrg(id: string): void {
  if (typeof id !== 'string' || id.length > MAX_NAME_LENGTH || !NAME_PATTERN.test(id)) throw errors.invalid('org', `must be ${NAME_RULE}`);
}

export function checkScopes(scopes: unknown): void {
  if (!Array.isArray(scopes) || scopes.length === 0 || scopes.length > MAX_SCOPES) throw errors.invalid('scopes', `must be 1..${MAX_SCOPES} scopes`);
  for (const s of scopes) {
    if (typeof s !== 'string' || !SCOPE_PATTERN.test(s)) throw errors.invalid('scopes', `"${String(s)}" is not a scope (*, read, write, admin, ns:<namespace>)`);
  }
}

export function checkKey(rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): void {
  checkOrg(rec.org);
  if (!/^[0-9a-f]{16}$/.test(rec.keyId)) throw errors.invalid('keyId', 'must be 16 hex digits');
  if (!/^[0-9a-f]{64}$/.test(rec.secretHash)) throw errors.invalid('secretHash', 'must be a hex sha256');
  checkScopes(rec.scopes);
  if (rec.expiry !== null && !Number.isSafeInteger(rec.expiry)) throw errors.invalid('expiry', 'must be epoch ms or null');
  if (typeof rec.createdBy !== 'string' || rec.createdBy.length === 0 || rec.createdBy.length > 128) throw errors.invalid('createdBy', 'must be 1-128 characters');
}

export function checkBinding(b: Omit<RoleBinding, 'created'>): void {
  checkOrg(b.org);
  if (typeof b.subject !== 'string' || !/^key:[0-9a-f]{16}$/.test(b.subject)) throw errors.invalid('subject', 'must be key:<key_id>');
  if (b.org === OPERATOR_ORG) {
    // The operator's keys hold the operator role only, and no tenant key can hold it.
    if (b.role !== OPERATOR_ROLE || b.target.kind !== 'org') throw errors.invalid('role', `the operator org's keys hold the ${OPERATOR_ROLE} role, on the org`);
  } else if (!(ROLES as readonly string[]).includes(b.role)) throw errors.invalid('role', `must be one of ${ROLES.join(', ')}`);
  if (b.target.kind === 'namespace' && !(Number.isSafeInteger(b.target.ns) && b.target.ns >= 0)) throw errors.invalid('target.ns', 'must be a namespace id');
  if (b.target.kind !== 'org' && b.target.kind !== 'namespace') throw errors.invalid('target', 'must be the org or a namespace');
  if (b.role === 'org_admin' && b.target.kind !== 'org') throw errors.invalid('role', 'org_admin is granted on the org');
}

export function checkQuota(org: string, ns: number | null, name: string, value: number | null): void {
  checkOrg(org);
  if (ns !== null && !(Number.isSafeInteger(ns) && ns >= 0)) throw errors.invalid('ns', 'must be a namespace id or null');
  if (org === OPERATOR_ORG) throw errors.invalid('org', 'the operator org has no quotas to set');
  if (!(QUOTA_NAMES as readonly string[]).includes(name)) throw errors.invalid('name', `must be one of ${QUOTA_NAMES.join(', ')}`);
  if (value === null) return;
  const b = QUOTA_BOUNDS[name as QuotaName];
  if (!(typeof value === 'number' && Number.isFinite(value) && value >= b.min && value <= b.max && (!b.integer || Number.isInteger(value)))) {
    throw errors.invalid('value', `${name} must be ${b.integer ? 'an integer' : 'a number'} in ${b.min}..${b.max}, or null to clear the override`);
  }
}

export function checkHeartbeat(node: string, ttlMs: number, at: number, info?: string): void {
  checkNode(node);
  if (info !== undefined && !(typeof info === 'string' && Buffer.byteLength(info) <= MAX_MEMBER_INFO_BYTES)) {
    throw errors.invalid('info', `must be a string of at most ${MAX_MEMBER_INFO_BYTES} bytes`);
  }
  if (!(Number.isSafeInteger(ttlMs) && ttlMs > 0 && ttlMs <= MAX_MEMBER_TTL_MS)) throw errors.invalid('ttlMs', `must be an integer in 1..${MAX_MEMBER_TTL_MS}`);
  if (!Number.isSafeInteger(at) || at < 0) throw errors.invalid('at', 'must be epoch ms');
}

export function checkNode(node: string): void {
  if (typeof node !== 'string' || !NODE_ID_PATTERN.test(node)) throw errors.invalid('node', 'must be 1-64 characters of A-Z a-z 0-9 _ -');
}

/** Usage metric names: short identifiers (requests, ingest_bytes, storage_bytes). */
export const USAGE_METRIC_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

/** Where a usage row lives: its org, namespace (or null), metric and window. */
function checkUsageRow(u: { org: string; ns: number | null; metric: string; window: number }): void {
  checkOrg(u.org);
  if (u.ns !== null && !(Number.isSafeInteger(u.ns) && u.ns >= 0)) throw errors.invalid('ns', 'must be a namespace id or null');
  if (typeof u.metric !== 'string' || !USAGE_METRIC_PATTERN.test(u.metric)) throw errors.invalid('metric', 'must be 1-63 characters of a-z 0-9 _, starting with a letter');
  if (!Number.isSafeInteger(u.window) || u.window < 0) throw errors.invalid('window', 'must be epoch ms');
}

/** A usage amount: a finite number in 0..MAX_USAGE_DELTA (NaN and ±Infinity are no amount a store can keep). */
function checkUsageAmount(field: 'delta' | 'value', x: unknown): void {
  if (!(typeof x === 'number' && Number.isFinite(x) && x >= 0 && x <= MAX_USAGE_DELTA)) throw errors.invalid(field, `must be a finite number in 0..${MAX_USAGE_DELTA}`);
}

export function checkUsageDelta(u: UsageDelta): void {
  checkUsageRow(u);
  checkUsageAmount('delta', u.delta);
}

/** A rollup putUsage sets (spec §6: usage rollups). */
export function checkUsageRollup(u: Omit<UsageRollup, 'updated'>): void {
  checkUsageRow(u);
  checkUsageAmount('value', u.value);
}

export function checkJob(job: string): void {
  if (typeof job !== 'string' || !JOB_NAME_PATTERN.test(job)) throw errors.invalid('job', 'must be 1-63 of a-z 0-9 -, starting with a letter');
}

export function checkJobPosition(position: string | null): void {
  if (position === null) return;
  if (typeof position !== 'string' || position.length === 0 || position.length > MAX_JOB_POSITION_LENGTH) {
    throw errors.invalid('position', `must be null or 1..${MAX_JOB_POSITION_LENGTH} characters`);
  }
}

/** Wrapped KEKs are a few hundred bytes (a KMS ciphertext blob); this bounds a stored row. */
export const MAX_WRAPPED_KEY_CHARS = 8_192;

export function checkNamespaceKey(rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): void {
  if (!Number.isSafeInteger(rec.ns) || rec.ns < 0) throw errors.invalid('ns', 'must be a namespace id');
  if (!Number.isSafeInteger(rec.version) || rec.version < 1 || rec.version > MAX_NAMESPACE_KEY_VERSIONS) throw errors.invalid('version', `must be 1..${MAX_NAMESPACE_KEY_VERSIONS}`);
  if (rec.provider !== 'local' && rec.provider !== 'kms') throw errors.invalid('provider', 'must be local or kms');
  if (typeof rec.keyRef !== 'string' || rec.keyRef.length === 0 || rec.keyRef.length > 2048) throw errors.invalid('keyRef', 'must be 1..2048 characters');
  if (typeof rec.wrapped !== 'string' || rec.wrapped.length === 0 || rec.wrapped.length > MAX_WRAPPED_KEY_CHARS || !/^[A-Za-z0-9+/=]+$/.test(rec.wrapped)) {
    throw errors.invalid('wrapped', `must be base64, 1..${MAX_WRAPPED_KEY_CHARS} characters`);
  }
}

export function checkErasureKey(k: ErasureKeyRecord): void {
  checkTenantOrg(k.org);
  if (!Number.isSafeInteger(k.version) || k.version < 1) throw errors.invalid('version', 'must be an integer >= 1');
  if (typeof k.wrapped !== 'string' || k.wrapped.length === 0 || k.wrapped.length > 1024) throw errors.invalid('wrapped', 'must be the wrapped key (base64, at most 1024 characters)');
  if (!Number.isSafeInteger(k.created)) throw errors.invalid('created', 'must be epoch ms');
}

export function checkErasureData(data: string): void {
  if (typeof data !== 'string' || Buffer.byteLength(data) > MAX_ERASURE_DATA_BYTES) throw errors.invalid('data', `must be JSON text of at most ${MAX_ERASURE_DATA_BYTES} bytes`);
}

export function checkErasureRow(r: Omit<ErasureRow, 'version'>): void {
  if (typeof r.id !== 'string' || !ERASURE_ID_PATTERN.test(r.id)) throw errors.invalid('id', 'must be er_ and 8-64 hex digits');
  checkTenantOrg(r.org);
  for (const f of ['ns', 'collection', 'requested'] as const) if (!Number.isSafeInteger(r[f]) || r[f] < 0) throw errors.invalid(f, 'must be a non-negative integer');
  if (typeof r.phase !== 'string' || r.phase.length === 0 || r.phase.length > 32) throw errors.invalid('phase', 'must be 1-32 characters');
  checkErasureData(r.data);
}

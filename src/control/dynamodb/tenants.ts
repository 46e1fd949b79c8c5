// Orgs, API keys and role bindings on DynamoDB:
//
//   pk ctl#org          sk <org>                       created
//   pk ctl#key          sk <key_id>                    org, hash, scopes (JSON), expiry, createdBy, created, lastUsed, revoked
//   pk ctl#bind#<org>   sk <subject>#<target>#<role>   subject, target, role, created
//
// Creates are conditional puts (attribute_not_exists: a taken id is AlreadyExists; a binding
// that exists is granted already). Every change goes through the context's `write`, with its
// feed entry and, for keys and bindings, its outbox tuple (../rules.ts). Keys live in one
// partition (ctl#key): a key lookup is one GetItem by id; listing an org's keys filters that
// partition (keys are few, and lookups are cached by the gateways). last_used updates are
// conditional single-item writes that never move it backwards.
import { ConditionalCheckFailedException, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { errors } from '../../meta/errors.js';
import { MAX_PAGE_LIMIT } from '../../meta/limits.js';
import { bindingTuple, keyInfo, keyTuple, pageLimit, parseTarget, targetKey } from '../rules.js';
import { type ApiKeyInfo, type ApiKeyRecord, type Org, type Page, type PageRequest, type RoleBinding, type RoleName } from '../types.js';
import { checkBatch, checkBinding, checkKey, checkOrg } from '../validate.js';
import { enc, num, type Obj } from './codec.js';
import { dropNamespaceQuotas } from './usage.js';
import { inParallel, mapError, type ControlContext } from './context.js';

// ---- orgs

export async function createOrg(cx: ControlContext, id: string, at = Date.now()): Promise<Org> {
  checkOrg(id);
  try {
    await cx.write([{ Put: { TableName: cx.table, Item: enc({ pk: 'ctl#org', sk: id, created: at }), ConditionExpression: 'attribute_not_exists(pk)' } }], { kind: 'org', org: id, id: '', at });
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`org "${id}"`, 0);
    throw e;
  }
  return { id, created: at };
}

export async function org(cx: ControlContext, id: string): Promise<Org> {
  const it = await cx.get('ctl#org', id);
  if (!it) throw errors.notFound(`org "${id}"`);
  return { id, created: Number(it.created) };
}

export async function listOrgs(cx: ControlContext, p?: PageRequest): Promise<Page<Org>> {
  const limit = pageLimit(p);
  const rows = await cx.query('ctl#org', { after: p?.after ?? '', max: limit + 1 });
  const items = rows.slice(0, limit).map((r) => ({ id: String(r.sk), created: Number(r.created) }));
  return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
}

// ---- API keys

function keyOf(it: Obj): ApiKeyRecord {
  return {
    keyId: String(it.sk),
    org: String(it.org),
    secretHash: String(it.hash),
    scopes: JSON.parse(String(it.scopes)) as string[],
    expiry: num(it.expiry),
    createdBy: String(it.createdBy),
    created: Number(it.created),
    lastUsed: num(it.lastUsed),
    revoked: num(it.revoked),
  };
}

export async function createKey(cx: ControlContext, rec: Omit<ApiKeyRecord, 'lastUsed' | 'revoked'>): Promise<ApiKeyInfo> {
  checkKey(rec);
  await org(cx, rec.org);
  const item = enc({
    pk: 'ctl#key',
    sk: rec.keyId,
    org: rec.org,
    hash: rec.secretHash,
    scopes: JSON.stringify(rec.scopes),
    expiry: rec.expiry,
    createdBy: rec.createdBy,
    created: rec.created,
    lastUsed: null,
    revoked: null,
  });
  try {
    await cx.write(
      [{ Put: { TableName: cx.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } }],
      { kind: 'key', org: rec.org, id: rec.keyId, at: rec.created },
      keyTuple(rec.org, rec.keyId, rec.created),
    );
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`key ${rec.keyId}`, 0);
    throw e;
  }
  return keyInfo({ ...rec, lastUsed: null, revoked: null });
}

export async function key(cx: ControlContext, keyId: string): Promise<ApiKeyRecord> {
  const it = await cx.get('ctl#key', keyId);
  if (!it) throw errors.notFound(`key ${keyId}`);
  return keyOf(it);
}

export async function listKeys(cx: ControlContext, org: string, p?: PageRequest): Promise<Page<ApiKeyInfo>> {
  const limit = pageLimit(p);
  const rows = await cx.query('ctl#key', { after: p?.after ?? '', max: limit + 1, keep: (it) => it.org === org });
  const items = rows.slice(0, limit).map((r) => keyInfo(keyOf(r)));
  return rows.length > limit ? { items, next: items[items.length - 1]!.keyId } : { items };
}

export async function revokeKey(cx: ControlContext, org: string, keyId: string, at = Date.now()): Promise<void> {
  const k = await key(cx, keyId).catch(() => null);
  if (!k || k.org !== org) throw errors.notFound(`key ${keyId}`);
  if (k.revoked !== null) return;
  await cx.write(
    [{ Update: { TableName: cx.table, Key: enc({ pk: 'ctl#key', sk: keyId }), UpdateExpression: 'SET revoked = :at', ExpressionAttributeValues: enc({ ':at': at }) } }],
    { kind: 'key', org, id: keyId, at },
    keyTuple(org, keyId, at),
  );
}

export async function touchKeys(cx: ControlContext, touches: { keyId: string; at: number }[]): Promise<void> {
  checkBatch('MAX_TOUCH_BATCH', touches);
  await inParallel(touches, (t) =>
    cx.client
      .send(
        new UpdateItemCommand({
          TableName: cx.table,
          Key: enc({ pk: 'ctl#key', sk: t.keyId }),
          UpdateExpression: 'SET lastUsed = :at',
          ConditionExpression: 'attribute_exists(pk) AND (attribute_type(lastUsed, :null) OR lastUsed < :at)',
          ExpressionAttributeValues: enc({ ':at': t.at, ':null': 'NULL' }),
        }),
      )
      .catch((e: unknown) => {
        if (!(e instanceof ConditionalCheckFailedException)) throw mapError(e);
      }),
  );
}

// ---- role bindings

function bindSk(b: Omit<RoleBinding, 'created'>): string {
  return `${b.subject}#${targetKey(b.target)}#${b.role}`;
}

function bindingOf(org: string, it: Obj): RoleBinding {
  return { org, subject: String(it.subject), role: String(it.role) as RoleName, target: parseTarget(String(it.target)), created: Number(it.created) };
}

export async function grant(cx: ControlContext, b: Omit<RoleBinding, 'created'>): Promise<RoleBinding> {
  checkBinding(b);
  await org(cx, b.org);
  const at = Date.now();
  try {
    await cx.write(
      [
        {
          Put: {
            TableName: cx.table,
            Item: enc({ pk: `ctl#bind#${b.org}`, sk: bindSk(b), subject: b.subject, target: targetKey(b.target), role: b.role, created: at }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
      { kind: 'binding', org: b.org, id: b.subject, at },
      bindingTuple(b, at),
    );
  } catch (e) {
    if (!(e instanceof ConditionalCheckFailedException)) throw e;
  }
  return { ...b, created: at };
}

export async function revokeGrant(cx: ControlContext, b: Omit<RoleBinding, 'created'>): Promise<void> {
  checkBinding(b);
  const at = Date.now();
  await cx.write([{ Delete: { TableName: cx.table, Key: enc({ pk: `ctl#bind#${b.org}`, sk: bindSk(b) }) } }], { kind: 'binding', org: b.org, id: b.subject, at }, bindingTuple(b, at));
}

export async function bindings(cx: ControlContext, org: string, subject: string): Promise<RoleBinding[]> {
  const rows = await cx.query(`ctl#bind#${org}`, { prefix: `${subject}#`, max: MAX_PAGE_LIMIT });
  return rows.map((r) => bindingOf(org, r));
}

export async function listBindings(cx: ControlContext, org: string, p?: PageRequest): Promise<Page<RoleBinding>> {
  const limit = pageLimit(p);
  const rows = await cx.query(`ctl#bind#${org}`, { after: p?.after ?? '', max: limit + 1 });
  const items = rows.slice(0, limit).map((r) => bindingOf(org, r));
  return rows.length > limit ? { items, next: String(rows[limit - 1]!.sk) } : { items };
}

export async function dropNamespaceBindings(cx: ControlContext, org: string, ns: number): Promise<void> {
  const t = `ns:${ns}`;
  const rows = await cx.query(`ctl#bind#${org}`, { after: '', max: MAX_PAGE_LIMIT, keep: (it) => it.target === t });
  for (const r of rows) {
    const at = Date.now();
    await cx.write(
      [{ Delete: { TableName: cx.table, Key: enc({ pk: `ctl#bind#${org}`, sk: String(r.sk) }) } }],
      { kind: 'binding', org, id: String(r.subject), at },
      bindingTuple({ org, subject: String(r.subject), role: String(r.role) as RoleName, target: { kind: 'namespace', ns } }, at),
    );
  }
  // Its quota overrides too: no name resolves to it any more, so nothing else could clear them.
  await dropNamespaceQuotas(cx, org, ns);
}

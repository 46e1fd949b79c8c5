// Erasure (spec §9.6) on DynamoDB: the per-org erasure-log keys (wrapped) and the erasure
// requests.
//
//   pk ctl#ekey#<org>   sk <version, 16 digits>   org, version, wrapped, created, destroyed
//   pk ctl#erasure      sk <id>                    org, ns, collection, phase, requested, completed, version, data
//
// Creates are conditional puts (attribute_not_exists); a repeated request create is answered
// by the shared rule (../rules.ts existingErasure). A destroyed key keeps its item with
// wrapped = ''. An update of a request is conditioned on the version the caller read.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { errors } from '../../meta/errors.js';
import { MAX_PAGE_LIMIT } from '../../meta/limits.js';
import { erasureLimit, existingErasure } from '../rules.js';
import type { ErasureKeyRecord, ErasureRow, Page } from '../types.js';
import { checkErasureData, checkErasureKey, checkErasureRow } from '../validate.js';
import { P16, enc, num, type Obj } from './codec.js';
import type { ControlContext } from './context.js';

// ---- erasure-log keys

export async function putErasureKey(cx: ControlContext, k: ErasureKeyRecord): Promise<void> {
  checkErasureKey(k);
  try {
    await cx.one({
      Put: {
        TableName: cx.table,
        Item: enc({ pk: `ctl#ekey#${k.org}`, sk: P16(k.version), org: k.org, version: k.version, wrapped: k.wrapped, created: k.created, destroyed: null }),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`erasure-log key version ${k.version} of org "${k.org}"`, k.version);
    throw e;
  }
}

export async function erasureKeys(cx: ControlContext, org: string): Promise<ErasureKeyRecord[]> {
  const rows = await cx.query(`ctl#ekey#${org}`, { after: '', max: MAX_PAGE_LIMIT });
  return rows.map((r) => ({ org, version: Number(r.version), wrapped: String(r.wrapped ?? ''), created: Number(r.created), destroyed: num(r.destroyed) }));
}

export async function destroyErasureKeys(cx: ControlContext, org: string, at = Date.now()): Promise<number> {
  let n = 0;
  for (const k of await erasureKeys(cx, org)) {
    if (k.destroyed !== null) continue;
    await cx.one({
      Update: {
        TableName: cx.table,
        Key: enc({ pk: `ctl#ekey#${org}`, sk: P16(k.version) }),
        UpdateExpression: 'SET wrapped = :e, destroyed = :at',
        ExpressionAttributeValues: enc({ ':e': '', ':at': at }),
      },
    });
    n++;
  }
  return n;
}

// ---- erasure requests

function erasureOf(it: Obj): ErasureRow {
  return {
    id: String(it.sk),
    org: String(it.org),
    ns: Number(it.ns),
    collection: Number(it.collection),
    phase: String(it.phase),
    requested: Number(it.requested),
    completed: num(it.completed),
    version: Number(it.version),
    data: String(it.data),
  };
}

export async function createErasure(cx: ControlContext, row: Omit<ErasureRow, 'version'>): Promise<ErasureRow> {
  checkErasureRow(row);
  const { id, ...rest } = row;
  try {
    await cx.one({ Put: { TableName: cx.table, Item: enc({ pk: 'ctl#erasure', sk: id, ...rest, version: 1 }), ConditionExpression: 'attribute_not_exists(pk)' } });
  } catch (e) {
    if (!(e instanceof ConditionalCheckFailedException)) throw e;
    return existingErasure(await erasure(cx, row.id), row);
  }
  return { ...row, version: 1 };
}

export async function erasure(cx: ControlContext, id: string): Promise<ErasureRow> {
  const it = await cx.get('ctl#erasure', id);
  if (!it) throw errors.notFound(`erasure ${id}`);
  return erasureOf(it);
}

export async function updateErasure(cx: ControlContext, id: string, expectedVersion: number, next: Pick<ErasureRow, 'phase' | 'completed' | 'data'>): Promise<ErasureRow> {
  checkErasureData(next.data);
  const cur = await erasure(cx, id);
  if (cur.version !== expectedVersion) throw errors.versionMismatch(`erasure ${id}`, expectedVersion, cur.version);
  try {
    await cx.one({
      Update: {
        TableName: cx.table,
        Key: enc({ pk: 'ctl#erasure', sk: id }),
        UpdateExpression: 'SET phase = :p, completed = :c, #d = :d, version = :nv',
        ConditionExpression: 'version = :v',
        ExpressionAttributeNames: { '#d': 'data' },
        ExpressionAttributeValues: enc({ ':p': next.phase, ':c': next.completed, ':d': next.data, ':nv': expectedVersion + 1, ':v': expectedVersion }),
      },
    });
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) throw errors.versionMismatch(`erasure ${id}`, expectedVersion, null);
    throw e;
  }
  return { ...cur, ...next, version: expectedVersion + 1 };
}

export async function listErasures(cx: ControlContext, o: { org?: string; active?: boolean; after?: string; limit?: number }): Promise<Page<ErasureRow>> {
  const limit = erasureLimit(o.limit);
  const rows = await cx.query('ctl#erasure', {
    after: o.after ?? '',
    max: limit + 1,
    keep: (it) => (o.org === undefined || String(it.org) === o.org) && (!o.active || num(it.completed) === null),
  });
  const items = rows.slice(0, limit).map(erasureOf);
  return rows.length > limit ? { items, next: items[items.length - 1]!.id } : { items };
}

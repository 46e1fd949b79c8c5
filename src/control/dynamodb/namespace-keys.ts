// Namespace key-encryption keys (spec §9.8) on DynamoDB, wrapped:
//
//   pk ctl#nskey#<ns>   sk <version, 16 digits>   ns, version, provider, keyRef, wrapped, state, created, destroyed
//
// A version is created by a conditional put (attribute_not_exists); destroying a namespace's
// keys blanks every version (it keeps its item, state 'destroyed') and then writes one feed
// entry, so nodes drop the namespace's keys from their caches.
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { errors } from '../../meta/errors.js';
import { MAX_NAMESPACE_KEY_VERSIONS, type NamespaceKeyRecord } from '../types.js';
import { checkNamespaceKey } from '../validate.js';
import { P16, enc } from './codec.js';
import type { ControlContext } from './context.js';

export async function createNamespaceKey(cx: ControlContext, rec: Omit<NamespaceKeyRecord, 'state' | 'destroyed'>): Promise<NamespaceKeyRecord> {
  checkNamespaceKey(rec);
  const item = { pk: `ctl#nskey#${rec.ns}`, sk: P16(rec.version), ns: rec.ns, version: rec.version, provider: rec.provider, keyRef: rec.keyRef, wrapped: rec.wrapped, state: 'active', created: rec.created };
  try {
    await cx.one({ Put: { TableName: cx.table, Item: enc(item), ConditionExpression: 'attribute_not_exists(pk)' } });
  } catch (e) {
    if (e instanceof ConditionalCheckFailedException) throw errors.alreadyExists(`key version ${rec.version} of namespace ${rec.ns}`, rec.ns);
    throw e;
  }
  return { ...rec, state: 'active', destroyed: null };
}

export async function namespaceKeys(cx: ControlContext, ns: number): Promise<NamespaceKeyRecord[]> {
  const items = await cx.query(`ctl#nskey#${ns}`, { max: MAX_NAMESPACE_KEY_VERSIONS });
  return items.map((it) => ({
    ns: Number(it.ns),
    version: Number(it.version),
    provider: String(it.provider) as NamespaceKeyRecord['provider'],
    keyRef: String(it.keyRef),
    wrapped: String(it.wrapped ?? ''),
    state: String(it.state) as NamespaceKeyRecord['state'],
    created: Number(it.created),
    destroyed: it.destroyed === undefined || it.destroyed === null ? null : Number(it.destroyed),
  }));
}

export async function destroyNamespaceKeys(cx: ControlContext, ns: number, at = Date.now()): Promise<void> {
  // Each version on its own (a namespace may have more than a transaction holds), then the
  // feed entry: a crash between them leaves the keys destroyed and nodes notice at their refresh.
  for (const it of await cx.query(`ctl#nskey#${ns}`, { max: MAX_NAMESPACE_KEY_VERSIONS })) {
    await cx.one({
      Update: {
        TableName: cx.table,
        Key: enc({ pk: String(it.pk), sk: String(it.sk) }),
        // wrapped, state and destroyed are DynamoDB reserved words: named through placeholders.
        UpdateExpression: 'SET #w = :e, #s = :d, #d = if_not_exists(#d, :at)',
        ExpressionAttributeNames: { '#w': 'wrapped', '#s': 'state', '#d': 'destroyed' },
        ExpressionAttributeValues: enc({ ':e': '', ':d': 'destroyed', ':at': at }),
      },
    });
  }
  await cx.write([], { kind: 'nskey', org: '', id: String(ns), at });
}

// Gateway membership on DynamoDB (spec §5.3):
//
//   pk ctl#member   sk <node>   expires, info
//
// A heartbeat is one conditional UpdateItem that never moves `expires` backwards (a late,
// older heartbeat leaves a newer one standing); membership writes no feed entry. Expired
// members are nobody's: whoever beats next deletes a bounded number of them, each on the
// condition that it is still expired (it may have beaten meanwhile).
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { MAX_MEMBERS, type Member } from '../types.js';
import { checkHeartbeat, checkNode } from '../validate.js';
import { enc } from './codec.js';
import type { ControlContext } from './context.js';

/** Expired members one heartbeat deletes, at most. */
export const MAX_EXPIRED_PER_BEAT = 10;

export async function heartbeat(cx: ControlContext, node: string, ttlMs: number, at = Date.now(), info?: string): Promise<void> {
  checkHeartbeat(node, ttlMs, at, info);
  const expires = at + ttlMs;
  try {
    // Never backwards: a late, older heartbeat leaves a newer one standing. An update, so a
    // heartbeat without info keeps the item's.
    await cx.one({
      Update: {
        TableName: cx.table,
        Key: enc({ pk: 'ctl#member', sk: node }),
        UpdateExpression: info === undefined ? 'SET expires = :e' : 'SET expires = :e, info = :i',
        ConditionExpression: 'attribute_not_exists(pk) OR expires < :e',
        ExpressionAttributeValues: enc(info === undefined ? { ':e': expires } : { ':e': expires, ':i': info }),
      },
    });
  } catch (e) {
    if (!(e instanceof ConditionalCheckFailedException)) throw e;
    if (info !== undefined) {
      // A newer heartbeat stands; the info is still this node's latest word about itself.
      await cx
        .one({
          Update: {
            TableName: cx.table,
            Key: enc({ pk: 'ctl#member', sk: node }),
            UpdateExpression: 'SET info = :i',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: enc({ ':i': info }),
          },
        })
        .catch((e2: unknown) => {
          if (!(e2 instanceof ConditionalCheckFailedException)) throw e2;
        });
    }
  }
  // Expired members are nobody's: whoever beats next clears them (bounded per beat).
  const expired = await cx.query('ctl#member', { max: MAX_EXPIRED_PER_BEAT, keep: (it) => Number(it.expires) <= at });
  for (const it of expired) {
    try {
      await cx.one({ Delete: { TableName: cx.table, Key: enc({ pk: 'ctl#member', sk: String(it.sk) }), ConditionExpression: 'expires <= :at', ExpressionAttributeValues: enc({ ':at': at }) } });
    } catch (e) {
      if (!(e instanceof ConditionalCheckFailedException)) throw e; // it beat meanwhile
    }
  }
}

export async function members(cx: ControlContext, at = Date.now()): Promise<Member[]> {
  const items = await cx.query('ctl#member', { max: MAX_MEMBERS, keep: (it) => Number(it.expires) > at });
  return items.map((it) => ({ node: String(it.sk), expires: Number(it.expires), info: typeof it.info === 'string' ? it.info : '' }));
}

export async function leave(cx: ControlContext, node: string): Promise<void> {
  checkNode(node);
  await cx.one({ Delete: { TableName: cx.table, Key: enc({ pk: 'ctl#member', sk: node }) } });
}

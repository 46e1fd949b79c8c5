// Expression building for DynamoDB requests: every attribute name goes through a '#name'
// placeholder (many of ours are reserved words: state, next, end, path, name…) and every
// value through a ':vN' placeholder, and transaction items carry ALL_OLD on condition failure.
import type { TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { marshal, values, type Item, type Scalar } from './codec.js';
import { keyOf, type Key } from './keys.js';
import type { TxItem } from './sdk.js';

export class Expr {
  readonly names: Record<string, string> = {};
  readonly vals: Record<string, Scalar> = {};
  private n = 0;

  /** An attribute name placeholder. */
  a(name: string): string {
    const k = `#${name}`;
    this.names[k] = name;
    return k;
  }

  /** A value placeholder. */
  v(val: Scalar): string {
    const k = `:v${this.n++}`;
    this.vals[k] = val;
    return k;
  }

  /** The request parts for the placeholders used (empty maps are omitted: DynamoDB refuses them). */
  parts(): { ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: ReturnType<typeof values> } {
    return {
      ...(Object.keys(this.names).length ? { ExpressionAttributeNames: this.names } : {}),
      ...(Object.keys(this.vals).length ? { ExpressionAttributeValues: values(this.vals) } : {}),
    };
  }
}

export type Build = (e: Expr) => string;

const ALL_OLD = { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const };

export function txPut(role: string, key: Key, item: Item, cond?: Build): TxItem {
  const e = new Expr();
  const c = cond?.(e);
  const op: TransactWriteItem = {
    Put: { TableName: '', Item: { ...marshal(item), ...keyOf(key) }, ...(c ? { ConditionExpression: c, ...ALL_OLD } : {}), ...e.parts() },
  };
  return { role, key, op };
}

export function txUpdate(role: string, key: Key, update: Build, cond?: Build): TxItem {
  const e = new Expr();
  const u = update(e);
  const c = cond?.(e);
  const op: TransactWriteItem = {
    Update: { TableName: '', Key: keyOf(key), UpdateExpression: u, ...(c ? { ConditionExpression: c, ...ALL_OLD } : {}), ...e.parts() },
  };
  return { role, key, op };
}

export function txDelete(role: string, key: Key, cond?: Build): TxItem {
  const e = new Expr();
  const c = cond?.(e);
  const op: TransactWriteItem = { Delete: { TableName: '', Key: keyOf(key), ...(c ? { ConditionExpression: c, ...ALL_OLD } : {}), ...e.parts() } };
  return { role, key, op };
}

export function txCheck(role: string, key: Key, cond: Build): TxItem {
  const e = new Expr();
  const c = cond(e);
  const op: TransactWriteItem = { ConditionCheck: { TableName: '', Key: keyOf(key), ConditionExpression: c, ...ALL_OLD, ...e.parts() } };
  return { role, key, op };
}

/** Single-item request parts from the same builders. */
export function single(key: Key, update: Build, cond?: Build) {
  const e = new Expr();
  const u = update(e);
  const c = cond?.(e);
  return { Key: keyOf(key), UpdateExpression: u, ...(c ? { ConditionExpression: c } : {}), ...e.parts() };
}

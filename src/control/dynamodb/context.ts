// The shared context of the DynamoDB ControlStore's modules: the metastore's client and table,
// the profile, and the few ways every module reads and writes its `ctl#` items:
//
// - `get` is one consistent GetItem; `query` follows one partition's pages (consistent, at
//   most MAX_CONTROL_QUERY_PAGES) with an optional sort-key prefix and a filter;
// - `one` sends one Put, Update or Delete as a single-item write;
// - `write` publishes a change: it takes the feed version from the `ctl#ctr/ver` counter (one
//   atomic ADD) and, for a key or binding change with the outbox on, an outbox seq from
//   `ctl#ctr/outbox`; the dynamodb profile then writes the entity, its feed entry and its
//   outbox entry in one TransactWriteItems, the alternator profile (single-item, spec §4.1)
//   one after the other. Either way two writers may publish versions out of order for a
//   moment, so the feed declares feedOrder 'gaps' and watchers wait a gap out
//   (CHANGE_GAP_WAIT_MS) before they skip it.
//
// SDK errors become typed errors here (throttling and transient faults → retryable);
// ConditionalCheckFailedException passes through for the modules to answer in the call's words.
import {
  ConditionalCheckFailedException,
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type TransactWriteItem,
} from '@aws-sdk/client-dynamodb';
import { errors, isMetaError } from '../../meta/errors.js';
import type { ControlChangeKind, ControlOptions, OutboxEntry } from '../types.js';
import { P16, dec, enc, type Obj } from './codec.js';

/** Query pages followed per call, at most (every loop over input has a bound). */
export const MAX_CONTROL_QUERY_PAGES = 100;
/** Parallel single-item writes of one batch call (last_used updates, usage rows, outbox acks). */
export const TOUCH_PARALLEL = 10;

export type ControlProfile = 'dynamodb' | 'alternator';

/** Runs `write` for every item, TOUCH_PARALLEL at a time (the single-item writes of one batch call). */
export async function inParallel<T>(items: readonly T[], write: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += TOUCH_PARALLEL) await Promise.all(items.slice(i, i + TOUCH_PARALLEL).map(write));
}

export function mapError(e: unknown): unknown {
  if (isMetaError(e)) return e;
  const name = (e as { name?: string }).name ?? '';
  if (/Throttl|ProvisionedThroughput|RequestLimit|InternalServer|ServiceUnavailable|TransactionConflict|TimeoutError|ECONN/.test(name + String((e as Error).message)))
    return errors.retryable('throttle', `dynamodb: ${name}`);
  return e;
}

export class ControlContext {
  constructor(
    readonly client: DynamoDBClient,
    readonly table: string,
    readonly profile: ControlProfile,
    readonly opts: ControlOptions = {},
  ) {}

  async send<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw mapError(e);
    }
  }

  async get(pk: string, sk: string): Promise<Obj | undefined> {
    const r = await this.send(() => this.client.send(new GetItemCommand({ TableName: this.table, Key: enc({ pk, sk }), ConsistentRead: true })));
    return dec(r.Item);
  }

  /** Items of one partition with sk > after (and a prefix), until `max` pass `keep`. */
  async query(pk: string, o: { after?: string; prefix?: string; max: number; keep?: (it: Obj) => boolean }): Promise<Obj[]> {
    const out: Obj[] = [];
    let start: Record<string, AttributeValue> | undefined;
    // An empty string cannot appear in a key condition: no `after` means the whole partition.
    const cond = o.prefix !== undefined ? 'pk = :pk AND begins_with(sk, :pre)' : o.after ? 'pk = :pk AND sk > :after' : 'pk = :pk';
    const vals: Obj = o.prefix !== undefined ? { ':pk': pk, ':pre': o.prefix } : o.after ? { ':pk': pk, ':after': o.after } : { ':pk': pk };
    for (let page = 0; page < MAX_CONTROL_QUERY_PAGES; page++) {
      const r = await this.send(() =>
        this.client.send(
          new QueryCommand({ TableName: this.table, KeyConditionExpression: cond, ExpressionAttributeValues: enc(vals), ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }),
        ),
      );
      for (const w of r.Items ?? []) {
        const it = dec(w);
        if (o.prefix !== undefined && o.after !== undefined && String(it.sk) <= o.after) continue;
        if (!o.keep || o.keep(it)) out.push(it);
        if (out.length >= o.max) return out;
      }
      start = r.LastEvaluatedKey;
      if (!start) return out;
    }
    return out;
  }

  /** The next value of a counter item (`ctl#ctr`, sk `ver` or `outbox`): one atomic ADD. */
  private async next(counter: 'ver' | 'outbox'): Promise<number> {
    const r = await this.send(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: enc({ pk: 'ctl#ctr', sk: counter }),
          UpdateExpression: 'ADD v :one',
          ExpressionAttributeValues: enc({ ':one': 1 }),
          ReturnValues: 'UPDATED_NEW',
        }),
      ),
    );
    return Number(r.Attributes!.v!.N);
  }

  /** The outbox entry for a key or binding change (spec §7), its seq from its own counter; null when the outbox is off. */
  private async outboxItem(e: Omit<OutboxEntry, 'seq'> | undefined): Promise<TransactWriteItem | null> {
    if (!e || !this.opts.outbox) return null;
    const seq = await this.next('outbox');
    return { Put: { TableName: this.table, Item: enc({ pk: 'ctl#outbox', sk: P16(seq), seq, org: e.org, subject: e.subject, relation: e.relation, target: e.target, at: e.at }) } };
  }

  /** Writes `items` (the entity's writes), the change-feed entry for them and the outbox entry, if any. */
  async write(
    items: TransactWriteItem[],
    change: { kind: ControlChangeKind; org: string; id: string; at: number } | null,
    outboxed?: Omit<OutboxEntry, 'seq'>,
  ): Promise<void> {
    const ob = await this.outboxItem(outboxed);
    let feed: TransactWriteItem | null = null;
    if (change) {
      const v = await this.next('ver');
      feed = { Put: { TableName: this.table, Item: enc({ pk: 'ctl#chg', sk: P16(v), version: v, kind: change.kind, org: change.org, id: change.id, at: change.at }) } };
    }
    if (this.profile === 'dynamodb') {
      const all = [...items, ...(feed ? [feed] : []), ...(ob ? [ob] : [])];
      try {
        if (all.length === 1) await this.one(all[0]!);
        else await this.client.send(new TransactWriteItemsCommand({ TransactItems: all }));
      } catch (e) {
        const reasons = (e as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
        if (reasons?.some((x) => x.Code === 'ConditionalCheckFailed')) throw new ConditionalCheckFailedException({ message: 'condition', $metadata: {} });
        throw mapError(e);
      }
    } else {
      for (const it of items) await this.one(it);
      if (feed) await this.one(feed);
      if (ob) await this.one(ob);
    }
  }

  /** One Put, Update or Delete as a single-item write. */
  async one(it: TransactWriteItem): Promise<void> {
    try {
      if (it.Put) await this.client.send(new PutItemCommand({ ...it.Put, TableName: this.table }));
      else if (it.Update) await this.client.send(new UpdateItemCommand({ ...it.Update, TableName: this.table }));
      else if (it.Delete) await this.client.send(new DeleteItemCommand({ ...it.Delete, TableName: this.table }));
    } catch (e) {
      if (e instanceof ConditionalCheckFailedException) throw e;
      throw mapError(e);
    }
  }
}

// The DynamoDB backend's one path to the service: the SDK client, the fault-injection
// middleware (spec §4.2), the mapping of DynamoDB's errors into the contract's typed errors,
// and the request helpers every call uses (consistent reads, limits checked before sending).
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomUUID } from 'node:crypto';
import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DynamoDBClient,
  GetItemCommand,
  InternalServerError,
  QueryCommand,
  TransactWriteItemsCommand,
  TransactionCanceledException,
  TransactionConflictException,
  UpdateItemCommand,
  PutItemCommand,
  DeleteItemCommand,
  type AttributeValue,
  type QueryCommandInput,
  type TransactWriteItem,
  type UpdateItemCommandInput,
  type PutItemCommandInput,
  type DeleteItemCommandInput,
} from '@aws-sdk/client-dynamodb';
import { MetaError, errors, isMetaError } from '../../errors.js';
import type { FaultHook } from '../../faults.js';
import { unmarshal, wireSize, type Item, type Wire } from './codec.js';
import { keyOf, type Key } from './keys.js';

// The SDK warns once per process that releases after January 2027 need Node 22; the version
// is pinned in package-lock.json (SERVICES.md), so the warning says nothing actionable here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

/** TransactWriteItems: at most 100 distinct items (spec §2.3). */
export const MAX_TX_ITEMS = 100;
/** TransactWriteItems: at most 4 MB in total. */
export const MAX_TX_BYTES = 4 * 1024 * 1024;
/** One item: at most 400 KB. */
export const MAX_ITEM_BYTES = 400 * 1024;
/** BatchGetItem: at most 100 keys per request. */
export const MAX_BATCH_GET = 100;
/** BatchWriteItem: at most 25 requests. */
export const MAX_BATCH_WRITE = 25;
/** ClientRequestToken: 1-36 characters. */
const TOKEN_LENGTH = 36;
/**
 * Resends of one transaction after an unknown outcome (HTTP 5xx, a timeout, a transaction
 * still in progress): the identical request with the same ClientRequestToken, which DynamoDB
 * answers with success without applying twice if the first one applied (spec §2.3).
 */
export const MAX_TOKEN_RESENDS = 2;
/** ClientRequestToken's idempotency window: 10 minutes from the first request (spec §2.3). */
export const TOKEN_WINDOW_MS = 10 * 60_000;
/** Rounds of BatchGetItem's UnprocessedKeys before giving up with Retryable. */
const MAX_UNPROCESSED_ROUNDS = 8;
/** Pages one Query may follow (each at most 1 MB): a bound on every loop over a partition. */
export const MAX_QUERY_PAGES = 1_000;
/** Below this many wanted items a Query asks for exactly that many (Limit); above, whole pages. */
const QUERY_PAGE_ITEMS = 1_000;

export interface SdkOptions {
  endpoint?: string;
  region: string;
  credentials?: { accessKeyId: string; secretAccessKey: string; sessionToken?: string };
  requestTimeoutMs: number;
  connectTimeoutMs: number;
  faults?: FaultHook;
}

/** Which contract call a request belongs to, for the fault hook; set only around a call's writes. */
interface FaultScope {
  op: string;
}

/** Why a transaction was cancelled, per item (in TransactItems order). */
export interface Cancelled {
  ok: false;
  /** Items whose condition failed, with the item as it was (ReturnValuesOnConditionCheckFailure=ALL_OLD). */
  failed: Map<string, Item | null>;
  /** A concurrent transaction touched one of our items: nothing applied, try again. */
  conflict: boolean;
}
export type TxOutcome = { ok: true } | Cancelled;

export interface TxItem {
  /** A name for this item, so a caller can read which condition failed. */
  role: string;
  key: Key;
  op: TransactWriteItem;
}

export class Sdk {
  readonly client: DynamoDBClient;
  private readonly scope = new AsyncLocalStorage<FaultScope>();
  private readonly table: string;
  /** Unknown outcomes this handle resolved by resending with the same token (fault matrix, metrics). */
  unknownsResolved = 0;

  constructor(opts: SdkOptions & { table: string }) {
    this.table = opts.table;
    this.client = new DynamoDBClient({
      region: opts.region,
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.credentials ? { credentials: opts.credentials } : {}),
      // The backend decides every retry itself: the SDK must not resend a write behind our
      // back (tokens and commit records make our retries safe, spec §2.3).
      maxAttempts: 1,
      requestHandler: { connectionTimeout: opts.connectTimeoutMs, requestTimeout: opts.requestTimeoutMs },
    });
    if (opts.faults) this.installFaults(opts.faults);
  }

  destroy(): void {
    this.client.destroy();
  }

  /**
   * The fault-injection middleware (spec §4.2): the plan's hook runs before transmit
   * (BeforeBegin: BeforeSend, Throttle, Race, Delay), before the service applies the write
   * (BeforeCommit: Conflict, Undetermined) and after a success (AfterCommit: AfterApply).
   * A fault the hook throws becomes the native failure DynamoDB would produce, so the
   * backend's real error mapping handles it:
   *   BeforeSend → connection refused (not sent)      Throttle → ThrottlingException
   *   Conflict   → TransactionCanceled{TransactionConflict} / TransactionConflictException
   *   Undetermined → HTTP 500 InternalServerError     AfterApply → the success replaced by a timeout
   */
  private installFaults(hook: FaultHook): void {
    this.client.middlewareStack.add(
      (next, context) => async (args) => {
        const s = this.scope.getStore();
        if (!s) return next(args);
        const command = String((context as { commandName?: string }).commandName ?? '');
        try {
          await hook('BeforeBegin', s.op);
        } catch (e) {
          throw nativeBeforeSend(e);
        }
        try {
          await hook('BeforeCommit', s.op);
        } catch (e) {
          throw nativeBeforeCommit(e, command, args.input as { TransactItems?: unknown[] });
        }
        const out = await next(args);
        try {
          await hook('AfterCommit', s.op);
        } catch (e) {
          throw nativeAfterApply(e);
        }
        return out;
      },
      { step: 'finalizeRequest', name: 'loamFaultInjection', priority: 'low' },
    );
  }

  /** Runs `fn` so that its writes are the fault points of contract call `op`. */
  faultScope<T>(op: string, fn: () => Promise<T>): Promise<T> {
    return this.scope.run({ op }, fn);
  }

  /** Runs `fn` outside any fault scope (auxiliary writes such as id counters). */
  quiet<T>(fn: () => Promise<T>): Promise<T> {
    return this.scope.exit(fn);
  }

  // ------------------------------------------------------------ reads (all linearizable)

  async get(key: Key): Promise<Item | undefined> {
    const r = await this.read(() =>
      this.client.send(new GetItemCommand({ TableName: this.table, Key: keyOf(key), ConsistentRead: true })),
    );
    return unmarshal(r.Item);
  }

  /** Consistent BatchGetItem of any number of keys; the result follows the order of `keys`. */
  async batchGet(keys: Key[]): Promise<Array<Item | undefined>> {
    const found = new Map<string, Item>();
    const id = (pk: string, sk: string) => `${pk}\u0000${sk}`;
    for (let off = 0; off < keys.length; off += MAX_BATCH_GET) {
      let pending: Array<Record<string, AttributeValue>> = dedupe(keys.slice(off, off + MAX_BATCH_GET)).map(keyOf);
      for (let round = 0; pending.length > 0; round++) {
        if (round >= MAX_UNPROCESSED_ROUNDS) throw errors.retryable('throttle', 'BatchGetItem left keys unprocessed', true);
        const r = await this.read(() =>
          this.client.send(new BatchGetItemCommand({ RequestItems: { [this.table]: { Keys: pending, ConsistentRead: true } } })),
        );
        for (const w of r.Responses?.[this.table] ?? []) {
          const it = unmarshal(w)!;
          found.set(id(String(it.pk), String(it.sk)), it);
        }
        pending = r.UnprocessedKeys?.[this.table]?.Keys ?? [];
        if (pending.length > 0) await jitter(round);
      }
    }
    return keys.map((k) => found.get(id(k.pk, k.sk)));
  }

  /**
   * A Query, following pages until `max` items or the end. Consistent unless told otherwise:
   * only a global secondary index (which has no consistent reads) is queried with
   * `consistent: false`, and its answers are checked against the base table.
   */
  async query(
    input: Omit<QueryCommandInput, 'TableName' | 'ConsistentRead' | 'Limit'>,
    max = Number.MAX_SAFE_INTEGER,
    opts: { consistent?: boolean } = {},
  ): Promise<Item[]> {
    const out: Item[] = [];
    let start: Record<string, AttributeValue> | undefined;
    for (let page = 0; page < MAX_QUERY_PAGES; page++) {
      const left = max - out.length;
      const r = await this.read(() =>
        this.client.send(
          new QueryCommand({
            ...input,
            TableName: this.table,
            ConsistentRead: opts.consistent ?? true,
            ...(left < QUERY_PAGE_ITEMS ? { Limit: Math.max(1, left) } : {}),
            ...(start ? { ExclusiveStartKey: start } : {}),
          }),
        ),
      );
      for (const w of r.Items ?? []) out.push(unmarshal(w)!);
      start = r.LastEvaluatedKey;
      if (!start || out.length >= max) return out.slice(0, max);
    }
    throw new Error(`dynamodb: a query followed ${MAX_QUERY_PAGES} pages without reaching the end`);
  }

  private async read<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (e) {
      throw mapError(e, 'read');
    }
  }

  // ------------------------------------------------------------ writes

  /**
   * One TransactWriteItems. Limits are checked before sending (LimitExceeded, never a round
   * trip that is bound to fail). `tokenBase` names the transaction within its logical call
   * (requestId, call, and its slot: a commit group, a sweep chunk), never its body: the
   * ClientRequestToken derived from it is the same for every send of this transaction and for
   * a caller's retry of the call with the same requestId (spec §2.3).
   *
   * - An unknown outcome (5xx, timeout, TransactionInProgress) is resolved here: the identical
   *   request is sent again with the same token, at most MAX_TOKEN_RESENDS times within the
   *   token's window. DynamoDB answers a repeat of an applied transaction with success and
   *   applies nothing; one that had not applied is applied now. Either way it applied once.
   * - A caller's retry rebuilds its body (a new stamp, state read again), and DynamoDB refuses
   *   a changed body under a token it has seen (IdempotentParameterMismatch): that body is sent
   *   under a token of its own, and its conditions (commit token, commit record, nonce) say
   *   whether the earlier attempt applied.
   */
  async transact(op: string, items: TxItem[], tokenBase: string): Promise<TxOutcome> {
    if (items.length === 0) return { ok: true };
    checkDistinct(items);
    if (items.length > MAX_TX_ITEMS) throw errors.limitExceeded('DynamoDB TransactWriteItems items', MAX_TX_ITEMS, items.length);
    let total = 0;
    for (const it of items) {
      const n = txItemSize(it.op);
      if (n > MAX_ITEM_BYTES) throw errors.limitExceeded(`DynamoDB item size in bytes (${it.role})`, MAX_ITEM_BYTES, n);
      total += n;
    }
    if (total > MAX_TX_BYTES) throw errors.limitExceeded('DynamoDB TransactWriteItems bytes', MAX_TX_BYTES, total);
    for (const it of items) {
      const part = it.op.Put ?? it.op.Update ?? it.op.Delete ?? it.op.ConditionCheck;
      if (part) part.TableName = this.table;
    }
    const TransactItems = items.map((i) => i.op);
    let token = requestToken(tokenBase);
    const started = Date.now();
    let unknown = false;
    let last: unknown;
    for (let send = 0; send <= MAX_TOKEN_RESENDS + 1; send++) {
      try {
        await this.faultScope(op, () => this.client.send(new TransactWriteItemsCommand({ TransactItems, ClientRequestToken: token })));
        if (unknown) this.unknownsResolved++;
        return { ok: true };
      } catch (e) {
        if (e instanceof TransactionCanceledException || (e as { name?: string }).name === 'TransactionCanceledException') {
          return cancelled(e as TransactionCanceledException, items);
        }
        if ((e as { name?: string }).name === 'IdempotentParameterMismatchException' && !unknown) {
          token = requestToken(`${tokenBase}\u0000rebuilt\u0000${randomUUID()}`);
          continue;
        }
        last = mapError(e, 'write');
        if (!isMetaError(last, 'Unknown') || Date.now() - started >= TOKEN_WINDOW_MS || send >= MAX_TOKEN_RESENDS) throw last;
        unknown = true;
        await jitter(send);
      }
    }
    throw last;
  }

  /**
   * One conditional single-item write (UpdateItem, PutItem or DeleteItem) with
   * ReturnValuesOnConditionCheckFailure=ALL_OLD: a failed condition returns the item as it
   * was, so the caller decides without a second read.
   */
  async writeOne(
    op: string,
    cmd:
      | { update: Omit<UpdateItemCommandInput, 'TableName'> }
      | { put: Omit<PutItemCommandInput, 'TableName'> }
      | { delete: Omit<DeleteItemCommandInput, 'TableName'> },
  ): Promise<{ ok: true; item?: Item } | { ok: false; old: Item | null; conflict: boolean }> {
    let size = 0;
    if ('put' in cmd) size = wireSize(cmd.put.Item as Wire);
    else if ('update' in cmd) size = wireSize((cmd.update.ExpressionAttributeValues ?? {}) as Wire) + wireSize(cmd.update.Key as Wire);
    if (size > MAX_ITEM_BYTES) throw errors.limitExceeded('DynamoDB item size in bytes', MAX_ITEM_BYTES, size);
    try {
      const r = await this.faultScope(op, async () => {
        if ('update' in cmd) {
          return this.client.send(
            new UpdateItemCommand({ ReturnValues: 'ALL_NEW', ...cmd.update, TableName: this.table, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
          );
        }
        if ('put' in cmd) {
          return this.client.send(new PutItemCommand({ ...cmd.put, TableName: this.table, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
        }
        return this.client.send(new DeleteItemCommand({ ...cmd.delete, TableName: this.table, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }));
      });
      const attrs = (r as { Attributes?: Wire }).Attributes;
      return attrs ? { ok: true, item: unmarshal(attrs)! } : { ok: true };
    } catch (e) {
      const name = (e as { name?: string }).name;
      if (name === 'ConditionalCheckFailedException') {
        return { ok: false, old: unmarshal((e as { Item?: Wire }).Item) ?? null, conflict: false };
      }
      if (name === 'TransactionConflictException') return { ok: false, old: null, conflict: true };
      throw mapError(e, 'write');
    }
  }

  /**
   * Unconditional deletes of items nothing else references any more (the janitor's heads,
   * pointer history and records): BatchWriteItem, 25 keys a request, unprocessed keys sent
   * again (bounded). Idempotent: a missing item is fine.
   */
  async batchDelete(op: string, keys: Key[]): Promise<void> {
    for (let off = 0; off < keys.length; off += MAX_BATCH_WRITE) {
      let pending = dedupe(keys.slice(off, off + MAX_BATCH_WRITE)).map((k) => ({ DeleteRequest: { Key: keyOf(k) } }));
      for (let round = 0; pending.length > 0; round++) {
        if (round >= MAX_UNPROCESSED_ROUNDS) throw errors.retryable('throttle', 'BatchWriteItem left deletes unprocessed; run the call again', true);
        try {
          const r = await this.faultScope(op, () => this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.table]: pending } })));
          pending = (r.UnprocessedItems?.[this.table] ?? []) as typeof pending;
        } catch (e) {
          throw mapError(e, 'write');
        }
        if (pending.length > 0) await jitter(round);
      }
    }
  }

  /** An unconditional write that is not a fault point (id counters, idempotent clean-up). */
  async update(input: Omit<UpdateItemCommandInput, 'TableName'>): Promise<Item | undefined> {
    try {
      const r = await this.quiet(() => this.client.send(new UpdateItemCommand({ ...input, TableName: this.table })));
      return unmarshal(r.Attributes);
    } catch (e) {
      throw mapError(e, 'write');
    }
  }
}

/** A ClientRequestToken (1-36 characters) from the transaction's name in its logical call. */
function requestToken(tokenBase: string): string {
  return createHash('sha256').update(tokenBase).digest('base64url').slice(0, TOKEN_LENGTH);
}

function dedupe(keys: Key[]): Key[] {
  const seen = new Set<string>();
  return keys.filter((k) => {
    const id = `${k.pk}\u0000${k.sk}`;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}

/** A transaction may not touch one item twice (DynamoDB refuses it): a bug in the caller. */
function checkDistinct(items: TxItem[]): void {
  const seen = new Set<string>();
  for (const it of items) {
    const id = `${it.key.pk}\u0000${it.key.sk}`;
    if (seen.has(id)) throw new Error(`dynamodb metastore bug: one transaction touches item ${it.key.pk}/${it.key.sk} twice (${it.role})`);
    seen.add(id);
  }
}

function txItemSize(op: TransactWriteItem): number {
  if (op.Put) return wireSize(op.Put.Item as Wire);
  const part = op.Update ?? op.Delete ?? op.ConditionCheck;
  if (!part) return 0;
  return wireSize(part.Key as Wire) + wireSize((part.ExpressionAttributeValues ?? {}) as Wire);
}

function cancelled(e: TransactionCanceledException, items: TxItem[]): TxOutcome {
  const reasons = e.CancellationReasons ?? [];
  const failed = new Map<string, Item | null>();
  let conflict = false;
  let throttled = false;
  reasons.forEach((r, i) => {
    const code = r.Code ?? 'None';
    if (code === 'ConditionalCheckFailed') failed.set(items[i]?.role ?? `#${i}`, unmarshal(r.Item as Wire | undefined) ?? null);
    else if (code === 'TransactionConflict') conflict = true;
    else if (code === 'ThrottlingError' || code === 'ProvisionedThroughputExceeded') throttled = true;
    else if (code === 'ItemCollectionSizeLimitExceeded') {
      throw errors.limitExceeded(`DynamoDB item collection size (${items[i]?.role ?? i})`, 10 * 1024 ** 3, 10 * 1024 ** 3 + 1);
    } else if (code !== 'None') {
      throw new Error(`dynamodb metastore: transaction cancelled for ${items[i]?.role ?? i}: ${code} ${r.Message ?? ''}`);
    }
  });
  if (failed.size === 0 && !conflict) {
    if (throttled) throw errors.retryable('throttle', 'DynamoDB throttled the transaction; nothing was applied', true);
    // No reason given at all: treat as a conflict (nothing applied, try again).
    conflict = true;
  }
  return { ok: false, failed, conflict };
}

/** Full-jitter backoff between internal attempts: 0..min(200, 5·2^n) ms. */
export function jitter(n: number): Promise<void> {
  const cap = Math.min(200, 5 * 2 ** n);
  return new Promise((r) => setTimeout(r, Math.random() * cap));
}

const THROTTLE = new Set(['ThrottlingException', 'ProvisionedThroughputExceededException', 'RequestLimitExceeded', 'LimitExceededException']);
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/**
 * DynamoDB's failures → the contract's typed errors (DESIGN §2.4). `kind` says whether the
 * request could have changed anything: a read's failure is always Retryable.
 */
export function mapError(e: unknown, kind: 'read' | 'write'): unknown {
  if (isMetaError(e) || e instanceof MetaError) return e;
  const err = e as { name?: string; code?: string; message?: string; $metadata?: { httpStatusCode?: number } };
  const name = err.name ?? '';
  const code = err.code ?? (err as { cause?: { code?: string } }).cause?.code ?? '';
  const status = err.$metadata?.httpStatusCode ?? 0;
  const msg = `${name || code}: ${err.message ?? String(e)}`;
  if (THROTTLE.has(name)) return errors.retryable('throttle', `DynamoDB throttled the request (${msg}); nothing was applied`, true);
  if (name === 'TransactionConflictException') return errors.retryable('conflict', `DynamoDB transaction conflict (${msg})`);
  if (NOT_SENT.has(code)) return errors.retryable('connect', `could not reach DynamoDB (${msg}); nothing was sent`, true);
  if (name === 'ValidationException' && /size/i.test(err.message ?? '')) {
    return errors.limitExceeded(`DynamoDB item size (${err.message})`, MAX_ITEM_BYTES, MAX_ITEM_BYTES + 1);
  }
  if (name === 'ResourceNotFoundException') {
    return new Error(`dynamodb metastore: the table does not exist (${msg}); create it first (DynamoMetaStore.createTable)`);
  }
  const transient =
    status >= 500 ||
    name === 'InternalServerError' ||
    name === 'ServiceUnavailable' ||
    name === 'TimeoutError' ||
    name === 'RequestTimeout' ||
    name === 'TransactionInProgressException' ||
    /ECONNRESET|EPIPE|ETIMEDOUT|socket hang up|aborted/i.test(`${code} ${err.message ?? ''}`);
  if (transient) {
    if (kind === 'read') return errors.retryable('unavailable', `DynamoDB read failed (${msg})`);
    // After a 500 or a timeout a write may or may not have applied (spec §2.3).
    return errors.unknown(`DynamoDB write outcome unknown (${msg})`);
  }
  return e;
}

// ---- the native failures the fault middleware produces

function reasonOf(e: unknown): string {
  return isMetaError(e) ? (e.details.reason ?? e.code) : '';
}

function nativeBeforeSend(e: unknown): unknown {
  if (!isMetaError(e)) return e;
  if (reasonOf(e) === 'throttle') {
    return Object.assign(new Error(`Rate of requests exceeds the allowed throughput (injected: ${e.message})`), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 400 },
    });
  }
  if (e.code === 'Retryable' && e.details.beforeSend) {
    return Object.assign(new Error(`connect ECONNREFUSED (injected: ${e.message})`), { code: 'ECONNREFUSED' });
  }
  return e;
}

function nativeBeforeCommit(e: unknown, command: string, input: { TransactItems?: unknown[] }): unknown {
  if (!isMetaError(e)) return e;
  if (e.code === 'Retryable' && reasonOf(e) === 'conflict') {
    if (command === 'TransactWriteItemsCommand') {
      const n = input.TransactItems?.length ?? 1;
      return new TransactionCanceledException({
        message: `Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict] (injected)`,
        $metadata: { httpStatusCode: 400 },
        CancellationReasons: Array.from({ length: n }, (_, i) =>
          i === 0 ? { Code: 'TransactionConflict', Message: 'Transaction is ongoing for the item' } : { Code: 'None' },
        ),
      });
    }
    return new TransactionConflictException({ message: 'Transaction is ongoing for the item (injected)', $metadata: { httpStatusCode: 400 } });
  }
  if (e.code === 'Unknown') {
    return new InternalServerError({ message: `Internal server error (injected: ${e.message})`, $metadata: { httpStatusCode: 500 } });
  }
  return e;
}

function nativeAfterApply(e: unknown): unknown {
  if (!isMetaError(e)) return e;
  return Object.assign(new Error(`Connection timed out after the request was sent (injected: ${e.message})`), {
    name: 'TimeoutError',
    code: 'ETIMEDOUT',
  });
}

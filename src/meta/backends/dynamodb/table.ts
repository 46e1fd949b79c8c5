// The table itself: CreateTable with the item layout's keys (pk, sk), the sparse `retired`
// global secondary index on (rs, rk), the sparse `expiry` index on (xs, xk) and the sparse
// `due` index on (ds, dk) (both added to a table made before them, by UpdateTable; its heads
// then listed due once) and TTL on `ttl`; DeleteTable for tests. Operators may
// create the table themselves (README.md, *The table*); every other module assumes it exists.
// A table of the first layout (object references under 8 partition keys with a local
// secondary index) is refused with an error that says how to move on (README.md, *Layout
// versions*): reading it with this layout would miss every existing reference.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  CreateTableCommand,
  DeleteTableCommand,
  DescribeTableCommand,
  ScanCommand,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  type AttributeValue,
} from '@aws-sdk/client-dynamodb';
import type { DynamoContext } from './context.js';
import { listDue } from './due.js';
import { single } from './expr.js';
import { DUE_INDEX, EXPIRY_INDEX, K, RETIRED_INDEX, TABLE_LAYOUT } from './keys.js';
import { mapError } from './sdk.js';

/** How long createTable waits for the table (and an index it adds) to become ACTIVE. */
const TABLE_ACTIVE_WAIT_MS = 120_000;

/** The expiry listing (keys.ts EXPIRY_INDEX): keys only, every listed item is deleted by its key. */
const EXPIRY_INDEX_SPEC = {
  IndexName: EXPIRY_INDEX,
  KeySchema: [
    { AttributeName: 'xs', KeyType: 'HASH' as const },
    { AttributeName: 'xk', KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' as const },
};

/**
 * The due listing (keys.ts DUE_INDEX, due.ts): keys only (its sort key is the due cursor);
 * every listed head is read again from the base table for its mark.
 */
const DUE_INDEX_SPEC = {
  IndexName: DUE_INDEX,
  KeySchema: [
    { AttributeName: 'ds', KeyType: 'HASH' as const },
    { AttributeName: 'dk', KeyType: 'RANGE' as const },
  ],
  Projection: { ProjectionType: 'KEYS_ONLY' as const },
};

/** The indexes a table made by an earlier version may lack, added online by createTable. */
const ADDED_INDEXES = [
  { spec: EXPIRY_INDEX_SPEC, attrs: ['xs', 'xk'] },
  { spec: DUE_INDEX_SPEC, attrs: ['ds', 'dk'] },
] as const;

/**
 * Creates the table (pk, sk; the sparse `retired`, `expiry` and `due` global secondary indexes; TTL on `ttl`) if it does
 * not exist, and waits until it is active. Operators may create it themselves instead.
 */
export async function createTable(cx: DynamoContext): Promise<void> {
  const c = cx.sdk.client;
  try {
    await c.send(
      new CreateTableCommand({
        TableName: cx.table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
          { AttributeName: 'rs', AttributeType: 'S' },
          { AttributeName: 'rk', AttributeType: 'S' },
          { AttributeName: 'xs', AttributeType: 'S' },
          { AttributeName: 'xk', AttributeType: 'S' },
          { AttributeName: 'ds', AttributeType: 'S' },
          { AttributeName: 'dk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: RETIRED_INDEX,
            KeySchema: [
              { AttributeName: 'rs', KeyType: 'HASH' },
              { AttributeName: 'rk', KeyType: 'RANGE' },
            ],
            // The paths only: every listed path is read again from the base table.
            Projection: { ProjectionType: 'KEYS_ONLY' },
          },
          EXPIRY_INDEX_SPEC,
          DUE_INDEX_SPEC,
        ],
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceInUseException') throw mapError(e, 'write');
  }
  const deadline = Date.now() + TABLE_ACTIVE_WAIT_MS;
  let backfill = false;
  for (;;) {
    const d = await c.send(new DescribeTableCommand({ TableName: cx.table }));
    if ((d.Table?.LocalSecondaryIndexes ?? []).some((i) => i.IndexName === RETIRED_INDEX)) {
      throw new Error(
        `dynamodb: table ${cx.table} has item layout 1 (object references under 8 partition keys with the local secondary index ` +
          `"${RETIRED_INDEX}"); this version reads and writes layout ${TABLE_LAYOUT}. Point the metastore at a new table ` +
          `(it is created with layout ${TABLE_LAYOUT}) and move the data as the backend's README describes (Layout versions).`,
      );
    }
    const gsis = d.Table?.GlobalSecondaryIndexes ?? [];
    const missing = ADDED_INDEXES.find((x) => !gsis.some((i) => i.IndexName === x.spec.IndexName));
    const building = gsis.some((i) => i.IndexStatus !== undefined && i.IndexStatus !== 'ACTIVE');
    if (d.Table?.TableStatus === 'ACTIVE' && !building && missing) {
      // A table made before this index: add it (online; DynamoDB takes one index at a time).
      // Items written before the expiry index carry no listing attributes and are left to TTL;
      // heads written before the due index are listed due once, after it is built (below).
      await c.send(
        new UpdateTableCommand({
          TableName: cx.table,
          AttributeDefinitions: missing.attrs.map((a) => ({ AttributeName: a, AttributeType: 'S' as const })),
          GlobalSecondaryIndexUpdates: [{ Create: missing.spec }],
        }),
      );
      if (missing.spec === DUE_INDEX_SPEC) backfill = true;
    } else if (d.Table?.TableStatus === 'ACTIVE' && !building && !missing) {
      break;
    }
    if (Date.now() > deadline) throw new Error(`dynamodb: table ${cx.table} and its indexes did not become ACTIVE within ${TABLE_ACTIVE_WAIT_MS / 1000} s`);
    await sleep(200);
  }
  if (backfill) await markHeadsDue(cx);
  try {
    await c.send(new UpdateTimeToLiveCommand({ TableName: cx.table, TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } }));
  } catch (e) {
    // Already enabled is fine; TTL is a backstop (best effort): prune passes delete expired items.
    if (!/already enabled|TimeToLive is already/i.test((e as Error).message ?? '')) throw mapError(e, 'write');
  }
}

/** Items one backfill Scan page reads, at most. */
const BACKFILL_PAGE = 1_000;
/** Scan pages one backfill reads, at most: a bound far above any table's heads (10^8 items). */
const MAX_BACKFILL_PAGES = 100_000;

/**
 * The upgrade of a table made before the dirty set: every partition head without a mark is
 * made due now (mark 0), so the first workers on the new version look at each partition once,
 * as the SQL backends' migrations do. Each update is conditioned on the head still having no
 * mark: a commit meanwhile has made it due itself. Resumable: a rerun skips marked heads.
 */
async function markHeadsDue(cx: DynamoContext): Promise<void> {
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < MAX_BACKFILL_PAGES; page++) {
    const r = await cx.sdk.client.send(
      new ScanCommand({
        TableName: cx.table,
        FilterExpression: 'begins_with(pk, :h) AND attribute_not_exists(#m)',
        ExpressionAttributeNames: { '#m': 'mark' },
        ExpressionAttributeValues: { ':h': { S: 'head#' } },
        Limit: BACKFILL_PAGE,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const w of r.Items ?? []) {
      const [, ns, stream] = String(w.pk?.S).split('#').map(Number);
      const partition = Number(w.sk?.S);
      await cx.sdk.writeOne('markHeadsDue', {
        update: single(
          K.head(ns!, stream!, partition),
          (e) => `SET ${e.a('mark')} = ${e.v(0)}, ${listDue(e, ns!, stream!, partition)}`,
          (e) => `attribute_exists(${e.a('next')}) AND attribute_not_exists(${e.a('mark')})`,
        ),
      });
    }
    start = r.LastEvaluatedKey;
    if (!start) return;
  }
  throw new Error(`dynamodb: marking partition heads due read ${MAX_BACKFILL_PAGES} pages without reaching the end; run createTable again`);
}

/** Deletes the table (tests only). */
export async function deleteTable(cx: DynamoContext): Promise<void> {
  try {
    await cx.sdk.client.send(new DeleteTableCommand({ TableName: cx.table }));
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceNotFoundException') throw e;
  }
}

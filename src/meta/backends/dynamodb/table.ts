// The table itself: CreateTable with the item layout's keys (pk, sk), the sparse `retired`
// global secondary index on (rs, rk), the sparse `expiry` index on (xs, xk) (added to a table
// made before it, by UpdateTable) and TTL on `ttl`; DeleteTable for tests. Operators may
// create the table themselves (README.md, *The table*); every other module assumes it exists.
// A table of the first layout (object references under 8 partition keys with a local
// secondary index) is refused with an error that says how to move on (README.md, *Layout
// versions*): reading it with this layout would miss every existing reference.
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, UpdateTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoContext } from './context.js';
import { EXPIRY_INDEX, RETIRED_INDEX, TABLE_LAYOUT } from './keys.js';
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
 * Creates the table (pk, sk; the sparse `retired` and `expiry` global secondary indexes; TTL on `ttl`) if it does
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
        ],
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceInUseException') throw mapError(e, 'write');
  }
  const deadline = Date.now() + TABLE_ACTIVE_WAIT_MS;
  let added = false;
  for (;;) {
    const d = await c.send(new DescribeTableCommand({ TableName: cx.table }));
    if ((d.Table?.LocalSecondaryIndexes ?? []).some((i) => i.IndexName === RETIRED_INDEX)) {
      throw new Error(
        `dynamodb: table ${cx.table} has item layout 1 (object references under 8 partition keys with the local secondary index ` +
          `"${RETIRED_INDEX}"); this version reads and writes layout ${TABLE_LAYOUT}. Point the metastore at a new table ` +
          `(it is created with layout ${TABLE_LAYOUT}) and move the data as the backend's README describes (Layout versions).`,
      );
    }
    const expiry = (d.Table?.GlobalSecondaryIndexes ?? []).find((i) => i.IndexName === EXPIRY_INDEX);
    if (d.Table?.TableStatus === 'ACTIVE' && !expiry && !added) {
      // A table made before the expiry index: add it (online; items written before it carry
      // no listing attributes and are left to TTL).
      await c.send(
        new UpdateTableCommand({
          TableName: cx.table,
          AttributeDefinitions: [
            { AttributeName: 'xs', AttributeType: 'S' },
            { AttributeName: 'xk', AttributeType: 'S' },
          ],
          GlobalSecondaryIndexUpdates: [{ Create: EXPIRY_INDEX_SPEC }],
        }),
      );
      added = true;
    } else if (d.Table?.TableStatus === 'ACTIVE' && (!expiry || expiry.IndexStatus === 'ACTIVE' || expiry.IndexStatus === undefined)) {
      break;
    }
    if (Date.now() > deadline) throw new Error(`dynamodb: table ${cx.table} and its indexes did not become ACTIVE within ${TABLE_ACTIVE_WAIT_MS / 1000} s`);
    await sleep(200);
  }
  try {
    await c.send(new UpdateTimeToLiveCommand({ TableName: cx.table, TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } }));
  } catch (e) {
    // Already enabled is fine; TTL is a backstop (best effort): prune passes delete expired items.
    if (!/already enabled|TimeToLive is already/i.test((e as Error).message ?? '')) throw mapError(e, 'write');
  }
}

/** Deletes the table (tests only). */
export async function deleteTable(cx: DynamoContext): Promise<void> {
  try {
    await cx.sdk.client.send(new DeleteTableCommand({ TableName: cx.table }));
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceNotFoundException') throw e;
  }
}

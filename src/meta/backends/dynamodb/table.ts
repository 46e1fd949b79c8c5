// The table itself: CreateTable with the item layout's keys (pk, sk), the sparse `retired`
// global secondary index on (rs, rk) and TTL on `ttl`; DeleteTable for tests. Operators may
// create the table themselves (README.md, *The table*); every other module assumes it exists.
// A table of the first layout (object references under 8 partition keys with a local
// secondary index) is refused with an error that says how to move on (README.md, *Layout
// versions*): reading it with this layout would miss every existing reference.
import { setTimeout as sleep } from 'node:timers/promises';
import { CreateTableCommand, DeleteTableCommand, DescribeTableCommand, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import type { DynamoContext } from './context.js';
import { RETIRED_INDEX, TABLE_LAYOUT } from './keys.js';
import { mapError } from './sdk.js';

/**
 * Creates the table (pk, sk; the sparse `retired` global secondary index; TTL on `ttl`) if it does
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
        ],
      }),
    );
  } catch (e) {
    if ((e as { name?: string }).name !== 'ResourceInUseException') throw mapError(e, 'write');
  }
  const deadline = Date.now() + 60_000;
  for (;;) {
    const d = await c.send(new DescribeTableCommand({ TableName: cx.table }));
    if ((d.Table?.LocalSecondaryIndexes ?? []).some((i) => i.IndexName === RETIRED_INDEX)) {
      throw new Error(
        `dynamodb: table ${cx.table} has item layout 1 (object references under 8 partition keys with the local secondary index ` +
          `"${RETIRED_INDEX}"); this version reads and writes layout ${TABLE_LAYOUT}. Point the metastore at a new table ` +
          `(it is created with layout ${TABLE_LAYOUT}) and move the data as the backend's README describes (Layout versions).`,
      );
    }
    if (d.Table?.TableStatus === 'ACTIVE') break;
    if (Date.now() > deadline) throw new Error(`dynamodb: table ${cx.table} did not become ACTIVE within 60 s`);
    await sleep(200);
  }
  try {
    await c.send(new UpdateTimeToLiveCommand({ TableName: cx.table, TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } }));
  } catch (e) {
    // Already enabled is fine; TTL only prunes expired commit records and tokens (best effort).
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

// The DynamoDB backend's item layout (its README: Item layout, Layout versions, Write
// ceilings): what lands under which partition key, read back with the raw SDK. These are the
// storage mapping's own properties, so they run on DynamoDB Local only (suite `dynamodb`).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, PutItemCommand, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { DUE_INDEX, K, openDynamo } from '../../../src/meta/backends/dynamodb/index.js';
import { hasDirtySets, type MetaStore } from '../../../src/meta/index.js';
import { TEST_CREDENTIALS, TEST_REGION, dynamoEndpoint, freshTable } from '../../harness/dynamodb.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };
const endpoint = dynamoEndpoint();
const client = new DynamoDBClient({ endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, maxAttempts: 1 });
const opened: Array<{ close(): Promise<void>; deleteTable(): Promise<void> }> = [];

async function fresh() {
  const s = openDynamo({ table: freshTable(), endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS });
  opened.push(s);
  await s.createTable();
  return s;
}

/** Every item of the table (tests only: tables here hold a few hundred items). */
async function scan(table: string): Promise<Array<Record<string, AttributeValue>>> {
  const out: Array<Record<string, AttributeValue>> = [];
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < 100; page++) {
    const r = await client.send(new ScanCommand({ TableName: table, ConsistentRead: true, ...(start ? { ExclusiveStartKey: start } : {}) }));
    out.push(...(r.Items ?? []));
    start = r.LastEvaluatedKey;
    if (!start) return out;
  }
  throw new Error('scan: too many pages');
}

function wal(ns: number, stream: number, partitions: number, object: string) {
  return {
    object,
    objectStamp: Date.now(),
    chunks: Array.from({ length: partitions }, (_, p) => ({ ns, stream, partition: p, records: 1, byteStart: p * 10, byteEnd: p * 10 + 10 })),
  };
}

describe('dynamodb item layout', () => {
  after(async () => {
    for (const s of opened.splice(0)) {
      await s.deleteTable().catch(() => undefined);
      await s.close();
    }
    client.destroy();
  });

  test('every object reference is its own partition key: none grows with the number of objects', async () => {
    const store = await fresh();
    const meta: MetaStore = store;
    const ns = await meta.createNamespace({ org: 'o', name: 'n' });
    const coll = await meta.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 2 });
    const objects = Array.from({ length: 40 }, (_, i) => `wal/layout-${i}.wal`);
    for (const o of objects) await meta.commitWal(wal(ns.id, coll.streamId, 2, o));
    await meta.casPointer(ns.id, 'plain/ptr', null, 'm/one');
    await meta.trimPartition(ns.id, coll.streamId, 0, 40);
    await meta.trimPartition(ns.id, coll.streamId, 1, 20);

    const items = await scan(store.table);
    const refs = items.filter((it) => it.refs !== undefined && it.path !== undefined && it.sk?.S !== undefined && it.pk?.S?.startsWith('obj#'));
    const paths = new Set(refs.map((it) => it.path!.S!));
    for (const o of [...objects, 'm/one']) assert.ok(paths.has(o), `${o} has a reference item`);
    const byPk = new Map<string, number>();
    for (const it of refs) byPk.set(it.pk!.S!, (byPk.get(it.pk!.S!) ?? 0) + 1);
    assert.equal(Math.max(...byPk.values()), 1, 'at most one reference item per partition key');
    assert.equal(byPk.size, paths.size, 'as many partition keys as objects');

    // The retired listing holds only the objects GC may collect: the 20 whose chunks are all trimmed.
    const retired = (await meta.retiredWalObjects({ limit: 1000 })).items.map((r) => r.path).sort();
    assert.deepEqual(retired, objects.slice(0, 20).sort());
    const listed = items.filter((it) => it.rs !== undefined && it.rk !== undefined);
    assert.equal(listed.length, 20, 'only retired objects carry the listing keys');
    assert.ok(new Set(listed.map((it) => it.rs!.S)).size > 1, 'the listing is spread over its shards');
  });

  test('the due index lists only due heads; a table made before it gets it, with every old head due once', async () => {
    // A table as an earlier version made it: no `due` index, a head without a mark.
    const table = freshTable();
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    const old = K.head(7, 9, 1);
    await client.send(
      new PutItemCommand({ TableName: table, Item: { pk: { S: old.pk }, sk: { S: old.sk }, next: { N: '5' }, logStart: { N: '0' }, bytes: { N: '50' } } }),
    );
    const store = openDynamo({ table, endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS });
    opened.push(store);
    await store.createTable();
    const d = await client.send(new DescribeTableCommand({ TableName: table }));
    assert.ok((d.Table?.GlobalSecondaryIndexes ?? []).some((i) => i.IndexName === DUE_INDEX), 'createTable added the due index');
    const meta: MetaStore = store;
    assert.ok(hasDirtySets(meta));
    const due = await meta.dueHeads(Date.now());
    assert.deepEqual(due.items.map((h) => [h.ns, h.stream, h.partition, h.due]), [[7, 9, 1, 0]], 'the old head is due once');
    // Settled to nothing pending, it leaves the index: its listing attributes are gone.
    assert.equal(await meta.settleHead(7, 9, 1, due.items[0]!.mark, null), true);
    assert.deepEqual((await meta.dueHeads(Number.MAX_SAFE_INTEGER)).items, []);
    const [item] = (await scan(table)).filter((it) => it.pk?.S === old.pk);
    assert.ok(item && item.ds === undefined && item.dk === undefined && item.next?.N === '5', 'a settled head keeps its offsets, not its listing');
  });

  test('a table of layout 1 (references under 8 keys with a local secondary index) is refused with what to do', async () => {
    const table = freshTable();
    await client.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
          { AttributeName: 'rk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
        LocalSecondaryIndexes: [
          {
            IndexName: 'retired',
            KeySchema: [
              { AttributeName: 'pk', KeyType: 'HASH' },
              { AttributeName: 'rk', KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
      }),
    );
    const store = openDynamo({ table, endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS });
    opened.push(store);
    await assert.rejects(() => store.createTable(), /item layout 1.*layout 2.*new table/s);
  });
});

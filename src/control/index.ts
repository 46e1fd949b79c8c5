// The ControlStore beside whichever metastore backend a node runs on (spec §6: "in M2 it
// runs on the cluster's metastore backend"), on the same connection: the backend registry
// (src/meta/backends/registry.ts) says which connection a backend handle runs on.
import type { MetaStore } from '../meta/contract.js';
import { connectionOf, type Connection } from '../meta/backends/registry.js';
import { embeddedControlOn } from './embedded.js';
import { validatedControl } from './validated.js';
import type { ControlOptions, ControlStore } from './types.js';

export * from './types.js';

/** A ControlStore on a backend connection. */
export async function controlStoreOn(connection: Connection, opts: ControlOptions = {}): Promise<ControlStore> {
  let cs: ControlStore;
  switch (connection.kind) {
    case 'sqlite':
      cs = embeddedControlOn(connection.db, opts);
      break;
    case 'postgres': {
      // Loaded on demand, so a node on another backend does not load the pg driver.
      const { postgresControlOn } = await import('./postgres.js');
      await connection.ready();
      cs = postgresControlOn(connection.pool, opts);
      break;
    }
    case 'remote': {
      const { remoteControlStore } = await import('./remote.js');
      cs = remoteControlStore(connection.channel);
      break;
    }
    case 'dynamodb': {
      const { DynamoControlStore } = await import('./dynamodb/index.js');
      cs = new DynamoControlStore(connection.client, connection.table, connection.profile, opts);
      break;
    }
  }
  await cs.init();
  // Every backend behind the one validating wrapper (./validated.ts).
  return validatedControl(cs);
}

/** A ControlStore on the same database as `meta`: a backend handle as its backend opened it, not a client wrapper. */
export async function controlStoreFor(meta: MetaStore, opts: ControlOptions = {}): Promise<ControlStore> {
  const c = connectionOf(meta);
  if (!c) throw new Error('no ControlStore for this metastore: pass the backend handle its backend opened (not a client wrapper)');
  return controlStoreOn(c, opts);
}

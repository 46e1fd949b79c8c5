// Which connection a backend handle runs on, so the ControlStore can be opened beside it on
// the same connection (spec §6). Each backend's open function records its handle here; the
// lookup is by identity, so a client wrapper or a test double has no connection.
import type Database from 'better-sqlite3';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { Pool } from 'pg';
import type { MetaStore } from '../contract.js';
import type { RemoteChannel } from './remote/channel.js';

/** The connection a backend handle runs on, as the ControlStore beside it needs it. */
export type Connection =
  | { kind: 'sqlite'; db: Database.Database }
  | { kind: 'postgres'; pool: Pool; ready(): Promise<void> }
  | { kind: 'dynamodb'; client: DynamoDBClient; table: string; profile: 'dynamodb' | 'alternator' }
  /** A remote metastore (spec §8): the ControlStore is the same server's, over the same channel. */
  | { kind: 'remote'; channel: RemoteChannel };

const connections = new WeakMap<object, Connection>();

/** Records the connection a backend handle runs on (each backend's open function calls it). */
export function registerConnection<S extends MetaStore>(store: S, connection: Connection): S {
  connections.set(store, connection);
  return store;
}

/** The connection of a backend handle opened by a backend's open function; undefined for anything else (a client wrapper, a test double). */
export function connectionOf(store: MetaStore): Connection | undefined {
  return connections.get(store);
}

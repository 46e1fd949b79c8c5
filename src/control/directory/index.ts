// The directory (spec §5.2) on whichever backend holds the ControlStore, on the same
// connection: a sharded metastore's directory URL names that backend (src/node/config.ts).
import type Database from 'better-sqlite3';
import { descriptorFor, type Connection } from '../../meta/backends/registry.js';
import type { DirectoryStore } from '../../meta/backends/sharded/directory.js';
import type { OpenedDirectory } from '../../meta/backends/sharded/index.js';
import { sqliteDriverOn } from '../embedded.js';
import { SqlDirectoryStore, type SqlDirectoryOptions } from './sql.js';

export { SqlDirectoryStore } from './sql.js';

/** The directory on a backend connection (tables created: init() has run). */
export async function directoryOn(connection: Connection, opts: SqlDirectoryOptions = {}): Promise<DirectoryStore> {
  let d: DirectoryStore;
  switch (connection.kind) {
    case 'sqlite':
      d = new SqlDirectoryStore(sqliteDriverOn(connection.db as Database.Database), false, opts);
      break;
    case 'postgres': {
      const { pgDriverOn } = await import('../postgres.js');
      await connection.ready();
      d = new SqlDirectoryStore(pgDriverOn(connection.pool), false, opts);
      break;
    }
    case 'dynamodb': {
      const { DynamoDirectoryStore } = await import('./dynamodb.js');
      d = new DynamoDirectoryStore(connection.client, connection.table, connection.profile, opts);
      break;
    }
    case 'remote':
      throw new Error('the directory is not served by a remote metastore: put metastore.directory on a sqlite: or postgres:// backend');
  }
  await d.init();
  return d;
}

/**
 * Opens the directory at a backend URL (sqlite:…, postgres://…, dynamodb://…): the backend is
 * opened through the registry (its migrations run; the ControlStore opens on the same
 * connection), and the directory's tables beside it. close() closes both.
 */
export async function openDirectory(url: string): Promise<OpenedDirectory> {
  const d = descriptorFor(url);
  if (!d) throw new Error(`metastore.directory: ${url.split(':')[0]}: is not a metastore backend URL`);
  const opened = await d.open(url, { applicationName: 'loam-directory' });
  try {
    const store = await directoryOn(opened.connection);
    return {
      store,
      connection: opened.connection,
      async close() {
        await store.close();
        await opened.meta.close();
      },
    };
  } catch (e) {
    await opened.meta.close();
    throw e;
  }
}

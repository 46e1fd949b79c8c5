// The cluster registry (./clusters.ts) on a backend connection: the control plane's registry
// database, opened from its `registry` URL through the backend registry like any metastore.
import type { Connection } from '../meta/backends/registry.js';
import type { ClusterRegistry } from './clusters.js';
import { SqlClusterRegistry } from './clusters-sql.js';

export async function clusterRegistryOn(connection: Connection): Promise<ClusterRegistry> {
  let r: ClusterRegistry;
  switch (connection.kind) {
    case 'sqlite': {
      const { sqliteDriverOn } = await import('./embedded.js');
      r = new SqlClusterRegistry(sqliteDriverOn(connection.db));
      break;
    }
    case 'postgres': {
      const { pgDriverOn } = await import('./postgres.js');
      await connection.ready();
      r = new SqlClusterRegistry(pgDriverOn(connection.pool));
      break;
    }
    case 'dynamodb': {
      const { DynamoClusterRegistry } = await import('./clusters-dynamodb.js');
      r = new DynamoClusterRegistry(connection.client, connection.table);
      break;
    }
    case 'remote':
      throw new Error('the cluster registry is the control plane\'s own database (sqlite:, postgres://, dynamodb://), not a remote metastore');
  }
  await r.init();
  return r;
}

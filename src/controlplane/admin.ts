// The control plane's operator actions (`loam clusters …`): registering a cluster with its
// store and first agent key, and making and revoking agent keys. Each secret is returned
// once, to be shown once; only its hash is stored.
import { checkClusterId, newAgentKey, type AgentKeyInfo, type Cluster, type ClusterRegistry } from '../control/clusters.js';
import { clusterUrl, templateProblem } from './cluster-stores.js';
import { descriptorFor } from '../meta/backends/registry.js';
import { errors } from '../meta/errors.js';

export interface CreatedKey {
  info: AgentKeyInfo;
  /** loam_agent_<key_id>_<secret>: shown once. */
  token: string;
}

export async function createAgentKey(registry: ClusterRegistry, cluster: string, createdBy: string, at = Date.now()): Promise<CreatedKey> {
  checkClusterId(cluster);
  const k = newAgentKey();
  const info = await registry.createAgentKey({ keyId: k.keyId, cluster, secretHash: k.secretHash, created: at, createdBy });
  return { info, token: k.token };
}

/**
 * Makes the cluster's store (its file's directory, its Postgres database; a DynamoDB table is
 * made at first open), then registers the cluster, then its first agent key. A store that
 * cannot be made leaves nothing registered.
 */
export async function createCluster(registry: ClusterRegistry, template: string, cluster: string, createdBy: string): Promise<{ cluster: Cluster; key: CreatedKey }> {
  const problem = templateProblem(template);
  if (problem) throw errors.invalid('clusters', problem);
  const url = clusterUrl(template, cluster);
  await descriptorFor(url)!.provision?.(url);
  const c = await registry.createCluster(cluster, createdBy);
  return { cluster: c, key: await createAgentKey(registry, cluster, createdBy) };
}

// Opening the control plane's registry database (config `registry`) through the backend
// registry, like any metastore URL: the cluster registry's tables live beside an unused
// metastore schema there, never in a cluster's store.
import { descriptorFor } from '../meta/backends/registry.js';
import type { MetaStore } from '../meta/contract.js';
import { clusterRegistryOn } from '../control/cluster-registry.js';
import type { ClusterRegistry } from '../control/clusters.js';

export interface OpenedRegistry {
  registry: ClusterRegistry;
  close(): Promise<void>;
}

export async function openRegistry(url: string, applicationName = 'loam-control-plane'): Promise<OpenedRegistry> {
  const d = descriptorFor(url);
  if (!d) throw new Error('the registry URL has an unknown scheme');
  await d.provision?.(url);
  const opened = await d.open(url, { applicationName, poolSize: 4 });
  const meta: MetaStore = opened.meta;
  try {
    const registry = await clusterRegistryOn(opened.connection);
    return {
      registry,
      async close() {
        await registry.close();
        await meta.close();
      },
    };
  } catch (e) {
    await meta.close();
    throw e;
  }
}

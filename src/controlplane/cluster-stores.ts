// Each cluster's metadata, isolated on the control plane (spec §8): a MetaStore and a
// ControlStore per cluster, opened from a per-cluster URL made from one template:
//
//   sqlite:/var/lib/loam-cp/clusters/{cluster}.db       a file per cluster
//   postgres://user:pw@host:5432/loam_{cluster}          a database per cluster (created on first use)
//   dynamodb://host:port/loam-{cluster}?region=…          a table per cluster (created on first use)
//   sharded:{"shards":["postgres://…/a_{cluster}","postgres://…/b_{cluster}"],"directory":"postgres://…/dir_{cluster}"}
//                                                        a sharded metastore per cluster (spec §5)
//
// Why a store per cluster and not a cluster prefix in keys: a handle opened for cluster A is
// a connection to A's file, database or table and to nothing else, and the MetaStore and
// ControlStore contracts carry no cluster argument, so no call served on A's handle, however
// it is shaped, can name a row of B. A key prefix would make isolation depend on every query
// of every backend adding the prefix. Postgres gets a database rather than a schema per
// cluster: advisory locks (cluster singletons) and LISTEN/NOTIFY channels (the change feed)
// are per database, so clusters in schemas of one database would share them, and no
// connection to one database can read another. The cluster id comes only from the verified
// agent key (./agent-auth.ts), never from a request's arguments.
import { descriptorFor, DESCRIPTORS } from '../meta/backends/registry.js';
import type { MetaStore } from '../meta/contract.js';
import { errors } from '../meta/errors.js';
import { controlStoreOn } from '../control/index.js';
import type { ControlOptions, ControlStore } from '../control/types.js';
import { checkClusterId, CLUSTER_ID_PATTERN, type ClusterRegistry } from '../control/clusters.js';
import { openDirectory } from '../control/directory/index.js';
import { parseShardedUrl, type ShardedOpenOptions } from '../meta/backends/sharded/descriptor.js';

export const CLUSTER_PLACEHOLDER = '{cluster}';
/** Clusters whose stores one control-plane process keeps open, by default (config max_open_clusters). */
export const DEFAULT_MAX_OPEN_CLUSTERS = 1_000;
/** Postgres connections per pool per cluster, by default (config pool_size): many clusters share one server's max_connections. */
export const DEFAULT_CLUSTER_POOL_SIZE = 2;

const PROBE = 'probe-cluster';

/** A sharded template's component URLs (each shard's and the directory's), with the placeholder kept. */
function shardedParts(template: string): { label: string; url: string }[] {
  const setting = parseShardedUrl(template);
  return [...setting.shards.map((x, i) => ({ label: `shards[${i}]`, url: x.url })), { label: 'directory', url: setting.directory }];
}

/** Why a template is refused, or null. Names the URL part the placeholder must be in. */
export function templateProblem(template: string): string | null {
  if (typeof template !== 'string' || !template.includes(CLUSTER_PLACEHOLDER)) {
    return `must contain ${CLUSTER_PLACEHOLDER} (e.g. sqlite:/var/lib/loam-cp/clusters/${CLUSTER_PLACEHOLDER}.db)`;
  }
  const d = descriptorFor(template);
  if (!d) return `has an unknown scheme (expected one of: ${DESCRIPTORS.map((x) => x.urlForm).join('; ')})`;
  if (d.name === 'remote') return 'cannot be a remote metastore: the control plane holds the clusters\' metadata itself';
  if (d.name === 'sharded') {
    // Every shard and the directory are stores of the cluster: each needs the placeholder once.
    let parts: { label: string; url: string }[];
    try {
      parts = shardedParts(template.split(CLUSTER_PLACEHOLDER).join(PROBE));
    } catch (e) {
      return `is not a sharded setting: ${(e as Error).message}`;
    }
    for (const p of parts) {
      const problem = /^(sharded|remote|grpcs):/.test(p.url) ? 'must be one database (sqlite:, postgres:// or dynamodb://)' : templateProblem(p.url.split(PROBE).join(CLUSTER_PLACEHOLDER));
      if (problem) return `${p.label} ${problem}`;
    }
    return null;
  }
  if (template.split(CLUSTER_PLACEHOLDER).length !== 2) return `must contain ${CLUSTER_PLACEHOLDER} exactly once`;
  const probe = template.replace(CLUSTER_PLACEHOLDER, PROBE);
  if (d.name === 'embedded') {
    if (/^sqlite::memory:/.test(template)) return "cannot be sqlite::memory: (a cluster's metadata must outlive the process)";
    const q = template.indexOf('?');
    if (q >= 0 && template.indexOf(CLUSTER_PLACEHOLDER) > q) return `must have ${CLUSTER_PLACEHOLDER} in the path (sqlite:/dir/${CLUSTER_PLACEHOLDER}.db)`;
    return null;
  }
  let u: URL;
  try {
    u = new URL(probe);
  } catch {
    return 'is not a URL';
  }
  // The placeholder must be in the database (Postgres) or table (DynamoDB) name: the path.
  if (!u.pathname.includes(PROBE) || u.pathname.split('/').length !== 2) {
    return d.name === 'postgres'
      ? `must have ${CLUSTER_PLACEHOLDER} in the database name (postgres://user:password@host:5432/loam_${CLUSTER_PLACEHOLDER})`
      : `must have ${CLUSTER_PLACEHOLDER} in the table name (dynamodb://host:port/loam-${CLUSTER_PLACEHOLDER}?region=…)`;
  }
  return null;
}

/** The store URL of one cluster. */
export function clusterUrl(template: string, cluster: string): string {
  checkClusterId(cluster);
  return template.split(CLUSTER_PLACEHOLDER).join(cluster);
}

/** Whether some cluster id would make `template` (or, sharded, one of its stores) into `url`: the registry must never be a cluster's store. */
export function templateCovers(template: string, url: string): boolean {
  if (descriptorFor(template)?.name === 'sharded') return shardedParts(template).some((p) => templateCovers(p.url, url));
  const [pre, post] = template.split(CLUSTER_PLACEHOLDER) as [string, string];
  if (!url.startsWith(pre) || !url.endsWith(post) || url.length < pre.length + post.length) return false;
  return CLUSTER_ID_PATTERN.test(url.slice(pre.length, url.length - post.length));
}

/** One cluster's stores, as the gRPC service serves them. */
export interface ClusterHandles {
  cluster: string;
  meta: MetaStore;
  /** The backend's name (for metrics), never the URL. */
  backend: string;
  /** The cluster's ControlStore (with the OpenFGA outbox when asked: one wrapper per option set on the same connection). */
  control(opts?: ControlOptions): Promise<ControlStore>;
}

interface Open {
  handles: ClusterHandles;
  controls: Map<string, Promise<ControlStore>>;
}

export interface ClusterStoresOptions {
  template: string;
  registry: ClusterRegistry;
  maxOpen?: number;
  poolSize?: number;
  applicationName?: string;
}

/**
 * The stores of every cluster this process serves, opened on first use and kept open (a
 * data plane calls all the time). Only a cluster in the registry is opened.
 */
export class ClusterStores {
  private readonly open_ = new Map<string, Promise<Open>>();
  private closed = false;

  constructor(private readonly o: ClusterStoresOptions) {
    const problem = templateProblem(o.template);
    if (problem) throw errors.invalid('clusters', problem);
  }

  get openCount(): number {
    return this.open_.size;
  }

  /** Makes what a new cluster's store needs (directory, database); idempotent. */
  async provision(cluster: string): Promise<void> {
    const url = clusterUrl(this.o.template, cluster);
    await descriptorFor(url)!.provision?.(url);
  }

  /** The cluster's stores (NotFound if it is not registered). */
  async stores(cluster: string): Promise<ClusterHandles> {
    if (this.closed) throw errors.retryable('closing', 'the control plane is shutting down', true);
    checkClusterId(cluster);
    let p = this.open_.get(cluster);
    if (!p) {
      const max = this.o.maxOpen ?? DEFAULT_MAX_OPEN_CLUSTERS;
      if (this.open_.size >= max) throw errors.limitExceeded('max_open_clusters', max, this.open_.size + 1);
      p = this.openCluster(cluster);
      this.open_.set(cluster, p);
      // A failed open is not cached: the next call tries again.
      p.catch(() => this.open_.delete(cluster));
    }
    return (await p).handles;
  }

  private async openCluster(cluster: string): Promise<Open> {
    await this.o.registry.cluster(cluster);
    const url = clusterUrl(this.o.template, cluster);
    const d = descriptorFor(url)!;
    await d.provision?.(url);
    const options: ShardedOpenOptions = { applicationName: this.o.applicationName ?? 'loam-control-plane', poolSize: this.o.poolSize ?? DEFAULT_CLUSTER_POOL_SIZE, openDirectory };
    const opened = await d.open(url, options);
    const controls = new Map<string, Promise<ControlStore>>();
    const handles: ClusterHandles = {
      cluster,
      meta: opened.meta,
      backend: opened.backend,
      control: (opts = {}) => {
        const k = opts.outbox ? 'outbox' : 'plain';
        let c = controls.get(k);
        if (!c) {
          c = controlStoreOn(opened.connection, opts);
          controls.set(k, c);
          c.catch(() => controls.delete(k));
        }
        return c;
      },
    };
    return { handles, controls };
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.open_.values()];
    this.open_.clear();
    for (const p of all) {
      const o = await p.catch(() => null);
      if (!o) continue;
      for (const c of o.controls.values()) await (await c.catch(() => null))?.close();
      await o.handles.meta.close();
    }
  }
}

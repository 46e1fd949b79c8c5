// The remote backends of the shared suites (spec §8): a remote metastore server in the test
// process, on a loopback port, serving every store the inner factory opens as a cluster of
// its own (the server's stores(clusterId) seam), and clients that reach it over gRPC.
// `remote` serves the embedded backend, `remote-postgres` the Postgres one.
import type { MetaStore } from '../../src/meta/index.js';
import { openRemote, type RemoteMetaStore } from '../../src/meta/backends/remote/client.js';
import { RemoteServer, clusterFromMetadata } from '../../src/remote/server.js';
import type { BackendFactory, Location, OpenOptions } from './backends.js';

export interface RemoteFactory extends BackendFactory {
  /** The server (tests cut its connections, read its metrics). */
  server(): Promise<RemoteServer>;
  /** The backend store behind a client. */
  inner(store: MetaStore): MetaStore;
}

export function remoteFactory(name: string, inner: BackendFactory): RemoteFactory {
  const clusters = new Map<string, MetaStore>();
  const of = new Map<MetaStore, { cluster: string; inner: MetaStore }>();
  const clients: RemoteMetaStore[] = [];
  let server: Promise<{ server: RemoteServer; port: number }> | null = null;
  let seq = 0;
  const up = () => {
    server ??= (async () => {
      const s = new RemoteServer({
        authenticate: clusterFromMetadata,
        stores: (id) => {
          const meta = clusters.get(id);
          if (!meta) throw new Error(`no cluster ${id}`);
          return { meta };
        },
      });
      return { server: s, port: await s.listen('127.0.0.1', 0) };
    })();
    return server;
  };
  const client = async (cluster: string, innerStore: MetaStore) => {
    const { port } = await up();
    const c = await openRemote({ target: `127.0.0.1:${port}`, cluster });
    clients.push(c);
    of.set(c, { cluster, inner: innerStore });
    return c;
  };
  return {
    name,
    async server() {
      return (await up()).server;
    },
    inner(store) {
      const e = of.get(store);
      if (!e) throw new Error('inner: store was not opened by this factory');
      return e.inner;
    },
    async open(opts?: OpenOptions) {
      const innerStore = await inner.open(opts);
      const cluster = `c${++seq}`;
      clusters.set(cluster, innerStore);
      return client(cluster, innerStore);
    },
    async connect(store) {
      const e = of.get(store);
      if (!e) throw new Error('connect: store was not opened by this factory');
      return client(e.cluster, e.inner);
    },
    location(store): Location {
      const e = of.get(store);
      if (!e || !server) throw new Error('location: store was not opened by this factory');
      const target = (store as RemoteMetaStore).channel.opts.target;
      return { backend: name, path: `remote://${target}?cluster=${e.cluster}` };
    },
    async cleanup() {
      for (const c of clients.splice(0)) await c.close();
      of.clear();
      clusters.clear();
      const s = server;
      server = null;
      if (s) await (await s).server.close(500);
      await inner.cleanup();
    },
  };
}

/** A worker's handle on a remote location. */
export function openRemoteLocation(loc: Location): Promise<MetaStore> {
  const u = new URL(loc.path);
  return openRemote({ target: `${u.hostname}:${u.port}`, ...(u.searchParams.get('cluster') ? { cluster: u.searchParams.get('cluster')! } : {}) });
}

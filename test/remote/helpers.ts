// Fixtures of the remote suite (spec §8): a remote server over a fresh embedded metastore (and
// its ControlStore), reached directly or through a TCP proxy a test can cut.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbedded, type EmbeddedMetaStore } from '../../src/meta/backends/embedded/index.js';
import { openRemote, type RemoteMetaStore } from '../../src/meta/backends/remote/client.js';
import type { RemoteOptions } from '../../src/meta/backends/remote/channel.js';
import type { MetaStore } from '../../src/meta/index.js';
import { controlStoreFor, type ControlStore } from '../../src/control/index.js';
import { RemoteServer, type RemoteServerOptions } from '../../src/remote/server.js';
import { tcpProxy, type TcpProxy } from '../harness/tcp-proxy.js';

export interface Served {
  server: RemoteServer;
  port: number;
  /** The backend behind the server. */
  inner: EmbeddedMetaStore;
  control: ControlStore;
  /** A client straight to the server. */
  client(opts?: Partial<RemoteOptions>): Promise<RemoteMetaStore>;
  /** A proxy in front of the server that a test can cut (down/up). */
  proxy(): Promise<TcpProxy>;
  /** A client through a proxy. */
  clientVia(p: TcpProxy, opts?: Partial<RemoteOptions>): Promise<RemoteMetaStore>;
  close(): Promise<void>;
}

/** A server over a fresh embedded metastore; `wrap` may put a test double around the backend the server calls. */
export async function served(o: { wrap?: (m: MetaStore) => MetaStore; server?: Partial<RemoteServerOptions> } = {}): Promise<Served> {
  const dir = mkdtempSync(join(tmpdir(), 'loam-remote-'));
  const inner = openEmbedded({ path: join(dir, 'meta.db') });
  const control = await controlStoreFor(inner);
  const server = new RemoteServer({ meta: o.wrap ? o.wrap(inner) : inner, control, ...o.server });
  const port = await server.listen('127.0.0.1', 0);
  const clients: RemoteMetaStore[] = [];
  const proxies: TcpProxy[] = [];
  const client = async (target: string, opts: Partial<RemoteOptions> = {}) => {
    const c = await openRemote({ target, ...opts });
    clients.push(c);
    return c;
  };
  return {
    server,
    port,
    inner,
    control,
    client: (opts) => client(`127.0.0.1:${port}`, opts),
    async proxy() {
      const p = await tcpProxy({ host: '127.0.0.1', port });
      proxies.push(p);
      return p;
    },
    clientVia: (p, opts) => client(`127.0.0.1:${p.port}`, opts),
    async close() {
      for (const c of clients.splice(0)) await c.close();
      for (const p of proxies.splice(0)) await p.close();
      await server.close(500);
      await control.close();
      await inner.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `cond` every 10 ms until it holds or `ms` pass (then fails with `what`). */
export async function until(cond: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await cond()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out after ${ms} ms waiting for ${what}`);
}

/** A metric's value from a registry's text (sum over the series matching `labels`). */
export async function metric(text: string | Promise<string>, name: string, labels: Record<string, string> = {}): Promise<number> {
  let sum = 0;
  for (const line of (await text).split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries((m[3] ?? '').split(',').filter(Boolean).map((kv) => kv.split('=').map((x) => x.replace(/^"|"$/g, '')) as [string, string]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) sum += Number(m[4]);
  }
  return sum;
}

// The Prometheus scrape endpoint, GET /metrics, on a listener of its own, shared by the node,
// the control plane and the remote metastore server. The API's port answers only requests
// that carry an API key (and a gRPC port only calls with an agent key); this one carries
// per-route traffic and takes none, so it listens apart (loopback by default) where only the
// operator's scraper reaches it.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A scrape that takes longer than this is answered 503 (every wait has a deadline). */
export const METRICS_SCRAPE_DEADLINE_MS = 10_000;
/** Closing waits this long for scrapes in flight, then drops their connections. */
export const METRICS_CLOSE_DEADLINE_MS = 2_000;

export interface MetricsListenerOptions {
  host: string;
  /** 0 picks a free port. */
  port: number;
  contentType: string;
  /** The metrics, in the Prometheus text format. */
  text: () => Promise<string>;
  /** A scrape failed (it was answered 503). */
  failed?: (e: unknown) => void;
}

export interface MetricsListener {
  readonly host: string;
  readonly port: number;
  readonly url: string;
  close(): Promise<void>;
}

function sendJson(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ error: { code, message } }));
}

export async function listenMetrics(o: MetricsListenerOptions): Promise<MetricsListener> {
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics') return sendJson(res, 404, 'not_found', `no route ${req.method ?? ''} ${path}; this listener serves GET /metrics only`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return sendJson(res, 405, 'method_not_allowed', 'use GET /metrics');
    let t: NodeJS.Timeout | undefined;
    try {
      const body = await Promise.race([
        o.text(),
        new Promise<never>((_, reject) => (t = setTimeout(() => reject(new Error(`collecting metrics took over ${METRICS_SCRAPE_DEADLINE_MS} ms`)), METRICS_SCRAPE_DEADLINE_MS))),
      ]);
      res.writeHead(200, { 'content-type': o.contentType });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (e) {
      o.failed?.(e);
      sendJson(res, 503, 'unavailable', `metrics could not be collected: ${(e as Error).message}`);
    } finally {
      clearTimeout(t);
    }
  };
  const server = createServer((req, res) => void handle(req, res));
  server.requestTimeout = METRICS_SCRAPE_DEADLINE_MS * 2;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = o.host.includes(':') ? `[${o.host}]` : o.host;
  return {
    host: o.host,
    port,
    url: `http://${host}:${port}/metrics`,
    async close() {
      const closed = new Promise<void>((r) => server.close(() => r()));
      server.closeIdleConnections();
      let t: NodeJS.Timeout | undefined;
      await Promise.race([closed, new Promise<void>((r) => (t = setTimeout(r, METRICS_CLOSE_DEADLINE_MS)))]);
      clearTimeout(t);
      server.closeAllConnections();
    },
  };
}

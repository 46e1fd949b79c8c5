// A TCP forwarder on a loopback port that a test can take down and bring back (a server
// "unreachable for a while": connections refused and open ones cut), on the same port.
import { createServer, connect, type Server, type Socket } from 'node:net';
import { freePort } from './ports.js';

export interface TcpProxy {
  port: number;
  url: string;
  down(): Promise<void>;
  up(): Promise<void>;
  close(): Promise<void>;
}

export async function tcpProxy(upstream: { host: string; port: number }): Promise<TcpProxy> {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  const up = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer((client) => {
        const target = connect(upstream.port, upstream.host);
        for (const x of [client, target]) {
          sockets.add(x);
          x.on('close', () => sockets.delete(x));
          x.on('error', () => x.destroy());
        }
        client.pipe(target).pipe(client);
        client.on('close', () => target.destroy());
        target.on('close', () => client.destroy());
      });
      s.once('error', reject);
      s.listen(port, '127.0.0.1', () => resolve());
      server = s;
    });
  const down = async () => {
    const s = server;
    server = null;
    for (const x of sockets) x.destroy();
    if (s) await new Promise<void>((r) => s.close(() => r()));
  };
  await up();
  return { port, url: `http://127.0.0.1:${port}`, up, down, close: down };
}

// The remote metastore server of `npm run bench -- remote`, in a process of its own: it opens
// the embedded backend at argv[2] (synchronous argv[3]), serves it on a loopback port, prints
// the port on stdout and runs until stdin closes.
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { RemoteServer } from '../src/remote/server.js';

const meta = openEmbedded({ path: process.argv[2]!, synchronous: (process.argv[3] as 'FULL' | 'NORMAL') ?? 'FULL' });
const server = new RemoteServer({ meta });
const port = await server.listen('127.0.0.1', 0);
process.stdout.write(`${port}\n`);
process.stdin.resume();
process.stdin.on('end', () => {
  void server.close(500).then(() => meta.close()).then(() => process.exit(0));
});

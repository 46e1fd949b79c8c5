// The remote metastore server of `npm run bench -- remote`, in a process of its own: it opens
// the embedded backend at argv[2] (synchronous argv[3]), serves it on a loopback port, prints
// the port on stdout (with argv[4] and argv[5], the A/B tool of bench/_sim_fsync.ts: each
// commitWal group blocks argv[4] µs, argv[5] sleep or spin), answers each `cpu` line on stdin with its CPU time so far (µs: user
// and system, space-separated) and each `groups` line with its backend's group commits so far (groups, calls), and
// runs until stdin closes. Beside it, the two floors of ./_remote_floor.ts over the same backend:
// its first line is the RemoteServer's port, the TCP floor's and the gRPC floor's.
import { createInterface } from 'node:readline';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { RemoteServer } from '../src/remote/server.js';
import { simFsyncHook, simFsyncOf } from './_sim_fsync.js';
import { serveFloors } from './_remote_floor.js';
import { FLOOR_PARTITIONS, WRITERS } from './_remote_types.js';

const sim = simFsyncOf(process.argv[4], process.argv[5]);
const meta = openEmbedded({ path: process.argv[2]!, synchronous: (process.argv[3] as 'FULL' | 'NORMAL') ?? 'FULL', ...(sim ? { faults: simFsyncHook(sim) } : {}) });
const server = new RemoteServer({ meta });
const port = await server.listen('127.0.0.1', 0);
const ns = await meta.createNamespace({ org: 'bench', name: 'floor' });
const coll = await meta.createCollection({ ns: ns.id, name: 'c', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: FLOOR_PARTITIONS });
const objectStamp = Date.now();
const floors = await serveFloors(
  (i) => ({
    object: `floor/${i}`,
    objectStamp,
    chunks: Array.from({ length: FLOOR_PARTITIONS }, (_, p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 10, byteStart: p * 100, byteEnd: p * 100 + 100 })),
  }),
  meta,
  WRITERS,
);
process.stdout.write(`${port} ${floors.tcpPort} ${floors.grpcPort}\n`);
const input = createInterface({ input: process.stdin });
input.on('line', (l) => {
  if (l.trim() === 'groups') {
    const g = meta.groupCommits();
    process.stdout.write(`${g.groups} ${g.calls}\n`);
    return;
  }
  if (l.trim() !== 'cpu') return;
  const u = process.cpuUsage();
  process.stdout.write(`${u.user} ${u.system}\n`);
});
input.on('close', () => {
  void floors
    .close()
    .then(() => server.close(500))
    .then(() => meta.close())
    .then(() => process.exit(0));
});

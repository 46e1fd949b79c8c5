// The remote metastore server of `npm run bench -- remote`, in a process of its own: it opens
// the embedded backend at argv[2] (synchronous argv[3]), serves it on a loopback port, prints
// the port on stdout (with argv[4] and argv[5], the A/B tool of bench/_sim_fsync.ts: each
// commitWal group blocks argv[4] µs, argv[5] sleep or spin), answers each `cpu` line on stdin with its CPU time so far (µs: user
// and system, space-separated) and each `groups` line with its backend's group commits so far (groups, calls), and
// runs until stdin closes.
import { createInterface } from 'node:readline';
import { openEmbedded } from '../src/meta/backends/embedded/index.js';
import { RemoteServer } from '../src/remote/server.js';
import { simFsyncHook, simFsyncOf } from './_sim_fsync.js';

const sim = simFsyncOf(process.argv[4], process.argv[5]);
const meta = openEmbedded({ path: process.argv[2]!, synchronous: (process.argv[3] as 'FULL' | 'NORMAL') ?? 'FULL', ...(sim ? { faults: simFsyncHook(sim) } : {}) });
const server = new RemoteServer({ meta });
const port = await server.listen('127.0.0.1', 0);
process.stdout.write(`${port}\n`);
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
  void server.close(500).then(() => meta.close()).then(() => process.exit(0));
});

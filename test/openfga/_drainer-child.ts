// A drainer in a process of its own (test/openfga/killed-drainer.test.ts kills it with SIGKILL):
// on the metastore file and OpenFGA store named in argv, it prints "wrote <n>" once a batch is
// in OpenFGA and waits there, before acknowledging, to be killed.
import { pino } from 'pino';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { openEmbeddedControl } from '../../src/control/embedded.js';
import { OpenFgaAuthorizer } from '../../src/authz/openfga/authorizer.js';

const [path, url, store] = process.argv.slice(2) as [string, string, string];
const meta = openEmbedded({ path });
const control = openEmbeddedControl(path, { outbox: true });
await control.init();
const az = new OpenFgaAuthorizer({
  url,
  store,
  control,
  meta,
  logger: pino({ level: 'silent' }),
  owner: `child-${process.pid}`,
  drain: {
    pollMs: 20,
    leaseTtlMs: 1_000,
    reconcileIntervalMs: 3_600_000,
    afterWrite: (seqs) => {
      process.stdout.write(`wrote ${seqs.length}\n`);
      return new Promise<void>(() => undefined); // never acknowledged: killed here
    },
  },
});
await az.start();

// A child process that uses a store named by URL, for the crash and cross-process checks
// (spec §4.4 check 8; file provider: conditions hold across processes). It prints one JSON
// line per event on stdout. Modes:
//   write <url> <prefix> <max>        put objects 0..max-1, printing {"ack":path,"etag":…} after each
//   race  <url> <prefix> <keys> <id>  after "go" on stdin, create-only put each key; print {"won":[…]}
//   cas   <url> <path> <n> <id>       n ifMatch read-modify-write increments of a counter object
import { createInterface } from 'node:readline';
import { isStoreError, openStore } from '../../../src/store/index.js';
import { contentFor } from './content.js';

/** A cas increment retries a lost race at most this often before giving up. */
const CAS_MAX_ATTEMPTS = 10_000;

const [mode, url, a, b, c] = process.argv.slice(2);
const out = (v: unknown): void => {
  process.stdout.write(`${JSON.stringify(v)}\n`);
};

async function waitForGo(): Promise<void> {
  out({ ready: true });
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    if (line.trim() === 'go') break;
  }
  rl.close();
}

async function main(): Promise<void> {
  if (!mode || !url) throw new Error('usage: child.ts <write|race|cas> <url> …');
  const store = openStore(url);
  if (mode === 'write') {
    const prefix = a!;
    const max = Number(b);
    for (let i = 0; i < max; i++) {
      const path = `${prefix}/obj-${String(i).padStart(5, '0')}`;
      const { etag } = await store.put(path, contentFor(i));
      out({ ack: path, etag, i });
    }
    out({ done: true });
    // Stay alive until killed, as a server would.
    await new Promise((resolve) => setTimeout(resolve, 60_000));
  } else if (mode === 'race') {
    const prefix = a!;
    const keys = Number(b);
    const id = c!;
    await waitForGo();
    const won: number[] = [];
    const others: string[] = [];
    for (let k = 0; k < keys; k++) {
      try {
        await store.put(`${prefix}/k${k}`, Buffer.from(id), { ifNoneMatch: '*' });
        won.push(k);
      } catch (e) {
        if (!isStoreError(e, 'AlreadyExists')) others.push(String(e));
      }
    }
    out({ won, others });
  } else if (mode === 'cas') {
    const path = a!;
    const n = Number(b);
    let conflicts = 0;
    await waitForGo();
    for (let i = 0; i < n; i++) {
      for (let attempt = 1; ; attempt++) {
        if (attempt > CAS_MAX_ATTEMPTS) throw new Error(`cas: gave up after ${CAS_MAX_ATTEMPTS} attempts`);
        const cur = await store.get(path);
        const next = Number(cur.bytes.toString()) + 1;
        try {
          await store.put(path, Buffer.from(String(next)), { ifMatch: cur.etag });
          break;
        } catch (e) {
          if (!isStoreError(e, 'PreconditionFailed')) throw e;
          conflicts++;
        }
      }
    }
    out({ done: n, conflicts });
  } else {
    throw new Error(`unknown mode ${mode}`);
  }
  await store.close();
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    out({ error: String(e) });
    process.exit(1);
  },
);

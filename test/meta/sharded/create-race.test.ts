// A create that owns its name's reservation is answered with its namespace, whatever happened to
// it meanwhile (spec §10: the reservation decides who created the name). Two handles of one
// sharded store: A reserves the name and stalls before its shard create (a fault hook); B meets
// the entry still 'creating', finishes it (AlreadyExists with A's id, as it should), drops it and
// creates the name again. A then finds its namespace on the shard, dropped. It took it for a stale
// entry, reserved again, met B's new namespace and answered AlreadyExists — though its create had
// taken effect (the linearizability check of the sharded names saw it in CI).
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openEmbedded } from '../../../src/meta/backends/embedded/index.js';
import { openSharded, type ShardedMetaStore } from '../../../src/meta/backends/sharded/index.js';
import { directoryOn } from '../../../src/control/directory/index.js';
import { isMetaError, type MetaStore } from '../../../src/meta/index.js';
import type { FaultHook } from '../../../src/meta/faults.js';
import type { DirectoryStore } from '../../../src/meta/backends/sharded/directory.js';

/** How long the test waits for A's reservation to appear (a bound). */
const RESERVE_WAIT_MS = 10_000;

const dir = mkdtempSync(join(tmpdir(), 'loam-sharded-race-'));
const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const c of closers.reverse()) await c();
  rmSync(dir, { recursive: true, force: true });
});

async function handle(faults?: FaultHook): Promise<{ store: ShardedMetaStore & MetaStore; directory: DirectoryStore }> {
  const shardPath = join(dir, 's0.db');
  const shard = openEmbedded({ path: shardPath, synchronous: 'NORMAL', ...(faults ? { faults } : {}) });
  const dirMeta = openEmbedded({ path: join(dir, 'directory.db'), synchronous: 'NORMAL' });
  const directory = await directoryOn({ kind: 'sqlite', db: dirMeta.db });
  const store = (await openSharded({
    directory: { store: directory, connection: { kind: 'sqlite', db: dirMeta.db }, close: async () => { await directory.close(); await dirMeta.close(); } },
    shards: [{ name: 's0', identity: `sqlite:${shardPath}`, store: shard }],
    follow: false,
    resumeRemovals: false,
  })) as ShardedMetaStore & MetaStore;
  closers.push(async () => {
    await store.close();
    await shard.close();
  });
  return { store, directory };
}

describe('sharded create: the reservation decides who created the name', () => {
  test("a create whose namespace another create finished, and a third dropped, is answered with its own id, not AlreadyExists", async () => {
    let open: () => void = () => {};
    const gate = new Promise<void>((r) => (open = r));
    let held = false;
    // A's shard stalls its first createNamespace until the gate opens.
    const a = await handle(async (point, op) => {
      if (point !== 'BeforeBegin' || op !== 'createNamespace' || held) return;
      held = true;
      await gate;
    });
    const b = await handle();

    const created = a.store.createNamespace({ org: 'race', name: 'n' }).then(
      (ns) => ({ ok: true as const, ns }),
      (e: unknown) => ({ ok: false as const, e }),
    );
    // A's reservation, still 'creating'.
    const until = Date.now() + RESERVE_WAIT_MS;
    let reserved = await b.directory.entryByName('race', 'n');
    while (!reserved && Date.now() < until) {
      await sleep(10);
      reserved = await b.directory.entryByName('race', 'n');
    }
    assert.ok(reserved && held, "A's create did not reserve its name");
    assert.equal(reserved.state, 'creating');

    // B finishes A's create and is told the name is held, by A's id; then drops it and creates the name again.
    await assert.rejects(b.store.createNamespace({ org: 'race', name: 'n' }), (e: unknown) => isMetaError(e, 'AlreadyExists') && e.details.existingId === reserved!.id);
    await b.store.dropNamespace(reserved.id);
    const again = await b.store.createNamespace({ org: 'race', name: 'n' });
    assert.notEqual(again.id, reserved.id);

    open();
    const r = await created;
    assert.ok(r.ok, `A's create, which took effect (B was told of its id ${reserved.id}), was answered ${r.ok ? '' : String(r.e)}`);
    assert.equal(r.ns.id, reserved.id);
    assert.deepEqual([r.ns.org, r.ns.name], ['race', 'n']);
    // The name is B's second namespace; A's create made nothing more.
    assert.equal((await b.store.namespaceByName('race', 'n')).id, again.id);
    assert.equal((await a.store.listNamespaces('race')).items.length, 1);
  });
});

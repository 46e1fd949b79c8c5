// The sharded metastore's own mapping (suite `sharded`, on the `sharded` backend): placement,
// the directory (dense cluster-wide ids, versions, a node's held version), the partial
// outcome of a commit some shard refused, cluster leases fencing calls on every shard, the
// cluster feed copying changes nobody copied, and the configuration's errors. The shared
// suites (conformance, linearizability, faults) run on it as on every backend.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { openEmbedded } from '../../../src/meta/backends/embedded/index.js';
import { openSharded, type ShardedMetaStore } from '../../../src/meta/backends/sharded/index.js';
import { LARGE_NAMESPACE_STREAMS } from '../../../src/meta/backends/sharded/directory.js';
import { shardedUrl, parseShardedSetting, ShardedConfigError } from '../../../src/meta/backends/sharded/descriptor.js';
import { descriptorFor } from '../../../src/meta/backends/registry.js';
import { directoryOn, openDirectory } from '../../../src/control/directory/index.js';
import { errors, isMetaError, type MetaStore } from '../../../src/meta/index.js';
import type { FaultHook } from '../../../src/meta/faults.js';
import { SPREAD_NAMES } from '../../harness/sharded.js';

const dirs: string[] = [];
const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };

interface Built {
  store: ShardedMetaStore & MetaStore;
  shards: MetaStore[];
  paths: string[];
  dirPath: string;
}

/** A sharded store over `n` embedded shards in a fresh folder; `hooks[i]` injects faults on shard i. */
async function build(n: number, hooks: (FaultHook | undefined)[] = [], at?: { paths: string[]; dirPath: string }): Promise<Built> {
  let paths = at?.paths;
  let dirPath = at?.dirPath;
  if (!paths || !dirPath) {
    const d = mkdtempSync(join(tmpdir(), 'loam-sharded-'));
    dirs.push(d);
    paths = Array.from({ length: n }, (_, i) => join(d, `s${i}.db`));
    dirPath = join(d, 'directory.db');
  }
  const shards = paths.map((path, i) => openEmbedded({ path, synchronous: 'NORMAL', ...(hooks[i] ? { faults: hooks[i] } : {}) }));
  const dirMeta = openEmbedded({ path: dirPath, synchronous: 'NORMAL' });
  const dir = await directoryOn({ kind: 'sqlite', db: dirMeta.db });
  const store = (await openSharded({
    directory: { store: dir, connection: { kind: 'sqlite', db: dirMeta.db }, close: async () => { await dir.close(); await dirMeta.close(); } },
    shards: shards.map((s, i) => ({ name: `s${i}`, identity: `sqlite:${paths[i]}`, store: s })),
  })) as ShardedMetaStore & MetaStore;
  closers.push(() => store.close());
  return { store, shards, paths, dirPath };
}

async function placed(store: ShardedMetaStore, ns: number): Promise<string> {
  return (await store.router.entry(ns)).shard;
}

describe('sharded metastore', () => {
  test('the conformance names spread over all three shards; namespace ids are dense across shards', async () => {
    const { store } = await build(3);
    const ids: number[] = [];
    const shards = new Set<string>();
    for (const name of SPREAD_NAMES) {
      const ns = await store.createNamespace({ org: 'spread', name });
      ids.push(ns.id);
      shards.add(await placed(store, ns.id));
    }
    assert.deepEqual(ids, SPREAD_NAMES.map((_, i) => i + 1), 'ids 1..n, once for the whole cluster');
    assert.deepEqual([...shards].sort(), ['s0', 's1', 's2']);
  });

  test('the directory: entries are versioned, the name is reserved cluster-wide, a drop frees it, and a node says which version it holds', async () => {
    const { store } = await build(3);
    const dir = store.router.directory;
    const v0 = await dir.version();
    const a = await store.createNamespace({ org: 'o', name: 'a' });
    const e = await dir.entry(a.id);
    assert.equal(e?.state, 'live');
    assert.ok(e!.version > v0);
    await assert.rejects(store.createNamespace({ org: 'o', name: 'a' }), (x: unknown) => isMetaError(x, 'AlreadyExists') && x.details.existingId === a.id);
    const ch = await dir.changesSince(v0);
    assert.ok(ch.entries.some((x) => x.id === a.id && x.state === 'live'));
    assert.equal(ch.version, await dir.version());
    await store.dropNamespace(a.id);
    assert.equal((await dir.entry(a.id))?.state, 'dropped');
    const again = await store.createNamespace({ org: 'o', name: 'a' });
    assert.equal(again.id, a.id + 1, 'a new id: ids are never reused');
    // The node follows the directory (a long poll) and reports the version it holds.
    await store.router.refresh();
    assert.equal(store.directoryVersion(), await dir.version());
    // The version check of an entry write (how a move flips a namespace's shard).
    const cur = (await dir.entry(again.id))!;
    await assert.rejects(dir.updateEntry(again.id, cur.version - 1, { shard: 's1' }), (x: unknown) => isMetaError(x, 'VersionMismatch'));
    await assert.rejects(dir.updateEntry(again.id, cur.version, { shard: 'nope' }), (x: unknown) => isMetaError(x, 'InvalidArgument'));
  });

  test('a commit whose part on one shard is refused before it was sent, after another shard committed, is Unknown; the retry commits the rest once', async () => {
    let refuse = false;
    const hook: FaultHook = (p, op) => {
      if (refuse && op === 'commitWal' && p === 'BeforeBegin') throw errors.retryable('connect', 'injected: refused before BEGIN', true);
    };
    // Shard s1 refuses; the others commit.
    const { store } = await build(3, [undefined, hook, undefined]);
    const made = [];
    for (const name of SPREAD_NAMES) {
      const ns = await store.createNamespace({ org: 'spread', name });
      const c = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 1 });
      made.push({ ns: ns.id, stream: c.streamId, shard: await placed(store, ns.id) });
    }
    const chunks = made.map((m, i) => ({ ns: m.ns, stream: m.stream, partition: 0, records: 1, byteStart: i * 10, byteEnd: i * 10 + 10 }));
    const commit = { object: 'wal/partial.wal', objectStamp: Date.now(), chunks };
    refuse = true;
    await assert.rejects(store.commitWal(commit, { requestId: 'r1' }), (e: unknown) => {
      assert.ok(isMetaError(e, 'Unknown'), `expected Unknown, got ${String(e)}`);
      assert.equal(e.details.earlierUnknown, true);
      assert.match(e.message, /s1/);
      return true;
    });
    for (const m of made) {
      const st = await store.streamState(m.ns, m.stream);
      assert.equal(st.heads[0]!.next, m.shard === 's1' ? 0 : 1, `${m.shard}: committed unless refused`);
    }
    refuse = false;
    const res = await store.commitWal(commit, { requestId: 'r1' });
    assert.ok(res.assigned.every((a) => a.start === 0 && a.end === 1));
    for (const m of made) assert.equal((await store.streamState(m.ns, m.stream)).heads[0]!.next, 1, 'committed once everywhere');
    // Group numbers name distinct atomic units across shards.
    const units = new Set(res.assigned.map((a) => `${a.group}`));
    assert.equal(units.size, res.groups);
  });

  test('a create that reserved its name and lost its shard call: the next create finishes it and is told AlreadyExists with the first id, the first create\'s retry answers it, and ids answered ok follow real time', async () => {
    let lose = false;
    // The shard call's outcome is lost before it ran (as a cut connection leaves it).
    const hook: FaultHook = (p, op) => {
      if (lose && op === 'createNamespace' && p === 'BeforeBegin') throw errors.unknown('injected: outcome lost');
    };
    const { store } = await build(3, [hook, hook, hook]);
    lose = true;
    await assert.rejects(store.createNamespace({ org: 'o', name: 'a' }, { requestId: 'first' }), (e: unknown) => isMetaError(e, 'Unknown'));
    lose = false;
    const held = await store.router.directory.entryByName('o', 'a');
    assert.equal(held?.state, 'creating', 'the reservation holds the name');
    assert.equal(held?.reservedBy, 'first');
    const b = await store.createNamespace({ org: 'o', name: 'b' }, { requestId: 'second' });
    assert.ok(b.id > held!.id);
    // A create that starts after b was answered cannot be answered a smaller id as its own.
    await assert.rejects(
      store.createNamespace({ org: 'o', name: 'a' }, { requestId: 'third' }),
      (e: unknown) => isMetaError(e, 'AlreadyExists') && e.details.existingId === held!.id,
    );
    assert.equal((await store.namespaceByName('o', 'a')).id, held!.id, 'the name is readable once finished');
    assert.equal((await store.router.directory.entry(held!.id))?.state, 'live');
    const retried = await store.createNamespace({ org: 'o', name: 'a' }, { requestId: 'first' });
    assert.equal(retried.id, held!.id, "the first create's retry is answered its namespace");
  });

  test('a create its shard refuses holds no name: the entry is freed and the next create gets a new id', async () => {
    let refuse = false;
    const hook: FaultHook = (p, op) => {
      if (refuse && op === 'createNamespace' && p === 'BeforeBegin') throw errors.retryable('connect', 'injected: refused before BEGIN', true);
    };
    const { store } = await build(3, [hook, hook, hook]);
    refuse = true;
    await assert.rejects(store.createNamespace({ org: 'o', name: 'c' }, { requestId: 'r1' }), (e: unknown) => isMetaError(e, 'Retryable'));
    refuse = false;
    assert.equal(await store.router.directory.entryByName('o', 'c'), null, 'a refused create holds no name');
    await assert.rejects(store.namespaceByName('o', 'c'), (e: unknown) => isMetaError(e, 'NotFound'));
    const c = await store.createNamespace({ org: 'o', name: 'c' }, { requestId: 'r2' });
    assert.equal((await store.namespaceByName('o', 'c')).id, c.id);
  });

  test('a directory made before reservations kept their requestId gains the column at open, its entries unchanged', async () => {
    const d = mkdtempSync(join(tmpdir(), 'loam-dir-old-'));
    dirs.push(d);
    const meta = openEmbedded({ path: join(d, 'directory.db'), synchronous: 'NORMAL' });
    closers.push(() => meta.close());
    meta.db.exec(`CREATE TABLE dir_entries (id BIGINT PRIMARY KEY, org TEXT NOT NULL, name TEXT NOT NULL, shard TEXT NOT NULL,
      state TEXT NOT NULL, size_class TEXT NOT NULL, version BIGINT NOT NULL)`);
    meta.db.exec(`INSERT INTO dir_entries VALUES (7, 'o', 'old', 's0', 'live', 'small', 3)`);
    const dir = await directoryOn({ kind: 'sqlite', db: meta.db });
    closers.push(() => dir.close());
    assert.deepEqual(await dir.entry(7), { id: 7, org: 'o', name: 'old', shard: 's0', state: 'live', sizeClass: 'small', version: 3 });
    await dir.addShard('s0', 'sqlite:/x/s0.db');
    assert.equal((await dir.reserve('o', 'new', 's0', 'small', 'req')).entry.reservedBy, 'req');
  });

  test('a cluster lease fences calls on every shard: a fenced claim of a WAL object works under the lease and is refused after a takeover', async () => {
    const { store } = await build(3);
    // Shard s1's copy is one epoch ahead (an earlier holder's copy that expired there): the
    // fence names the home epoch, which s1 knows under its own.
    await store.router.shards[1]!.store.acquireLease('cluster', 'gc', 'gc-0', 100, { stamp: Date.now() - 10_000 });
    const l = await store.acquireLease('cluster', 'gc', 'gc-1', 200, { stamp: Date.now() });
    assert.equal((await store.router.shards[1]!.store.lease('cluster', 'gc'))!.epoch, l.epoch + 1);
    const fence = { scope: 'cluster' as const, key: 'gc', epoch: l.epoch };
    const c = await store.claimObject('wal/unused-1.wal', 'gc-1', { fence });
    assert.equal(c.claimed, true);
    for (const s of store.router.shards) assert.equal((await s.store.objectRef('wal/unused-1.wal'))?.claim?.owner, 'gc-1', `claimed on ${s.name}`);
    const l2 = await store.acquireLease('cluster', 'gc', 'gc-2', 60_000, { stamp: Date.now() + 1_000 });
    assert.ok(l2.epoch > l.epoch);
    await assert.rejects(store.claimObject('wal/unused-2.wal', 'gc-1', { fence }), (e: unknown) => isMetaError(e, 'FenceMismatch'));
    const c2 = await store.claimObject('wal/unused-2.wal', 'gc-2', { fence: { ...fence, epoch: l2.epoch } });
    assert.equal(c2.claimed, true);
  });

  test('a change written on a shard that no node copied reaches the cluster feed at the next read, on every handle', async () => {
    const b = await build(2);
    const ns = await b.store.createNamespace({ org: 'o', name: 'feed' });
    const v = await b.store.catalogVersion();
    const shard = b.store.router.shard(await placed(b.store, ns.id));
    // Written on the shard directly: as if the writing node died before copying it.
    const s = await shard.store.createStream({ ns: ns.id, name: 'direct', partitions: 1 });
    const second = await build(2, [], { paths: b.paths, dirPath: b.dirPath });
    const page = await second.store.changesSince(v);
    assert.deepEqual(page.changes.map((c) => [c.kind, c.id]), [['stream.created', s.id]]);
    assert.equal(await b.store.catalogVersion(), page.version, 'one cluster version on both handles');
    const w = second.store.watch({ ns: ns.id }, page.version, { timeoutMs: 5_000 });
    await b.store.createStream({ ns: ns.id, name: 'routed', partitions: 1 });
    assert.equal((await w).changed, true);
  });

  test('configuration: duplicate and unreachable shards are errors naming the entry', async () => {
    assert.throws(() => parseShardedSetting({ shards: ['sqlite:/tmp/a.db', 'sqlite:/tmp/a.db'], directory: 'sqlite:/tmp/d.db' }), (e: unknown) => e instanceof ShardedConfigError && /shards\[1\].*same database as shards\[0\]/.test((e as Error).message));
    assert.throws(() => parseShardedSetting({ shards: [{ name: 'x', url: 'sqlite:/tmp/a.db' }, { name: 'x', url: 'sqlite:/tmp/b.db' }], directory: 'sqlite:/tmp/d.db' }), /shards\[1\] has the name x/);
    assert.throws(() => parseShardedSetting({ shards: [], directory: 'sqlite:/tmp/d.db' }), /non-empty/);
    assert.throws(() => parseShardedSetting({ shards: ['sqlite::memory:'], directory: 'sqlite:/tmp/d.db' }), /shards\[0\].*memory/);
    const d = mkdtempSync(join(tmpdir(), 'loam-sharded-cfg-'));
    dirs.push(d);
    const url = shardedUrl({ shards: [{ name: 'a', url: `sqlite:${join(d, 'a.db')}` }, { name: 'b', url: 'postgres://loam:secret@127.0.0.1:1/nowhere' }], directory: `sqlite:${join(d, 'dir.db')}` });
    const desc = descriptorFor(url)!;
    assert.equal(desc.name, 'sharded');
    await assert.rejects(desc.open(url, { openDirectory } as never), (e: unknown) => {
      const m = (e as Error).message;
      assert.match(m, /shards\[1\] \(b, postgres:\/\/…@127\.0\.0\.1:1\/nowhere\) cannot be used/);
      assert.ok(!m.includes('secret'), 'no password in the error');
      return true;
    });
  });

  test('a shard list that lost a shard the directory knows is refused at open', async () => {
    const b = await build(3);
    await b.store.close();
    await assert.rejects(build(2, [], { paths: b.paths.slice(0, 2), dirPath: b.dirPath }), /s2, which this config does not list/);
  });

  test('size classes (spec §5.3): past LARGE_NAMESPACE_STREAMS streams a namespace is large in the directory, and every handle places it so', async () => {
    const a = await build(2);
    const b = await build(2, [], { paths: a.paths, dirPath: a.dirPath });
    const ns = await a.store.createNamespace({ org: 'default', name: 'grows' });
    for (let i = 0; i < LARGE_NAMESPACE_STREAMS; i++) await a.store.createCollection({ ns: ns.id, name: `c${i}`, schema: SCHEMA, partitions: 1 });
    assert.equal((await a.store.router.reload(ns.id)).sizeClass, 'small', 'at the threshold: still small');
    const v = b.store.sizeClassVersion();
    await a.store.createStream({ ns: ns.id, name: 'one-more', partitions: 1 });
    assert.equal((await a.store.router.reload(ns.id)).sizeClass, 'large');
    assert.equal(a.store.sizeClassOf(ns.id), 'large');
    // b was open before: it learns it from the directory's changes, without reading the entry.
    const deadline = Date.now() + 10_000;
    while (b.store.sizeClassOf(ns.id) !== 'large') {
      assert.ok(Date.now() < deadline, 'b saw the size class change within 10 s');
      await new Promise((r) => setTimeout(r, 20));
    }
    assert.ok(b.store.sizeClassVersion() > v);
    // A handle opened afterwards lists the large namespaces at start; a bulk-created namespace
    // with more collections than the threshold is large from the start.
    const bulk = await a.store.createNamespaces([{ org: 'default', name: 'born-large', collections: Array.from({ length: LARGE_NAMESPACE_STREAMS + 1 }, (_, i) => ({ name: `c${i}`, schema: SCHEMA, partitions: 1 })) }, { org: 'default', name: 'born-small', collections: [{ name: 'c', schema: SCHEMA, partitions: 1 }] }]);
    const c = await build(2, [], { paths: a.paths, dirPath: a.dirPath });
    assert.deepEqual([ns.id, ...bulk.map((x) => x.namespace.id)].map((id) => c.store.sizeClassOf(id)), ['large', 'large', 'small']);
  });
});

// Cases a sharded metastore makes hard (spec §5.2), run on every backend: on one backend they
// are plain contract cases, on a sharded one the namespaces they create are spread over the
// shards (placement is by name; test/meta/sharded checks that these names do spread). Fresh
// store per case.
//   - one WAL object with chunks of many namespaces: every namespace's offsets, one result,
//     and a retry that commits nothing twice;
//   - its retirement: not while any namespace (any shard) still has a live chunk of it, and
//     GC cannot claim it before; retired once every chunk is trimmed;
//   - an org's namespaces listed across a page boundary under one cursor.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { Collection, MetaStore, Namespace } from '../../src/meta/index.js';
import { SCHEMA, SPREAD_NAMES, allPages, factory, fresh, multiItem, needs, wal } from './helpers.js';

const MULTI = "transactions 'multi-item' (collections and the log are multi-item writes)";

async function spread(store: MetaStore, partitions = 2): Promise<{ ns: Namespace; coll: Collection }[]> {
  const out: { ns: Namespace; coll: Collection }[] = [];
  for (const name of SPREAD_NAMES) {
    const ns = await store.createNamespace({ org: 'spread', name });
    const coll = await store.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions });
    out.push({ ns, coll });
  }
  return out;
}

async function retired(store: MetaStore): Promise<string[]> {
  return (await allPages((after) => store.retiredWalObjects({ after, limit: 100 }))).items.map((r) => r.path);
}

describe('sharding', () => {
  after(() => factory.cleanup());

  test('a WAL object spanning namespaces on different shards: every chunk gets its offsets, and a retry commits nothing twice', { skip: needs(multiItem, MULTI) }, async () => {
    const store = await fresh();
    const w = await spread(store);
    // Two commits first, so the object's offsets start past 0 in some partitions.
    await store.commitWal(wal(w.slice(0, 3).map((x) => ({ ns: x.ns.id, stream: x.coll.streamId, partition: 0, records: 2 }))));
    const chunks = w.flatMap((x) => [0, 1].map((partition) => ({ ns: x.ns.id, stream: x.coll.streamId, partition, records: 1 + partition })));
    const commit = wal(chunks);
    const res = await store.commitWal(commit);
    assert.equal(res.assigned.length, chunks.length);
    res.assigned.forEach((a, i) => {
      const c = chunks[i]!;
      assert.deepEqual([a.ns, a.stream, a.partition, a.end - a.start], [c.ns, c.stream, c.partition, c.records], `chunk ${i} in request order`);
      assert.ok(a.group >= 0 && a.group < res.groups, `group ${a.group} of ${res.groups}`);
      assert.equal(a.start, c.partition === 0 && w.findIndex((x) => x.ns.id === c.ns) < 3 ? 2 : 0);
    });
    for (const [i, a] of res.assigned.entries()) {
      const idx = await store.partitionIndex(a.ns, a.stream, a.partition);
      const e = idx.entries.find((x) => x.path === commit.object);
      assert.deepEqual([e?.start, e?.end, e?.byteStart], [a.start, a.end, commit.chunks[i]!.byteStart], 'indexed on its namespace');
    }
    const again = await store.commitWal(commit);
    assert.deepEqual(again.assigned, res.assigned, 'a retry returns the first offsets');
    for (const x of w) {
      const st = await store.streamState(x.ns.id, x.coll.streamId);
      assert.deepEqual(
        st.heads.map((h) => h.next),
        [w.indexOf(x) < 3 ? 3 : 1, 2],
        `namespace ${x.ns.name}: committed once`,
      );
    }
  });

  test('a WAL object spanning shards is retired only when every namespace on every shard is done with it', { skip: needs(multiItem, MULTI) }, async () => {
    const store = await fresh();
    const w = await spread(store, 1);
    const commit = wal(w.map((x) => ({ ns: x.ns.id, stream: x.coll.streamId, partition: 0, records: 1 })));
    const res = await store.commitWal(commit);
    // Trim all but the last namespace's chunk: still live there.
    for (const a of res.assigned.slice(0, -1)) await store.trimPartition(a.ns, a.stream, a.partition, a.end);
    assert.ok(!(await retired(store)).includes(commit.object), 'not retired while one namespace still has a chunk of it');
    const ref = await store.objectRef(commit.object);
    assert.ok(ref !== null && ref.refs > 0, `still referenced: ${JSON.stringify(ref)}`);
    const claim = await store.claimObject(commit.object, 'gc-a');
    assert.equal(claim.claimed, false, 'GC cannot claim it while a chunk is live');
    // The refused claim left no claim behind on any shard: the object retires normally.
    const last = res.assigned[res.assigned.length - 1]!;
    await store.trimPartition(last.ns, last.stream, last.partition, last.end);
    assert.ok((await retired(store)).includes(commit.object), 'retired once every chunk is trimmed');
    assert.equal((await store.objectRef(commit.object))?.refs ?? 0, 0);
    const ok = await store.claimObject(commit.object, 'gc-a');
    assert.equal(ok.claimed, true, 'claimable once retired everywhere');
    assert.ok(!(await retired(store)).includes(commit.object), 'a claimed object is not listed as retired');
  });

  test('an org\u2019s namespaces across shards page under one cursor across page boundaries', async () => {
    const store = await fresh();
    const names = [...SPREAD_NAMES, ...SPREAD_NAMES.map((n) => `${n}-2`)].sort();
    for (const name of [...names].reverse()) await store.createNamespace({ org: 'paged', name });
    await store.createNamespace({ org: 'other', name: 'alpha' });
    for (const limit of [1, 3, 5, names.length, names.length + 1]) {
      const { items, pages } = await allPages((after) => store.listNamespaces('paged', { limit, ...(after ? { after } : {}) }));
      assert.deepEqual(items.map((n) => n.name), names, `limit ${limit}: every name once, in order`);
      assert.ok(items.every((n) => n.org === 'paged'));
      assert.equal(pages, Math.ceil(names.length / limit), `limit ${limit}: no empty last page`);
    }
    const prefixed = await allPages((after) => store.listNamespaces('paged', { prefix: 'd', limit: 1, ...(after ? { after } : {}) }));
    assert.deepEqual(prefixed.items.map((n) => n.name), names.filter((n) => n.startsWith('d')));
  });
});

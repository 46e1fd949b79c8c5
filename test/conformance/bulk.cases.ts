// The bulk create (contract: createNamespaces; core/bulk.ts): what it creates is what the
// single calls create, a refused call writes nothing, and the core's fallback gives the same
// result on a backend without it. Small batches: the sizes that matter are the bench's
// (`npm run bench -- scale`). Imported by catalog.test.ts, in whose process they run.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { createNamespacesWith, hasBulkCreate } from '../../src/meta/core/bulk.js';
import type { CreateNamespaceWith, MetaStore } from '../../src/meta/index.js';
import { MAX_BULK_NAMESPACES } from '../../src/meta/limits.js';
import { factory, fresh, multiItem, needs, rejectsInvalid, rejectsWith, SCHEMA, uniq } from './helpers.js';

const offered = hasBulkCreate(await fresh());

function batch(n: number, collections = 1): CreateNamespaceWith[] {
  const tag = uniq('bulk');
  return Array.from({ length: n }, (_, i) => ({
    org: 'default',
    name: `${tag}-${i}`,
    collections: Array.from({ length: collections }, (_, k) => ({ name: `c${k}`, schema: SCHEMA, partitions: 2 })),
  }));
}

/** Every catalog change after `from`, as (ns, kind, id). */
async function changesAfter(store: MetaStore, from: number): Promise<string[]> {
  const out: string[] = [];
  let v = from;
  for (let page = 0; page < 100; page++) {
    const p = await store.changesSince(v, 1_000);
    out.push(...p.changes.map((c) => `${c.ns}:${c.kind}:${c.id ?? ''}`));
    v = p.version;
    if (!p.more) return out;
  }
  throw new Error('changesSince did not end');
}

/** What a created batch looks like through the single-entity reads. */
async function check(store: MetaStore, reqs: CreateNamespaceWith[], made: Awaited<ReturnType<typeof createNamespacesWith>>, from: number): Promise<void> {
  assert.equal(made.length, reqs.length);
  assert.equal(new Set(made.map((m) => m.namespace.id)).size, reqs.length, 'distinct namespace ids');
  const expected: string[] = [];
  for (const [i, m] of made.entries()) {
    const byName = await store.namespaceByName('default', reqs[i]!.name);
    assert.equal(byName.id, m.namespace.id);
    assert.equal(m.collections.length, reqs[i]!.collections!.length);
    for (const c of m.collections) {
      const read = await store.collectionByName(m.namespace.id, c.name);
      assert.deepEqual([read.id, read.streamId, read.linkId, read.partitions], [c.id, c.streamId, c.linkId, 2]);
      assert.equal((await store.stream(m.namespace.id, c.streamId)).implicit, true);
    }
    expected.push(`${m.namespace.id}:namespace.created:`, ...m.collections.map((c) => `${m.namespace.id}:collection.created:${c.id}`));
  }
  const got = await changesAfter(store, from);
  for (const e of expected) assert.ok(got.includes(e), `the feed has ${e}`);
}

describe('bulk create', { skip: needs(offered && multiItem, 'createNamespaces (the bulk create)') }, () => {
  after(() => factory.cleanup());

  test('creates each namespace and its collections as the single calls do: readable by name, in the change feed', async () => {
    const store = await fresh();
    const from = await store.catalogVersion();
    const reqs = batch(12, 2);
    const made = await store.createNamespaces!(reqs);
    await check(store, reqs, made, from);
  });

  test('a name already held refuses the whole call (AlreadyExists with its id), and nothing of it is written', async () => {
    const store = await fresh();
    const reqs = batch(6);
    const held = await store.createNamespace({ org: 'default', name: reqs[4]!.name });
    const version = await store.catalogVersion();
    await rejectsWith(store.createNamespaces!(reqs), 'AlreadyExists', (e) => assert.equal(e.details.existingId, held.id));
    for (const r of reqs.filter((_, i) => i !== 4)) await rejectsWith(store.namespaceByName('default', r.name), 'NotFound');
    assert.equal(await store.catalogVersion(), version, 'the catalog version did not move');
    // The names are free: the same call without the held one goes through.
    const rest = reqs.filter((_, i) => i !== 4);
    assert.equal((await store.createNamespaces!(rest)).length, rest.length);
  });

  test('a retry with the same requestId answers the first result and creates each namespace once', async () => {
    const store = await fresh();
    const reqs = batch(4);
    const first = await store.createNamespaces!(reqs, { requestId: uniq('bulk-req') });
    const requestId = uniq('bulk-req');
    const made = await store.createNamespaces!(batch(3), { requestId });
    const again = await store.createNamespaces!(batch(3).map((r, i) => ({ ...r, name: made[i]!.namespace.name })), { requestId });
    assert.deepEqual(again.map((m) => m.namespace.id), made.map((m) => m.namespace.id));
    assert.deepEqual(again.map((m) => m.collections.map((c) => c.id)), made.map((m) => m.collections.map((c) => c.id)));
    // Created once: the next namespace's id follows the retried batch's.
    const next = await store.createNamespace({ org: 'default', name: uniq('after') });
    assert.ok(next.id > Math.max(...made.map((m) => m.namespace.id)) && first.length === 4);
  });

  test('a name twice in one call, an empty call and one over MAX_BULK_NAMESPACES are InvalidArgument naming the field', async () => {
    const store = await fresh();
    const reqs = batch(2);
    await rejectsInvalid(store.createNamespaces!([reqs[0]!, reqs[1]!, { ...reqs[0]! }]), 'reqs[2].name');
    await rejectsInvalid(store.createNamespaces!([]), 'reqs');
    await rejectsInvalid(store.createNamespaces!(batch(MAX_BULK_NAMESPACES + 1, 0)), 'reqs');
    await rejectsInvalid(store.createNamespaces!([{ ...reqs[0]!, collections: [{ name: 'x', schema: SCHEMA, partitions: 0 }] }]), 'reqs[0].collections[0].partitions');
    for (const r of reqs) await rejectsWith(store.namespaceByName('default', r.name), 'NotFound');
  });
});

describe('bulk create fallback (core/bulk.ts)', () => {
  after(() => factory.cleanup());

  test('without createNamespaces, createNamespacesWith makes the same namespaces and collections by the single calls', async () => {
    const store = await fresh();
    const plain = Object.create(store) as MetaStore;
    Object.defineProperty(plain, 'createNamespaces', { value: undefined });
    assert.equal(hasBulkCreate(plain), false);
    const from = await store.catalogVersion();
    // A single-item backend creates namespaces only (a collection is a multi-item write).
    const reqs = batch(3, multiItem ? 2 : 0);
    await check(store, reqs, await createNamespacesWith(plain, reqs), from);
  });

  test('with a requestId, each single call gets its own, and a retry of the whole answers the first result, creating nothing twice', async () => {
    const store = await fresh();
    const plain = Object.create(store) as MetaStore;
    Object.defineProperty(plain, 'createNamespaces', { value: undefined });
    const reqs = batch(3, multiItem ? 2 : 0);
    const w = { requestId: uniq('bulk-fallback') };
    const made = await createNamespacesWith(plain, reqs, w);
    const again = await createNamespacesWith(plain, reqs, w);
    assert.deepEqual(again.map((m) => [m.namespace.id, ...m.collections.map((c) => c.id)]), made.map((m) => [m.namespace.id, ...m.collections.map((c) => c.id)]));
    // A requestId at the length limit still leaves room for the steps' own.
    const long = { requestId: 'r'.repeat(128) };
    const more = batch(2, 0);
    assert.equal((await createNamespacesWith(plain, more, long)).length, 2);
  });
});

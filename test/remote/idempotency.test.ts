// Idempotency keys (spec §8, §2.3): a write whose response is lost after the server applied it
// is retried with the same key and answered with the first result, applied once; a key reused
// with other arguments is refused with a distinct error, applying nothing.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { isMetaError, type MetaStore, type WalCommit } from '../../src/meta/index.js';
import { metric, served, type Served } from './helpers.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };

describe('remote: idempotency keys', () => {
  const opened: Served[] = [];
  after(async () => {
    for (const s of opened) await s.close();
  });
  // The cases without a test double share one server (each its own keys and names).
  let plain: Served | undefined;
  const shared = async () => {
    if (!plain) opened.push((plain = await served()));
    return plain;
  };

  test('a commitWal whose response is lost (socket closed after the server applied it) returns the original offsets on retry, applied once', async () => {
    let applied = 0;
    let cut: (() => Promise<void>) | null = null;
    // The backend the server calls: after the first commitWal has applied, the connection is
    // cut before the server's answer can leave, then the proxy takes connections again.
    const s = await served({
      wrap: (m) =>
        Object.assign(Object.create(m) as MetaStore, {
          commitWal: async (...a: Parameters<MetaStore['commitWal']>) => {
            const r = await m.commitWal(...a);
            applied++;
            if (cut) {
              const f = cut;
              cut = null;
              await f();
            }
            return r;
          },
        }),
    });
    opened.push(s);
    const proxy = await s.proxy();
    const client = await s.clientVia(proxy);
    const ns = await client.createNamespace({ org: 'acme', name: 'prod' });
    const coll = await client.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
    const commit = (object: string): WalCommit => ({
      object,
      objectStamp: Date.now(),
      chunks: [0, 1].map((p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 3, byteStart: p * 100, byteEnd: p * 100 + 100 })),
    });
    await client.commitWal(commit('wal/first'));
    applied = 0;
    cut = async () => {
      await proxy.down();
      await proxy.up();
    };
    const requestId = 'req-lost-response';
    const r = await client.commitWal(commit('wal/lost'), { requestId });
    assert.equal(cut, null, 'the connection was cut after the apply');
    assert.equal(applied, 1, 'the backend applied the commit once; the retry was answered from the server record');
    assert.deepEqual(
      r.assigned.map((x) => [x.partition, x.start, x.end]),
      [
        [0, 3, 6],
        [1, 3, 6],
      ],
      'the retry returned the offsets the first attempt was given',
    );
    for (const p of [0, 1]) {
      const idx = await s.inner.partitionIndex(ns.id, coll.streamId, p);
      assert.equal(idx.entries.filter((e) => e.path === 'wal/lost').length, 1, `partition ${p}: indexed once`);
      assert.equal(idx.next, 6, `partition ${p}: no second apply moved the head`);
    }
    assert.ok((await metric(client.channel.metrics.registry.metrics(), 'loam_remote_client_retries_total', { method: 'CommitWal' })) >= 1, 'the client retried');
    assert.equal(await metric(s.server.metrics.registry.metrics(), 'loam_remote_server_replayed_writes_total', { method: 'CommitWal' }), 1, 'the server replayed it');
  });

  test('a retry with the same key after the response is lost returns the first createNamespace, not AlreadyExists', async () => {
    const s = await shared();
    const client = await s.client();
    const first = await client.createNamespace({ org: 'acme-a', name: 'one' }, { requestId: 'k-1' });
    const again = await client.createNamespace({ org: 'acme-a', name: 'one' }, { requestId: 'k-1' });
    assert.deepEqual(again, first);
    assert.equal((await s.inner.listNamespaces('acme-a')).items.length, 1);
  });

  test('the same key with other arguments is refused (InvalidArgument on requestId, reason RequestIdReused) and applies nothing', async () => {
    const s = await shared();
    const client = await s.client();
    await client.createNamespace({ org: 'acme-b', name: 'one' }, { requestId: 'k-2' });
    const v = await s.inner.catalogVersion();
    await assert.rejects(client.createNamespace({ org: 'acme-b', name: 'two' }, { requestId: 'k-2' }), (e: unknown) => {
      assert.ok(isMetaError(e, 'InvalidArgument'), String(e));
      assert.equal(e.details.field, 'requestId');
      assert.equal(e.details.reason, 'RequestIdReused');
      assert.match(e.message, /different call/);
      return true;
    });
    await assert.rejects(s.inner.namespaceByName('acme-b', 'two'), (e) => isMetaError(e, 'NotFound'));
    assert.equal(await s.inner.catalogVersion(), v, 'nothing applied');
    // A new stamp is not a new call: a retry carries a later stamp and is still the same call.
    const r = await client.createNamespace({ org: 'acme-b', name: 'one' }, { requestId: 'k-2', stamp: Date.now() + 5 });
    assert.equal(r.name, 'one');
  });

  test('concurrent calls with one key apply once and all get the first result', async () => {
    const s = await shared();
    const client = await s.client();
    const rs = await Promise.all(Array.from({ length: 8 }, () => client.createNamespace({ org: 'acme-c', name: 'race' }, { requestId: 'k-3' })));
    for (const r of rs) assert.deepEqual(r, rs[0]);
    assert.equal((await s.inner.listNamespaces('acme-c')).items.length, 1);
  });
});

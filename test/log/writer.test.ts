import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors, decodeToken, type MetaStore } from '../../src/meta/index.js';
import { metaClient } from '../../src/meta/client.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { MemoryStore } from '../../src/store/index.js';
import { FaultyStore } from '../../src/check/faulty-store.js';
import { LogWriter } from '../../src/log/writer.js';
import { LogReader } from '../../src/log/reader.js';
import { encodeRecord, OP_UPSERT, readObject } from '../../src/log/format.js';
import { isDataError } from '../../src/log/errors.js';
import type { FaultHook } from '../../src/meta/faults.js';

async function setup(faults?: FaultHook) {
  const raw = openEmbedded({ path: ':memory:', ...(faults ? { faults } : {}) });
  const meta = metaClient(raw);
  const ns = await meta.createNamespace({ org: 'o', name: 'n' });
  const a = await meta.createCollection({ ns: ns.id, name: 'a', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 2 });
  const ns2 = await meta.createNamespace({ org: 'o', name: 'm' });
  const b = await meta.createCollection({ ns: ns2.id, name: 'b', schema: { primaryKey: 'id', fields: { id: 'string' } }, partitions: 1 });
  return { raw, meta, a, b };
}

const rec = (k: string) => encodeRecord({ op: OP_UPSERT, key: k, body: JSON.stringify({ id: k }) });

async function walObjects(store: MemoryStore): Promise<string[]> {
  return (await store.list('wal/', { limit: 1000 })).items.map((o) => o.path);
}

test('writes of many namespaces within one flush interval share ONE WAL object; each writer gets a token', async () => {
  const { meta, a, b } = await setup();
  const store = new MemoryStore();
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 30 });
  const [r1, r2, r3] = await Promise.all([
    w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: [rec('x'), rec('y')] }]),
    w.append([{ ns: a.ns, stream: a.streamId, partition: 1, records: [rec('z')] }]),
    w.append([{ ns: b.ns, stream: b.streamId, partition: 0, records: [rec('q')] }]),
  ]);
  assert.equal(r1.object, r2.object);
  assert.equal(r1.object, r3.object);
  const objs = await walObjects(store);
  assert.equal(objs.length, 1);
  const parsed = readObject((await store.get(objs[0]!)).bytes, objs[0]!);
  assert.equal(parsed.chunks.length, 3);
  assert.deepEqual(r1.token.entries, [{ ns: a.ns, stream: a.streamId, partition: 0, offset: 2 }]);
  assert.deepEqual(r3.token.entries, [{ ns: b.ns, stream: b.streamId, partition: 0, offset: 1 }]);
  const reader = new LogReader(meta, store);
  const got = await reader.read(a.ns, a.streamId, 0, 0, 2);
  assert.deepEqual(got.map((r) => [r.key, r.offset]), [['x', 0], ['y', 1]]);
  await w.close();
});

test('the flush size seals an object early', async () => {
  const { meta, a } = await setup();
  const store = new MemoryStore();
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 5_000, flushBytes: 1_024 });
  const big = Array.from({ length: 40 }, (_, i) => rec(`k${i}`.padEnd(40, '.')));
  const t0 = Date.now();
  await w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: big }]);
  assert.ok(Date.now() - t0 < 2_000, 'did not wait for the interval');
  await w.close();
});

test('a lost PUT acknowledgement retries the SAME object; a lost commit acknowledgement commits once', async () => {
  let commits = 0;
  const hook: FaultHook = (point, op) => {
    if (op === 'commitWal' && point === 'AfterCommit' && commits++ === 0) throw errors.unknown('injected: acknowledgement lost after COMMIT');
  };
  const { meta, raw, a } = await setup(hook);
  const inner = new MemoryStore();
  const store = new FaultyStore(inner, { rules: [{ method: 'put', nth: 1, fault: 'lostAck' }, { method: 'put', nth: 2, fault: 'slowDown' }] });
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 1 });
  const r = await w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: [rec('a'), rec('b')] }]);
  assert.deepEqual(decodeToken(encodeTokenRoundTrip(r.token)).entries[0]!.offset, 2);
  assert.equal((await walObjects(inner)).length, 1, 'one WAL object');
  const idx = await raw.partitionIndex(a.ns, a.streamId, 0);
  assert.equal(idx.next, 2, 'committed exactly once');
  assert.equal(idx.entries.length, 1);
  await w.close();
});

test('a write to a stream that does not exist is refused (NotFound), never acknowledged', async () => {
  const { meta, a } = await setup();
  const w = new LogWriter({ meta: meta as MetaStore, store: new MemoryStore(), nodeId: 't', flushIntervalMs: 1 });
  await assert.rejects(w.append([{ ns: a.ns, stream: 999, partition: 0, records: [rec('a')] }]), (e) => isDataError(e, 'NotFound'));
  await w.close();
});

test('a full buffer refuses with a retryable Backpressure instead of growing', async () => {
  const { meta, a } = await setup();
  const store = new FaultyStore(new MemoryStore(), { rules: [{ method: 'put', fault: 'delay', delayMs: 300 }] });
  const w = new LogWriter({ meta, store, nodeId: 't', flushIntervalMs: 1, flushBytes: 1_024, maxInflightFlushes: 1 });
  const recs = Array.from({ length: 30 }, (_, i) => rec(`key-${i}`.padEnd(60, '.')));
  const pending: Promise<unknown>[] = [];
  let refused = 0;
  for (let i = 0; i < 20; i++) {
    pending.push(
      w.append([{ ns: a.ns, stream: a.streamId, partition: 0, records: recs }]).catch((e) => {
        if (isDataError(e, 'Backpressure')) refused++;
        else throw e;
      }),
    );
  }
  await Promise.all(pending);
  assert.ok(refused > 0, 'some appends were refused');
  await w.close();
});

import { encodeToken } from '../../src/meta/token.js';
function encodeTokenRoundTrip(t: Parameters<typeof encodeToken>[0]): string {
  return encodeToken(t);
}

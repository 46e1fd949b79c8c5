// Idempotency keys (spec §8, §2.3): a write whose response is lost after the server applied it
// is retried with the same key and answered with the first result, applied once; a key reused
// with other arguments is refused with a distinct error, applying nothing.
//
// Batched commitWal (docs/remote.md "Batched commitWal"): concurrent commitWal calls of one
// client travel in fewer RPCs than calls (counted at the server's /metrics), each call keeps
// its own outcome (one refused call fails alone), its own deadline and its own idempotency
// key, so a batch retried after a cut connection applies each call once and answers each with
// its own first outcome.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { isMetaError, type MetaStore, type WalCommit } from '../../src/meta/index.js';
import { MAX_WAL_BATCH_CALLS } from '../../src/meta/backends/remote/wal-batch.js';
import { metaErrorFromDetail } from '../../src/meta/backends/remote/wire-errors.js';
import { WalStream } from '../../src/meta/backends/remote/wal-stream.js';
import * as grpc from '@grpc/grpc-js';
import { openRemote } from '../../src/meta/backends/remote/client.js';
import { CHANNEL_OPTIONS, remoteProto } from '../../src/meta/backends/remote/proto.js';
import { DEFAULT_CLUSTER, StreamSlots, type ServerCore } from '../../src/remote/core.js';
import { IdempotencyRecord } from '../../src/remote/idempotency.js';
import { metaHandlers } from '../../src/remote/meta-service.js';
import { RemoteServerMetrics } from '../../src/remote/metrics.js';
import { metric, served, type Served } from './helpers.js';

const SCHEMA = { primaryKey: 'id', fields: { id: 'string' as const } };
/** Concurrent callers of the batch cases: more than one batch's worth is not needed to see calls share RPCs. */
const CALLS = 8;
const PARTITIONS = 2;
/** The client deadline of the held-call case, and how late past it its failure may come on a loaded machine. */
const HELD_DEADLINE_MS = 400;
const HELD_SLACK_MS = 1_500;

// One server for the file (each case its own names and keys): its backend counts applied
// commits and, when a case sets `cut`, cuts the connection after the `cutAfter`-th apply,
// before the server's answer can leave.
let s: Served;
let applied = 0;
let cutAfter = 0;
let cut: (() => Promise<void>) | null = null;
/** Set by a case: the backend's commitWal waits for it before applying. */
let hold: Promise<void> | null = null;
before(async () => {
  s = await served({
    server: { metricsListener: { port: 0 } },
    wrap: (m) =>
      Object.assign(Object.create(m) as MetaStore, {
        commitWal: async (...a: Parameters<MetaStore['commitWal']>) => {
          if (hold) await hold;
          const r = await m.commitWal(...a);
          if (++applied === cutAfter && cut) {
            const go = cut;
            cut = null;
            await go();
          }
          return r;
        },
      }),
  });
});
after(() => s?.close());

/** The server's count of replayed writes (a delta tells a case's own). */
const replays = async () => metric(s.server.metrics.registry.metrics(), 'loam_remote_server_replayed_writes_total', { method: 'CommitWal' });

describe('remote: idempotency keys', () => {
  test('a commitWal whose response is lost (socket closed after the server applied it) returns the original offsets on retry, applied once', async () => {
    const proxy = await s.proxy();
    // Without the commitWal stream: the call alone is its own unary CommitWal (the batch case below cuts the stream).
    const client = await s.clientVia(proxy, { walStream: false });
    const ns = await client.createNamespace({ org: 'acme', name: 'prod' });
    const coll = await client.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: 2 });
    const commit = (object: string): WalCommit => ({
      object,
      objectStamp: Date.now(),
      chunks: [0, 1].map((p) => ({ ns: ns.id, stream: coll.streamId, partition: p, records: 3, byteStart: p * 100, byteEnd: p * 100 + 100 })),
    });
    await client.commitWal(commit('wal/first'));
    const replayed0 = await replays();
    applied = 0;
    cutAfter = 1;
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
    assert.equal((await replays()) - replayed0, 1, 'the server replayed it');
  });

  test('a retry with the same key after the response is lost returns the first createNamespace, not AlreadyExists', async () => {
    const client = await s.client();
    const first = await client.createNamespace({ org: 'acme-a', name: 'one' }, { requestId: 'k-1' });
    const again = await client.createNamespace({ org: 'acme-a', name: 'one' }, { requestId: 'k-1' });
    assert.deepEqual(again, first);
    assert.equal((await s.inner.listNamespaces('acme-a')).items.length, 1);
  });

  test('the same key with other arguments is refused (InvalidArgument on requestId, reason RequestIdReused) and applies nothing', async () => {
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
    const client = await s.client();
    const rs = await Promise.all(Array.from({ length: 8 }, () => client.createNamespace({ org: 'acme-c', name: 'race' }, { requestId: 'k-3' })));
    for (const r of rs) assert.deepEqual(r, rs[0]);
    assert.equal((await s.inner.listNamespaces('acme-c')).items.length, 1);
  });
});

async function fixture(client: MetaStore, name: string) {
  const ns = await client.createNamespace({ org: 'acme', name });
  const coll = await client.createCollection({ ns: ns.id, name: 'docs', schema: SCHEMA, partitions: PARTITIONS });
  const commit = (object: string, stream = coll.streamId): WalCommit => ({
    object,
    objectStamp: Date.now(),
    chunks: Array.from({ length: PARTITIONS }, (_, p) => ({ ns: ns.id, stream, partition: p, records: 2, byteStart: p * 10, byteEnd: p * 10 + 10 })),
  });
  return { ns: ns.id, stream: coll.streamId, commit };
}

const scrape = async (url: string) => (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();

describe('remote: batched commitWal', () => {
  test('concurrent calls share RPCs (the server /metrics counts fewer RPCs than calls) and each gets its own outcome: one refused call fails alone', async () => {
    const client = await s.client();
    const f = await fixture(client, 'share');
    const m0 = await scrape(s.server.metricsUrl!);
    // Unary calls, batch RPCs and batches on the commitWal stream: what the server was sent.
    const rpcs = async (text: string) =>
      (await metric(text, 'loam_remote_server_calls_total', { method: 'CommitWal' })) +
      (await metric(text, 'loam_remote_server_calls_total', { method: 'CommitWalBatch' })) +
      (await metric(text, 'loam_remote_server_stream_messages_total', { method: 'CommitWalStream' }));
    // One call names a stream that does not exist: the server's backend refuses it, not the client's checks.
    const bad = CALLS - 3;
    const g0 = s.inner.groupCommits();
    const settled = await Promise.allSettled(Array.from({ length: CALLS }, (_, i) => client.commitWal(f.commit(`wal/c${i}`, i === bad ? f.stream + 1_000 : f.stream))));
    const m1 = await scrape(s.server.metricsUrl!);
    // The served embedded backend committed the batch's calls together (group commit): one COMMIT for all that applied.
    const g1 = s.inner.groupCommits();
    assert.deepEqual({ groups: g1.groups - g0.groups, calls: g1.calls - g0.calls }, { groups: 1, calls: CALLS - 1 }, 'the batch was one group transaction');

    const delta = async (name: string, labels: Record<string, string>) => (await metric(m1, name, labels)) - (await metric(m0, name, labels));
    const used = (await rpcs(m1)) - (await rpcs(m0));
    assert.ok(used >= 1 && used < CALLS, `${CALLS} calls in fewer RPCs or stream messages (got ${used})`);
    assert.equal(await delta('loam_remote_server_stream_messages_total', { method: 'CommitWalStream' }), used, 'the batches went on the commitWal stream');
    assert.equal(await delta('loam_remote_server_batched_calls_total', { method: 'CommitWal' }), CALLS, 'every call arrived in a batch');
    const refused = settled[bad]!;
    assert.equal(refused.status, 'rejected');
    assert.ok(isMetaError((refused as PromiseRejectedResult).reason, 'NotFound'), String((refused as PromiseRejectedResult).reason));
    assert.equal(await delta('loam_remote_server_errors_total', { method: 'CommitWal', code: 'NotFound' }), 1, 'its refusal is counted as its own');
    // The others applied, each with its own result: its own object, ranges no other call got.
    const seen = new Set<string>();
    settled.forEach((r, i) => {
      if (i === bad) return;
      assert.equal(r.status, 'fulfilled', `call ${i}: ${String((r as PromiseRejectedResult).reason)}`);
      const v = (r as PromiseFulfilledResult<Awaited<ReturnType<MetaStore['commitWal']>>>).value;
      assert.equal(v.object, `wal/c${i}`);
      for (const a of v.assigned) {
        const k = `${a.partition}:${a.start}`;
        assert.ok(!seen.has(k), `call ${i}: offsets ${k} given once`);
        seen.add(k);
      }
    });
    for (let p = 0; p < PARTITIONS; p++) {
      const idx = await s.inner.partitionIndex(f.ns, f.stream, p);
      assert.equal(idx.next, (CALLS - 1) * 2, `partition ${p}: the ${CALLS - 1} valid calls applied once each, the refused one not at all`);
    }
  });

  test('on the wire, each call of a batch keeps its own key and deadline: a call without a key, or out of time, fails alone; a batch over MAX_WAL_BATCH_CALLS is refused whole', async () => {
    const client = await s.client();
    const f = await fixture(client, 'wire');
    const call = (object: string, requestId: string) => ({ commit: { object, objectStamp: Date.now(), chunks: f.commit(object).chunks }, w: { requestId } });
    const r = await client.channel.callMeta('CommitWalBatch', true, {
      calls: [
        { call: call('wal/ok', 'k-ok'), timeoutMs: 10_000 },
        { call: call('wal/nokey', ''), timeoutMs: 10_000 },
        { call: call('wal/late', 'k-late'), timeoutMs: 0 },
      ],
    });
    assert.equal(r.outcomes.length, 3);
    assert.equal(r.outcomes[0]!.outcome, 'result');
    assert.equal(r.outcomes[0]!.result!.object, 'wal/ok');
    const noKey = metaErrorFromDetail(r.outcomes[1]!.error!);
    assert.equal(noKey.code, 'InvalidArgument');
    assert.equal(noKey.details.field, 'requestId');
    const late = metaErrorFromDetail(r.outcomes[2]!.error!);
    assert.equal(late.code, 'Retryable');
    assert.equal(late.details.beforeSend, true, 'out of time before the backend call: nothing applied');
    const idx = await s.inner.partitionIndex(f.ns, f.stream, 0);
    assert.deepEqual(
      idx.entries.map((e) => e.path),
      ['wal/ok'],
      'only the call with a key and time left applied',
    );

    const over = Array.from({ length: MAX_WAL_BATCH_CALLS + 1 }, (_, i) => ({ call: call(`wal/o${i}`, `k-o${i}`), timeoutMs: 10_000 }));
    await assert.rejects(client.channel.callMeta('CommitWalBatch', true, { calls: over }), (e: unknown) => {
      assert.ok(isMetaError(e, 'LimitExceeded'), String(e));
      assert.equal(e.details.limit, 'MAX_WAL_BATCH_CALLS');
      return true;
    });
    assert.equal((await s.inner.partitionIndex(f.ns, f.stream, 0)).entries.length, 1, 'nothing of the refused batch applied');
    // On the commitWal stream the same batch is refused whole in its answer, and the stream carries the next batch.
    const ws = new WalStream(client.channel);
    try {
      const refused = await ws.send(() => over, Date.now() + 10_000);
      assert.equal(refused.outcomes.length, 0);
      assert.equal(metaErrorFromDetail(refused.error!).details.limit, 'MAX_WAL_BATCH_CALLS');
      const next = await ws.send(() => [{ call: call('wal/next', 'k-next'), timeoutMs: 10_000 }], Date.now() + 10_000);
      assert.equal(next.outcomes[0]!.result!.object, 'wal/next');
    } finally {
      ws.close();
    }
    assert.deepEqual((await s.inner.partitionIndex(f.ns, f.stream, 0)).entries.map((e) => e.path), ['wal/ok', 'wal/next'], 'nothing of the refused batch applied');
  });

  test('a call of a batch still in flight at its own deadline fails then (Unknown: it may have applied), and the next call after it goes through', async () => {
    const client = await s.client({ callTimeoutMs: HELD_DEADLINE_MS });
    const f = await fixture(client, 'held');
    let release = () => {};
    hold = new Promise((r) => (release = r));
    const t0 = Date.now();
    try {
      await assert.rejects(client.commitWal(f.commit('wal/held')), (e: unknown) => isMetaError(e, 'Unknown'));
      const took = Date.now() - t0;
      assert.ok(took >= HELD_DEADLINE_MS - 5 && took < HELD_DEADLINE_MS + HELD_SLACK_MS, `failed after ${took} ms, its deadline ${HELD_DEADLINE_MS} ms`);
    } finally {
      hold = null;
      release();
    }
    const r = await client.commitWal(f.commit('wal/after-held'));
    assert.equal(r.object, 'wal/after-held');
  });

  test('a batch whose stream is cut after the server applied it is sent again on a new stream: each call applied once, answered with its own first outcome', async () => {
    const proxy = await s.proxy();
    const client = await s.clientVia(proxy);
    const f = await fixture(client, 'retry');
    const replayed0 = await replays();
    const sent = async () => metric(s.server.metrics.registry.metrics(), 'loam_remote_server_stream_messages_total', { method: 'CommitWalStream' });
    const sent0 = await sent();
    applied = 0;
    cutAfter = CALLS;
    cut = async () => {
      await proxy.down();
      await proxy.up();
    };
    const rs = await Promise.all(Array.from({ length: CALLS }, (_, i) => client.commitWal(f.commit(`wal/r${i}`), { requestId: `k-r${i}` })));
    assert.equal(cut, null, 'the connection was cut after the apply');
    assert.equal(applied, CALLS, 'each call applied once: the retry was answered from the server record');
    assert.equal((await replays()) - replayed0, CALLS, 'every call of the retried batch replayed its own outcome');
    assert.ok((await metric(client.channel.metrics.registry.metrics(), 'loam_remote_client_retries_total', { method: 'CommitWalStream' })) >= 1, 'the client sent the batch again');
    assert.ok((await sent()) - sent0 >= 2, 'the server got the batch on the cut stream and again on the next');
    for (let p = 0; p < PARTITIONS; p++) {
      const idx = await s.inner.partitionIndex(f.ns, f.stream, p);
      assert.equal(idx.next, CALLS * 2, `partition ${p}: no second apply moved the head`);
      // Each call's answer is the range its object was indexed at.
      for (const [i, r] of rs.entries()) {
        const a = r.assigned.find((x) => x.partition === p)!;
        assert.equal(r.object, `wal/r${i}`);
        assert.deepEqual(
          idx.entries.filter((e) => e.path === `wal/r${i}`).map((e) => [e.start, e.end]),
          [[a.start, a.end]],
          `call ${i} partition ${p}: answered with the range it was indexed at`,
        );
      }
    }
  });

  test('against a server that predates the commitWal stream (UNIMPLEMENTED), the batches go as CommitWalBatch RPCs, each call applied once', async () => {
    // The same service without the stream's handler: grpc-js answers it UNIMPLEMENTED, running nothing.
    const core: ServerCore = { resolve: async () => ({ cluster: DEFAULT_CLUSTER, stores: { meta: s.inner } }), idempotency: new IdempotencyRecord(), metrics: new RemoteServerMetrics(), streams: new StreamSlots() };
    const { CommitWalStream: _, ...older } = metaHandlers(core);
    const srv = new grpc.Server(CHANNEL_OPTIONS);
    srv.addService(remoteProto().loam.remote.v1.MetaStore.service, older);
    const port = await new Promise<number>((resolve, reject) => srv.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))));
    const client = await openRemote({ target: `127.0.0.1:${port}` });
    try {
      const f = await fixture(client, 'older');
      for (const round of [0, 1]) {
        const rs = await Promise.all(Array.from({ length: CALLS }, (_, i) => client.commitWal(f.commit(`wal/old${round}-${i}`))));
        rs.forEach((r, i) => assert.equal(r.object, `wal/old${round}-${i}`));
      }
      const text = await core.metrics.registry.metrics();
      assert.ok((await metric(text, 'loam_remote_server_calls_total', { method: 'CommitWalBatch', status: 'OK' })) >= 2, 'the batches went as CommitWalBatch RPCs');
      for (let p = 0; p < PARTITIONS; p++) assert.equal((await s.inner.partitionIndex(f.ns, f.stream, p)).next, 2 * CALLS * 2, `partition ${p}: every call applied once`);
    } finally {
      await client.close();
      srv.forceShutdown();
    }
  });
});

// Bad input over the wire (spec §8): an oversized message (MAX_MESSAGE_BYTES), a deadline
// already past on arrival, an unknown method, a write without an idempotency key and a call
// naming no cluster get typed gRPC statuses whose messages say what to fix, and apply nothing.
import assert from 'node:assert/strict';
import { connect } from 'node:http2';
import { after, describe, test } from 'node:test';
import * as grpc from '@grpc/grpc-js';
import protobuf from 'protobufjs';
import { hasDirtySets, isMetaError, type MetaStore } from '../../src/meta/index.js';
import { CHANNEL_OPTIONS, ERROR_METADATA_KEY, MAX_MESSAGE_BYTES, PROTO_PATH, remoteProto } from '../../src/meta/backends/remote/proto.js';
import { metaErrorFromStatus } from '../../src/meta/backends/remote/wire-errors.js';
import { RemoteServer, clusterFromMetadata } from '../../src/remote/server.js';
import { MAX_WAL_BATCH_CALLS } from '../../src/meta/backends/remote/wal-batch.js';
import { served, type Served } from './helpers.js';

const root = protobuf.loadSync(PROTO_PATH);

/** A raw MetaStore stub with no client-side checks and a send limit above the server's. */
function rawStub(port: number) {
  const P = remoteProto().loam.remote.v1;
  return new P.MetaStore(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), { 'grpc.max_send_message_length': 4 * MAX_MESSAGE_BYTES });
}

function unaryRaw<T>(f: (cb: (e: grpc.ServiceError | null, r?: T) => void) => void): Promise<{ error: grpc.ServiceError | null; value?: T }> {
  return new Promise((resolve) => f((error, value) => resolve({ error, ...(value !== undefined ? { value } : {}) })));
}

describe('remote: bad input', () => {
  let s: Served;
  after(() => s?.close());

  test('a message over MAX_MESSAGE_BYTES is refused with RESOURCE_EXHAUSTED by the server, and by the client before it is sent; nothing is applied', async () => {
    s = await served();
    const client = await s.client();
    const ns = await client.createNamespace({ org: 'acme', name: 'big' });
    const v = await s.inner.catalogVersion();
    const huge = 'x'.repeat(MAX_MESSAGE_BYTES + 1024);
    // The client's own limit: a typed LimitExceeded naming the limit.
    await assert.rejects(client.casPointer(ns.id, 'roots/a', null, huge), (e: unknown) => {
      assert.ok(isMetaError(e), String(e));
      // The validating wrapper refuses a path this long first, naming the field.
      assert.ok(e.code === 'InvalidArgument' || e.code === 'LimitExceeded', e.message);
      return true;
    });
    const stub = rawStub(s.port);
    const r = await unaryRaw((cb) => stub.CreateNamespace({ org: 'acme', name: huge, w: { requestId: 'big-1' } }, { deadline: Date.now() + 10_000 }, cb));
    assert.equal(r.error?.code, grpc.status.RESOURCE_EXHAUSTED, r.error?.message);
    assert.match(r.error!.details, /larger than max|message/i);
    assert.equal(await s.inner.catalogVersion(), v, 'nothing applied');
    assert.equal(await s.inner.pointer(ns.id, 'roots/a'), null);
    stub.close();
  });

  test('a call whose deadline has already passed when it arrives is refused with DEADLINE_EXCEEDED and applies nothing', async () => {
    s ??= await served();
    const v = await s.inner.catalogVersion();
    // A raw HTTP/2 request with grpc-timeout 0n: its deadline is over on arrival.
    const t = root.lookupType('loam.remote.v1.CreateNamespaceRequest');
    const body = Buffer.from(t.encode(t.fromObject({ org: 'acme', name: 'late', w: { requestId: 'late-1' } })).finish());
    const frame = Buffer.concat([Buffer.from([0, 0, 0, 0, 0]), body]);
    frame.writeUInt32BE(body.length, 1);
    const session = connect(`http://127.0.0.1:${s.port}`);
    const trailers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const req = session.request({
        ':method': 'POST',
        ':path': '/loam.remote.v1.MetaStore/CreateNamespace',
        'content-type': 'application/grpc',
        te: 'trailers',
        'grpc-timeout': '0n',
      });
      let headers: Record<string, unknown> = {};
      req.on('response', (h) => (headers = { ...h }));
      req.on('trailers', (tr) => resolve({ ...headers, ...tr }));
      req.on('error', reject);
      req.on('end', () => resolve(headers));
      req.resume();
      req.end(frame);
    });
    session.close();
    assert.equal(Number(trailers['grpc-status']), grpc.status.DEADLINE_EXCEEDED, JSON.stringify(trailers));
    await new Promise((r) => setTimeout(r, 100));
    assert.equal(await s.inner.catalogVersion(), v, 'nothing applied');
    await assert.rejects(s.inner.namespaceByName('acme', 'late'), (e) => isMetaError(e, 'NotFound'));
  });

  test('a deadline that passes while the call waits for its turn refuses it before the backend sees it', async () => {
    s ??= await served();
    const stub = rawStub(s.port);
    // A deadline of 1 ms: grpc-js's client ends it itself, or the server refuses it; either way nothing is applied.
    const r = await unaryRaw((cb) => stub.CreateNamespace({ org: 'acme', name: 'late2', w: { requestId: 'late-2' } }, { deadline: Date.now() + 1 }, cb));
    assert.equal(r.error?.code, grpc.status.DEADLINE_EXCEEDED);
    await new Promise((res) => setTimeout(res, 100));
    await assert.rejects(s.inner.namespaceByName('acme', 'late2'), (e) => isMetaError(e, 'NotFound'));
    stub.close();
  });

  test('an unknown method is UNIMPLEMENTED, naming the method', async () => {
    s ??= await served();
    const c = new grpc.Client(`127.0.0.1:${s.port}`, grpc.credentials.createInsecure(), CHANNEL_OPTIONS);
    const r = await unaryRaw<Buffer>((cb) =>
      c.makeUnaryRequest('/loam.remote.v1.MetaStore/DropEverything', (x: Buffer) => x, (x: Buffer) => x, Buffer.alloc(0), { deadline: Date.now() + 5_000 }, cb),
    );
    assert.equal(r.error?.code, grpc.status.UNIMPLEMENTED);
    assert.match(r.error!.details, /DropEverything/);
    c.close();
  });

  test('a write without an idempotency key is InvalidArgument naming requestId, and applies nothing', async () => {
    s ??= await served();
    const stub = rawStub(s.port);
    const r = await unaryRaw((cb) => stub.CreateNamespace({ org: 'acme', name: 'nokey' }, { deadline: Date.now() + 5_000 }, cb));
    assert.equal(r.error?.code, grpc.status.INVALID_ARGUMENT);
    const e = metaErrorFromStatus(r.error!);
    assert.equal(e?.code, 'InvalidArgument');
    assert.equal(e?.details.field, 'requestId');
    assert.ok(r.error!.metadata.get(ERROR_METADATA_KEY).length === 1, 'the typed error rides in the trailers');
    await assert.rejects(s.inner.namespaceByName('acme', 'nokey'), (x) => isMetaError(x, 'NotFound'));
    stub.close();
  });

  test('an argument the contract refuses is the same InvalidArgument, naming the field, from the server', async () => {
    s ??= await served();
    const stub = rawStub(s.port);
    const r = await unaryRaw((cb) => stub.CreateNamespace({ org: 'acme', name: 'bad name!', w: { requestId: 'bad-1' } }, { deadline: Date.now() + 5_000 }, cb));
    assert.equal(r.error?.code, grpc.status.INVALID_ARGUMENT);
    assert.equal(metaErrorFromStatus(r.error!)?.details.field, 'name');
    stub.close();
  });

  test('a served backend without a dirty set: the client offers none, and a raw DueHeads is InvalidArgument naming the call', async () => {
    // The embedded store with its two dirty-set calls hidden: what Alternator serves.
    const t = await served({ wrap: (m) => Object.assign(Object.create(m) as MetaStore, { dueHeads: undefined, settleHead: undefined }) });
    try {
      assert.equal(hasDirtySets(await t.client()), false, 'no dueHeads/settleHead on the client');
      assert.equal(hasDirtySets(await s.client()), true, 'offered when the served backend keeps it');
      const stub = rawStub(t.port);
      const r = await unaryRaw((cb) => stub.DueHeads({ before: 0 }, { deadline: Date.now() + 5_000 }, cb));
      assert.equal(r.error?.code, grpc.status.INVALID_ARGUMENT);
      assert.equal(metaErrorFromStatus(r.error!)?.details.field, 'dueHeads');
      stub.close();
    } finally {
      await t.close();
    }
  });

  test('a call naming no cluster, on a server that needs one, is UNAUTHENTICATED and says which metadata to set (a batch too, before its size is checked)', async () => {
    const server = new RemoteServer({ authenticate: clusterFromMetadata, stores: () => ({ meta: s.inner }) });
    const port = await server.listen();
    const stub = rawStub(port);
    try {
      const r = await unaryRaw((cb) => stub.CatalogVersion({}, { deadline: Date.now() + 5_000 }, cb));
      assert.equal(r.error?.code, grpc.status.UNAUTHENTICATED);
      assert.match(r.error!.details, /loam-cluster/);
      // A batch is authenticated before anything of it is looked at: too many calls, still UNAUTHENTICATED.
      const call = { call: { commit: { object: 'wal/x', objectStamp: 1, chunks: [] }, w: { requestId: 'x' } }, timeoutMs: 5_000 };
      const b = await unaryRaw((cb) => stub.CommitWalBatch({ calls: Array.from({ length: MAX_WAL_BATCH_CALLS + 1 }, () => call) }, { deadline: Date.now() + 5_000 }, cb));
      assert.equal(b.error?.code, grpc.status.UNAUTHENTICATED, b.error?.details);
    } finally {
      stub.close();
      await server.close(200);
    }
  });
});

// The streams one cluster may hold open on a server (MAX_STREAMS_PER_CLUSTER, here 3): past it
// a new WatchChanges or CommitWalStream is refused RESOURCE_EXHAUSTED, naming the limit, while
// another cluster still opens its own; a stream that ends — cancelled, or its client gone —
// gives its slot back.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import * as grpc from '@grpc/grpc-js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { remoteProto } from '../../src/meta/backends/remote/proto.js';
import { clusterFromMetadata } from '../../src/remote/core.js';
import { RemoteServer } from '../../src/remote/server.js';
import type { MetaStore } from '../../src/meta/index.js';
import { tcpProxy, type TcpProxy } from '../harness/tcp-proxy.js';

const MAX = 3;
/** How long a freed slot may take to come back (the server sees the cancel, then the stream's end). */
const RELEASE_WAIT_MS = 5_000;

let meta: MetaStore;
let server: RemoteServer;
let target: string;
let port: number;
let proxy: TcpProxy;
const clients: grpc.Client[] = [];

before(async () => {
  meta = openEmbedded({ path: ':memory:' });
  server = new RemoteServer({ stores: () => ({ meta }), authenticate: clusterFromMetadata, maxStreamsPerCluster: MAX });
  port = await server.listen('127.0.0.1', 0);
  target = `127.0.0.1:${port}`;
  // The first client reaches the server through it: cutting it is a client gone (kill -9, a lost network).
  proxy = await tcpProxy({ host: '127.0.0.1', port });
});
after(async () => {
  for (const c of clients) c.close();
  await proxy.close();
  await server.close(500);
  await meta.close();
});

const v1 = () => remoteProto().loam.remote.v1.MetaStore.service as unknown as grpc.ServiceDefinition;
const md = (cluster: string) => {
  const m = new grpc.Metadata();
  m.set('loam-cluster', cluster);
  return m;
};
function client(via = target): grpc.Client {
  const c = new grpc.Client(via, grpc.credentials.createInsecure());
  clients.push(c);
  return c;
}

interface Opened {
  call: grpc.ClientReadableStream<unknown> | grpc.ClientDuplexStream<unknown, unknown>;
  /** Its first message (the watch's heartbeat, a commitWal batch's answer), or its refusal. */
  first: Promise<{ ok: true } | { ok: false; code: grpc.status; details: string }>;
}

function settleOn(call: Opened['call']): Opened['first'] {
  return new Promise((resolve) => {
    call.once('data', () => resolve({ ok: true }));
    call.on('error', (e: grpc.ServiceError) => resolve({ ok: false, code: e.code, details: e.details }));
  });
}

function watch(c: grpc.Client, cluster: string): Opened {
  const def = v1().WatchChanges!;
  const call = c.makeServerStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, { scope: { catalog: true }, since: 0 }, md(cluster), { deadline: Date.now() + 60_000 });
  return { call, first: settleOn(call) };
}

function walStream(c: grpc.Client, cluster: string): Opened {
  const def = v1().CommitWalStream!;
  const call = c.makeBidiStreamRequest(def.path, def.requestSerialize, def.responseDeserialize, md(cluster), { deadline: Date.now() + 60_000 });
  const first = settleOn(call);
  // A batch of no calls: refused as a batch (its answer carries the error), which is an answer all the same.
  call.write({ batchId: 1, calls: [] });
  return { call, first };
}

/** Opens a watch of the cluster until one is served (a slot came back), within RELEASE_WAIT_MS. */
async function opensAgain(c: grpc.Client, cluster: string): Promise<Opened> {
  const until = Date.now() + RELEASE_WAIT_MS;
  for (;;) {
    const w = watch(c, cluster);
    const r = await w.first;
    if (r.ok) return w;
    assert.equal(r.code, grpc.status.RESOURCE_EXHAUSTED, r.details);
    assert.ok(Date.now() < until, `no slot of cluster ${cluster} came back within ${RELEASE_WAIT_MS} ms`);
    await sleep(50);
  }
}

describe(`streams per cluster: at most ${MAX} open at once`, () => {
  test('past the limit a watch and a commitWal stream are refused, naming it; another cluster is served; an ended stream gives its slot back', async () => {
    const a = client(`127.0.0.1:${proxy.port}`);
    const open = [watch(a, 'alpha'), walStream(a, 'alpha'), watch(a, 'alpha')];
    for (const o of open) assert.deepEqual(await o.first, { ok: true });

    for (const refused of [watch(a, 'alpha'), walStream(a, 'alpha')]) {
      const r = await refused.first;
      assert.ok(!r.ok, 'a stream past the limit was served');
      assert.equal(r.code, grpc.status.RESOURCE_EXHAUSTED);
      assert.match(r.details, /cluster "alpha" has MAX_STREAMS_PER_CLUSTER \(3\) streams open/);
    }
    // Another cluster's streams are not counted against alpha's.
    const b = watch(client(), 'beta');
    assert.deepEqual(await b.first, { ok: true });

    // A cancelled stream gives its slot back…
    open[0]!.call.cancel();
    const again = await opensAgain(a, 'alpha');
    // …and so do the streams of a client that went away (its connection cut, no cancel sent).
    await proxy.down();
    const fresh = client();
    const reopened = [await opensAgain(fresh, 'alpha'), await opensAgain(fresh, 'alpha'), await opensAgain(fresh, 'alpha')];
    assert.equal(reopened.length, MAX);
    const over = await watch(fresh, 'alpha').first;
    assert.ok(!over.ok && over.code === grpc.status.RESOURCE_EXHAUSTED);
    for (const o of [again, ...reopened, b]) o.call.cancel();
  });
});

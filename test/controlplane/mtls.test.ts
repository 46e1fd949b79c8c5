// Per-cluster client certificates (spec §8): with client_ca set, the control plane takes only
// TLS connections whose client certificate its CA signed, and serves a call only when the
// certificate's subject CN and the agent key name the same cluster. A throwaway CA
// (test/harness/tls.ts) signs the server's and the clusters' certificates.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import * as grpc from '@grpc/grpc-js';
import { makeTestCa, type Issued, type TestCa } from '../harness/tls.js';
import { allRpcs, callRaw, metadataOf, testControlPlane, type TestControlPlane } from './helpers.js';
import { createCluster } from '../../src/controlplane/admin.js';
import { openRemote } from '../../src/meta/backends/remote/client.js';

let ca: TestCa;
let rogue: TestCa;
let t: TestControlPlane;
let alphaKey: string;
let alphaCert: Issued;
let betaCert: Issued;
let rogueAlphaCert: Issued;
const rpc = () => allRpcs().find((r) => r.name === 'MetaStore.CatalogVersion')!;

before(async () => {
  ca = makeTestCa('loam control plane CA');
  rogue = makeTestCa('someone else');
  const server = ca.issue('control-plane', 'server');
  alphaCert = ca.issue('alpha', 'client');
  betaCert = ca.issue('beta', 'client');
  rogueAlphaCert = rogue.issue('alpha', 'client');
  t = await testControlPlane({ tls_cert: server.certFile, tls_key: server.keyFile, client_ca: ca.certFile });
  alphaKey = (await createCluster(t.cp.registry, t.template, 'alpha', 'test')).key.token;
  await createCluster(t.cp.registry, t.template, 'beta', 'test');
});

after(async () => {
  await t?.cp.close();
  if (t) rmSync(t.dir, { recursive: true, force: true });
  ca?.cleanup();
  rogue?.cleanup();
});

function tlsClient(cert: Issued | null): grpc.Client {
  return new grpc.Client(t.cp.target, grpc.credentials.createSsl(ca.cert, cert?.key ?? null, cert?.cert ?? null));
}

describe('mTLS: per-cluster client certificates', () => {
  test("a data plane with its cluster's certificate and agent key is served, through the remote client (grpcs)", async () => {
    const m = await openRemote({ target: t.cp.target, cluster: 'alpha', agentKey: alphaKey, tls: { ca: ca.cert, cert: alphaCert.cert, key: alphaCert.key } });
    try {
      const ns = await m.createNamespace({ org: 'acme', name: 'orders' });
      assert.equal((await m.namespace(ns.id)).name, 'orders');
    } finally {
      await m.close();
    }
    const text = await (await fetch(t.cp.metricsUrl)).text();
    assert.match(text, /loam_cp_rpcs_total\{cluster="alpha",method="MetaStore\.CreateNamespace"\} 1/);
  });

  test("another cluster's certificate with alpha's key: UNAUTHENTICATED, saying the two disagree", async () => {
    const c = tlsClient(betaCert);
    try {
      const o = await callRaw(c, rpc(), {}, metadataOf(alphaKey, 'alpha'));
      assert.equal(o.code, grpc.status.UNAUTHENTICATED, o.details);
      assert.match(o.details, /client certificate is for cluster "beta" but the agent key is for cluster "alpha"/);
      // …and naming beta does not help: the key decides the cluster, the certificate must agree.
      assert.equal((await callRaw(c, rpc(), {}, metadataOf(alphaKey, 'beta'))).code, grpc.status.UNAUTHENTICATED);
    } finally {
      c.close();
    }
  });

  test('no client certificate, or one another CA signed: the TLS handshake fails (UNAVAILABLE), no call reaches a store', async () => {
    for (const cert of [null, rogueAlphaCert]) {
      const c = tlsClient(cert);
      try {
        const o = await callRaw(c, rpc(), {}, metadataOf(alphaKey, 'alpha'));
        assert.equal(o.code, grpc.status.UNAVAILABLE, `${cert ? 'rogue' : 'no'} certificate: ${grpc.status[o.code]} ${o.details}`);
      } finally {
        c.close();
      }
    }
    // A plaintext client cannot talk to it at all.
    const plain = new grpc.Client(t.cp.target, grpc.credentials.createInsecure());
    try {
      assert.equal((await callRaw(plain, rpc(), {}, metadataOf(alphaKey, 'alpha'))).code, grpc.status.UNAVAILABLE);
    } finally {
      plain.close();
    }
  });
});

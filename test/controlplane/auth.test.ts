// Agent-key authentication of the control plane (spec §8), on a real registry: which calls are
// refused, with which status and message, and that no message carries a secret or hash.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRegistry, type OpenedRegistry } from '../../src/controlplane/registry.js';
import { createAgentKey } from '../../src/controlplane/admin.js';
import { AGENT_KEY_CACHE_MS, AgentAuthenticator, CallRefused, GRPC_PERMISSION_DENIED, GRPC_UNAUTHENTICATED } from '../../src/controlplane/agent-auth.js';
import { parseAgentKey } from '../../src/control/clusters.js';

let dir: string;
let reg: OpenedRegistry;
let now = 1_000_000;
let auth: AgentAuthenticator;
let alphaKey: string;
let betaKey: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'loam-cp-auth-'));
  reg = await openRegistry(`sqlite:${dir}/registry.db`);
  await reg.registry.createCluster('alpha', 'test');
  await reg.registry.createCluster('beta', 'test');
  alphaKey = (await createAgentKey(reg.registry, 'alpha', 'test')).token;
  betaKey = (await createAgentKey(reg.registry, 'beta', 'test')).token;
  auth = new AgentAuthenticator(reg.registry, { requireCertificate: false, now: () => now });
});
after(async () => {
  await reg.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refusal(p: Parameters<AgentAuthenticator['authenticate']>[0]): Promise<CallRefused> {
  try {
    await auth.authenticate(p);
  } catch (e) {
    assert.ok(e instanceof CallRefused, String(e));
    return e;
  }
  assert.fail('the call was not refused');
}

const bearer = (k: string) => `Bearer ${k}`;
/** The same key id with another secret of the right form. */
const wrongSecret = (k: string) => k.replace(/_([0-9a-f])([0-9a-f]{63})$/, (_m, c: string, rest: string) => `_${c === '0' ? '1' : '0'}${rest}`);

describe('agent keys at the control plane', () => {
  test('a valid key is its cluster, with or without the loam-cluster header', async () => {
    assert.deepEqual(await auth.authenticate({ authorization: bearer(alphaKey), cluster: 'alpha' }), { cluster: 'alpha', keyId: parseAgentKey(alphaKey)!.keyId });
    assert.equal((await auth.authenticate({ authorization: bearer(betaKey), cluster: undefined })).cluster, 'beta');
  });

  test('missing, malformed, unknown and wrong keys: UNAUTHENTICATED, saying what to send; unknown id and wrong secret alike', async () => {
    const missing = await refusal({ authorization: undefined, cluster: 'alpha' });
    assert.equal(missing.code, GRPC_UNAUTHENTICATED);
    assert.match(missing.message, /missing agent key: send metadata authorization: Bearer loam_agent_/);
    const malformed = await refusal({ authorization: 'Bearer loam_0123456789abcdef_00', cluster: 'alpha' });
    assert.equal(malformed.reason, 'malformed');
    const unknownId = await refusal({ authorization: bearer(alphaKey.replace(/^loam_agent_[0-9a-f]{16}/, 'loam_agent_0000000000000000')), cluster: 'alpha' });
    const wrong = await refusal({ authorization: bearer(wrongSecret(alphaKey)), cluster: 'alpha' });
    for (const r of [unknownId, wrong]) {
      assert.equal(r.code, GRPC_UNAUTHENTICATED);
      assert.equal(r.reason, 'invalid');
      assert.equal(r.message, 'invalid agent key');
    }
    // An API key is not an agent key.
    assert.equal((await refusal({ authorization: bearer(`loam_${'a'.repeat(16)}_${'b'.repeat(64)}`), cluster: 'alpha' })).reason, 'malformed');
  });

  test('a call naming another registered cluster: PERMISSION_DENIED; a cluster nobody registered: UNAUTHENTICATED', async () => {
    const other = await refusal({ authorization: bearer(alphaKey), cluster: 'beta' });
    assert.equal(other.code, GRPC_PERMISSION_DENIED);
    assert.equal(other.message, 'this agent key is for cluster "alpha"; it cannot call for cluster "beta"');
    const unknown = await refusal({ authorization: bearer(alphaKey), cluster: 'gamma' });
    assert.equal(unknown.code, GRPC_UNAUTHENTICATED);
    assert.match(unknown.message, /unknown cluster "gamma": set the data plane's cluster_id/);
    assert.equal((await refusal({ authorization: bearer(alphaKey), cluster: '../x' })).reason, 'unknown_cluster');
  });

  test(`a revoked key is refused (by another process's revocation: within ${AGENT_KEY_CACHE_MS} ms); the other keys still work`, async () => {
    const k = await createAgentKey(reg.registry, 'alpha', 'test');
    await auth.authenticate({ authorization: bearer(k.token), cluster: 'alpha' });
    await reg.registry.revokeAgentKey('alpha', k.info.keyId);
    // Still cached…
    await auth.authenticate({ authorization: bearer(k.token), cluster: 'alpha' });
    now += AGENT_KEY_CACHE_MS;
    const r = await refusal({ authorization: bearer(k.token), cluster: 'alpha' });
    assert.equal(r.code, GRPC_UNAUTHENTICATED);
    assert.equal(r.message, `agent key ${k.info.keyId} was revoked: give the data plane a new one (loam clusters keys create alpha)`);
    await auth.authenticate({ authorization: bearer(alphaKey), cluster: 'alpha' });
  });

  test('with mTLS: the certificate must name the key\'s cluster', async () => {
    const mtls = new AgentAuthenticator(reg.registry, { requireCertificate: true });
    assert.equal((await mtls.authenticate({ authorization: bearer(alphaKey), cluster: 'alpha', certificateCluster: 'alpha' })).cluster, 'alpha');
    const none = await mtls.authenticate({ authorization: bearer(alphaKey), cluster: 'alpha' }).catch((e: CallRefused) => e);
    assert.ok(none instanceof CallRefused && none.code === GRPC_UNAUTHENTICATED && /requires a client certificate/.test(none.message));
    const crossed = await mtls.authenticate({ authorization: bearer(alphaKey), cluster: 'alpha', certificateCluster: 'beta' }).catch((e: CallRefused) => e);
    assert.ok(crossed instanceof CallRefused && crossed.code === GRPC_UNAUTHENTICATED);
    assert.equal(crossed.message, 'the client certificate is for cluster "beta" but the agent key is for cluster "alpha": use the certificate and key of one cluster');
  });

  test('no refusal carries a secret or a hash', async () => {
    const rec = await reg.registry.agentKey(parseAgentKey(alphaKey)!.keyId);
    const secret = parseAgentKey(alphaKey)!.secret;
    for (const p of [
      { authorization: bearer(wrongSecret(alphaKey)), cluster: 'alpha' },
      { authorization: bearer(alphaKey), cluster: 'beta' },
      { authorization: bearer(alphaKey), cluster: 'gamma' },
      { authorization: `Bearer ${secret}`, cluster: 'alpha' },
    ]) {
      const r = await refusal(p);
      assert.ok(!r.message.includes(secret) && !r.message.includes(rec.secretHash), r.message);
    }
  });
});

// Request-rate buckets at the owner (spec §6): a gateway that does not own a namespace leases
// tokens from the owner's bucket — the one the owner's own requests draw from — in batched
// asks; when the owner does not answer it falls back to quota ÷ gateways, and asks the owner
// again after OWNER_DOWN_MS. Two Quotas on one embedded ControlStore, a clock of the test's.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { controlStoreFor } from '../../src/control/index.js';
import { QuotaExceeded, Quotas, type RateLimiter } from '../../src/quota/quota.js';
import { LEASE_TTL_MS, OWNER_DOWN_MS, OwnerLeases, ownerHooks, type GrantAsk, type GrantAnswer, type OwnerTarget } from '../../src/quota/owner.js';

test('a non-owner leases from the owner\'s bucket, batched; with the owner down it falls back to quota ÷ gateways', async () => {
  const meta = openEmbedded({ path: ':memory:' });
  const cs = await controlStoreFor(meta);
  let now = 1_000_000;
  const clock = () => now;
  const RATE = 20;
  for (let ns = 1; ns <= 40; ns++) await cs.setQuota('acme', ns, 'request_rate', RATE);
  const owner = new Quotas(cs, 2, clock);
  const gateway = new Quotas(cs, 2, clock);
  let ownerUp = true;
  const batches: GrantAsk[][] = [];
  const ask = async (_to: OwnerTarget, items: GrantAsk[]): Promise<GrantAnswer[]> => {
    batches.push(items);
    if (!ownerUp) throw new Error('connect ECONNREFUSED');
    return Promise.all(items.map((it) => owner.grant(it.org, it.ns, it.key, it.want, it.rate)));
  };
  const leases = new OwnerLeases(ask, clock);
  gateway.setOwners(ownerHooks(leases, { ownerOf: () => ({ id: 'owner', url: 'http://owner' }), ownsCollection: () => false }));
  owner.setOwners(ownerHooks(new OwnerLeases(ask, clock), { ownerOf: () => null, ownsCollection: () => true }));
  const limiter = (q: Quotas, ns: number) => q.rateLimiter('acme', ns, 'request_rate', `acme/${ns}/rest`, 'requests');
  /** Takes one token; true when admitted. */
  const take = async (q: Quotas, l: RateLimiter): Promise<boolean> => {
    try {
      await q.take(l, 1);
      return true;
    } catch (e) {
      if (e instanceof QuotaExceeded) return false;
      throw e;
    }
  };
  try {
    // The whole rate (a burst of RATE), not RATE ÷ 2: the bucket is the owner's.
    const g1 = await limiter(gateway, 1);
    let admitted = 0;
    for (let i = 0; i < 3 * RATE; i++) if (await take(gateway, g1)) admitted++;
    assert.equal(admitted, RATE, 'the owner granted its whole bucket');
    // The owner's own requests draw from the same bucket: empty now.
    const o1 = await limiter(owner, 1);
    assert.equal(await take(owner, o1), false, "the owner's bucket is shared");
    // A refusal holds asks back until the bucket refills (no ask per refused request).
    const asked = batches.length;
    for (let i = 0; i < 10; i++) assert.equal(await take(gateway, g1), false);
    assert.equal(batches.length, asked, 'no ask while refused');
    now += 1_000; // a second: RATE tokens again
    assert.equal(await take(owner, o1), true);

    // Concurrent first requests of 30 namespaces: one batch.
    const before = batches.length;
    const ls = await Promise.all(Array.from({ length: 30 }, (_, i) => limiter(gateway, 10 + i)));
    const got = await Promise.all(ls.map((l) => take(gateway, l)));
    assert.ok(got.every(Boolean));
    assert.equal(batches.length - before, 1, 'one batch for 30 namespaces');
    assert.equal(batches.at(-1)!.length, 30);

    // A lowered quota drops the leased tokens past its grant at once (a lease of 1000/s holds 50).
    await cs.setQuota('acme', 5, 'request_rate', 1000);
    gateway.invalidate('acme');
    owner.invalidate('acme');
    const high = await limiter(gateway, 5);
    assert.equal(await take(gateway, high), true);
    await cs.setQuota('acme', 5, 'request_rate', 2);
    gateway.invalidate('acme'); // the owner has not heard yet: it reads the store again when asked at 2
    const low = await limiter(gateway, 5);
    admitted = 0;
    for (let i = 0; i < 10; i++) if (await take(gateway, low)) admitted++;
    assert.ok(admitted <= 3, `at most the new bucket and one grant (${admitted})`);
    // A raised quota is granted at once: neither the refusal at the old rate nor the owner's
    // cached view (not invalidated here: its change-feed event is still on the way) holds it back.
    await cs.setQuota('acme', 5, 'request_rate', 1000);
    gateway.invalidate('acme');
    now += 50; // 50 tokens at 1000/s; a tenth of one at 2/s; within QUOTA_RECHECK_MS of the owner's last read
    const raised = await limiter(gateway, 5);
    admitted = 0;
    for (let i = 0; i < 10; i++) if (await take(gateway, raised)) admitted++;
    assert.equal(admitted, 10, 'the raised rate, at once');

    // The owner stops answering: the fallback bucket, RATE ÷ 2 gateways.
    ownerUp = false;
    now += LEASE_TTL_MS + 1_000; // leases expired, buckets full
    const g2 = await limiter(gateway, 2);
    admitted = 0;
    for (let i = 0; i < 3 * RATE; i++) if (await take(gateway, g2)) admitted++;
    assert.equal(admitted, RATE / 2, 'quota ÷ gateways while the owner is down');
    const failedAsks = batches.length;
    // While it is down the owner is not asked; after OWNER_DOWN_MS it is again.
    now += 100;
    await take(gateway, g2);
    assert.equal(batches.length, failedAsks, 'no ask while the owner is marked down');
    ownerUp = true;
    now += OWNER_DOWN_MS;
    const g3 = await limiter(gateway, 3);
    assert.equal(await take(gateway, g3), true);
    assert.equal(batches.length, failedAsks + 1, 'asked again after OWNER_DOWN_MS');
  } finally {
    await cs.close();
    await meta.close();
  }
});

// Bounded-skew stamps (spec §3.2.1): a proposer stamps each command with
// max(local clock, last observed stamp). A client whose clock runs minutes behind must still
// never stamp a command behind a stamp it has seen in a result.
import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { metaClient } from '../../src/meta/client.js';
import { StampClock, linkPointerKey } from '../../src/meta/index.js';
import { factory, fresh, multiItem, needs, SCHEMA } from './helpers.js';

/** Three minutes behind: within maxClockSkew, far enough to show. */
const LAG_MS = 3 * 60_000;

describe('bounded-skew stamps', () => {
  after(() => factory.cleanup());

  test('a client minutes behind stamps its next write at or after a stamp it has read', async () => {
    const store = await fresh();
    const ahead = metaClient(store);
    const behind = metaClient(store, { clock: new StampClock(() => Date.now() - LAG_MS) });
    const ns = await ahead.createNamespace({ org: 'org-stamps', name: 'ns' });
    // Before reading anything, the lagging client's writes carry its own (late) clock.
    const early = await behind.createNamespace({ org: 'org-stamps', name: 'early' });
    assert.ok(early.created < ns.created, 'the lagging clock is really behind');
    const seen = await behind.namespace(ns.id);
    assert.equal(seen.created, ns.created);
    const later = await behind.createNamespace({ org: 'org-stamps', name: 'later' });
    assert.ok(later.created >= ns.created, `stamped ${ns.created - later.created} ms behind a stamp the client had read`);
  });

  test('pointers and the change feed advance the caller\'s clock too', { skip: needs(multiItem, 'a collection') }, async () => {
    const store = await fresh();
    const ahead = metaClient(store);
    const ns = await ahead.createNamespace({ org: 'org-stamps', name: 'ns' });
    const c = await ahead.createCollection({ ns: ns.id, name: 'c', schema: SCHEMA, partitions: 1 });
    const p = await ahead.casPointer(ns.id, linkPointerKey(c.linkId), null, 'm/1');

    const viaPointer = metaClient(store, { clock: new StampClock(() => Date.now() - LAG_MS) });
    await viaPointer.pointer(ns.id, linkPointerKey(c.linkId));
    const q = await viaPointer.casPointer(ns.id, linkPointerKey(c.linkId), p.version, 'm/2');
    assert.ok(q.stamp >= p.stamp, 'a cas after reading the pointer is stamped at or after it');

    const viaFeed = metaClient(store, { clock: new StampClock(() => Date.now() - LAG_MS) });
    const feed = await viaFeed.changesSince(0);
    const newest = Math.max(...feed.changes.map((ch) => ch.stamp));
    const s = await viaFeed.createStream({ ns: ns.id, name: 's', partitions: 1 });
    assert.ok(s.created >= newest, 'a write after reading the feed is stamped at or after its changes');
  });
});

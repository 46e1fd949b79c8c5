// The in-flight write budget (src/gateway/write-budget.ts, issue 14 item 9): a node holds at
// most write_inflight_bytes of write bodies at once; a write beyond it waits, and is served,
// or refused with 503 and Retry-After having written nothing.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { WriteBudget, WriteBudgetRefusal } from '../../src/gateway/write-budget.js';
import { http, testNode, type TestNode } from '../node/helpers.js';

/** The smallest budget a node takes, and bodies of which one fits and two do not. */
const BUDGET = 64 * 1024;
const DOC_PAD = 'x'.repeat(40 * 1024);
/** Each write waits for its WAL object's flush: a floor on how long it holds the budget. */
const FLUSH_MS = 50;
const QUEUE_TIMEOUT_MS = 150;
/** Far more than fit in QUEUE_TIMEOUT_MS one after another (WRITES × FLUSH_MS): some must be refused. */
const WRITES = 8;

describe('write budget: a node holds at most write_inflight_bytes of write bodies', () => {
  let n: TestNode;
  before(async () => {
    n = await testNode({ config: { write_inflight_bytes: BUDGET, write_queue_timeout_ms: QUEUE_TIMEOUT_MS, flush_interval_ms: FLUSH_MS, roles: ['log', 'query'] } });
    assert.equal((await http(n.url, 'POST', '/v1/namespaces', { name: 'b' })).status, 201);
    assert.equal((await http(n.url, 'POST', '/v1/namespaces/b/collections', { name: 'c', primary_key: 'id' })).status, 201);
  });
  after(async () => n.cleanup());

  test('concurrent writes: never more than the budget in the write path; each is served or refused with 503, none lost, a refused one wrote nothing', async () => {
    // What the write path holds at once: the bodies of the writes between their parse and their answer.
    const writer = n.writer!;
    const write = writer.write.bind(writer);
    let holding = 0;
    let most = 0;
    writer.write = async (c, batch, text) => {
      const size = text?.length ?? 0;
      holding += size;
      most = Math.max(most, holding);
      try {
        return await write(c, batch, text);
      } finally {
        holding -= size;
      }
    };
    try {
      const results = await Promise.all(
        Array.from({ length: WRITES }, (_, i) => http(n.url, 'POST', '/v1/namespaces/b/collections/c/documents', { upserts: [{ id: `d${i}`, pad: DOC_PAD }] })),
      );
      assert.ok(most <= BUDGET, `the write path held ${most} bytes of bodies at once; the budget is ${BUDGET}`);
      const served = results.flatMap((r, i) => (r.status === 200 ? [i] : []));
      const refused = results.flatMap((r, i) => (r.status === 503 ? [i] : []));
      assert.equal(served.length + refused.length, WRITES, `every write is served or refused: ${results.map((r) => r.status).join(' ')}`);
      assert.ok(served.length >= 1 && refused.length >= 1, `${served.length} served, ${refused.length} refused`);
      for (const i of refused) {
        const r = results[i]!;
        assert.equal(r.body.error.code, 'overloaded');
        assert.match(r.body.error.message, /write_inflight_bytes/);
        assert.equal(r.headers.get('retry-after'), '1');
      }
      for (const i of served) assert.equal((await http(n.url, 'GET', `/v1/namespaces/b/collections/c/documents/d${i}?token=${encodeURIComponent(results[i]!.body.token)}`)).body.pad, DOC_PAD, `d${i} was acknowledged`);
      for (const i of refused) assert.equal((await http(n.url, 'GET', `/v1/namespaces/b/collections/c/documents/d${i}`)).status, 404, `d${i} was refused`);
    } finally {
      writer.write = write;
    }
  });
});

describe('WriteBudget', () => {
  test('first come first served; a body over the whole budget runs alone; a full queue refuses at once; a wait has a deadline', async () => {
    const b = new WriteBudget(100, 50, 2);
    const r1 = b.acquire(60) as () => void;
    assert.equal(typeof r1, 'function', 'fits: admitted at once');
    const order: string[] = [];
    const big = (b.acquire(1_000) as Promise<() => void>).then((r) => (order.push('big'), r));
    // Would fit beside r1, but must not overtake the waiting one.
    const small = (b.acquire(10) as Promise<() => void>).then((r) => (order.push('small'), r));
    assert.throws(() => b.acquire(1), (e: unknown) => e instanceof WriteBudgetRefusal && e.reason === 'queue_full');
    r1();
    const rb = await big;
    assert.deepEqual(b.stats(), { inflightBytes: 100, inflight: 1, queued: 1, peakBytes: 100 });
    rb();
    (await small)();
    assert.deepEqual(order, ['big', 'small']);
    const hold = b.acquire(100) as () => void;
    await assert.rejects(Promise.resolve(b.acquire(1)), (e: unknown) => e instanceof WriteBudgetRefusal && e.reason === 'timeout');
    const gone = new AbortController();
    const waiting = Promise.resolve(b.acquire(1, gone.signal));
    gone.abort(new Error('client closed'));
    await assert.rejects(waiting, /client closed/);
    assert.equal(b.stats().queued, 0, 'an aborted wait leaves the queue');
    hold();
    assert.equal(b.stats().inflightBytes, 0);
  });

  test("owners (orgs): each holds at most half; one at its share does not hold back another's write queued behind it; each fills at most half the queue", async () => {
    const b = new WriteBudget(100, 200, 4);
    // A body over the share is charged the share: it runs beside another org's writes.
    const a1 = b.acquire(1_000, undefined, 'a') as () => void;
    assert.equal(typeof a1, 'function');
    assert.equal(b.stats().inflightBytes, 50, "charged a's share, not the whole budget");
    const order: string[] = [];
    const a2 = (b.acquire(10, undefined, 'a') as Promise<() => void>).then((r) => (order.push('a2'), r));
    // Queued behind a2, which waits only for a's own share: b1 goes first.
    const b1 = (b.acquire(40, undefined, 'b') as Promise<() => void>).then((r) => (order.push('b1'), r));
    const rb1 = await b1;
    assert.deepEqual(order, ['b1']);
    assert.deepEqual(b.stats(), { inflightBytes: 90, inflight: 2, queued: 1, peakBytes: 90 });
    // a fills its half of the queue (2 of 4): a third waiting write of a's is refused, b's is not.
    const a3 = Promise.resolve(b.acquire(10, undefined, 'a'));
    assert.throws(() => b.acquire(10, undefined, 'a'), (e: unknown) => e instanceof WriteBudgetRefusal && e.reason === 'queue_full' && /org "a"/.test(e.message));
    const b2 = Promise.resolve(b.acquire(20, undefined, 'b'));
    a1();
    const [ra2, ra3] = await Promise.all([a2, a3]);
    assert.deepEqual(order, ['b1', 'a2']);
    rb1();
    const rb2 = await b2;
    for (const r of [ra2, ra3, rb2]) r();
    assert.deepEqual({ ...b.stats(), peakBytes: 0 }, { inflightBytes: 0, inflight: 0, queued: 0, peakBytes: 0 });
    // Without an owner (a node without keys), a write may hold the whole budget as before.
    const whole = b.acquire(1_000) as () => void;
    assert.equal(b.stats().inflightBytes, 100);
    whole();
  });
});

// What the client retries, against real nodes: 429 (refused at admission) and 503 honouring
// Retry-After within bounds; a write answered 503 (it may have been committed) is never sent
// twice; a connection never made is tried again. Plus the policy's arithmetic.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { LoamClient, LoamError } from '../../src/client/index.js';
import { BACKOFF_MAX_MS, MAX_RETRY_AFTER_MS, nextDelay, parseRetryAfter, RETRY_AFTER_JITTER, retryable } from '../../src/client/retry.js';
import { errors } from '../../src/meta/index.js';
import { testNode } from '../node/helpers.js';
import { countingFetch, freePort } from './helpers.js';

async function failure(p: Promise<unknown>): Promise<LoamError> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof LoamError, String(e));
    return e;
  }
  assert.fail('expected the call to fail');
}

async function setup(url: string): Promise<void> {
  const c = new LoamClient({ url });
  await c.namespaces.create('ns');
  await c.collections.create('ns', { name: 'c', primary_key: 'id' });
}

describe('client retries against a real node', () => {
  test('a write refused with 429 (backlog) is sent again after Retry-After, and then succeeds', async () => {
    const n = await testNode({ config: { backlog_max_records: 5 } });
    try {
      await setup(n.url);
      const { fetch, calls } = countingFetch();
      const c = new LoamClient({ url: n.url, fetch }).collection('ns', 'c');
      await c.upsert([1, 2, 3, 4].map((id) => ({ id })));
      const t0 = Date.now();
      // 4 unapplied + 4 > 5: refused until the applier catches up.
      const w = await c.upsert([5, 6, 7, 8].map((id) => ({ id })));
      const waited = Date.now() - t0;
      assert.ok(w.token);
      assert.ok(calls.length >= 3, `the second write was retried (${calls.length - 1} attempts)`);
      assert.ok(waited >= 1000, `it waited for Retry-After (1 s) before retrying; waited ${waited} ms`);
      assert.equal((await c.get(8)).id, 8);
    } finally {
      await n.cleanup();
    }
  });

  test('429 that does not clear: gives up after maxAttempts with the server\'s error and Retry-After; a 413 is not retried', async () => {
    // No worker role: nothing applies the backlog, so it never clears.
    const n = await testNode({ config: { backlog_max_records: 5, roles: ['log', 'query'] } });
    try {
      await setup(n.url);
      const { fetch, calls } = countingFetch();
      const c = new LoamClient({ url: n.url, fetch, retry: { maxAttempts: 2 } }).collection('ns', 'c');
      // A batch the quota can never hold: 413 at once, one call.
      const alone = await failure(c.upsert([1, 2, 3, 4, 5, 6].map((id) => ({ id }))));
      assert.equal(alone.status, 413);
      assert.equal(calls.length, 1, 'a 413 is not retried');
      calls.length = 0;
      await c.upsert([1, 2, 3].map((id) => ({ id })));
      calls.length = 0;
      const e = await failure(c.upsert([4, 5, 6].map((id) => ({ id }))));
      assert.equal(e.status, 429);
      assert.equal(e.code, 'quota_exceeded', 'the unapplied_records quota (its default: the backlog_max_records setting)');
      assert.equal(e.details.attempts, 2);
      assert.equal(e.details.retryAfterS, 1);
      assert.equal(calls.length, 2);
      // A total budget shorter than Retry-After: no retry at all.
      const short = countingFetch();
      const s = new LoamClient({ url: n.url, fetch: short.fetch, retry: { maxRetryTimeMs: 500 } }).collection('ns', 'c');
      assert.equal((await failure(s.upsert([4, 5, 6].map((id) => ({ id }))))).status, 429);
      assert.equal(short.calls.length, 1);
    } finally {
      await n.cleanup();
    }
  });

  test('a write answered 503 after it reached the server is not sent again, and was not acknowledged', async () => {
    let fail = false;
    const n = await testNode({
      meta: {
        faults: (point, op) => {
          if (fail && op === 'commitWal' && point === 'BeforeBegin') throw errors.staleCommit('x', 1, 0);
        },
      },
    });
    try {
      await setup(n.url);
      const { fetch, calls } = countingFetch();
      const c = new LoamClient({ url: n.url, fetch }).collection('ns', 'c');
      fail = true;
      const e = await failure(c.upsert([{ id: 'a' }]));
      fail = false;
      assert.equal(e.status, 503);
      assert.ok(e.details.retryAfterS !== undefined);
      assert.equal(calls.length, 1, 'the write was sent once');
      assert.equal((await failure(c.get('a'))).status, 404);
    } finally {
      await n.cleanup();
    }
  });

  test('a read answered 503 is retried up to maxAttempts; a write answered 503 is not', async () => {
    const q = await testNode({ config: { roles: ['log'] } });
    try {
      await setup(q.url);
      const { fetch, calls } = countingFetch();
      const e = await failure(new LoamClient({ url: q.url, fetch, retry: { maxAttempts: 3 } }).get('ns', 'c', 'x'));
      assert.equal(e.status, 503);
      assert.equal(e.code, 'role_unavailable');
      assert.equal(e.details.attempts, 3);
      assert.equal(calls.length, 3);
    } finally {
      await q.cleanup();
    }
    const w = await testNode({ config: { roles: ['query'] } });
    try {
      await setup(w.url);
      const { fetch, calls } = countingFetch();
      const e = await failure(new LoamClient({ url: w.url, fetch, retry: { maxAttempts: 3 } }).write('ns', 'c', { upserts: [{ id: 'x' }] }));
      assert.equal(e.code, 'role_unavailable');
      assert.equal(calls.length, 1);
    } finally {
      await w.cleanup();
    }
  });

  test('a connection that is refused is tried again (nothing was sent), then reported as unreachable', async () => {
    const port = await freePort();
    const { fetch, calls } = countingFetch();
    const e = await failure(new LoamClient({ url: `http://127.0.0.1:${port}`, fetch, retry: { maxAttempts: 3 } }).write('ns', 'c', { upserts: [{ id: 1 }] }));
    assert.equal(e.status, 0);
    assert.equal(e.code, 'unreachable');
    assert.match(e.message, /ECONNREFUSED/);
    assert.equal(calls.length, 3);
  });
});

describe('retry policy', () => {
  const policy = { maxAttempts: 5, maxRetryTimeMs: 30_000 };
  test('what is retried', () => {
    assert.equal(retryable({ kind: 'answer', status: 429 }, 'unsafe'), true);
    assert.equal(retryable({ kind: 'answer', status: 503 }, 'unsafe'), false);
    assert.equal(retryable({ kind: 'answer', status: 503 }, 'safe'), true);
    assert.equal(retryable({ kind: 'answer', status: 500 }, 'safe'), false);
    assert.equal(retryable({ kind: 'answer', status: 400 }, 'safe'), false);
    assert.equal(retryable({ kind: 'lost' }, 'unsafe'), false);
    assert.equal(retryable({ kind: 'lost' }, 'safe'), true);
    assert.equal(retryable({ kind: 'not_connected' }, 'unsafe'), true);
  });
  test('Retry-After in seconds or as a date, with jitter on top; bounded attempts, time and wait', () => {
    assert.equal(parseRetryAfter('2'), 2000);
    assert.equal(parseRetryAfter(new Date(10_000).toUTCString(), 7_000), 3000);
    assert.equal(parseRetryAfter(null), undefined);
    assert.equal(parseRetryAfter('soon'), undefined);
    const o = { kind: 'answer', status: 429, retryAfterMs: 1000 } as const;
    assert.equal(nextDelay(o, 'unsafe', 1, 0, policy, 0, () => 0), 1000);
    assert.equal(nextDelay(o, 'unsafe', 1, 0, policy, 0, () => 1), 1000 * (1 + RETRY_AFTER_JITTER));
    assert.equal(nextDelay(o, 'unsafe', 5, 0, policy, 0, () => 0), null, 'attempts spent');
    assert.equal(nextDelay(o, 'unsafe', 1, 0, policy, 29_500, () => 0), null, 'past the total time');
    assert.equal(nextDelay({ ...o, retryAfterMs: MAX_RETRY_AFTER_MS + 1 }, 'unsafe', 1, 0, { ...policy, maxRetryTimeMs: 10 * MAX_RETRY_AFTER_MS }, 0), null, 'too long a Retry-After');
    const b = { kind: 'answer', status: 503 } as const;
    assert.equal(nextDelay(b, 'safe', 20, 0, { ...policy, maxAttempts: 100 }, 0, () => 0.999)! <= BACKOFF_MAX_MS, true, 'backoff is capped');
  });
});

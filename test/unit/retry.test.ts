import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { errors, isMetaError, type MetaStore } from '../../src/meta/index.js';
import { WRITE_CONTEXT_ARG, metaClient } from '../../src/meta/client.js';
import { withRetry, type RetryPolicy } from '../../src/meta/retry.js';
import { openEmbedded } from '../../src/meta/backends/embedded/index.js';
import { CHECKED_METHODS } from '../../src/meta/core/checks.js';

const fast: RetryPolicy = { maxAttempts: 3, budgetMs: 1_000, baseDelayMs: 1, maxDelayMs: 2, random: () => 0.5 };

function script(...steps: Array<Error | string>) {
  const ids: string[] = [];
  let n = 0;
  const fn = async (requestId: string) => {
    ids.push(requestId);
    const s = steps[n++];
    if (s instanceof Error) throw s;
    return s ?? 'done';
  };
  return { fn, ids, calls: () => n };
}

describe('retry policy (spec §4.2)', () => {
  test('a refusal before sending never sets earlierUnknown: it surfaces as Retryable', async () => {
    const refused = () => errors.retryable('connect', 'refused', true);
    const s = script(refused(), refused(), refused());
    await assert.rejects(withRetry(s.fn, fast), (e) => isMetaError(e, 'Retryable'));
    assert.equal(s.calls(), 3, 'bounded by maxAttempts');
  });

  test('any other retryable failure sets earlierUnknown: surfaced as Unknown', async () => {
    const s = script(errors.retryable('conflict', 'conflict'), errors.retryable('connect', 'refused', true), errors.retryable('connect', 'refused', true));
    await assert.rejects(withRetry(s.fn, fast), (e) => isMetaError(e, 'Unknown') && e.details.earlierUnknown === true);
  });

  test('an unknown outcome is retried with the same requestId and can resolve to success', async () => {
    const s = script(errors.unknown('lost'), 'ok');
    assert.equal(await withRetry(s.fn, fast), 'ok');
    assert.equal(s.ids.length, 2);
    assert.equal(s.ids[0], s.ids[1], 'one requestId per logical call');
  });

  test('non-retryable typed errors surface at once', async () => {
    const s = script(errors.versionMismatch('p', 1, 2), 'never');
    await assert.rejects(withRetry(s.fn, fast), (e) => isMetaError(e, 'VersionMismatch'));
    assert.equal(s.calls(), 1);
  });

  test('Claimed is not retried: the caller must write a new object', async () => {
    const s = script(errors.claimed('wal/1'), 'never');
    await assert.rejects(withRetry(s.fn, fast), (e) => isMetaError(e, 'Claimed'));
    assert.equal(s.calls(), 1);
  });

  test('an attempt that hangs past the budget surfaces Unknown (earlierUnknown) when the budget ends', async () => {
    const policy: RetryPolicy = { maxAttempts: 5, budgetMs: 100, baseDelayMs: 1, maxDelayMs: 1, random: () => 0.5 };
    let calls = 0;
    // The attempt never settles on its own: only the budget can end the call.
    let release: (v: string) => void = () => undefined;
    const hang = () => {
      calls++;
      return new Promise<string>((resolve) => (release = resolve));
    };
    const t0 = Date.now();
    try {
      await assert.rejects(withRetry(hang, policy), (e) => isMetaError(e, 'Unknown') && e.details.earlierUnknown === true);
    } finally {
      release('too late');
    }
    assert.ok(Date.now() - t0 >= 90, 'not before the 100 ms budget');
    assert.equal(calls, 1, 'no new attempt once the budget is spent');
  });

  test('the time budget bounds the attempts', async () => {
    const slow: RetryPolicy = { maxAttempts: 100, budgetMs: 50, baseDelayMs: 20, maxDelayMs: 20, random: () => 1 };
    const s = script(...Array.from({ length: 100 }, () => errors.retryable('throttle', 'slow down', true)));
    const t0 = Date.now();
    await assert.rejects(withRetry(s.fn, slow), (e) => isMetaError(e, 'Retryable'));
    assert.ok(Date.now() - t0 < 2_000 && s.calls() < 10, `stopped after ${s.calls()} attempts`);
  });
});

describe('MetaClient', () => {
  test('wraps every method of the contract', () => {
    const store = openEmbedded({ path: ':memory:' });
    const client = metaClient(store);
    // The contract's methods: every call the validating wrapper checks, plus capabilities and close.
    const methods = [...CHECKED_METHODS, 'capabilities', 'close'];
    for (const m of methods) assert.equal(typeof (store as unknown as Record<string, unknown>)[m], 'function', `store lacks ${m}`);
    for (const m of methods) assert.equal(typeof (client as unknown as Record<string, unknown>)[m], 'function', `client lacks ${m}`);
    void store.close();
  });

  test('a retried create after a lost acknowledgement returns the first id, applied once', async () => {
    let lose = true;
    const store = openEmbedded({
      path: ':memory:',
      faults: (point, op) => {
        if (point === 'AfterCommit' && op === 'createNamespace' && lose) {
          lose = false;
          throw errors.unknown('ack lost');
        }
      },
    });
    const client: MetaStore = metaClient(store, { policy: fast });
    const ns = await client.createNamespace({ org: 'o', name: 'n' });
    const again = await store.namespaceByName('o', 'n');
    assert.equal(again.id, ns.id);
    assert.equal((await store.listNamespaces('o')).items.length, 1);
    assert.ok(Object.keys(WRITE_CONTEXT_ARG).includes('createNamespace'));
    await store.close();
  });
});

// Malformed histories are rejected with a clear HistoryError, never a silent pass.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHistory, HistoryError, readHistory } from '../../src/check/index.js';
import { HistoryBuilder } from './helpers.js';

function rejects(text: string, model: string, pattern: RegExp): void {
  assert.throws(
    () => checkHistory(text, model),
    (e: unknown) => e instanceof HistoryError && pattern.test(e.message),
    `expected a HistoryError matching ${pattern}`,
  );
}

const line = (o: object) => JSON.stringify(o);

test('a completion without an invocation is rejected', () => {
  rejects(line({ process: 1, type: 'ok', op: 'read', result: 1, time: 1 }), 'register', /line 1: "ok" of read on process 1 without an invocation/);
});

test('two invocations pending on one process are rejected', () => {
  const h = new HistoryBuilder().invoke(1, 'write', { value: 1 }).invoke(1, 'read', {});
  rejects(h.text(), 'register', /line 2: process 1 invokes read while its write from line 1 is still pending/);
});

test('a completion naming another op is rejected', () => {
  const h = new HistoryBuilder().invoke(1, 'write', { value: 1 }).ok(1, 'read', 1);
  rejects(h.text(), 'register', /line 2: .*pending invocation \(line 1\) is write/);
});

test('a completion earlier than its invocation is rejected', () => {
  const h = new HistoryBuilder().invoke(1, 'write', { value: 1 }, 10).ok(1, 'write', undefined, 5);
  rejects(h.text(), 'register', /earlier than its invocation/);
});

test('a fail carrying an Unknown error is rejected (it must be recorded as info)', () => {
  const h = new HistoryBuilder().callFail(1, 'write', { value: 1 }, 'Unknown', { earlierUnknown: true });
  rejects(h.text(), 'register', /line 2: a "fail" is definitely not applied; record an Unknown outcome as "info"/);
});

test('an op the model does not know is rejected', () => {
  const h = new HistoryBuilder().call(1, 'casPointer', { key: 'k', expectedVersion: null, value: 'v' }, { version: 1 });
  rejects(h.text(), 'register', /line 1: unknown op "casPointer" for model register; it knows: read, write, cas/);
  // …even when it would be left out (a failed op).
  const f = new HistoryBuilder().callFail(1, 'frobnicate', {}, 'Retryable');
  rejects(f.text(), 'pointer', /unknown op "frobnicate"/);
});

test('an unknown model is rejected, even for an empty history', () => {
  rejects('', 'btree', /unknown model "btree"; known models: register, pointer, lease, log, names, collectionHead, meta/);
});

test('bad JSON and bad fields are rejected with their line', () => {
  rejects('{"process": 1, "type": "invoke"', 'register', /line 1: not valid JSON/);
  rejects(`\n${line({ process: 1, type: 'start', op: 'read', time: 0 })}`, 'register', /line 2: "type" must be one of/);
  rejects(line({ process: 1, type: 'invoke', op: 'read', time: 'now' }), 'register', /"time" must be a finite number/);
  rejects(line({ process: null, type: 'invoke', op: 'read', time: 0 }), 'register', /"process" must be a number/);
  rejects(line({ process: 1, type: 'invoke', op: 'read', args: [1], time: 0 }), 'register', /"args" must be an object/);
  rejects('[1, 2]', 'register', /an event must be a JSON object/);
});

test('bad op arguments are rejected with the line of the invocation', () => {
  const h = new HistoryBuilder().call(1, 'casPointer', { key: 'k', value: 'v' }, { version: 1 });
  rejects(h.text(), 'pointer', /line 1: casPointer: args.expectedVersion is required/);
  const r = new HistoryBuilder().call(1, 'casPointer', { key: 'k', expectedVersion: null, value: 'v' }, { v: 1 });
  rejects(r.text(), 'pointer', /result.version must be an integer/);
  const c = new HistoryBuilder().call(1, 'commitWal', { object: 'o', chunks: [{ stream: 1, partition: 0, records: 2 }] }, { assigned: [] });
  rejects(c.text(), 'log', /result.assigned must be an array with one range per chunk/);
});

test('a drop whose id no op names is rejected (its name is needed to partition)', () => {
  const h = new HistoryBuilder().call(1, 'dropCollection', { ns: 1, id: 9 });
  rejects(h.text(), 'names', /dropCollection of id 9: no op in the history names it; add args.name/);
});

test('pairing: pending invocations become info; completion args are ignored; comments are skipped', () => {
  const text = [
    '# a comment',
    line({ process: 1, type: 'invoke', op: 'write', args: { value: 1 }, time: 0 }),
    '',
    line({ process: 2, type: 'invoke', op: 'read', time: 1 }),
    line({ process: 2, type: 'ok', op: 'read', args: { ignored: true }, result: 1, time: 2 }),
    line({ process: 'nemesis', type: 'invoke', op: 'write', args: { value: 3 }, time: 3 }),
    line({ process: 'nemesis', type: 'info', op: 'write', time: 4 }),
  ].join('\n');
  const ops = readHistory(text);
  assert.equal(ops.length, 3);
  assert.equal(ops[0]!.status, 'info');
  assert.equal(ops[0]!.ret, Infinity);
  assert.equal(ops[0]!.line, 2);
  assert.deepEqual(ops[1]!.args, {});
  assert.equal(ops[1]!.retLine, 5);
  assert.equal(ops[2]!.status, 'info');
  assert.equal(checkHistory(text, 'register').verdict, 'linearizable');
});

test('a process may invoke again after an info completion', () => {
  const h = new HistoryBuilder()
    .invoke(1, 'write', { value: 1 })
    .info(1, 'write')
    .call(1, 'read', {}, 1);
  assert.equal(h.check('register').verdict, 'linearizable');
});

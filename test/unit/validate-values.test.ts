// The contract's argument checks (src/meta/validate.ts) refuse any JavaScript value with
// InvalidArgument naming the field, including values JSON cannot show (a bigint, a cycle, a
// symbol): a caller in process gets the typed refusal, never a TypeError of the message's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isMetaError } from '../../src/meta/errors.js';
import * as v from '../../src/meta/validate.js';

test('a value JSON cannot show is refused as InvalidArgument naming the field', () => {
  const cycle: Record<string, unknown> = {};
  cycle.self = cycle;
  for (const [value, shown] of [
    [10n, /got 10n/],
    [cycle, /got an unserialisable Object/],
    [Symbol('s'), /got Symbol\(s\)/],
    [() => 1, /got \(\) ?=> ?1/],
  ] as const) {
    for (const check of [(x: unknown) => v.id('ns', x), (x: unknown) => v.nonNegInt('ns', x), (x: unknown) => v.name('ns', x), (x: unknown) => v.key('ns', x)]) {
      assert.throws(
        () => check(value),
        (e: unknown) => isMetaError(e, 'InvalidArgument') && (e as Error).message.includes('ns') && shown.test((e as Error).message),
        `${String(typeof value)} ${check.toString()}`,
      );
    }
  }
});

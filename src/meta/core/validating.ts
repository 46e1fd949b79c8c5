// The one validating wrapper every backend is opened through (issue 12 item 1): it runs the
// call's argument checks (./checks.ts) and only then hands the call to the backend, so a
// refused call has reached no backend and written nothing, and every backend refuses the same
// input with the same InvalidArgument.
//
// The wrapper is the backend handle itself as far as callers can tell: it inherits from the
// wrapped object (its public fields, `instanceof`), and every other method is bound to it, so
// a backend's extras (an embedded `db`, a Postgres `ready()`) keep working through it.
import type { MetaStore } from '../contract.js';
import { CHECKS, CHECKED_METHODS, type CheckedMethod } from './checks.js';

const WRAPPED = Symbol('loam.validating');

export interface ValidatingOptions {
  /** The backend's clock: a stamp may not run ahead of it by more than maxClockSkew. */
  now?: () => number;
}

/** Whether `store` already went through validating() (wrapping twice checks twice; harmless, but needless). */
export function isValidating(store: MetaStore): boolean {
  return (store as unknown as Record<symbol, unknown>)[WRAPPED] === true;
}

export function validating<S extends MetaStore>(inner: S, opts: ValidatingOptions = {}): S {
  if (isValidating(inner)) return inner;
  const now = opts.now ?? Date.now;
  const out = Object.create(inner) as Record<string | symbol, unknown>;
  // Every method of the backend, bound, so state a method changes stays on the backend.
  for (let proto: object | null = inner; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor' || Object.prototype.hasOwnProperty.call(out, name)) continue;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d && typeof d.value === 'function') out[name] = (d.value as (...a: unknown[]) => unknown).bind(inner);
    }
  }
  const target = inner as unknown as Record<CheckedMethod, (...a: unknown[]) => Promise<unknown>>;
  for (const m of CHECKED_METHODS) {
    // An optional call (the dirty set) the backend does not offer stays absent.
    if (typeof target[m] !== 'function') continue;
    const check = CHECKS[m] as (now: number, ...a: unknown[]) => void;
    out[m] = (...args: unknown[]): Promise<unknown> => {
      try {
        check(now(), ...args);
      } catch (e) {
        // Contract methods reject; they never throw synchronously.
        return Promise.reject(e);
      }
      return target[m].apply(inner, args);
    };
  }
  out[WRAPPED] = true;
  return out as unknown as S;
}

// FaultyStore: wraps any Store with scripted, deterministic faults (spec §4.4:
// "RustFS never returns S3's 409 or 503 SlowDown; FaultyStore keeps covering those").
//
// Faults, with what the caller sees and whether the inner store applied the call:
//   conflict     409 → Retryable(conflict), not applied
//   slowDown     503 SlowDown → Retryable(throttle), not applied
//   serverError  500 → Retryable(unavailable), not applied (outcomeUnknown for writes: a caller cannot tell)
//   timeout      no answer → Retryable(timeout), not applied (outcomeUnknown for writes)
//   lostAck      applied, then the answer is lost → Retryable(timeout, outcomeUnknown)
//   delay        the call waits `delayMs`, then runs normally
//
// Rules are scripted per call ("the 3rd put fails with 503": `{ method: 'put', nth: 3,
// fault: 'slowDown' }`), and an optional random mode draws faults from a PRNG seeded by
// `seed`, so a run is reproducible for the same sequence of calls.
import { mulberry32 } from './prng.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { storeErrors, type StoreError } from '../store/errors.js';
import type {
  ByteSource,
  GetOptions,
  GetResult,
  HeadResult,
  ListOptions,
  ListPage,
  ListVersionsOptions,
  ObjectInfo,
  ObjectVersion,
  PutCondition,
  PutResult,
  Store,
  StoreCapabilities,
  StoreMethod,
} from '../store/types.js';
import { WRITE_METHODS } from '../store/types.js';

export type FaultKind = 'conflict' | 'slowDown' | 'serverError' | 'timeout' | 'lostAck' | 'delay';

/** The longest scripted or random delay; a fault layer must not hang a test. */
export const FAULT_MAX_DELAY_MS = 60_000;

export interface FaultRule {
  /** Which methods the rule watches; all when absent. */
  method?: StoreMethod | readonly StoreMethod[];
  /** Only calls on this path (exact) or matching this pattern. */
  path?: string | RegExp;
  /** Fire on these 1-based calls among the calls the rule watches; every watched call when absent. */
  nth?: number | readonly number[];
  fault: FaultKind;
  /** For 'delay' (required) and 'timeout' (optional): how long the call hangs first. */
  delayMs?: number;
  /** Fire at most this many times. */
  times?: number;
}

export interface RandomFaults {
  /** Chance in [0, 1] that a watched call gets a fault. */
  probability: number;
  /** Drawn uniformly. */
  faults: readonly FaultKind[];
  /** Watched methods; all when absent. */
  methods?: readonly StoreMethod[];
  /** Random delays are uniform in [0, maxDelayMs]. */
  maxDelayMs?: number;
}

export interface FaultyStoreOptions {
  /** PRNG seed for random faults and delays (default 1). */
  seed?: number;
  rules?: readonly FaultRule[];
  random?: RandomFaults;
}

/** One injected fault, for assertions and logs. */
export interface InjectedFault {
  /** 1-based across all calls through this wrapper. */
  call: number;
  method: StoreMethod;
  path: string | undefined;
  fault: FaultKind;
  delayMs?: number;
}

interface RuleState {
  rule: FaultRule;
  seen: number;
  fired: number;
}


const FAULT_KINDS: ReadonlySet<FaultKind> = new Set(['conflict', 'slowDown', 'serverError', 'timeout', 'lostAck', 'delay']);

function checkDelay(ms: number | undefined, field: string): void {
  if (ms !== undefined && (!Number.isInteger(ms) || ms < 0 || ms > FAULT_MAX_DELAY_MS)) {
    throw storeErrors.invalid(field, `must be an integer in 0..${FAULT_MAX_DELAY_MS}`);
  }
}

export class FaultyStore implements Store {
  private readonly rules: RuleState[] = [];
  private readonly random: RandomFaults | undefined;
  private readonly rng: () => number;
  private calls = 0;
  private readonly log: InjectedFault[] = [];

  constructor(
    readonly inner: Store,
    opts: FaultyStoreOptions = {},
  ) {
    this.rng = mulberry32(opts.seed ?? 1);
    for (const r of opts.rules ?? []) this.script(r);
    if (opts.random) {
      const { probability, faults, maxDelayMs } = opts.random;
      if (!(probability >= 0 && probability <= 1)) throw storeErrors.invalid('random.probability', 'must be in [0, 1]');
      if (faults.length === 0 || faults.some((f) => !FAULT_KINDS.has(f))) throw storeErrors.invalid('random.faults', 'must name known faults');
      checkDelay(maxDelayMs, 'random.maxDelayMs');
    }
    this.random = opts.random;
  }

  /** Add a rule; rules are tried in the order they were added, and the first that fires wins. */
  script(rule: FaultRule): this {
    if (!FAULT_KINDS.has(rule.fault)) throw storeErrors.invalid('fault', `unknown fault ${String(rule.fault)}`);
    checkDelay(rule.delayMs, 'delayMs');
    if (rule.fault === 'delay' && rule.delayMs === undefined) throw storeErrors.invalid('delayMs', 'a delay fault needs delayMs');
    const nths = rule.nth === undefined ? [] : Array.isArray(rule.nth) ? rule.nth : [rule.nth];
    if (nths.some((n) => !Number.isInteger(n) || n < 1)) throw storeErrors.invalid('nth', 'must be 1-based call numbers');
    this.rules.push({ rule, seen: 0, fired: 0 });
    return this;
  }

  /** Remove every scripted rule (random faults stay). */
  clear(): this {
    this.rules.length = 0;
    return this;
  }

  /** Every fault injected so far, in order. */
  get injected(): readonly InjectedFault[] {
    return this.log;
  }

  private watches(rule: FaultRule, method: StoreMethod, path: string | undefined): boolean {
    if (rule.method !== undefined) {
      const ms = typeof rule.method === 'string' ? [rule.method] : rule.method;
      if (!ms.includes(method)) return false;
    }
    if (rule.path !== undefined) {
      if (path === undefined) return false;
      if (typeof rule.path === 'string' ? rule.path !== path : !rule.path.test(path)) return false;
    }
    return true;
  }

  /** Decide this call's fault, if any (advancing every watching rule's counter). */
  private decide(method: StoreMethod, path: string | undefined): InjectedFault | undefined {
    const call = ++this.calls;
    let chosen: InjectedFault | undefined;
    for (const st of this.rules) {
      if (!this.watches(st.rule, method, path)) continue;
      st.seen++;
      if (chosen) continue;
      const { nth, times } = st.rule;
      const nths = nth === undefined ? undefined : typeof nth === 'number' ? [nth] : nth;
      if (nths !== undefined && !nths.includes(st.seen)) continue;
      if (times !== undefined && st.fired >= times) continue;
      st.fired++;
      chosen = { call, method, path, fault: st.rule.fault, ...(st.rule.delayMs !== undefined ? { delayMs: st.rule.delayMs } : {}) };
    }
    if (!chosen && this.random && (this.random.methods === undefined || this.random.methods.includes(method))) {
      // Always draw twice per watched call, so one call's outcome never shifts the next call's draws.
      const hit = this.rng() < this.random.probability;
      const pick = this.rng();
      const delay = Math.floor(this.rng() * ((this.random.maxDelayMs ?? 0) + 1));
      if (hit) {
        const fault = this.random.faults[Math.floor(pick * this.random.faults.length)]!;
        chosen = { call, method, path, fault, ...(fault === 'delay' || fault === 'timeout' ? { delayMs: delay } : {}) };
      }
    }
    if (chosen) this.log.push(chosen);
    return chosen;
  }

  private error(f: InjectedFault): StoreError {
    const where = f.path === undefined ? f.method : `${f.method} ${f.path}`;
    const write = WRITE_METHODS.has(f.method);
    const path = f.path === undefined ? {} : { path: f.path };
    switch (f.fault) {
      case 'conflict':
        return storeErrors.retryable('conflict', `${where}: injected 409 Conflict`, { ...path, status: 409, outcomeUnknown: false });
      case 'slowDown':
        return storeErrors.retryable('throttle', `${where}: injected 503 SlowDown`, { ...path, status: 503, native: 'SlowDown', outcomeUnknown: false });
      case 'serverError':
        return storeErrors.retryable('unavailable', `${where}: injected 500 InternalError`, { ...path, status: 500, outcomeUnknown: write });
      case 'timeout':
        return storeErrors.retryable('timeout', `${where}: injected timeout`, { ...path, outcomeUnknown: write });
      case 'lostAck':
        return storeErrors.retryable('timeout', `${where}: injected lost acknowledgement (the call was applied)`, {
          ...path,
          outcomeUnknown: true,
        });
      case 'delay':
        throw new Error('unreachable: a delay is not an error');
    }
  }

  private async run<T>(method: StoreMethod, path: string | undefined, op: () => Promise<T>): Promise<T> {
    const f = this.decide(method, path);
    if (!f) return op();
    if (f.delayMs !== undefined && f.delayMs > 0) await sleep(f.delayMs);
    if (f.fault === 'delay') return op();
    if (f.fault === 'lostAck') {
      await op(); // applied (or failed on its own: then that error is the answer)
      throw this.error(f);
    }
    throw this.error(f);
  }

  capabilities(): StoreCapabilities {
    return this.inner.capabilities();
  }

  versioning(): Promise<boolean> {
    return this.inner.versioning();
  }

  get(path: string, opts?: GetOptions): Promise<GetResult> {
    return this.run('get', path, () => this.inner.get(path, opts));
  }

  head(path: string): Promise<HeadResult> {
    return this.run('head', path, () => this.inner.head(path));
  }

  put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    return this.run('put', path, () => this.inner.put(path, bytes, cond));
  }

  putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    return this.run('putStream', path, () => this.inner.putStream(path, source, cond));
  }

  delete(path: string): Promise<void> {
    return this.run('delete', path, () => this.inner.delete(path));
  }

  list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    return this.run('list', prefix, () => this.inner.list(prefix, opts));
  }

  listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>> {
    return this.run('listVersions', prefix, () => this.inner.listVersions(prefix, opts));
  }

  deleteVersion(path: string, versionId: string): Promise<void> {
    return this.run('deleteVersion', path, () => this.inner.deleteVersion(path, versionId));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

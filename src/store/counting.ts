// CountingStore: counts the requests made through it, per method, and the *serial round
// trips* they cost (DESIGN §4: the cold-query target is at most 3).
//
// Serial round trips are the length of the longest chain of requests where each one
// started only after the one before it had finished: requests that overlap in time share a
// round trip. Each request's depth is one more than the deepest request that had finished
// when it started; roundTrips is the greatest depth. Failed requests count too: they cost
// the same time.
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
} from './types.js';
import { STORE_METHODS } from './types.js';

export interface StoreCounts {
  /** Requests per method. */
  calls: Record<StoreMethod, number>;
  /** All requests. */
  requests: number;
  /** Serial round trips (see the header comment). */
  roundTrips: number;
  /** The most requests in flight at once. */
  maxInFlight: number;
}

function zeroCalls(): Record<StoreMethod, number> {
  return Object.fromEntries(STORE_METHODS.map((m) => [m, 0])) as Record<StoreMethod, number>;
}

export class CountingStore implements Store {
  private calls = zeroCalls();
  private requests = 0;
  private inFlight = 0;
  private maxInFlight = 0;
  /** The deepest depth among finished requests. */
  private finishedDepth = 0;
  private roundTrips = 0;
  /** Bumped by reset(), so requests from before a reset do not count after it. */
  private epoch = 0;

  constructor(readonly inner: Store) {}

  /** A copy of the counts since construction or the last reset(). */
  stats(): StoreCounts {
    return { calls: { ...this.calls }, requests: this.requests, roundTrips: this.roundTrips, maxInFlight: this.maxInFlight };
  }

  reset(): void {
    this.calls = zeroCalls();
    this.requests = 0;
    this.maxInFlight = this.inFlight;
    this.finishedDepth = 0;
    this.roundTrips = 0;
    this.epoch++;
  }

  /** Reset, run `fn`, and return its result with the counts it caused. */
  async measure<T>(fn: () => Promise<T>): Promise<{ result: T; counts: StoreCounts }> {
    this.reset();
    const result = await fn();
    return { result, counts: this.stats() };
  }

  private async count<T>(method: StoreMethod, op: () => Promise<T>): Promise<T> {
    const epoch = this.epoch;
    const depth = this.finishedDepth + 1;
    this.calls[method]++;
    this.requests++;
    this.roundTrips = Math.max(this.roundTrips, depth);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      return await op();
    } finally {
      this.inFlight--;
      if (epoch === this.epoch) this.finishedDepth = Math.max(this.finishedDepth, depth);
    }
  }

  capabilities(): StoreCapabilities {
    return this.inner.capabilities();
  }

  versioning(): Promise<boolean> {
    return this.inner.versioning();
  }

  get(path: string, opts?: GetOptions): Promise<GetResult> {
    return this.count('get', () => this.inner.get(path, opts));
  }

  head(path: string): Promise<HeadResult> {
    return this.count('head', () => this.inner.head(path));
  }

  put(path: string, bytes: Uint8Array, cond?: PutCondition): Promise<PutResult> {
    return this.count('put', () => this.inner.put(path, bytes, cond));
  }

  putStream(path: string, source: ByteSource, cond?: PutCondition): Promise<PutResult> {
    return this.count('putStream', () => this.inner.putStream(path, source, cond));
  }

  delete(path: string): Promise<void> {
    return this.count('delete', () => this.inner.delete(path));
  }

  list(prefix: string, opts: ListOptions): Promise<ListPage<ObjectInfo>> {
    return this.count('list', () => this.inner.list(prefix, opts));
  }

  listVersions(prefix: string, opts: ListVersionsOptions): Promise<ListPage<ObjectVersion>> {
    return this.count('listVersions', () => this.inner.listVersions(prefix, opts));
  }

  deleteVersion(path: string, versionId: string): Promise<void> {
    return this.count('deleteVersion', () => this.inner.deleteVersion(path, versionId));
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}

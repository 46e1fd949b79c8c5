// The server's record of write results (spec §8: "the server keeps call results for
// WAL_COMMIT_WINDOW_MS"), keyed by cluster and idempotency key, so a client whose response was
// lost learns the first outcome on retry instead of applying the call twice — as
// ClientRequestToken does on DynamoDB (spec §2.3).
//
// Kept in memory, bounded by entries and bytes, not stored: the durable guarantee is already
// the backend's — every key is also passed to the backend as the call's requestId, whose
// commit-token rows survive a server restart (REQUEST_TOKEN_TTL_MS) — so what this adds is
// the answer without a second backend call, a concurrent duplicate joining the first call
// instead of racing it, and the refusal of a key reused with different arguments. After a
// restart or an eviction, a retry still applies nothing twice (the backend's requestId); only
// the reuse check is lost for that key.
import { hash } from 'node:crypto';
import { errors } from '../meta/errors.js';
import { WAL_COMMIT_WINDOW_MS } from '../meta/limits.js';

/** Results kept at most (every map a bound): past it the oldest go first. */
export const MAX_IDEMPOTENCY_ENTRIES = 100_000;
/** Bytes of kept results at most (their JSON length, about: sizeOf, with the key and fingerprint), so a burst of large results cannot grow the heap. */
export const MAX_IDEMPOTENCY_BYTES = 64 * 1024 * 1024;
/** How long a result is kept: a retry arrives within the WAL commit window (spec §8). */
export const IDEMPOTENCY_TTL_MS = WAL_COMMIT_WINDOW_MS;

interface Entry {
  /**
   * The call's fingerprint, made lazily (issue 16 benchmark): when another call with the key
   * arrives, or once the first call's answer is written (keep()); until then `method` and
   * `request` are kept to make it from.
   */
  fingerprint: string | null;
  method: string;
  request: unknown;
  at: number;
  /** The bytes counted for it in the record's total; 0 until kept. */
  bytes: number;
  /** Settled: the result; pending: the first call still running. */
  result?: unknown;
  pending?: Promise<unknown>;
}

/** A settled entry whose fingerprint and size are made after its answer is written. */
interface Unkept {
  id: string;
  key: string;
  entry: Entry;
}

export interface Outcome<T> {
  value: T;
  /** Served from the record of an earlier call with the same key. */
  replayed: boolean;
}

/**
 * The fingerprint of a call's arguments: its method and its request without its write context
 * (a retry carries a later stamp and is still the same call) and without the key itself.
 */
export function fingerprint(method: string, request: unknown): string {
  // Both are top-level fields of a request (WriteContext w, or request_id), never nested, so
  // dropping them from the top is all it takes, and JSON.stringify stays on its fast path.
  const { w: _w, requestId: _key, ...args } = request as Record<string, unknown>;
  // One-shot: a Hash object per call (createHash, three updates, digest) cost about twice as much.
  return hash('sha256', `${method}\0${JSON.stringify(args)}`, 'base64url');
}

/** An entry's fingerprint, made once from its kept request (which it then lets go). */
function fingerprintOf(e: Entry): string {
  if (e.fingerprint === null) {
    e.fingerprint = fingerprint(e.method, e.request);
    e.request = null;
  }
  return e.fingerprint;
}

/** Nesting walked at most by sizeOf: deeper values count at MAX_SIZED_DEPTH_BYTES each. */
export const MAX_SIZED_DEPTH = 16;
/** What a value nested deeper than MAX_SIZED_DEPTH counts for (no result of ours nests so deep). */
export const MAX_SIZED_DEPTH_BYTES = 1024;

/**
 * A kept result's bytes, about its JSON length (strings by UTF-16 units, numbers at 8): what
 * MAX_IDEMPOTENCY_BYTES bounds. Walked instead of JSON.stringify, which cost about four times
 * as much for a commitWal's result, paid before each answer.
 */
export function sizeOf(v: unknown, depth = 0): number {
  if (v === null || v === undefined) return 4;
  if (typeof v === 'string') return v.length + 2;
  if (typeof v !== 'object') return 8;
  if (depth >= MAX_SIZED_DEPTH) return MAX_SIZED_DEPTH_BYTES;
  let n = 2;
  // Bounded: a result is a finite tree (decoded or built by a handler), walked once per node.
  if (Array.isArray(v)) {
    for (const x of v) n += sizeOf(x, depth + 1) + 1;
    return n;
  }
  if (ArrayBuffer.isView(v)) return n + v.byteLength * 4;
  for (const k in v) n += k.length + 4 + sizeOf((v as Record<string, unknown>)[k], depth + 1);
  return n;
}

export class IdempotencyRecord {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  /** Settled since the last keep(): their fingerprints and sizes are made there. */
  private readonly unkept: Unkept[] = [];
  private keeping = false;

  constructor(
    private readonly now: () => number = Date.now,
    private readonly limits = { entries: MAX_IDEMPOTENCY_ENTRIES, bytes: MAX_IDEMPOTENCY_BYTES, ttlMs: IDEMPOTENCY_TTL_MS },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /**
   * Runs `call` once per (cluster, key): a later call with the key gets the first call's result
   * (waiting for it while it runs), or InvalidArgument if its arguments differ (its method and
   * request, by fingerprint()). A call that fails leaves no record: its retry runs again (a
   * typed refusal applied nothing, and an unknown outcome is the backend's requestId's to
   * resolve).
   *
   * What the first call's answer does not need waits until it is written (issue 16 benchmark:
   * the fingerprint's hash and the result's sizing cost about 7 µs a call, 8 calls a batch, on
   * the path between a group's COMMIT and the client's next batch): the entry is in the map from
   * the call's arrival, with its request, and holds its result from the moment the call
   * settles, so a retry at any moment joins the call or gets its result, and the reuse check
   * makes both fingerprints when it needs them. Only the hash that replaces the kept request
   * and the byte count of the bound come one turn later (keep()).
   */
  async run<T>(cluster: string, key: string, method: string, request: unknown, call: () => Promise<T>): Promise<Outcome<T>> {
    const id = `${cluster}\0${key}`;
    this.expire();
    const e = this.entries.get(id);
    if (e) {
      if (fingerprintOf(e) !== fingerprint(method, request)) {
        const err = errors.invalid(
          'requestId',
          `idempotency key ${JSON.stringify(key)} was already used for a different call in the last ${this.limits.ttlMs / 60_000} min; use a new key for a new call and the same key only to retry the same call`,
        );
        err.details.reason = 'RequestIdReused';
        throw err;
      }
      if (e.pending) return { value: (await e.pending) as T, replayed: true };
      return { value: e.result as T, replayed: true };
    }
    const pending = call();
    const entry: Entry = { fingerprint: null, method, request, at: this.now(), bytes: 0, pending };
    this.entries.set(id, entry);
    try {
      const value = await pending;
      entry.result = value;
      delete entry.pending;
      this.unkept.push({ id, key, entry });
      if (!this.keeping) {
        this.keeping = true;
        // A turn later: the answer this settles is written first (it is sent in this turn).
        setImmediate(() => this.keep());
      }
      return { value, replayed: false };
    } catch (err) {
      if (this.entries.get(id) === entry) this.entries.delete(id);
      throw err;
    }
  }

  /** The settled entries' fingerprints and sizes, then the bound; each entry once. */
  private keep(): void {
    this.keeping = false;
    // Bounded: the calls settled since the last pass (each is pushed once, when it settles).
    const done = this.unkept.splice(0);
    for (const { id, key, entry } of done) {
      fingerprintOf(entry);
      // Evicted or replaced meanwhile: nothing of it is counted.
      if (this.entries.get(id) !== entry) continue;
      entry.bytes = key.length + entry.fingerprint!.length + sizeOf(entry.result);
      this.bytes += entry.bytes;
    }
    this.bound();
  }

  private expire(): void {
    const cutoff = this.now() - this.limits.ttlMs;
    for (const [id, e] of this.entries) {
      if (e.at >= cutoff) break; // insertion order is age order
      if (e.pending) continue;
      this.drop(id, e);
    }
  }

  private bound(): void {
    for (const [id, e] of this.entries) {
      if (this.entries.size <= this.limits.entries && this.bytes <= this.limits.bytes) break;
      if (e.pending) continue;
      this.drop(id, e);
    }
  }

  private drop(id: string, e: Entry): void {
    this.entries.delete(id);
    this.bytes -= e.bytes;
  }
}

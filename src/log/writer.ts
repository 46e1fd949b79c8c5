// The log role's writer (DESIGN §1, spec §3.1, §3.5): batches the writes of ALL namespaces
// for up to a flush interval or a flush size into ONE WAL object (a chunk per (ns, stream,
// partition)), PUTs it create-only, commits it with MetaStore.commitWal, and acknowledges
// every writer in the batch with a consistency token.
//
// - One append() goes whole into one WAL object, so a collection write is atomic per
//   partition group (spec §3.1) and acknowledged only after commitWal succeeded.
// - Unknown outcomes: a PUT or a commit whose outcome is unknown is retried with the SAME
//   object path: the store's create-only PUT and commitWal's (object, group) idempotency
//   mean nothing is committed twice. A flush that gives up fails its writers (never
//   acknowledged); its object may still be committed for some groups — harmless, since
//   no writer was told it was (the "unacknowledged but visible" case of spec §3.1).
// - Every wait has a deadline (PUT_DEADLINE_MS, COMMIT_DEADLINE_MS) and the buffer a
//   bound (maxBufferedBytes): beyond it append() refuses with a retryable Backpressure.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MetaStore } from '../meta/contract.js';
import { isCredentialRefusal, isMetaError } from '../meta/errors.js';
import { MAX_WAL_CHUNKS, WAL_COMMIT_WINDOW_MS } from '../meta/limits.js';
import type { ConsistencyToken, TokenEntry } from '../meta/token.js';
import type { AssignedRange, WalChunk } from '../meta/types.js';
import { isStoreError, type Store } from '../store/index.js';
import { dataErrors, keyError } from './errors.js';
import { encodeObject, type ChunkInput, type Codec, CODEC_NONE } from './format.js';
import { BuildBuffers } from './build-buffers.js';
import { chunkSealer } from '../crypto/chunk.js';
import type { KeyRing, WriteKey } from '../crypto/keyring.js';

/** Defaults of the issue: a WAL object per 10 ms or 8 MiB, whichever comes first. */
export const DEFAULT_FLUSH_INTERVAL_MS = 10;
export const DEFAULT_FLUSH_BYTES = 8 * 1024 * 1024;
/** Flushes in flight at once: overlaps one object's PUT with another's commit. */
export const DEFAULT_MAX_INFLIGHT_FLUSHES = 4;
/** Buffered (not yet flushed) bytes beyond which append() refuses: this × flush size. */
export const MAX_BUFFERED_FLUSHES = 4;
/** How long a WAL object's PUT may be retried before its writers are failed. */
export const PUT_DEADLINE_MS = 30_000;
/** How long a commit may be retried; far inside the commit window (D27), so no retry is stale. */
export const COMMIT_DEADLINE_MS = 60_000;
/** Backoff between retries of one PUT or commit. */
export const RETRY_BASE_MS = 20;
export const RETRY_MAX_MS = 1_000;
/** Retry-After suggested to writers refused because the buffer is full. */
export const BUFFER_FULL_RETRY_MS = 100;

if (COMMIT_DEADLINE_MS + PUT_DEADLINE_MS >= WAL_COMMIT_WINDOW_MS) throw new Error('commit deadlines must stay inside the WAL commit window');

/** One partition's records of one append. */
export interface PartitionAppend {
  ns: number;
  stream: number;
  partition: number;
  /** Records encoded with encodeRecord, in order. */
  records: Buffer[];
}

export interface AppendResult {
  /** Covers every partition the append touched (offsets exclusive, spec §3.5). */
  token: ConsistencyToken;
  /** The chunks' assigned ranges (a chunk holds other writers' records too). */
  ranges: AssignedRange[];
  /** The WAL object that holds the records. */
  object: string;
}

export interface FlushReport {
  object: string;
  bytes: number;
  chunks: number;
  records: number;
  writers: number;
  putMs: number;
  commitMs: number;
  ok: boolean;
}

export interface LogWriterOptions {
  meta: MetaStore;
  store: Store;
  /** Distinguishes this writer's objects from every other node's. */
  nodeId: string;
  flushIntervalMs?: number;
  flushBytes?: number;
  maxInflightFlushes?: number;
  codec?: Codec;
  /** Envelope encryption (spec §9.8): each chunk of an encrypted namespace sealed under a fresh data key. */
  keys?: KeyRing;
  /** Told after every committed object, so local workers can react at once. */
  onCommitted?: (assigned: AssignedRange[]) => void;
  onFlush?: (r: FlushReport) => void;
  /** Retry counters for metrics. */
  onRetry?: (what: 'put' | 'commit', err: unknown) => void;
}

interface Waiter {
  keys: string[];
  resolve: (r: AppendResult) => void;
  reject: (e: unknown) => void;
}

interface Batch {
  parts: Map<string, { ns: number; stream: number; partition: number; records: Buffer[]; bytes: number }>;
  waiters: Waiter[];
  bytes: number;
  records: number;
}

function newBatch(): Batch {
  return { parts: new Map(), waiters: [], bytes: 0, records: 0 };
}

export class LogWriter {
  readonly flushIntervalMs: number;
  readonly flushBytes: number;
  private readonly maxInflight: number;
  private readonly maxBufferedBytes: number;
  private open: Batch = newBatch();
  private readonly sealed: Batch[] = [];
  private sealedBytes = 0;
  private inflight = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The interval passed while every flush slot was busy: flush the open batch at the next free slot. */
  private due = false;
  private seq = 0;
  private closed = false;
  private readonly idle: (() => void)[] = [];
  /** The buffers WAL objects are built in, reused from flush to flush (./build-buffers.ts). */
  readonly buffers = new BuildBuffers();
  /** A random part per process, so a restarted node never reuses an object name. */
  private readonly incarnation = randomBytes(4).toString('hex');

  constructor(private readonly o: LogWriterOptions) {
    this.flushIntervalMs = o.flushIntervalMs ?? DEFAULT_FLUSH_INTERVAL_MS;
    this.flushBytes = o.flushBytes ?? DEFAULT_FLUSH_BYTES;
    this.maxInflight = o.maxInflightFlushes ?? DEFAULT_MAX_INFLIGHT_FLUSHES;
    this.maxBufferedBytes = MAX_BUFFERED_FLUSHES * this.flushBytes;
    if (!(this.flushIntervalMs >= 0) || !(this.flushBytes >= 1) || !(this.maxInflight >= 1)) {
      throw new RangeError('flushIntervalMs >= 0, flushBytes >= 1 and maxInflightFlushes >= 1 are required');
    }
  }

  /** Bytes buffered and not yet handed to a flush. */
  get bufferedBytes(): number {
    return this.open.bytes + this.sealedBytes;
  }

  /**
   * Adds one writer's records (all partitions of one request) to the next WAL object and
   * resolves after that object is committed. Rejects with Backpressure when the buffer is
   * full and Unavailable when the object could not be written or committed.
   */
  append(parts: PartitionAppend[]): Promise<AppendResult> {
    if (this.closed) return Promise.reject(dataErrors.unavailable('the log writer is shutting down'));
    // One WAL object commits at most MAX_WAL_CHUNKS chunks: checked here, before anything is
    // written, never by a commit that fails after the object was PUT.
    if (parts.length > MAX_WAL_CHUNKS) {
      return Promise.reject(dataErrors.tooLarge('upserts', `the write touches ${parts.length} partitions; one write may touch at most ${MAX_WAL_CHUNKS}`));
    }
    let fresh = 0;
    for (const p of parts) if (!this.open.parts.has(`${p.ns}/${p.stream}/${p.partition}`)) fresh++;
    if (this.open.parts.size + fresh > MAX_WAL_CHUNKS) this.seal();
    let bytes = 0;
    for (const p of parts) for (const r of p.records) bytes += r.length;
    if (this.bufferedBytes > 0 && this.bufferedBytes + bytes > this.maxBufferedBytes) {
      return Promise.reject(
        dataErrors.backpressure(`the log writer has ${this.bufferedBytes} bytes waiting to be flushed; retry shortly`, BUFFER_FULL_RETRY_MS),
      );
    }
    return new Promise<AppendResult>((resolve, reject) => {
      const b = this.open;
      const keys: string[] = [];
      for (const p of parts) {
        const k = `${p.ns}/${p.stream}/${p.partition}`;
        keys.push(k);
        let part = b.parts.get(k);
        if (!part) b.parts.set(k, (part = { ns: p.ns, stream: p.stream, partition: p.partition, records: [], bytes: 0 }));
        for (const r of p.records) {
          part.records.push(r);
          part.bytes += r.length;
        }
        b.records += p.records.length;
      }
      b.bytes += bytes;
      b.waiters.push({ keys, resolve, reject });
      if (b.bytes >= this.flushBytes) this.seal();
      else if (!this.timer && !this.due) this.timer = setTimeout(() => this.onInterval(), this.flushIntervalMs);
    });
  }

  /**
   * The flush interval passed: flush now if a slot is free; otherwise the open batch keeps
   * growing (coalescing writes under load into bigger objects) and is flushed as soon as a
   * slot frees up.
   */
  private onInterval(): void {
    this.timer = undefined;
    if (this.inflight < this.maxInflight && this.sealed.length === 0) this.seal();
    else this.due = true;
  }

  /** Seals the open batch and starts flushing it (when a slot is free). */
  private seal(): void {
    this.due = false;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.open.waiters.length === 0) return;
    this.sealed.push(this.open);
    this.sealedBytes += this.open.bytes;
    this.open = newBatch();
    this.pump();
  }

  private pump(): void {
    while (this.inflight < this.maxInflight && this.sealed.length > 0) {
      const b = this.sealed.shift()!;
      this.sealedBytes -= b.bytes;
      this.inflight++;
      void this.flush(b).finally(() => {
        this.inflight--;
        if (this.due && this.sealed.length === 0) this.seal();
        this.pump();
        if (this.inflight === 0 && this.sealed.length === 0) for (const f of this.idle.splice(0)) f();
      });
    }
  }

  private async flush(b: Batch): Promise<void> {
    const stamp = Date.now();
    const path = `wal/${String(stamp).padStart(14, '0')}-${this.o.nodeId}-${this.incarnation}-${++this.seq}.wal`;
    let parts = [...b.parts.values()].sort((x, y) => x.ns - y.ns || x.stream - y.stream || x.partition - y.partition);
    const writeKeys = new Map<number, WriteKey | null>();
    if (this.o.keys) {
      // A namespace whose key cannot be had (shredded, or the provider down) fails only its own
      // writers: every waiter's parts are in one namespace (one collection write).
      const failed = new Map<number, unknown>();
      for (const ns of new Set(parts.map((p) => p.ns))) {
        try {
          writeKeys.set(ns, await this.o.keys.writeKey(ns));
        } catch (e) {
          failed.set(ns, keyError(e, ns, 'the write'));
        }
      }
      if (failed.size > 0) {
        parts = parts.filter((p) => !failed.has(p.ns));
        b.waiters = b.waiters.filter((w) => {
          const ns = Number(w.keys[0]!.split('/')[0]);
          if (!failed.has(ns)) return true;
          w.reject(failed.get(ns));
          return false;
        });
        if (b.waiters.length === 0) return;
        b.records = parts.reduce((n, p) => n + p.records.length, 0);
      }
    }
    const inputs: ChunkInput[] = parts.map((p) => {
      const k = writeKeys.get(p.ns);
      return { ns: p.ns, stream: p.stream, partition: p.partition, records: p.records, codec: this.o.codec ?? CODEC_NONE, ...(k ? { seal: chunkSealer(k, path, p.stream, p.partition) } : {}) };
    });
    const report: FlushReport = { object: path, bytes: 0, chunks: parts.length, records: b.records, writers: b.waiters.length, putMs: 0, commitMs: 0, ok: false };
    try {
      const enc = encodeObject(stamp, inputs, this.buffers);
      report.bytes = enc.bytes.length;
      const t0 = performance.now();
      try {
        await this.putOnce(path, enc.bytes);
      } finally {
        // Settled (written, or given up after its retries): the store no longer reads the bytes.
        this.buffers.release(enc.bytes);
      }
      const t1 = performance.now();
      report.putMs = t1 - t0;
      const chunks: WalChunk[] = parts.map((p, i) => ({
        ns: p.ns,
        stream: p.stream,
        partition: p.partition,
        records: p.records.length,
        byteStart: enc.ranges[i]!.byteStart,
        byteEnd: enc.ranges[i]!.byteEnd,
      }));
      const result = await this.commitOnce({ object: path, objectStamp: stamp, chunks });
      report.commitMs = performance.now() - t1;
      report.ok = true;
      const byKey = new Map<string, AssignedRange>();
      for (const r of result.assigned) byKey.set(`${r.ns}/${r.stream}/${r.partition}`, r);
      for (const w of b.waiters) {
        const entries: TokenEntry[] = [];
        const ranges: AssignedRange[] = [];
        for (const k of w.keys) {
          const r = byKey.get(k)!;
          entries.push({ ns: r.ns, stream: r.stream, partition: r.partition, offset: r.end });
          ranges.push(r);
        }
        w.resolve({ token: { entries }, ranges, object: path });
      }
      this.o.onCommitted?.(result.assigned);
    } catch (e) {
      for (const w of b.waiters) w.reject(e);
    } finally {
      this.o.onFlush?.(report);
    }
  }

  /** Create-only PUT; a retry after an unknown outcome that finds the object is our own write. */
  private async putOnce(path: string, bytes: Buffer): Promise<void> {
    const deadline = Date.now() + PUT_DEADLINE_MS;
    let unknown = false;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.o.store.put(path, bytes, { ifNoneMatch: '*' });
        return;
      } catch (e) {
        if (isStoreError(e, 'AlreadyExists') && unknown) return; // our earlier attempt landed (the name is unique to us)
        if (!isStoreError(e) || !e.retryable) throw dataErrors.unavailable(`writing WAL object ${path} failed: ${(e as Error).message}`);
        unknown ||= e.details.outcomeUnknown !== false;
        this.o.onRetry?.('put', e);
        if (!(await backoff(attempt, deadline))) {
          throw dataErrors.unavailable(`writing WAL object ${path} did not succeed within ${PUT_DEADLINE_MS} ms: ${e.message}`);
        }
      }
    }
  }

  /** commitWal of the same object until it succeeds or the deadline passes (never a new object). */
  private async commitOnce(commit: { object: string; objectStamp: number; chunks: WalChunk[] }) {
    const deadline = Date.now() + COMMIT_DEADLINE_MS;
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.o.meta.commitWal(commit);
      } catch (e) {
        // A refusal of the node's own credentials applied nothing and will not pass on retry: at once.
        const retryable = isMetaError(e) && (e.code === 'Retryable' || e.code === 'Unknown') && !isCredentialRefusal(e);
        if (!retryable) {
          const why = isMetaError(e) ? `${e.code}: ${e.message}` : (e as Error).message;
          if (isMetaError(e, 'NotFound') || isMetaError(e, 'InvalidArgument')) {
            // A stream dropped between validation and commit: the write is refused, not lost.
            throw dataErrors.notFound(`committing the write: ${e.message}`);
          }
          throw dataErrors.unavailable(`committing WAL object ${commit.object} failed (${why})`);
        }
        this.o.onRetry?.('commit', e);
        if (!(await backoff(attempt, deadline))) {
          throw dataErrors.unavailable(`committing WAL object ${commit.object}: outcome unknown after ${COMMIT_DEADLINE_MS} ms (${e.message}); the write was not acknowledged`);
        }
      }
    }
  }

  /** Flushes what is buffered now and waits for every flush in flight (bounded by their deadlines). */
  async drain(): Promise<void> {
    this.seal();
    if (this.inflight === 0 && this.sealed.length === 0) return;
    await new Promise<void>((r) => this.idle.push(r));
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }
}

/** Sleeps a jittered, doubling backoff; false when the deadline would pass. */
async function backoff(attempt: number, deadline: number): Promise<boolean> {
  const ms = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.min(attempt, 10)) * (0.5 + Math.random() / 2);
  if (Date.now() + ms >= deadline) return false;
  await sleep(ms);
  return true;
}

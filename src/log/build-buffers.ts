// Reused buffers for building WAL objects and segments (issue 14 item 9). An object is built
// whole before its PUT; allocating a fresh multi-MiB buffer per flush and freeing it after is
// what makes glibc raise its mmap threshold (each freed mapped block raises it to that block's
// size), after which every buffer below that size comes from the arenas and stays there. A
// bounded pool keeps a few build buffers during a burst and lets them go when it is over.
//
// A buffer handed out is the caller's until it calls release(); the store contract says a put
// does not keep the bytes it was given once it has settled (src/store/types.ts).

/** Build buffers kept at most (the writer's flushes in flight each hold one). */
export const MAX_POOLED_BUILD_BUFFERS = 4;
/** A buffer larger than this is allocated for its object alone and not kept. */
export const MAX_POOLED_BUILD_BUFFER_BYTES = 16 * 1024 * 1024;
/** Capacities are rounded up to a multiple of this, so objects of similar sizes share buffers. */
export const BUILD_BUFFER_GRANULE_BYTES = 1024 * 1024;
/** The pool frees what it keeps after this long without a request (the burst is over). */
export const BUILD_BUFFER_IDLE_MS = 5_000;

export interface BuildBufferStats {
  /** Buffers kept now, and their bytes. */
  kept: number;
  keptBytes: number;
  /** Requests served from a kept buffer, and by a new allocation. */
  reused: number;
  allocated: number;
}

export class BuildBuffers {
  private readonly free: Buffer[] = [];
  private readonly lent = new Map<ArrayBufferLike, Buffer>();
  private timer: NodeJS.Timeout | undefined;
  private readonly counts = { reused: 0, allocated: 0 };

  constructor(
    private readonly maxBuffers = MAX_POOLED_BUILD_BUFFERS,
    private readonly maxBytes = MAX_POOLED_BUILD_BUFFER_BYTES,
    private readonly idleMs = BUILD_BUFFER_IDLE_MS,
  ) {}

  /** `size` bytes (contents undefined) to build into; give it back with release(). */
  acquire(size: number): Buffer {
    if (size > this.maxBytes) {
      this.counts.allocated++;
      return Buffer.allocUnsafeSlow(size);
    }
    // The smallest kept buffer that fits.
    let best = -1;
    for (let i = 0; i < this.free.length; i++) {
      if (this.free[i]!.length >= size && (best < 0 || this.free[i]!.length < this.free[best]!.length)) best = i;
    }
    let whole: Buffer;
    if (best >= 0) {
      whole = this.free.splice(best, 1)[0]!;
      this.counts.reused++;
    } else {
      whole = Buffer.allocUnsafeSlow(Math.min(this.maxBytes, Math.ceil(size / BUILD_BUFFER_GRANULE_BYTES) * BUILD_BUFFER_GRANULE_BYTES));
      this.counts.allocated++;
    }
    this.lent.set(whole.buffer, whole);
    return whole.subarray(0, size);
  }

  /** Takes back a buffer from acquire() (others are ignored); the caller must not touch it again. */
  release(b: Buffer): void {
    const whole = this.lent.get(b.buffer);
    if (!whole) return;
    this.lent.delete(b.buffer);
    if (this.free.length + this.lent.size < this.maxBuffers) this.free.push(whole);
    else if (this.free.length > 0) {
      // Full: keep the larger of this one and the smallest kept one.
      let min = 0;
      for (let i = 1; i < this.free.length; i++) if (this.free[i]!.length < this.free[min]!.length) min = i;
      if (this.free[min]!.length < whole.length) this.free[min] = whole;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.clear(), this.idleMs);
    this.timer.unref();
  }

  /** Lets go of every kept buffer (lent ones stay the borrowers'). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.free.length = 0;
  }

  stats(): BuildBufferStats {
    return { kept: this.free.length, keptBytes: this.free.reduce((n, b) => n + b.length, 0), ...this.counts };
  }
}

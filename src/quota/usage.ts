// Usage counting at a gateway (spec §6: usage rollups; the org is the billing unit): what the
// gateway admitted, per namespace, added to hourly rollups in the ControlStore. Counting is a
// field increment on the hot path; writing is a batch every few seconds, with atomic adds so
// gateways counting into the same hour lose nothing.
import { MAX_USAGE_ROWS, type ControlStore, type UsageDelta } from '../control/types.js';

/**
 * The usage metrics: counted by the gateways (requests, ingest_bytes) or measured with the
 * stored bytes (storage_bytes, and unapplied_records: the log records of the namespace's
 * collections their manifests have not applied yet), gauges in window 0.
 */
export const USAGE_METRICS = ['requests', 'ingest_bytes', 'storage_bytes', 'unapplied_records'] as const;
/** Counters roll up into windows this long. */
export const USAGE_WINDOW_MS = 3_600_000;
/** Namespaces counted between flushes, at most; reaching it flushes early. */
export const MAX_USAGE_COUNTERS = 10_000;

/** What this gateway admitted for one namespace since the last flush. */
export interface UsageCounter {
  readonly org: string;
  readonly ns: number | null;
  requests: number;
  ingestBytes: number;
}

export class UsageMeter {
  private readonly counters = new Map<string, UsageCounter>();
  /** Writes in flight (drain waits for them). */
  private readonly writes = new Set<Promise<void>>();
  private overflowFlush = false;

  constructor(
    private readonly control: ControlStore,
    private readonly now: () => number,
    private readonly hooks: {
      /** Counters were dropped: whoever holds one must fetch it again. */
      dropped: () => void;
      failed: (e: unknown) => void;
    },
  ) {}

  /**
   * The counter of one namespace; callers may keep it until `dropped` fires. Reaching
   * MAX_USAGE_COUNTERS flushes early, which drops the idle ones: the bound is soft, at the
   * namespaces active within one flush interval.
   */
  counter(org: string, ns: number | null): UsageCounter {
    const k = `${org}\u0000${ns ?? '-'}`;
    let c = this.counters.get(k);
    if (!c) {
      if (this.counters.size >= MAX_USAGE_COUNTERS && !this.overflowFlush) {
        this.overflowFlush = true;
        void this.flush().finally(() => (this.overflowFlush = false));
      }
      c = { org, ns, requests: 0, ingestBytes: 0 };
      this.counters.set(k, c);
    }
    return c;
  }

  /**
   * Adds what was counted so far to the current window's rollups. The counts are taken
   * synchronously (each counter gives up exactly what is written; what is counted meanwhile
   * stays for the next flush), so flushes may overlap without counting anything twice; a
   * failed write gives its counts back. Counters idle since the last flush are dropped.
   */
  flush(): Promise<void> {
    const window = Math.floor(this.now() / USAGE_WINDOW_MS) * USAGE_WINDOW_MS;
    const rows: { c: UsageCounter; d: UsageDelta }[] = [];
    let dropped = false;
    for (const [k, c] of this.counters) {
      if (c.requests === 0 && c.ingestBytes === 0) {
        this.counters.delete(k);
        dropped = true;
        continue;
      }
      if (c.requests > 0) rows.push({ c, d: { org: c.org, ns: c.ns, metric: 'requests', window, delta: c.requests } });
      if (c.ingestBytes > 0) rows.push({ c, d: { org: c.org, ns: c.ns, metric: 'ingest_bytes', window, delta: c.ingestBytes } });
      c.requests = 0;
      c.ingestBytes = 0;
    }
    if (dropped) this.hooks.dropped();
    if (rows.length === 0) return Promise.resolve();
    const write = (async () => {
      let done = 0;
      try {
        for (; done < rows.length; done += MAX_USAGE_ROWS) await this.control.addUsage(rows.slice(done, done + MAX_USAGE_ROWS).map((r) => r.d));
      } catch (e) {
        this.hooks.failed(e);
        for (const { c, d } of rows.slice(done)) {
          if (d.metric === 'requests') c.requests += d.delta;
          else c.ingestBytes += d.delta;
        }
      }
    })();
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
    return write;
  }

  /** Flushes, and waits for every write in flight (shutdown). */
  async drain(): Promise<void> {
    await Promise.all([...this.writes, this.flush()]);
  }
}

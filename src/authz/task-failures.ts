// Background tasks of a gateway (feed poll, heartbeat, last_used, usage, storage) that keep
// failing while the metastore is down log once per FAILURE_LOG_INTERVAL_MS per task, with
// the count of failures since, so an outage is visible without flooding the log.
import type { Logger } from 'pino';

/** A background task that keeps failing (the metastore is down) logs at most this often. */
export const FAILURE_LOG_INTERVAL_MS = 30_000;

export class TaskFailures {
  /** Per background task: when its failure was last logged, and failures since. */
  private readonly failures = new Map<string, { at: number; since: number }>();

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
    private readonly counted?: (task: string) => void,
  ) {}

  failed(task: string, what: string, e: unknown): void {
    this.counted?.(task);
    const f = this.failures.get(task);
    const now = this.now();
    if (f && now - f.at < FAILURE_LOG_INTERVAL_MS) {
      f.since++;
      return;
    }
    this.failures.set(task, { at: now, since: 0 });
    this.logger.warn({ task, err: { message: (e as Error).message }, ...(f?.since ? { failures_since_last_log: f.since } : {}) }, what);
  }
}

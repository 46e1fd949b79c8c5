// The gateway's watcher of the ControlStore's change feed (spec §6: revocations are pushed):
// each entry names what changed, so the caches drop exactly that, within about FEED_POLL_MS.
import type { ControlChange, ControlStore } from '../control/types.js';

/** How often the change feed is polled: a revocation reaches every node within about this. */
export const FEED_POLL_MS = 250;
/** A missing feed version (a writer between its counter and its entry) is waited for this long. */
export const CHANGE_GAP_WAIT_MS = 2_000;

export class ChangeFeedWatcher {
  private cursor = 0;
  private gapSince: number | null = null;
  private polling: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly control: ControlStore,
    private readonly now: () => number,
    private readonly hooks: { changed: (c: ControlChange) => void; failed: (e: unknown) => void },
  ) {}

  /** Starts from the current version (nothing earlier is cached yet) and polls every FEED_POLL_MS. */
  async start(): Promise<void> {
    this.cursor = await this.control.controlVersion();
    this.timer = setInterval(() => void this.poll(), FEED_POLL_MS);
    this.timer.unref();
  }

  /** One pass over the change feed. */
  poll(): Promise<void> {
    if (this.polling || this.closed) return this.polling ?? Promise.resolve();
    this.polling = (async () => {
      try {
        const changes = await this.control.changesSince(this.cursor);
        for (const c of changes) {
          if (c.version > this.cursor + 1) {
            // A gap: an earlier version not yet visible (feedOrder 'gaps'); wait it out, bounded.
            this.gapSince ??= this.now();
            if (this.now() - this.gapSince < CHANGE_GAP_WAIT_MS) break;
          }
          this.gapSince = null;
          this.cursor = c.version;
          this.hooks.changed(c);
        }
      } catch (e) {
        this.hooks.failed(e);
      } finally {
        this.polling = null;
      }
    })();
    return this.polling;
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.polling;
  }
}

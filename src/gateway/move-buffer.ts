// The gateway's hold on writes to a namespace that is moving (spec §5.5: gateways buffer the
// namespace's writes during the flip, so writes pause for milliseconds instead of failing).
//
// A write whose namespace the node's directory shows as moving waits here — before it is
// encoded into a WAL object, so one moving namespace never holds up a WAL object shared
// with others — until the move has flipped or been undone, then goes on. The wait is
// bounded in time (MOVE_HOLD_MAX_MS) and the held writes in bytes (MOVE_HOLD_MAX_BYTES per
// node); past either bound the write is answered 503 namespace_moving with Retry-After, and
// nothing was written. A write that reached the metastore before this node saw the move is
// refused by the fence (nothing written) and retried by the sharded metastore once the
// directory has flipped (src/meta/backends/sharded/routing.ts), so it pauses the same way.
import type { NamespaceId } from '../meta/types.js';

/** The longest a write is held for a move before it is answered 503 (a move's flip takes milliseconds). */
export const MOVE_HOLD_MAX_MS = 5_000;
/** Bytes of writes one node holds for moves at once; past it a write is answered 503 at once. */
export const MOVE_HOLD_MAX_BYTES = 64 * 1024 * 1024;
/** Retry-After on a write refused by the hold. */
export const MOVE_HOLD_RETRY_AFTER_S = 1;
/** How often a held write looks at the directory again (a fresh read: the flip is seen within this). */
export const MOVE_HOLD_POLL_MS = 2;

/** What the hold needs of the node's directory view (the sharded metastore provides it). */
export interface MoveSignals {
  /** The shard the namespace is moving away from, if the directory this node holds shows it moving (cached: no round trip). */
  moving(ns: NamespaceId): string | null;
  /** Re-reads the namespace's entry from the directory: whether the move flipped off `from` (or was undone). */
  settled(ns: NamespaceId, from: string): Promise<boolean>;
}

export interface HoldRefusal {
  status: 503;
  code: 'namespace_moving';
  message: string;
  retryAfterS: number;
}

export class MoveHold {
  private heldBytes = 0;
  /** Writes held now, and the longest hold so far (metrics, tests). */
  held = 0;
  longestMs = 0;

  constructor(
    private readonly signals: MoveSignals,
    private readonly limits: { maxMs: number; maxBytes: number } = { maxMs: MOVE_HOLD_MAX_MS, maxBytes: MOVE_HOLD_MAX_BYTES },
  ) {}

  /**
   * Resolves when a write of `bytes` to `ns` may go on (at once unless the namespace is
   * moving); rejects with a HoldRefusal past the bounds.
   */
  async admit(ns: NamespaceId, bytes: number): Promise<void> {
    const from = this.signals.moving(ns);
    if (from === null) return;
    if (this.heldBytes + bytes > this.limits.maxBytes) {
      throw refusal(`namespace ${ns} is moving and this node already holds ${this.heldBytes} bytes of writes for moves (at most ${this.limits.maxBytes}); retry shortly`);
    }
    const t0 = performance.now();
    this.heldBytes += bytes;
    this.held++;
    try {
      const deadline = t0 + this.limits.maxMs;
      for (;;) {
        if (await this.signals.settled(ns, from)) return;
        if (performance.now() + MOVE_HOLD_POLL_MS > deadline) {
          throw refusal(`namespace ${ns} is moving to another metastore shard and the move did not flip within ${this.limits.maxMs} ms; nothing was written, retry shortly`);
        }
        await new Promise((r) => setTimeout(r, MOVE_HOLD_POLL_MS));
      }
    } finally {
      this.heldBytes -= bytes;
      this.held--;
      this.longestMs = Math.max(this.longestMs, performance.now() - t0);
    }
  }
}

function refusal(message: string): HoldRefusal {
  return { status: 503, code: 'namespace_moving', message, retryAfterS: MOVE_HOLD_RETRY_AFTER_S };
}

export function isHoldRefusal(e: unknown): e is HoldRefusal {
  return typeof e === 'object' && e !== null && (e as HoldRefusal).code === 'namespace_moving' && (e as HoldRefusal).status === 503;
}

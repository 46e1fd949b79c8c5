// Gateway membership (spec §6): until the router places each bucket at its owner, every
// gateway enforces a rate quota ÷ the live gateways. A gateway renews its membership in the
// ControlStore every MEMBER_HEARTBEAT_MS and reads how many are alive.
import type { ControlStore } from '../control/types.js';
import type { Quotas } from './quota.js';

/** A gateway renews its membership this often… */
export const MEMBER_HEARTBEAT_MS = 2_000;
/** …and is counted this long after its last renewal (a few missed beats, then its share returns to the others). */
export const MEMBER_TTL_MS = 10_000;

export class GatewayMembership {
  private beating: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly control: ControlStore,
    private readonly node: string,
    private readonly quotas: Quotas,
    private readonly now: () => number,
    private readonly hooks: { gateways?: (n: number) => void; failed: (e: unknown) => void },
  ) {}

  /** Joins (one beat, waited for), then renews every MEMBER_HEARTBEAT_MS. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => void this.beat(), MEMBER_HEARTBEAT_MS);
    this.timer.unref();
  }

  /** Renews this gateway's membership and sizes the quota shares by the gateways alive. */
  beat(): Promise<void> {
    if (this.beating || this.closed) return this.beating ?? Promise.resolve();
    this.beating = (async () => {
      try {
        await this.control.heartbeat(this.node, MEMBER_TTL_MS, this.now());
        const live = await this.control.members(this.now());
        this.quotas.setGateways(live.length);
        this.hooks.gateways?.(this.quotas.gatewayCount);
      } catch (e) {
        // The shares stay as they were; a gateway that cannot beat keeps enforcing its last share.
        this.hooks.failed(e);
      } finally {
        this.beating = null;
      }
    })();
    return this.beating;
  }

  /** Stops beating and leaves at once, so the others take its share without waiting for the TTL. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.beating;
    await this.control.leave(this.node).catch(() => undefined);
  }
}

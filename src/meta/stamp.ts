// Bounded-skew stamps (spec §3.2): a proposer stamps each command with
// max(local clock, last observed stamp). No backend keeps a clock row.
import type { Stamp } from './types.js';

export class StampClock {
  private last = 0;
  constructor(private readonly now: () => number = Date.now) {}

  /** The stamp for the next command. */
  next(): Stamp {
    const s = Math.max(this.now(), this.last);
    this.last = s;
    return s;
  }

  /** Remember a stamp seen in a result, so later commands never go behind it. */
  observe(stamp: Stamp): void {
    if (stamp > this.last) this.last = stamp;
  }
}

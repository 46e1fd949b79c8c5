// Which manifests of a collection are retained (spec §3.3, D38), decided from the metastore's
// pointer history — the record createTag judges on too — never from a walk along the chain.
//
// The retained manifests are a suffix of the pointer's versions: every version superseded
// less than manifestRetentionMs ago, and the current one. Superseded stamps grow with the
// version (one applier at a time, bounded skew), so the oldest retained version, the floor,
// is found by a binary search over pointerVersion: at most MAX_FLOOR_PROBES point reads,
// whatever the length of the chain.
import { linkPointerKey } from '../meta/contract.js';
import { MAX_CLOCK_SKEW_MS } from '../meta/limits.js';
import type { Collection, Pointer } from '../meta/types.js';
import type { MetaStore } from '../meta/contract.js';

/** Point reads one floor search makes at most: enough for 2^60 versions. */
export const MAX_FLOOR_PROBES = 60;

export interface RetentionFloor {
  /** The oldest retained version: every version below it is past retention. */
  version: number;
  /** Its manifest. */
  path: string;
}

/**
 * The oldest retained version of a collection whose pointer is `pointer`, judged at the
 * clock `now` less the skew bound (spec §3.3), and less the skew once more so that a
 * version superseded out of stamp order (by at most the skew) is still found retained.
 */
export async function retentionFloor(meta: MetaStore, c: Collection, pointer: Pointer, now: number): Promise<RetentionFloor> {
  const key = linkPointerKey(c.linkId);
  const cutoff = now - 2 * MAX_CLOCK_SKEW_MS - c.manifestRetentionMs;
  // Invariant: `lo` is past retention (0: below the first version), `hi` is retained.
  let lo = 0;
  let hi = pointer.version;
  let hiPath = pointer.value;
  for (let probe = 0; hi - lo > 1; probe++) {
    if (probe >= MAX_FLOOR_PROBES) throw new Error(`retention floor of collection ${c.id}: no answer in ${MAX_FLOOR_PROBES} probes`);
    const mid = Math.floor((lo + hi) / 2);
    const v = await meta.pointerVersion(c.ns, key, mid);
    if (v !== null && (v.superseded === null || v.superseded >= cutoff)) {
      hi = mid;
      hiPath = v.value;
    } else {
      lo = mid;
    }
  }
  return { version: hi, path: hiPath };
}

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
import { isStoreError } from '../store/index.js';
import type { Manifest, Manifests } from '../collection/manifest.js';

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

/**
 * The retention floor whose manifest still exists. An erasure releases the manifests below
 * its purged version early (spec §9.2, overriding the retention), while the pointer's
 * history still names them: the floor then moves up to the oldest version whose manifest
 * loads. Missing manifests are always a prefix of the versions (the erasure and GC delete
 * only below a floor), so a binary search finds it: at most MAX_FLOOR_PROBES loads.
 */
export async function liveRetentionFloor(meta: MetaStore, manifests: Manifests, c: Collection, pointer: Pointer, now: number): Promise<RetentionFloor & { manifest: Manifest }> {
  const floor = await retentionFloor(meta, c, pointer, now);
  const tryLoad = async (path: string): Promise<Manifest | null> => {
    try {
      return await manifests.load(path);
    } catch (e) {
      if (isStoreError(e, 'NotFound')) return null;
      throw e;
    }
  };
  const first = await tryLoad(floor.path);
  if (first) return { ...floor, manifest: first };
  const key = linkPointerKey(c.linkId);
  // Invariant: `lo` is missing, `hi` loads (the current manifest always does).
  let lo = floor.version;
  let hi = { version: pointer.version, path: pointer.value, manifest: await manifests.load(pointer.value) };
  for (let probe = 0; hi.version - lo > 1; probe++) {
    if (probe >= MAX_FLOOR_PROBES) throw new Error(`live retention floor of collection ${c.id}: no answer in ${MAX_FLOOR_PROBES} probes`);
    const mid = Math.floor((lo + hi.version) / 2);
    const v = await meta.pointerVersion(c.ns, key, mid);
    const m = v ? await tryLoad(v.value) : null;
    if (v && m) hi = { version: mid, path: v.value, manifest: m };
    else lo = mid;
  }
  return hi;
}

// Which results carry stamps (spec §3.2.1): a proposer stamps each command with
// max(local clock, last observed stamp), so every stamp a result carries must advance the
// caller's clock (StampClock.observe). Listed per call, once; MetaClient applies it.
// A lease's deadline is not a command's stamp (it is stamp + ttl, in the future) and is not
// observed: observing it would push the caller's clock ahead by the lease's ttl.
import type { MetaStore } from '../contract.js';
import type { Stamp } from '../types.js';

type Stamped = { created?: unknown; stamp?: unknown; retired?: unknown; claim?: unknown; pointer?: unknown; collection?: unknown; stream?: unknown };

function own(v: unknown): Stamp {
  if (typeof v !== 'object' || v === null) return 0;
  const o = v as Stamped;
  let m = 0;
  for (const s of [o.created, o.stamp, o.retired]) if (typeof s === 'number' && s > m) m = s;
  return m;
}

/** The highest stamp in a result of `method`, or 0 when it carries none. */
export function maxStampIn(method: keyof MetaStore | string, result: unknown): Stamp {
  if (typeof result !== 'object' || result === null) return 0;
  const r = result as Stamped & { items?: unknown[]; changes?: unknown[] };
  switch (method) {
    case 'listNamespaces':
    case 'listCollections':
    case 'listStreams':
    case 'listTags':
    case 'retiredWalObjects':
      return Math.max(0, ...(r.items ?? []).map(own));
    case 'changesSince':
      return Math.max(0, ...(r.changes ?? []).map(own));
    case 'collectionHead':
      return Math.max(own(r.collection), own(r.pointer));
    case 'streamState':
      return own(r.stream);
    case 'objectRef':
      return own(r.claim);
    case 'pointerVersion': {
      const sup = (result as { superseded?: unknown }).superseded;
      return typeof sup === 'number' ? sup : 0;
    }
    case 'acquireLease':
    case 'renewLease':
    case 'lease':
    case 'commitWal':
    case 'partitionIndex':
    case 'swapSegment':
    case 'trimPartition':
    case 'janitor':
    case 'aliases':
    case 'updateAliases':
    case 'catalogVersion':
    case 'segmentReferenced':
      return 0;
    default:
      // Entities that carry their own stamp: namespaces, collections, streams, pointers, tags, claims.
      return own(result);
  }
}

// Object paths of the data plane. Every name carries its creation stamp, so GC can judge
// an object's age (the grace period, spec §3.2.4) from a listing, without a HEAD per object.
// Namespaced objects live under ns/<id>/ (spec §10); WAL objects are cluster-level (D25).
import { randomBytes } from 'node:crypto';

const pad = (n: number, w: number) => String(n).padStart(w, '0');
const rand = () => randomBytes(6).toString('hex');

export const WAL_PREFIX = 'wal/';

export function collectionPrefix(ns: number, collection: number): string {
  return `ns/${ns}/c/${collection}/`;
}

export function manifestPrefix(ns: number, collection: number): string {
  return `${collectionPrefix(ns, collection)}manifest/`;
}

export function dataPrefix(ns: number, collection: number): string {
  return `${collectionPrefix(ns, collection)}data/`;
}

/** One manifest per pointer version; the random part keeps racing appliers' attempts apart. */
export function manifestPath(ns: number, collection: number, version: number, stamp: number): string {
  return `${manifestPrefix(ns, collection)}${pad(version, 12)}-${pad(stamp, 14)}-${rand()}.json`;
}

export function dataPath(ns: number, collection: number, stamp: number): string {
  return `${dataPrefix(ns, collection)}${pad(stamp, 14)}-${rand()}.ldf`;
}

export function segmentPrefix(ns: number, stream: number): string {
  return `ns/${ns}/s/${stream}/`;
}

export function segmentPath(ns: number, stream: number, partition: number, start: number, end: number, stamp: number): string {
  return `${segmentPrefix(ns, stream)}p/${partition}/${pad(start, 16)}-${pad(end, 16)}-${pad(stamp, 14)}-${rand()}.seg`;
}

/** The creation stamp in a data-plane object's name, or null for a name we did not make. */
export function stampOf(path: string): number | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  if (path.startsWith(WAL_PREFIX)) {
    const m = /^(\d{14})-/.exec(base);
    return m ? Number(m[1]) : null;
  }
  if (path.endsWith('.json')) {
    const m = /^\d{12}-(\d{14})-/.exec(base);
    return m ? Number(m[1]) : null;
  }
  if (path.endsWith('.ldf')) {
    const m = /^(\d{14})-/.exec(base);
    return m ? Number(m[1]) : null;
  }
  if (path.endsWith('.seg')) {
    const m = /^\d{16}-\d{16}-(\d{14})-/.exec(base);
    return m ? Number(m[1]) : null;
  }
  return null;
}

/** The pointer version a manifest path was written for. */
export function manifestVersionOf(path: string): number | null {
  const m = /\/manifest\/(\d{12})-/.exec(path);
  return m ? Number(m[1]) : null;
}

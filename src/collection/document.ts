// What a document may hold, checked before anything is written: how deep it nests, that
// every number is one JSON can carry (a literal like 1e400 parses to Infinity, which
// JSON.stringify would silently store as null), and no key that JavaScript reads as an
// object's prototype ("__proto__", or "constructor" holding "prototype": the keys fastify's
// parser refuses, here named by path so the caller knows what to rename).
//
// The walk recurses only into values within the depth limit, so the call stack is bounded
// by maxDepth whatever the input; it keeps no frame per value (the path is built only for a
// problem), and stops at the first one (in document order), naming its path (`a.b[3].c`).

/** Nesting levels of one document (the document object is level 1); filters nest at most 16. */
export const MAX_DOC_DEPTH = 64;

export interface JsonProblem {
  /** Where, relative to the value walked: '' for the value itself, else `.a[3].b`. */
  path: string;
  why: string;
}

/** Path segment of an object key: `.key`, or `["…"]` for keys that are not plain identifiers. */
function seg(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * The first value of `root` nested deeper than `maxDepth` levels, a number that is not
 * finite or a prototype key, or null. Objects and arrays count one level each; `root` is level 1.
 */
export function checkJson(root: unknown, maxDepth: number): JsonProblem | null {
  const where: (string | number)[] = [];
  const why = walk(root, 1, maxDepth, where);
  if (why === null) return null;
  let path = '';
  for (let i = where.length - 1; i >= 0; i--) path += seg(where[i]!);
  return { path, why };
}

const NOT_FINITE = 'is a number JSON cannot carry exactly (beyond the double range, e.g. 1e400)';
const PROTOTYPE_KEY = 'is a key JavaScript reads as an object\'s prototype ("__proto__", or "constructor" holding "prototype"), which Loam refuses; rename the field';

/** The problem at or under `v` (at `depth`), or null; on a problem, `where` gets its path, innermost first. */
function walk(v: unknown, depth: number, maxDepth: number, where: (string | number)[]): string | null {
  if (typeof v === 'number') return Number.isFinite(v) ? null : NOT_FINITE;
  if (typeof v !== 'object' || v === null) return null;
  if (depth > maxDepth) return `nests deeper than ${maxDepth} levels`;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const why = walk(v[i], depth + 1, maxDepth, where);
      if (why !== null) {
        where.push(i);
        return why;
      }
    }
    return null;
  }
  for (const k of Object.keys(v)) {
    if (k === '__proto__' || (k === 'constructor' && holdsPrototype((v as Record<string, unknown>)[k]))) {
      where.push(k);
      return PROTOTYPE_KEY;
    }
    const why = walk((v as Record<string, unknown>)[k], depth + 1, maxDepth, where);
    if (why !== null) {
      where.push(k);
      return why;
    }
  }
  return null;
}

function holdsPrototype(v: unknown): boolean {
  return typeof v === 'object' && v !== null && Object.prototype.hasOwnProperty.call(v, 'prototype');
}

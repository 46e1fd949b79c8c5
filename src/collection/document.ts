// What a document may hold, checked before anything is written: how deep it nests and that
// every number is one JSON can carry (a literal like 1e400 parses to Infinity, which
// JSON.stringify would silently store as null).
//
// The walk is iterative with an explicit stack, so no input can overflow the call stack;
// it stops at the first problem and names its path (`a.b[3].c`).

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
 * The first value of `root` nested deeper than `maxDepth` levels or a number that is not
 * finite, or null. Objects and arrays count one level each; `root` is level 1.
 */
export function checkJson(root: unknown, maxDepth: number): JsonProblem | null {
  interface Frame {
    v: unknown;
    depth: number;
    parent: Frame | null;
    key: string | number;
  }
  const pathOf = (f: Frame): string => {
    const segs: string[] = [];
    for (let x: Frame | null = f; x && x.parent; x = x.parent) segs.push(seg(x.key));
    return segs.reverse().join('');
  };
  const stack: Frame[] = [{ v: root, depth: 1, parent: null, key: '' }];
  // Bounded by the number of values in the (already parsed) input.
  while (stack.length > 0) {
    const f = stack.pop()!;
    const v = f.v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { path: pathOf(f), why: 'is a number JSON cannot carry exactly (beyond the double range, e.g. 1e400)' };
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (f.depth > maxDepth) return { path: pathOf(f), why: `nests deeper than ${maxDepth} levels` };
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], depth: f.depth + 1, parent: f, key: i });
    } else {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) stack.push({ v: (v as Record<string, unknown>)[keys[i]!], depth: f.depth + 1, parent: f, key: keys[i]! });
    }
  }
  return null;
}

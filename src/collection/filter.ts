// Query filters on top-level fields (issue 5 §2).
//
//   filter     := { field: value }                      equality (value: string, number, boolean, null)
//              |  { field: { op: operand, … } }         $eq $ne $gt $gte $lt $lte (scalar), $in (array of scalars)
//              |  { "$and": [filter, …] } | { "$or": [filter, …] } | { "$not": filter }
//   Several keys in one object are ANDed.
//
// Fields are top-level names (no dots: nested paths are refused with a message) of
// FIELD_NAME_PATTERN, which takes every name a schema may hold. When the
// collection's schema declares a field's type, operands must have that type. Ranges compare
// numbers with numbers and strings with strings; a value of another type never matches.
//
// A string primary key is compared as the document's identity, the key's canonical string
// form (log/keys.ts): 7 and "7" name one document, so {"id": 7} and {"id": "7"} both find it,
// and ranges order it with the strings ("10" < "7", the order of query results).
import { dataErrors } from '../log/errors.js';
import { canonicalKey } from '../log/keys.js';
import { ownField } from '../meta/fields.js';
import { FIELD_NAME_PATTERN, FIELD_NAME_RULE } from '../meta/limits.js';
import type { CollectionSchema } from '../meta/types.js';

/**
 * Nodes in one filter: every filter object, every condition (shorthand `{field: value}`
 * included) and every operator. Each document is tested against every node, so this bounds
 * the work a query does per document.
 */
export const MAX_FILTER_NODES = 256;
export const MAX_FILTER_DEPTH = 16;
export const MAX_IN_VALUES = 1_000;

type Scalar = string | number | boolean | null;
type CmpOp = '$eq' | '$ne' | '$gt' | '$gte' | '$lt' | '$lte';
export type Filter =
  | { kind: 'and'; of: Filter[] }
  | { kind: 'or'; of: Filter[] }
  | { kind: 'not'; of: Filter }
  | { kind: 'cmp'; field: string; byKey: boolean; op: CmpOp; value: Scalar }
  // A set, so an $in costs one lookup per document, not one comparison per value.
  | { kind: 'in'; field: string; byKey: boolean; values: Set<Scalar> };

const CMP_OPS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte']);

function isScalar(v: unknown): v is Scalar {
  return v === null || typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
}

function typeName(v: unknown): string {
  return v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v;
}

export function parseFilter(raw: unknown, schema: CollectionSchema, at = 'filter'): Filter {
  const count = { n: 0 };
  return parse(raw, schema, at, 0, count);
}

/** Counts one node toward MAX_FILTER_NODES. */
function tick(count: { n: number }): void {
  if (++count.n > MAX_FILTER_NODES) throw dataErrors.invalid('filter', `has more than ${MAX_FILTER_NODES} conditions`);
}

function parse(raw: unknown, schema: CollectionSchema, at: string, depth: number, count: { n: number }): Filter {
  if (depth > MAX_FILTER_DEPTH) throw dataErrors.invalid(at, `nests deeper than ${MAX_FILTER_DEPTH} levels`);
  tick(count);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw dataErrors.invalid(at, `must be an object such as {"status": "active"} or {"$and": [...]}, got ${typeName(raw)}`);
  }
  const parts: Filter[] = [];
  for (const [k, v] of Object.entries(raw)) {
    const here = `${at}.${k}`;
    if (k === '$and' || k === '$or') {
      if (!Array.isArray(v) || v.length === 0) throw dataErrors.invalid(here, 'must be a non-empty array of filters');
      if (v.length > MAX_FILTER_NODES) throw dataErrors.invalid(here, `has more than ${MAX_FILTER_NODES} filters`);
      parts.push({ kind: k === '$and' ? 'and' : 'or', of: v.map((x, i) => parse(x, schema, `${here}[${i}]`, depth + 1, count)) });
    } else if (k === '$not') {
      parts.push({ kind: 'not', of: parse(v, schema, here, depth + 1, count) });
    } else if (k.startsWith('$')) {
      throw dataErrors.invalid(here, `unknown operator ${k}; logical operators are $and, $or, $not`);
    } else {
      parts.push(...fieldConditions(k, v, schema, here, count));
    }
  }
  if (parts.length === 0) return { kind: 'and', of: [] };
  return parts.length === 1 ? parts[0]! : { kind: 'and', of: parts };
}

function fieldConditions(field: string, v: unknown, schema: CollectionSchema, at: string, count: { n: number }): Filter[] {
  if (field.includes('.')) throw dataErrors.invalid(at, 'nested paths are not supported; filter on top-level fields');
  if (!FIELD_NAME_PATTERN.test(field)) throw dataErrors.invalid(at, `is not a field name a filter takes: ${FIELD_NAME_RULE}`);
  const declared = ownField(schema.fields, field);
  // A number key is compared as a number; a string key by its canonical form, which a write gives numbers too.
  const byKey = field === schema.primaryKey && declared !== 'number';
  /** The operand as compared: type-checked, and a key's canonical form. */
  const operand = (x: Scalar, where: string): Scalar => {
    if (x === null) return x;
    if (byKey) {
      if (typeof x === 'string') return x;
      if (typeof x !== 'number') throw dataErrors.invalid(where, `field "${field}" is the primary key, a string (or a number, by its string form); got ${typeName(x)}`);
      const k = canonicalKey(x);
      if (!k.ok) throw dataErrors.invalid(where, `a primary key value ${k.why}`);
      return k.key;
    }
    if (declared !== undefined && declared !== 'json' && typeof x !== declared) throw dataErrors.invalid(where, `field "${field}" is a ${declared}; got ${typeName(x)}`);
    return x;
  };
  if (isScalar(v)) {
    tick(count);
    return [{ kind: 'cmp', field, byKey, op: '$eq', value: operand(v, at) }];
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    throw dataErrors.invalid(at, `must be a scalar (equality) or an object of operators like {"$gte": 1}; got ${typeName(v)}`);
  }
  const out: Filter[] = [];
  for (const [op, x] of Object.entries(v)) {
    const here = `${at}.${op}`;
    tick(count);
    if (op === '$in') {
      if (!Array.isArray(x)) throw dataErrors.invalid(here, `must be an array of values, got ${typeName(x)}`);
      if (x.length > MAX_IN_VALUES) throw dataErrors.invalid(here, `has more than ${MAX_IN_VALUES} values`);
      const values = x.map((y: unknown, i) => {
        if (!isScalar(y)) throw dataErrors.invalid(`${here}[${i}]`, `must be a string, number, boolean or null; got ${typeName(y)}`);
        return operand(y, `${here}[${i}]`);
      });
      out.push({ kind: 'in', field, byKey, values: new Set(values) });
    } else if (CMP_OPS.has(op)) {
      if (!isScalar(x)) throw dataErrors.invalid(here, `must be a string, number, boolean or null; got ${typeName(x)}`);
      if (op !== '$eq' && op !== '$ne' && typeof x !== 'number' && typeof x !== 'string') {
        throw dataErrors.invalid(here, `a range needs a number or a string; got ${typeName(x)}`);
      }
      out.push({ kind: 'cmp', field, byKey, op: op as CmpOp, value: operand(x, here) });
    } else {
      throw dataErrors.invalid(here, `unknown operator; use one of $eq $ne $gt $gte $lt $lte $in`);
    }
  }
  if (out.length === 0) throw dataErrors.invalid(at, 'has no operator');
  return out;
}

function eq(a: unknown, b: Scalar): boolean {
  return a === b || (b === null && a === undefined);
}

/** Whether `doc`, whose canonical key is `key`, matches the filter. */
export function matches(f: Filter, doc: Record<string, unknown>, key: string): boolean {
  switch (f.kind) {
    case 'and':
      return f.of.every((x) => matches(x, doc, key));
    case 'or':
      return f.of.some((x) => matches(x, doc, key));
    case 'not':
      return !matches(f.of, doc, key);
    case 'in': {
      const v = f.byKey ? key : ownField(doc, f.field);
      // As eq: === (Set's SameValueZero differs only for NaN, which JSON cannot carry), and null matches a missing field.
      return f.values.has(v as Scalar) || (v === undefined && f.values.has(null));
    }
    case 'cmp': {
      const v = f.byKey ? key : ownField(doc, f.field);
      switch (f.op) {
        case '$eq':
          return eq(v, f.value);
        case '$ne':
          return !eq(v, f.value);
        default: {
          if (typeof v !== typeof f.value || (typeof v !== 'number' && typeof v !== 'string')) return false;
          const a = v as number | string;
          const b = f.value as number | string;
          return f.op === '$gt' ? a > b : f.op === '$gte' ? a >= b : f.op === '$lt' ? a < b : a <= b;
        }
      }
    }
  }
}

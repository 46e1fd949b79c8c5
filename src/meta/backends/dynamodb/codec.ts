// Attribute values of the DynamoDB backend. Items hold only strings, numbers, booleans and
// nulls; structured values (schemas, alias maps, assigned ranges, recent request ids) are
// JSON strings, so one small codec covers every item and its size is easy to bound.
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type Scalar = string | number | boolean | null;
export type Item = Record<string, Scalar>;
export type Wire = Record<string, AttributeValue>;

export function av(v: Scalar): AttributeValue {
  if (v === null) return { NULL: true };
  switch (typeof v) {
    case 'string':
      return { S: v };
    case 'number':
      if (!Number.isFinite(v)) throw new Error(`dynamodb codec: ${v} is not a finite number`);
      return { N: String(v) };
    case 'boolean':
      return { BOOL: v };
    default:
      throw new Error(`dynamodb codec: unsupported value of type ${typeof v}`);
  }
}

export function marshal(item: Item): Wire {
  const out: Wire = {};
  for (const [k, v] of Object.entries(item)) if (v !== undefined) out[k] = av(v);
  return out;
}

export function unmarshalValue(a: AttributeValue): Scalar {
  if (a.S !== undefined) return a.S;
  if (a.N !== undefined) {
    const n = Number(a.N);
    if (!Number.isSafeInteger(n)) throw new Error(`dynamodb codec: number ${a.N} is not a safe integer`);
    return n;
  }
  if (a.BOOL !== undefined) return a.BOOL;
  if (a.NULL !== undefined) return null;
  throw new Error(`dynamodb codec: unsupported attribute ${JSON.stringify(a)}`);
}

export function unmarshal(w: Wire | undefined): Item | undefined {
  if (!w) return undefined;
  const out: Item = {};
  for (const [k, v] of Object.entries(w)) out[k] = unmarshalValue(v);
  return out;
}

/** Expression attribute values from plain scalars: { ':v': 1 } → { ':v': { N: '1' } }. */
export function values(vals: Record<string, Scalar>): Wire {
  return marshal(vals);
}

// ---- sizes (DynamoDB's item size rules, spec §2.3: 400 KB per item, 4 MB per transaction)

function valueSize(a: AttributeValue): number {
  if (a.S !== undefined) return Buffer.byteLength(a.S, 'utf8');
  // Numbers: about one byte per two significant digits, plus one.
  if (a.N !== undefined) return Math.ceil(a.N.replace(/^-/, '').length / 2) + 1;
  if (a.BOOL !== undefined || a.NULL !== undefined) return 1;
  if (a.B !== undefined) return a.B.byteLength;
  if (a.L !== undefined) return 3 + a.L.reduce((n, x) => n + 1 + valueSize(x), 0);
  if (a.M !== undefined) return 3 + Object.entries(a.M).reduce((n, [k, x]) => n + 1 + Buffer.byteLength(k) + valueSize(x), 0);
  return 0;
}

/** The size DynamoDB charges for an item: names plus values. */
export function wireSize(w: Wire): number {
  let n = 0;
  for (const [k, v] of Object.entries(w)) n += Buffer.byteLength(k, 'utf8') + valueSize(v);
  return n;
}

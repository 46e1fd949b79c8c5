// Plain values ↔ DynamoDB attribute maps, for the control side's item kinds (the ControlStore's
// `ctl#` items, the directory's `dir#` items, the cluster registry's `cp#` items): every
// attribute they store is a string, a number or null, so one flat mapping serves them all
// (S, N, NULL).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

export type V = string | number | null;
export type Obj = Record<string, V>;

/** Sort keys that order as numbers: versions and sequence numbers, zero-padded to 16 digits. */
export const P16 = (x: number) => String(x).padStart(16, '0');

export function enc(o: Obj): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const [k, v] of Object.entries(o)) out[k] = v === null ? { NULL: true } : typeof v === 'number' ? { N: String(v) } : { S: v };
  return out;
}

export function dec(w: Record<string, AttributeValue>): Obj;
export function dec(w: Record<string, AttributeValue> | undefined): Obj | undefined;
export function dec(w: Record<string, AttributeValue> | undefined): Obj | undefined {
  if (!w) return undefined;
  const out: Obj = {};
  for (const [k, a] of Object.entries(w)) out[k] = a.S !== undefined ? a.S : a.N !== undefined ? Number(a.N) : null;
  return out;
}

/** A nullable number attribute (absent reads as null). */
export const num = (v: V | undefined): number | null => (v === null || v === undefined ? null : Number(v));

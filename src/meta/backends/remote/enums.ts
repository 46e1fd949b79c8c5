// TypeScript string unions ↔ proto enums, mechanically (loam_remote.proto's header): the enum
// value is the string in upper snake case behind the enum's prefix ('multi-item' →
// TRANSACTIONS_MULTI_ITEM, 'namespace.created' → CHANGE_KIND_NAMESPACE_CREATED).
import { errors } from '../../errors.js';

export interface EnumCodec<T extends string, W extends string> {
  readonly values: readonly T[];
  toWire(v: T): W;
  fromWire(w: W | number, field: string): T;
}

export function wireName(prefix: string, value: string): string {
  return `${prefix}_${value.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/[-.]/g, '_').toUpperCase()}`;
}

/** A codec over every value of a union: `values` must list them all (the proto test checks both ways). */
export function enumCodec<T extends string, W extends string>(prefix: string, values: readonly T[]): EnumCodec<T, W> {
  const to = new Map(values.map((v) => [v, wireName(prefix, v) as W]));
  const from = new Map([...to].map(([v, w]) => [w as string, v]));
  return {
    values,
    toWire(v) {
      const w = to.get(v);
      if (w === undefined) throw errors.invalid(prefix.toLowerCase(), `must be one of ${values.join(', ')}; got ${JSON.stringify(v)}`);
      return w;
    },
    fromWire(w, field) {
      const v = typeof w === 'string' ? from.get(w) : undefined;
      if (v === undefined) throw errors.invalid(field, `must be one of ${values.join(', ')} (got the wire value ${JSON.stringify(w)})`);
      return v;
    },
  };
}

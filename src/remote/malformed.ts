// A request the server cannot decode (spec §8, "Bad input"). grpc-js ends such a call
// INTERNAL "Error deserializing request": a server defect's status, naming nothing to fix.
// Each method's deserializer is wrapped (tolerant) to hand its handler a Malformed instead,
// which the handler refuses — after the caller is authenticated, like any other refusal — with
// InvalidArgument naming the message and the decoder's reason. Nothing of it is applied.
import type * as grpc from '@grpc/grpc-js';
import { MetaError } from '../meta/errors.js';

/** The decoder's reason, cut to this many characters (it may quote the caller's bytes). */
const MAX_REASON_CHARS = 200;

export class Malformed {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {}

  error(): MetaError {
    return new MetaError(
      'InvalidArgument',
      `request: not a valid message for ${this.path} (${this.reason}); nothing was applied: send a message encoded from loam_remote.proto`,
      { field: 'request' },
    );
  }
}

export const isMalformed = (x: unknown): x is Malformed => x instanceof Malformed;

/** The service with every method's request decoder returning a Malformed instead of throwing. */
export function tolerant<S extends grpc.ServiceDefinition>(service: S): S {
  const out: Record<string, grpc.MethodDefinition<unknown, unknown>> = {};
  for (const [name, def] of Object.entries(service as grpc.ServiceDefinition)) {
    const decode = def.requestDeserialize;
    out[name] = {
      ...def,
      requestDeserialize: (bytes: Buffer) => {
        try {
          return decode(bytes);
        } catch (e) {
          return new Malformed(def.path, String((e as Error)?.message ?? e).slice(0, MAX_REASON_CHARS));
        }
      },
    };
  }
  return out as unknown as S;
}

// The client's one error type. A server answer other than 2xx becomes a LoamError carrying
// the server's `{"error":{"code","message"}}` unchanged: the client validates nothing the
// server validates (one source of truth), it only reports what the server said.

/** Codes the client itself uses when there is no server answer to report. */
export const CLIENT_ERROR_CODES = {
  /** The connection failed (refused, reset, DNS): `cause` holds the network error. */
  unreachable: 'unreachable',
  /** No answer within the client's `timeoutMs`. */
  timeout: 'timeout',
  /** The server answered something that is not Loam's JSON error (a proxy's page, say). */
  badResponse: 'bad_response',
} as const;

export class LoamError extends Error {
  override readonly name = 'LoamError';
  constructor(
    /** The server's error code (`not_found`, `invalid_argument`, …) or one of CLIENT_ERROR_CODES. */
    readonly code: string,
    /** The HTTP status; 0 when no answer arrived. */
    readonly status: number,
    /** The server's message, unchanged. */
    message: string,
    readonly details: {
      /** Seconds the server asked to wait (Retry-After), when it said. */
      retryAfterS?: number;
      /** Attempts made, retries included. */
      attempts?: number;
      /** The request, as `METHOD /path`. */
      request?: string;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

export function isLoamError(e: unknown, code?: string): e is LoamError {
  return e instanceof LoamError && (code === undefined || e.code === code);
}

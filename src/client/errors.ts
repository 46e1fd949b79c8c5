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
      /** With status 0: true when the connection was never made (refused, host not found), so the server cannot have acted on it. */
      notSent?: boolean;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
  }
}

export function isLoamError(e: unknown, code?: string): e is LoamError {
  return e instanceof LoamError && (code === undefined || e.code === code);
}

/**
 * Whether a request that changes something (a write, a create, a delete) may have been applied
 * although it failed. No: the server refused it (a 4xx, nothing done), or it never reached the
 * server. Maybe: it was sent and no answer came (connection reset, timeout), the server failed
 * (5xx: the commit may have been applied before the answer was lost), or a 2xx came that is
 * not Loam's. Writes carry no idempotency key, so a "maybe" is for a read to settle.
 */
export function mayHaveBeenApplied(e: LoamError): boolean {
  if (e.status === 0) return e.details.notSent !== true;
  return e.status < 400 || e.status >= 500;
}

// Refusals of authentication, authorization, quotas and key operations (spec §6, §7). The
// gateway answers each with its HTTP status and `{ error: { code, message } }`; callers match
// on `code`, never on message text.

export const AUTHZ_ERROR_STATUS = {
  /** Bad input to a key or org operation: the message names the field to fix. */
  invalid_argument: 400,
  /** No key, or a malformed, unknown, revoked or expired one. */
  unauthenticated: 401,
  /** The key may not do this here. */
  forbidden: 403,
  /** A quota is used up for now: retry after `retryAfterS`. */
  quota_exceeded: 429,
  /** The authorizer could not decide (its server is unreachable): refused, retry after `retryAfterS`. */
  unavailable: 503,
} as const;

export type AuthzErrorCode = keyof typeof AUTHZ_ERROR_STATUS;

export class AuthzError extends Error {
  constructor(
    readonly code: AuthzErrorCode,
    message: string,
    readonly details: {
      /** For refusals: why, as a metric label (the quota's name, the action, the key failure). */
      reason?: string;
      retryAfterS?: number;
    } = {},
  ) {
    super(message);
    this.name = `AuthzError(${code})`;
  }

  get status(): (typeof AUTHZ_ERROR_STATUS)[AuthzErrorCode] {
    return AUTHZ_ERROR_STATUS[this.code];
  }
}

export function isAuthzError(e: unknown, code?: AuthzErrorCode): e is AuthzError {
  return e instanceof AuthzError && (code === undefined || e.code === code);
}

import type { FieldError } from '../domain/index.js';

/**
 * The catalog of API failures: each code has its HTTP status and message, mapped to the
 * `{"status": "NG", "message", "errors"}` body by the one error handler (docs/reference/conventions.md,
 * Failure body and Status codes).
 */
export const API_ERRORS = {
  invalid_input: { status: 400, message: 'the request is invalid' },
  missing_api_key: {
    status: 401,
    message: 'an API key is required in the x-mf-apikey header',
  },
  invalid_api_key: { status: 401, message: 'the API key is not valid' },
  wrong_tenant: {
    status: 403,
    message: 'the API key does not belong to this contract and service group',
  },
  invalid_signature: {
    status: 403,
    message: 'the download link is invalid or has expired',
  },
  forbidden_origin: {
    status: 403,
    message: 'this origin may not use this search service',
  },
  invalid_credentials: { status: 401, message: 'the email address or the password is not right' },
  session_expired: {
    status: 401,
    message: 'the session has ended (signed out, expired or revoked); sign in again',
  },
  forbidden: { status: 403, message: 'your role does not allow this' },
  csrf_rejected: {
    status: 403,
    message: 'a change made with a session needs its x-kumo-csrf-token header and a same-origin Origin',
  },
  not_found: { status: 404, message: 'no such resource' },
  invalid_admin_token: {
    status: 401,
    message: 'a valid management token is required: Authorization: Bearer <KUMO_ADMIN_TOKEN>',
  },
  method_not_allowed: {
    status: 405,
    message: 'method not allowed for this resource',
  },
  not_acceptable: {
    status: 406,
    message: 'this resource answers only with application/json',
  },
  conflict: { status: 409, message: 'the resource is busy' },
  gone: {
    status: 410,
    message: 'the file was removed by the retention policy',
  },
  payload_too_large: { status: 413, message: 'the request body is too large' },
  unsupported_media_type: {
    status: 415,
    message: 'the request body must be application/json',
  },
  rate_limited: { status: 429, message: 'too many requests' },
  internal: { status: 500, message: 'internal server error; retry later' },
  unavailable: {
    status: 503,
    message: 'service temporarily unavailable; retry later',
  },
} as const;

export type ApiErrorCode = keyof typeof API_ERRORS;

export class ApiError extends Error {
  override name = 'ApiError';
  readonly statusCode: number;

  constructor(
    readonly code: ApiErrorCode,
    message?: string,
    readonly errors?: readonly FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? API_ERRORS[code].message);
    this.statusCode = API_ERRORS[code].status;
  }
}

/** The NG body every failure answers with. */
export interface NgBody {
  status: 'NG';
  message: string;
  errors?: FieldError[];
}

export function ngBody(message: string, errors?: readonly FieldError[]): NgBody {
  return errors && errors.length > 0
    ? { status: 'NG', message, errors: [...errors] }
    : { status: 'NG', message };
}

// The one JSON error shape of the API: { error: { code, message } }.
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';

export type ErrorCode =
  | 'bad_request'
  | 'unauthorized'
  | 'forbidden'
  | 'phone_unverified'
  | 'phone_blocked'
  | 'not_found'
  | 'conflict'
  // A coupon that does not apply (issue 25): each reason its own code, so a client can tell them apart.
  | 'coupon_unknown'
  | 'coupon_expired'
  | 'coupon_below_minimum'
  | 'coupon_used'
  | 'unprocessable'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'payload_too_large'
  | 'internal'
  | 'unavailable'
  // Too much of one dear kind of work at once (password hashes, issue 32): try again shortly, as Retry-After says.
  | 'busy';

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  /** Sent as Retry-After (a 429 or 503 thrown where no request is at hand to set the header on). */
  readonly retryAfterSeconds: number | undefined;
  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export const notFound = (message: string) => new ApiError(404, 'not_found', message);
export const badRequest = (message: string) => new ApiError(400, 'bad_request', message);
export const unauthorized = (message: string) => new ApiError(401, 'unauthorized', message);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);

export function errorBody(code: ErrorCode, message: string) {
  return { error: { code, message } };
}

export function sendError(c: Context, status: ContentfulStatusCode, code: ErrorCode, message: string) {
  return c.json(errorBody(code, message), status);
}

/** What a request whose address has a broken %-escape (`%zz`, half a UTF-8 character) is told. */
export const MALFORMED_URL_MESSAGE = 'The address has a broken %-escape. Please check the link.';

/** Whether a request's path and query can be decoded: a broken %-escape cannot. */
export function isWellEncoded(pathAndQuery: string): boolean {
  try {
    decodeURI(pathAndQuery);
    return true;
  } catch {
    return false;
  }
}

/** Connection errors of pg (Node's socket codes) and PostgreSQL's classes 08 (connection exception) and 57P
 * (operator intervention: shutting down, starting up). */
const UNREACHABLE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENETUNREACH|EPIPE|EAI_AGAIN|ENOTFOUND|08...|57P0[1-3])$/;
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|not queryable|Connection refused/i;

/**
 * Whether a failure is the database being out of reach (stopped, restarting, the network down) rather than a fault
 * of the request: the API answers it 503 with Retry-After, and the next request tries again. Drizzle wraps the
 * driver's error in `cause`.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.test(code)) return true;
    if (UNREACHABLE_MESSAGES.test(e.message)) return true;
    if (e instanceof AggregateError && e.errors.some((inner) => isDatabaseUnreachable(inner))) return true;
  }
  return false;
}

/** Seconds a client is told to wait when the database is out of reach (it is tried again on the next request). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

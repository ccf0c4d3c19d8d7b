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
  | 'unprocessable'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'payload_too_large'
  | 'internal'
  | 'unavailable';

export class ApiError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ErrorCode;
  constructor(status: ContentfulStatusCode, code: ErrorCode, message: string) {
    super(message);
    this.status = status;
    this.code = code;
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

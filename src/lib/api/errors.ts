// Reading what went wrong with an API call: 'the API is down' (503 for shoppers) versus a real fault (500), and
// the one reader of the API's `{ error: { code, message } }` body that every form and island uses.
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';

export function isApiUnavailable(error: unknown): boolean {
  if (isNetworkError(error) || isTimeoutError(error)) return true;
  return isHTTPError(error) && [502, 503, 504].includes(error.response.status);
}

export interface ApiErrorBody {
  code: string;
  message: string;
}

/** The API's error body of a failed ky call (ky has already read it into `error.data`), or null. */
export function apiError(error: unknown): ApiErrorBody | null {
  if (!isHTTPError(error)) return null;
  const body = error.data as { error?: Partial<ApiErrorBody> } | undefined;
  const code = body?.error?.code;
  const message = body?.error?.message;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
}

/** The HTTP status of a failed call, or 0 when the API was never reached. */
export function apiStatus(error: unknown): number {
  return isHTTPError(error) ? error.response.status : 0;
}

/** A sentence for the shopper: the API's own message, or `fallback` (with a hint when the network failed). */
export function apiErrorMessage(error: unknown, fallback: string): string {
  const body = apiError(error);
  // The API's messages are written for shoppers (a 429's already says when to try again).
  if (body) return body.message;
  if (isNetworkError(error) || isTimeoutError(error)) return `${fallback} Check your connection and try again.`;
  return fallback;
}

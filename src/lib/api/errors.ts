// Reading what went wrong with an API call: "the API is down" (503 for shoppers) vs a real fault (500), and the
// message of a refusal.
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';

export function isApiUnavailable(error: unknown): boolean {
  if (isNetworkError(error) || isTimeoutError(error)) return true;
  return isHTTPError(error) && [502, 503, 504].includes(error.response.status);
}


/**
 * The one reader of the API's `{ error: { code, message } }` body: the message to show a shopper for a failed
 * call, or `fallback` when the error carries none (a network failure, a body that is not ours). ky 2 has already
 * read an HTTPError's body into `error.data`, so this needs no await.
 */
export function apiErrorMessage(error: unknown, fallback: string): string {
  if (!isHTTPError(error)) return fallback;
  // data is JSON, text or undefined; optional chaining reads any of them safely.
  const message = (error.data as { error?: { message?: unknown } } | null | undefined)?.error?.message;
  return typeof message === 'string' && message ? message : fallback;
}

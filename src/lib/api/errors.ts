// Telling 'the API is down' (503 for shoppers) from a real fault (500).
import { isHTTPError, isNetworkError, isTimeoutError } from 'ky';

export function isApiUnavailable(error: unknown): boolean {
  if (isNetworkError(error) || isTimeoutError(error)) return true;
  return isHTTPError(error) && [502, 503, 504].includes(error.response.status);
}


// Where browsers reach the API. Kept apart from the ky client so small page scripts can use it alone.

/** The absolute API base, ending in '/': PUBLIC_API_URL (absolute or relative to the page's origin), or same-origin /api/. */
export function resolveApiBaseUrl(publicApiUrl: string | undefined, origin: string): string {
  const base = publicApiUrl?.trim() || '/api/';
  return new URL(base.replace(/\/?$/, '/'), origin).href;
}

/** The API base for code running in the browser. */
export function apiBaseUrl(): string {
  return resolveApiBaseUrl(import.meta.env.PUBLIC_API_URL, window.location.origin);
}

// Where the storefront's /api pass-through sends a request when API_URL names the API host.

/**
 * The API host's URL for an /api route path: each segment decoded and re-encoded, dot segments refused,
 * and the result required to stay under API_URL, so a crafted path (`//other-host/…`, `../`) cannot make
 * the storefront fetch anything else. Null when the path is not one the API can have.
 */
export function upstreamUrl(apiUrl: string, path: string | undefined, search: string): URL | null {
  const base = new URL(apiUrl.replace(/\/?$/, '/'));
  let segments: string[];
  try {
    segments = (path ?? '').split('/').filter(Boolean).map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  if (segments.some((s) => s === '.' || s === '..')) return null;
  const target = new URL(segments.map(encodeURIComponent).join('/') + search, base);
  return target.origin === base.origin && target.pathname.startsWith(base.pathname) ? target : null;
}

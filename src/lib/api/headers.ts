// Headers shared by the API and whatever embeds it.

/** Catalogue answers (API JSON and pages) are the same for every visitor (auth lives in the browser), so a CDN and
 * the page cache in front of the shop (src/http/page-cache.ts) may share them for a minute. */
export const CATALOGUE_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/** The shopper's address, set by the embedding server (the Astro route, the standalone API) from the socket,
 * never taken from the client. Used for rate limits. */
export const CLIENT_IP_HEADER = 'x-kirana-client-ip';

/** Seconds a response may be shared for, or 0 when it must not be kept. */
export function shareableSeconds(cacheControl: string | undefined): number {
  if (!cacheControl) return 0;
  const directives = cacheControl.toLowerCase().split(',').map((d) => d.trim());
  if (!directives.includes('public') || directives.some((d) => d === 'private' || d === 'no-store' || d === 'no-cache')) return 0;
  const maxAge = directives.find((d) => d.startsWith('max-age='));
  const seconds = maxAge ? Number.parseInt(maxAge.slice(8), 10) : 0;
  return Number.isFinite(seconds) && seconds > 0 ? seconds : 0;
}

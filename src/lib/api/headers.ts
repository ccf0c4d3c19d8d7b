// Headers shared by the API and whatever embeds it.

/** The shopper's address, set by the embedding server (the Astro route, the standalone API) from the socket,
 * never taken from the client. Used for rate limits. */
export const CLIENT_IP_HEADER = 'x-kirana-client-ip';

/** Set by a successful write on its response: the pages (path and query) it changed, which the page cache in
 * front of the shop (scripts/lib/page-cache.ts) then forgets. Never reaches the browser. */
export const CHANGED_PAGES_HEADER = 'x-kirana-changed-pages';

export function changedPagesHeader(pages: readonly string[]): Record<string, string> {
  return { [CHANGED_PAGES_HEADER]: pages.join(' ') };
}

// What every catalogue page does with its response: cache headers that let a CDN, and the page cache in
// front of the server (src/http/page-cache.ts), share it.
import type { AstroGlobal } from 'astro';
import { CATALOGUE_CACHE_CONTROL } from '../api/headers.ts';

/** Catalogue HTML is the same for every visitor (auth lives in the browser), so it may be shared. */
export function cacheCataloguePage(astro: AstroGlobal) {
  astro.response.headers.set('Cache-Control', CATALOGUE_CACHE_CONTROL);
}

/** A page that lists nothing or finds nothing answers 404 but still renders (SPEC §2 'No Products found'). */
export function notFoundStatus(astro: AstroGlobal) {
  astro.response.status = 404;
  astro.response.headers.set('Cache-Control', 'public, max-age=60');
}

// What the service worker (src/service-worker/sw.ts) keeps for a shopper offline, and the names the pages share with
// it (issue 26). Catalogue pages are the same for every visitor (auth lives in the browser), so they may be kept;
// account pages, the cart, checkout, orders and every /api answer but pictures never are.

export const PAGES_CACHE = 'kirana-pages';
export const PICTURES_CACHE = 'kirana-pictures';
/** Small flags between the worker and the pages: "a new version took over" (read once, then deleted). */
export const META_CACHE = 'kirana-meta';
export const UPDATED_MARK = '/__kirana/updated';

/** The page a navigation gets offline when nothing saved answers it (pre-rendered, precached). */
export const OFFLINE_PATH = '/offline';
/** When a saved page was fetched, added by the worker as it stores it: epoch milliseconds. */
export const SAVED_AT_HEADER = 'x-kirana-saved-at';

/** Bounds of the two runtime caches: a phone's storage is small and a week-old price is old enough. */
export const PAGES_LIMIT = { maxEntries: 60, maxAgeSeconds: 7 * 24 * 3600 };
export const PICTURES_LIMIT = { maxEntries: 200, maxAgeSeconds: 30 * 24 * 3600 };

/**
 * Online, a kept page is asked of the network first; the saved copy answers when the network has not within this many
 * seconds (a slow or dead connection the phone still calls online). The slow-phone profile (400 ms, 400 kbit/s) brings
 * a 15 KB product page in about 1 s.
 */
export const PAGE_NETWORK_TIMEOUT_SECONDS = 3;

/** Messages between the pages and the worker. */
export const SAVE_PAGE_MESSAGE = 'kirana-save-page';
export const SKIP_WAITING_MESSAGE = 'kirana-skip-waiting';

/** Server-rendered catalogue pages; the pre-rendered content pages are added by the build (src/integrations). */
export const CATALOGUE_PATHS: readonly string[] = [
  '/',
  '/home',
  '/shop',
  '/search',
  '/product-detail',
  '/product',
  '/productsection',
  '/categories',
  '/brands',
  '/contact',
];

/** Pages that belong to a shopper's account, cart or orders: never kept, even when pre-rendered. */
export const ACCOUNT_PATHS: readonly string[] = [
  '/cart',
  '/checkout',
  '/wishlist',
  '/myaccount',
  '/orderdetails',
  '/previous-order',
  '/OrderComplete',
  '/invoice',
  '/login',
  '/register',
  '/forgotpassword',
  '/reset-password',
  '/deliver-to',
  OFFLINE_PATH,
];

const withoutSlash = (pathname: string) => (pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname);

/**
 * The back office (issue 34) and its API: private to a signed-in member, answered no-store; the worker never keeps,
 * nor even handles, them (the browser's own fetch does, as if there were no worker).
 */
export function isBackOffice(pathname: string): boolean {
  return /^\/manage(?:\/|$)/.test(pathname) || /^\/api\/grocer(?:\/|$)/i.test(pathname);
}

/** Whether a page at `pathname` may be kept: a catalogue or content page, never an account one. */
export function isKeptPage(pathname: string, contentPaths: readonly string[]): boolean {
  const path = withoutSlash(pathname);
  if (ACCOUNT_PATHS.includes(path) || path.startsWith('/api/') || isBackOffice(path)) return false;
  return CATALOGUE_PATHS.includes(path) || contentPaths.includes(path);
}

/** Product pictures and the shop's own images and icons: the only /api answers ever kept are pictures. */
export function isPicture(pathname: string): boolean {
  return pathname.startsWith('/api/images/') || pathname.startsWith('/images/') || pathname.startsWith('/icons/');
}

/**
 * Whether an answer may go in a cache the worker keeps: a 200 (not a redirect, say to the sign-in page) that the
 * server did not mark private or no-store. A pre-rendered page's `max-age=0` may be kept: it is only not fresh.
 */
export function isKeepableAnswer(response: { status: number; redirected?: boolean; headers: { get(name: string): string | null } }): boolean {
  if (response.status !== 200 || response.redirected) return false;
  return !/\b(private|no-store)\b/i.test(response.headers.get('cache-control') ?? '');
}

/** '26 Nov 2026, 1:05 am', in the phone's own time zone. */
export function formatSavedAt(savedAt: number): string {
  return new Intl.DateTimeFormat('en-IN', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(savedAt));
}

// ?page=N as shoppers and crawlers see it (1-based) against the API's pageNo (0-based).
import { positiveIdFrom } from './ids.ts';

/** Default page sizes of the API's listings, which pages and islands ask for too. */
export const PAGE_SIZES = { brands: 16, categories: 24, products: 24, orders: 10 } as const;

/**
 * Related products on a product page: 5, to keep the page's HTML under DESIGN.md's 15 KB on the wire (each card is
 * about 180–270 bytes of it, issue 24's facts included; issue 26's early scripts took what 8 left); a phone swipes them
 * in one row, a 1366 px screen shows them in one row without a card alone on a second. Fewer pictures on a slow phone.
 */
export const RELATED_ON_PRODUCT_PAGE = 5;

/**
 * Product pages in one sitemap file (/sitemap-products-N.xml). The protocol allows 50,000; 10,000 keeps a file near
 * 0.7 MB (about 70 bytes a URL, far less compressed), under the page cache's 1 MB entry, so a crawler on a slow link
 * gets it whole and the server renders it rarely, while 500,000 products still need only 50 files in the index.
 */
export const SITEMAP_PRODUCTS_PER_FILE = 10_000;

/** How many product files of the sitemap `total` products fill. */
export const sitemapFileCount = (total: number, perFile = SITEMAP_PRODUCTS_PER_FILE) => Math.ceil(total / perFile);

/** The sitemap protocol's most URLs in one file, and the most product ids one call of the API gives. */
export const MAX_SITEMAP_URLS = 50_000;

/** The largest skip of the product ids call (PostgreSQL's integer, as the ids are): past it no file can be. */
export const MAX_PRODUCT_ID_SKIP = 2_147_483_647;

/** The most orders one page of Order Tracking may ask for. */
export const MAX_ORDER_PAGE_SIZE = 50;

/** The API's largest pageNo: a page number past it names no page, however large the catalogue. */
export const MAX_PAGE_NO = 10_000;

/**
 * The page number of a URL: 1 when it names none; null when it names a page that cannot exist (not a whole
 * number from 1, or past the API's last pageNo), which the page shows as 'No Products found'.
 */
export function pageFromUrl(url: URL, param = 'page'): number | null {
  const raw = url.searchParams.get(param);
  if (!raw) return 1;
  const page = positiveIdFrom(raw);
  return page !== null && page <= MAX_PAGE_NO + 1 ? page : null;
}

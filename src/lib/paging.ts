// ?page=N as shoppers and crawlers see it (1-based) against the API's pageNo (0-based).
import { positiveIdFrom } from './ids.ts';

/** Default page sizes of the API's listings, which pages and islands ask for too. */
export const PAGE_SIZES = { brands: 16, categories: 24, products: 24, orders: 10 } as const;

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

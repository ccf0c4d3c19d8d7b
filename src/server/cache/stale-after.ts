// What each write makes stale, said once (as vercel/commerce declares its cache tags beside its fetchers). A cached
// answer or page carries the tags of what it shows; a write names the tags it changed, and every cache (the API's read
// cache, the page cache, in this process and, over the invalidation bus, in the others) drops the entries they touch.

/** Anything showing product `id`: its page, a card of it in any listing, its JSON. */
export function productTag(id: number): string {
  return `product:${id}`;
}

/** Which products a listing, search, suggestion, category, brand or home page holds, their count and their order. */
export const LISTINGS_TAG = 'listings';

/**
 * Everything the catalogue shows (brands, categories, the sitemap): an entry whose content only an import changes
 * carries this alone. As a stale tag it matches every entry, whatever its tags.
 */
export const CATALOGUE_TAG = 'catalogue';

/** The tags of an answer or page that lists `productIds` (a listing, a search, the home page). */
export function listingTags(productIds: Iterable<number>): string[] {
  return [LISTINGS_TAG, ...Array.from(productIds, productTag)];
}

/** Per write, the tags it makes stale. */
export const staleAfter = {
  /** A review changes its product's stars and count, on its page and on its cards; no listing orders by them. */
  reviewAdded: (productId: number): string[] => [productTag(productId)],
  /**
   * Stock changed (an order placed or cancelled, a grocer's status change): the products' pages and cards, and the
   * listings, which put what is in stock first and may filter on it.
   */
  shelfChanged: (productIds: readonly number[]): string[] => [LISTINGS_TAG, ...productIds.map(productTag)],
  /**
   * An order delivered: its shopper's reviews of its products now read 'Certified buyer' (issue 24), on those products'
   * pages. Stock is unchanged (it left the shelf when the order was placed), so no listing changes.
   */
  orderDelivered: (productIds: readonly number[]): string[] => productIds.map(productTag),
  /**
   * The back office changed a product's pack (price, MRP, stock) or its facts (hot, food type): its page and cards,
   * and the listings, which order by price, put what is in stock first, filter by food type and show the hot ones.
   */
  productEdited: (productId: number): string[] => [LISTINGS_TAG, productTag(productId)],
  /** An import may add, remove or change any product, brand or category. */
  catalogueImported: (): string[] => [CATALOGUE_TAG],
};

/**
 * A test of entries against the tags a write made stale: 'all' and the catalogue tag match every entry. Made once per
 * invalidation, as a cache tests each of its entries with it.
 */
export function staleTest(staleTags: readonly string[] | 'all'): (entryTags: Iterable<string>) => boolean {
  if (staleTags === 'all' || staleTags.includes(CATALOGUE_TAG)) return () => true;
  if (staleTags.length === 0) return () => false;
  const stale = new Set(staleTags);
  return (entryTags) => {
    for (const tag of entryTags) if (stale.has(tag)) return true;
    return false;
  };
}

/** Whether an entry carrying `entryTags` is stale after a write that made `staleTags` stale. */
export function isStaleBy(entryTags: Iterable<string>, staleTags: readonly string[] | 'all'): boolean {
  return staleTest(staleTags)(entryTags);
}

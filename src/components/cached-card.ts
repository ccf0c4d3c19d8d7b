// Product cards, each rendered once and then kept (src/lib/server/fragment-cache.ts): the same product shows on its
// category's listing, in search results and in the related rows of its neighbours.
import { cachedComponent, FragmentCache } from '../lib/server/fragment-cache.ts';
import type { Product } from '../lib/api/types.ts';
import ProductCard from './ProductCard.astro';

/** A card is about 3 KB of HTML: some thousands of the most recently shown. */
const fragments = new FragmentCache(48 * 1024 * 1024);

interface ProductCardProps extends Record<string, unknown> {
  product: Product;
  eager?: boolean;
  priority?: boolean;
  heading?: 'h2' | 'h3' | 'h4';
  inRail?: boolean;
  /** This page's path and query: the wishlist heart's sign-in comes back to it. */
  pageAddress: string;
}

/** Keyed by the product as the API gave it: a change of price, stock, name or picture is another card. */
export const CachedProductCard = cachedComponent<ProductCardProps>('ProductCard', ProductCard, {
  key: ({ product, eager, priority, heading, inRail }) => JSON.stringify([product, eager, priority, heading, inRail]),
  pageAddress: ({ pageAddress }) => pageAddress,
  cache: fragments,
});

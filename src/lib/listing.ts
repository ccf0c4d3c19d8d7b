// Sort and filters of a product listing (/shop, /search, and the API's listings): the words of the URL, said once for
// the pages, the links, the API's query schema and the query that applies them.
import { FOOD_TYPES, type FoodType } from './food-type.ts';
import { positiveIdFrom } from './ids.ts';

/** How a listing may be ordered. 'relevance' is the listing's own order: a search's best match first, a brand's or a
 * category's products on the shelf first then by name, the hot products in the grocer's order. */
export const LISTING_SORTS = ['relevance', 'popular', 'price-asc', 'price-desc', 'discount'] as const;
export type ListingSort = (typeof LISTING_SORTS)[number];

/**
 * Price bands in whole rupees, as shoppers think of prices (the URL says `price=100-250`): from the lower bound
 * (included) to the upper (not included); the last has no upper bound. The product's own price is compared (a product
 * sold in pack sizes: its first pack's).
 */
export const PRICE_BANDS = [
  { id: '0-100', minPaise: 0, maxPaise: 10_000 },
  { id: '100-250', minPaise: 10_000, maxPaise: 25_000 },
  { id: '250-500', minPaise: 25_000, maxPaise: 50_000 },
  { id: '500-', minPaise: 50_000, maxPaise: null },
] as const;
export type PriceBandId = (typeof PRICE_BANDS)[number]['id'];
export const PRICE_BAND_IDS = PRICE_BANDS.map((b) => b.id) as [PriceBandId, ...PriceBandId[]];

/** The most brands one listing may be filtered by: more would be a long URL and a slow query for nothing. */
export const MAX_BRAND_FILTERS = 10;

/**
 * A listing's sort and filters. Only what differs from the plain listing is present, in one order (brands sorted,
 * once each): the read cache keys on it, and its URL is the same however it was reached.
 */
export interface ListingRefinement {
  sort?: Exclude<ListingSort, 'relevance'>;
  brandIds?: number[];
  food?: FoodType;
  inStock?: true;
  price?: PriceBandId;
}

/** A listing that may be sorted and filtered: what the facets call names. */
export type ListingTarget =
  | { type: 'hot' }
  | { type: 'brand'; id: number }
  | { type: 'category'; id: string }
  | { type: 'search'; text: string };

/** The names of the URL's parameters (the API's query takes the same). */
export const LISTING_PARAMS = { sort: 'sort', brand: 'brand', food: 'food', inStock: 'instock', price: 'price' } as const;

const isOneOf = <T extends string>(values: readonly T[], value: unknown): value is T =>
  typeof value === 'string' && (values as readonly string[]).includes(value);

/** A sort and filters as they are asked for, before refinement() puts them in their canonical form. */
export interface RefinementInput {
  sort?: ListingSort;
  brandIds?: readonly number[];
  food?: FoodType;
  inStock?: boolean;
  price?: PriceBandId;
}

/** The canonical form of a refinement; undefined when it changes nothing (the plain listing). */
export function refinement(r: RefinementInput): ListingRefinement | undefined {
  const out: ListingRefinement = {};
  if (r.sort && r.sort !== 'relevance') out.sort = r.sort;
  const brandIds = [...new Set(r.brandIds ?? [])].sort((a, b) => a - b);
  if (brandIds.length > 0) out.brandIds = brandIds;
  if (r.food) out.food = r.food;
  if (r.inStock) out.inStock = true;
  if (r.price) out.price = r.price;
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * The sort and filters a page's URL asks for. A value the shop does not know is left out (the page shows the listing
 * without it), as are brands past MAX_BRAND_FILTERS.
 */
export function refinementFromParams(params: URLSearchParams): ListingRefinement | undefined {
  const sort = params.get(LISTING_PARAMS.sort);
  const food = params.get(LISTING_PARAMS.food);
  const price = params.get(LISTING_PARAMS.price);
  const brandIds = params
    .getAll(LISTING_PARAMS.brand)
    .flatMap((raw) => positiveIdFrom(raw) ?? [])
    .slice(0, MAX_BRAND_FILTERS);
  return refinement({
    sort: isOneOf(LISTING_SORTS, sort) ? sort : undefined,
    brandIds,
    food: isOneOf(FOOD_TYPES, food) ? food : undefined,
    inStock: params.get(LISTING_PARAMS.inStock) === '1',
    price: isOneOf(PRICE_BAND_IDS, price) ? price : undefined,
  });
}

/** Whether the URL names any sort or filter (known or not): such a page is not the listing crawlers should index. */
export const asksForRefinement = (params: URLSearchParams) => Object.values(LISTING_PARAMS).some((name) => params.has(name));

/** A refinement as URL parameters, always in the same order. */
export function refinementParams(r: ListingRefinement | undefined): [string, string][] {
  if (!r) return [];
  const out: [string, string][] = [];
  if (r.sort) out.push([LISTING_PARAMS.sort, r.sort]);
  for (const id of r.brandIds ?? []) out.push([LISTING_PARAMS.brand, String(id)]);
  if (r.food) out.push([LISTING_PARAMS.food, r.food]);
  if (r.inStock) out.push([LISTING_PARAMS.inStock, '1']);
  if (r.price) out.push([LISTING_PARAMS.price, r.price]);
  return out;
}

/** The refinement with `change` applied, canonical again (undefined when nothing is left). */
export function refined(r: ListingRefinement | undefined, change: RefinementInput) {
  return refinement({ ...r, ...change });
}

/** The brands filter with `brandId` added, or taken out when it is in. */
export function toggledBrand(r: ListingRefinement | undefined, brandId: number): ListingRefinement | undefined {
  const ids = r?.brandIds ?? [];
  return refined(r, { brandIds: ids.includes(brandId) ? ids.filter((id) => id !== brandId) : [...ids, brandId] });
}

/** The same listing without its filters, its sort kept. */
export const withoutFilters = (r: ListingRefinement | undefined) => refinement({ sort: r?.sort });

export const hasFilters = (r: ListingRefinement | undefined) =>
  Boolean(r && (r.brandIds?.length || r.food || r.inStock || r.price));

export const priceBandOf = (id: PriceBandId) => PRICE_BANDS.find((b) => b.id === id)!;

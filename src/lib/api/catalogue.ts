// Typed catalogue calls over a ky instance: the same code runs in pages (server) and islands (browser).
import type { KyInstance } from 'ky';
import { isHTTPError } from 'ky';
import { LISTING_PARAMS, refinementParams, type ListingRefinement, type ListingTarget } from '../listing.ts';
import { PAGE_SIZES } from '../paging.ts';
import type { Brand, Category, ListingFacets, Product, ProductSeo, Review, SearchHelp, Suggestion } from './types.ts';

export interface ProductPage {
  products: Product[];
  total: number;
}

export interface CategoryPage {
  categories: Category[];
  total: number;
}

/** Items across all pages, from a listing's X-Total-Count. */
const totalCount = (res: Response) => Number(res.headers.get('x-total-count') ?? 0);

/** The API does not know (404) or refuses (400) what was asked for: a page shows it as not found, never as a crash. */
function isNothingThere(error: unknown): boolean {
  return isHTTPError(error) && (error.response.status === 404 || error.response.status === 400);
}

/** A listing page, sorted and filtered by `refine`; an empty listing is a 404 from the API and an empty page here. */
async function productPage(
  api: KyInstance,
  path: string,
  pageNo: number,
  pageSize: number = PAGE_SIZES.products,
  refine?: ListingRefinement,
): Promise<ProductPage> {
  try {
    const searchParams = new URLSearchParams([['pageNo', String(pageNo)], ['pageSize', String(pageSize)], ...refinementParams(refine)]);
    const res = await api.get(path, { searchParams });
    return { products: await res.json<Product[]>(), total: totalCount(res) };
  } catch (error) {
    if (isNothingThere(error)) return { products: [], total: 0 };
    throw error;
  }
}

async function orNull<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isNothingThere(error)) return null;
    throw error;
  }
}

export function catalogue(api: KyInstance) {
  return {
    hotProducts: (pageNo = 0, refine?: ListingRefinement) =>
      productPage(api, 'app/Products/LoadProductsByPriorityTag', pageNo, undefined, refine),
    brandProducts: (brandId: number, pageNo = 0, refine?: ListingRefinement) =>
      productPage(api, `app/Products/LoadProductsByBrand/${brandId}`, pageNo, undefined, refine),
    categoryProducts: (categoryId: string, pageNo = 0, pageSize?: number, refine?: ListingRefinement) =>
      productPage(api, `app/Products/LoadProductsByCategory/${encodeURIComponent(categoryId)}`, pageNo, pageSize, refine),
    searchResults: (text: string, pageNo = 0, refine?: ListingRefinement) =>
      productPage(api, `app/Products/SearchResults/${encodeURIComponent(text)}`, pageNo, undefined, refine),
    /** What the listing's filters offer with `refine`'s other filters applied; null when the API refuses the listing. */
    listingFacets: (listing: ListingTarget, refine?: ListingRefinement): Promise<ListingFacets | null> => {
      const own: [string, string][] =
        listing.type === 'hot' ? [] : listing.type === 'search' ? [['name', listing.text]] : [['id', String(listing.id)]];
      // The sort changes no count.
      const filters = refinementParams(refine).filter(([name]) => name !== LISTING_PARAMS.sort);
      const searchParams = new URLSearchParams([['type', listing.type], ...own, ...filters]);
      return orNull(api.get('app/Products/ListingFacets', { searchParams }).json<ListingFacets>());
    },
    relatedProducts: (productId: number, pageSize?: number) =>
      productPage(api, `app/Products/LoadRelatedProducts/${productId}`, 0, pageSize),
    product: (id: number) => orNull(api.get(`app/Products/${id}`).json<Product>()),
    productSeo: (id: number) => orNull(api.get(`app/ProductSEOs/${id}`).json<ProductSeo>()),
    reviews: (id: number) => api.get(`Reviews/${id}`).json<Review[]>(),
    brands: (skip = 0, take: number = PAGE_SIZES.brands) =>
      api.get('app/Brands/LoadBrandsByPriority', { searchParams: { skip, take } }).json<Brand[]>(),
    categories: async (pageNo = 0, pageSize: number = PAGE_SIZES.categories): Promise<CategoryPage> => {
      const res = await api.get('app/Categories/LoadCategoriesByPriority', { searchParams: { pageNo, pageSize } });
      return { categories: await res.json<Category[]>(), total: totalCount(res) };
    },
    /** Product ids in id order, `take` after `skip` (the sitemap), and how many products there are. */
    productIds: async (skip: number, take: number): Promise<{ ids: number[]; total: number }> => {
      const res = await api.get('app/Products/Ids', { searchParams: { skip, take } });
      return { ids: await res.json<number[]>(), total: totalCount(res) };
    },
    suggestions: (text: string, options: { signal?: AbortSignal } = {}) =>
      api.get(`app/Products/SearchProducts/${encodeURIComponent(text)}`, options).json<Suggestion[]>(),
    /** How a search was read and the categories nearest to it: what a search that found nothing offers. */
    searchHelp: (text: string) => api.get(`app/Products/SearchHelp/${encodeURIComponent(text)}`).json<SearchHelp>(),
  };
}

export type Catalogue = ReturnType<typeof catalogue>;

// What a server-rendered page gets from the shop (Astro.locals.shop, given by scripts/serve.ts for each request, or by
// src/middleware.ts in `astro dev`): the catalogue read in process, typed, with no JSON between the page and the
// services; a client for the forms a page posts on a shopper's behalf; the shop's origin. With API_URL, the same
// shape over HTTP to that API host.
import type { TaggedCache } from './cache/tagged-cache.ts';
import ky, { type KyInstance } from 'ky';
import { catalogue as httpCatalogue, type Catalogue } from '../lib/api/catalogue.ts';
import { PAGE_SIZES } from '../lib/paging.ts';
import { refinement, type ListingRefinement, type ListingTarget } from '../lib/listing.ts';
import type { CatalogueReads } from './catalogue-reads.ts';
import { CategoryIdParam, ProductPagingQuery, SearchTextParam } from './schemas.ts';
import type { ListingFilter, Page } from './services/catalogue.ts';
import type { ProductDto } from './schemas.ts';

export interface Storefront {
  catalogue: Catalogue;
  /** The API as a page posts a shopper's form to it (a review, a contact message): in process, or API_URL's host. */
  api: KyInstance;
  /** The shop's public origin: SITE_URL, else where this server listens. */
  origin: URL;
  /** Pieces of pages rendered once (src/components/KeptPiece.astro), dropped by the bus as the read cache is. */
  keptPieces: TaggedCache<string>;
  /** The shopper's address as the rate limits count it (TRUST_PROXY: what our proxy forwarded). */
  shopperAddress(forwardedFor: string | null | undefined, socketAddress: string | undefined): string;
  /** An /api request, answered by the API of this process or passed to API_URL's host. */
  handleApi(request: Request, clientAddress: string): Promise<Response>;
  /** Whether a page's failed read means the shop is out of reach for now (the page answers 503, not 500). */
  isUnavailable(error: unknown): boolean;
}

const EMPTY = { products: [], total: 0 };

/** A listing as pages take it: an empty page (past the end, or asked wrongly) is empty, as the API's 404 and 400 are. */
async function listing(pageNo: number, pageSize: number | undefined, load: (pageNo: number, pageSize: number) => Promise<Page<ProductDto>>) {
  const paging = ProductPagingQuery.safeParse({ pageNo, pageSize });
  if (!paging.success) return EMPTY;
  const page = await load(paging.data.pageNo, paging.data.pageSize);
  return page.items.length === 0 ? EMPTY : { products: page.items, total: page.total };
}

const validId = (id: number) => Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
const validText = (text: string) => SearchTextParam.safeParse({ text }).success;

/** A sort and filters in the one form the read cache keys on (as the API's routes make it). */
const canonical = (refine: ListingRefinement | undefined) => (refine ? refinement(refine) : undefined);

/** The listing a page names, with its sort and filters; null when it names none (the API's 400). */
function listingFilter(target: ListingTarget, refine: ListingRefinement | undefined): ListingFilter | null {
  switch (target.type) {
    case 'hot':
      return { kind: 'hot', refine: canonical(refine) };
    case 'brand':
      return validId(target.id) ? { kind: 'brand', brandId: target.id, refine: canonical(refine) } : null;
    case 'category':
      return CategoryIdParam.safeParse({ categoryId: target.id }).success
        ? { kind: 'category', categoryId: target.id, refine: canonical(refine) }
        : null;
    case 'search':
      return validText(target.text) ? { kind: 'search', text: target.text, refine: canonical(refine) } : null;
  }
}

/** The catalogue of pages, read through `reads` in process: what the API's routes answer, without the JSON. */
export function inProcessCatalogue(reads: CatalogueReads): Catalogue {
  const listed = (target: ListingTarget, refine: ListingRefinement | undefined, pageNo: number, pageSize?: number) => {
    const filter = listingFilter(target, refine);
    return filter ? listing(pageNo, pageSize, (n, size) => reads.products(filter, n, size)) : Promise.resolve(EMPTY);
  };
  return {
    hotProducts: (pageNo = 0, refine) => listed({ type: 'hot' }, refine, pageNo),
    brandProducts: (brandId, pageNo = 0, refine) => listed({ type: 'brand', id: brandId }, refine, pageNo),
    categoryProducts: (categoryId, pageNo = 0, pageSize, refine) => listed({ type: 'category', id: categoryId }, refine, pageNo, pageSize),
    searchResults: (text, pageNo = 0, refine) => listed({ type: 'search', text }, refine, pageNo),
    listingFacets: async (target, refine) => {
      const filter = listingFilter(target, refine);
      return filter ? reads.facets(filter) : null;
    },
    relatedProducts: (productId, pageSize) =>
      validId(productId) ? listing(0, pageSize, (n, size) => reads.products({ kind: 'related', productId }, n, size)) : Promise.resolve(EMPTY),
    product: async (id) => (validId(id) ? ((await reads.product(id)) ?? null) : null),
    productSeo: async (id) => (validId(id) ? ((await reads.productSeo(id)) ?? null) : null),
    reviews: async (id) => (validId(id) ? reads.reviews(id) : []),
    brands: (skip = 0, take = PAGE_SIZES.brands) => reads.brands(skip, take),
    categories: async (pageNo = 0, pageSize: number = PAGE_SIZES.categories) => {
      const page = await reads.categories(pageNo, pageSize);
      return { categories: page.items, total: page.total };
    },
    productIds: async (skip, take) => {
      const page = await reads.productIds(skip, take);
      return { ids: page.items, total: page.total };
    },
    suggestions: async (text) => (validText(text) ? reads.suggestions(text) : []),
    searchHelp: async (text) => (validText(text) ? reads.searchHelp(text) : { understood: [], categories: [] }),
  };
}

/** The catalogue of a storefront whose API is another host (API_URL): the browser's typed calls, server-side. */
export function remoteCatalogue(api: KyInstance): Catalogue {
  return httpCatalogue(api);
}

/** A ky client of the API: `fetchApi` answers (the app in process, or the network to API_URL). */
export function apiClient(baseUrl: string, fetchApi: typeof fetch): KyInstance {
  return ky.create({
    baseUrl: baseUrl.replace(/\/?$/, '/'),
    timeout: 10_000,
    // ky's default codes but 503: the API says its database is out of reach, and waiting its Retry-After would hold the
    // shopper past the 3 s in which the 503 page is due (SPEC's friendly 503: src/middleware.ts).
    retry: { limit: 1, methods: ['get'], statusCodes: [408, 413, 429, 500, 502, 504] },
    fetch: fetchApi,
  });
}

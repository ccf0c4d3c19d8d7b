// The catalogue's reads, remembered: one read cache that the API's routes and the server-rendered pages share
// (src/server/storefront.ts). Each answer is kept with the tags of what it shows (src/server/cache/stale-after.ts), and a
// write anywhere (this process or, over the invalidation bus, another) forgets the answers it made stale. A caller may
// pass a set that collects the tags of everything it read: a page's render, so the page cache knows what it shows.
import type { Database } from './db/client.ts';
import type { BrandDto, CategoryDto, ListingFacetsDto, ProductDto, ProductSeoDto, ReviewDto, SearchHelpDto, SuggestionDto, VariantDto } from './schemas.ts';
import {
  findBrand,
  findCategory,
  findProduct,
  findProductSeo,
  listingFacets,
  listProducts,
  loadBrands,
  loadCategories,
  productExists,
  productIdPage,
  rankSearch,
  suggest,
  variantsOf,
  type ListingFilter,
  type Page,
  type ProductFilter,
  type SearchRanking,
} from './services/catalogue.ts';
import { reviewsOf } from './services/reviews.ts';
import { searchHelp } from './services/search-help.ts';
import { LISTINGS_TAG, listingTags, productTag } from './cache/stale-after.ts';
import type { TaggedCache } from './cache/tagged-cache.ts';

export interface CatalogueReads {
  products(filter: ProductFilter, pageNo: number, pageSize: number): Promise<Page<ProductDto>>;
  /** What a listing's filters offer, with counts (which change with stock, so they are a listing's). */
  facets(filter: ListingFilter): Promise<ListingFacetsDto>;
  product(id: number): Promise<ProductDto | undefined>;
  productSeo(id: number): Promise<ProductSeoDto | undefined>;
  variants(id: number): Promise<VariantDto[] | undefined>;
  productExists(id: number): Promise<boolean>;
  reviews(id: number): Promise<ReviewDto[]>;
  brands(skip: number, take: number): Promise<BrandDto[]>;
  brand(id: number): Promise<BrandDto | undefined>;
  categories(pageNo: number, pageSize: number): Promise<Page<CategoryDto>>;
  category(id: string): ReturnType<typeof findCategory>;
  productIds(skip: number, take: number): Promise<Page<number>>;
  suggestions(text: string): Promise<SuggestionDto[]>;
  /** How a search was read and its nearest categories (a search that found nothing). */
  searchHelp(text: string): Promise<SearchHelpDto>;
}

/** What a listing's answer shows: which products it holds (LISTINGS_TAG) and each of them. */
const pageTags = (page: Page<ProductDto>) => [LISTINGS_TAG, ...page.items.map((p) => productTag(p.id))];

/**
 * The reads on `db` (or the database it resolves to: the shop's opens on first use), through `cache` when there is one. `reads(tags)` gives the same reads, adding the tags of each
 * answer to `tags` as it is read (from the database or the cache).
 */
export function catalogueReads(database: Database | (() => Promise<Database>), cache: TaggedCache<object> | undefined) {
  const opened = async () => (typeof database === 'function' ? database() : database);
  return (collected?: Set<string>): CatalogueReads => {
    /** `load`'s answer for `key`, from the cache or read now; `tagsOf` says what the answer shows. */
    const read = async <T>(key: string, load: () => Promise<T>, tagsOf: (value: T) => string[]): Promise<T> => {
      const kept = cache?.get(key) as { value: T; tags: string[] } | undefined;
      if (kept) {
        if (collected) for (const tag of kept.tags) collected.add(tag);
        return kept.value;
      }
      const mark = cache?.mark() ?? 0;
      const value = await load();
      const tags = tagsOf(value);
      if (collected) for (const tag of tags) collected.add(tag);
      cache?.set(key, { value, tags }, tags, mark);
      return value;
    };
    const ofProduct = (id: number) => () => [productTag(id)];
    const listing = () => [LISTINGS_TAG];
    // A search page's listing and its facets rank the same words: once per render (a page's reads, which collect
    // tags), even with the read cache off. The API's reads serve every request: a request never joins another's.
    const rankings = collected ? new Map<string, Promise<SearchRanking>>() : undefined;
    const rank = (text: string) => {
      let ranking = rankings?.get(text);
      if (!ranking) {
        ranking = read(`ranking ${text}`, async () => rankSearch(await opened())(text), listing);
        rankings?.set(text, ranking);
      }
      return ranking;
    };
    return {
      products: (filter, pageNo, pageSize) =>
        read(`products ${JSON.stringify(filter)} ${pageNo} ${pageSize}`, async () => listProducts(await opened(), filter, pageNo, pageSize, rankings && rank), pageTags),
      facets: (filter) => read(`facets ${JSON.stringify(filter)}`, async () => listingFacets(await opened(), filter, rank), listing),
      product: (id) => read(`product ${id}`, async () => findProduct(await opened(), id), ofProduct(id)),
      productSeo: (id) => read(`seo ${id}`, async () => findProductSeo(await opened(), id), ofProduct(id)),
      variants: (id) => read(`variants ${id}`, async () => variantsOf(await opened(), id), ofProduct(id)),
      productExists: (id) => read(`exists ${id}`, async () => productExists(await opened(), id), ofProduct(id)),
      reviews: (id) => read(`reviews ${id}`, async () => reviewsOf(await opened(), id), ofProduct(id)),
      brands: (skip, take) => read(`brands ${skip} ${take}`, async () => loadBrands(await opened(), skip, take), listing),
      brand: (id) => read(`brand ${id}`, async () => findBrand(await opened(), id), listing),
      categories: (pageNo, pageSize) => read(`categories ${pageNo} ${pageSize}`, async () => loadCategories(await opened(), pageNo, pageSize), listing),
      category: (id) => read(`category ${id}`, async () => findCategory(await opened(), id), listing),
      productIds: (skip, take) => read(`ids ${skip} ${take}`, async () => productIdPage(await opened(), skip, take), listing),
      // A product's suggestion shows its price and picture: it is stale when the product changes, as its card is.
      suggestions: (text) =>
        read(`suggest ${text}`, async () => suggest(await opened(), text), (found) =>
          listingTags(found.flatMap((s) => (s.type === 'products' ? [Number(s.id)] : []))),
        ),
      searchHelp: (text) => read(`search help ${text}`, async () => searchHelp(await opened(), text), listing),
    };
  };
}

// Catalogue reads: brands, categories, products and their listings. Prices leave here as paise and rupees.
import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { brands, categories, orderLines, orders, products, productSeo } from '../db/schema.ts';
import type { BrandDto, CategoryDto, ListingFacetsDto, ProductDto, ProductSeoDto, VariantDto } from '../schemas.ts';
import type { FoodType } from '../../lib/food-type.ts';
import { unitPrice } from '../../lib/unit-price.ts';
import { PRICE_BANDS, priceBandOf, type ListingRefinement, type PriceBandId } from '../../lib/listing.ts';
import { searchProductIds } from './search.ts';

export { suggest } from './search.ts';

export const rupees = (paise: number) => paise / 100;
export const categoryImageUrl = (categoryId: string) => `/api/images/categories/${categoryId}.svg`;

export interface Page<T> {
  items: T[];
  total: number;
}

export async function loadBrands(db: Database, skip: number, take: number): Promise<BrandDto[]> {
  return db
    .select({ id: brands.id, name: brands.name })
    .from(brands)
    .orderBy(asc(brands.priority), asc(brands.name), asc(brands.id))
    .offset(skip)
    .limit(take);
}

export async function findBrand(db: Database, id: number): Promise<BrandDto | undefined> {
  const [row] = await db.select({ id: brands.id, name: brands.name }).from(brands).where(eq(brands.id, id));
  return row;
}

/** A page of categories and how many there are in all (X-Total-Count, like the product listings). */
/** What a category's tile shows: its name, picture and how many products it holds. */
export const categoryColumns = {
  id: categories.id,
  name: categories.name,
  imageUrl: categories.imageUrl,
  // Spelled out: drizzle leaves columns unqualified in a one-table select, which would make this ambiguous.
  count: sql<number>`(select count(*)::int from products p where p.category_id = categories.id)`,
};

/** A row of categoryColumns as the API gives it: a category without a picture of its own gets its drawn tile. */
export const toCategoryDto = ({ imageUrl, id, name, count }: { id: string; name: string; imageUrl: string | null; count: number }): CategoryDto => ({
  id,
  name,
  count,
  image: imageUrl ?? categoryImageUrl(id),
});

export async function loadCategories(db: Database, pageNo: number, pageSize: number): Promise<Page<CategoryDto>> {
  const rows = await db
    .select({ ...categoryColumns, total: sql<number>`(select count(*)::int from categories)` })
    .from(categories)
    .orderBy(asc(categories.priority), asc(categories.name))
    .offset(pageNo * pageSize)
    .limit(pageSize);
  const items = rows.map(toCategoryDto);
  if (rows[0]) return { items, total: rows[0].total };
  // A page past the end has no rows to carry the total: counted apart, only then.
  const [counted] = await db.select({ total: count() }).from(categories);
  return { items, total: counted?.total ?? 0 };
}

export async function findCategory(db: Database, id: string) {
  const [row] = await db
    .select({ id: categories.id, name: categories.name, colour: categories.colour })
    .from(categories)
    .where(eq(categories.id, id));
  return row;
}

/** The listings a shopper may sort and filter (`refine`: src/lib/listing.ts; absent for the plain listing). */
export type ListingFilter =
  | { kind: 'hot'; refine?: ListingRefinement }
  | { kind: 'brand'; brandId: number; refine?: ListingRefinement }
  | { kind: 'category'; categoryId: string; refine?: ListingRefinement }
  | { kind: 'search'; text: string; refine?: ListingRefinement };

export type ProductFilter = ListingFilter | { kind: 'related'; productId: number } | { kind: 'ids'; ids: number[] };

/** A sorted or filtered search: the products it finds, best first (see listProducts). */
type RankedFilter = { kind: 'ranked'; ids: number[]; refine?: ListingRefinement };
/** What one listing query reads: anything but a plain search, whose ranking query reads its own page. */
type ListedFilter = Exclude<ProductFilter, { kind: 'search' }> | RankedFilter;

/** The products a listing counts, apart from those it reads (see listProducts). */
const counted = alias(products, 'counted');
/** The products whose facets are counted, and those counted by brand (see listingFacets). */
const faceted = alias(products, 'faceted');
const facetedByBrand = alias(products, 'faceted_by_brand');
type ProductsTable = typeof products | typeof counted | typeof faceted | typeof facetedByBrand;

/**
 * The most products a search sorts or filters: its best matches, in rank order. Past them a search's matches are
 * typo corrections and aisle-mates; ranking and re-reading thousands would cost every such page for nothing.
 */
export const REFINED_SEARCH_LIMIT = 1_000;

/** A search's best matches (at most REFINED_SEARCH_LIMIT), best first, and how many it finds in all. */
export type SearchRanking = { ids: number[]; total: number };
/**
 * Ranks a search. A search page lists, sorts and counts facets from one ranking: a caller may pass one that remembers
 * (src/server/catalogue-reads.ts), since ranking is most of a search's cost.
 */
export type RankSearch = (text: string) => Promise<SearchRanking>;
export const rankSearch =
  (db: Database): RankSearch =>
  (text) =>
    searchProductIds(db, text, 0, REFINED_SEARCH_LIMIT);

/** An id list as one PostgreSQL int[] parameter (not a parameter per id). */
const intArray = (ids: readonly number[]) => sql`${`{${ids.map((id) => Math.trunc(id)).join(',')}}`}::int[]`;

function filterWhere(filter: ProductFilter | RankedFilter, table: ProductsTable = products): SQL | undefined {
  switch (filter.kind) {
    case 'hot':
      return isNotNull(table.priorityTag);
    case 'brand':
      return eq(table.brandId, filter.brandId);
    case 'category':
      return eq(table.categoryId, filter.categoryId);
    case 'search':
      throw new Error('a search lists its ids (searchProductIds), see listProducts');
    case 'related':
      // The category is looked up in the same query: related products need no read of the product first.
      return and(
        sql`${table.categoryId} = (select p.category_id from products p where p.id = ${filter.productId})`,
        sql`${table.id} <> ${filter.productId}`,
      );
    case 'ids':
      return inArray(table.id, filter.ids);
    case 'ranked':
      return sql`${table.id} = any(${intArray(filter.ids)})`;
  }
}

/** A filter of the listings, apart from its sort; `except`: one a facet counts without (it offers its own values). */
type Facet = 'brand' | 'food' | 'inStock' | 'price';
function refineWhere(refine: ListingRefinement | undefined, table: ProductsTable, except?: Facet): SQL[] {
  if (!refine) return [];
  const parts: SQL[] = [];
  if (refine.brandIds && except !== 'brand') parts.push(inArray(table.brandId, refine.brandIds));
  if (refine.food && except !== 'food') parts.push(eq(table.foodType, refine.food));
  if (refine.inStock && except !== 'inStock') parts.push(eq(table.inStock, true));
  if (refine.price && except !== 'price') parts.push(priceBandWhere(table, refine.price));
  return parts;
}

function priceBandWhere(table: ProductsTable, id: PriceBandId): SQL {
  const band = priceBandOf(id);
  const from = gte(table.pricePaise, band.minPaise);
  return band.maxPaise === null ? from : and(from, lt(table.pricePaise, band.maxPaise))!;
}

/**
 * 'popular': units of each product in orders not cancelled (order_lines; an order or a cancellation makes the
 * listings stale, src/server/cache/stale-after.ts). Read once per query as one aggregate that the listing joins: a
 * lookup per product would scan order_lines each time (it has no index by product).
 */
const unitsOrdered = (db: Database) =>
  db
    .select({ productId: orderLines.productId, units: sql<number>`sum(${orderLines.qty})::int`.as('units') })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(ne(orders.status, 'cancelled'))
    .groupBy(orderLines.productId)
    .as('units_ordered');

const savingOf = (price: string, mrp: string) => sql.raw(`case when ${mrp} > ${price} then (${mrp} - ${price})::float8 / ${mrp} else 0 end`);
/**
 * 'discount': the largest share of the MRP a card offers off, as its badge says (src/lib/discount.ts): the best of the
 * priced pack sizes of a product sold in them, else the product's own.
 */
const bestSaving = sql`coalesce(case when products.type <> 'normal' then (select max(${savingOf('vp.sales_price_paise', 'vp.mrp_paise')})
    from product_variants v join product_variant_prices vp on vp.variant_id = v.id where v.product_id = products.id) end,
  ${savingOf('products.price_paise', 'products.mrp_paise')})`;

/** A listing's order: its sort, then its own order (which also breaks the sort's ties). */
function listingOrder(filter: ListedFilter, units: SQL | undefined): SQL[] {
  const own = filter.kind === 'ranked' ? [sql`array_position(${intArray(filter.ids)}, ${products.id})`] : filterOrder(filter);
  const sort = 'refine' in filter ? filter.refine?.sort : undefined;
  switch (sort) {
    case undefined:
      return own;
    case 'popular':
      return [sql`coalesce(${units}, 0) desc`, ...own];
    case 'price-asc':
      return [asc(products.pricePaise), asc(products.name), asc(products.id)];
    case 'price-desc':
      return [desc(products.pricePaise), asc(products.name), asc(products.id)];
    case 'discount':
      return [sql`${bestSaving} desc`, ...own];
  }
}

function filterOrder(filter: Exclude<ListedFilter, RankedFilter>): SQL[] {
  switch (filter.kind) {
    case 'hot':
      return [sql`${products.priorityTag} asc`, sql`${products.id} asc`];
    default:
      return [sql`${products.inStock} desc`, sql`${products.name} asc`, sql`${products.id} asc`];
  }
}

/** A pack size as the listing query aggregates it (json_agg): raw columns, turned into a VariantDto here. */
interface VariantRow {
  id: number;
  name: string;
  stock: number;
  priceId: number | null;
  salesPricePaise: number | null;
  mrpPaise: number | null;
  imageUrl: string | null;
}

function toVariantDto(productId: number, r: VariantRow): VariantDto {
  return {
    id: r.id,
    productsId: productId,
    name: r.name,
    productVariantPrice:
      r.priceId === null || r.salesPricePaise === null || r.mrpPaise === null
        ? null
        : {
            id: r.priceId,
            productVariantsId: r.id,
            salesPrice: rupees(r.salesPricePaise),
            mrp: rupees(r.mrpPaise),
            salesPricePaise: r.salesPricePaise,
            mrpPaise: r.mrpPaise,
          },
    unitPrice: r.salesPricePaise === null ? null : unitPrice(r.salesPricePaise, r.name),
    inStock: r.stock > 0,
    imageUrl: r.imageUrl,
  };
}

// Images and pack sizes of a product as JSON arrays, in display order, so a page of products is one query
// (the profile of a product page showed each query's round trip into PGlite costing more than its work).
// `products.id` is written out, here and in listProducts' subqueries: drizzle leaves columns unqualified in a
// one-table select, where an unqualified id would name the inner table's.
const imagesJson = sql<Array<{ id: number; imageUrl: string }>>`coalesce((
  select json_agg(json_build_object('id', i.id, 'imageUrl', i.image_url) order by i.position, i.id)
  from product_images i where i.product_id = products.id), '[]'::json)`;
const variantsJson = sql<VariantRow[]>`coalesce((
  select json_agg(json_build_object('id', v.id, 'name', v.name, 'stock', v.stock, 'priceId', vp.id,
    'salesPricePaise', vp.sales_price_paise, 'mrpPaise', vp.mrp_paise, 'imageUrl', v.image_url) order by v.position, v.id)
  from product_variants v left join product_variant_prices vp on vp.variant_id = v.id
  where v.product_id = products.id), '[]'::json)`;

/** The query of one page of products (not a search's): see listProducts. */
export function productListQuery(db: Database, filter: ListedFilter, pageNo: number, pageSize: number) {
  const refine = 'refine' in filter ? filter.refine : undefined;
  const popularity = refine?.sort === 'popular' ? unitsOrdered(db) : undefined;
  const query = db
    .select({
      id: products.id,
      name: products.name,
      shortName: products.shortName,
      shortCode: products.shortCode,
      description: products.description,
      pricePaise: products.pricePaise,
      mrpPaise: products.mrpPaise,
      type: products.type,
      brandId: products.brandId,
      // Looked up for the rows shown alone (a join let the planner match every brand against each row).
      brandName: sql<string>`(select b.name from ${brands} b where b.id = products.brand_id)`,
      categoryId: products.categoryId,
      categoryName: sql<string>`(select c.name from ${categories} c where c.id = products.category_id)`,
      priorityTag: products.priorityTag,
      inStock: products.inStock,
      // Read as stored: a check constraint (migration 0013) keeps food_type to FOOD_TYPES.
      foodType: sql<FoodType | null>`${products.foodType}`,
      netQuantity: products.netQuantity,
      countryOfOrigin: products.countryOfOrigin,
      manufacturer: products.manufacturer,
      shelfLife: products.shelfLife,
      fssaiLicence: products.fssaiLicence,
      stars: sql<number>`coalesce((select round(avg(r.stars)::numeric, 1)::float8 from reviews r where r.product_id = products.id), 0)`,
      reviewCount: sql<number>`(select count(*)::int from reviews r where r.product_id = products.id)`,
      images: imagesJson,
      variants: variantsJson,
      // Counted apart, once (an uncorrelated subquery): a count over the listed rows made the database read every
      // product of the aisle to show ten (at 50,000 products, 2,317 rows and 17 ms for a product's related row),
      // where the listing's index (products_category_listing_idx) reads just the page.
      total: sql<number>`(select count(*)::int from ${products} ${counted} where ${and(filterWhere(filter, counted), ...refineWhere(refine, counted))})`,
    })
    .from(products)
    .$dynamic();
  return (popularity ? query.leftJoin(popularity, eq(popularity.productId, products.id)) : query)
    .where(and(filterWhere(filter), ...refineWhere(refine, products)))
    .orderBy(...listingOrder(filter, popularity ? sql`${popularity.units}` : undefined))
    .offset(pageNo * pageSize)
    .limit(pageSize);
}

/** One page of products with their brand, category, images, variants and review summary, in one query. */
export async function listProducts(
  db: Database,
  filter: ProductFilter | RankedFilter,
  pageNo: number,
  pageSize: number,
  rank?: RankSearch,
): Promise<Page<ProductDto>> {
  if (filter.kind === 'search' && filter.refine) {
    // Sorted or filtered: the best matches, filtered and sorted by the listing query (in rank order for 'relevance').
    const { ids } = await (rank ?? rankSearch(db))(filter.text);
    if (ids.length === 0) return { items: [], total: 0 };
    return listProducts(db, { kind: 'ranked', ids, refine: filter.refine }, pageNo, pageSize);
  }
  if (filter.kind === 'search') {
    // Ranked by src/server/services/search.ts; listed here in its order. Without a ranking to share (a page's, whose
    // facets rank the same search), or past its best matches, only the page is ranked.
    const end = (pageNo + 1) * pageSize;
    const { ids, total } =
      rank && end <= REFINED_SEARCH_LIMIT
        ? await rank(filter.text).then((r) => ({ ids: r.ids.slice(pageNo * pageSize, end), total: r.total }))
        : await searchProductIds(db, filter.text, pageNo, pageSize);
    if (ids.length === 0) return { items: [], total };
    const { items } = await listProducts(db, { kind: 'ids', ids }, 0, ids.length);
    const position = new Map(ids.map((id, i) => [id, i]));
    return { items: items.sort((a, b) => position.get(a.id)! - position.get(b.id)!), total };
  }
  const rows = await productListQuery(db, filter, pageNo, pageSize);
  const items = rows.map(({ total: _total, priorityTag, images, variants, ...r }) => ({
    ...r,
    price: rupees(r.pricePaise),
    mrp: rupees(r.mrpPaise),
    stars: Number(r.stars),
    imageUrl: images[0]?.imageUrl ?? null,
    productImages: images,
    productVariants: variants.map((v) => toVariantDto(r.id, v)),
    unitPrice: unitPrice(r.pricePaise, r.name),
    hot: priorityTag !== null,
  }));
  return { items, total: rows[0]?.total ?? 0 };
}

/** The most brands a listing's brand filter offers: those with the most products there (and any already chosen). */
export const MAX_BRAND_FACETS = 30;

/**
 * What a listing's filters offer, each value with how many products it would show: the brands, food types, 'in stock'
 * and price bands. Each facet counts with the listing's other filters applied but not its own, so a shopper sees what
 * choosing another value of it would give. One query, and one more only for a chosen brand that the first left out.
 */
export async function listingFacets(db: Database, filter: ListingFilter, rank: RankSearch = rankSearch(db)): Promise<ListingFacetsDto> {
  const refine = filter.refine;
  let base: ListedFilter;
  if (filter.kind === 'search') {
    const { ids } = await rank(filter.text);
    base = { kind: 'ranked', ids };
  } else base = filter;
  const f = faceted;
  const countWith = (except: Facet, value: SQL) => sql<number>`(count(*) filter (where ${and(...refineWhere(refine, f, except), value)}))::int`;
  const byBrand = and(filterWhere(base, facetedByBrand), ...refineWhere(refine, facetedByBrand, 'brand'));
  const [row] = await db
    .select({
      veg: countWith('food', eq(f.foodType, 'veg')),
      nonVeg: countWith('food', eq(f.foodType, 'non_veg')),
      egg: countWith('food', eq(f.foodType, 'egg')),
      inStock: countWith('inStock', eq(f.inStock, true)),
      priceBands: sql<Record<PriceBandId, number>>`json_build_object(${sql.join(
        PRICE_BANDS.map((band) => sql`${band.id}::text, ${countWith('price', priceBandWhere(f, band.id))}`),
        sql`, `,
      )})`,
      brands: sql<Array<{ id: number; name: string; count: number }>>`(select coalesce(json_agg(json_build_object(
          'id', b.id, 'name', b.name, 'count', top.n) order by b.name, b.id), '[]'::json)
        from (select ${sql.raw('faceted_by_brand.brand_id')} as brand_id, count(*)::int as n
          from ${products} ${facetedByBrand} where ${byBrand}
          group by 1 order by n desc, 1 limit ${MAX_BRAND_FACETS}) top
        join ${brands} b on b.id = top.brand_id)`,
    })
    .from(f)
    .where(filterWhere(base, f));
  const brandFacets = row?.brands ?? [];
  const missing = (refine?.brandIds ?? []).filter((id) => !brandFacets.some((b) => b.id === id));
  if (missing.length > 0) {
    const chosen = await db
      .select({ id: brands.id, name: brands.name, count: sql<number>`count(${facetedByBrand.id})::int` })
      .from(brands)
      .leftJoin(facetedByBrand, and(eq(facetedByBrand.brandId, brands.id), byBrand))
      .where(inArray(brands.id, missing))
      .groupBy(brands.id, brands.name);
    brandFacets.push(...chosen);
    brandFacets.sort((a, b) => a.name.localeCompare(b.name, 'en-IN') || a.id - b.id);
  }
  return {
    brands: brandFacets,
    foodTypes: [
      { value: 'veg', count: row?.veg ?? 0 },
      { value: 'non_veg', count: row?.nonVeg ?? 0 },
      { value: 'egg', count: row?.egg ?? 0 },
    ],
    inStock: row?.inStock ?? 0,
    priceBands: PRICE_BANDS.map((band) => ({ id: band.id, count: row?.priceBands[band.id] ?? 0 })),
  };
}

export async function findProduct(db: Database, id: number): Promise<ProductDto | undefined> {
  const page = await listProducts(db, { kind: 'ids', ids: [id] }, 0, 1);
  return page.items[0];
}

/** The pack sizes of a product in display order, each with its price or null; undefined when there is no such product. */
export async function variantsOf(db: Database, productId: number): Promise<VariantDto[] | undefined> {
  const [row] = await db.select({ variants: variantsJson }).from(products).where(eq(products.id, productId));
  return row?.variants.map((v) => toVariantDto(productId, v));
}

export async function productExists(db: Database, id: number): Promise<boolean> {
  const [row] = await db.select({ id: products.id }).from(products).where(eq(products.id, id));
  return row !== undefined;
}

export async function findProductSeo(db: Database, productId: number): Promise<ProductSeoDto | undefined> {
  const [row] = await db
    .select({
      id: productSeo.id,
      productsId: productSeo.productId,
      metaTitle: productSeo.metaTitle,
      metaDescription: productSeo.metaDescription,
      metaKeywords: productSeo.metaKeywords,
    })
    .from(productSeo)
    .where(eq(productSeo.productId, productId));
  return row;
}

/**
 * Product ids in id order, `take` of them after `skip`, and how many products there are: all a sitemap file needs,
 * in one query that reads the primary key's index alone (no names, prices or pictures).
 */
export async function productIdPage(db: Database, skip: number, take: number): Promise<Page<number>> {
  const rows = await db
    .select({ id: products.id, total: sql<number>`count(*) over ()`.mapWith(Number) })
    .from(products)
    .orderBy(asc(products.id))
    .limit(take)
    .offset(skip);
  if (rows.length > 0) return { items: rows.map((r) => r.id), total: rows[0]!.total };
  // Past the end: the window counted no rows, so the count is asked for alone.
  const [row] = await db.select({ total: count() }).from(products);
  return { items: [], total: row?.total ?? 0 };
}

// Catalogue reads: brands, categories, products and their listings. Prices leave here as paise and rupees.
import { and, asc, count, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Database } from '../db/client.ts';
import { brands, categories, products, productSeo } from '../db/schema.ts';
import type { BrandDto, CategoryDto, ProductDto, ProductSeoDto, VariantDto } from '../schemas.ts';
import { unitPrice } from '../../lib/unit-price.ts';
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
export async function loadCategories(db: Database, pageNo: number, pageSize: number): Promise<Page<CategoryDto>> {
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      imageUrl: categories.imageUrl,
      // Spelled out: drizzle leaves columns unqualified in a one-table select, which would make this ambiguous.
      count: sql<number>`(select count(*)::int from products p where p.category_id = categories.id)`,
      total: sql<number>`(select count(*)::int from categories)`,
    })
    .from(categories)
    .orderBy(asc(categories.priority), asc(categories.name))
    .offset(pageNo * pageSize)
    .limit(pageSize);
  const items = rows.map(({ total: _total, imageUrl, ...r }) => ({ ...r, image: imageUrl ?? categoryImageUrl(r.id) }));
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

export type ProductFilter =
  | { kind: 'hot' }
  | { kind: 'brand'; brandId: number }
  | { kind: 'category'; categoryId: string }
  | { kind: 'search'; text: string }
  | { kind: 'related'; productId: number }
  | { kind: 'ids'; ids: number[] };

/** The products a listing counts, apart from those it reads (see listProducts). */
const counted = alias(products, 'counted');

function filterWhere(filter: ProductFilter, table: typeof products | typeof counted = products): SQL | undefined {
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
  }
}

function filterOrder(filter: ProductFilter): SQL[] {
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
    'salesPricePaise', vp.sales_price_paise, 'mrpPaise', vp.mrp_paise) order by v.position, v.id)
  from product_variants v left join product_variant_prices vp on vp.variant_id = v.id
  where v.product_id = products.id), '[]'::json)`;

/** The query of one page of products (not a search's): see listProducts. */
export function productListQuery(db: Database, filter: Exclude<ProductFilter, { kind: 'search' }>, pageNo: number, pageSize: number) {
  return db
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
      stars: sql<number>`coalesce((select round(avg(r.stars)::numeric, 1)::float8 from reviews r where r.product_id = products.id), 0)`,
      reviewCount: sql<number>`(select count(*)::int from reviews r where r.product_id = products.id)`,
      images: imagesJson,
      variants: variantsJson,
      // Counted apart, once (an uncorrelated subquery): a count over the listed rows made the database read every
      // product of the aisle to show ten (at 50,000 products, 2,317 rows and 17 ms for a product's related row),
      // where the listing's index (products_category_listing_idx) reads just the page.
      total: sql<number>`(select count(*)::int from ${products} ${counted} where ${filterWhere(filter, counted)})`,
    })
    .from(products)
    .where(filterWhere(filter))
    .orderBy(...filterOrder(filter))
    .offset(pageNo * pageSize)
    .limit(pageSize);
}

/** One page of products with their brand, category, images, variants and review summary, in one query. */
export async function listProducts(
  db: Database,
  filter: ProductFilter,
  pageNo: number,
  pageSize: number,
): Promise<Page<ProductDto>> {
  if (filter.kind === 'search') {
    // Ranked by src/server/services/search.ts; listed here in its order.
    const { ids, total } = await searchProductIds(db, filter.text, pageNo, pageSize);
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

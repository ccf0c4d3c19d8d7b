// Catalogue reads: brands, categories, products and their listings. Prices leave here as paise and rupees.
import { and, asc, count, eq, inArray, isNotNull, sql, type SQL } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import {
  brands,
  categories,
  productImages,
  products,
  productSeo,
  productVariantPrices,
  productVariants,
} from '../db/schema.ts';
import type { BrandDto, CategoryDto, ProductDto, ProductSeoDto, VariantDto } from '../schemas.ts';
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
  const rows = db
    .select({
      id: categories.id,
      name: categories.name,
      // Spelled out: drizzle leaves columns unqualified in a one-table select, which would make this ambiguous.
      count: sql<number>`(select count(*)::int from products p where p.category_id = categories.id)`,
    })
    .from(categories)
    .orderBy(asc(categories.priority), asc(categories.name))
    .offset(pageNo * pageSize)
    .limit(pageSize);
  // Counted apart: a page past the end has no rows to carry a window count.
  const [items, [counted]] = await Promise.all([rows, db.select({ total: count() }).from(categories)]);
  return { items: items.map((r) => ({ ...r, image: categoryImageUrl(r.id) })), total: counted?.total ?? 0 };
}

export async function findCategory(db: Database, id: string) {
  const [row] = await db
    .select({ id: categories.id, name: categories.name, colour: categories.colour })
    .from(categories)
    .where(eq(categories.id, id));
  return row;
}

type ProductFilter =
  | { kind: 'hot' }
  | { kind: 'brand'; brandId: number }
  | { kind: 'category'; categoryId: string }
  | { kind: 'search'; text: string }
  | { kind: 'related'; productId: number; categoryId: string }
  | { kind: 'ids'; ids: number[] };

function filterWhere(filter: ProductFilter): SQL | undefined {
  switch (filter.kind) {
    case 'hot':
      return isNotNull(products.priorityTag);
    case 'brand':
      return eq(products.brandId, filter.brandId);
    case 'category':
      return eq(products.categoryId, filter.categoryId);
    case 'search':
      throw new Error('a search lists its ids (searchProductIds), see listProducts');
    case 'related':
      return and(eq(products.categoryId, filter.categoryId), sql`${products.id} <> ${filter.productId}`);
    case 'ids':
      return inArray(products.id, filter.ids);
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

/** One page of products with their brand, category, images, variants and review summary. */
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
  const rows = await db
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
      brandName: brands.name,
      categoryId: products.categoryId,
      categoryName: categories.name,
      priorityTag: products.priorityTag,
      inStock: products.inStock,
      stars: sql<number>`coalesce((select round(avg(stars)::numeric, 1)::float8 from reviews r where r.product_id = ${products.id}), 0)`,
      reviewCount: sql<number>`(select count(*)::int from reviews r where r.product_id = ${products.id})`,
      total: sql<number>`(count(*) over ())::int`,
    })
    .from(products)
    .innerJoin(brands, eq(brands.id, products.brandId))
    .innerJoin(categories, eq(categories.id, products.categoryId))
    .where(filterWhere(filter))
    .orderBy(...filterOrder(filter))
    .offset(pageNo * pageSize)
    .limit(pageSize);
  if (rows.length === 0) return { items: [], total: 0 };

  const ids = rows.map((r) => r.id);
  const [images, variants] = await Promise.all([imagesOf(db, ids), variantsOf(db, ids)]);
  const items = rows.map(({ total: _total, priorityTag, ...r }) => {
    const productImagesOfRow = images.get(r.id) ?? [];
    return {
      ...r,
      price: rupees(r.pricePaise),
      mrp: rupees(r.mrpPaise),
      stars: Number(r.stars),
      imageUrl: productImagesOfRow[0]?.imageUrl ?? null,
      productImages: productImagesOfRow,
      productVariants: variants.get(r.id) ?? [],
      hot: priorityTag !== null,
    };
  });
  return { items, total: rows[0]?.total ?? 0 };
}

export async function findProduct(db: Database, id: number): Promise<ProductDto | undefined> {
  const page = await listProducts(db, { kind: 'ids', ids: [id] }, 0, 1);
  return page.items[0];
}

async function imagesOf(db: Database, productIds: number[]) {
  const rows = await db
    .select({ id: productImages.id, productId: productImages.productId, imageUrl: productImages.imageUrl })
    .from(productImages)
    .where(inArray(productImages.productId, productIds))
    .orderBy(asc(productImages.productId), asc(productImages.position), asc(productImages.id));
  return groupBy(rows, (r) => r.productId, ({ id, imageUrl }) => ({ id, imageUrl }));
}

export async function variantsOf(db: Database, productIds: number[]): Promise<Map<number, VariantDto[]>> {
  const rows = await db
    .select({
      id: productVariants.id,
      productsId: productVariants.productId,
      name: productVariants.name,
      stock: productVariants.stock,
      priceId: productVariantPrices.id,
      salesPricePaise: productVariantPrices.salesPricePaise,
      mrpPaise: productVariantPrices.mrpPaise,
    })
    .from(productVariants)
    .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
    .where(inArray(productVariants.productId, productIds))
    .orderBy(asc(productVariants.productId), asc(productVariants.position), asc(productVariants.id));
  return groupBy(
    rows,
    (r) => r.productsId,
    (r): VariantDto => ({
      id: r.id,
      productsId: r.productsId,
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
      inStock: r.stock > 0,
    }),
  );
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

function groupBy<R, K, V>(rows: R[], key: (r: R) => K, value: (r: R) => V): Map<K, V[]> {
  const map = new Map<K, V[]>();
  for (const row of rows) {
    const k = key(row);
    const list = map.get(k);
    if (list) list.push(value(row));
    else map.set(k, [value(row)]);
  }
  return map;
}

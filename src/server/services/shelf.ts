// The back office's shelf (issue 34): a product with each pack's price, MRP and stock as the shop floor sees it, found
// by name, and the writes on it. What follows a write (the stale tags on every shop's bus, restock alerts closed) is
// `shelfWrites`'s in services/after-write.ts; these only write.
// A product sold in one size ('normal') keeps its price and stock on its own row: its one pack has id null. A product
// sold in pack sizes keeps them per pack, its row holding the first pack's price and (by trigger) the packs' stock sum.
import { and, asc, eq, ilike, isNotNull, max, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { brands, categories, products, productVariantPrices, productVariants } from '../db/schema.ts';
import { badRequest, notFound } from '../errors.ts';
import type { FoodType } from '../../lib/food-type.ts';
import { LOW_STOCK_LIMIT, SHELF_SEARCH_LIMIT, type GrocerProductDto, type PackPriceInput, type PackStockInput, type ProductFactsInput } from '../shelf-schemas.ts';

const productColumns = {
  id: products.id,
  name: products.name,
  brand: brands.name,
  category: categories.name,
  type: products.type,
  priorityTag: products.priorityTag,
  foodType: products.foodType,
  stock: products.stock,
  pricePaise: products.pricePaise,
  mrpPaise: products.mrpPaise,
};

type ProductRow = { id: number; name: string; brand: string; category: string; type: string; priorityTag: number | null; foodType: string | null; stock: number; pricePaise: number; mrpPaise: number };

async function withPacks(db: Database, rows: ProductRow[]): Promise<GrocerProductDto[]> {
  const variantIds = rows.filter((r) => r.type === 'variant').map((r) => r.id);
  const packs = variantIds.length
    ? await db
        .select({ id: productVariants.id, productId: productVariants.productId, name: productVariants.name, stock: productVariants.stock, pricePaise: productVariantPrices.salesPricePaise, mrpPaise: productVariantPrices.mrpPaise })
        .from(productVariants)
        .leftJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
        .where(sql`${productVariants.productId} in ${variantIds}`)
        .orderBy(asc(productVariants.position), asc(productVariants.id))
    : [];
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    brand: r.brand,
    category: r.category,
    hot: r.priorityTag !== null,
    foodType: r.foodType as FoodType | null,
    stock: r.stock,
    packs:
      r.type === 'variant'
        ? packs.filter((p) => p.productId === r.id).map((p) => ({ id: p.id, name: p.name, stock: p.stock, pricePaise: p.pricePaise ?? r.pricePaise, mrpPaise: p.mrpPaise ?? 0 }))
        : [{ id: null, name: 'One size', stock: r.stock, pricePaise: r.pricePaise, mrpPaise: r.mrpPaise }],
  }));
}

const productQuery = (db: Database) =>
  db.select(productColumns).from(products).innerJoin(brands, eq(brands.id, products.brandId)).innerJoin(categories, eq(categories.id, products.categoryId));

/** Products whose name holds `text` (case aside), shortest names first: 'dal' finds 'Toor Dal' before 'Toor Dal Premium'. */
export async function findShelfProducts(db: Database, text: string): Promise<GrocerProductDto[]> {
  const pattern = `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await productQuery(db)
    .where(ilike(products.name, pattern))
    .orderBy(sql`length(${products.name})`, asc(products.name), asc(products.id))
    .limit(SHELF_SEARCH_LIMIT);
  return withPacks(db, rows);
}

/** A product's emptiest pack: its own stock, or (sold in pack sizes) its packs' least. */
const emptiestPack = sql<number>`case when ${products.type} = 'variant'
  then (select min(${productVariants.stock}) from ${productVariants} where ${productVariants.productId} = ${products.id})
  else ${products.stock} end`;

/**
 * Products with a pack at `atMost` units or fewer (0: out of stock), the emptiest first: what to reorder. A product
 * sold in pack sizes counts its emptiest pack, not its row's sum, so one sold-out size shows.
 */
export async function lowStockProducts(db: Database, atMost: number): Promise<GrocerProductDto[]> {
  const rows = await productQuery(db).where(sql`${emptiestPack} <= ${atMost}`).orderBy(emptiestPack, asc(products.name), asc(products.id)).limit(LOW_STOCK_LIMIT);
  return withPacks(db, rows);
}

/** How many products lowStockProducts would list, without the limit (Today's count). */
export async function lowStockCount(db: Database, atMost: number): Promise<number> {
  const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(products).where(sql`${emptiestPack} <= ${atMost}`);
  return row?.count ?? 0;
}


export async function shelfProduct(db: Database, id: number): Promise<GrocerProductDto> {
  const [row] = await productQuery(db).where(eq(products.id, id));
  if (!row) throw notFound(`There is no product ${id}`);
  return (await withPacks(db, [row]))[0]!;
}

/** The product's kind, and the pack (of a product sold in pack sizes) the write names; 400 when it names none of its packs. */
async function packOf(db: Database, productId: number, packId: number | undefined) {
  const [product] = await db.select({ type: products.type }).from(products).where(eq(products.id, productId));
  if (!product) throw notFound(`There is no product ${productId}`);
  if (product.type !== 'variant') {
    if (packId !== undefined) throw badRequest(`Product ${productId} is sold in one size: leave packId out`);
    return undefined;
  }
  if (packId === undefined) throw badRequest(`Product ${productId} is sold in pack sizes: packId names the pack`);
  const packs = await db.select({ id: productVariants.id }).from(productVariants).where(eq(productVariants.productId, productId)).orderBy(asc(productVariants.position), asc(productVariants.id));
  if (!packs.some((p) => p.id === packId)) throw badRequest(`Pack ${packId} is not one of product ${productId}'s packs`);
  return { packId, first: packs[0]!.id === packId };
}

/** Sets the units of a pack on the shelf (0: out of stock). */
export async function setPackStock(db: Database, productId: number, { packId, stock }: PackStockInput): Promise<GrocerProductDto> {
  const pack = await packOf(db, productId, packId);
  if (pack) await db.update(productVariants).set({ stock }).where(and(eq(productVariants.id, pack.packId), eq(productVariants.productId, productId)));
  else await db.update(products).set({ stock }).where(eq(products.id, productId));
  return shelfProduct(db, productId);
}

/** Sets a pack's price and MRP; the product's row keeps its first pack's, which listings and the cart read. */
export async function setPackPrice(db: Database, productId: number, { packId, pricePaise, mrpPaise }: PackPriceInput): Promise<GrocerProductDto> {
  const pack = await packOf(db, productId, packId);
  await db.transaction(async (tx) => {
    if (pack) {
      await tx
        .insert(productVariantPrices)
        .values({ variantId: pack.packId, salesPricePaise: pricePaise, mrpPaise })
        .onConflictDoUpdate({ target: productVariantPrices.variantId, set: { salesPricePaise: pricePaise, mrpPaise } });
    }
    if (!pack || pack.first) await tx.update(products).set({ pricePaise, mrpPaise }).where(eq(products.id, productId));
  });
  return shelfProduct(db, productId);
}

/** Hot or not (a hot product keeps its place among the hot ones; a new one comes after them), and the food type. */
export async function setProductFacts(db: Database, productId: number, { hot, foodType }: ProductFactsInput): Promise<GrocerProductDto> {
  await db.transaction(async (tx) => {
    const [row] = await tx.select({ priorityTag: products.priorityTag }).from(products).where(eq(products.id, productId)).for('update');
    if (!row) throw notFound(`There is no product ${productId}`);
    let priorityTag: number | null = null;
    if (hot) {
      const [{ top } = { top: 0 }] = await tx.select({ top: max(products.priorityTag) }).from(products).where(isNotNull(products.priorityTag));
      priorityTag = row.priorityTag ?? (top ?? 0) + 1;
    }
    await tx.update(products).set({ priorityTag, foodType }).where(eq(products.id, productId));
  });
  return shelfProduct(db, productId);
}

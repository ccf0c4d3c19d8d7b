// 'Notify me when back' (issue 24): a shopper waiting for a product (or one pack size of it) to come back on the
// shelf, one row per shopper, product and pack (table stock_alerts, migration 0013). The grocer sees how many wait.
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { StockAlertDto } from '../account-schemas.ts';
import type { Database } from '../db/client.ts';
import { products, productVariants, stockAlerts } from '../db/schema.ts';
import type { GrocerStockAlertsDto } from '../grocer-schemas.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import { lineLabel } from './cart.ts';

export interface AlertTarget {
  productId: number;
  /** 0 for a product sold in one size. */
  variantId: number;
}

/** The product (pack) asked about, checked: it exists, the pack is the product's, and it is off the shelf now. */
async function outOfStockTarget(db: Database, { productId, variantId }: AlertTarget): Promise<void> {
  const [product] = await db
    .select({ name: products.name, stock: products.stock })
    .from(products)
    .where(eq(products.id, productId));
  if (!product) throw notFound(`No product has id ${productId}`);
  let stock = product.stock;
  let label = product.name;
  if (variantId !== 0) {
    const [pack] = await db
      .select({ productId: productVariants.productId, name: productVariants.name, stock: productVariants.stock })
      .from(productVariants)
      .where(eq(productVariants.id, variantId));
    if (!pack || pack.productId !== productId) throw badRequest(`${product.name} has no pack size with id ${variantId}`);
    stock = pack.stock;
    label = lineLabel({ name: product.name, variantName: pack.name });
  }
  // Waiting for something on the shelf would wait for the next time it runs out and comes back: say so instead.
  if (stock > 0) throw conflict(`${label} is in stock: you can add it to your cart now.`);
}

/** The shopper asks to be told; asking again (or again after being told) waits anew. */
export async function askWhenBack(db: Database, userId: number, target: AlertTarget): Promise<StockAlertDto> {
  await outOfStockTarget(db, target);
  await db
    .insert(stockAlerts)
    .values({ userId, productId: target.productId, productVariantId: target.variantId })
    .onConflictDoUpdate({
      target: [stockAlerts.userId, stockAlerts.productId, stockAlerts.productVariantId],
      set: { createdAt: sql`now()`, notifiedAt: null },
    });
  return { productsId: target.productId, productVariantsId: target.variantId, notifyRequested: true };
}

/** The shopper no longer wants to be told (nothing asked is fine too: the answer is the same). */
export async function stopWhenBack(db: Database, userId: number, target: AlertTarget): Promise<StockAlertDto> {
  await db
    .delete(stockAlerts)
    .where(
      and(
        eq(stockAlerts.userId, userId),
        eq(stockAlerts.productId, target.productId),
        eq(stockAlerts.productVariantId, target.variantId),
      ),
    );
  return { productsId: target.productId, productVariantsId: target.variantId, notifyRequested: false };
}

/** The alert's product (pack) is on the shelf: its pack's stock when it names one, else the product's. */
const alertBackOnShelf = sql<boolean>`(case when ${stockAlerts.productVariantId} = 0
  then exists (select 1 from ${products} where ${products.id} = ${stockAlerts.productId} and ${products.stock} > 0)
  else exists (select 1 from ${productVariants} where ${productVariants.id} = ${stockAlerts.productVariantId} and ${productVariants.stock} > 0) end)`;

/**
 * After a write that put units back (a cancelled order, an import): the waiting alerts of these products (all, when
 * none are named) whose product or pack is on the shelf again are closed with the time it came back. How many were.
 */
export async function closeRestockedAlerts(db: Database, productIds?: number[]): Promise<number> {
  if (productIds && productIds.length === 0) return 0;
  const closed = await db
    .update(stockAlerts)
    .set({ notifiedAt: sql`now()` })
    .where(
      and(
        isNull(stockAlerts.notifiedAt),
        productIds ? inArray(stockAlerts.productId, [...new Set(productIds)]) : undefined,
        alertBackOnShelf,
      ),
    )
    .returning({ id: stockAlerts.id });
  return closed.length;
}

/** For the grocer: each product (pack) shoppers wait for, with how many wait and the units on the shelf now. */
export async function waitingForStock(db: Database): Promise<GrocerStockAlertsDto> {
  const waiting = sql<number>`count(*)::int`;
  return db
    .select({
      productsId: stockAlerts.productId,
      name: products.name,
      productVariantsId: stockAlerts.productVariantId,
      variantName: productVariants.name,
      waiting,
      stock: sql<number>`coalesce(${productVariants.stock}, ${products.stock})`,
    })
    .from(stockAlerts)
    .innerJoin(products, eq(products.id, stockAlerts.productId))
    .leftJoin(productVariants, eq(productVariants.id, stockAlerts.productVariantId))
    .where(isNull(stockAlerts.notifiedAt))
    .groupBy(stockAlerts.productId, products.name, products.stock, stockAlerts.productVariantId, productVariants.name, productVariants.stock)
    .orderBy(desc(waiting), products.name, stockAlerts.productVariantId);
}

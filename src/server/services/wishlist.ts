// The shopper's wishlist (the hearts): products kept for later, newest first.
import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { wishlistItems } from '../db/schema.ts';
import { notFound } from '../errors.ts';
import type { WishlistDto } from '../order-schemas.ts';
import { listProducts, productExists } from './catalogue.ts';

async function keptItems(db: Database, userId: number) {
  return db
    .select({ productId: wishlistItems.productId, addedAt: wishlistItems.createdAt })
    .from(wishlistItems)
    .where(eq(wishlistItems.userId, userId))
    .orderBy(desc(wishlistItems.createdAt), desc(wishlistItems.productId));
}

export async function wishlistIds(db: Database, userId: number): Promise<number[]> {
  return (await keptItems(db, userId)).map((item) => item.productId);
}

/** The kept products as the catalogue shows them (one listing for all of them), newest first. */
export async function wishlistOf(db: Database, userId: number): Promise<WishlistDto> {
  const kept = await keptItems(db, userId);
  if (kept.length === 0) return { items: [] };
  const { items } = await listProducts(db, { kind: 'ids', ids: kept.map((k) => k.productId) }, 0, kept.length);
  const byId = new Map(items.map((product) => [product.id, product]));
  return {
    items: kept.flatMap(({ productId, addedAt }) => {
      const product = byId.get(productId);
      return product ? [{ addedAt: addedAt.toISOString(), product }] : [];
    }),
  };
}

/** Keeps a product; true when it was not kept yet. An unknown product is 404. */
export async function addToWishlist(db: Database, userId: number, productId: number): Promise<boolean> {
  if (!(await productExists(db, productId))) throw notFound(`No product has id ${productId}`);
  const added = await db
    .insert(wishlistItems)
    .values({ userId, productId })
    .onConflictDoNothing()
    .returning({ productId: wishlistItems.productId });
  return added.length > 0;
}

/** Removing a product that is not kept changes nothing: the shopper's wish (not there) holds. */
export async function removeFromWishlist(db: Database, userId: number, productId: number): Promise<void> {
  await db.delete(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.productId, productId)));
}

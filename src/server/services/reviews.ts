import { desc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { orderLines, orders, reviews } from '../db/schema.ts';
import type { NewReview, ReviewDto } from '../schemas.ts';

/**
 * A certified buyer (issue 24): the review's shopper has a delivered order holding its product. Asked when the review is
 * read, not stored, so a review posted before the delivery is certified once the order arrives.
 */
// Every column named with its table: Drizzle leaves the selected table's columns bare, which inside the subquery would
// name the order's own user_id and product_id.
const column = (table: string, { name }: { name: string }) => sql`${sql.identifier(table)}.${sql.identifier(name)}`;
const certifiedBuyer = sql<boolean>`(${column('reviews', reviews.userId)} is not null and exists (
  select 1 from ${orders} as ${sql.identifier('o')} join ${orderLines} as ${sql.identifier('l')} on ${column('l', orderLines.orderId)} = ${column('o', orders.id)}
  where ${column('o', orders.userId)} = ${column('reviews', reviews.userId)} and ${column('o', orders.status)} = 'delivered'
    and ${column('l', orderLines.productId)} = ${column('reviews', reviews.productId)}
))`.mapWith(Boolean);

const signedIn = isNotNull(reviews.userId).mapWith(Boolean);

const columns = {
  id: reviews.id,
  title: reviews.title,
  description: reviews.description,
  stars: reviews.stars,
  productsId: reviews.productId,
  updatedAt: reviews.updatedAt,
  signedIn,
  certifiedBuyer,
};

const toDto = ({ updatedAt, ...r }: { updatedAt: Date } & Omit<ReviewDto, 'updatedAt' | 'date'>): ReviewDto => ({
  ...r,
  updatedAt: updatedAt.toISOString(),
  date: updatedAt.toISOString(),
});

/** Certified buyers' reviews first, then other signed-in shoppers', then anonymous ones; newest first within each. */
export async function reviewsOf(db: Database, productId: number): Promise<ReviewDto[]> {
  const rows = await db
    .select(columns)
    .from(reviews)
    .where(eq(reviews.productId, productId))
    .orderBy(desc(certifiedBuyer), desc(signedIn), desc(reviews.updatedAt), desc(reviews.id));
  return rows.map(toDto);
}

/** Stores a review; `userId` is the signed-in shopper who posted it, none for an anonymous one (SPEC §7). */
export async function addReview(db: Database, review: NewReview, userId?: number): Promise<ReviewDto> {
  const [stored] = await db
    .insert(reviews)
    .values({
      productId: review.productsId,
      title: review.title,
      description: review.description,
      stars: review.stars,
      userId: userId ?? null,
    })
    .returning({ id: reviews.id });
  if (!stored) throw new Error('Review insert returned no row');
  const [row] = await db.select(columns).from(reviews).where(eq(reviews.id, stored.id));
  if (!row) throw new Error('The stored review could not be read back');
  return toDto(row);
}

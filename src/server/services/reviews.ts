import { desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.ts';
import { reviews } from '../db/schema.ts';
import type { NewReview, ReviewDto } from '../schemas.ts';

const columns = {
  id: reviews.id,
  title: reviews.title,
  description: reviews.description,
  stars: reviews.stars,
  productsId: reviews.productId,
  updatedAt: reviews.updatedAt,
};

const toDto = (r: { updatedAt: Date } & Omit<ReviewDto, 'updatedAt'>): ReviewDto => ({
  ...r,
  updatedAt: r.updatedAt.toISOString(),
});

export async function reviewsOf(db: Database, productId: number): Promise<ReviewDto[]> {
  const rows = await db
    .select(columns)
    .from(reviews)
    .where(eq(reviews.productId, productId))
    .orderBy(desc(reviews.updatedAt), desc(reviews.id));
  return rows.map(toDto);
}

export async function addReview(db: Database, review: NewReview): Promise<ReviewDto> {
  const [row] = await db
    .insert(reviews)
    .values({
      productId: review.productsId,
      title: review.title,
      description: review.description,
      stars: review.stars,
    })
    .returning(columns);
  if (!row) throw new Error('Review insert returned no row');
  return toDto(row);
}

import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Database } from '../db/client.ts';
import type { CatalogueReads } from '../catalogue-reads.ts';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { staleAfter } from '../cache/stale-after.ts';
import { notFound } from '../errors.ts';
import { ErrorSchema, NewReviewSchema, ProIdParam, ReviewSchema } from '../schemas.ts';
import { addReview } from '../services/reviews.ts';
import { json, PUBLIC } from './openapi.ts';
import { memoryLimiterStore, writeLimiter, type LimiterStore, type WriteLimit } from '../rate-limit.ts';

export const DEFAULT_REVIEW_LIMIT: WriteLimit = { writes: 10, windowSeconds: 600 };

export function registerReviewRoutes(
  app: OpenAPIHono,
  db: Database,
  reads: CatalogueReads,
  stale: InvalidationBus,
  limit: WriteLimit = DEFAULT_REVIEW_LIMIT,
  limiters: LimiterStore = memoryLimiterStore,
) {
  const limitReviews = writeLimiter(limit, 'reviews', { store: limiters, name: 'reviews' });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/Reviews/{proid}',
      security: PUBLIC,
      tags: ['Reviews'],
      summary: "A product's reviews, newest first",
      request: { params: ProIdParam },
      responses: {
        200: json(z.array(ReviewSchema), 'Reviews'),
        400: json(ErrorSchema, 'Bad input'),
        404: json(ErrorSchema, 'No such product'),
      },
    }),
    async (c) => {
      const { proid } = c.req.valid('param');
      const list = await reads.reviews(proid);
      // Only an empty list needs asking whether the product exists (a query fewer for every product page).
      if (list.length === 0 && !(await reads.productExists(proid))) throw notFound(`No product has id ${proid}`);
      // Reviews change when shoppers post: browsers and proxies ask again each time. (The API's own read cache may
      // keep them: a posted review clears it.)
      c.header('Cache-Control', 'public, no-cache');
      return c.json(list, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Reviews',
      security: PUBLIC,
      tags: ['Reviews'],
      summary: 'Post a review (no auth header, as SPEC §7)',
      request: { body: { content: { 'application/json': { schema: NewReviewSchema } }, required: true } },
      responses: {
        201: json(ReviewSchema, 'The stored review'),
        400: json(ErrorSchema, 'Bad input'),
        404: json(ErrorSchema, 'No such product'),
        429: json(ErrorSchema, 'Too many reviews; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const review = c.req.valid('json');
      if (!(await reads.productExists(review.productsId))) throw notFound(`No product has id ${review.productsId}`);
      await limitReviews(c);
      const stored = await addReview(db, review);
      // The review shows wherever its product does (its page, its cards' ratings): every instance forgets those.
      await stale.publish(staleAfter.reviewAdded(review.productsId));
      return c.json(stored, 201);
    },
  );
}

import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Database } from '../db/client.ts';
import type { CatalogueReads } from '../catalogue-reads.ts';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import { staleAfter } from '../cache/stale-after.ts';
import { notFound } from '../errors.ts';
import { ErrorSchema, NewReviewSchema, ProIdParam, ReviewSchema } from '../schemas.ts';
import { addReview } from '../services/reviews.ts';
import { json, PUBLIC } from './openapi.ts';
import { memoryLimiterStore, writeLimiter, type LimiterStore, type WriteLimit } from '../rate-limit.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';

export const DEFAULT_REVIEW_LIMIT: WriteLimit = { writes: 10, windowSeconds: 600 };

export function registerReviewRoutes(
  app: OpenAPIHono,
  db: Database,
  reads: CatalogueReads,
  stale: InvalidationBus,
  /** The signed-in shopper of a request with a bearer token (routes/auth.ts); throws 401 for a token that is not valid. */
  authenticate: (c: Context) => Promise<AccessClaims>,
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
      // Anonymous as SPEC §7, or signed in (issue 24): the review then counts as the shopper's, a certified buyer's
      // when they were delivered the product.
      security: [{}, ...BEARER],
      tags: ['Reviews'],
      summary: 'Post a review: with no auth header (SPEC §7), or as the signed-in shopper',
      description:
        'Without a token the review is anonymous and listed after those of signed-in shoppers. With a bearer token it is ' +
        "the shopper's, marked certifiedBuyer once they have a delivered order of the product; a token that is not valid is a 401.",
      request: { body: { content: { 'application/json': { schema: NewReviewSchema } }, required: true } },
      responses: {
        201: json(ReviewSchema, 'The stored review'),
        400: json(ErrorSchema, 'Bad input'),
        401: json(ErrorSchema, 'A bearer token was sent and is not valid (sign in again, or post with no token)'),
        404: json(ErrorSchema, 'No such product'),
        429: json(ErrorSchema, 'Too many reviews; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const review = c.req.valid('json');
      // A shopper who sends a token means to post as themselves: a stale one is refused (the browser refreshes it and
      // tries again), never taken quietly as anonymous.
      const shopper = c.req.header('authorization') === undefined ? undefined : await authenticate(c);
      if (!(await reads.productExists(review.productsId))) throw notFound(`No product has id ${review.productsId}`);
      await limitReviews(c);
      const stored = await addReview(db, review, shopper?.userId);
      // The review shows wherever its product does (its page, its cards' ratings): every instance forgets those.
      await stale.publish(staleAfter.reviewAdded(review.productsId));
      return c.json(stored, 201);
    },
  );
}

// The wishlist (issue 11): the hearts' ids, the page's products, add and remove.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { UserIdParam } from '../account-schemas.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { WishlistAddSchema, WishlistIdsSchema, WishlistSchema } from '../order-schemas.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { addToWishlist, removeFromWishlist, wishlistIds, wishlistOf } from '../services/wishlist.ts';
import { json } from './openapi.ts';
import { shopperOfPath } from './owner.ts';

const ProductIdPathParam = z.object({ productId: positiveId('productId') });

const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'Not signed in'),
} as const;

export function registerWishlistRoutes(app: OpenAPIHono, db: Database, authenticate: (c: Context) => Promise<AccessClaims>) {
  const me = async (c: Context) => (await authenticate(c)).userId;

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Wishlists/GetWishlistByUser/{userId}',
      tags: ['Wishlist'],
      summary: 'The wishlist page: the kept products (0 = me), newest first',
      security: BEARER,
      request: { params: UserIdParam },
      responses: { 200: json(WishlistSchema, 'The wishlist'), ...errors, 404: json(ErrorSchema, "Another shopper's wishlist") },
    }),
    async (c) => {
      const userId = await shopperOfPath(c, authenticate, c.req.valid('param').userId, 'wishlist');
      return c.json(await wishlistOf(db, userId), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Wishlists/ProductIds',
      tags: ['Wishlist'],
      summary: 'The ids of the kept products (the hearts), newest first',
      security: BEARER,
      responses: { 200: json(WishlistIdsSchema, 'The ids'), 401: errors[401] },
    }),
    async (c) => c.json({ productIds: await wishlistIds(db, await me(c)) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Wishlists',
      tags: ['Wishlist'],
      summary: 'Keep a product: 201 when added, 200 when it was already kept',
      security: BEARER,
      request: { body: { content: { 'application/json': { schema: WishlistAddSchema } }, required: true } },
      responses: {
        201: json(WishlistIdsSchema, 'Added; the ids after the add'),
        200: json(WishlistIdsSchema, 'Already kept; the ids'),
        ...errors,
        404: json(ErrorSchema, 'No such product'),
      },
    }),
    async (c) => {
      const userId = await me(c);
      const added = await addToWishlist(db, userId, c.req.valid('json').productsId);
      return c.json({ productIds: await wishlistIds(db, userId) }, added ? 201 : 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/app/Wishlists/{productId}',
      tags: ['Wishlist'],
      summary: 'Stop keeping a product (one not kept is fine)',
      security: BEARER,
      request: { params: ProductIdPathParam },
      responses: { 200: json(WishlistIdsSchema, 'The ids after the removal'), ...errors },
    }),
    async (c) => {
      const userId = await me(c);
      await removeFromWishlist(db, userId, c.req.valid('param').productId);
      return c.json({ productIds: await wishlistIds(db, userId) }, 200);
    },
  );
}

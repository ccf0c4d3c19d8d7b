// The signed-in shopper's cart (SPEC §3, §7): both readings of the cart post, the lines, the badge count; and
// 'Notify me when back' for what is out of stock (issue 24).
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import {
  CartCouponQuery,
  type CartDto,
  CartLineIdParam,
  CartSchema,
  CartTotalSchema,
  NewCartLineSchema,
  NewComboCartLineSchema,
  StockAlertRequestSchema,
  StockAlertSchema,
  UpdateCartLineSchema,
  UserIdParam,
} from '../account-schemas.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { ErrorSchema } from '../schemas.ts';
import { addToCart, cartItemCount, cartOf as pricedCart, lineNotFound, removeLine, setLineQty, type CartRules } from '../services/cart.ts';
import { askWhenBack, stopWhenBack } from '../services/stock-alerts.ts';
import { CART_KEY_HOURS, cartRequestHash, onceForKey } from '../services/cart-write-keys.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../lib/form-limits.ts';
import { json } from './openapi.ts';
import { shopperOfPath } from './owner.ts';

const body = <T>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'Not signed in'),
} as const;
/** Another shopper's user id is answered like an id that does not exist (src/server/routes/owner.ts). */
const ownErrors = { ...errors, 404: json(ErrorSchema, "No cart for that user id (another shopper's is not shown)") } as const;
/** Optional on cart writes (issue 26): a change queued offline is sent again with the same key, and counts once. */
const CartIdempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .regex(IDEMPOTENCY_KEY_PATTERN, 'The Idempotency-Key header must be 8 to 128 letters, digits, - or _ (a UUID fits)')
    .optional()
    .openapi({
      param: { in: 'header' },
      description:
        `Optional. The same key with the same change answers the first answer again (\`Idempotent-Replayed: true\`) and changes ` +
        `nothing; with another change, 422. A key is kept ${CART_KEY_HOURS} hours per shopper; a refused change keeps none.`,
      example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f',
    }),
});
const keyReused = { 422: json(ErrorSchema, 'The Idempotency-Key was used for a different cart change') } as const;
const addErrors = {
  ...errors,
  ...keyReused,
  404: json(ErrorSchema, "No such product, or a usersId other than the token's"),
  409: json(ErrorSchema, "Out of stock, no price, past the most of one item, or past the units on the shelf ('Only 8 left of …')"),
} as const;

export function registerCartRoutes(
  app: OpenAPIHono,
  db: Database,
  authenticate: (c: Context) => Promise<AccessClaims>,
  rules: CartRules,
) {
  const cartOf = (database: Database, userId: number) => pricedCart(database, userId, rules);
  const maxQty = rules.limits.unitsPerProduct;

  /** The token's user; a user id in the path or body (SPEC §3's usersId) that is not theirs is a 404 before anything is read. */
  const owner = (c: Context, claimed: number | undefined) => shopperOfPath(c, authenticate, claimed, 'cart');

  /**
   * A write, once per Idempotency-Key when the request has one (src/server/services/cart-write-keys.ts); without one,
   * as it always was. A replay says so in `Idempotent-Replayed`, as PlaceOrder does.
   */
  const keyed = async (
    c: Context,
    userId: number,
    request: Record<string, unknown>,
    write: (database: Database) => Promise<{ status: number; body: CartDto }>,
  ): Promise<CartDto> => {
    const key = c.req.header('idempotency-key');
    if (!key) return (await write(db)).body;
    const now = rules.now?.() ?? new Date();
    const answer = await onceForKey(db, userId, key, cartRequestHash(request), now, write);
    if (answer.replayed) c.header('Idempotent-Replayed', 'true');
    return answer.body;
  };

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Carts/GetTotalCart/{userId}',
      tags: ['Cart'],
      summary: 'How many items are in the cart (the badge, SPEC §4)',
      security: BEARER,
      request: { params: UserIdParam },
      responses: { 200: json(CartTotalSchema, 'The sum of the quantities'), ...ownErrors },
    }),
    async (c) => {
      const userId = await owner(c, c.req.valid('param').userId);
      return c.json({ cartsTotal: await cartItemCount(db, userId) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Carts/GetCartsByUser/{userId}',
      tags: ['Cart'],
      summary: 'The cart: lines at today’s prices and the summary',
      description:
        'With `?coupon=CODE` (issue 25) the cart is priced with that coupon too: `coupon` says whether it applies and, if not, why ' +
        '(coupon_unknown, coupon_expired, coupon_below_minimum, coupon_used, each with a plain message); when it applies, ' +
        "its line ('Coupon WELCOME50') is the last of summary.discounts, after the offers. A refusal is still 200: the cart itself is fine.",
      security: BEARER,
      request: { params: UserIdParam, query: CartCouponQuery },
      responses: { 200: json(CartSchema, 'The cart'), ...ownErrors },
    }),
    async (c) => {
      const userId = await owner(c, c.req.valid('param').userId);
      return c.json(await pricedCart(db, userId, rules, c.req.valid('query').coupon), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Carts',
      tags: ['Cart'],
      summary: 'Add to the cart (SPEC §3 payload); the same product and pack size again adds to its line',
      description: 'price is ignored (prices come from the database); a usersId other than the token’s is 404, as on every call.',
      security: BEARER,
      request: { headers: CartIdempotencyHeader, ...body(NewCartLineSchema) },
      responses: { 201: json(CartSchema, 'The cart after the add (or, replayed, after the first add with this key)'), ...addErrors },
    }),
    async (c) => {
      const line = c.req.valid('json');
      const userId = await owner(c, line.usersId);
      const add = { productId: line.productsId, variantId: line.productVariantsId, qty: line.qty };
      const answer = await keyed(c, userId, { write: 'add', ...add }, async (tx) => {
        await addToCart(tx, userId, add, maxQty);
        return { status: 201, body: await cartOf(tx, userId) };
      });
      return c.json(answer, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/Carts',
      tags: ['Cart'],
      summary: 'Add one to the cart (SPEC §3 payload with the combo fields)',
      description: 'The pack size is productVariantsId, else comboProductVariantsId; price ids and price are read from the database.',
      security: BEARER,
      request: body(NewComboCartLineSchema),
      responses: { 201: json(CartSchema, 'The cart after the add'), ...addErrors },
    }),
    async (c) => {
      const line = c.req.valid('json');
      const userId = await owner(c, line.usersId);
      const variantId = line.productVariantsId || line.comboProductVariantsId;
      await addToCart(db, userId, { productId: line.productsId, variantId, qty: 1 }, maxQty);
      return c.json(await cartOf(db, userId), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/app/Carts/{id}',
      tags: ['Cart'],
      summary: 'Set the quantity of a line',
      security: BEARER,
      request: { params: CartLineIdParam, headers: CartIdempotencyHeader, ...body(UpdateCartLineSchema) },
      responses: {
        200: json(CartSchema, 'The cart after the change'),
        ...errors,
        ...keyReused,
        404: json(ErrorSchema, 'No such line in your cart'),
        409: json(ErrorSchema, "More than the shelf holds ('Only 8 left of …', or out of stock)"),
      },
    }),
    async (c) => {
      const userId = await owner(c, undefined);
      const { id } = c.req.valid('param');
      const { qty } = c.req.valid('json');
      const answer = await keyed(c, userId, { write: 'set', id, qty }, async (tx) => {
        if (!(await setLineQty(tx, userId, id, qty, maxQty))) throw lineNotFound(id);
        return { status: 200, body: await cartOf(tx, userId) };
      });
      return c.json(answer, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/app/Carts/{id}',
      tags: ['Cart'],
      summary: 'Remove a line',
      security: BEARER,
      request: { params: CartLineIdParam, headers: CartIdempotencyHeader },
      responses: {
        200: json(CartSchema, 'The cart after the removal'),
        ...errors,
        ...keyReused,
        404: json(ErrorSchema, 'No such line in your cart'),
      },
    }),
    async (c) => {
      const userId = await owner(c, undefined);
      const { id } = c.req.valid('param');
      const answer = await keyed(c, userId, { write: 'remove', id }, async (tx) => {
        if (!(await removeLine(tx, userId, id))) throw lineNotFound(id);
        return { status: 200, body: await cartOf(tx, userId) };
      });
      return c.json(answer, 200);
    },
  );

  const alertErrors = { ...errors, 404: json(ErrorSchema, 'No such product') } as const;
  const alertTarget = ({ productsId, productVariantsId }: { productsId: number; productVariantsId: number }) => ({
    productId: productsId,
    variantId: productVariantsId,
  });

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/StockAlerts',
      tags: ['Cart'],
      summary: "'Notify me when back': wait for an out-of-stock product (pack) to come back",
      description: 'The cart line says so (notifyRequested); the grocer sees how many wait (GET /api/grocer/StockAlerts).',
      security: BEARER,
      request: body(StockAlertRequestSchema),
      responses: {
        201: json(StockAlertSchema, 'The shopper waits for it'),
        ...alertErrors,
        409: json(ErrorSchema, 'It is in stock: add it to the cart instead'),
      },
    }),
    async (c) => {
      const userId = await owner(c, undefined);
      return c.json(await askWhenBack(db, userId, alertTarget(c.req.valid('json'))), 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/app/StockAlerts',
      tags: ['Cart'],
      summary: 'Stop waiting for a product (pack) to come back (not waiting is fine too)',
      security: BEARER,
      request: body(StockAlertRequestSchema),
      responses: { 200: json(StockAlertSchema, 'The shopper no longer waits for it'), ...errors },
    }),
    async (c) => {
      const userId = await owner(c, undefined);
      return c.json(await stopWhenBack(db, userId, alertTarget(c.req.valid('json'))), 200);
    },
  );
}

// Delivery slots and the shopper's orders (issue 11): place (once per Idempotency-Key), list, read, cancel, order again.
// Another shopper's order answers 404, never their data.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { UserIdParam } from '../account-schemas.ts';
import { BEARER } from '../auth/bearer.ts';
import type { AccessClaims } from '../auth/tokens.ts';
import type { Database } from '../db/client.ts';
import { IDEMPOTENCY_KEY_PATTERN } from '../../lib/form-limits.ts';
import {
  OrderIdParam,
  OrderPageSchema,
  OrderPagingQuery,
  OrderSchema,
  PlaceOrderSchema,
  ReorderResultSchema,
  SlotListSchema,
} from '../order-schemas.ts';
import { keyedLimiter, memoryLimiterStore, type LimiterStore, type WriteLimit } from '../rate-limit.ts';
import { ErrorSchema } from '../schemas.ts';
import { orderNotFound, orderOf, ordersOf, reorder, type OrderRules } from '../services/orders.ts';
import { orderWrites } from '../services/after-write.ts';
import { listSlots } from '../services/slots.ts';
import { areaRulesFor } from '../services/delivery-area.ts';
import { PINCODE_PATTERN } from '../../lib/form-limits.ts';

/** The delivery address's PIN code: its group of the area may have slots of its own (issue 25). */
const SlotsQuery = z.object({
  pincode: z
    .string()
    .regex(PINCODE_PATTERN, 'pincode must be 6 digits and cannot start with 0')
    .optional()
    .openapi({ param: { in: 'query', name: 'pincode' }, example: '560034' }),
});
import { json, jsonBody } from './openapi.ts';
import { shopperOfPath } from './owner.ts';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import type { OrderNotices } from '../services/notices.ts';
import { ETAG_HEADER, etagOf, IfNoneMatchHeader, NOT_MODIFIED, stillFresh } from './etag.ts';

/** Orders one shopper may place (replays included) per window: far above any real shopper, well below a script. */
export const DEFAULT_ORDER_LIMIT: WriteLimit = { writes: 20, windowSeconds: 600 };

const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string({ error: 'The Idempotency-Key header is required: a new key (e.g. a UUID) for each order' })
    .regex(IDEMPOTENCY_KEY_PATTERN, 'The Idempotency-Key header must be 8 to 128 letters, digits, - or _ (a UUID fits)')
    .openapi({ param: { in: 'header' }, example: '3f1c2a9e-8b7d-4c6e-9f10-2a3b4c5d6e7f' }),
});

const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'Not signed in'),
} as const;
const notYours = { 404: json(ErrorSchema, 'No such order of yours (another shopper’s order is 404 too)') } as const;

export function registerOrderRoutes(
  app: OpenAPIHono,
  db: Database,
  authenticate: (c: Context) => Promise<AccessClaims>,
  /** With where an order that changed the shelf says so (the caches of every instance forget those products). */
  rules: OrderRules & { stale: InvalidationBus; notices?: OrderNotices },
  orderLimit: WriteLimit = DEFAULT_ORDER_LIMIT,
  limiters: LimiterStore = memoryLimiterStore,
) {
  const limitOrders = keyedLimiter(orderLimit, 'orders', { store: limiters, name: 'orders' });
  // Each write followed by what must follow it (services/after-write.ts): caches, restock alerts, the notice.
  const writes = orderWrites({ db, stale: rules.stale, notices: rules.notices });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/DeliverySlots',
      tags: ['Orders'],
      summary: 'The delivery slots of today and the next days, with the places left; full or closed ones say so',
      description: 'With `pincode`, the slots of its group of the delivery area when the group has its own (store.yaml area); else the shop’s.',
      security: BEARER,
      request: { query: SlotsQuery },
      responses: { 200: json(SlotListSchema, 'The slots, earliest first'), 400: errors[400], 401: errors[401] },
    }),
    async (c) => {
      await authenticate(c);
      const { pincode } = c.req.valid('query');
      const delivery = (pincode && areaRulesFor(rules.area, rules.delivery, pincode)?.delivery) || rules.delivery;
      return c.json(await listSlots(db, delivery, rules.now()), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Orders',
      tags: ['Orders'],
      summary: 'Place the cart as an order (cash or UPI on delivery, or UPI now)',
      description:
        'Prices, discounts and totals come from the server; any the client sends are ignored. The same Idempotency-Key ' +
        'with the same body answers the first order again (200, `Idempotent-Replayed: true`); with another body, 422. ' +
        "With `paymentMethod: 'upi_now'` the order awaits its payment (`payment.status: 'awaiting'`, `payment.dueAt`) and " +
        'carries the UPI payment request (`payment.request`); unpaid by its deadline it is cancelled and gives its stock and slot back.',
      security: BEARER,
      request: { headers: IdempotencyHeader, ...jsonBody(PlaceOrderSchema) },
      responses: {
        201: json(OrderSchema, 'Placed'),
        200: json(OrderSchema, 'This key’s order, placed before'),
        ...errors,
        403: json(ErrorSchema, 'The mobile number is not verified yet (phone_unverified) or the shop blocked it (phone_blocked); or a write from another site'),
        404: json(ErrorSchema, 'No such address of yours'),
        409: json(ErrorSchema, 'Empty cart, out of stock, the slot is full or closed, or past a limit of the shop (store.yaml limits: the message names it); nothing was taken'),
        422: json(ErrorSchema, 'The Idempotency-Key was used for a different order'),
        429: json(ErrorSchema, 'Too many orders; Retry-After says when to try again'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      await limitOrders(c, String(userId));
      const key = c.req.valid('header')['idempotency-key'];
      const { order, replayed } = await writes.place(rules, userId, key, c.req.valid('json'));
      if (replayed) {
        c.header('Idempotent-Replayed', 'true');
        return c.json(order, 200);
      }
      return c.json(order, 201);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Orders/GetOrdersByUser/{userId}',
      tags: ['Orders'],
      summary: 'The shopper’s orders, newest first, a page at a time (userId 0 is the signed-in shopper)',
      security: BEARER,
      description: 'Order Tracking polls this for live status: with the ETag of the page it holds as If-None-Match, an unchanged page is a 304.',
      request: { params: UserIdParam, query: OrderPagingQuery, headers: IfNoneMatchHeader },
      responses: {
        200: { ...json(OrderPageSchema, 'One page of orders'), headers: ETAG_HEADER },
        ...NOT_MODIFIED,
        ...errors,
        404: json(ErrorSchema, 'Another shopper'),
      },
    }),
    async (c) => {
      const userId = await shopperOfPath(c, authenticate, c.req.valid('param').userId, 'orders');
      const { pageNo, pageSize } = c.req.valid('query');
      const page = await ordersOf(db, rules, userId, pageNo, pageSize);
      const etag = etagOf(page);
      c.header('ETag', etag);
      if (stillFresh(c, etag)) return c.body(null, 304);
      return c.json(page, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/app/Orders/{id}',
      tags: ['Orders'],
      summary: 'One order: lines, address, slot, payment, totals and its status timeline (oldest first)',
      security: BEARER,
      description: 'The open order page polls this for live status: with the ETag it holds as If-None-Match, an unchanged order is a 304.',
      request: { params: OrderIdParam, headers: IfNoneMatchHeader },
      responses: { 200: { ...json(OrderSchema, 'The order'), headers: ETAG_HEADER }, ...NOT_MODIFIED, ...errors, ...notYours },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { id } = c.req.valid('param');
      // A pay-now order past its time reads as what it is now (expired, cancelled), not as the timer last left it.
      await writes.expireUnpaid(rules.now(), id);
      const order = await orderOf(db, rules, userId, id);
      if (!order) throw orderNotFound(id);
      const etag = etagOf(order);
      c.header('ETag', etag);
      if (stillFresh(c, etag)) return c.body(null, 304);
      return c.json(order, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Orders/{id}/Cancel',
      tags: ['Orders'],
      summary: 'Cancel an order that is not yet packed; its stock and slot place are given back',
      description: "The order then says `cancelledBy: 'shopper'`. (The shop may cancel an order up to its delivery, with a reason.)",
      security: BEARER,
      request: { params: OrderIdParam },
      responses: {
        200: json(OrderSchema, 'Cancelled'),
        ...errors,
        ...notYours,
        409: json(ErrorSchema, 'Already packed (or further), or already cancelled'),
      },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      const { order } = await writes.cancel(rules, userId, c.req.valid('param').id);
      return c.json(order, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/app/Orders/{id}/Reorder',
      tags: ['Orders'],
      summary: 'Order again: the order’s lines back in the cart at today’s prices; those that cannot be are listed',
      security: BEARER,
      request: { params: OrderIdParam },
      responses: { 200: json(ReorderResultSchema, 'The cart, what was added and what is unavailable'), ...errors, ...notYours },
    }),
    async (c) => {
      const { userId } = await authenticate(c);
      return c.json(await reorder(db, rules, userId, c.req.valid('param').id), 200);
    },
  );
}

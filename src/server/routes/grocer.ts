// The grocer's routes, for `npm run orders` and `npm run import` while the shop runs (only one process may open the
// embedded database), and for the back office (issue 34).
// They take `Authorization: Grocer <token>`, the token the shop keeps in its data folder, or a staff member's session
// cookie; the door of /grocer/* (grocer-access.ts) checks the caller's role on every call and audits every write.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { bodyLimit } from 'hono/body-limit';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import type { Database } from '../db/client.ts';
import { badRequest, sendError } from '../errors.ts';
import {
  BlockedPhoneParam,
  BlockedPhoneSchema,
  CANCEL_REASON_LIMITS,
  GrocerAdvanceSchema,
  GrocerBlockRequestSchema,
  GrocerCancelRequestSchema,
  GrocerCancelSchema,
  GrocerDayQuery,
  GrocerDaySchema,
  GrocerOrderSchema,
  GrocerPaidSchema,
  GrocerPickListQuery,
  GrocerPickListSchema,
  GrocerStockAlertsSchema,
  GrocerTodaySchema,
} from '../grocer-schemas.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { ImportPictureQuery, ImportRequestSchema, ImportSummarySchema, StoredPictureSchema } from '../import-schemas.ts';
import { GROCER_UPLOAD_LIMITS, tooLargeMessage } from '../body-limits.ts';
import { blockPhone, unblockPhone } from '../services/blocked-phones.ts';
import { grocerOrder, ordersOfDay, pickList, todayAtAGlance } from '../services/grocer.ts';
import { saveImportPhoto } from '../services/import.ts';
import { importAndTell, orderWrites } from '../services/after-write.ts';
import { waitingForStock } from '../services/stock-alerts.ts';
import type { DeliveryRules } from '../services/slots.ts';
import type { OrderNotices } from '../services/notices.ts';
import { json, jsonBody } from './openapi.ts';
import { registerGrocerIssueRoutes } from './grocer-issues.ts';
import { registerGrocerShelfRoutes } from './grocer-shelf.ts';
import { grocerDoor } from './grocer-access.ts';

export const GROCER: { [scheme: string]: string[] }[] = [{ grocer: [] }, { staffSession: [] }];
const OrderIdParam = z.object({ id: positiveId('id') });
export const grocerErrors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'No grocer token or staff session, or an ended one'),
  403: json(ErrorSchema, "The caller's role may not do this; a shopper's token; or a write from another site"),
} as const;
const errors = grocerErrors;

export interface GrocerDeps {
  /** The grocer's token (src/server/auth/secret.ts); none: every grocer call is 401. */
  token: string | undefined;
  delivery: DeliveryRules;
  /** Where a cancel that refilled the shelf, a delivery (its shopper's reviews now certified) or an import says what it made stale. */
  stale: InvalidationBus;
  /** The shopper's mail and text of each step and cancel (services/notices.ts). */
  notices?: OrderNotices;
  /** The shop's origin (settings): the staff cookie's writes must come from it. */
  siteOrigin: string;
  /** A staff session ends after this long without a call. */
  idleSeconds: number;
}

export function registerGrocerRoutes(app: OpenAPIHono, db: Database, { token, delivery, stale, notices, siteOrigin, idleSeconds }: GrocerDeps) {
  // Each write followed by what must follow it, as `npm run orders` on PostgreSQL does (services/after-write.ts).
  const writes = orderWrites({ db, stale, notices });
  app.openAPIRegistry.registerComponent('securitySchemes', 'grocer', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Grocer <token>`, the token in the data folder’s grocer-token file',
  });
  app.use('/grocer/*', grocerDoor({ db, token, siteOrigin, idleSeconds }));
  // The issues shoppers report after delivery, and settling them (issue 25).
  registerGrocerIssueRoutes(app, db);
  // The shelf (products, prices, stock) and the shoppers by number, for the back office's pages (issue 34).
  registerGrocerShelfRoutes(app, db, stale);

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Orders',
      tags: ['Grocer'],
      summary: 'The orders to deliver on a day, by delivery slot',
      security: GROCER,
      request: { query: GrocerDayQuery },
      responses: { 200: json(GrocerDaySchema, 'The slots with orders'), ...errors },
    }),
    async (c) => c.json(await ordersOfDay(db, delivery, c.req.valid('query').date), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Today',
      tags: ['Grocer'],
      summary: "Today at a glance: the day's orders and takings, its deliveries by state, and what needs a hand",
      security: GROCER,
      responses: { 200: json(GrocerTodaySchema, 'Today'), ...errors },
    }),
    async (c) => c.json(await todayAtAGlance(db, delivery), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/PickList',
      tags: ['Grocer'],
      summary: 'What to take off the shelves for one delivery slot: every product and pack summed across its open orders, by aisle',
      security: GROCER,
      request: { query: GrocerPickListQuery },
      responses: { 200: json(GrocerPickListSchema, 'The pick list'), ...errors, 404: json(ErrorSchema, 'No such slot') },
    }),
    async (c) => c.json(await pickList(db, delivery, c.req.valid('query').slot), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Orders/{id}',
      tags: ['Grocer'],
      summary: 'One order with its customer, lines, address and timeline',
      security: GROCER,
      request: { params: OrderIdParam },
      responses: { 200: json(GrocerOrderSchema, 'The order'), ...errors, 404: json(ErrorSchema, 'No such order') },
    }),
    async (c) => c.json(await grocerOrder(db, delivery, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Orders/{id}/Advance',
      tags: ['Grocer'],
      summary: 'Move an order one step: placed → packed → out_for_delivery → delivered',
      security: GROCER,
      request: { params: OrderIdParam },
      responses: {
        200: json(GrocerAdvanceSchema, 'The step taken and the order after it'),
        ...errors,
        404: json(ErrorSchema, 'No such order'),
        409: json(ErrorSchema, 'Delivered or cancelled: it cannot move'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { from } = await writes.advance(id);
      return c.json({ from, order: await grocerOrder(db, delivery, id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Orders/{id}/Cancel',
      tags: ['Grocer'],
      summary: 'Cancel an order not yet delivered (placed, packed or out for delivery); its stock and slot place go back',
      description:
        'The shopper sees "Cancelled by the shop: <reason>" on the order and in Order Tracking. The reason is required ' +
        `(${CANCEL_REASON_LIMITS.min} to ${CANCEL_REASON_LIMITS.max} characters, no control characters).`,
      security: GROCER,
      request: { params: OrderIdParam, ...jsonBody(GrocerCancelRequestSchema) },
      responses: {
        200: json(GrocerCancelSchema, 'The status it was cancelled from, and the order after it'),
        ...errors,
        404: json(ErrorSchema, 'No such order'),
        409: json(ErrorSchema, 'Delivered or already cancelled: it cannot be cancelled'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { from } = await writes.cancelByShop(id, c.req.valid('json').reason);
      return c.json({ from, order: await grocerOrder(db, delivery, id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Orders/{id}/Paid',
      tags: ['Grocer'],
      summary: 'Confirm that a pay-now order’s UPI payment arrived; the order can then be packed',
      description:
        "Confirming again answers `outcome: 'already_paid'` and changes nothing. An order paid on delivery (cash or UPI), " +
        'one whose payment time ran out (expired, so cancelled) or one cancelled otherwise is a 409 that says so.',
      security: GROCER,
      request: { params: OrderIdParam },
      responses: {
        200: json(GrocerPaidSchema, 'Paid now, or already paid; and the order'),
        ...errors,
        404: json(ErrorSchema, 'No such order'),
        409: json(ErrorSchema, 'Paid on delivery, expired or cancelled: there is no payment to confirm'),
      },
    }),
    async (c) => {
      const { id } = c.req.valid('param');
      const { outcome } = await writes.confirmPayment(id);
      return c.json({ outcome, order: await grocerOrder(db, delivery, id) }, 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/StockAlerts',
      tags: ['Grocer'],
      summary: "What shoppers wait for ('Notify me when back'): each product and pack, how many wait, the units on the shelf",
      security: GROCER,
      responses: { 200: json(GrocerStockAlertsSchema, 'Most waited for first'), ...errors },
    }),
    async (c) => c.json(await waitingForStock(db), 200),
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/BlockedPhones',
      tags: ['Grocer'],
      summary: 'Block a mobile number from ordering (again: the new reason is kept, the first date stays)',
      security: GROCER,
      request: jsonBody(GrocerBlockRequestSchema),
      responses: { 200: json(BlockedPhoneSchema, 'The number as kept (ten digits), blocked'), ...errors },
    }),
    async (c) => {
      const { phone, reason } = c.req.valid('json');
      return c.json(await blockPhone(db, phone, reason), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'delete',
      path: '/grocer/BlockedPhones/{phone}',
      tags: ['Grocer'],
      summary: 'Let a blocked mobile number order again',
      security: GROCER,
      request: { params: BlockedPhoneParam },
      responses: {
        200: json(BlockedPhoneSchema, 'The block that was lifted'),
        ...errors,
        404: json(ErrorSchema, 'The number was not blocked'),
      },
    }),
    async (c) => c.json(await unblockPhone(db, c.req.valid('param').phone), 200),
  );

  // The import's uploads have their own body limits (src/server/body-limits.ts), which app.ts leaves to this: they are
  // checked after the caller and their role.
  for (const [path, maxSize] of Object.entries(GROCER_UPLOAD_LIMITS)) {
    app.use(
      path.replace(/^\/api/, ''),
      bodyLimit({ maxSize, onError: (c) => sendError(c, 413, 'payload_too_large', tooLargeMessage(maxSize)) }),
    );
  }

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Pictures',
      tags: ['Grocer'],
      summary: 'Store a photo for an import (JPEG, PNG or WebP): its URL and SHA-256, the same for the same bytes',
      security: GROCER,
      request: {
        query: ImportPictureQuery,
        body: {
          content: { 'application/octet-stream': { schema: z.string().openapi({ format: 'binary' }) } },
          required: true,
        },
      },
      responses: { 200: json(StoredPictureSchema, 'The stored picture'), ...errors, 413: json(ErrorSchema, 'Larger than 25 MB') },
    }),
    async (c) => {
      const bytes = new Uint8Array(await c.req.arrayBuffer());
      if (bytes.length === 0) throw badRequest('The body is empty: send the picture file’s bytes');
      return c.json(await saveImportPhoto(db, bytes, c.req.valid('query').name ?? 'the picture'), 200);
    },
  );

  app.openapi(
    createRoute({
      method: 'post',
      path: '/grocer/Import',
      tags: ['Grocer'],
      summary: 'Import a catalogue CSV (docs/importing-products.md) in one transaction; a bad file imports nothing and names each line',
      security: GROCER,
      request: { body: { content: { 'application/json': { schema: ImportRequestSchema } }, required: true } },
      responses: { 200: json(ImportSummarySchema, 'What was created, updated and left as it was'), ...errors, 413: json(ErrorSchema, 'Larger than 32 MB') },
    }),
    async (c) => {
      const { csv, images } = c.req.valid('json');
      // Every instance's caches forget the whole catalogue: the new products and prices show at once.
      return c.json(await importAndTell({ db, stale }, csv, images), 200);
    },
  );
}

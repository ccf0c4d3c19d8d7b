// The grocer's routes, for `npm run orders` while the shop runs (only one process may open the embedded database).
// Not for browsers: they take `Authorization: Grocer <token>`, the token the shop keeps in its data folder.
import { createHash, timingSafeEqual } from 'node:crypto';
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { Database } from '../db/client.ts';
import { unauthorized } from '../errors.ts';
import { GrocerAdvanceSchema, GrocerDayQuery, GrocerDaySchema, GrocerOrderSchema } from '../grocer-schemas.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { advanceOrder, grocerOrder, ordersOfDay } from '../services/grocer.ts';
import type { DeliveryRules } from '../services/slots.ts';
import { json } from './openapi.ts';

const GROCER = [{ grocer: [] }];
const OrderIdParam = z.object({ id: positiveId('id') });
const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'No grocer token, or a wrong one'),
} as const;

const digest = (text: string) => createHash('sha256').update(text).digest();

export interface GrocerDeps {
  /** The grocer's token (src/server/auth/secret.ts); none: every grocer call is 401. */
  token: string | undefined;
  delivery: DeliveryRules;
}

export function registerGrocerRoutes(app: OpenAPIHono, db: Database, { token, delivery }: GrocerDeps) {
  app.openAPIRegistry.registerComponent('securitySchemes', 'grocer', {
    type: 'apiKey',
    in: 'header',
    name: 'Authorization',
    description: '`Grocer <token>`, the token in the data folder’s grocer-token file',
  });
  const expected = token ? digest(token) : undefined;

  app.use('/grocer/*', async (c: Context, next) => {
    const [scheme, given] = (c.req.header('authorization') ?? '').split(' ');
    // Equal-length digests, compared in constant time: the answer's timing says nothing about the token.
    const ok = expected && scheme?.toLowerCase() === 'grocer' && given && timingSafeEqual(digest(given), expected);
    if (!ok) {
      c.header('WWW-Authenticate', 'Grocer');
      throw unauthorized('The grocer routes need `Authorization: Grocer <token>` with the token from the data folder.');
    }
    await next();
  });

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
      const { from } = await advanceOrder(db, id);
      return c.json({ from, order: await grocerOrder(db, delivery, id) }, 200);
    },
  );
}

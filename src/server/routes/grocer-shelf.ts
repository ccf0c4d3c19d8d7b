// The back office's shelf and shoppers (issue 34), among the grocer routes (routes/grocer.ts registers these behind the
// door of /grocer/*: the role of each in GROCER_ROUTE_ROLES). A product found by name with each pack's price, MRP and
// stock; its stock set by the shop floor, its price, MRP, hot and food type by the owner, each write through
// `shelfWrites` (services/after-write.ts) so every shop forgets the old page at once. A shopper found by their number.
import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import type { InvalidationBus } from '../cache/invalidation-bus.ts';
import type { Database } from '../db/client.ts';
import { ErrorSchema, positiveId } from '../schemas.ts';
import { shelfWrites } from '../services/after-write.ts';
import { shopperOfPhone } from '../services/blocked-phones.ts';
import { findShelfProducts, lowStockProducts, shelfProduct } from '../services/shelf.ts';
import {
  GrocerProductListSchema,
  GrocerProductQuery,
  GrocerProductSchema,
  GrocerShopperQuery,
  GrocerShopperSchema,
  LOW_STOCK_UNITS,
  LowStockQuery,
  PackPriceRequestSchema,
  PackStockRequestSchema,
  ProductFactsRequestSchema,
} from '../shelf-schemas.ts';
import { json, jsonBody } from './openapi.ts';

const GROCER: { [scheme: string]: string[] }[] = [{ grocer: [] }, { staffSession: [] }];
const ProductIdParam = z.object({ id: positiveId('id') });
const errors = {
  400: json(ErrorSchema, 'Bad input'),
  401: json(ErrorSchema, 'No grocer token or staff session, or an ended one'),
  403: json(ErrorSchema, "The caller's role may not do this; a shopper's token; or a write from another site"),
} as const;
const noProduct = { 404: json(ErrorSchema, 'No such product') } as const;

export function registerGrocerShelfRoutes(app: OpenAPIHono, db: Database, stale: InvalidationBus) {
  const writes = shelfWrites({ db, stale });

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Products',
      tags: ['Grocer'],
      summary: 'Products whose name holds q, shortest names first (at most 30), with each pack’s price, MRP and stock',
      security: GROCER,
      request: { query: GrocerProductQuery },
      responses: { 200: json(GrocerProductListSchema, 'The products found'), ...errors },
    }),
    async (c) => c.json({ products: await findShelfProducts(db, c.req.valid('query').q) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/LowStock',
      tags: ['Grocer'],
      summary: `Products with a pack at atMost units or fewer (default ${LOW_STOCK_UNITS}; 0: out of stock), the emptiest first`,
      security: GROCER,
      request: { query: LowStockQuery },
      responses: { 200: json(GrocerProductListSchema, 'What to reorder'), ...errors },
    }),
    async (c) => c.json({ products: await lowStockProducts(db, c.req.valid('query').atMost ?? LOW_STOCK_UNITS) }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Products/{id}',
      tags: ['Grocer'],
      summary: 'One product with each pack’s price, MRP and stock',
      security: GROCER,
      request: { params: ProductIdParam },
      responses: { 200: json(GrocerProductSchema, 'The product'), ...errors, ...noProduct },
    }),
    async (c) => c.json(await shelfProduct(db, c.req.valid('param').id), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/grocer/Products/{id}/Stock',
      tags: ['Grocer'],
      summary: 'Set the units of a pack on the shelf (0: out of stock); every shop shows it at once',
      security: GROCER,
      request: { params: ProductIdParam, ...jsonBody(PackStockRequestSchema) },
      responses: { 200: json(GrocerProductSchema, 'The product after the change'), ...errors, ...noProduct },
    }),
    async (c) => c.json(await writes.setStock(c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/grocer/Products/{id}/Price',
      tags: ['Grocer'],
      summary: 'Set a pack’s price and MRP in paise; every shop shows it at once',
      security: GROCER,
      request: { params: ProductIdParam, ...jsonBody(PackPriceRequestSchema) },
      responses: { 200: json(GrocerProductSchema, 'The product after the change'), ...errors, ...noProduct },
    }),
    async (c) => c.json(await writes.setPrice(c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'put',
      path: '/grocer/Products/{id}/Facts',
      tags: ['Grocer'],
      summary: 'Set whether a product is hot (on the home page) and its food type (FSSAI’s mark)',
      security: GROCER,
      request: { params: ProductIdParam, ...jsonBody(ProductFactsRequestSchema) },
      responses: { 200: json(GrocerProductSchema, 'The product after the change'), ...errors, ...noProduct },
    }),
    async (c) => c.json(await writes.setFacts(c.req.valid('param').id, c.req.valid('json')), 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/grocer/Shoppers',
      tags: ['Grocer'],
      summary: 'A shopper by their mobile number: whether it is blocked, its account, and its orders (newest first, at most 50)',
      security: GROCER,
      request: { query: GrocerShopperQuery },
      responses: { 200: json(GrocerShopperSchema, 'What the shop knows of the number'), ...errors },
    }),
    async (c) => c.json(await shopperOfPhone(db, c.req.valid('query').phone), 200),
  );
}

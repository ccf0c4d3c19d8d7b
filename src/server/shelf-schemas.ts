// zod schemas of the back office's shelf and shopper routes (issue 34): a product as the shop floor sees it (each pack's
// price, MRP and stock), the three writes on it (stock: the staff's; price, and the hot and food-type facts: the
// owner's), and a shopper found by their mobile number with their orders and whether the number is blocked.
import { z } from '@hono/zod-openapi';
import { FOOD_TYPES } from '../lib/food-type.ts';
import { mobile } from './account-schemas.ts';
import { BlockedPhoneSchema } from './grocer-schemas.ts';
import { ORDER_STATUS_VALUES } from './order-schemas.ts';
import { IMPORT_LIMITS } from './services/import-csv.ts';

/** The longest name search: longer than any product name the import takes. */
export const SHELF_SEARCH_MAX = IMPORT_LIMITS.name;
/** How many products a name search lists. */
export const SHELF_SEARCH_LIMIT = 30;
/** Low stock: a pack at this many units or fewer, unless the call asks for another line (0 to 1000). */
export const LOW_STOCK_UNITS = 5;
/** The most products one low-stock list gives, the emptiest first. */
export const LOW_STOCK_LIMIT = 100;
/** How many of a shopper's orders their page lists, newest first. */
export const SHOPPER_ORDERS_LIMIT = 50;

export const GrocerPackSchema = z
  .object({
    /** The pack's id; null for a product sold in one size (its price and stock are the product's). */
    id: z.number().int().nullable(),
    name: z.string(),
    pricePaise: z.number().int(),
    mrpPaise: z.number().int().openapi({ description: '0: no MRP printed' }),
    stock: z.number().int(),
  })
  .openapi('GrocerPack');

export const GrocerProductSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    brand: z.string(),
    category: z.string(),
    hot: z.boolean(),
    foodType: z.enum(FOOD_TYPES).nullable(),
    /** Units on the shelf, every pack together. */
    stock: z.number().int(),
    packs: z.array(GrocerPackSchema),
  })
  .openapi('GrocerProduct');

export const GrocerProductListSchema = z.object({ products: z.array(GrocerProductSchema) }).openapi('GrocerProductList');

export const GrocerProductQuery = z.object({
  q: z
    .string({ error: 'q is required: a few letters of the product’s name' })
    .trim()
    .min(1, 'q is required: a few letters of the product’s name')
    .max(SHELF_SEARCH_MAX, `q is at most ${SHELF_SEARCH_MAX} characters`)
    .openapi({ param: { name: 'q', in: 'query' }, example: 'toor dal' }),
});

export const LowStockQuery = z.object({
  atMost: z
    .string()
    .regex(/^\d{1,4}$/, 'atMost must be a whole number of units, 0 to 1000')
    .transform(Number)
    .refine((units) => units <= 1000, 'atMost must be a whole number of units, 0 to 1000')
    .optional()
    .openapi({ param: { name: 'atMost', in: 'query' }, description: `a pack at this many units or fewer is low (default ${LOW_STOCK_UNITS})`, example: '5' }),
});

const packId = z
  .number({ error: 'packId must be a pack’s id (leave it out for a product sold in one size)' })
  .int('packId must be a whole number')
  .positive('packId must be a pack’s id')
  .optional()
  .openapi({ description: 'The pack to change; leave out for a product sold in one size' });

const paise = (name: string, min: number) =>
  z
    .number({ error: `${name} must be a whole number of paise` })
    .int(`${name} must be a whole number of paise`)
    .min(min, min > 0 ? `${name} must be more than 0` : `${name} cannot be negative`)
    .max(IMPORT_LIMITS.maxPricePaise, `${name} is at most ${IMPORT_LIMITS.maxPricePaise} paise`);

export const PackStockRequestSchema = z
  .object({
    packId,
    stock: z
      .number({ error: 'stock must be a whole number of packs (0: out of stock)' })
      .int('stock must be a whole number of packs')
      .min(0, 'stock cannot be negative (0: out of stock)')
      .max(IMPORT_LIMITS.maxStock, `stock is at most ${IMPORT_LIMITS.maxStock}`),
  })
  .openapi('PackStockRequest');

export const PackPriceRequestSchema = z
  .object({ packId, pricePaise: paise('pricePaise', 1), mrpPaise: paise('mrpPaise', 0).default(0) })
  .refine((b) => b.mrpPaise === 0 || b.mrpPaise >= b.pricePaise, {
    message: 'mrpPaise is below the price: the MRP is the most a shop may charge (0: none printed)',
    path: ['mrpPaise'],
  })
  .openapi('PackPriceRequest');

export const ProductFactsRequestSchema = z
  .object({
    hot: z.boolean({ error: 'hot must be true or false' }).openapi({ description: 'Shown among the hot products of the home page' }),
    foodType: z.enum(FOOD_TYPES, { error: `foodType must be one of ${FOOD_TYPES.join(', ')}, or null` }).nullable(),
  })
  .openapi('ProductFactsRequest');

export const GrocerShopperQuery = z.object({
  phone: mobile.openapi({ param: { name: 'phone', in: 'query' }, example: '9845012345' }),
});

export const GrocerShopperSchema = z
  .object({
    /** The number as the shop keeps it: ten digits. */
    phone: z.string(),
    /** The number's block, if the shop blocked it. */
    blocked: BlockedPhoneSchema.nullable(),
    /** The account of that number, if one has it. */
    account: z.object({ id: z.number().int(), name: z.string(), email: z.string(), verified: z.boolean() }).nullable(),
    /** Orders of that account or placed with that verified number, newest first. */
    orders: z.array(
      z.object({
        id: z.number().int(),
        status: z.enum(ORDER_STATUS_VALUES),
        createdAt: z.string().openapi({ format: 'date-time' }),
        slotId: z.string(),
        totalPaise: z.number().int(),
      }),
    ),
  })
  .openapi('GrocerShopper');

export type GrocerPackDto = z.infer<typeof GrocerPackSchema>;
export type GrocerProductDto = z.infer<typeof GrocerProductSchema>;
export type GrocerProductListDto = z.infer<typeof GrocerProductListSchema>;
export type PackStockInput = z.infer<typeof PackStockRequestSchema>;
export type PackPriceInput = z.infer<typeof PackPriceRequestSchema>;
export type ProductFactsInput = z.infer<typeof ProductFactsRequestSchema>;
export type GrocerShopperDto = z.infer<typeof GrocerShopperSchema>;

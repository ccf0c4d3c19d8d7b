// zod schemas of the grocer's routes (`npm run orders` talks to the running shop through them): a day's orders by
// delivery slot, one order with its customer, and moving an order along its timeline.
import { z } from '@hono/zod-openapi';
import { NO_CONTROL_CHARACTERS } from '../lib/control-characters.ts';
import { mobile } from './account-schemas.ts';
import { ORDER_STATUS_VALUES, OrderSchema, PAYMENT_METHOD_VALUES, PAYMENT_STATUS_VALUES } from './order-schemas.ts';
import { shopperText } from './schemas.ts';

export const ShopDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be written YYYY-MM-DD, e.g. 2026-11-24')
  // A month or day out of range ('2026-13-45') makes no Date at all: refused, not thrown (which answered 500).
  .refine((d) => {
    const day = new Date(`${d}T00:00:00Z`);
    return !Number.isNaN(day.getTime()) && day.toISOString().startsWith(d);
  }, 'date must be a real day, e.g. 2026-11-24');

export const GrocerDayQuery = z.object({
  date: ShopDateSchema.optional().openapi({ param: { name: 'date', in: 'query' }, description: "a calendar day, YYYY-MM-DD (a day that does not exist is a 400); default: today in the shop's time zone" }),
});

export const GrocerOrderRowSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(ORDER_STATUS_VALUES),
    /** Who receives it: the name on the delivery address. */
    customerName: z.string(),
    pincode: z.string(),
    itemCount: z.number().int(),
    totalPaise: z.number().int(),
    paymentMethod: z.enum(PAYMENT_METHOD_VALUES),
    paymentStatus: z.enum(PAYMENT_STATUS_VALUES),
  })
  .openapi('GrocerOrderRow');

export const GrocerDaySchema = z
  .object({
    date: z.string(),
    timeZone: z.string(),
    /** Only the slots with orders, earliest first. */
    slots: z.array(
      z.object({
        id: z.string(),
        startsAt: z.string().openapi({ format: 'date-time' }),
        endsAt: z.string().openapi({ format: 'date-time' }),
        capacity: z.number().int(),
        taken: z.number().int(),
        orders: z.array(GrocerOrderRowSchema),
      }),
    ),
  })
  .openapi('GrocerDay');

export const GrocerOrderSchema = OrderSchema.extend({
  customer: z.object({ id: z.number().int(), name: z.string(), email: z.string(), phone: z.string() }),
}).openapi('GrocerOrder');

/** A step an order took at the grocer's hand (advanced or cancelled): where it was, and the order after it. */
const orderStep = z.object({ from: z.enum(ORDER_STATUS_VALUES), order: GrocerOrderSchema });

export const GrocerAdvanceSchema = orderStep.openapi('GrocerAdvance');

/** How long the shop's reason for cancelling may be: one sentence the shopper reads on the order. */
export const CANCEL_REASON_LIMITS = { min: 3, max: 200 } as const;

/**
 * Why the shop cancels an order: required, shown to the shopper as "Cancelled by the shop: <reason>". Bidirectional
 * controls are refused with the other controls: the shopper must read what the grocer wrote, in that order.
 */
export const CancelReasonSchema = shopperText('reason', CANCEL_REASON_LIMITS, NO_CONTROL_CHARACTERS);

export const GrocerCancelRequestSchema = z.object({ reason: CancelReasonSchema }).openapi('GrocerCancelRequest');

export const GrocerCancelSchema = orderStep.openapi('GrocerCancel');

/** A pay-now order's payment confirmed by the grocer (issue 25): now, or before (confirming twice changes nothing). */
export const GrocerPaidSchema = z
  .object({
    outcome: z.enum(['paid', 'already_paid']).openapi({ description: "'already_paid': it was confirmed before; nothing changed" }),
    order: GrocerOrderSchema,
  })
  .openapi('GrocerPaid');

/** The grocer's note on a blocked number: optional, for the grocer's own memory. */
export const BLOCK_REASON_LIMITS = { min: 0, max: 200 } as const;

export const BlockReasonSchema = shopperText('reason', BLOCK_REASON_LIMITS, NO_CONTROL_CHARACTERS);

export const GrocerBlockRequestSchema = z
  .object({ phone: mobile, reason: BlockReasonSchema.default('') })
  .openapi('GrocerBlockRequest');

export const BlockedPhoneSchema = z
  .object({
    /** The mobile number as the shop keeps it: ten digits, no +91. */
    phone: z.string(),
    reason: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  })
  .openapi('BlockedPhone');

export const BlockedPhoneParam = z.object({
  phone: mobile.openapi({ param: { name: 'phone', in: 'path' }, example: '9845012345' }),
});

/** Shoppers waiting for a product (pack) to come back (issue 24's 'Notify me when back'), most waited for first. */
export const GrocerStockAlertsSchema = z
  .array(
    z.object({
      productsId: z.number().int(),
      name: z.string(),
      productVariantsId: z.number().int().openapi({ description: '0 for a product sold in one size' }),
      variantName: z.string().nullable(),
      waiting: z.number().int().openapi({ description: 'shoppers who asked and have not been told yet' }),
      stock: z.number().int().openapi({ description: 'units on the shelf now' }),
    }),
  )
  .openapi('GrocerStockAlerts');

/** A slot's id as the shop writes it: its local start, 'YYYY-MM-DDTHH:MM'. */
export const SlotIdSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'slot must be a slot id, its local start written YYYY-MM-DDTHH:MM, e.g. 2026-11-24T14:00');

export const GrocerPickListQuery = z.object({
  slot: SlotIdSchema.openapi({ param: { name: 'slot', in: 'query' }, example: '2026-11-24T14:00', description: 'the delivery slot to pick for' }),
});

/**
 * What to take off the shelves for one delivery slot (issue 34's pick list): every product and pack summed across the
 * slot's open orders (placed, packed, out for delivery), grouped by the aisle (category) it sits in.
 */
export const GrocerPickListSchema = z
  .object({
    slot: z.object({ id: z.string(), startsAt: z.string().openapi({ format: 'date-time' }), endsAt: z.string().openapi({ format: 'date-time' }) }),
    timeZone: z.string(),
    /** The open orders picked for, by id. */
    orderIds: z.array(z.number().int()),
    aisles: z.array(
      z.object({
        categoryId: z.string().nullable(),
        /** The category's name; 'Other' for a product without one. */
        name: z.string(),
        items: z.array(
          z.object({
            productId: z.number().int(),
            variantId: z.number().int().nullable(),
            name: z.string(),
            /** The pack size ('1 kg'); null for a product sold in one size. */
            variantName: z.string().nullable(),
            imageUrl: z.string().nullable(),
            qty: z.number().int(),
            /** How many of the slot's orders take it. */
            orders: z.number().int(),
          }),
        ),
      }),
    ),
  })
  .openapi('GrocerPickList');

export type GrocerPickListDto = z.infer<typeof GrocerPickListSchema>;

const countOf = (description: string) => z.number().int().openapi({ description });

/** Today at a glance (issue 34): the day's takings, its deliveries by state, and what needs a hand now. */
export const GrocerTodaySchema = z
  .object({
    date: z.string().openapi({ description: "the shop's today, YYYY-MM-DD in its time zone", example: '2026-11-28' }),
    timeZone: z.string(),
    placed: z.object({
      orders: countOf('orders placed today and not cancelled'),
      salesPaise: countOf('their totals, in paise'),
      cancelled: countOf('orders placed today and cancelled since'),
    }),
    deliveries: z
      .record(z.enum(ORDER_STATUS_VALUES), z.number().int())
      .openapi({ description: "today's slots' orders by status (every status, 0 when none)" }),
    needs: z.object({
      awaitingPayment: countOf('pay-now orders whose payment is not confirmed yet'),
      openIssues: countOf('reported issues not settled yet'),
      lowStock: countOf('products with a pack at LOW_STOCK_UNITS or fewer (out of stock included)'),
      waitingShoppers: countOf("shoppers waiting for a product to come back ('Notify me when back')"),
    }),
  })
  .openapi('GrocerToday');
export type GrocerTodayDto = z.infer<typeof GrocerTodaySchema>;

export type GrocerDayDto = z.infer<typeof GrocerDaySchema>;
export type GrocerOrderRowDto = z.infer<typeof GrocerOrderRowSchema>;
export type GrocerOrderDto = z.infer<typeof GrocerOrderSchema>;
export type GrocerAdvanceDto = z.infer<typeof GrocerAdvanceSchema>;
export type GrocerCancelDto = z.infer<typeof GrocerCancelSchema>;
export type GrocerPaidDto = z.infer<typeof GrocerPaidSchema>;
export type BlockedPhoneDto = z.infer<typeof BlockedPhoneSchema>;
export type GrocerStockAlertsDto = z.infer<typeof GrocerStockAlertsSchema>;

// zod schemas of the grocer's routes (`npm run orders` talks to the running shop through them): a day's orders by
// delivery slot, one order with its customer, and moving an order along its timeline.
import { z } from '@hono/zod-openapi';
import { ORDER_STATUS_VALUES, OrderSchema, PAYMENT_METHOD_VALUES } from './order-schemas.ts';

export const ShopDateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'date must be written YYYY-MM-DD, e.g. 2026-11-24')
  .refine((d) => new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'date must be a real day, e.g. 2026-11-24');

export const GrocerDayQuery = z.object({
  date: ShopDateSchema.optional().openapi({ param: { name: 'date', in: 'query' }, description: "default: today in the shop's time zone" }),
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

export const GrocerAdvanceSchema = z
  .object({ from: z.enum(ORDER_STATUS_VALUES), order: GrocerOrderSchema })
  .openapi('GrocerAdvance');

export type GrocerDayDto = z.infer<typeof GrocerDaySchema>;
export type GrocerOrderRowDto = z.infer<typeof GrocerOrderRowSchema>;
export type GrocerOrderDto = z.infer<typeof GrocerOrderSchema>;
export type GrocerAdvanceDto = z.infer<typeof GrocerAdvanceSchema>;

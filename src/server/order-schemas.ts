// zod schemas of the checkout API: addresses, delivery slots, orders, order tracking and the wishlist. The validation,
// the OpenAPI document and the browser's types all come from these (the contract the pages and islands are built on).
import { z } from '@hono/zod-openapi';
import { ADDRESS_LIMITS, ADDRESS_TYPE_VALUES, NO_CONTROL, NO_CONTROL_EXCEPT_LINES, PINCODE_PATTERN } from '../lib/form-limits.ts';
import { INDIAN_STATES } from '../lib/indian-states.ts';
import { MAX_ORDER_PAGE_SIZE, PAGE_SIZES } from '../lib/paging.ts';
import { CartLineIdParam, CartLineSchema, CartSchema, CartSummarySchema, mobile } from './account-schemas.ts';
import { ProductSchema, shopperText, wholeNumber } from './schemas.ts';
import { OrderIssueSchema } from './after-delivery-schemas.ts';

// --- Addresses -------------------------------------------------------------------------------------------------

const addressLine = (field: string, min: number, max: number) =>
  z
    .string({ error: `${field} is required` })
    .regex(NO_CONTROL, `${field} must not contain control characters`)
    .trim()
    // An empty required line reads 'is required' (the first issue is the one a shopper is shown), not 'at least 3'.
    .min(min > 0 ? 1 : 0, `${field} is required`)
    .min(min, `${field} must be at least ${min} characters`)
    .max(max, `${field} must be at most ${max} characters`);

export const AddressInputSchema = z
  .object({
    name: shopperText('name', ADDRESS_LIMITS.name),
    phone: mobile,
    line1: addressLine('address line 1', ADDRESS_LIMITS.line.min, ADDRESS_LIMITS.line.max),
    line2: addressLine('address line 2', 0, ADDRESS_LIMITS.line.max).default(''),
    landmark: addressLine('landmark', 0, ADDRESS_LIMITS.landmark.max).default(''),
    city: addressLine('city', ADDRESS_LIMITS.city.min, ADDRESS_LIMITS.city.max),
    state: z.enum(INDIAN_STATES, { error: 'state must be one of the states or union territories of India' }),
    pincode: z
      .string({ error: 'pincode is required' })
      .trim()
      .regex(PINCODE_PATTERN, 'pincode must be 6 digits and cannot start with 0'),
    /** Home, work or another place (issue 25). */
    addressType: z.enum(ADDRESS_TYPE_VALUES, { error: "address type must be 'home', 'work' or 'other'" }).default('home'),
    /** For the delivery person: 'Ring twice', 'Leave with the guard'. */
    instructions: z
      .string({ error: 'delivery instructions must be text' })
      .regex(NO_CONTROL_EXCEPT_LINES, 'delivery instructions must not contain control characters')
      .trim()
      .max(ADDRESS_LIMITS.instructions.max, `delivery instructions must be at most ${ADDRESS_LIMITS.instructions.max} characters`)
      .default(''),
    /** Make it the default; the first address a shopper saves is the default whatever this says. */
    isDefault: z.boolean().default(false),
  })
  .openapi('AddressInput');

export const AddressSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    phone: z.string(),
    line1: z.string(),
    line2: z.string(),
    landmark: z.string(),
    city: z.string(),
    state: z.string(),
    pincode: z.string(),
    addressType: z.enum(ADDRESS_TYPE_VALUES),
    instructions: z.string(),
    isDefault: z.boolean(),
    /** Whether the shop delivers to its PIN code (store.yaml's area); an address outside can be kept, not ordered to. */
    served: z.boolean(),
  })
  .openapi('Address');

/** Every address call answers the shopper's whole list (default first), so a page redraws from one answer. */
export const AddressListSchema = z.object({ addresses: z.array(AddressSchema) }).openapi('AddressList');

// --- Serviceable area (issue 25) -------------------------------------------------------------------------------

export const PincodeParam = z.object({
  pincode: z
    .string()
    .regex(PINCODE_PATTERN, 'pincode must be 6 digits and cannot start with 0')
    .openapi({ param: { in: 'path', name: 'pincode' }, example: '560034' }),
});

export const DeliveryAreaSchema = z
  .object({
    pincode: z.string(),
    served: z.boolean().openapi({ description: 'The shop delivers to this PIN code (store.yaml area)' }),
    message: z.string().openapi({ example: "We don't deliver to 110024 yet." }),
    deliveryFeePaise: z.number().int().nullable().openapi({ description: 'The delivery fee there, in paise (0: free); null outside the area' }),
    minimumOrderPaise: z.number().int().nullable().openapi({ description: 'The smallest subtotal ordered there, in paise; null outside the area' }),
    nextSlot: z
      .object({ id: z.string(), date: z.string(), startsAt: z.string().openapi({ format: 'date-time' }), endsAt: z.string().openapi({ format: 'date-time' }) })
      .nullable()
      .openapi({ description: 'The first slot that can be chosen now; null outside the area or when none is open' }),
    timeZone: z.string().openapi({ description: 'The shop’s time zone, for showing the slot' }),
  })
  .openapi('DeliveryArea');

// --- Delivery slots --------------------------------------------------------------------------------------------

export const SlotSchema = z
  .object({
    /** The start in the shop's time zone, e.g. '2026-11-23T08:00'. */
    id: z.string(),
    /** '2026-11-23', in the shop's time zone. */
    date: z.string(),
    startsAt: z.string().openapi({ format: 'date-time' }),
    endsAt: z.string().openapi({ format: 'date-time' }),
    placesLeft: z.number().int(),
    /** null when it can be chosen. */
    unavailable: z.enum(['full', 'closed']).nullable(),
  })
  .openapi('DeliverySlot');

export const SlotListSchema = z
  .object({
    /** The shop's time zone: show slot times in it, whatever the shopper's clock says. */
    timeZone: z.string(),
    slots: z.array(SlotSchema),
  })
  .openapi('DeliverySlots');

// --- Orders ----------------------------------------------------------------------------------------------------

export const ORDER_STATUS_VALUES = ['placed', 'packed', 'out_for_delivery', 'delivered', 'cancelled'] as const;
export const PAYMENT_METHOD_VALUES = ['cash', 'upi', 'upi_now'] as const;
export const CANCELLED_BY_VALUES = ['shopper', 'shop', 'payment_expired'] as const;

/** Who cancelled a cancelled order (null otherwise), and the shop's reason, which the shopper is shown. */
const cancellation = {
  cancelledBy: z.enum(CANCELLED_BY_VALUES).nullable().openapi({ description: 'Who cancelled a cancelled order; null while it is not cancelled' }),
  cancelReason: z
    .string()
    .nullable()
    .openapi({ description: 'The shop’s reason when the shop cancelled it, shown as "Cancelled by the shop: <reason>"; null otherwise' }),
};

/**
 * The order a shopper places: the cart's lines at the server's prices. Anything else a client sends (prices, totals,
 * discounts, lines) is dropped unread.
 */
export const PlaceOrderSchema = z
  .object({
    addressId: z.number({ error: 'choose a delivery address' }).int().positive('choose a delivery address').max(2_147_483_647),
    slotId: z.string({ error: 'choose a delivery slot' }).regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'choose a delivery slot'),
    paymentMethod: z.enum(PAYMENT_METHOD_VALUES, {
      error: "paymentMethod must be 'cash' or 'upi' (paid on delivery), or 'upi_now' (paid now by UPI)",
    }),
    /** Checked again here against the cart (issue 25): the client's discount is never taken. */
    couponCode: z
      .string()
      .trim()
      .min(1, 'couponCode must not be empty')
      .max(40, 'couponCode must be at most 40 characters')
      .optional()
      .openapi({
        description:
          "A coupon from the cart (any case). It is priced again; one that no longer applies is 409 with its reason's code (coupon_unknown, coupon_expired, coupon_below_minimum, coupon_used) and nothing is ordered",
        example: 'WELCOME50',
      }),
  })
  .openapi('PlaceOrder');

/** `{id}` of an order's path: the same positive whole number as a cart line's. */
export const OrderIdParam = CartLineIdParam;

/** Order Tracking's paging: pages count from 1 here, as the shopper sees them. */
export const OrderPagingQuery = z.object({
  pageNo: wholeNumber('pageNo', 1, 100_000).default(1).openapi({ example: 1 }),
  pageSize: wholeNumber('pageSize', 1, MAX_ORDER_PAGE_SIZE).default(PAGE_SIZES.orders).openapi({ example: PAGE_SIZES.orders }),
});

/** A cart line as it was ordered: its prices copied at order time (no line id, price id or stock any more). */
export const OrderLineSchema = CartLineSchema.omit({ id: true, productVariantPriceId: true, inStock: true, maxQty: true, limitedByStock: true, notifyRequested: true })
  .extend({
    /** The line's own id: what a report about it names (POST /app/Orders/{id}/Issues). */
    orderLineId: z.number().int(),
    /** The shopper's report about this line and its outcome (issue 25); null: none. */
    issue: OrderIssueSchema.nullable(),
  })
  .openapi('OrderLine');

/** The same fields as the cart's summary, so the cart, the checkout, the order and its details show the same numbers. */
export const OrderSummarySchema = CartSummarySchema;

export const OrderEventSchema = z
  .object({ status: z.enum(ORDER_STATUS_VALUES), at: z.string().openapi({ format: 'date-time' }) })
  .openapi('OrderEvent');

export const PAYMENT_STATUS_VALUES = ['on_delivery', 'awaiting', 'paid', 'expired'] as const;

/** The UPI payment request of an order awaiting payment (src/server/payments/upi.ts). */
export const UpiPaymentRequestSchema = z
  .object({
    link: z.string().openapi({
      description: 'The upi://pay link a phone’s UPI app opens: pa, pn, am (rupees, 2 decimals), cu=INR, tn (the note), tr (the reference), each percent-encoded',
      example: 'upi://pay?pa=kirana.demo%40okaxis&pn=Kirana%20Retail&am=258.00&cu=INR&tn=Kirana%20order%2012&tr=KIRANA00000012',
    }),
    qrSvg: z.string().openapi({ description: 'The same link as a QR code: an SVG document made on the server' }),
    upiId: z.string().openapi({ description: 'The grocer’s UPI ID (VPA), to type in by hand', example: 'kirana.demo@okaxis' }),
    payeeName: z.string().openapi({ example: 'Kirana Retail' }),
    amount: z.string().openapi({ description: 'Exactly what to pay, in rupees with 2 decimals', example: '258.00' }),
    note: z.string().openapi({ description: 'The payment’s note: names the order', example: 'Kirana order 12' }),
    reference: z.string().openapi({ example: 'KIRANA00000012' }),
  })
  .openapi('UpiPaymentRequest');

/** How an order is paid, and where its payment is. */
export const OrderPaymentSchema = z
  .object({
    method: z.enum(PAYMENT_METHOD_VALUES),
    status: z.enum(PAYMENT_STATUS_VALUES).openapi({
      description:
        "'on_delivery' (cash or UPI to the delivery person); a pay-now order is 'awaiting' until the shop confirms the payment ('paid') or its time runs out ('expired': the order is cancelled)",
    }),
    dueAt: z.string().nullable().openapi({ format: 'date-time', description: 'A pay-now order’s deadline; null otherwise' }),
    paidAt: z.string().nullable().openapi({ format: 'date-time', description: 'When the shop confirmed the payment; null until then' }),
    request: UpiPaymentRequestSchema.nullable().openapi({ description: 'What to pay from, while the order awaits its payment; null otherwise' }),
  })
  .openapi('OrderPayment');

export const OrderSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(ORDER_STATUS_VALUES),
    paymentMethod: z.enum(PAYMENT_METHOD_VALUES),
    slot: z.object({ id: z.string(), startsAt: z.string(), endsAt: z.string() }),
    /** The shop's time zone, for showing the slot. */
    timeZone: z.string(),
    address: AddressSchema.omit({ id: true, isDefault: true, served: true, addressType: true, instructions: true }).extend({
      addressType: z.enum(ADDRESS_TYPE_VALUES).optional().openapi({ description: 'Absent on orders placed before issue 25' }),
      instructions: z.string().optional(),
    }),
    lines: z.array(OrderLineSchema),
    summary: OrderSummarySchema,
    /** Oldest first; the last one is the status. */
    timeline: z.array(OrderEventSchema),
    /** True while it is not yet packed. */
    cancellable: z.boolean(),
    ...cancellation,
    createdAt: z.string().openapi({ format: 'date-time' }),
    payment: OrderPaymentSchema,
    /** A delivered order: until when its lines can be reported (delivery + store.yaml offers.returnDays); else null. */
    returnsUntil: z.string().nullable().openapi({ format: 'date-time' }),
  })
  .openapi('Order');

export const OrderListItemSchema = z
  .object({
    id: z.number().int(),
    status: z.enum(ORDER_STATUS_VALUES),
    createdAt: z.string().openapi({ format: 'date-time' }),
    slot: z.object({ id: z.string(), startsAt: z.string(), endsAt: z.string() }),
    itemCount: z.number().int(),
    totalPaise: z.number().int(),
    /** The first few product names, for the list. */
    names: z.array(z.string()),
    ...cancellation,
    paymentStatus: z.enum(PAYMENT_STATUS_VALUES),
    settledAt: z
      .string()
      .nullable()
      .openapi({ format: 'date-time', description: "When a delivered or cancelled order became so ('Delivered on …'); null while it is open" }),
  })
  .openapi('OrderListItem');

export const OrderPageSchema = z
  .object({
    orders: z.array(OrderListItemSchema),
    pageNo: z.number().int(),
    pageSize: z.number().int(),
    total: z.number().int(),
    timeZone: z.string(),
  })
  .openapi('OrderPage');

export const ReorderResultSchema = z
  .object({
    cart: CartSchema,
    /** Lines put back in the cart (at today's prices). */
    added: z.array(z.object({ productsId: z.number().int(), name: z.string(), qty: z.number().int() })),
    /** Lines that could not be: the product or pack is gone, unpriced or out of stock. */
    unavailable: z.array(z.object({ productsId: z.number().int(), name: z.string(), reason: z.string() })),
  })
  .openapi('ReorderResult');

// --- Wishlist --------------------------------------------------------------------------------------------------

export const WishlistAddSchema = z
  .object({
    productsId: z.number({ error: 'productsId is required' }).int().positive('productsId must be positive').max(2_147_483_647),
  })
  .openapi('WishlistAdd');

/** The hearts: which products the shopper keeps (newest first). */
export const WishlistIdsSchema = z.object({ productIds: z.array(z.number().int()) }).openapi('WishlistIds');

export const WishlistSchema = z
  .object({ items: z.array(z.object({ addedAt: z.string().openapi({ format: 'date-time' }), product: ProductSchema })) })
  .openapi('Wishlist');

export type AddressInput = z.input<typeof AddressInputSchema>;
export type DeliveryAreaDto = z.infer<typeof DeliveryAreaSchema>;
export type AddressDto = z.infer<typeof AddressSchema>;
export type AddressListDto = z.infer<typeof AddressListSchema>;
export type SlotDto = z.infer<typeof SlotSchema>;
export type SlotListDto = z.infer<typeof SlotListSchema>;
export type PlaceOrderInput = z.input<typeof PlaceOrderSchema>;
export type OrderDto = z.infer<typeof OrderSchema>;
export type OrderPaymentDto = z.infer<typeof OrderPaymentSchema>;
export type OrderSummaryDto = z.infer<typeof OrderSummarySchema>;
export type OrderPageDto = z.infer<typeof OrderPageSchema>;
export type OrderListItemDto = z.infer<typeof OrderListItemSchema>;
export type ReorderResultDto = z.infer<typeof ReorderResultSchema>;
export type WishlistDto = z.infer<typeof WishlistSchema>;
export type WishlistIdsDto = z.infer<typeof WishlistIdsSchema>;

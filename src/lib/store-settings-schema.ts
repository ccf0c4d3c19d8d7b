// The shape of src/content/settings/store.yaml. The content build checks it (src/content.config.ts) and so does the
// API when it starts (src/server/store-settings.ts), so a grocer's mistake is named the same way in both places.
import { z } from 'zod';
import { CART_LIMITS } from './form-limits.ts';
import { parsePinEntry } from './delivery-area.ts';

const hours = z.object({ label: z.string().min(2), hours: z.string().min(2) });

const clockTime = (field: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${field} must be a time written like 08:00 (24-hour clock)`);

const percent = z.number().int().min(0).max(90);

/**
 * A GSTIN: 2 digits of the state, the 10-character PAN (5 letters, 4 digits, a letter), the entity's number (1-9 or a
 * letter), Z, and a check character. Upper case, no spaces.
 */
export const GSTIN_PATTERN = /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/;

/** A last valid day written 2026-12-31. YAML reads an unquoted one as a date already: it is taken back to its text. */
const lastDay = z.preprocess(
  (value) => (value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString().slice(0, 10) : value),
  z
    .string({ error: 'coupons: each coupon needs a lastDay, written like "2026-12-31"' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'coupons: lastDay must be a date written like "2026-12-31"')
    .refine((s) => {
      const date = new Date(`${s}T00:00:00Z`);
      return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(s);
    }, 'coupons: lastDay is not a real date'),
);

/** A coupon a shopper types in the cart (issue 25): percent or rupees off, once per verified mobile number. */
export const couponSchema = z
  .object({
    /** What the shopper types; any case, kept upper case. */
    code: z
      .string({ error: 'coupons: each coupon needs a code' })
      .regex(/^[A-Za-z0-9]{3,20}$/, 'coupons: a code is 3 to 20 letters and digits, no spaces, e.g. WELCOME50')
      .transform((code) => code.toUpperCase()),
    /** What the shopper reads beside the code, e.g. '₹50 off orders of ₹299 or more'. */
    label: z.string({ error: 'coupons: each coupon needs a label' }).min(3, 'coupons: a label is at least 3 characters').max(80, 'coupons: a label is at most 80 characters'),
    /** Percent off (1 to 90) … */
    percentOff: z.number().int('coupons: percentOff is a whole number').min(1, 'coupons: percentOff is 1 to 90').max(90, 'coupons: percentOff is 1 to 90').optional(),
    /** … or rupees off: exactly one of the two. */
    amountOffRupees: z.number().int('coupons: amountOffRupees is a whole number of rupees').positive('coupons: amountOffRupees must be more than 0').optional(),
    /** A percent coupon takes at most this many rupees off ("up to ₹100"). */
    maxOffRupees: z.number().int('coupons: maxOffRupees is a whole number of rupees').positive('coupons: maxOffRupees must be more than 0').optional(),
    /** The cart's subtotal (selling prices, before the offers) must reach this many rupees. */
    minOrderRupees: z.number().int('coupons: minOrderRupees is a whole number of rupees').min(0, 'coupons: minOrderRupees cannot be below 0').default(0),
    /** The last day the coupon can be used, in the shop's time zone (delivery.timeZone). */
    lastDay,
  })
  .refine((c) => (c.percentOff === undefined) !== (c.amountOffRupees === undefined), {
    message: 'coupons: give each coupon either percentOff or amountOffRupees, not both and not neither',
    path: ['percentOff'],
  })
  .refine((c) => c.maxOffRupees === undefined || c.percentOff !== undefined, {
    message: 'coupons: maxOffRupees is only for a percentOff coupon',
    path: ['maxOffRupees'],
  });

export type Coupon = z.infer<typeof couponSchema>;

/** A group of the serviceable area (issue 25): its PIN codes, and what it sets apart from the shop's own rules. */
export const areaGroupSchema = z.object({
  /** A name for the grocer ("Jayanagar and Koramangala"); shoppers are not shown it. */
  name: z.string({ error: 'area: each group needs a name' }).min(2, 'area: a group name is at least 2 characters'),
  /** Single PIN codes ("560034") or ranges ("560001-560099"), at least one. */
  pincodes: z
    .array(
      z
        .string({ error: 'area: write each PIN code in quotes, e.g. "560034"' })
        .refine((entry) => parsePinEntry(entry) !== null, 'area: a PIN code is 6 digits not starting with 0 ("560034"), or a range from the smaller to the larger ("560001-560099")'),
    )
    .min(1, 'area: each group needs at least one PIN code'),
  /** The delivery fee here in rupees (0 = free); left out, the offers' fee (or free delivery) applies. */
  deliveryFeeRupees: z.number().int('area: deliveryFeeRupees is a whole number of rupees').min(0).optional(),
  /** The smallest order here, in rupees (the subtotal before discounts); 0 = any order. */
  minimumOrderRupees: z.number().int('area: minimumOrderRupees is a whole number of rupees').min(0).default(0),
  /** Slots of their own here; left out, the delivery section's. */
  slots: z
    .object({
      from: clockTime('area slots.from'),
      to: clockTime('area slots.to'),
      slotHours: z.number().int().min(1).max(12),
      capacity: z.number().int().min(1).max(10_000),
    })
    .refine((d) => d.from < d.to, { message: 'area slots.from must be before slots.to', path: ['to'] })
    .optional(),
});

export type AreaGroup = z.infer<typeof areaGroupSchema>;

/** UPI's usual limit for one payment (NPCI), in rupees: a pay-now request above it would fail in the shopper's app. */
export const UPI_PAYMENT_MAX_RUPEES = 100_000;

/** What the limits are when store.yaml leaves them out: what a neighbourhood kirana would pick (store.yaml says why). */
export const LIMIT_DEFAULTS = {
  openOrdersPerNumber: 3,
  unitsPerProduct: 10,
  slotPlacesPerShopper: 1,
  linesPerOrder: 40,
  unitsPerOrder: 100,
  orderValueMaxRupees: 20_000,
  openUnitsPerNumber: 200,
  openValuePerNumberRupees: 40_000,
  payNowMaxRupees: 10_000,
  expiredPayNowPerDay: 2,
  orderTextsPerNumberPerHour: 10,
} as const;

export const storeSettingsSchema = z.object({
  shopName: z.string().min(2),
  offers: z.object({
    /** Shown in the strip above the header, one after another. */
    headline: z.array(z.string().min(3)).min(1),
    /** Off the subtotal of every order. */
    allProductsDiscountPercent: percent,
    /** Off the subtotal of a shopper's first order, instead of the all-products discount when that is larger. */
    firstOrderDiscountPercent: percent,
    /** The first-order discount is at most this many rupees ("up to"). */
    firstOrderDiscountMaxRupees: z.number().int().positive(),
    /** From this subtotal (rupees) the best-price discount below applies too. */
    bestPriceThresholdRupees: z.number().int().positive(),
    bestPriceDiscountPercent: percent,
    freeDelivery: z.boolean(),
    /** Charged per order when freeDelivery is false. */
    deliveryFeeRupees: z.number().int().min(0),
    returnDays: z.number().int().positive(),
  }),
  delivery: z
    .object({
      /** Slots start at `from` and the last one ends by `to`, inside the customer care hours. */
      from: clockTime('delivery.from'),
      to: clockTime('delivery.to'),
      slotHours: z.number().int().min(1).max(12),
      /** Today and this many days after it. */
      daysAhead: z.number().int().min(0).max(14),
      /** Orders one slot can take. */
      capacity: z.number().int().min(1).max(10_000),
      /** A slot closes for new orders this many minutes before it starts. */
      cutoffMinutes: z.number().int().min(0).max(24 * 60),
      /** The shop's clock: slot times are written and chosen in it. */
      timeZone: z.string().min(3).default('Asia/Kolkata'),
    })
    .refine((d) => d.from < d.to, { message: 'delivery.from must be before delivery.to', path: ['to'] }),
  /** Limits that stop one person hoarding stock and delivery slots; they hang on the shopper's verified mobile number. */
  limits: z
    .object({
      /** Orders one verified number may have open (placed, packed or out for delivery) at once. */
      openOrdersPerNumber: z.number().int().min(1).max(100).default(LIMIT_DEFAULTS.openOrdersPerNumber),
      /** Units of one product in one order, all its pack sizes together; a cart line's ceiling too (the API's bound is its ceiling). */
      unitsPerProduct: z.number().int().min(1).max(CART_LIMITS.maxQty).default(LIMIT_DEFAULTS.unitsPerProduct),
      /** Orders one shopper may have in one delivery slot. */
      slotPlacesPerShopper: z.number().int().min(1).max(100).default(LIMIT_DEFAULTS.slotPlacesPerShopper),
      /** Different items (lines) in one order. */
      linesPerOrder: z.number().int().min(1).max(1_000).default(LIMIT_DEFAULTS.linesPerOrder),
      /** Units in one order, every line together. */
      unitsPerOrder: z.number().int().min(1).max(10_000).default(LIMIT_DEFAULTS.unitsPerOrder),
      /** The most one order's goods may be worth (selling prices before the offers), in rupees. */
      orderValueMaxRupees: z.number().int('limits: orderValueMaxRupees is a whole number of rupees').min(1).default(LIMIT_DEFAULTS.orderValueMaxRupees),
      /** Units one verified number may have on its way, across its open orders (this one included). */
      openUnitsPerNumber: z.number().int().min(1).max(100_000).default(LIMIT_DEFAULTS.openUnitsPerNumber),
      /** What one verified number's open orders may be worth together (this one included), in rupees. */
      openValuePerNumberRupees: z.number().int('limits: openValuePerNumberRupees is a whole number of rupees').min(1).default(LIMIT_DEFAULTS.openValuePerNumberRupees),
      /** The most a pay-now UPI request may ask for, in rupees: UPI's usual ceiling per payment is ₹1,00,000. */
      payNowMaxRupees: z
        .number()
        .int('limits: payNowMaxRupees is a whole number of rupees')
        .min(1)
        .max(UPI_PAYMENT_MAX_RUPEES, `limits: payNowMaxRupees can be at most ${UPI_PAYMENT_MAX_RUPEES} (UPI's usual limit for one payment is ₹1,00,000)`)
        .default(LIMIT_DEFAULTS.payNowMaxRupees),
      /** Pay-now orders of one number that expired unpaid in the last 24 hours after which it may pay on delivery only. */
      expiredPayNowPerDay: z.number().int().min(1).max(100).default(LIMIT_DEFAULTS.expiredPayNowPerDay),
      /** Texts about orders one number gets in an hour; past it the notices go by mail only. */
      orderTextsPerNumberPerHour: z.number().int().min(1).max(1_000).default(LIMIT_DEFAULTS.orderTextsPerNumberPerHour),
    })
    .default(LIMIT_DEFAULTS),
  /** Paying now by UPI (issue 25): where the money goes, and how long an unpaid order keeps its stock and slot. */
  payments: z
    .object({
      /** The grocer's UPI ID (VPA), e.g. kirana@okhdfcbank: shown to shoppers and put in the UPI payment request. */
      upiId: z
        .string()
        .regex(/^[a-zA-Z0-9._-]{2,256}@[a-zA-Z][a-zA-Z0-9.-]{1,63}$/, 'payments.upiId must be a UPI ID written like kirana@okhdfcbank'),
      /** The name UPI apps show as the payee: the name on the grocer's bank account. */
      payeeName: z.string().min(2).max(50),
      /** Minutes a pay-now order waits for its payment before it is cancelled and gives its stock and slot back. */
      payWithinMinutes: z.number().int().min(5).max(24 * 60),
    })
    .default({ upiId: 'kirana@upi', payeeName: 'Kirana', payWithinMinutes: 30 }),
  /** Codes a shopper types in the cart (issue 25); none by default. */
  coupons: z
    .array(couponSchema)
    .default([])
    .refine((list) => new Set(list.map((c) => c.code)).size === list.length, 'coupons: two coupons have the same code'),
  /**
   * Where the shop delivers (issue 25): groups of PIN codes, read top to bottom (a PIN's first group counts). Left out,
   * every PIN code is served with the shop's own rules.
   */
  area: z.object({ groups: z.array(areaGroupSchema).min(1, 'area: list at least one group of PIN codes') }).optional(),
  support: z.object({
    hours: z.array(hours).min(1),
    phone: z.string().regex(/^\+?[0-9 -]{8,20}$/, 'phone must be digits, spaces or dashes, e.g. +91 80 4567 8900'),
    email: z.email(),
    whatsapp: z.string().optional(),
  }),
  address: z.object({
    lines: z.array(z.string().min(2)).min(1),
    city: z.string().min(2),
    pincode: z.string().regex(/^\d{6}$/, 'pincode must be 6 digits'),
    state: z.string().min(2),
  }),
  /** The tax invoice of a delivered order (issue 25): who sells (the address above is theirs), their GSTIN, the GST. */
  invoice: z.object({
    /** The registered business name, as on the GST certificate. */
    legalName: z.string().min(2),
    gstin: z
      .string()
      .regex(GSTIN_PATTERN, 'invoice.gstin must be a 15-character GSTIN in capitals, e.g. 29AAACK1234F1Z5'),
    /** The shop's prices include GST at this rate (percent); the invoice shows the GST each line and the total include. */
    gstPercent: z.number().min(0).max(28),
  }),
});

export type StoreSettingsData = z.infer<typeof storeSettingsSchema>;

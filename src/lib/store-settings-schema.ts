// The shape of src/content/settings/store.yaml. The content build checks it (src/content.config.ts) and so does the
// API when it starts (src/server/store-settings.ts), so a grocer's mistake is named the same way in both places.
import { z } from 'zod';
import { CART_LIMITS } from './form-limits.ts';

const hours = z.object({ label: z.string().min(2), hours: z.string().min(2) });

const clockTime = (field: string) =>
  z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${field} must be a time written like 08:00 (24-hour clock)`);

const percent = z.number().int().min(0).max(90);

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
      openOrdersPerNumber: z.number().int().min(1).max(100).default(3),
      /** Units of one product (one pack size) in one order, and so in the cart; the API's bound is its ceiling. */
      unitsPerProduct: z.number().int().min(1).max(CART_LIMITS.maxQty).default(10),
      /** Orders one shopper may have in one delivery slot. */
      slotPlacesPerShopper: z.number().int().min(1).max(100).default(1),
    })
    .default({ openOrdersPerNumber: 3, unitsPerProduct: 10, slotPlacesPerShopper: 1 }),
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
});

export type StoreSettingsData = z.infer<typeof storeSettingsSchema>;

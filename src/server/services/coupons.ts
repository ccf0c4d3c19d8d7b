// Coupons (issue 25): a code from store.yaml checked against the shopper's priced cart, on the server only. A coupon
// comes after the offers: it is taken off what is left of the subtotal once they are applied (never more than that),
// its minimum is judged on the subtotal the cart shows (so "add ₹49 more" is true), and it is once per verified number
// and once per account.
import { and, eq, ne, or, sql } from 'drizzle-orm';
import type { CartSummaryDto, CouponCheckDto, CouponRefusalCode } from '../account-schemas.ts';
import { formatRupees } from '../../lib/money.ts';
import type { Coupon } from '../../lib/store-settings-schema.ts';
import type { Database } from '../db/client.ts';
import { orders, users } from '../db/schema.ts';
import { ApiError } from '../errors.ts';

export interface CouponRules {
  coupons: Coupon[];
  /** The shop's clock: a coupon's lastDay is a day in it. */
  timeZone: string;
  now: () => Date;
}

/** What the shopper typed, as store.yaml keeps it: trimmed, upper case. */
export const couponKey = (code: string) => code.trim().toUpperCase();

/** The day `now` is in the shop's time zone, written 2026-11-30 (en-CA writes dates that way). */
export const shopDay = (now: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

/** '30 Nov 2025': a lastDay as the shopper reads it. */
const dayText = (day: string) =>
  new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(new Date(`${day}T00:00:00Z`));

export const couponRefusals = {
  unknown: (code: string) => `${code} is not one of our coupon codes. Please check the spelling.`,
  expired: (code: string, lastDay: string) => `${code} expired on ${dayText(lastDay)}.`,
  used: (code: string) => `You have already used ${code}: each coupon is once per mobile number.`,
  belowMinimum: (code: string, shortPaise: number) => `Add ${formatRupees(shortPaise)} more to use ${code}.`,
  emptyCart: (code: string) => `Add something to your cart to use ${code}.`,
} as const;

/** The coupon's money off what is left after the offers, in paise: a percent capped by maxOffRupees, never past what is left. */
export function couponAmountPaise(coupon: Coupon, afterOffersPaise: number): number {
  const off = coupon.amountOffRupees !== undefined ? coupon.amountOffRupees * 100 : Math.round((afterOffersPaise * (coupon.percentOff ?? 0)) / 100);
  const capped = coupon.maxOffRupees !== undefined ? Math.min(off, coupon.maxOffRupees * 100) : off;
  return Math.max(0, Math.min(capped, afterOffersPaise));
}

const refused = (code: string, reason: CouponRefusalCode, message: string): CouponCheckDto => ({
  code,
  applies: false,
  label: null,
  amountPaise: 0,
  reason: { code: reason, message },
});

/**
 * The verdict on a code for a priced cart, in the order a shopper can act on it: a code we do not have, one past its
 * last day, one this number used, then a cart below its minimum (the one they can fix by adding more).
 */
export function judgeCoupon(typed: string, summary: CartSummaryDto, rules: CouponRules, usedByNumber: boolean): CouponCheckDto {
  const code = couponKey(typed);
  const coupon = rules.coupons.find((c) => c.code === code);
  if (!coupon) return refused(code, 'coupon_unknown', couponRefusals.unknown(code));
  if (shopDay(rules.now(), rules.timeZone) > coupon.lastDay) return refused(code, 'coupon_expired', couponRefusals.expired(code, coupon.lastDay));
  if (usedByNumber) return refused(code, 'coupon_used', couponRefusals.used(code));
  if (summary.itemCount === 0) return refused(code, 'coupon_below_minimum', couponRefusals.emptyCart(code));
  const short = coupon.minOrderRupees * 100 - summary.subtotalPaise;
  if (short > 0) return refused(code, 'coupon_below_minimum', couponRefusals.belowMinimum(code, short));
  return {
    code,
    applies: true,
    label: coupon.label,
    amountPaise: couponAmountPaise(coupon, summary.subtotalPaise - summary.discountPaise),
    reason: null,
  };
}

/** The summary with an applying coupon as its own line after the offers ('Coupon WELCOME50'), and the totals with it. */
export function withCoupon(summary: CartSummaryDto, check: CouponCheckDto): CartSummaryDto {
  if (!check.applies || check.amountPaise <= 0) return summary;
  return {
    ...summary,
    discounts: [...summary.discounts, { code: 'coupon', label: `Coupon ${check.code}`, amountPaise: check.amountPaise }],
    discountPaise: summary.discountPaise + check.amountPaise,
    totalPaise: summary.totalPaise - check.amountPaise,
  };
}

/**
 * Whether the shopper's account or number has an order with this coupon that is not cancelled (the unique index
 * orders_coupon_once_per_phone_key says the same of the number at insert; placeOrder holds the account's row, so two
 * orders of one account are judged one after the other). Once per account too: an account that moved to a new number
 * must not get a welcome coupon again (issue 32). A number not verified yet is nobody's proof: only the shopper's own
 * orders count then, and placing the order (which needs it verified) asks again by number.
 */
export async function couponUsed(db: Database, userId: number, code: string): Promise<boolean> {
  const [shopper] = await db
    .select({ phone: users.phone, verified: sql<boolean>`${users.phoneVerifiedAt} is not null` })
    .from(users)
    .where(eq(users.id, userId));
  const whose = shopper?.verified ? or(eq(orders.userId, userId), eq(orders.verifiedPhone, shopper.phone)) : eq(orders.userId, userId);
  const [used] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.couponCode, code), ne(orders.status, 'cancelled'), whose))
    .limit(1);
  return used !== undefined;
}

/** The check of a typed code against a priced cart, with the database's answer on "once per number". */
export async function checkCoupon(db: Database, userId: number, typed: string, summary: CartSummaryDto, rules: CouponRules): Promise<CouponCheckDto> {
  const code = couponKey(typed);
  const known = rules.coupons.some((c) => c.code === code);
  return judgeCoupon(code, summary, rules, known && (await couponUsed(db, userId, code)));
}

/** A coupon that does not apply, as PlaceOrder refuses it: 409 with the refusal's own code and message. */
export const couponRefused = (check: CouponCheckDto) =>
  new ApiError(409, check.reason?.code ?? 'coupon_unknown', check.reason?.message ?? couponRefusals.unknown(check.code));

/** The answer when two orders race with one coupon and number and the unique index stops the second. */
export const couponTaken = (code: string) => new ApiError(409, 'coupon_used', couponRefusals.used(code));

/** Whether an error (or one it wraps) is the unique index of a coupon once per number refusing a second order. */
export function isCouponOnceViolation(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, constraint, message } = e as { code?: unknown; constraint?: unknown; message?: unknown };
    if (code === '23505' && (constraint === 'orders_coupon_once_per_phone_key' || String(message).includes('orders_coupon_once_per_phone_key'))) return true;
  }
  return false;
}

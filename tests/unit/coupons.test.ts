// Coupons (issue 25) at their edges: the money off after the offers, the order of the refusal reasons, and the last
// day in the shop's clock. Pure functions, no database (tests/api/coupons.test.ts has the HTTP side).
import { describe, expect, it } from 'vitest';
import type { CartSummaryDto } from '../../src/server/account-schemas.ts';
import { couponAmountPaise, judgeCoupon, shopDay, withCoupon, type CouponRules } from '../../src/server/services/coupons.ts';
import { couponSchema } from '../../src/lib/store-settings-schema.ts';

const amount = couponSchema.parse({ code: 'welcome50', label: '₹50 off', amountOffRupees: 50, minOrderRupees: 299, lastDay: '2026-11-30' });
const percent = couponSchema.parse({ code: 'SAVE10', label: '10% off', percentOff: 10, maxOffRupees: 100, minOrderRupees: 499, lastDay: '2026-11-30' });

const rules = (at: string): CouponRules => ({ coupons: [amount, percent], timeZone: 'Asia/Kolkata', now: () => new Date(at) });

/** A cart of `subtotal` paise with 5% off as its one offer and a delivery fee. */
function summary(subtotalPaise: number, deliveryPaise = 3_000): CartSummaryDto {
  const off = Math.round(subtotalPaise * 0.05);
  return {
    itemCount: 1,
    subtotalPaise,
    mrpTotalPaise: subtotalPaise,
    savingsPaise: 0,
    discounts: [{ code: 'all-products', label: '5% off all products', amountPaise: off }],
    discountPaise: off,
    deliveryPaise,
    totalPaise: subtotalPaise - off + deliveryPaise,
  };
}

describe('couponAmountPaise', () => {
  it('rounds a percent half up to a paisa, caps it, and never passes what is left', () => {
    expect(couponAmountPaise(percent, 12_345)).toBe(1_235);
    expect(couponAmountPaise(percent, 100_001)).toBe(10_000);
    expect(couponAmountPaise(amount, 3_000)).toBe(3_000);
    expect(couponAmountPaise(amount, 0)).toBe(0);
  });
});

describe('judgeCoupon', () => {
  const noon = '2026-11-25T06:30:00Z';
  it('keeps codes upper case and answers unknown before anything else', () => {
    expect(amount.code).toBe('WELCOME50');
    expect(judgeCoupon('welcome5O', summary(0), rules(noon), true).reason?.code).toBe('coupon_unknown');
  });

  it('puts expired before used, and used before a short cart', () => {
    expect(judgeCoupon('WELCOME50', summary(100), rules('2026-12-01T06:30:00Z'), true).reason?.code).toBe('coupon_expired');
    expect(judgeCoupon('WELCOME50', summary(100), rules(noon), true).reason?.code).toBe('coupon_used');
    expect(judgeCoupon('WELCOME50', summary(100), rules(noon), false).reason?.code).toBe('coupon_below_minimum');
  });

  it('works to the end of its last day in the shop’s time zone, not UTC’s', () => {
    // 23:59 on 30 Nov in Kolkata is 18:29 UTC; 00:00 on 1 Dec there is 18:30 UTC, still 30 Nov in UTC.
    expect(shopDay(new Date('2026-11-30T18:29:00Z'), 'Asia/Kolkata')).toBe('2026-11-30');
    expect(judgeCoupon('WELCOME50', summary(29_900), rules('2026-11-30T18:29:00Z'), false).applies).toBe(true);
    expect(judgeCoupon('WELCOME50', summary(29_900), rules('2026-11-30T18:30:00Z'), false).reason).toEqual({
      code: 'coupon_expired',
      message: 'WELCOME50 expired on 30 Nov 2026.',
    });
  });

  it('leaves delivery out: the coupon is off the subtotal after the offers, and the total keeps the fee', () => {
    const cart = summary(60_000);
    const check = judgeCoupon('save10', cart, rules(noon), false);
    expect(check).toMatchObject({ code: 'SAVE10', applies: true, amountPaise: 5_700 });
    const priced = withCoupon(cart, check);
    expect(priced.discounts.at(-1)).toEqual({ code: 'coupon', label: 'Coupon SAVE10', amountPaise: 5_700 });
    expect(priced.discountPaise).toBe(3_000 + 5_700);
    expect(priced.totalPaise).toBe(60_000 - 3_000 - 5_700 + 3_000);
    expect(withCoupon(cart, judgeCoupon('NOPE', cart, rules(noon), false))).toBe(cart);
  });
});

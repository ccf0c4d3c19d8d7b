// The offers of SPEC §1 at their edges, and the delivery slots' clock: pure functions, no database.
import { describe, expect, it } from 'vitest';
import { priceSummary, type Offers } from '../../src/server/services/pricing.ts';
import { offeredSlots, zonedInstant, type DeliveryRules } from '../../src/server/services/slots.ts';

const offers: Offers = {
  headline: ['5% off on all products'],
  allProductsDiscountPercent: 5,
  firstOrderDiscountPercent: 15,
  firstOrderDiscountMaxRupees: 150,
  bestPriceThresholdRupees: 500,
  bestPriceDiscountPercent: 2,
  freeDelivery: true,
  deliveryFeeRupees: 30,
  returnDays: 30,
};

const summary = (subtotalPaise: number, firstOrder = false, rules = offers) =>
  priceSummary({ subtotalPaise, mrpTotalPaise: subtotalPaise + 1000, itemCount: 3, firstOrder }, rules);

describe('the offers', () => {
  it('takes 5% off all products, rounded half up to a paisa, and no best price below ₹500', () => {
    const s = summary(49_999);
    expect(s.discounts).toEqual([{ code: 'all-products', label: '5% off all products', amountPaise: 2500 }]);
    expect(s).toMatchObject({ discountPaise: 2500, deliveryPaise: 0, totalPaise: 49_999 - 2500, savingsPaise: 1000 });
    // 5% of 10 paise is 0.5: half up.
    expect(summary(10).discounts[0]!.amountPaise).toBe(1);
  });

  it('adds the best-price line from exactly ₹500', () => {
    const s = summary(50_000);
    expect(s.discounts).toEqual([
      { code: 'all-products', label: '5% off all products', amountPaise: 2500 },
      { code: 'best-price', label: 'Extra 2% off orders of ₹500 or more', amountPaise: 1000 },
    ]);
    expect(s.totalPaise).toBe(50_000 - 3500);
  });

  it('on a first order replaces 5% by 15% up to ₹150, never both', () => {
    const small = summary(40_000, true);
    expect(small.discounts).toEqual([{ code: 'first-order', label: '15% off your first order (up to ₹150)', amountPaise: 6000 }]);
    // 15% of ₹2,000 is ₹300: capped at ₹150, still larger than 5% (₹100) … plus the best price.
    const big = summary(200_000, true);
    expect(big.discounts.map((d) => [d.code, d.amountPaise])).toEqual([
      ['first-order', 15_000],
      ['best-price', 4000],
    ]);
    // 15% capped at ₹150 is less than 5% of ₹4,000 (₹200): the 5% line stays.
    expect(summary(400_000, true).discounts.map((d) => [d.code, d.amountPaise])).toEqual([
      ['all-products', 20_000],
      ['best-price', 8000],
    ]);
  });

  it('builds labels from the settings and charges the fee when delivery is not free', () => {
    const rules = { ...offers, allProductsDiscountPercent: 3, bestPriceThresholdRupees: 1000, freeDelivery: false };
    const s = summary(100_000, false, rules);
    expect(s.discounts.map((d) => d.label)).toEqual(['3% off all products', 'Extra 2% off orders of ₹1,000 or more']);
    expect(s.deliveryPaise).toBe(3000);
    expect(s.totalPaise).toBe(100_000 - 3000 - 2000 + 3000);
    expect(priceSummary({ subtotalPaise: 0, mrpTotalPaise: 0, itemCount: 0, firstOrder: true }, rules)).toMatchObject({
      discounts: [],
      deliveryPaise: 0,
      totalPaise: 0,
    });
  });
});

const delivery: DeliveryRules = {
  from: '08:00',
  to: '18:00',
  slotHours: 2,
  daysAhead: 1,
  capacity: 20,
  cutoffMinutes: 60,
  timeZone: 'Asia/Kolkata',
};

describe('delivery slots', () => {
  it('finds the instant of a wall-clock time in any zone, summer time included', () => {
    expect(zonedInstant('2026-11-23', 8 * 60, 'Asia/Kolkata').toISOString()).toBe('2026-11-23T02:30:00.000Z');
    expect(zonedInstant('2026-07-01', 9 * 60, 'Europe/London').toISOString()).toBe('2026-07-01T08:00:00.000Z');
    expect(zonedInstant('2026-01-01', 9 * 60, 'Europe/London').toISOString()).toBe('2026-01-01T09:00:00.000Z');
    expect(zonedInstant('2026-11-23', 0, 'America/New_York').toISOString()).toBe('2026-11-23T05:00:00.000Z');
  });

  it("lists today's slots not yet started and tomorrow's, closing one within its cut-off", () => {
    // 10:30 in Kolkata: 08:00 and 10:00 have started; 12:00 closes at 11:00, so it is still open.
    const now = new Date('2026-11-23T05:00:00Z');
    const slots = offeredSlots(delivery, now);
    expect(slots.map((s) => s.id)).toEqual([
      '2026-11-23T12:00',
      '2026-11-23T14:00',
      '2026-11-23T16:00',
      '2026-11-24T08:00',
      '2026-11-24T10:00',
      '2026-11-24T12:00',
      '2026-11-24T14:00',
      '2026-11-24T16:00',
    ]);
    expect(slots[0]).toMatchObject({ date: '2026-11-23', closed: false });
    expect(slots[0]!.startsAt.toISOString()).toBe('2026-11-23T06:30:00.000Z');
    expect(slots[0]!.endsAt.toISOString()).toBe('2026-11-23T08:30:00.000Z');
    // At 11:00 sharp the 12:00 slot closes (start − cut-off ≤ now).
    expect(offeredSlots(delivery, new Date('2026-11-23T05:30:00Z'))[0]).toMatchObject({ id: '2026-11-23T12:00', closed: true });
  });

  it('counts days in the shop’s zone: 01:00 in Kolkata is still the evening before in UTC', () => {
    const slots = offeredSlots({ ...delivery, daysAhead: 0 }, new Date('2026-11-22T19:30:00Z'));
    expect(slots.map((s) => s.id)).toEqual(['2026-11-23T08:00', '2026-11-23T10:00', '2026-11-23T12:00', '2026-11-23T14:00', '2026-11-23T16:00']);
  });
});

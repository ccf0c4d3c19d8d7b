// Coupons (issue 25) over HTTP: the cart priced with a code (?coupon=), each reason one does not apply, the money off
// after the offers (an amount, a percent with its cap, never past what is left), the minimum order's boundary, the
// last day in the shop's clock, PlaceOrder checking again, once per verified number (a cancelled order gives it back)
// and two orders racing with one coupon.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { orders, products } from '../../src/server/db/schema.ts';
import { isCouponOnceViolation } from '../../src/server/services/coupons.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { couponSchema, storeSettingsSchema } from '../../src/lib/store-settings-schema.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

// 07:30 in Kolkata on 23 Nov 2026: today's slots from 10:00 are open.
let clock = new Date('2026-11-23T02:00:00Z');
let api: TestApi;
let spare: number[] = [];

const coupons = [
  { code: 'AMT50', label: '₹50 off orders of ₹299 or more', amountOffRupees: 50, minOrderRupees: 299, lastDay: '2027-12-31' },
  { code: 'PCT10', label: '10% off orders of ₹499 or more (up to ₹100)', percentOff: 10, maxOffRupees: 100, minOrderRupees: 499, lastDay: '2027-12-31' },
  { code: 'BIG500', label: '₹500 off anything', amountOffRupees: 500, minOrderRupees: 0, lastDay: '2027-12-31' },
  { code: 'OLD', label: 'An old one', amountOffRupees: 20, minOrderRupees: 0, lastDay: '2026-11-22' },
  { code: 'TODAY', label: 'Last day today', amountOffRupees: 20, minOrderRupees: 0, lastDay: '2026-11-23' },
].map((c) => couponSchema.parse(c));

beforeAll(async () => {
  const store = readStoreSettings();
  api = await startTestApi({
    products: 60,
    now: () => clock,
    store: {
      ...store,
      // Only "5% off all products": the numbers below are that and the coupon, nothing else.
      offers: { ...store.offers, allProductsDiscountPercent: 5, firstOrderDiscountPercent: 0, bestPriceThresholdRupees: 1_000_000, freeDelivery: true },
      limits: { ...store.limits, openOrdersPerNumber: 100, unitsPerProduct: 20, slotPlacesPerShopper: 100, openUnitsPerNumber: 100_000, openValuePerNumberRupees: 10_000_000 },
      coupons,
    },
  });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

async function product(pricePaise: number, stock = 50) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  await api.db.update(products).set({ pricePaise, mrpPaise: pricePaise, stock }).where(eq(products.id, id));
  return id;
}

async function shopper() {
  const session = await api.register();
  const addressId = await saveHomeAddress(api.db, session.user.id);
  return { ...session, addressId: addressId };
}
type Shopper = Awaited<ReturnType<typeof shopper>>;

/** A shopper with one line in the cart worth `pricePaise`. */
async function shopperWith(pricePaise: number) {
  const s = await shopper();
  const res = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: await product(pricePaise), productVariantsId: 0, qty: 1 } });
  expect(res.status).toBe(201);
  return s;
}

async function cartWith(s: Shopper, coupon: string) {
  const res = await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}?coupon=${encodeURIComponent(coupon)}`, { token: s.token });
  expect(res.status).toBe(200);
  return (await res.json()) as CartDto;
}

let keys = 0;
const place = (s: Shopper, couponCode?: string) =>
  api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `coupon-key-${process.pid}-${++keys}` },
    body: { addressId: s.addressId, slotId: '2026-11-23T12:00', paymentMethod: 'cash', ...(couponCode ? { couponCode } : {}) },
  });

async function placed(s: Shopper, couponCode?: string) {
  const res = await place(s, couponCode);
  if (res.status !== 201) throw new Error(`Placing answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as OrderDto;
}

const couponLine = (summary: CartDto['summary']) => summary.discounts.find((d) => d.code === 'coupon');

describe('a coupon checked against the cart', () => {
  it('without ?coupon the cart is as before: no coupon field, no coupon line', async () => {
    const s = await shopperWith(50_000);
    const res = await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}`, { token: s.token });
    const cart = (await res.json()) as CartDto;
    expect(cart.coupon).toBeUndefined();
    expect(couponLine(cart.summary)).toBeUndefined();
  });

  it('an amount coupon comes after the offers, as its own line, in any case the shopper types it', async () => {
    const s = await shopperWith(29_900);
    const cart = await cartWith(s, ' amt50 ');
    expect(cart.coupon).toEqual({ code: 'AMT50', applies: true, label: '₹50 off orders of ₹299 or more', amountPaise: 5_000, reason: null });
    expect(cart.summary.discounts.map((d) => [d.code, d.label, d.amountPaise])).toEqual([
      ['all-products', '5% off all products', 1_495],
      ['coupon', 'Coupon AMT50', 5_000],
    ]);
    expect(cart.summary.discountPaise).toBe(6_495);
    expect(cart.summary.totalPaise).toBe(29_900 - 1_495 - 5_000);
  });

  it('the minimum is the subtotal: one paisa short is refused with what to add, the minimum itself applies', async () => {
    const short = await cartWith(await shopperWith(29_899), 'AMT50');
    expect(short.coupon).toMatchObject({ applies: false, amountPaise: 0, reason: { code: 'coupon_below_minimum', message: 'Add ₹0.01 more to use AMT50.' } });
    expect(couponLine(short.summary)).toBeUndefined();
    expect(short.summary.totalPaise).toBe(29_899 - 1_495);
    const fewer = await cartWith(await shopperWith(25_000), 'AMT50');
    expect(fewer.coupon?.reason).toEqual({ code: 'coupon_below_minimum', message: 'Add ₹49 more to use AMT50.' });
  });

  it('a percent coupon is a percent of what the offers leave, up to its cap', async () => {
    // ₹600: 5% is ₹30, leaving ₹570; 10% of it is ₹57.
    const under = await cartWith(await shopperWith(60_000), 'PCT10');
    expect(under.coupon).toMatchObject({ applies: true, amountPaise: 5_700 });
    expect(under.summary.totalPaise).toBe(60_000 - 3_000 - 5_700);
    // ₹2,000: 5% is ₹100, leaving ₹1,900; 10% would be ₹190, capped at ₹100.
    const capped = await cartWith(await shopperWith(200_000), 'PCT10');
    expect(capped.coupon).toMatchObject({ applies: true, amountPaise: 10_000 });
    expect(couponLine(capped.summary)).toEqual({ code: 'coupon', label: 'Coupon PCT10', amountPaise: 10_000 });
  });

  it('never takes off more than the offers leave: the total does not go below nothing', async () => {
    const cart = await cartWith(await shopperWith(10_000), 'BIG500');
    expect(cart.coupon).toMatchObject({ applies: true, amountPaise: 9_500 });
    expect(cart.summary.totalPaise).toBe(0);
  });

  it('refuses a code it does not know, one past its last day (the shop’s day), and an empty cart, each with its reason', async () => {
    const s = await shopperWith(50_000);
    expect((await cartWith(s, 'nope1')).coupon).toEqual({
      code: 'NOPE1',
      applies: false,
      label: null,
      amountPaise: 0,
      reason: { code: 'coupon_unknown', message: 'NOPE1 is not one of our coupon codes. Please check the spelling.' },
    });
    expect((await cartWith(s, 'OLD')).coupon?.reason).toEqual({ code: 'coupon_expired', message: 'OLD expired on 22 Nov 2026.' });
    // 07:30 in Kolkata on its last day: it applies; a minute past midnight there (still the 23rd in UTC): it has expired.
    expect((await cartWith(s, 'TODAY')).coupon).toMatchObject({ applies: true, amountPaise: 2_000 });
    const before = clock;
    clock = new Date('2026-11-23T18:31:00Z');
    try {
      expect((await cartWith(s, 'TODAY')).coupon?.reason?.code).toBe('coupon_expired');
    } finally {
      clock = before;
    }
    const empty = await shopper();
    expect((await cartWith(empty, 'AMT50')).coupon?.reason).toEqual({ code: 'coupon_below_minimum', message: 'Add something to your cart to use AMT50.' });
  });

  it('bad input is a 400 with a message, and another shopper’s cart is not shown', async () => {
    const s = await shopperWith(50_000);
    const long = await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}?coupon=${'A'.repeat(41)}`, { token: s.token });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).message).toMatch(/at most 40 characters/);
    const other = await shopper();
    expect((await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}?coupon=AMT50`, { token: other.token })).status).toBe(404);
  });
});

describe('a coupon at PlaceOrder', () => {
  it('is priced again on the server: the order keeps the coupon line and code, whatever the client says', async () => {
    const s = await shopperWith(60_000);
    const res = await api.call('POST', '/api/app/Orders', {
      token: s.token,
      headers: { 'Idempotency-Key': `coupon-key-${process.pid}-client-total` },
      body: { addressId: s.addressId, slotId: '2026-11-23T12:00', paymentMethod: 'cash', couponCode: 'pct10', discountPaise: 60_000, totalPaise: 1 },
    });
    expect(res.status).toBe(201);
    const order = (await res.json()) as OrderDto;
    expect(couponLine(order.summary)).toEqual({ code: 'coupon', label: 'Coupon PCT10', amountPaise: 5_700 });
    expect(order.summary.totalPaise).toBe(60_000 - 3_000 - 5_700);
    const [row] = await api.db.select({ couponCode: orders.couponCode }).from(orders).where(eq(orders.id, order.id));
    expect(row?.couponCode).toBe('PCT10');
  });

  it('refuses one that does not apply with its reason’s code, ordering nothing and keeping the cart', async () => {
    const s = await shopperWith(25_000);
    for (const [code, reason] of [
      ['AMT50', 'coupon_below_minimum'],
      ['OLD', 'coupon_expired'],
      ['NOPE1', 'coupon_unknown'],
    ] as const) {
      const res = await place(s, code);
      expect(res.status).toBe(409);
      expect((await errorOf(res)).code).toBe(reason);
    }
    const cart = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}`, { token: s.token })).json()) as CartDto;
    expect(cart.lines).toHaveLength(1);
    expect((await api.db.select().from(orders).where(eq(orders.userId, s.user.id))).length).toBe(0);
  });

  it('is once per verified number: a second order is refused, and cancelling the first gives it back', async () => {
    const s = await shopperWith(40_000);
    const first = await placed(s, 'AMT50');
    expect(couponLine(first.summary)?.amountPaise).toBe(5_000);

    await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: await product(40_000), productVariantsId: 0, qty: 1 } });
    expect((await cartWith(s, 'AMT50')).coupon?.reason).toEqual({
      code: 'coupon_used',
      message: 'You have already used AMT50: each coupon is once per mobile number.',
    });
    const again = await place(s, 'amt50');
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toEqual({ code: 'coupon_used', message: 'You have already used AMT50: each coupon is once per mobile number.' });
    // Another coupon is still fine for the same number.
    expect((await cartWith(s, 'BIG500')).coupon?.applies).toBe(true);

    const cancelled = await api.call('POST', `/api/app/Orders/${first.id}/Cancel`, { token: s.token });
    expect(cancelled.status).toBe(200);
    expect((await cartWith(s, 'AMT50')).coupon).toMatchObject({ applies: true, amountPaise: 5_000 });
    const second = await placed(s, 'AMT50');
    expect(couponLine(second.summary)?.amountPaise).toBe(5_000);
  });

  it('two orders racing with one coupon: one gets it, the other is refused and orders nothing', async () => {
    const s = await shopperWith(40_000);
    const answers = await Promise.all([place(s, 'AMT50'), place(s, 'AMT50')]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const rows = await api.db.select({ couponCode: orders.couponCode }).from(orders).where(eq(orders.userId, s.user.id));
    expect(rows).toEqual([{ couponCode: 'AMT50' }]);
  });

  it('the unique index is what stops a second order that slipped past the check, and it is recognised', async () => {
    const s = await shopperWith(40_000);
    const order = await placed(s, 'AMT50');
    const [row] = await api.db.select().from(orders).where(eq(orders.id, order.id));
    const { id: _id, idempotencyKey: _key, ...copy } = row!;
    const error = await api.db
      .insert(orders)
      .values({ ...copy, idempotencyKey: 'slipped-past' })
      .then(() => null, (e: unknown) => e);
    expect(error).not.toBeNull();
    expect(isCouponOnceViolation(error)).toBe(true);
    // A cancelled order does not hold the code: the same row inserted cancelled goes in.
    await api.db.insert(orders).values({ ...copy, idempotencyKey: 'slipped-cancelled', status: 'cancelled' });
    const held = await api.db
      .select({ status: orders.status })
      .from(orders)
      .where(and(eq(orders.couponCode, 'AMT50'), eq(orders.verifiedPhone, row!.verifiedPhone!)));
    expect(held.map((r) => r.status).sort()).toEqual(['cancelled', 'placed']);
  });
});

describe("store.yaml's coupons", () => {
  const store = readStoreSettings();
  it('ship the demo codes, upper case, one of them expired', () => {
    expect(store.coupons.map((c) => c.code)).toEqual(expect.arrayContaining(['WELCOME50', 'SAVE10']));
    expect(store.coupons.some((c) => c.lastDay < '2026-01-01')).toBe(true);
  });

  it('name a grocer’s mistake plainly', () => {
    const bad = (coupon: Record<string, unknown>) => {
      const parsed = storeSettingsSchema.safeParse({ ...store, coupons: [{ code: 'X50', label: 'Fifty off', minOrderRupees: 0, lastDay: '2027-01-01', ...coupon }] });
      return parsed.success ? '' : parsed.error.issues.map((i) => i.message).join('; ');
    };
    expect(bad({ amountOffRupees: 50, percentOff: 10 })).toMatch(/either percentOff or amountOffRupees/);
    expect(bad({})).toMatch(/either percentOff or amountOffRupees/);
    expect(bad({ amountOffRupees: 50, maxOffRupees: 20 })).toMatch(/maxOffRupees is only for a percentOff coupon/);
    expect(bad({ amountOffRupees: 50, code: 'TEN OFF' })).toMatch(/letters and digits/);
    expect(bad({ amountOffRupees: 50, lastDay: '2027-02-30' })).toMatch(/not a real date/);
    expect(bad({ amountOffRupees: 50, lastDay: '31/12/2027' })).toMatch(/written like "2026-12-31"/);
    expect(bad({ amountOffRupees: 50 })).toBe('');
    expect(couponSchema.parse({ code: 'save5', label: 'Save five', percentOff: 5, lastDay: new Date('2027-01-01T00:00:00Z') })).toMatchObject({
      code: 'SAVE5',
      minOrderRupees: 0,
      lastDay: '2027-01-01',
    });
  });
});

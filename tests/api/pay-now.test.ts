// Paying now by UPI (issue 25) over HTTP: the UPI payment request of a pay-now order (exact amount and note, the link
// encoded), the grocer confirming the payment (twice is fine; expired or cash is refused), an awaiting order that
// cannot be packed, and an unpaid order expiring: cancelled, its stock and slot place given back, once.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import type { GrocerDayDto, GrocerPaidDto } from '../../src/server/grocer-schemas.ts';
import type { OrderDto, OrderPageDto } from '../../src/server/order-schemas.ts';
import { deliverySlots, orders, products } from '../../src/server/db/schema.ts';
import { confirmPayment, expireUnpaidOrders, PAYMENT_EXPIRED_REASON } from '../../src/server/services/payments.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { upiAmount, upiLink } from '../../src/server/payments/upi.ts';
import { startPaymentExpiry } from '../../src/server/payments/expiry.ts';
import { inProcessBus } from '../../src/server/cache/invalidation-bus.ts';
import type { ExpiredOrder } from '../../src/server/services/payments.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

const TOKEN = 'pay-now-test-grocer-token-0123456789';
// 07:30 in Kolkata: today's slots from 10:00 are open, also half an hour later.
const START = new Date('2026-11-23T02:00:00Z');
let clock = START;
const SLOT = '2026-11-23T14:00';
const store = readStoreSettings();
const MINUTES = store.payments.payWithinMinutes;
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 40, now: () => clock, grocerToken: TOKEN });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

const grocer = (method: string, route: string, body?: unknown) => api.grocer(method, route, body);

async function product(stock: number) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  await api.db.update(products).set({ stock }).where(eq(products.id, id));
  return id;
}

/** A shopper who has ordered `qty` of the product for SLOT, paying as asked. */
async function order(productId: number, qty: number, paymentMethod: 'upi_now' | 'cash' = 'upi_now') {
  const s = await api.register();
  const addressId = await saveHomeAddress(api.db, s.user.id);
  expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: productId, productVariantsId: 0, qty } })).status).toBe(201);
  const res = await api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `pay-now-${s.user.id}` },
    body: { addressId: addressId, slotId: SLOT, paymentMethod },
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return { shopper: s, order: (await res.json()) as OrderDto };
}

const stockOf = async (id: number) => (await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const takenOf = async () => (await api.db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, SLOT)))[0]!.taken;
const minutesLater = (minutes: number) => new Date(START.getTime() + minutes * 60_000);

describe('a pay-now order', () => {
  it('awaits its payment and carries the UPI request: the exact amount, the order number as the note, the link encoded', async () => {
    clock = START;
    const { order: placed } = await order(await product(10), 3);
    expect(placed.paymentMethod).toBe('upi_now');
    expect(placed.payment).toMatchObject({ method: 'upi_now', status: 'awaiting', paidAt: null, dueAt: minutesLater(MINUTES).toISOString() });
    const request = placed.payment.request!;
    const rupees = (placed.summary.totalPaise / 100).toFixed(2);
    expect(request).toMatchObject({
      upiId: store.payments.upiId,
      payeeName: store.payments.payeeName,
      amount: rupees,
      note: `${store.shopName} order ${placed.id}`,
    });
    const url = new URL(request.link);
    expect(url.protocol).toBe('upi:');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      pa: store.payments.upiId,
      pn: store.payments.payeeName,
      am: rupees,
      cu: 'INR',
      tn: `${store.shopName} order ${placed.id}`,
      tr: request.reference,
    });
    // Percent-encoded: '@' of the UPI ID and the spaces of the names (%20, never '+').
    expect(request.link).toContain(`pa=${store.payments.upiId.replace('@', '%40')}`);
    expect(request.link).toContain(`tn=${encodeURIComponent(request.note)}`);
    expect(request.link).not.toContain('+');
    expect(request.reference).toMatch(/^[A-Z0-9]+$/);
    expect(request.qrSvg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(request.qrSvg).not.toMatch(/<script|href=/i);

    // Another shopper learns nothing of it, its payment request included.
    expect((await api.call('GET', `/api/app/Orders/${placed.id}`, { token: (await api.register()).token })).status).toBe(404);
    // Paid, so it stays out of the expiry tests below.
    expect((await grocer('POST', `Orders/${placed.id}/Paid`)).status).toBe(200);
  });

  it('writes amounts and names the way UPI apps read them', () => {
    expect(upiAmount(25800)).toBe('258.00');
    expect(upiAmount(25805)).toBe('258.05');
    expect(upiAmount(7)).toBe('0.07');
    expect(() => upiAmount(0)).toThrow();
    const link = upiLink({ upiId: 'a.b-c@okaxis', payeeName: 'Ravi & Sons=1' }, '10.00', 'Kirana order 5', 'KIRANA5');
    expect(link).toBe('upi://pay?pa=a.b-c%40okaxis&pn=Ravi%20%26%20Sons%3D1&am=10.00&cu=INR&tn=Kirana%20order%205&tr=KIRANA5');
  });

  it('cash on delivery carries no request and is not awaiting', async () => {
    clock = START;
    const { order: placed } = await order(await product(5), 1, 'cash');
    expect(placed.payment).toEqual({ method: 'cash', status: 'on_delivery', dueAt: null, paidAt: null, request: null });
    const refused = await grocer('POST', `Orders/${placed.id}/Paid`);
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toBe(`Order ${placed.id} is paid on delivery (cash): there is no payment to confirm now.`);
  });

  it('cannot be packed until paid; the grocer confirms it (twice is fine), then it is packed and the shopper reads Paid', async () => {
    clock = START;
    const { shopper, order: placed } = await order(await product(10), 2);
    const list = (await (await grocer('GET', 'Orders?date=2026-11-23')).json()) as GrocerDayDto;
    expect(list.slots.flatMap((s) => s.orders).find((o) => o.id === placed.id)).toMatchObject({ paymentMethod: 'upi_now', paymentStatus: 'awaiting' });

    const packing = await grocer('POST', `Orders/${placed.id}/Advance`);
    expect(packing.status).toBe(409);
    expect((await errorOf(packing)).message).toBe(
      `Order ${placed.id} is awaiting its UPI payment: it cannot be packed until the payment is confirmed (npm run orders -- paid ${placed.id}).`,
    );

    clock = minutesLater(5);
    const paid = await grocer('POST', `Orders/${placed.id}/Paid`);
    expect(paid.status, await paid.clone().text()).toBe(200);
    const answer = (await paid.json()) as GrocerPaidDto;
    expect(answer.outcome).toBe('paid');
    expect(answer.order.payment).toMatchObject({ status: 'paid', request: null });
    expect(answer.order.payment.paidAt).not.toBeNull();

    const twice = (await (await grocer('POST', `Orders/${placed.id}/Paid`)).json()) as GrocerPaidDto;
    expect(twice.outcome).toBe('already_paid');
    expect(twice.order.payment.paidAt).toBe(answer.order.payment.paidAt);

    // Paid, it never expires, whatever the clock says.
    clock = minutesLater(MINUTES + 60);
    const seen = (await (await api.call('GET', `/api/app/Orders/${placed.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen).toMatchObject({ status: 'placed', payment: { status: 'paid', request: null } });
    expect((await grocer('POST', `Orders/${placed.id}/Advance`)).status).toBe(200);
  });

  it('unpaid past its time expires: cancelled with the reason, stock and slot place back, once; paying then is refused', async () => {
    clock = START;
    const id = await product(4);
    const takenBefore = await takenOf();
    const { shopper, order: placed } = await order(id, 4);
    expect(await stockOf(id)).toBe(0);
    expect(await takenOf()).toBe(takenBefore + 1);

    // Not yet: a minute before the deadline nothing expires.
    expect(await expireUnpaidOrders(api.db, minutesLater(MINUTES - 1))).toEqual([]);

    clock = minutesLater(MINUTES + 1);
    api.takeStale();
    const expired = await expireUnpaidOrders(api.db, clock);
    expect(expired).toEqual([{ orderId: placed.id, userId: shopper.user.id, productIds: [id], shelfChanged: true }]);
    expect(await stockOf(id)).toBe(4);
    expect(await takenOf()).toBe(takenBefore);
    // A second run (another shop process) finds nothing more to do, and gives nothing back twice.
    expect(await expireUnpaidOrders(api.db, clock)).toEqual([]);
    expect(await stockOf(id)).toBe(4);
    expect(await takenOf()).toBe(takenBefore);

    const seen = (await (await api.call('GET', `/api/app/Orders/${placed.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen).toMatchObject({
      status: 'cancelled',
      cancelledBy: 'payment_expired',
      cancelReason: PAYMENT_EXPIRED_REASON,
      cancellable: false,
      payment: { status: 'expired', paidAt: null, request: null },
    });
    const page = (await (await api.call('GET', '/api/app/Orders/GetOrdersByUser/0', { token: shopper.token })).json()) as OrderPageDto;
    expect(page.orders[0]).toMatchObject({ id: placed.id, paymentStatus: 'expired', cancelledBy: 'payment_expired' });

    const late = await grocer('POST', `Orders/${placed.id}/Paid`);
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toMatch(new RegExp(`^Order ${placed.id} was not paid in time: it is cancelled`));
  });

  it('expires when read past its time, before the timer runs, and says which shelf changed', async () => {
    clock = START;
    const id = await product(2);
    const { shopper, order: placed } = await order(id, 2);
    clock = minutesLater(MINUTES + 1);
    api.takeStale();
    const seen = (await (await api.call('GET', `/api/app/Orders/${placed.id}`, { token: shopper.token })).json()) as OrderDto;
    expect(seen).toMatchObject({ status: 'cancelled', cancelledBy: 'payment_expired', payment: { status: 'expired' } });
    expect(api.takeStale()).toEqual([staleAfter.shelfChanged([id])]);
    expect(await stockOf(id)).toBe(2);
  });

  it("runs on the shop's timer from its start, by the clock it is given, and tells who listens", async () => {
    clock = START;
    const id = await product(3);
    const { order: placed } = await order(id, 3);
    const stale = inProcessBus();
    const published: unknown[] = [];
    stale.subscribe((tags) => published.push(tags));
    const told: ExpiredOrder[] = [];
    const errors: unknown[] = [];
    const deps = { db: api.db, stale, onExpired: (e: ExpiredOrder) => told.push(e), logError: (e: unknown) => errors.push(e) };
    // Before the deadline by the given clock, the first run leaves it be; an hour's interval never comes in this test.
    await startPaymentExpiry(deps, { intervalMs: 3_600_000, now: () => minutesLater(MINUTES - 1) })();
    expect(told).toEqual([]);
    await startPaymentExpiry(deps, { intervalMs: 3_600_000, now: () => minutesLater(MINUTES + 1) })();
    expect(errors).toEqual([]);
    expect(told.map((e) => e.orderId)).toEqual([placed.id]);
    expect(published).toEqual([staleAfter.shelfChanged([id])]);
    expect(await stockOf(id)).toBe(3);
  });

  it('a payment and the expiry at the same moment: one wins, the other changes nothing', async () => {
    clock = START;
    const id = await product(3);
    const takenBefore = await takenOf();
    const { order: placed } = await order(id, 1);
    const at = minutesLater(MINUTES + 1);
    const [paid, expired] = await Promise.allSettled([confirmPayment(api.db, placed.id, { now: at }), expireUnpaidOrders(api.db, at)]);
    const [row] = await api.db.select({ status: orders.status, paymentStatus: orders.paymentStatus }).from(orders).where(eq(orders.id, placed.id));
    if (paid.status === 'fulfilled') {
      expect(row).toEqual({ status: 'placed', paymentStatus: 'paid' });
      expect(expired).toEqual({ status: 'fulfilled', value: [] });
      expect(await stockOf(id)).toBe(2);
    } else {
      expect(row).toEqual({ status: 'cancelled', paymentStatus: 'expired' });
      expect(await stockOf(id)).toBe(3);
      expect(await takenOf()).toBe(takenBefore);
    }
  });

  it('an unknown order is a 404 and a bad id a 400', async () => {
    expect((await grocer('POST', 'Orders/999999/Paid')).status).toBe(404);
    expect((await grocer('POST', 'Orders/abc/Paid')).status).toBe(400);
    expect((await api.call('POST', '/api/grocer/Orders/1/Paid')).status).toBe(401);
  });

  it("refuses a payment method it does not know, naming the three it takes", async () => {
    const s = await api.register();
    const res = await api.call('POST', '/api/app/Orders', {
      token: s.token,
      headers: { 'Idempotency-Key': `pay-now-bad-${s.user.id}` },
      body: { addressId: 1, slotId: SLOT, paymentMethod: 'card' },
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe("paymentMethod must be 'cash' or 'upi' (paid on delivery), or 'upi_now' (paid now by UPI)");
  });
});

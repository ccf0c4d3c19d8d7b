// Today at a glance (issue 34's back office): the day's orders and takings (a cancelled order leaves them), today's
// deliveries by state, and what needs a hand: pay-now orders awaiting payment, products running low. Staff and owners
// only (tests/api/staff-roles.test.ts walks every role).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GrocerTodayDto } from '../../src/server/grocer-schemas.ts';
import type { OrderDto, SlotListDto } from '../../src/server/order-schemas.ts';
import type { GrocerProductListDto } from '../../src/server/shelf-schemas.ts';
import { products } from '../../src/server/db/schema.ts';
import { plainProductIds, saveHomeAddress, startTestApi, type TestApi } from './harness.ts';

let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 20, grocerToken: 'grocer-today-test-token-0123456789' });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

const today = async () => {
  const res = await api.grocer('GET', 'Today');
  expect(res.status).toBe(200);
  return (await res.json()) as GrocerTodayDto;
};

/** A new shopper's order of two of a product, in the first slot open now. */
async function order(paymentMethod: 'cash' | 'upi_now') {
  const s = await api.register();
  const addressId = await saveHomeAddress(api.db, s.user.id);
  const productsId = spare.shift()!;
  await api.db.update(products).set({ stock: 50 }).where(eq(products.id, productsId));
  expect((await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId, productVariantsId: 0, qty: 2 } })).status).toBe(201);
  const { slots } = (await (await api.call('GET', '/api/app/DeliverySlots', { token: s.token })).json()) as SlotListDto;
  const slotId = slots.find((slot) => slot.placesLeft > 0)!.id;
  const res = await api.call('POST', '/api/app/Orders', { token: s.token, headers: { 'Idempotency-Key': `today-order-${s.user.id}` }, body: { addressId, slotId, paymentMethod } });
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as OrderDto;
}

it('counts the day’s orders and takings, leaves a cancelled one out of them, and names what waits for payment', async () => {
  const before = await today();
  expect(before.placed).toEqual({ orders: 0, salesPaise: 0, cancelled: 0 });
  expect(Object.keys(before.deliveries).sort()).toEqual(['cancelled', 'delivered', 'out_for_delivery', 'packed', 'placed']);

  const cash = await order('cash');
  const payNow = await order('upi_now');
  const kept = await order('cash');
  let now = await today();
  expect(now.placed).toEqual({ orders: 3, salesPaise: cash.summary.totalPaise + payNow.summary.totalPaise + kept.summary.totalPaise, cancelled: 0 });
  expect(now.needs.awaitingPayment).toBe(before.needs.awaitingPayment + 1);

  expect((await api.grocer('POST', `Orders/${cash.id}/Cancel`, { reason: 'Shopper asked by phone' })).status).toBe(200);
  now = await today();
  expect(now.placed).toEqual({ orders: 2, salesPaise: payNow.summary.totalPaise + kept.summary.totalPaise, cancelled: 1 });
  // Today's deliveries are those of today's slots: an order for tomorrow is not among them.
  const ofToday = [cash, payNow, kept].filter((o) => o.slot.id.startsWith(now.date)).length;
  expect(Object.values(now.deliveries).reduce((a, b) => a + b, 0)).toBe(ofToday);
});

it('counts the products running low as the low-stock list does', async () => {
  await api.db.update(products).set({ stock: 0 }).where(eq(products.id, spare.shift()!));
  const { needs } = await today();
  const listed = ((await (await api.grocer('GET', 'LowStock')).json()) as GrocerProductListDto).products;
  expect(needs.lowStock).toBeGreaterThanOrEqual(1);
  expect(needs.lowStock).toBe(listed.length);
  expect(needs.openIssues).toBe(0);
});

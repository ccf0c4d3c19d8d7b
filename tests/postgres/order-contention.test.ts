// Orders and cancellations racing on PostgreSQL (issue 22): 15 shoppers place orders while 15 others' orders are
// cancelled (by their shoppers, every third by the shop), over
// the same few products (one of them by pack size) and one delivery slot, for several rounds, over HTTP. Before the
// fix a cancel took the products and then the slot, an order the slot and then the products: dozens of deadlocks,
// answered 500. Now every answer is a success, and the stock and the slot's places add up afterwards.
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { deliverySlots, orderLines, orders, products, productVariants } from '../../src/server/db/schema.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { plainProductIds, startTestApi, type TestApi, saveHomeAddress } from '../api/harness.ts';

if (!process.env.TEST_DATABASE_URL) throw new Error('These tests need a PostgreSQL server: run them with `npm run test:pg`.');

const SHOPPERS_PER_SIDE = 15;
const ROUNDS = 4;
const STOCK = 10_000;
// 07:30 in Kolkata: the 12:00 slot is open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
const GROCER_TOKEN = 'order-contention-grocer-token-0123456789';

let api: TestApi;
/** The lines every order has: three plain products and one pack size of a fourth, in a different order per shopper. */
let lines: Array<{ productsId: number; productVariantsId: number }> = [];

type Shopper = Awaited<ReturnType<TestApi['register']>> & { addressId: number };

beforeAll(async () => {
  const store = readStoreSettings();
  api = await startTestApi({
    products: 40,
    now: () => clock,
    // Room for everyone: a full slot or an empty shelf would be a 409 that hides nothing, but proves nothing either.
    store: { ...store, delivery: { ...store.delivery, capacity: 1_000 } },
    orderLimit: { writes: 10_000, windowSeconds: 600 },
    grocerToken: GROCER_TOKEN,
  });
  const plain = (await plainProductIds(api.db)).slice(0, 3).map((id) => ({ id }));
  await api.db.update(products).set({ stock: STOCK }).where(inArray(products.id, plain.map((p) => p.id)));
  const [pack] = await api.db.select({ id: productVariants.id, productId: productVariants.productId }).from(productVariants).orderBy(productVariants.id).limit(1);
  await api.db.update(productVariants).set({ stock: STOCK }).where(eq(productVariants.id, pack!.id));
  lines = [...plain.map((p) => ({ productsId: p.id, productVariantsId: 0 })), { productsId: pack!.productId, productVariantsId: pack!.id }];
}, 120_000);
afterAll(async () => api?.close());

async function shopper(): Promise<Shopper> {
  const session = await api.register();
  const addressId = await saveHomeAddress(api.db, session.user.id);
  return { ...session, addressId: addressId };
}

let keys = 0;

/** Fills the shopper's cart with every line, starting from a different one for each n. */
async function fillCart(s: Shopper, n: number) {
  const mine = [...lines.slice(n % lines.length), ...lines.slice(0, n % lines.length)];
  for (const line of mine) {
    const res = await api.call('POST', '/api/app/Carts', { token: s.token, body: { ...line, qty: 1 + (n % 2) } });
    expect(res.status, await res.clone().text()).toBe(201);
  }
}

const place = (s: Shopper) =>
  api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: { 'Idempotency-Key': `contention-${process.pid}-${++keys}` },
    body: { addressId: s.addressId, slotId: SLOT, paymentMethod: 'cash' },
  });

const cancel = (s: Shopper, order: OrderDto) => api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: s.token });
const shopCancel = (order: OrderDto) =>
  api.call('POST', `/api/grocer/Orders/${order.id}/Cancel`, { body: { reason: 'Out of stock' }, headers: { authorization: `Grocer ${GROCER_TOKEN}` } });

it('places and cancels at once, round after round, without a 500; the stock and the slot places add up', async () => {
  // Registered one after another: the point is the race at the checkout, not at the door.
  const sides: [Shopper[], Shopper[]] = [[], []];
  for (let i = 0; i < SHOPPERS_PER_SIDE; i++) {
    sides[0].push(await shopper());
    sides[1].push(await shopper());
  }
  // The first side's orders, to be cancelled in the first round while the other side places.
  const open = new Map<number, OrderDto>();
  await Promise.all(sides[0].map((s, i) => fillCart(s, i)));
  for (const s of sides[0]) {
    const res = await place(s);
    expect(res.status, await res.clone().text()).toBe(201);
    open.set(s.user.id, (await res.json()) as OrderDto);
  }

  const statuses: Array<{ call: string; status: number; body: string }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Each side in turn: one places while the other cancels, so nobody holds two orders in the slot.
    const [cancelling, placing] = round % 2 === 0 ? sides : [sides[1], sides[0]];
    await Promise.all(placing.map((s, i) => fillCart(s, i + round)));
    await Promise.all([
      ...placing.map(async (s) => {
        const res = await place(s);
        statuses.push({ call: 'place', status: res.status, body: res.status === 201 ? '' : await res.text() });
        if (res.status === 201) open.set(s.user.id, (await res.json()) as OrderDto);
      }),
      ...cancelling.map(async (s, i) => {
        const order = open.get(s.user.id)!;
        const res = i % 3 === 0 ? await shopCancel(order) : await cancel(s, order);
        statuses.push({ call: 'cancel', status: res.status, body: res.status === 200 ? '' : await res.text() });
        if (res.status === 200) open.delete(s.user.id);
      }),
    ]);
  }

  expect(statuses.filter((s) => s.status >= 500), 'no 500 (a deadlock or serialization failure that was not retried)').toEqual([]);
  expect(statuses.filter((s) => s.status !== 200 && s.status !== 201)).toEqual([]);
  expect(statuses).toHaveLength(ROUNDS * SHOPPERS_PER_SIDE * 2);

  // What the orders still standing hold is exactly what left the shelf and the slot.
  const standing = await api.db
    .select({ productId: orderLines.productId, variantId: orderLines.variantId, qty: sql<number>`sum(${orderLines.qty})::int` })
    .from(orderLines)
    .innerJoin(orders, eq(orders.id, orderLines.orderId))
    .where(ne(orders.status, 'cancelled'))
    .groupBy(orderLines.productId, orderLines.variantId);
  expect(standing.length).toBe(lines.length);
  for (const line of lines) {
    const held = standing.find((r) => r.productId === line.productsId && (r.variantId ?? 0) === line.productVariantsId)!.qty;
    if (line.productVariantsId) {
      const [pack] = await api.db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, line.productVariantsId));
      expect(pack!.stock, `pack ${line.productVariantsId}`).toBe(STOCK - held);
    } else {
      const [product] = await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, line.productsId));
      expect(product!.stock, `product ${line.productsId}`).toBe(STOCK - held);
    }
  }
  const [slot] = await api.db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, SLOT));
  const [counted] = await api.db
    .select({ n: sql<number>`count(*)::int` })
    .from(orders)
    .where(and(eq(orders.slotId, SLOT), ne(orders.status, 'cancelled')));
  expect(slot!.taken).toBe(counted!.n);
  expect(counted!.n).toBe(open.size);
  expect(open.size).toBe(SHOPPERS_PER_SIDE);
  // Each cancel is recorded as who made it.
  const byWhom = await api.db
    .select({ by: orders.cancelledBy, n: sql<number>`count(*)::int` })
    .from(orders)
    .where(eq(orders.status, 'cancelled'))
    .groupBy(orders.cancelledBy)
    .orderBy(orders.cancelledBy);
  const shopCancels = ROUNDS * Math.ceil(SHOPPERS_PER_SIDE / 3);
  expect(byWhom).toEqual([
    { by: 'shop', n: shopCancels },
    { by: 'shopper', n: ROUNDS * SHOPPERS_PER_SIDE - shopCancels },
  ]);
});

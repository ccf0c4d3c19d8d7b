// Orders over HTTP: slots, placing once per key at the server's prices and offers, stock and slot places taken in one
// transaction, reading, cancelling and ordering again; nobody sees another shopper's orders.
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto } from '../../src/server/account-schemas.ts';
import type { OrderDto, OrderPageDto, ReorderResultDto, SlotListDto } from '../../src/server/order-schemas.ts';
import { deliverySlots, orders, products, productVariantPrices, productVariants } from '../../src/server/db/schema.ts';
import { staleAfter } from '../../src/server/cache/stale-after.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi, saveHomeAddress } from './harness.ts';

// 07:30 in Kolkata: all of today's slots from 10:00 are open; the 08:00 one is inside its cut-off.
let clock = new Date('2026-11-23T02:00:00Z');
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  // One shopper places many orders here to test prices and stock; the limits per number are tests/api/order-limits.test.ts's.
  const store = readStoreSettings();
  api = await startTestApi({
    products: 60,
    now: () => clock,
    store: { ...store, limits: { ...store.limits, openOrdersPerNumber: 100, unitsPerProduct: 20, slotPlacesPerShopper: 100, openUnitsPerNumber: 100_000, openValuePerNumberRupees: 10_000_000 } },
  });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

/** A plain product of its own for one test, at this price (paise) and stock. */
async function product(pricePaise: number, stock = 50) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  const [row] = await api.db
    .update(products)
    .set({ pricePaise, mrpPaise: pricePaise + 500, stock })
    .where(eq(products.id, id))
    .returning({ id: products.id, name: products.name });
  return row!;
}

async function shopper() {
  const session = await api.register();
  const addressId = await saveHomeAddress(api.db, session.user.id);
  return { ...session, addressId: addressId };
}

type Shopper = Awaited<ReturnType<typeof shopper>>;

async function addToCart(s: Shopper, productsId: number, qty = 1, productVariantsId = 0) {
  const res = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId, productVariantsId, qty } });
  expect(res.status).toBe(201);
  return (await res.json()) as CartDto;
}

async function slots(token: string) {
  const res = await api.call('GET', '/api/app/DeliverySlots', { token });
  expect(res.status).toBe(200);
  return (await res.json()) as SlotListDto;
}

const SLOT = '2026-11-23T12:00';
let keys = 0;
const newKey = () => `test-key-${process.pid}-${++keys}`;

function place(s: Shopper, options: { key?: string | null; body?: Record<string, unknown> } = {}) {
  const key = options.key === undefined ? newKey() : options.key;
  return api.call('POST', '/api/app/Orders', {
    token: s.token,
    headers: key === null ? {} : { 'Idempotency-Key': key },
    body: { addressId: s.addressId, slotId: SLOT, paymentMethod: 'cash', ...options.body },
  });
}

async function placed(s: Shopper, options: Parameters<typeof place>[1] = {}) {
  const res = await place(s, options);
  if (res.status !== 201) throw new Error(`Placing answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as OrderDto;
}

const stockOf = async (id: number) => (await api.db.select({ stock: products.stock }).from(products).where(eq(products.id, id)))[0]!.stock;
const takenOf = async (id: string) =>
  (await api.db.select({ taken: deliverySlots.taken }).from(deliverySlots).where(eq(deliverySlots.id, id)))[0]?.taken ?? 0;

describe('delivery slots', () => {
  it('need a sign-in, and list open, closed and full slots in the shop’s time zone', async () => {
    expect((await api.call('GET', '/api/app/DeliverySlots')).status).toBe(401);
    const s = await shopper();
    const list = await slots(s.token);
    expect(list.timeZone).toBe('Asia/Kolkata');
    expect(list.slots[0]).toMatchObject({ id: '2026-11-23T08:00', startsAt: '2026-11-23T02:30:00.000Z', unavailable: 'closed' });
    expect(list.slots[1]).toMatchObject({ id: '2026-11-23T10:00', endsAt: '2026-11-23T06:30:00.000Z', placesLeft: 20, unavailable: null });
    expect(list.slots.at(-1)!.id).toBe('2026-11-26T16:00');
    await api.db.update(deliverySlots).set({ taken: 20 }).where(eq(deliverySlots.id, '2026-11-24T16:00'));
    const again = await slots(s.token);
    expect(again.slots.find((x) => x.id === '2026-11-24T16:00')).toMatchObject({ placesLeft: 0, unavailable: 'full' });
  });

  it('refuse an order for a closed, started, full or made-up slot, taking nothing', async () => {
    const s = await shopper();
    const p = await product(10_000, 5);
    await addToCart(s, p.id);
    const cases: Array<[string, RegExp]> = [
      ['2026-11-23T08:00', /closed for new orders/],
      ['2026-11-22T12:00', /not offered/],
      ['2026-11-23T09:00', /not offered/],
      ['2026-11-24T16:00', /just filled up/],
    ];
    for (const [slotId, message] of cases) {
      const res = await place(s, { body: { slotId } });
      expect(res.status).toBe(409);
      expect((await errorOf(res)).message).toMatch(message);
    }
    expect(await stockOf(p.id)).toBe(5);
    expect(await takenOf('2026-11-24T16:00')).toBe(20);
  });
});

describe('placing an order', () => {
  it('recomputes prices and totals whatever the client sends, empties the cart and takes the stock and a place', async () => {
    const s = await shopper();
    const p = await product(12_345, 10);
    const cart = await addToCart(s, p.id, 3);
    const before = await takenOf(SLOT);
    const res = await place(s, { body: { totalPaise: 1, subtotalPaise: 1, discounts: [], lines: [{ productsId: p.id, unitPricePaise: 1, qty: 3 }] } });
    expect(res.status).toBe(201);
    const order = (await res.json()) as OrderDto;
    expect(order.lines).toEqual([
      expect.objectContaining({ productsId: p.id, productVariantsId: 0, name: p.name, unitPricePaise: 12_345, unitMrpPaise: 12_845, qty: 3, lineTotalPaise: 37_035 }),
    ]);
    // The order's money is the cart's: one pricing function for both.
    expect(order.summary).toEqual(cart.summary);
    expect(order.summary).toMatchObject({ subtotalPaise: 37_035, discountPaise: 5555, totalPaise: 37_035 - 5555 });
    expect(order).toMatchObject({ status: 'placed', paymentMethod: 'cash', cancellable: true, timeZone: 'Asia/Kolkata', slot: { id: SLOT } });
    expect(order.address).toMatchObject({ name: 'Meera Iyer', pincode: '560011', state: 'Karnataka' });
    expect(order.timeline.map((e) => e.status)).toEqual(['placed']);
    expect(await stockOf(p.id)).toBe(7);
    expect(await takenOf(SLOT)).toBe(before + 1);
    const after = await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}`, { token: s.token });
    expect(((await after.json()) as CartDto).lines).toEqual([]);
    const read = await api.call('GET', `/api/app/Orders/${order.id}`, { token: s.token });
    expect(read.status).toBe(200);
    expect(await read.json()).toEqual(order);
  });

  it('refuses an empty cart, a missing or malformed key and bad input', async () => {
    const s = await shopper();
    const empty = await place(s);
    expect(empty.status).toBe(409);
    expect(await errorOf(empty)).toEqual({ code: 'conflict', message: 'Your cart is empty' });
    await addToCart(s, (await product(1000)).id);
    for (const key of [null, 'short', 'has spaces in it', 'x'.repeat(129)]) {
      const res = await place(s, { key });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/Idempotency-Key/);
    }
    for (const body of [{ paymentMethod: 'card' }, { slotId: 'tomorrow' }, { addressId: -1 }]) {
      expect((await place(s, { body })).status).toBe(400);
    }
    expect(await api.db.select().from(orders).where(eq(orders.userId, s.user.id))).toEqual([]);
  });

  it('names the product when the shelf has fewer than the cart wants, and rolls back the slot place', async () => {
    const s = await shopper();
    // The cart takes no more than the shelf holds (issue 24): the shelf shrinks after the add, as another order would.
    const p = await product(2000, 3);
    await addToCart(s, p.id, 3);
    await api.db.update(products).set({ stock: 2 }).where(eq(products.id, p.id));
    const before = await takenOf(SLOT);
    const res = await place(s);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(`Sorry, only 2 of ${p.name} left`);
    expect(await takenOf(SLOT)).toBe(before);
    expect(await stockOf(p.id)).toBe(2);
  });

  it('takes a pack size’s stock, and the product’s total follows', async () => {
    const s = await shopper();
    const [pack] = await api.db
      .select({ productId: productVariants.productId, variantId: productVariants.id, name: productVariants.name })
      .from(productVariants)
      .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .where(sql`${productVariants.stock} > 3`)
      .limit(1);
    await api.db.update(productVariants).set({ stock: 4 }).where(eq(productVariants.id, pack!.variantId));
    const total = await stockOf(pack!.productId);
    await addToCart(s, pack!.productId, 3, pack!.variantId);
    const order = await placed(s);
    expect(order.lines[0]).toMatchObject({ productVariantsId: pack!.variantId, variantName: pack!.name, qty: 3 });
    const [after] = await api.db.select({ stock: productVariants.stock }).from(productVariants).where(eq(productVariants.id, pack!.variantId));
    expect(after!.stock).toBe(1);
    expect(await stockOf(pack!.productId)).toBe(total - 3);
  });
});

describe('the offers at their edges', () => {
  it('gives a first order 15% (up to ₹150), a second 5%, and the best price from ₹500, not at ₹499.99', async () => {
    const s = await shopper();
    const under = await product(49_999);
    const cart = await addToCart(s, under.id);
    expect(cart.summary.discounts).toEqual([{ code: 'first-order', label: '15% off your first order (up to ₹150)', amountPaise: 7500 }]);
    const first = await placed(s);
    expect(first.summary).toMatchObject({ subtotalPaise: 49_999, discountPaise: 7500, deliveryPaise: 0, totalPaise: 42_499 });

    await addToCart(s, under.id);
    const second = await placed(s);
    expect(second.summary.discounts).toEqual([{ code: 'all-products', label: '5% off all products', amountPaise: 2500 }]);
    expect(second.summary.totalPaise).toBe(49_999 - 2500);

    const exact = await product(50_000);
    await addToCart(s, exact.id);
    const third = await placed(s);
    expect(third.summary.discounts).toEqual([
      { code: 'all-products', label: '5% off all products', amountPaise: 2500 },
      { code: 'best-price', label: 'Extra 2% off orders of ₹500 or more', amountPaise: 1000 },
    ]);
    expect(third.summary.totalPaise).toBe(46_500);
  });

  it('counts a shopper whose only order was cancelled as a first order again', async () => {
    const s = await shopper();
    const p = await product(20_000);
    await addToCart(s, p.id);
    const first = await placed(s);
    expect(first.summary.discounts.map((d) => d.code)).toEqual(['first-order']);
    expect((await api.call('POST', `/api/app/Orders/${first.id}/Cancel`, { token: s.token })).status).toBe(200);
    await addToCart(s, p.id);
    const again = await placed(s);
    expect(again.summary.discounts).toEqual([{ code: 'first-order', label: '15% off your first order (up to ₹150)', amountPaise: 3000 }]);
  });
});

describe('the Idempotency-Key', () => {
  it('makes a retry and a double click one order; the same key with another body is 422', async () => {
    const s = await shopper();
    const p = await product(5000);
    await addToCart(s, p.id, 2);
    const key = newKey();
    const clicks = await Promise.all([place(s, { key }), place(s, { key, body: { totalPaise: 1 } })]);
    expect(clicks.map((r) => r.status).sort()).toEqual([200, 201]);
    const [a, b] = (await Promise.all(clicks.map((r) => r.json()))) as OrderDto[];
    expect(a!.id).toBe(b!.id);
    expect(clicks.find((r) => r.status === 200)!.headers.get('idempotent-replayed')).toBe('true');
    const retry = await place(s, { key });
    expect(retry.status).toBe(200);
    expect(((await retry.json()) as OrderDto).id).toBe(a!.id);
    const other = await place(s, { key, body: { paymentMethod: 'upi' } });
    expect(other.status).toBe(422);
    expect(await errorOf(other)).toEqual({ code: 'unprocessable', message: 'This Idempotency-Key was already used for a different order' });
    expect(await api.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, s.user.id))).toHaveLength(1);
    expect(await stockOf(p.id)).toBe(48);
  });
});

describe('the last unit', () => {
  it('goes to one of two shoppers ordering at once; the other gets a clear 409 and stock stays at 0', async () => {
    const p = await product(3000, 1);
    const a = await shopper();
    const b = await shopper();
    await addToCart(a, p.id);
    await addToCart(b, p.id);
    const answers = await Promise.all([place(a), place(b)]);
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409]);
    const loser = answers.find((r) => r.status === 409)!;
    expect(await errorOf(loser)).toEqual({ code: 'conflict', message: `${p.name} is out of stock` });
    expect(await stockOf(p.id)).toBe(0);
    const all = await api.db.select({ id: orders.id }).from(orders).where(inArray(orders.userId, [a.user.id, b.user.id]));
    expect(all).toHaveLength(1);
  });
});

describe('the shop’s cached pages', () => {
  it('are told what is stale when an order sells the last unit or a cancel brings it back, and only then', async () => {
    const p = await product(2500, 3);
    const s = await shopper();
    await addToCart(s, p.id, 2);
    api.takeStale();
    const some = await place(s);
    expect(some.status).toBe(201);
    expect(api.takeStale(), 'one unit is still on the shelf').toEqual([]);

    await addToCart(s, p.id, 1);
    const last = await place(s);
    expect(last.status).toBe(201);
    expect(api.takeStale()).toEqual([staleAfter.shelfChanged([p.id])]);

    const lastOrder = (await last.json()) as OrderDto;
    const cancel = await api.call('POST', `/api/app/Orders/${lastOrder.id}/Cancel`, { token: s.token });
    expect(cancel.status).toBe(200);
    expect(api.takeStale()).toEqual([staleAfter.shelfChanged([p.id])]);
    const firstOrder = (await some.json()) as OrderDto;
    const again = await api.call('POST', `/api/app/Orders/${firstOrder.id}/Cancel`, { token: s.token });
    expect(again.status).toBe(200);
    expect(api.takeStale(), 'it was back on the shelf already').toEqual([]);
  });
});

describe('cancelling', () => {
  it('returns the stock and the slot place; a cancelled or packed order cannot be cancelled', async () => {
    const s = await shopper();
    const p = await product(4000, 10);
    await addToCart(s, p.id, 4);
    const before = await takenOf(SLOT);
    const order = await placed(s);
    expect(await stockOf(p.id)).toBe(6);
    const res = await api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: s.token });
    expect(res.status).toBe(200);
    const cancelled = (await res.json()) as OrderDto;
    expect(cancelled).toMatchObject({ status: 'cancelled', cancellable: false });
    expect(cancelled.timeline.map((e) => e.status)).toEqual(['placed', 'cancelled']);
    expect(await stockOf(p.id)).toBe(10);
    expect(await takenOf(SLOT)).toBe(before);
    const twice = await api.call('POST', `/api/app/Orders/${order.id}/Cancel`, { token: s.token });
    expect(twice.status).toBe(409);
    expect((await errorOf(twice)).message).toBe('This order is already cancelled');

    await addToCart(s, p.id);
    const packed = await placed(s);
    await api.db.update(orders).set({ status: 'packed' }).where(eq(orders.id, packed.id));
    const late = await api.call('POST', `/api/app/Orders/${packed.id}/Cancel`, { token: s.token });
    expect(late.status).toBe(409);
    expect((await errorOf(late)).message).toBe('This order is already packed and can no longer be cancelled');
    expect(await stockOf(p.id)).toBe(9);
  });
});

describe('reading orders', () => {
  it('pages the shopper’s orders newest first with the total', async () => {
    const s = await shopper();
    const p = await product(1500);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      await addToCart(s, p.id, i + 1);
      ids.push((await placed(s)).id);
    }
    const page1 = await api.call('GET', '/api/app/Orders/GetOrdersByUser/0?pageNo=1&pageSize=2', { token: s.token });
    expect(page1.status).toBe(200);
    const first = (await page1.json()) as OrderPageDto;
    expect(first).toMatchObject({ pageNo: 1, pageSize: 2, total: 3, timeZone: 'Asia/Kolkata' });
    expect(first.orders.map((o) => o.id)).toEqual([ids[2], ids[1]]);
    expect(first.orders[0]).toMatchObject({ status: 'placed', itemCount: 3, names: [p.name], slot: { id: SLOT } });
    const page2 = (await (await api.call('GET', `/api/app/Orders/GetOrdersByUser/${s.user.id}?pageNo=2&pageSize=2`, { token: s.token })).json()) as OrderPageDto;
    expect(page2.orders.map((o) => o.id)).toEqual([ids[0]]);
    const defaults = (await (await api.call('GET', '/api/app/Orders/GetOrdersByUser/0', { token: s.token })).json()) as OrderPageDto;
    expect(defaults).toMatchObject({ pageNo: 1, pageSize: 10 });
    for (const query of ['pageNo=0', 'pageSize=51', 'pageSize=0', 'pageNo=x']) {
      expect((await api.call('GET', `/api/app/Orders/GetOrdersByUser/0?${query}`, { token: s.token })).status).toBe(400);
    }
  });

  it("answers 404 for another shopper's orders, list and address, and shows nothing of them", async () => {
    const owner = await shopper();
    const intruder = await shopper();
    await addToCart(owner, (await product(2500)).id);
    const order = await placed(owner);
    for (const [method, path] of [
      ['GET', `/api/app/Orders/${order.id}`],
      ['POST', `/api/app/Orders/${order.id}/Cancel`],
      ['POST', `/api/app/Orders/${order.id}/Reorder`],
      ['GET', `/api/app/Orders/GetOrdersByUser/${owner.user.id}`],
    ] as const) {
      const res = await api.call(method, path, { token: intruder.token });
      expect(res.status).toBe(404);
      expect(Object.keys((await res.json()) as object)).toEqual(['error']);
    }
    await addToCart(intruder, (await product(2500)).id);
    const stolen = await place(intruder, { body: { addressId: owner.addressId } });
    expect(stolen.status).toBe(404);
    expect((await api.call('GET', `/api/app/Orders/${order.id}`, { token: owner.token })).status).toBe(200);
    expect((await api.call('GET', `/api/app/Orders/${order.id}`)).status).toBe(401);
  });
});

describe('ordering again', () => {
  it('puts the lines back at today’s prices and names what is no longer available', async () => {
    const s = await shopper();
    const kept = await product(1000);
    const gone = await product(2000);
    await addToCart(s, kept.id, 2);
    await addToCart(s, gone.id, 1);
    const order = await placed(s);
    await api.db.update(products).set({ pricePaise: 1100 }).where(eq(products.id, kept.id));
    await api.db.update(products).set({ stock: 0 }).where(eq(products.id, gone.id));
    const res = await api.call('POST', `/api/app/Orders/${order.id}/Reorder`, { token: s.token });
    expect(res.status).toBe(200);
    const result = (await res.json()) as ReorderResultDto;
    expect(result.added).toEqual([{ productsId: kept.id, name: kept.name, qty: 2 }]);
    expect(result.unavailable).toEqual([{ productsId: gone.id, name: gone.name, reason: `Sorry, ${gone.name} is out of stock right now.` }]);
    expect(result.cart.lines).toEqual([expect.objectContaining({ productsId: kept.id, qty: 2, unitPricePaise: 1100 })]);
    expect(result.cart.summary.subtotalPaise).toBe(2200);
  });
});

describe('the cart and pack stock', () => {
  it('refuses an out-of-stock pack and shows a pack line out of stock when its pack runs out', async () => {
    const s = await shopper();
    const packs = await api.db
      .select({ productId: productVariants.productId, variantId: productVariants.id, name: productVariants.name })
      .from(productVariants)
      .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .where(sql`${productVariants.stock} > 0 and (select count(*) from ${productVariants} v where v.product_id = ${productVariants.productId} and v.stock > 0) >= 2`)
      .orderBy(productVariants.productId, productVariants.id)
      .limit(2);
    const pack = packs[0]!;
    const cart = await addToCart(s, pack.productId, 1, pack.variantId);
    expect(cart.lines[0]!.inStock).toBe(true);
    await api.db.update(productVariants).set({ stock: 0 }).where(eq(productVariants.id, pack.variantId));
    const refused = await api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId: pack.productId, productVariantsId: pack.variantId } });
    expect(refused.status).toBe(409);
    expect((await errorOf(refused)).message).toMatch(/is out of stock right now/);
    const now = (await (await api.call('GET', `/api/app/Carts/GetCartsByUser/0`, { token: s.token })).json()) as CartDto;
    expect(now.lines[0]!.inStock).toBe(false);
    const raise = await api.call('PUT', `/api/app/Carts/${now.lines[0]!.id}`, { token: s.token, body: { qty: 2 } });
    expect(raise.status).toBe(409);
  });
});

it('documents the slot and order calls in /api/openapi.json, with the Idempotency-Key header', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as {
    paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string; required?: boolean }>; responses: Record<string, unknown> }>>;
  };
  expect(Object.keys(doc.paths)).toEqual(
    expect.arrayContaining([
      '/api/app/DeliverySlots',
      '/api/app/Orders',
      '/api/app/Orders/GetOrdersByUser/{userId}',
      '/api/app/Orders/{id}',
      '/api/app/Orders/{id}/Cancel',
      '/api/app/Orders/{id}/Reorder',
    ]),
  );
  const placeCall = doc.paths['/api/app/Orders']!.post!;
  expect(placeCall.parameters).toContainEqual(expect.objectContaining({ name: 'idempotency-key', in: 'header', required: true }));
  expect(Object.keys(placeCall.responses)).toEqual(expect.arrayContaining(['200', '201', '404', '409', '422']));
});

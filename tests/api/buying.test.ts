// Buying (issue 24) over HTTP: the cart holds no more than the shelf ('Only 8 left of …'), an out-of-stock line is set
// apart (out of the summary, the badge and the order, kept in the cart), 'Notify me when back' is kept per shopper
// and the grocer sees how many wait, until the product is back on the shelf.
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CartDto, StockAlertDto } from '../../src/server/account-schemas.ts';
import type { GrocerStockAlertsDto } from '../../src/server/grocer-schemas.ts';
import type { OrderDto } from '../../src/server/order-schemas.ts';
import { addresses, products, productVariantPrices, productVariants, stockAlerts } from '../../src/server/db/schema.ts';
import { readStoreSettings } from '../../src/server/store-settings.ts';
import { errorOf, plainProductIds, startTestApi, type TestApi } from './harness.ts';

const GROCER_TOKEN = 'grocer-token-for-buying-tests';
// 07:30 in Kolkata: today's slots from 10:00 are open.
const clock = new Date('2026-11-23T02:00:00Z');
const SLOT = '2026-11-23T12:00';
const limit = readStoreSettings().limits.unitsPerProduct;
let api: TestApi;
let spare: number[] = [];

beforeAll(async () => {
  api = await startTestApi({ products: 60, now: () => clock, grocerToken: GROCER_TOKEN });
  spare = await plainProductIds(api.db);
});
afterAll(async () => api?.close());

/** A plain product of its own for one test, with this many units on the shelf. */
async function product(stock: number, pricePaise = 5000) {
  const id = spare.shift();
  if (id === undefined) throw new Error('The seed has too few plain products for these tests');
  const [row] = await api.db
    .update(products)
    .set({ stock, pricePaise, mrpPaise: pricePaise })
    .where(eq(products.id, id))
    .returning({ id: products.id, name: products.name });
  return row!;
}

async function shopper() {
  const session = await api.register();
  const [address] = await api.db
    .insert(addresses)
    .values({ userId: session.user.id, name: 'Meera Iyer', phone: session.user.phone, line1: '12, 4th Cross, Jayanagar', city: 'Bengaluru', state: 'Karnataka', pincode: '560011', isDefault: true })
    .returning({ id: addresses.id });
  return { ...session, addressId: address!.id };
}
type Shopper = Awaited<ReturnType<typeof shopper>>;

const add = (s: Shopper, productsId: number, qty = 1, productVariantsId = 0) =>
  api.call('POST', '/api/app/Carts', { token: s.token, body: { productsId, productVariantsId, qty } });

async function cartOf(s: Shopper) {
  const res = await api.call('GET', `/api/app/Carts/GetCartsByUser/${s.user.id}`, { token: s.token });
  expect(res.status).toBe(200);
  return (await res.json()) as CartDto;
}

const setStock = (id: number, stock: number) => api.db.update(products).set({ stock }).where(eq(products.id, id));
const grocer = (path: string) => api.call('GET', `/api/grocer/${path}`, { headers: { authorization: `Grocer ${GROCER_TOKEN}` } });
const alert = (s: Shopper, method: 'POST' | 'DELETE', productsId: number, productVariantsId = 0) =>
  api.call(method, '/api/app/StockAlerts', { token: s.token, body: { productsId, productVariantsId } });

describe('the cart and the shelf', () => {
  it("refuses more than the shelf holds with 409 'Only 8 left of …', leaving the line as it was; the line says its most", async () => {
    const s = await shopper();
    const p = await product(8);
    const tooMany = await add(s, p.id, 9);
    expect(tooMany.status).toBe(409);
    expect(await errorOf(tooMany)).toEqual({ code: 'conflict', message: `Only 8 left of ${p.name}.` });
    expect((await add(s, p.id, 6)).status).toBe(201);
    const past = await add(s, p.id, 3);
    expect(past.status).toBe(409);
    expect((await errorOf(past)).message).toBe(`Only 8 left of ${p.name}.`);
    const cart = await cartOf(s);
    expect(cart.lines).toEqual([expect.objectContaining({ productsId: p.id, qty: 6, maxQty: 8, limitedByStock: true, inStock: true })]);

    const lineId = cart.lines[0]!.id;
    const raised = await api.call('PUT', `/api/app/Carts/${lineId}`, { token: s.token, body: { qty: 9 } });
    expect(raised.status).toBe(409);
    expect((await errorOf(raised)).message).toBe(`Only 8 left of ${p.name}.`);
    const toTheMost = await api.call('PUT', `/api/app/Carts/${lineId}`, { token: s.token, body: { qty: 8 } });
    expect(toTheMost.status).toBe(200);
    expect(((await toTheMost.json()) as CartDto).lines[0]).toMatchObject({ qty: 8, maxQty: 8 });
  });

  it('names the pack when a pack size has fewer units than asked for', async () => {
    const s = await shopper();
    const [pack] = await api.db
      .select({ productId: productVariants.productId, variantId: productVariants.id, variantName: productVariants.name, name: products.name })
      .from(productVariants)
      .innerJoin(productVariantPrices, eq(productVariantPrices.variantId, productVariants.id))
      .innerJoin(products, eq(products.id, productVariants.productId))
      .orderBy(productVariants.id)
      .limit(1);
    await api.db.update(productVariants).set({ stock: 3 }).where(eq(productVariants.id, pack!.variantId));
    const res = await add(s, pack!.productId, 4, pack!.variantId);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(`Only 3 left of ${pack!.name} (${pack!.variantName}).`);
  });

  it("keeps the per-order limit's words when the shelf holds more than it", async () => {
    const s = await shopper();
    const p = await product(500);
    expect((await add(s, p.id, limit)).status).toBe(201);
    const more = await add(s, p.id);
    expect((await errorOf(more)).message).toBe(`You can order at most ${limit} of one item, and this one is already in your cart.`);
    expect((await cartOf(s)).lines[0]).toMatchObject({ maxQty: limit, limitedByStock: false });
  });
});

describe('an out-of-stock line', () => {
  it('is set apart: out of the summary and the badge, and not ordered; it stays in the cart', async () => {
    const s = await shopper();
    const kept = await product(20, 12_000);
    const gone = await product(20, 30_000);
    expect((await add(s, kept.id, 2)).status).toBe(201);
    expect((await add(s, gone.id, 1)).status).toBe(201);
    await setStock(gone.id, 0);

    const cart = await cartOf(s);
    expect(cart.lines.map((l) => [l.productsId, l.inStock, l.maxQty])).toEqual([
      [kept.id, true, limit],
      [gone.id, false, 0],
    ]);
    expect(cart.summary).toMatchObject({ itemCount: 2, subtotalPaise: 24_000, mrpTotalPaise: 24_000 });
    const badge = await api.call('GET', `/api/app/Carts/GetTotalCart/${s.user.id}`, { token: s.token });
    expect(await badge.json()).toEqual({ cartsTotal: 2 });

    const res = await api.call('POST', '/api/app/Orders', {
      token: s.token,
      headers: { 'Idempotency-Key': `buying-${process.pid}-1` },
      body: { addressId: s.addressId, slotId: SLOT, paymentMethod: 'cash' },
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const order = (await res.json()) as OrderDto;
    expect(order.lines.map((l) => [l.productsId, l.qty])).toEqual([[kept.id, 2]]);
    expect(order.summary.subtotalPaise).toBe(24_000);
    expect(order.summary.totalPaise).toBe(cart.summary.totalPaise);
    // The out-of-stock line is still in the cart, set apart, for the shopper to remove or wait for.
    expect((await cartOf(s)).lines.map((l) => [l.productsId, l.inStock])).toEqual([[gone.id, false]]);
  });

  it('alone in the cart: the order is refused naming it, and nothing is taken', async () => {
    const s = await shopper();
    const gone = await product(5);
    expect((await add(s, gone.id)).status).toBe(201);
    await setStock(gone.id, 0);
    const res = await api.call('POST', '/api/app/Orders', {
      token: s.token,
      headers: { 'Idempotency-Key': `buying-${process.pid}-2` },
      body: { addressId: s.addressId, slotId: SLOT, paymentMethod: 'cash' },
    });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(`${gone.name} is out of stock`);
  });
});

describe("'Notify me when back'", () => {
  it('is kept per shopper, shows on the cart line, is counted for the grocer, and can be taken back', async () => {
    const a = await shopper();
    const b = await shopper();
    const gone = await product(4);
    expect((await add(a, gone.id)).status).toBe(201);
    await setStock(gone.id, 0);
    expect((await cartOf(a)).lines[0]).toMatchObject({ inStock: false, notifyRequested: false });

    const asked = await alert(a, 'POST', gone.id);
    expect(asked.status).toBe(201);
    expect((await asked.json()) as StockAlertDto).toEqual({ productsId: gone.id, productVariantsId: 0, notifyRequested: true });
    // Asking twice is still one shopper waiting.
    expect((await alert(a, 'POST', gone.id)).status).toBe(201);
    expect((await alert(b, 'POST', gone.id)).status).toBe(201);
    expect((await cartOf(a)).lines[0]).toMatchObject({ notifyRequested: true });

    const waiting = await grocer('StockAlerts');
    expect(waiting.status).toBe(200);
    expect(waiting.headers.get('cache-control')).toBe('no-store');
    expect(((await waiting.json()) as GrocerStockAlertsDto).find((w) => w.productsId === gone.id)).toEqual({
      productsId: gone.id,
      name: gone.name,
      productVariantsId: 0,
      variantName: null,
      waiting: 2,
      stock: 0,
    });

    const stopped = await alert(b, 'DELETE', gone.id);
    expect(stopped.status).toBe(200);
    expect((await stopped.json()) as StockAlertDto).toMatchObject({ notifyRequested: false });
    const after = (await (await grocer('StockAlerts')).json()) as GrocerStockAlertsDto;
    expect(after.find((w) => w.productsId === gone.id)?.waiting).toBe(1);
    // One shopper's alert is not another's.
    expect((await cartOf(a)).lines[0]).toMatchObject({ notifyRequested: true });
  });

  it('refuses a product on the shelf (409), one that does not exist (404), a pack of another product (400), and no token (401)', async () => {
    const s = await shopper();
    const onShelf = await product(5);
    const res = await alert(s, 'POST', onShelf.id);
    expect(res.status).toBe(409);
    expect((await errorOf(res)).message).toBe(`${onShelf.name} is in stock: you can add it to your cart now.`);
    expect((await alert(s, 'POST', 999_999)).status).toBe(404);
    const [otherPack] = await api.db.select({ id: productVariants.id }).from(productVariants).limit(1);
    expect((await alert(s, 'POST', onShelf.id, otherPack!.id)).status).toBe(400);
    expect((await api.call('POST', '/api/app/StockAlerts', { body: { productsId: onShelf.id, productVariantsId: 0 } })).status).toBe(401);
  });

  it('is closed when a cancelled order puts the product back on the shelf: the grocer no longer counts it', async () => {
    const buyer = await shopper();
    const waiter = await shopper();
    const p = await product(2);
    expect((await add(buyer, p.id, 2)).status).toBe(201);
    const placed = await api.call('POST', '/api/app/Orders', {
      token: buyer.token,
      headers: { 'Idempotency-Key': `buying-${process.pid}-3` },
      body: { addressId: buyer.addressId, slotId: SLOT, paymentMethod: 'cash' },
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    expect((await alert(waiter, 'POST', p.id)).status).toBe(201);
    const order = (await placed.json()) as OrderDto;
    const cancel = await api.call('POST', `/api/grocer/Orders/${order.id}/Cancel`, {
      body: { reason: 'Packed the wrong bag' },
      headers: { authorization: `Grocer ${GROCER_TOKEN}` },
    });
    expect(cancel.status).toBe(200);
    const waiting = (await (await grocer('StockAlerts')).json()) as GrocerStockAlertsDto;
    expect(waiting.find((w) => w.productsId === p.id)).toBeUndefined();
    const [row] = await api.db
      .select({ notifiedAt: stockAlerts.notifiedAt })
      .from(stockAlerts)
      .where(and(eq(stockAlerts.userId, waiter.user.id), eq(stockAlerts.productId, p.id)));
    expect(row!.notifiedAt).toBeInstanceOf(Date);
    expect(await api.db.select().from(stockAlerts).where(and(eq(stockAlerts.productId, p.id), isNull(stockAlerts.notifiedAt)))).toEqual([]);
  });
});

it('documents the stock alert calls and the grocer’s count in /api/openapi.json', async () => {
  const doc = (await (await api.get('/api/openapi.json')).json()) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };
  expect(Object.keys(doc.paths['/api/app/StockAlerts'] ?? {}).sort()).toEqual(['delete', 'post']);
  expect(Object.keys(doc.paths['/api/app/StockAlerts']!.post!.responses)).toEqual(expect.arrayContaining(['201', '401', '404', '409']));
  expect(Object.keys(doc.paths['/api/grocer/StockAlerts']!.get!.responses)).toEqual(expect.arrayContaining(['200', '401']));
  expect(Object.keys(doc.paths['/api/app/Carts']!.post!.responses)).toContain('409');
});
